// SPDX-License-Identifier: MIT
// The config.json fields the core's parser reads (core/src/config_*.cpp), kept in step with
// READ_FIELDS in scripts/make-presets.py (web/tests/config-fields.test.ts checks the two agree).
// (A link carries a pasted config exactly as pasted: see url-state.ts.)

export const readFields: ReadonlySet<string> = new Set([
  'model_type', 'architectures', 'hidden_size', 'n_embd', 'n_embed', 'd_model', 'num_hidden_layers', 'n_layer',
  'num_layers', 'n_layers', 'num_decoder_layers', 'num_attention_heads', 'n_head', 'n_heads', 'num_heads',
  'num_key_value_heads', 'num_kv_heads', 'n_head_kv', 'multi_query', 'head_dim', 'kv_channels', 'd_kv',
  'intermediate_size', 'n_inner', 'ffn_dim', 'd_ff', 'ffn_hidden_size', 'expansion_ratio', 'vocab_size',
  'padded_vocab_size', 'max_position_embeddings', 'n_positions', 'max_seq_len', 'seq_length',
  'tie_word_embeddings', 'attention_bias', 'mlp_bias', 'bias', 'use_bias', 'no_bias', 'enable_bias',
  'sliding_window', 'layer_types', 'sliding_window_pattern', 'use_sliding_window', 'max_window_layers',
  'num_local_experts', 'num_experts', 'n_routed_experts', 'num_experts_per_tok', 'experts_per_token',
  'moe_intermediate_size', 'shared_expert_intermediate_size', 'n_shared_experts', 'first_k_dense_replace',
  'moe_layer_freq', 'decoder_sparse_step', 'mlp_only_layers', 'topk_method', 'shared_intermediate_size',
  'q_lora_rank', 'kv_lora_rank', 'qk_nope_head_dim', 'qk_rope_head_dim', 'v_head_dim',
  'num_nextn_predict_layers', 'new_decoder_architecture', 'num_ln_in_parallel_attn', 'parallel_attn', 'alibi',
  'use_parallel_residual', 'word_embed_proj_dim', 'do_layer_norm_before', 'learned_pos_emb', 'qk_layernorm',
  'use_qk_norm', 'feed_forward_proj', 'relative_attention_num_buckets', 'attn_config', 'ffn_config',
  'quantization_config', 'torch_dtype', 'text_config', 'vision_config', 'audio_config',
]);

export const nestedFields: Readonly<Record<string, ReadonlySet<string>>> = {
  attn_config: new Set(['alibi', 'kv_n_heads', 'attn_type', 'qk_ln']),
  ffn_config: new Set(['ffn_hidden_size', 'moe_num_experts', 'moe_top_k']),
  quantization_config: new Set(['quant_method', 'bits', 'group_size', 'fmt', 'weight_block_size', 'modules_to_not_convert']),
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The config with only the fields the core reads (same rules as make-presets.py `keep`). */
export function keepReadFields(config: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(config)) {
    if (!readFields.has(key)) continue;
    if (key === 'text_config' && isObject(value)) out[key] = keepReadFields(value);
    else if (key === 'vision_config' || key === 'audio_config') out[key] = {}; // presence only
    else if (key in nestedFields && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).filter(([inner]) => nestedFields[key].has(inner)));
    } else out[key] = value;
  }
  return out;
}
