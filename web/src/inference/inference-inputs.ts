// SPDX-License-Identifier: MIT
// The inference workload as the user sets it, and the options handed to inferenceReport. Numbers
// stay as the text typed: the core parses and validates them, so its error (naming the option)
// shows next to the input.
import type { InferenceOptions } from '../core/types';
import { customGpuId, customGpuOptions, defaultCustomGpu, type CustomGpuFields } from '../gpu/custom-gpu';

/** With gpu = 'custom', the custom_gpu_* fields define it (custom-gpu.ts). */
export interface Workload extends CustomGpuFields {
  /** Serving-engine profile ('' for none: the plain roofline); docs/serving.md, "Engine profiles". */
  engine: string;
  /** With engine hf: transformers' cache_implementation ('' or 'dynamic': DynamicCache; 'static'). */
  hf_cache: string;
  /** With engine vllm or vllm-v0: its max_model_len for the start-up check; empty: the config's. */
  max_model_len: string;
  /** With engine vllm: the profile run's sampler ('' or 'torch': v0.11's sort; 'flashinfer': v0.10's). */
  vllm_sampler: string;
  gpu: string;
  tp: string;
  pp: string;
  ep: string;
  /** With ep > tp: '' (all-to-all) or 'deepep' (docs/latency.md, "Expert-parallel dispatch"). */
  moe_dispatcher: string;
  /** Empty: the checkpoint's own format (quantization_config, else torch_dtype), as the CLI and the Plan tab. */
  weights: string;
  kv_dtype: string;
  batch: string;
  context: string;
  prefill_chunk: string;
  kv_block: string;
  gpu_memory_utilization: string;
  overhead_gib: string;
  eager_attention: boolean;
  weight_bits: string;
  group_size: string;
  /** Latency (with a GPU): the request timed; their sum is the context when context is empty. */
  prompt_len: string;
  gen_len: string;
  flops_efficiency: string;
  hbm_efficiency: string;
  interconnect_efficiency: string;
  /** Empty: the GPU catalog's price. */
  price_per_gpu_hour: string;
  /** Read by the core for fp8 weight formats only. */
  fp8_activations: boolean;
  /** Images per request (a model whose vision tower the core counts); their tokens join each prompt. */
  images: string;
  /** The images' size in pixels; empty: the core's 1024 x 1024. Qwen2-VL's token count follows it. */
  image_width: string;
  image_height: string;
}

export const defaultGpuId = 'h100-sxm-80gb';

/**
 * The core's own defaults (core/src/options.cpp, options_latency.cpp), shown filled in so the user
 * sees them. Context is left empty: the core then holds prompt + output tokens per sequence
 * (3840 + 256 = its default context of 4096). Efficiencies: docs/latency.md, "Default efficiencies".
 */
export const defaultWorkload: Workload = {
  engine: '',
  hf_cache: '',
  max_model_len: '',
  vllm_sampler: '',
  gpu: defaultGpuId,
  tp: '1',
  pp: '1',
  ep: '1',
  moe_dispatcher: '',
  weights: '',
  kv_dtype: 'bf16',
  batch: '1',
  context: '',
  prefill_chunk: '0',
  kv_block: '0',
  gpu_memory_utilization: '0.9',
  overhead_gib: '1',
  eager_attention: false,
  weight_bits: '4',
  group_size: '128',
  prompt_len: '3840',
  gen_len: '256',
  flops_efficiency: '0.7',
  hbm_efficiency: '0.8',
  interconnect_efficiency: '0.7',
  price_per_gpu_hour: '',
  fp8_activations: true,
  images: '0',
  image_width: '',
  image_height: '',
  ...defaultCustomGpu,
};

/** Formats whose bit width and group size are options (GPTQ/AWQ). */
export const groupedFormats: ReadonlySet<string> = new Set(['gptq', 'awq']);

/** Formats whose products may run in fp8 (docs/latency.md, "Which peak"): fp8_activations applies. */
export const fp8Formats: ReadonlySet<string> = new Set(['fp8', 'fp8-block128']);

