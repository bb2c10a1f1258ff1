// SPDX-License-Identifier: MIT
// Types of the inference report's options and answer (inferenceReport; docs/inference-memory.md, docs/latency.md); re-exported by types.ts.
import type { Accelerator } from './catalog-types';

export interface MemoryTerm {
  name: string;
  bytes: number;
  formula: string;
}

export interface CapacityAnswer {
  value: number;
  limited_by: string;
  formula: string;
}

/** One change of the request that makes it fit, and the memory it leaves. */
export interface FitChange {
  what: 'weights' | 'kv_dtype' | 'prefill_chunk' | 'batch' | 'context' | 'gpus';
  options: Record<string, string>;
  summary: string;
  total_bytes_per_gpu: number;
  headroom_bytes: number;
}

/** Options of inferenceReport, as the CLI's flags without the dashes (kv_dtype for --kv-dtype). */
/** Serving-engine profiles (docs/serving.md, "Engine profiles"). */
export type EngineId = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'hf' | 'vllm-v0';

export interface InferenceOptions {
  /** Apply an engine's profile (memory budget, scheduler, step costs); absent: the plain roofline. */
  engine?: EngineId;
  /** With engine hf: transformers' cache_implementation (absent: dynamic, the DynamicCache). */
  hf_cache?: 'dynamic' | 'static';
  /** With engine vllm: the profile run's sampler (absent: torch, which sorts the logits; docs/serving.md). */
  vllm_sampler?: 'torch' | 'flashinfer';
  weights?: string;
  kv_dtype?: string;
  batch?: number;
  context?: number;
  prefill_chunk?: number;
  kv_block?: number;
  tp?: number;
  pp?: number;
  ep?: number;
  gpu?: string;
  gpu_memory_utilization?: number;
  overhead_gib?: number;
  eager_attention?: boolean;
  logits_all_positions?: boolean;
  weight_bits?: number;
  group_size?: number;
  /** Latency (computed when a GPU is given). prompt_len + gen_len is the context unless context is given. */
  prompt_len?: number;
  gen_len?: number;
  flops_efficiency?: number;
  hbm_efficiency?: number;
  interconnect_efficiency?: number;
  price_per_gpu_hour?: number;
  /** Images per request and their size in pixels (a counted vision tower: Gemma-3, Qwen2-VL, Llama 4, LLaVA, LLaVA-NeXT, PaliGemma, Mistral-3, Idefics3/SmolVLM, InternVL). */
  images?: number;
  image_width?: number;
  image_height?: number;
  fp8_activations?: boolean;
  moe_dispatcher?: 'alltoall' | 'deepep';
}

export interface LatencyPhaseReport {
  seconds: number;
  dominant_op: string;
  dominant_bound: string;
  ops: Record<string, { seconds: number; flops: number; bytes: number; bound: string }>;
}

export interface LatencyReport {
  prompt_len: number;
  gen_len: number;
  time_to_first_token_seconds: number;
  prefill_seconds: number;
  decode_step_first_seconds: number;
  decode_step_last_seconds: number;
  decode_total_seconds: number;
  end_to_end_seconds: number;
  request_tokens_per_second: number;
  batch_tokens_per_second: number;
  prefill_tokens_per_second: number;
  decode_tokens_per_second: number;
  gpus: number;
  price_per_hour_usd: number;
  cost_per_million_input_tokens_usd: number;
  cost_per_million_output_tokens_usd: number;
  weight_bytes_per_gpu: number;
  decode_weight_bytes_read_per_gpu: number;
  dominant_op: string;
  dominant_bound: string;
  prefill_dominates: boolean;
  assumptions_used: {
    flops_efficiency: number;
    hbm_efficiency: number;
    interconnect_efficiency: number;
    fp8_activations: boolean;
    moe_dispatcher: 'alltoall' | 'deepep';
    matmul_dtype: string;
    matmul_flops_per_second: number;
    hbm_bytes_per_second: number;
  };
  phases: {
    prefill: LatencyPhaseReport;
    decode_first: LatencyPhaseReport;
    decode_last: LatencyPhaseReport;
    decode_full: LatencyPhaseReport;
  };
  lines: Array<{
    phase: string;
    op: string;
    flops: number;
    bytes: number;
    seconds: number;
    bound: string;
    formula: string;
  }>;
  summary: string[];
  notes: string[];
}

