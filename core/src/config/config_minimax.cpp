// SPDX-License-Identifier: MIT
// MiniMax-Text-01 and MiniMax-M1 (arXiv 2501.08313): lightning attention (linear attention with a
// fixed head_dim x head_dim state per head) in most layers, softmax attention in the layers the
// config names, and routed experts in every layer.
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// True for a softmax-attention layer. transformers' MiniMaxConfig spells the order as layer_types
// ("full_attention" / "linear_attention"; absent: full attention in even layers, as its
// __post_init__ does); the checkpoints' own MiniMaxM1Config and MiniMaxText01Config as
// attn_type_list (0 lightning, 1 softmax), which their modeling code reads without a default.
std::vector<bool> softmax_layers(const std::string& type, const ConfigFields& fields, std::int64_t layers,
                                 ModelDescription& model) {
  if (auto kinds = two_kind_layer_types(fields, layers, "linear_attention", "full_attention")) return *kinds;
  std::vector<bool> softmax;
  std::string path;
  if (auto kinds = fields.integer_list("attn_type_list")) {
    path = fields.path_of("attn_type_list");
    for (std::size_t i = 0; i < kinds->size(); ++i) {
      const std::int64_t kind = (*kinds)[i];
      if (kind != 0 && kind != 1)
        throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is " + std::to_string(kind) +
                                    "; expected 0 (lightning attention) or 1 (softmax attention)");
      softmax.push_back(kind == 1);
    }
  } else if (type == "minimax") {
    model.assumptions.push_back(
        "layer_types absent: softmax attention in even layers, lightning attention in odd ones, as MiniMaxConfig does");
    for (std::int64_t i = 0; i < layers; ++i) softmax.push_back((i + 1) % 2 != 0);
    return softmax;
  } else {
    throw ConfigError("attn_type_list", "required field 'attn_type_list' is missing (also looked for 'layer_types'): " +
                                            type + " needs the order of its lightning and softmax attention layers");
  }
  if (static_cast<std::int64_t>(softmax.size()) != layers)
    throw ConfigError(path, "field '" + path + "' describes " + std::to_string(softmax.size()) +
                                " layers, but num_hidden_layers is " + std::to_string(layers));
  return softmax;
}

// MixtralSparseMoeBlock in every layer: a router without bias and gated experts (w1, w3, w2) of
// intermediate_size. MiniMaxM1DecoderLayer adds a shared MLP when shared_intermediate_size > 0,
// which is not modelled: refused rather than left out.
MoeShape read_minimax_experts(const ConfigFields& fields) {
  MoeShape moe;
  moe.num_experts = fields.required_count("num_local_experts", 1, max_experts);
  moe.experts_per_token = fields.required_count("num_experts_per_tok", 1, max_experts);
  moe.expert_intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
  moe.gated = true;
  if (moe.experts_per_token > moe.num_experts)
    throw ConfigError(fields.path_of("num_experts_per_tok"),
                      "num_experts_per_tok (" + std::to_string(moe.experts_per_token) +
                          ") exceeds num_local_experts (" + std::to_string(moe.num_experts) + ")");
  if (fields.optional_count("shared_intermediate_size", 0, max_intermediate_size).value_or(0) > 0) {
    const std::string path = fields.path_of("shared_intermediate_size");
    throw ConfigError(path, "field '" + path + "' is above 0: MiniMax's shared MLP and its gate are not modelled");
  }
  return moe;
}

}  // namespace

// MiniMax: huggingface/transformers@008e57439125 src/transformers/models/minimax/
// configuration_minimax.py and modeling_minimax.py (MiniMaxDecoderLayer: input_layernorm and
// post_attention_layernorm, MiniMaxLightningAttention or MiniMaxAttention (Mixtral's q, k, v, o
// without biases) as the layer's type says, and the sparse MoE block; MiniMaxModel: embed_tokens,
// the layers, norm; lm_head untied unless tie_word_embeddings). The same tensors as the checkpoints'
// own MiniMaxM1ForCausalLM (MiniMax-AI/MiniMax-M1@2abb4f45a9df modeling_minimax_m1.py).
void read_minimax(const std::string& type, const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  model.tie_word_embeddings = read_tie(fields, false, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;
  const std::vector<bool> is_softmax = softmax_layers(type, fields, model.num_layers, model);

  LayerShape base;
  base.hidden_norms = 2;
  base.moe = read_minimax_experts(fields);
  const std::int64_t heads = read_head_count(fields);
  const std::int64_t head_dim = read_head_dim(fields, model.hidden_size, heads, model);

  LayerShape lightning = base;
  SsmShape& m = lightning.ssm;
  m.mixer = RecurrentMixer::lightning_attention;
  m.num_heads = heads;
  m.head_dim = head_dim;
  m.state_size = head_dim;  // the state of a head is its head_dim x head_dim sum of k^T v
  m.groups = 0;
  m.conv_kernel = 0;
  m.conv_bias = false;

  LayerShape softmax = base;
  bool any_softmax = false;
  for (const bool layer_is_softmax : is_softmax) any_softmax = any_softmax || layer_is_softmax;
  if (any_softmax) {
    AttentionShape& a = softmax.attention;
    a.num_heads = heads;
    a.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    a.head_dim = a.value_head_dim = head_dim;
    if (heads % a.num_kv_heads != 0)
      throw ConfigError(fields.path_of("num_key_value_heads"),
                        "num_key_value_heads (" + std::to_string(a.num_kv_heads) +
                            ") does not divide num_attention_heads (" + std::to_string(heads) + ")");
  }
  for (const bool layer_is_softmax : is_softmax) append_layer(model, layer_is_softmax ? softmax : lightning);
}

}  // namespace fitcheck::detail
