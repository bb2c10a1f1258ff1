// SPDX-License-Identifier: MIT
// Zamba2's shared transformer blocks, as huggingface/transformers@00511f5df3b6
// src/transformers/models/zamba2/modeling_zamba2.py builds them.
#include "model/params_zamba2.hpp"

namespace fitcheck::detail {
namespace {

void add(std::vector<WeightTensor>& tensors, TensorRole role, ParameterGroup group, std::int32_t layer,
         std::int64_t rows, std::int64_t columns, std::int64_t copies = 1) {
  if (rows > 0 && columns > 0 && copies > 0) tensors.push_back({role, group, layer, rows, columns, copies});
}

// One Zamba2AttentionDecoderLayer: input_layernorm over attention_hidden_size; Zamba2Attention (q, k,
// v from attention_hidden_size, o back to hidden, no biases); pre_ff_layernorm over hidden;
// Zamba2MLP (gate_up_proj hidden -> 2 x intermediate_size, down_proj back, bias add_bias_linear).
void add_block(std::vector<WeightTensor>& tensors, const ModelDescription& model, const LayerShape& shape,
               std::int32_t layer) {
  const SharedTransformerBlocks& blocks = *model.shared_blocks;
  const AttentionShape& a = shape.attention;
  const std::int64_t hidden = model.hidden_size, input = blocks.input_width, width = shape.mlp.intermediate_size;
  add(tensors, TensorRole::norm, ParameterGroup::norms, layer, 1, input);
  add(tensors, TensorRole::attention_query, ParameterGroup::attention, layer, a.num_heads * a.head_dim, input);
  add(tensors, TensorRole::attention_key, ParameterGroup::attention, layer, a.num_kv_heads * a.head_dim, input);
  add(tensors, TensorRole::attention_value, ParameterGroup::attention, layer, a.num_kv_heads * a.head_dim, input);
  add(tensors, TensorRole::attention_output, ParameterGroup::attention, layer, hidden, a.num_heads * a.head_dim);
  add(tensors, TensorRole::norm, ParameterGroup::norms, layer, 1, hidden);
  add(tensors, TensorRole::mlp_gate, ParameterGroup::mlp, layer, width, hidden);
  add(tensors, TensorRole::mlp_up, ParameterGroup::mlp, layer, width, hidden);
  add(tensors, TensorRole::mlp_down, ParameterGroup::mlp, layer, hidden, width);
  if (blocks.mlp_bias) {
    add(tensors, TensorRole::bias, ParameterGroup::mlp, layer, 1, 2 * width);
    add(tensors, TensorRole::bias, ParameterGroup::mlp, layer, 1, hidden);
  }
}

}  // namespace

// Zamba2Model cycles its num_mem_blocks blocks over the hybrid layers; a Zamba2HybridLayer holds the
// block, its own linear (hidden x hidden, no bias) and its own Zamba2MambaDecoderLayer. The
// adapters of a use live in its block's adapter lists, built for every use i with i % num_mem_blocks
// == block_id (identities elsewhere): in Zamba2MLP always (gate_up_proj_adapter_list: hidden -> rank
// -> 2 x intermediate_size, no biases), in Zamba2Attention when use_shared_attention_adapter
// (linear_q/k/v_adapter_list: attention_hidden_size -> rank -> attention_hidden_size).
void add_shared_transformer_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model,
                                    const LayerShape& shape, std::int32_t layer, std::int64_t use) {
  const SharedTransformerBlocks& blocks = *model.shared_blocks;
  const std::int64_t hidden = model.hidden_size, rank = blocks.adapter_rank, input = blocks.input_width;
  if (use < blocks.count) add_block(tensors, model, shape, layer);
  add(tensors, TensorRole::attention_output, ParameterGroup::attention, layer, hidden, hidden);  // linear
  add(tensors, TensorRole::mlp_up, ParameterGroup::mlp, layer, rank, hidden);
  add(tensors, TensorRole::mlp_up, ParameterGroup::mlp, layer, 2 * shape.mlp.intermediate_size, rank);
  if (blocks.attention_adapters) {
    add(tensors, TensorRole::attention_query, ParameterGroup::attention, layer, rank, input, 3);
    add(tensors, TensorRole::attention_query, ParameterGroup::attention, layer, input, rank, 3);
  }
}

}  // namespace fitcheck::detail