export interface InferenceReport {
  model_type: string;
  /** false when the model's parameter count rests on guesses (see ParameterReport). */
  parameter_count_exact: boolean;
  guessed_fields: string[];
  /** The engine profile applied, or 'none'. */
  engine: EngineId | 'none';
  /** With engine hf: the cache timed (StaticCache: read whole at every decode step, no copy). */
  hf_cache?: 'dynamic' | 'static';
  workload: {
    weights: string;
    kv_dtype: string;
    batch: number;
    context: number;
    prefill_chunk: number;
    kv_block: number;
    tp: number;
    pp: number;
    ep: number;
    gpu_memory_utilization: number;
    overhead_bytes: number;
    flash_attention: boolean;
    /** Requests with images only. */
    images?: number;
    image_tokens?: number;
    /** Llama 3.2 Vision with images: the tokens its cross-attention layers attend to per sequence. */
    cross_attention_tokens?: number;
  };
  weight_bytes: number;
  /** Of weight_bytes: a multimodal checkpoint's towers and projectors, unquantized (absent for text models). */
  encoder_weight_bytes?: number;
  kv_cache_bytes: number;
  kv_cache_bytes_per_token: number;
  activation_bytes: number;
  logits_bytes: number;
  overhead_bytes: number;
  total_bytes_per_gpu: number;
  terms: MemoryTerm[];
  kv_cache: {
    bytes_per_token: number;
    /** State-space (Mamba) layers' fixed state per sequence, all layers; only for such models. */
    state_bytes_per_sequence?: number;
    /** Cross-attention keys and values of a fixed source per sequence (Whisper's frames, the image tokens). */
    cross_bytes_per_sequence?: number;
    convention: string;
    terms: Array<{
      layer_kind: number;
      layers: number;
      bytes_per_token_per_layer: number;
      cached_tokens_per_sequence: number;
      state_bytes_per_sequence_per_layer?: number;
      cross_source_tokens_per_sequence?: number;
      cross_bytes_per_sequence_per_layer?: number;
      bytes: number;
      formula: string;
    }>;
  };
  weights_whole_model: {
    format: string;
    bytes: number;
    effective_bits_per_weight: number;
    quantized_params: number;
    high_precision_params: number;
    scale_bytes: number;
    notes: string[];
  };
  /** Present when a GPU is chosen. */
  /** Every figure of the GPU used (a custom GPU's are the user's), and the memory budget. */
  gpu?: Accelerator & { budget_bytes: number };
  fits?: boolean;
  headroom_bytes?: number;
  /**
   * When it does not fit: the nearest single changes that do, as inference options (fit_changes.cpp).
   * Absent from the first-view module's report (the full module's has them: inference/use-inference.ts).
   */
  fit_changes?: FitChange[];
  max_batch_size?: number;
  max_context_length?: number;
  min_gpus?: number;
  capacity?: {
    max_batch_size: CapacityAnswer;
    max_context_length: CapacityAnswer;
    min_gpus: CapacityAnswer;
    decode_max_batch_size: CapacityAnswer;
  };
  /** CLI reports with an engine profile: its scheduler simulated at saturation (docs/serving.md); the module leaves it out. */
  engine_capacity?: {
    kv_capacity_tokens: number;
    max_running_sequences: number;
    mean_running_sequences: number;
    offline_output_tokens_per_second: number;
    limited_by: string;
    skipped: string;
    how: string;
  };
  /** With engine vllm or vllm-v0 and a GPU: whether vLLM's KV cache holds one request of max_model_len, or it refuses to start. */
  engine_start?: {
    max_model_len: number;
    max_model_len_from_config: boolean;
    needed_bytes: number;
    available_bytes: number;
    starts: boolean;
    longest_max_model_len: number;
    rule: string;
  };
  /** Present when a GPU is chosen; the llm-analysis-named keys (prefill_latency, ...) sit at the top level too. */
  latency?: LatencyReport;
  prefill_latency?: number;
  decode_latency?: number;
  total_decode_latency?: number;
  total_latency?: number;
  total_per_token_latency?: number;
  prefill_tokens_per_sec?: number;
  decode_tokens_per_sec?: number;
  total_tokens_per_sec?: number;
  prefill_cost_per_1k_tokens?: number;
  decode_cost_per_1k_tokens?: number;
  total_cost_per_1k_tokens?: number;
  kv_cache_memory_per_gpu?: number;
  weight_memory_per_gpu?: number;
  prefill_max_batch_size_per_gpu?: number;
  decode_max_batch_size_per_gpu?: number;
  assumptions: string[];
}

/** Options of inferenceSweep: the inference options, with the axis and its values (core/include/fitcheck/inference_sweep.hpp). */
export interface InferenceSweepOptions extends InferenceOptions {
  sweep: 'context' | 'batch';
  /** Comma-separated counts, at most 64. */
  sweep_values: string;
}

/** Memory at each value of one setting, without a GPU; values the options refuse are listed apart. */
export interface InferenceSweepReport {
  axis: 'context' | 'batch';
  points: Array<{
    value: number;
    total_bytes_per_gpu: number;
    weight_bytes: number;
    kv_cache_bytes: number;
    activation_bytes: number;
  }>;
  refused: Array<{ value: number; option: string; message: string }>;
}
