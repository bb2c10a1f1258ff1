// SPDX-License-Identifier: MIT
// Where the model comes from, and the fields of "from numbers" (text as typed; the core parses
// and validates them).

export type ModelKind = 'preset' | 'pasted' | 'numbers';

/** The fields of "from numbers": text as typed; empty means "leave out of the config". */
export interface ModelNumbers {
  num_hidden_layers: string;
  hidden_size: string;
  num_attention_heads: string;
  num_key_value_heads: string;
  head_dim: string;
  intermediate_size: string;
  vocab_size: string;
  max_position_embeddings: string;
  num_local_experts: string;
  num_experts_per_tok: string;
  tie_word_embeddings: boolean;
}

/** Llama-3.1-8B's shape as a starting point for "from numbers". */
export const defaultNumbers: ModelNumbers = {
  num_hidden_layers: '32',
  hidden_size: '4096',
  num_attention_heads: '32',
  num_key_value_heads: '8',
  head_dim: '',
  intermediate_size: '14336',
  vocab_size: '128256',
  max_position_embeddings: '131072',
  num_local_experts: '',
  num_experts_per_tok: '',
  tie_word_embeddings: false,
};
