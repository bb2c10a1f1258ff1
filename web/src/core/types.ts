// SPDX-License-Identifier: MIT
// Hand-written types of the fitcheck WebAssembly module (Emscripten 3.1.6 cannot emit them).
// tests/node/wasm-module.test.mjs checks every exported name against `moduleExports` below.

export interface ParameterBreakdown {
  embedding: number;
  attention: number;
  mlp: number;
  routed_experts: number;
  shared_experts: number;
  router: number;
  norms: number;
  lm_head: number;
}

export interface LayerKind {
  layer_count: number;
  attention: {
    kind: 'MHA' | 'GQA' | 'MQA' | 'MLA';
    num_heads: number;
    num_kv_heads: number;
    head_dim: number;
    value_head_dim: number;
    sliding_window: number;
    qkv_bias: boolean;
    output_bias: boolean;
    cross_attention: boolean;
  };
  mlp?: { intermediate_size: number; gated: boolean; bias: boolean };
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
  active_params_per_token: number;
  active_params_convention: string;
  non_embedding_params: number;
  multi_token_prediction_params: number;
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

/** An Error thrown by the core; `field` names the offending config field when there is one. */
export interface CoreError extends Error {
  field?: string;
}

export interface FitcheckModule {
  parameterReport(configJsonText: string): ParameterReport;
  version(): string;
}

/** Every function the module exports, for the check against the real module. */
export const moduleExports: ReadonlyArray<keyof FitcheckModule> = ['parameterReport', 'version'];
