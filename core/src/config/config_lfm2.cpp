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
constexpr const char* lfm2_moe_class = "Lfm2MoeConfig";

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

// The two mixers of an LFM2 layer (Lfm2Attention and Lfm2ShortConv; Lfm2MoeAttention and
// Lfm2MoeShortConv are the same modules), each on a copy of `base` (norms and feed-forward).
// Attention is read only when some layer is attention.
struct Lfm2Mixers {
  LayerShape attention, conv;
};
Lfm2Mixers lfm2_mixers(const ConfigFields& fields, const LayerShape& base, bool any_attention, const char* config_class,
                       ModelDescription& model) {
  Lfm2Mixers mixers{base, base};
  if (any_attention) {
    AttentionShape& a = mixers.attention.attention;
    a.num_heads = read_head_count(fields);
    a.num_kv_heads = count_or_class_default(fields, "num_key_value_heads", 8, max_heads, config_class, model);
    a.head_dim = read_head_dim(fields, model.hidden_size, a.num_heads, model);
    a.value_head_dim = a.head_dim;
    a.query_norm_size = a.key_norm_size = a.head_dim;
  }
  SsmShape& m = mixers.conv.ssm;
  m.mixer = RecurrentMixer::short_convolution;
  m.num_heads = model.hidden_size;  // every hidden channel convolved on its own
  m.head_dim = 1;
  m.groups = 0;
  m.state_size = 0;
  m.conv_kernel = count_or_class_default(fields, "conv_L_cache", 3, 1024, config_class, model);
  m.conv_bias = boolean_or_class_default(fields, "conv_bias", false, config_class, model);
  m.projection_bias = m.conv_bias;
  return mixers;
}

bool any_of(const std::vector<bool>& flags) {
  for (const bool flag : flags)
    if (flag) return true;
  return false;
}

// The LFM2 preamble: hidden size, layers, vocabulary, tie_word_embeddings (true by default), and
// tie_embedding, the original key, which both configuration classes read in its place.
void read_lfm2_preamble(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {.tie_default = true}, model);
  if (auto tie = fields.boolean("tie_embedding")) model.tie_word_embeddings = *tie;
}

// Lfm2MoeSparseMoeBlock: gate Linear(hidden, num_experts) without bias; Lfm2MoeExperts, gate_up_proj
// (experts x 2 moe_intermediate_size x hidden) and down_proj (experts x hidden x moe_intermediate_size);
// with use_expert_bias a float32 expert_bias buffer of num_experts, persistent, so the checkpoint
// stores it (model.layers.N.feed_forward.expert_bias). Sigmoid routing, the top-k renormalisation
// (norm_topk_prob) and routed_scaling_factor change no shape.
MoeShape lfm2_moe_experts(const ConfigFields& fields, ModelDescription& model) {
  if (!fields.has("num_local_experts"))
    throw ConfigError("num_experts",
                      "required field 'num_experts' is missing: Lfm2MoeConfig routes its feed-forward "
                      "layers to experts and fitcheck does not guess how many");
  MoeShape moe;
  moe.num_experts = fields.required_count("num_local_experts", 1, max_experts);
  moe.experts_per_token = count_or_class_default(fields, "num_experts_per_tok", 4, max_experts, lfm2_moe_class, model);
  if (moe.experts_per_token > moe.num_experts) {
    const std::string path = fields.path_of("num_experts_per_tok");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(moe.experts_per_token) +
                                ") exceeds the number of experts (" + std::to_string(moe.num_experts) + ")");
  }
  moe.expert_intermediate_size =
      count_or_class_default(fields, "moe_intermediate_size", 1792, max_intermediate_size, lfm2_moe_class, model);
  moe.router_correction_bias = boolean_or_class_default(fields, "use_expert_bias", true, lfm2_moe_class, model);
  moe.gated = true;
  return moe;
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
  read_lfm2_preamble(fields, model);
  const std::vector<bool> is_attention = lfm2_attention_layers(fields, model.num_layers, model);
  LayerShape base;
  base.hidden_norms = 2;
  base.mlp.intermediate_size = lfm2_mlp_width(fields, model);
  base.mlp.gated = true;
  const Lfm2Mixers mixers = lfm2_mixers(fields, base, any_of(is_attention), lfm2_class, model);
  for (const bool layer_is_attention : is_attention)
    append_layer(model, layer_is_attention ? mixers.attention : mixers.conv);
}

// LFM2-MoE: huggingface/transformers@0159620269de src/transformers/models/lfm2_moe/modeling_lfm2_moe.py
// and @06053b84c14d .../configuration_lfm2_moe.py (Lfm2MoeConfig). Lfm2MoeDecoderLayer: LFM2's mixers
// (Lfm2MoeAttention or Lfm2MoeShortConv by layer_types, which has no default: the layer reads
// config.layer_types[layer_idx]), then Lfm2MoeMLP of intermediate_size (w1, w3, w2; no width rule)
// in the first num_dense_layers layers and Lfm2MoeSparseMoeBlock in the others; operator_norm and
// ffn_norm. Lfm2MoeModel: embed_tokens, embedding_norm last; lm_head tied by default.
void read_lfm2_moe(const ConfigFields& fields, ModelDescription& model) {
  read_lfm2_preamble(fields, model);
  const auto is_attention = two_kind_layer_types(fields, model.num_layers, "conv", "full_attention");
  if (!is_attention)
    throw ConfigError("layer_types",
                      "required field 'layer_types' is missing: Lfm2MoeDecoderLayer reads each "
                      "layer's kind from it ('conv' or 'full_attention') and Lfm2MoeConfig has no default");
  const std::int64_t dense_layers = fields.optional_count("num_dense_layers", 0, max_layers).value_or(2);
  if (!fields.has("num_dense_layers")) model.assumptions.push_back("num_dense_layers absent: 2, as Lfm2MoeConfig does");
  if (dense_layers > model.num_layers) {
    const std::string path = fields.path_of("num_dense_layers");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(dense_layers) +
                                ") names more dense layers than num_hidden_layers (" +
                                std::to_string(model.num_layers) + ")");
  }

  MlpShape dense_mlp;
  if (dense_layers > 0) {
    dense_mlp.intermediate_size =
        count_or_class_default(fields, "intermediate_size", 7168, max_intermediate_size, lfm2_moe_class, model);
    dense_mlp.gated = true;
  }
  const MoeShape experts = dense_layers < model.num_layers ? lfm2_moe_experts(fields, model) : MoeShape{};
  LayerShape base;
  base.hidden_norms = 2;
  const Lfm2Mixers mixers = lfm2_mixers(fields, base, any_of(*is_attention), lfm2_moe_class, model);
  for (std::int64_t i = 0; i < model.num_layers; ++i) {
    LayerShape layer = (*is_attention)[static_cast<std::size_t>(i)] ? mixers.attention : mixers.conv;
    if (i < dense_layers)
      layer.mlp = dense_mlp;
    else
      layer.moe = experts;
    append_layer(model, layer);
  }
}

}  // namespace fitcheck::detail
