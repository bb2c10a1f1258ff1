// SPDX-License-Identifier: MIT
// Hand-written types of the fitcheck WebAssembly module (Emscripten 3.1.6 cannot emit them).
// tests/node/wasm-module.test.mjs checks every exported name against `moduleExports` below.
import type { PlanOptions, PlanReport, TrainingPlanOptions, TrainingPlanReport } from './plan-types';
import type { ServingOptions, ServingReport } from './serving-types';
import type { LocalOptions, LocalReport } from './local-types';
import type { TrainingOptions, TrainingReport } from './training-types';
import type { CheckpointNeedMore, CheckpointReport } from './model-file-types';

export type * from './plan-types';
export type * from './serving-types';
export type * from './local-types';
export type * from './training-types';
export type * from './model-file-types';

export interface ParameterBreakdown {
  embedding: number;
  attention: number;
  mlp: number;
  routed_experts: number;
  shared_experts: number;
  router: number;
  norms: number;
  lm_head: number;
  /** State-space (Mamba-1 and Mamba-2) mixers; only for models that have them. */
  ssm?: number;
}

export interface LayerKind {
  layer_count: number;
  attention: {
    /** 'none': a hybrid's state-space or MLP-only layer. */
    kind: 'MHA' | 'GQA' | 'MQA' | 'MLA' | 'none';
    num_heads: number;
    num_kv_heads: number;
    head_dim: number;
    value_head_dim: number;
    sliding_window: number;
    qkv_bias: boolean;
    output_bias: boolean;
    cross_attention: boolean;
    /** With cross_attention: false for Llama 3.2 Vision's cross-attention layers (no self-attention). */
    self_attention?: boolean;
    /** With cross_attention: the source is fixed per sequence (Whisper's frames, the image tokens). */
    cross_source_per_sequence?: boolean;
  };
  mlp?: { intermediate_size: number; gated: boolean; bias: boolean };
  ssm?: {
    /** Mamba-1: one head of width 1 per inner channel, no groups, and time_step_rank. */
    kind: 'mamba1' | 'mamba2';
    num_heads: number;
    head_dim: number;
    state_size: number;
    groups: number;
    conv_kernel: number;
    time_step_rank?: number;
  };
  moe?: {
    num_experts: number;
    experts_per_token: number;
    expert_intermediate_size: number;
    num_shared_experts: number;
    shared_expert_intermediate_size: number;
  };
  hidden_norms: number;
  parallel_attention_mlp: boolean;
  is_encoder: boolean;
}

export interface ParameterReport {
  model_type: string;
  architecture: string;
  total_params: number;
  /** false when the count rests on guesses (an unknown model_type read as a generic decoder). */
  parameter_count_exact: boolean;
  /** What was guessed and why; empty when the count is exact. */
  guessed_fields: string[];
  active_params_per_token: number;
  active_params_convention: string;
  non_embedding_params: number;
  multi_token_prediction_params: number;
  tied_output_head_params: number;
  /**
   * Present when the vision tower is counted (Gemma-3's siglip, Qwen2-VL's qwen2_vl, Llama 4's llama4): tower, projector,
   * the whole checkpoint, and the image tokens of one image (qwen2_vl, llama4: of a 1024 x 1024 image;
   * they follow the image size).
   */
  vision_tower_kind?: 'siglip' | 'qwen2_vl' | 'qwen3_vl' | 'llama4' | 'mllama';
  vision_tower_params?: number;
  multimodal_projector_params?: number;
  total_params_with_vision?: number;
  /**
   * Present when the audio tower is counted (Gemma 3n's gemma3n_usm, Phi-4-multimodal's
   * phi4_multimodal_conformer): tower, projector, the whole checkpoint (the language model with every
   * counted tower and projector), and, for Gemma 3n only, the soft tokens one audio clip adds
   * (audio_soft_tokens_per_image).
   */
  audio_tower_kind?: 'gemma3n_usm' | 'phi4_multimodal_conformer';
  audio_tower_params?: number;
  audio_projector_params?: number;
  total_params_with_audio?: number;
  audio_tokens_per_clip?: number;
  image_tokens_per_image?: number;
  checkpoint_notes: string[];
  breakdown: ParameterBreakdown;
  weights_16bit: { bytes: number; bytes_per_parameter: number; formula: string };
  shape: {
    hidden_size: number;
    num_layers: number;
    vocab_size: number;
    max_position_embeddings: number;
    tie_word_embeddings: boolean;
    norm: string;
    position_encoding: string;
    layer_kinds: LayerKind[];
  };
  assumptions: string[];
  not_counted: string[];
}

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
export type EngineId = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'hf';

