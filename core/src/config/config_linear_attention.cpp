// SPDX-License-Identifier: MIT
// Linear-attention hybrids: Qwen3-Next, whose Gated DeltaNet layers (Yang et al. 2024, arXiv
// 2412.06464) keep a fixed recurrent state per sequence, with gated full attention between them.
#include <string>
#include <vector>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* qwen3_next_class = "Qwen3NextConfig";

// Which layers are full attention: layer_types ("linear_attention" / "full_attention"), or, as
// Qwen3NextConfig builds it when absent, layer i when (i + 1) is a multiple of
// full_attention_interval (default 4).
std::vector<bool> qwen3_next_attention_layers(const ConfigFields& fields, std::int64_t layers,
                                              ModelDescription& model) {
  if (auto kinds = two_kind_layer_types(fields, layers, "linear_attention", "full_attention")) return *kinds;
  std::vector<bool> attention(static_cast<std::size_t>(layers), false);
  const std::int64_t interval =
      count_or_class_default(fields, "full_attention_interval", 4, max_layers, qwen3_next_class, model);
  for (std::int64_t i = 0; i < layers; ++i) attention[static_cast<std::size_t>(i)] = (i + 1) % interval == 0;
  return attention;
}

// Qwen3NextGatedDeltaNet as an SsmShape: value heads as heads of the value head width, key heads as
// the groups that share q and k, the key head width as the state size. Its conv1d has no bias, its
// projections none either (see add_gated_delta_net in params.cpp).
SsmShape read_gated_delta_net(const ConfigFields& fields, ModelDescription& model) {
  SsmShape m;
  m.mixer = RecurrentMixer::gated_delta_net;
  m.num_heads = count_or_class_default(fields, "linear_num_value_heads", 32, max_heads, qwen3_next_class, model);
  m.head_dim = count_or_class_default(fields, "linear_value_head_dim", 128, max_hidden_size, qwen3_next_class, model);
  m.groups = count_or_class_default(fields, "linear_num_key_heads", 16, max_heads, qwen3_next_class, model);
  m.state_size = count_or_class_default(fields, "linear_key_head_dim", 128, max_hidden_size, qwen3_next_class, model);
  m.conv_kernel = count_or_class_default(fields, "linear_conv_kernel_dim", 4, 1024, qwen3_next_class, model);
  m.conv_bias = false;
  m.projection_bias = false;
  // fix_query_key_value_ordering splits the value heads evenly over the key heads.
  if (m.num_heads % m.groups != 0) {
    const std::string path = fields.path_of("linear_num_value_heads");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(m.num_heads) +
                                ") is not a multiple of linear_num_key_heads (" + std::to_string(m.groups) +
                                "): value heads cannot share the key heads evenly");
  }
  return m;
}

}  // namespace

// Qwen3-Next: huggingface/transformers@249ef8164cfb src/transformers/models/qwen3_next/
// configuration_qwen3_next.py (Qwen3NextConfig: head_dim 256, num_experts 512, num_experts_per_tok
// 10, moe_intermediate_size 512, shared_expert_intermediate_size 512, tie_word_embeddings false)
// and @7515843b6175 .../qwen3_next/modeling_qwen3_next.py. Qwen3NextDecoderLayer: input_layernorm,
// Qwen3NextGatedDeltaNet or Qwen3NextAttention (q_proj hidden -> 2 x heads x head_dim, the second
// half a sigmoid output gate; k_proj, v_proj, o_proj with bias attention_bias; q_norm and k_norm of
// head_dim), post_attention_layernorm, then Qwen3NextSparseMoeBlock (gate Linear(hidden, experts)
// without bias, gated experts of moe_intermediate_size, one shared expert of
// shared_expert_intermediate_size and shared_expert_gate Linear(hidden, 1)) where qwen_sparse_layers
// says so, else Qwen3NextMLP of intermediate_size. Qwen3NextRMSNorm scales by (1 + weight): one
// weight each. Qwen3NextModel: embed_tokens, the layers, norm; lm_head untied unless
// tie_word_embeddings. The checkpoints' mtp.* tensors are not loaded (_keys_to_ignore_on_load_unexpected).
void read_qwen3_next(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {}, model);
  const std::vector<bool> is_attention = qwen3_next_attention_layers(fields, model.num_layers, model);

  LayerShape base;
  base.hidden_norms = 2;
  // num_experts 0: Qwen3NextMLP in every layer.
  const std::int64_t experts = fields.optional_count("num_local_experts", 0, max_experts).value_or(512);
  if (!fields.has("num_local_experts")) model.assumptions.push_back("num_experts absent: 512, as Qwen3NextConfig does");
  MoeShape moe;
  if (experts > 0) {
    moe.num_experts = experts;
    moe.experts_per_token =
        count_or_class_default(fields, "num_experts_per_tok", 10, max_experts, qwen3_next_class, model);
    moe.expert_intermediate_size =
        count_or_class_default(fields, "moe_intermediate_size", 512, max_intermediate_size, qwen3_next_class, model);
    moe.num_shared_experts = 1;
    moe.shared_expert_intermediate_size = count_or_class_default(fields, "shared_expert_intermediate_size", 512,
                                                                 max_intermediate_size, qwen3_next_class, model);
    moe.shared_expert_gate = true;
    moe.gated = true;
  }
  std::vector<bool> is_sparse = qwen_sparse_layers(fields, model.num_layers);
  if (experts == 0) is_sparse.assign(is_sparse.size(), false);
  MlpShape dense;
  dense.gated = true;
  bool any_dense = false;
  for (const bool sparse : is_sparse) any_dense = any_dense || !sparse;
  if (any_dense) dense.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);

  AttentionShape attention;
  bool any_attention = false;
  for (const bool layer_is_attention : is_attention) any_attention = any_attention || layer_is_attention;
  if (any_attention) {
    attention.num_heads = read_head_count(fields);
    attention.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    attention.head_dim = count_or_class_default(fields, "head_dim", 256, max_hidden_size, qwen3_next_class, model);
    attention.value_head_dim = attention.head_dim;
    attention.qkv_bias = attention.output_bias = fields.boolean("attention_bias").value_or(false);
    attention.query_norm_size = attention.key_norm_size = attention.head_dim;
    attention.output_gate = true;
  }
  bool any_linear = false;
  for (const bool layer_is_attention : is_attention) any_linear = any_linear || !layer_is_attention;
  const SsmShape mixer = any_linear ? read_gated_delta_net(fields, model) : SsmShape{};

  for (std::size_t i = 0; i < is_attention.size(); ++i) {
    LayerShape layer = base;
    if (is_attention[i])
      layer.attention = attention;
    else
      layer.ssm = mixer;
    if (is_sparse[i])
      layer.moe = moe;
    else
      layer.mlp = dense;
    append_layer(model, layer);
  }
}

}  // namespace fitcheck::detail