/** Text fields handed to the core as typed. */
export const workloadTextKeys: ReadonlyArray<Exclude<keyof Workload, 'eager_attention' | 'fp8_activations'>> = [
  'engine',
  'hf_cache',
  'max_model_len',
  'vllm_sampler',
  'gpu',
  'tp',
  'pp',
  'ep',
  'moe_dispatcher',
  'weights',
  'kv_dtype',
  'batch',
  'context',
  'prefill_chunk',
  'kv_block',
  'gpu_memory_utilization',
  'overhead_gib',
  'weight_bits',
  'group_size',
  'prompt_len',
  'gen_len',
  'flops_efficiency',
  'hbm_efficiency',
  'interconnect_efficiency',
  'price_per_gpu_hour',
  'images',
  'image_width',
  'image_height',
];

/** Expert parallelism wider than tp dispatches tokens between GPUs: the dispatcher applies. */
export function expertDispatchApplies(workload: Pick<Workload, 'tp' | 'ep'>): boolean {
  return Number(workload.ep) > Number(workload.tp);
}

/** The serving engines the core profiles (core/include/fitcheck/engine_profile.hpp). */
export const engines: ReadonlyArray<{ id: string; name: string }> = [
  { id: 'vllm', name: 'vLLM (V1)' },
  { id: 'sglang', name: 'SGLang' },
  { id: 'trtllm', name: 'TensorRT-LLM' },
  { id: 'llamacpp', name: 'llama.cpp' },
  { id: 'hf', name: 'HF transformers generate' },
  { id: 'vllm-v0', name: 'vLLM V0 (0.6/0.7)' },
];

/**
 * Fields the form shows filled with the core's plain defaults. With an engine they are left out
 * while they hold those defaults, so the engine's own budget, chunk, block and efficiencies apply
 * (the core lets an option that is given win over the profile).
 */
const engineOwnedDefaults: Partial<Record<keyof Workload, string>> = {
  gpu_memory_utilization: defaultWorkload.gpu_memory_utilization,
  prefill_chunk: defaultWorkload.prefill_chunk,
  kv_block: defaultWorkload.kv_block,
  flops_efficiency: defaultWorkload.flops_efficiency,
  hbm_efficiency: defaultWorkload.hbm_efficiency,
};

/** Overrides for a point of a sweep over context: the context alone sets the sequence length. */
export const withoutRequestLengths = { prompt_len: '', gen_len: '' } as const;

/** The options object handed to inferenceReport; empty fields are left to the core's defaults. */
export function inferenceOptions(
  workload: Workload,
  overrides: Partial<Record<keyof InferenceOptions, string | number>> = {},
): InferenceOptions {
  const options: Record<string, string | number | boolean> = {};
  for (const key of workloadTextKeys) {
    const value = String(workload[key] ?? '').trim();
    if (value !== '') options[key] = value;
  }
  if (workload.eager_attention) options.eager_attention = true;
  // The core refuses hf_cache with any other engine; the field keeps its value for when hf is picked again.
  if (options.engine !== 'hf') delete options.hf_cache;
  if (options.engine !== 'vllm' && options.engine !== 'vllm-v0') delete options.max_model_len;
  if (options.engine !== 'vllm' && options.engine !== 'vllm-v0') delete options.vllm_sampler;
  if (options.engine !== undefined)
    for (const [key, value] of Object.entries(engineOwnedDefaults)) if (options[key] === value) delete options[key];
  if (fp8Formats.has(String(options.weights ?? ''))) options.fp8_activations = workload.fp8_activations;
  // The core refuses a dispatcher where no tokens are dispatched; the field keeps its value for later.
  if (!expertDispatchApplies(workload)) delete options.moe_dispatcher;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === '') delete options[key];
    else options[key] = value;
  }
  Object.assign(options, customGpuOptions(workload, options.gpu === customGpuId));
  // Bit width and group size are options of GPTQ/AWQ only; the core refuses them elsewhere.
  if (!groupedFormats.has(String(options.weights ?? ''))) {
    delete options.weight_bits;
    delete options.group_size;
  }
  return options as InferenceOptions;
}