export interface InferenceOptions {
  /** Apply an engine's profile (memory budget, scheduler, step costs); absent: the plain roofline. */
  engine?: EngineId;
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

/** transformer_mem.py's arguments (underscored); defaults are the script's. */
export interface TransformerMemOptions {
  params?: number;
  num_gpus?: number;
  tensor_parallel_size?: number;
  pipeline_parallel_size?: number;
  partition_activations?: boolean;
  zero_stage?: number;
  checkpoint_activations?: boolean;
  batch_size_per_gpu?: number;
  hidden_size?: number;
  num_attention_heads?: number;
  sequence_length?: number;
  num_layers?: number;
  fp32_model?: boolean;
  fp32_grads?: boolean;
  zero_allgather_bucket_size?: number;
  zero3_max_live_params?: number;
  misc_mem_gb?: number;
  infer?: boolean;
}

export interface TransformerMemReport {
  infer: boolean;
  terms: Array<{ name: string; bytes: number; gib: number; formula: string }>;
  total_bytes: number;
  total_gib: number;
  total_formula: string;
  note: string;
}

export interface Accelerator {
  id: string;
  name: string;
  vendor: string;
  memory_bytes: number;
  memory_convention: string;
  memory_bandwidth_bytes_per_second: number;
  dense_flops_per_second: Record<'fp32' | 'tf32' | 'bf16' | 'fp16' | 'fp8' | 'fp4' | 'int8' | 'int4', number>;
  interconnect: string;
  interconnect_bytes_per_second_per_direction: number;
  gpus_per_node: number;
  unified_memory: boolean;
  /** Apple silicon only: macOS's default GPU working set, which budgets are taken of (docs/hardware.md). */
  gpu_working_set_bytes?: number;
  gpu_working_set_source?: string;
  price_per_hour_usd: number;
  price_source: string;
  sources: string;
}

export interface FormatCatalog {
  weight_formats: Array<{
    id: string;
    name: string;
    base_bits_per_weight: number;
    high_precision: string;
    source: string;
  }>;
  kv_cache_dtypes: Array<{ id: string; element_bits: number; source: string }>;
}

/** The config.json keys the core reads (fitcheck::config_fields_json, core/include/fitcheck/config.hpp). */
export interface ConfigFieldTable {
  fields: Array<{
    /** The object the key is read from: 'model' is the top level or text_config. */
    in: 'model' | 'quantization_config' | 'attn_config' | 'ffn_config' | 'vision_config' | 'audio_config';
    name: string;
    aliases: string[];
    /** For an object: the `in` of the keys read inside it; 'none': only its presence is read. */
    holds?: 'none' | 'model' | 'quantization_config' | 'attn_config' | 'ffn_config' | 'vision_config' | 'audio_config';
  }>;
}

/** An Error thrown by the core; `field` names the offending config field or option when there is one. */
export interface CoreError extends Error {
  field?: string;
  /** The first-view module leaves this config's family to the full module (wasm/api.js, status 3). */
  fullModule?: boolean;
}

export interface FitcheckModule {
  parameterReport(configJsonText: string): ParameterReport;
  inferenceReport(configJsonText: string, options: InferenceOptions): InferenceReport;
  trainingReport(configJsonText: string, options: TrainingOptions): TrainingReport;
  planReport(configJsonText: string, options: PlanOptions): PlanReport;
  trainingPlanReport(configJsonText: string, options: TrainingPlanOptions): TrainingPlanReport;
  transformerMemReport(options: TransformerMemOptions): TransformerMemReport;
  servingReport(configJsonText: string, options: ServingOptions): ServingReport;
  localReport(configJsonText: string, options: LocalOptions): LocalReport;
  acceleratorCatalog(): Accelerator[];
  formatCatalog(): FormatCatalog;
  version(): string;
  configFields(): ConfigFieldTable;
  /** The core's one input limit in bytes (fitcheck/config.hpp kMaxConfigBytes): a longer config text is refused unread. */
  maxInputBytes(): number;
  checkpointReport(bytes: Uint8Array, fileSizeBytes: number): CheckpointReport | CheckpointNeedMore;
  /** A report's JSON text exactly as the core wrote it (the CLI's --json prints the same bytes). */
  reportText(
    name: 'parameters' | 'inference' | 'training' | 'plan' | 'training_plan' | 'transformer_mem',
    configText: string,
    options?: Record<string, string | number | boolean>,
  ): string;
}

/** Every function the module exports, for the check against the real module. */
export const moduleExports: ReadonlyArray<keyof FitcheckModule> = [
  'parameterReport',
  'inferenceReport',
  'trainingReport',
  'planReport',
  'trainingPlanReport',
  'transformerMemReport',
  'servingReport',
  'localReport',
  'acceleratorCatalog',
  'formatCatalog',
  'version',
  'configFields',
  'maxInputBytes',
  'checkpointReport',
  'reportText',
];
