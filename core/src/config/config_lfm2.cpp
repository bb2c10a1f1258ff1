// SPDX-License-Identifier: MIT
// LFM2: gated short-convolution layers, whose only state per sequence is the conv's last inputs,
// with grouped-query attention layers between them and a gated MLP in every layer.
#include <cmath>
#include <string>
#include <vector>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* lfm2_class = "Lfm2Config";

// Which layers are attention: layer_types ("full_attention" / "conv"), else full_attn_idxs, else,
// as Lfm2Config does, every layer.
std::vector<bool> lfm2_attention_layers(const ConfigFields& fields, std::int64_t layers, ModelDescription& model) {
  if (auto kinds = two_kind_layer_types(fields, layers, "conv", "full_attention")) return *kinds;
  std::vector<bool> attention(static_cast<std::size_t>(layers), false);
  if (auto indices = fields.integer_list("full_attn_idxs")) {
    const std::string path = fields.path_of("full_attn_idxs");
    for (const std::int64_t index : *indices) {
      if (index < 0 || index >= layers)
        throw ConfigError(path, "field '" + path + "' names layer " + std::to_string(index) +
                                    ", but num_hidden_layers is " + std::to_string(layers));
      attention[static_cast<std::size_t>(index)] = true;
    }
  } else {
    model.assumptions.push_back("layer_types and full_attn_idxs absent: every layer is attention, as Lfm2Config does");
    attention.assign(attention.size(), true);
  }
  return attention;
}

// Lfm2MLP's width: intermediate_size (block_ff_dim when given, which Lfm2Config reads first);
// with block_auto_adjust_ff_dim, int(2 x width / 3), then int(block_ffn_dim_multiplier x width)
// rounded up to a multiple of block_multiple_of.
std::int64_t lfm2_mlp_width(const ConfigFields& fields, ModelDescription& model) {
  std::int64_t width = 0;
  if (auto given = fields.optional_count("block_ff_dim", 1, max_intermediate_size))
    width = *given;
  else
    width = count_or_class_default(fields, "intermediate_size", 12288, max_intermediate_size, lfm2_class, model);
  if (!boolean_or_class_default(fields, "block_auto_adjust_ff_dim", true, lfm2_class, model)) return width;
  width = 2 * width / 3;
  double multiplier = 1.0;
  if (auto given = fields.number("block_ffn_dim_multiplier")) {
    multiplier = *given;
    if (!(multiplier > 0) || multiplier > 1024) {
      const std::string path = fields.path_of("block_ffn_dim_multiplier");
      throw ConfigError(path, "field '" + path + "' must be a positive factor");
    }
  } else {
    model.assumptions.push_back("block_ffn_dim_multiplier absent: 1.0, as Lfm2Config does");
  }
  width = static_cast<std::int64_t>(std::floor(multiplier * static_cast<double>(width)));
  const std::int64_t multiple =
      count_or_class_default(fields, "block_multiple_of", 256, max_intermediate_size, lfm2_class, model);
  return multiple * ((width + multiple - 1) / multiple);
}

}  // namespace

// LFM2: huggingface/transformers@4f7e1d467f26 src/transformers/models/lfm2/configuration_lfm2.py
// (Lfm2Config: num_key_value_heads 8, conv_bias false, conv_L_cache 3, tie_word_embeddings true,
// which tie_embedding overrides) and @1d6b6ca61a8b .../lfm2/modeling_lfm2.py. Lfm2DecoderLayer:
// operator_norm, then Lfm2Attention (q, k, v, out_proj without biases; q_layernorm and k_layernorm
// of head_dim) or Lfm2ShortConv (in_proj hidden -> 3 x hidden, a depthwise conv of kernel
// conv_L_cache over hidden, out_proj; every bias conv_bias), then ffn_norm and Lfm2MLP (w1, w3, w2,
// no biases). Lfm2Model: embed_tokens, the layers, embedding_norm (applied last); lm_head tied.
void read_lfm2(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {.tie_default = true}, model);
  if (auto tie = fields.boolean("tie_embedding")) model.tie_word_embeddings = *tie;
  const std::vector<bool> is_attention = lfm2_attention_layers(fields, model.num_layers, model);

  LayerShape base;
  base.hidden_norms = 2;
  base.mlp.intermediate_size = lfm2_mlp_width(fields, model);
  base.mlp.gated = true;

  LayerShape attention = base;
  bool any_attention = false;
  for (const bool layer_is_attention : is_attention) any_attention = any_attention || layer_is_attention;
  if (any_attention) {
    AttentionShape& a = attention.attention;
    a.num_heads = read_head_count(fields);
    a.num_kv_heads = count_or_class_default(fields, "num_key_value_heads", 8, max_heads, lfm2_class, model);
    a.head_dim = read_head_dim(fields, model.hidden_size, a.num_heads, model);
    a.value_head_dim = a.head_dim;
    a.query_norm_size = a.key_norm_size = a.head_dim;
  }

  LayerShape conv = base;
  SsmShape& m = conv.ssm;
  m.mixer = RecurrentMixer::short_convolution;
  m.num_heads = model.hidden_size;  // every hidden channel convolved on its own
  m.head_dim = 1;
  m.groups = 0;
  m.state_size = 0;
  m.conv_kernel = count_or_class_default(fields, "conv_L_cache", 3, 1024, lfm2_class, model);
  m.conv_bias = boolean_or_class_default(fields, "conv_bias", false, lfm2_class, model);
  m.projection_bias = m.conv_bias;

  for (const bool layer_is_attention : is_attention) append_layer(model, layer_is_attention ? attention : conv);
}

}  // namespace fitcheck::detail
