// SPDX-License-Identifier: MIT
// Types of the parameter report (parameterReport; docs/parameters.md); re-exported by types.ts.

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
