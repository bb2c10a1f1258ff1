// SPDX-License-Identifier: MIT
// Gemma 3n's language model, as huggingface/transformers@00aa0f5dc1cc
// src/transformers/models/gemma3n/modeling_gemma3n.py builds it (Gemma3nTextModel,
// Gemma3nTextDecoderLayer, Gemma3nTextAttention, Gemma3nTextMLP) from Gemma3nTextConfig
// (configuration_gemma3n.py). The vision (MobileNet-v5) and audio (USM conformer) towers of
// Gemma3nForConditionalGeneration are read in config_gemma3n_towers.cpp and counted apart.
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// Gemma3nTextMLP takes intermediate_size[layer_idx]: the config holds one width, repeated for every
// layer, or a list of one width per layer (MatFormer's mix-and-match models).
std::vector<std::int64_t> mlp_widths(const ConfigFields& fields, std::int64_t layers) {
  if (!fields.is_list("intermediate_size"))
    return std::vector<std::int64_t>(static_cast<std::size_t>(layers),
                                     fields.required_count("intermediate_size", 1, max_intermediate_size));
  const std::string path = fields.path_of("intermediate_size");
  const std::vector<std::int64_t> widths = *fields.integer_list("intermediate_size");
  if (static_cast<std::int64_t>(widths.size()) != layers)
    throw ConfigError(path, "field '" + path + "' lists " + std::to_string(widths.size()) +
                                " widths, but the model has " + std::to_string(layers) + " layers");
  for (const std::int64_t width : widths)
    if (width < 1 || width > max_intermediate_size)
      throw ConfigError(path, "field '" + path + "' holds " + std::to_string(width) +
                                  "; each width must be between 1 and " + std::to_string(max_intermediate_size));
  return widths;
}

// Gemma3nTextConfig: layer_types defaults to a full-attention layer every 5th layer, sliding layers
// between; Gemma3nTextAttention gives a sliding layer config.sliding_window.
std::vector<std::int64_t> gemma3n_windows(const ConfigFields& fields, std::int64_t layers, ModelDescription& model) {
  std::vector<bool> sliding(static_cast<std::size_t>(layers));
  if (auto layer_types = fields.string_list("layer_types")) {
    const std::string path = fields.path_of("layer_types");
    if (static_cast<std::int64_t>(layer_types->size()) != layers)
      throw ConfigError(path, "field '" + path + "' lists " + std::to_string(layer_types->size()) +
                                  " layers, but the model has " + std::to_string(layers));
    for (std::size_t i = 0; i < layer_types->size(); ++i) {
      const std::string& kind = (*layer_types)[i];
      if (kind != "sliding_attention" && kind != "full_attention")
        throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is '" + printable(kind) +
                                    "'; Gemma 3n layers are 'sliding_attention' or 'full_attention'");
      sliding[i] = kind == "sliding_attention";
    }
  } else {
    model.assumptions.push_back(
        "layer_types absent: every 5th layer has full attention, the others a sliding window, as Gemma3nTextConfig");
    for (std::int64_t i = 0; i < layers; ++i) sliding[static_cast<std::size_t>(i)] = (i + 1) % 5 != 0;
  }
  std::vector<std::int64_t> windows(static_cast<std::size_t>(layers), 0);
  for (std::size_t i = 0; i < sliding.size(); ++i)
    if (sliding[i]) windows[i] = fields.required_count("sliding_window", 1, max_positions);
  return windows;
}

// Gemma3nTextAttention: the last num_kv_shared_layers layers (when fewer than all) reuse the keys
// and values of the last earlier layer of the same type; they keep their own k_proj and v_proj.
std::int64_t first_kv_shared_layer(const ConfigFields& fields, std::int64_t layers) {
  const std::int64_t shared = fields.required_count("num_kv_shared_layers", 0, max_layers);
  if (shared >= layers) {
    const std::string path = fields.path_of("num_kv_shared_layers");
    throw ConfigError(path, "field '" + path + "' is " + std::to_string(shared) + ", but the model has only " +
                                std::to_string(layers) + " layers: at least the first must compute its own keys");
  }
  return layers - shared;
}

}  // namespace

bool read_gemma3n_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model) {
  if (model_type != "gemma3n_text" && model_type != "gemma3n") return false;
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  model.tie_word_embeddings = read_tie(fields, true, model);  // Gemma3nForCausalLM ties lm_head
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;

  Gemma3nModules modules;
  modules.per_layer_input_size = fields.required_count("hidden_size_per_layer_input", 1, max_hidden_size);
  modules.per_layer_vocab_size = fields.required_count("vocab_size_per_layer_input", 1, max_vocab_size);
  modules.altup_inputs = fields.required_count("altup_num_inputs", 1, 64);
  modules.laurel_rank = fields.required_count("laurel_rank", 1, max_hidden_size);
  model.gemma3n = modules;

  LayerShape base;
  base.hidden_norms = 4;  // input, post_attention, pre_feedforward, post_feedforward
  AttentionShape& attention = base.attention;
  attention.num_heads = read_head_count(fields);
  attention.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
  attention.head_dim = read_head_dim(fields, model.hidden_size, attention.num_heads, model);
  attention.value_head_dim = attention.head_dim;
  attention.qkv_bias = attention.output_bias = fields.boolean("attention_bias").value_or(false);
  // q_norm and k_norm weigh head_dim each; v_norm has no scale (with_scale=False).
  attention.query_norm_size = attention.key_norm_size = attention.head_dim;
  base.mlp.gated = true;

  const std::vector<std::int64_t> widths = mlp_widths(fields, model.num_layers);
  const std::vector<std::int64_t> windows = gemma3n_windows(fields, model.num_layers, model);
  const std::int64_t first_shared = first_kv_shared_layer(fields, model.num_layers);
  for (std::int64_t i = 0; i < model.num_layers; ++i) {
    LayerShape layer = base;
    layer.mlp.intermediate_size = widths[static_cast<std::size_t>(i)];
    layer.attention.sliding_window = windows[static_cast<std::size_t>(i)];
    layer.kv_shared = i >= first_shared;
    append_layer(model, layer);
  }
  if (first_shared < model.num_layers)
    model.assumptions.push_back("num_kv_shared_layers: the last " + std::to_string(model.num_layers - first_shared) +
                                " layers attend over earlier layers' keys and values and add no KV cache of their "
                                "own (Gemma3nTextAttention); their k_proj and v_proj weights are still counted");
  return true;
}

}  // namespace fitcheck::detail
