// SPDX-License-Identifier: MIT
// RecurrentGemma (Griffin, arXiv 2402.19427): residual blocks whose temporal mixer is an RG-LRU
// recurrent block or local (sliding-window) attention, in the repeating order block_types gives,
// each followed by a gated MLP. A recurrent block keeps a fixed state per sequence (its conv
// window and one RG-LRU value per channel); an attention block caches at most the window.
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* config_class = "RecurrentGemmaConfig";

// A count RecurrentGemmaConfig fills in when config.json omits it, named in the assumptions.
std::int64_t recurrent_gemma_count(const ConfigFields& fields, Field field, std::int64_t class_default,
                                   const std::string& default_text, std::int64_t maximum, ModelDescription& model) {
  if (auto value = fields.optional_count(field, 1, maximum)) return *value;
  model.assumptions.push_back(std::string(field.names().name) + " absent: " + default_text + ", as " + config_class +
                              " does");
  return class_default;
}

// RecurrentGemmaConfig.layers_block_type: (block_types x 100)[:num_hidden_layers], so the pattern
// repeats; true for an attention block. The checkpoints' own `_block_types` key is not read by the
// class (it keeps its default), so it is not read here either.
std::vector<bool> attention_blocks(const ConfigFields& fields, std::int64_t layers, ModelDescription& model) {
  std::vector<std::string> pattern{"recurrent", "recurrent", "attention"};
  if (auto types = fields.string_list("block_types")) {
    pattern = *types;
  } else {
    model.assumptions.push_back(std::string("block_types absent: (recurrent, recurrent, attention) repeated, as ") +
                                config_class + " does");
  }
  const std::string path = fields.path_of("block_types");
  if (pattern.empty()) throw ConfigError(path, "field '" + path + "' is empty: no block kind to repeat");
  std::vector<bool> attention;
  for (std::int64_t i = 0; i < layers; ++i) {
    const std::string& type = pattern[static_cast<std::size_t>(i) % pattern.size()];
    if (type != "recurrent" && type != "attention")
      throw ConfigError(path,
                        "field '" + path + "' names '" + printable(type) + "'; expected 'recurrent' or 'attention'");
    attention.push_back(type == "attention");
  }
  return attention;
}

// The RG-LRU block: lru_width channels in num_attention_heads gate blocks of lru_width / heads.
SsmShape read_rg_lru(const ConfigFields& fields, std::int64_t hidden, std::int64_t heads, ModelDescription& model) {
  SsmShape m;
  m.mixer = RecurrentMixer::rg_lru;
  const std::int64_t width = recurrent_gemma_count(
      fields, "lru_width", hidden, "hidden_size (" + std::to_string(hidden) + ")", max_hidden_size, model);
  if (width % heads != 0) {
    const std::string path = fields.path_of("lru_width");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(width) + ") is not a multiple of " +
                                "num_attention_heads (" + std::to_string(heads) +
                                "): the RG-LRU gates are heads blocks of equal width");
  }
  m.num_heads = heads;
  m.head_dim = width / heads;
  m.state_size = 1;
  m.groups = 0;
  m.conv_kernel = recurrent_gemma_count(fields, "conv1d_width", 4, "4", 1024, model);
  m.conv_bias = true;        // nn.Conv1d's default
  m.projection_bias = true;  // linear_x, linear_y, linear_out: nn.Linear's default
  return m;
}

// Local attention: q, k, v with attention_bias, o_proj always with a bias; head_dim is
// hidden_size / num_attention_heads (RecurrentGemmaConfig computes it and ignores a head_dim key),
// and the heads' output is viewed back to hidden_size.
AttentionShape read_local_attention(const ConfigFields& fields, std::int64_t hidden, std::int64_t heads,
                                    ModelDescription& model) {
  AttentionShape a;
  a.num_heads = heads;
  if (hidden % heads != 0)
    throw ConfigError(fields.path_of("num_attention_heads"),
                      "hidden_size (" + std::to_string(hidden) + ") is not a multiple of num_attention_heads (" +
                          std::to_string(heads) + "): recurrent_gemma's head_dim is hidden_size / heads");
  a.head_dim = a.value_head_dim = hidden / heads;
  if (auto given = fields.optional_count("head_dim", 1, max_hidden_size); given && *given != a.head_dim) {
    const std::string path = fields.path_of("head_dim");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(*given) + ") contradicts hidden_size / " +
                                "num_attention_heads (" + std::to_string(a.head_dim) + "), which " + config_class +
                                " uses");
  }
  a.num_kv_heads = recurrent_gemma_count(fields, "num_key_value_heads", heads,
                                         "num_attention_heads (" + std::to_string(heads) + ")", max_heads, model);
  if (heads % a.num_kv_heads != 0)
    throw ConfigError(fields.path_of("num_key_value_heads"), "num_key_value_heads (" + std::to_string(a.num_kv_heads) +
                                                                 ") does not divide num_attention_heads (" +
                                                                 std::to_string(heads) + ")");
  a.qkv_bias = fields.boolean("attention_bias").value_or(false);
  a.output_bias = true;
  a.sliding_window = recurrent_gemma_count(fields, "attention_window_size", 2048, "2048", max_positions, model);
  return a;
}

}  // namespace

// RecurrentGemma: huggingface/transformers@0233e509531a
// src/transformers/models/recurrent_gemma/modeling_recurrent_gemma.py and
// @052b1dcdbe75 .../configuration_recurrent_gemma.py. RecurrentGemmaDecoderLayer: temporal_pre_norm,
// the temporal block (RecurrentGemmaRecurrentBlock or RecurrentGemmaSdpaAttention), channel_pre_norm
// and RecurrentGemmaMlp (gate_proj, up_proj and down_proj of intermediate_size // 2, all with
// biases); RecurrentGemmaModel: embed_tokens, the layers, final_norm; lm_head tied to the embedding.
void read_recurrent_gemma(const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = 0;  // local attention and a recurrence: no fixed context limit
  model.tie_word_embeddings = read_tie(fields, true, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;
  const std::int64_t heads = read_head_count(fields);
  const std::vector<bool> is_attention = attention_blocks(fields, model.num_layers, model);

  LayerShape base;
  base.hidden_norms = 2;
  const std::int64_t intermediate = fields.required_count("intermediate_size", 2, max_intermediate_size);
  base.mlp.intermediate_size = intermediate / 2;
  base.mlp.gated = true;
  base.mlp.bias = true;
  LayerShape recurrent = base;
  recurrent.ssm = read_rg_lru(fields, model.hidden_size, heads, model);
  LayerShape attention = base;
  attention.attention = read_local_attention(fields, model.hidden_size, heads, model);
  for (const bool layer_is_attention : is_attention) append_layer(model, layer_is_attention ? attention : recurrent);
}

}  // namespace fitcheck::detail
