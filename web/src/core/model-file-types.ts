// SPDX-License-Identifier: MIT
// Types of a weight file's header (checkpointReport);
// re-exported by types.ts.

/** checkpointReport's answer while the slice is too short: slice `bytes_needed` bytes and call again. */
export interface CheckpointNeedMore {
  complete: false;
  bytes_needed: number;
  needed_for: string;
}

/** A weight file's header (core/include/fitcheck/checkpoint.hpp; keys in docs/model-files.md). */
export interface CheckpointReport {
  format: 'gguf' | 'safetensors' | 'safetensors_index';
  gguf_version?: number;
  architecture: string;
  name: string;
  shapes_known: boolean;
  tensor_count: number;
  total_parameters: number;
  total_bytes: number;
  header_bytes: number;
  data_offset_bytes: number;
  alignment_bytes?: number;
  /** GGUF only: `<arch>.` keys without the prefix; null when the file does not say. */
  hyperparameters?: {
    block_count: number | null;
    context_length: number | null;
    embedding_length: number | null;
    feed_forward_length: number | null;
    'attention.head_count': number | null;
    'attention.head_count_kv': number | null;
    'attention.key_length': number | null;
    'attention.value_length': number | null;
    expert_count: number | null;
    expert_used_count: number | null;
    vocab_size: number | null;
    file_type: number | null;
    file_type_name: string;
  };
  metadata_count: number;
  metadata: Record<string, string>;
  by_type: Array<{ type: string; tensors: number; elements: number; bytes: number }>;
  shards?: string[];
  tensors: Array<{
    name: string;
    type?: string;
    shape?: number[];
    elements?: number;
    bytes?: number;
    data_offset?: number;
    shard?: string;
  }>;
  notes: string[];
}
