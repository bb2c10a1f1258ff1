// SPDX-License-Identifier: MIT
// parse_hf_config: unwraps multimodal wrappers, picks the family reader, and finishes the
// description (layer kinds, checks that hold for every family).
#include "fitcheck/config.hpp"

#include <algorithm>

#include "config/config_families.hpp"
#include "config/config_fields.hpp"
#include "config/config_other_families.hpp"
#include "config/config_vision.hpp"

namespace fitcheck {
namespace {

using detail::ConfigFields;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Checks shared by every family, so no family reader can hand on an impossible shape.
void check_layer(const LayerShape& layer, const ModelDescription& model) {
  const AttentionShape& attention = layer.attention;
  // A hybrid's state-space or MLP-only layers have no attention; every other layer has heads.
  const bool attention_free =
      layer.is_ssm() || (attention.num_heads == 0 && (layer.mlp.intermediate_size > 0 || layer.is_moe()));
  if (attention.num_heads <= 0 && !attention_free)
    throw ConfigError("num_attention_heads", "num_attention_heads must be positive");
  if (attention.num_heads > 0 && !attention.is_multi_latent()) {
    if (attention.num_kv_heads <= 0 || attention.num_kv_heads > attention.num_heads)
      throw ConfigError("num_key_value_heads", "num_key_value_heads (" + std::to_string(attention.num_kv_heads) +
                                                   ") must be between 1 and num_attention_heads (" +
                                                   std::to_string(attention.num_heads) + ")");
    if (attention.num_heads % attention.num_kv_heads != 0)
      throw ConfigError("num_key_value_heads", "num_attention_heads (" + std::to_string(attention.num_heads) +
                                                   ") is not a multiple of num_key_value_heads (" +
                                                   std::to_string(attention.num_kv_heads) +
                                                   "): query heads cannot be grouped evenly");
  }
  if (layer.is_moe()) {
    if (layer.moe.experts_per_token <= 0 || layer.moe.experts_per_token > layer.moe.num_experts)
      throw ConfigError("num_experts_per_tok", "num_experts_per_tok (" + std::to_string(layer.moe.experts_per_token) +
                                                   ") must be between 1 and the number of experts (" +
                                                   std::to_string(layer.moe.num_experts) + ")");
  }
  (void)model;
}

StoredPrecision read_stored_precision(const ConfigFields& root, const ConfigFields& fields) {
  StoredPrecision stored;
  stored.torch_dtype = fields.string("torch_dtype").value_or(root.string("torch_dtype").value_or(""));
  const auto quantization = root.object("quantization_config");
  if (!quantization) return stored;
  stored.quant_method = quantization->string("quantization_config.quant_method").value_or("");
  stored.quant_format = quantization->string("quantization_config.fmt").value_or("");
  stored.quant_bits = quantization->optional_count("quantization_config.bits", 1, 64).value_or(0);
  if (stored.quant_bits == 0) {
    if (quantization->boolean("quantization_config.load_in_4bit").value_or(false))
      stored.quant_bits = 4;
    else if (quantization->boolean("quantization_config.load_in_8bit").value_or(false))
      stored.quant_bits = 8;
  }
  // -1: one group per row (GPTQ); bounded so that group arithmetic stays far inside 64 bits.
  stored.quant_group_size = quantization->optional_count("quantization_config.group_size", -1, 1 << 20).value_or(0);
  if (stored.quant_group_size == 0 && quantization->has("quantization_config.group_size")) {
    // 0 is "not given" here (the format's default, 128); a written 0 is refused as the group_size option refuses it.
    const std::string field = quantization->path_of("quantization_config.group_size");
    throw ConfigError(field, "field '" + field + "' must be -1 (one group per row) or positive, but it is 0");
  }
  if (auto blocks = quantization->integer_list("quantization_config.weight_block_size");
      blocks && blocks->size() == 2) {
    for (const std::int64_t size : *blocks)
      if (size < 1 || size > (1 << 20))
        throw ConfigError(quantization->path_of("quantization_config.weight_block_size"),
                          "field '" + quantization->path_of("quantization_config.weight_block_size") +
                              "' must hold two block sizes between 1 and 1048576, but it holds " +
                              std::to_string(size));
    stored.quant_block_rows = (*blocks)[0];
    stored.quant_block_columns = (*blocks)[1];
  }
  return stored;
}

}  // namespace

ModelDescription parse_hf_config(std::string_view json_text) {
  const auto document = detail::parse_json_document(json_text);
  const ConfigFields root = ConfigFields::root(document);

  ModelDescription model;
  const std::string outer_type = root.string("model_type").value_or("");
  if (auto architectures = root.string_list("architectures"); architectures && !architectures->empty())
    model.architecture = architectures->front();

  // Multimodal wrappers (Gemma-3, LLaVA, Mistral-3...) nest the language model under text_config.
  ConfigFields fields = root;
  std::string model_type = outer_type;
  if (auto text_config = root.object("text_config")) {
    fields = *text_config;
    model_type = fields.string("model_type").value_or("");
    if (model_type.empty()) {
      model_type = outer_type;
      model.assumptions.push_back("text_config has no model_type; read it with the rules of '" + outer_type + "'");
    }
    fields = detail::with_text_config_defaults(fields, lowercase(model_type), model);
  }
  struct Tower {
    detail::Field field;
    const char* kind;
  };
  const Tower towers[] = {{"vision_config", "vision"}, {"audio_config", "audio"}};
  // The vision towers of the wrappers config_vision.cpp reads, and Gemma 3n's and Phi-4-multimodal's
  // audio towers, are counted;
  // other towers are named as not counted.
  const std::string wrapper = lowercase(outer_type);
  const bool vision_counted = detail::vision_tower_counted(wrapper) && root.has("vision_config");
  const bool audio_counted = detail::is_other_audio_wrapper(wrapper) && root.has("audio_config");
  for (const auto& [tower, kind] : towers) {
    const bool counted = std::string_view(kind) == "vision" ? vision_counted : audio_counted;
    if (root.has(tower) && !counted) {
      model.not_counted.push_back(std::string(tower.names().name) + ": the " + kind +
                                  " encoder and its projector are not counted; fitcheck counts the language model");
    }
  }
  if (model_type.empty()) {
    throw ConfigError("model_type",
                      "required field 'model_type' is missing: fitcheck needs it to know which "
                      "architecture the fields describe");
  }
  model.model_type = model_type;

  detail::read_family(lowercase(model_type), outer_type, fields, model);
  if (vision_counted) model.vision = detail::read_vision_tower(wrapper, root, model);
  if (audio_counted) model.audio = detail::read_other_audio_tower(wrapper, root, model);
  model.stored_precision = read_stored_precision(root, fields);

  // Integral floats and similar readings the field reader noted.
  for (const auto& note : fields.notes()) model.assumptions.push_back(note);
  if (detail::has_nonfinite_literals(*document))
    model.assumptions.push_back(
        "config.json holds NaN/Infinity literals (Python's extension to JSON) in fields fitcheck does not read");

  if (model.layer_kinds.empty() || model.layer_kind_of_layer.size() != static_cast<std::size_t>(model.num_layers))
    throw ConfigError("num_hidden_layers", "the model has no layers");
  for (auto& kind : model.layer_kinds) {
    kind.layer_count = 0;
    check_layer(kind, model);
  }
  for (auto index : model.layer_kind_of_layer) model.layer_kinds[index].layer_count += 1;
  return model;
}

}  // namespace fitcheck
