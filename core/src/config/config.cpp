// SPDX-License-Identifier: MIT
// parse_hf_config: unwraps multimodal wrappers, picks the family reader, and finishes the
// description (layer kinds, checks that hold for every family).
#include "fitcheck/config.hpp"

#include <algorithm>
#include <cmath>

#include "config/config_families.hpp"
#include "config/config_fields.hpp"

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

// Gemma3ForConditionalGeneration's vision_config (a SiglipVisionConfig) and mm_tokens_per_image.
VisionTower read_gemma3_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  const std::string type = vision.string("vision_config.model_type").value_or("siglip_vision_model");
  if (type != "siglip_vision_model")
    throw ConfigError(vision.path_of("vision_config.model_type"),
                      "field 'vision_config.model_type' is '" + detail::printable(type) +
                          "'; Gemma-3's vision tower is a 'siglip_vision_model'");
  if (vision.boolean("vision_config.vision_use_head").value_or(false))
    throw ConfigError(vision.path_of("vision_config.vision_use_head"),
                      "field 'vision_config.vision_use_head' is true: Gemma-3 uses SigLIP without its pooling head, "
                      "and fitcheck does not count one");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "siglip";
  v.hidden_size = vision.required_count("vision_config.hidden_size", 1, max_size);
  v.intermediate_size = vision.required_count("vision_config.intermediate_size", 1, 1 << 20);
  v.layers = vision.required_count("vision_config.num_hidden_layers", 1, 1024);
  v.heads = vision.required_count("vision_config.num_attention_heads", 1, max_size);
  v.patch_size = vision.required_count("vision_config.patch_size", 1, max_size);
  v.image_size = vision.required_count("vision_config.image_size", 1, max_size);
  if (v.image_size % v.patch_size != 0)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is not a multiple of vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  v.projector_output = model.hidden_size;
  v.tokens_per_image = root.optional_count("mm_tokens_per_image", 1, 1 << 20).value_or(256);
  if (!root.has("mm_tokens_per_image"))
    model.assumptions.push_back("mm_tokens_per_image absent: 256 image tokens per image, as Gemma3Config");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), but the memory and time estimates "
      "cover the language model: the tower's weights and compute are not included (image tokens enter inference "
      "with the images option)");
  return v;
}

// Qwen2VLForConditionalGeneration's vision_config (Qwen2VLVisionConfig: embed_dim, depth, num_heads,
// mlp_ratio, in_chans, patch_size, temporal_patch_size, spatial_merge_size; hidden_size is the
// language model's width the merger projects to). Defaults are Qwen2VLVisionConfig's.
VisionTower read_qwen2_vl_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "qwen2_vl";
  v.hidden_size = vision.optional_count("vision_config.embed_dim", 1, max_size).value_or(1280);
  const std::int64_t mlp_ratio = vision.optional_count("vision_config.mlp_ratio", 1, 64).value_or(4);
  v.intermediate_size = v.hidden_size * mlp_ratio;
  v.layers = vision.optional_count("vision_config.depth", 1, 1024).value_or(32);
  v.heads = vision.optional_count("vision_config.num_heads", 1, max_size).value_or(16);
  if (v.hidden_size % v.heads != 0)
    throw ConfigError(vision.path_of("vision_config.num_heads"),
                      "vision_config.embed_dim (" + std::to_string(v.hidden_size) +
                          ") is not a multiple of vision_config.num_heads (" + std::to_string(v.heads) + ")");
  v.channels = vision.optional_count("vision_config.in_chans", 1, 16).value_or(3);
  v.patch_size = vision.optional_count("vision_config.patch_size", 1, 1024).value_or(14);
  v.temporal_patch_size = vision.optional_count("vision_config.temporal_patch_size", 1, 64).value_or(2);
  v.spatial_merge_size = vision.optional_count("vision_config.spatial_merge_size", 1, 64).value_or(2);
  v.projector_output = vision.optional_count("vision_config.hidden_size", 1, max_size).value_or(model.hidden_size);
  if (v.projector_output != model.hidden_size)
    throw ConfigError(vision.path_of("vision_config.hidden_size"),
                      "vision_config.hidden_size (" + std::to_string(v.projector_output) +
                          ") must be the language model's hidden_size (" + std::to_string(model.hidden_size) +
                          "): the merger projects into it");
  model.assumptions.push_back(
      "the vision tower and merger are counted (total_params_with_vision), but the memory and time estimates cover "
      "the language model: the tower's weights and compute are not included (image tokens enter inference with the "
      "images option, sized by the image size)");
  return v;
}

// Llama4ForConditionalGeneration's vision_config (Llama4VisionConfig, huggingface/transformers@b17cfe48c5a9
// src/transformers/models/llama4/configuration_llama4.py). Its defaults (hidden_size 768, image_size 448,
// vision_output_dim 7680) are not the released models' sizes, so the shape fields are required rather
// than defaulted. Image tokens: Llama4Processor (huggingface/transformers@f5d3f1e134fe
// src/transformers/models/llama4/processing_llama4.py) gives each tile (image_size / patch_size)^2 //
// round(1 / pixel_shuffle_ratio^2) tokens.
VisionTower read_llama4_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  const std::string type = vision.string("vision_config.model_type").value_or("llama4_vision_model");
  if (type != "llama4_vision_model")
    throw ConfigError(vision.path_of("vision_config.model_type"),
                      "field 'vision_config.model_type' is '" + detail::printable(type) +
                          "'; Llama 4's vision tower is a 'llama4_vision_model'");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "llama4";
  v.hidden_size = vision.required_count("vision_config.hidden_size", 1, max_size);
  v.intermediate_size = vision.required_count("vision_config.intermediate_size", 1, 1 << 20);
  v.layers = vision.required_count("vision_config.num_hidden_layers", 1, 1024);
  v.heads = vision.required_count("vision_config.num_attention_heads", 1, max_size);
  if (v.hidden_size % v.heads != 0)
    throw ConfigError(vision.path_of("vision_config.num_attention_heads"),
                      "vision_config.hidden_size (" + std::to_string(v.hidden_size) +
                          ") is not a multiple of vision_config.num_attention_heads (" + std::to_string(v.heads) + ")");
  v.patch_size = vision.required_count("vision_config.patch_size", 1, max_size);
  v.image_size = vision.required_count("vision_config.image_size", 1, max_size);
  if (v.image_size % v.patch_size != 0)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is not a multiple of vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  v.adapter_hidden = vision.required_count("vision_config.projector_input_dim", 1, 1 << 20);
  v.adapter_output = vision.required_count("vision_config.projector_output_dim", 1, 1 << 20);
  v.vision_output = vision.required_count("vision_config.vision_output_dim", 1, 1 << 20);
  v.projector_output = model.hidden_size;
  const auto ratio = vision.number("vision_config.pixel_shuffle_ratio");
  const std::string ratio_path = vision.path_of("vision_config.pixel_shuffle_ratio");
  if (!ratio)
    throw ConfigError(
        ratio_path, "required field '" + ratio_path + "' is missing: it sets how many image tokens each tile becomes");
  if (!(*ratio > 0 && *ratio <= 1)) throw ConfigError(ratio_path, "field '" + ratio_path + "' must be in (0, 1]");
  const auto downsample = static_cast<std::int64_t>(std::nearbyint(1.0 / (*ratio * *ratio)));
  const std::int64_t side = v.image_size / v.patch_size;
  if (downsample < 1 || downsample > side * side)
    throw ConfigError(ratio_path, "field '" + ratio_path + "' shuffles more patches together than a tile has");
  v.tokens_per_tile = side * side / downsample;
  v.max_tiles = 16;  // Llama4ImageProcessorFast max_patches
  model.assumptions.push_back(
      "Llama 4 images: the image processor's defaults (tiles of vision_config.image_size, at most 16 tiles, "
      "resize_to_max_canvas false; processor_config.json is not read) and its patch size and pixel shuffle ratio "
      "taken as vision_config's");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), but the memory and time estimates "
      "cover the language model: the tower's weights and compute are not included (image tokens enter inference "
      "with the images option, sized by the image size)");
  return v;
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
  }
  struct Tower {
    detail::Field field;
    const char* kind;
  };
  const Tower towers[] = {{"vision_config", "vision"}, {"audio_config", "audio"}};
  // Gemma-3's SigLIP tower, Qwen2-VL's ViT and Llama 4's ViT are counted (read_gemma3_vision,
  // read_qwen2_vl_vision, read_llama4_vision); other towers are named as not counted.
  const std::string wrapper = lowercase(outer_type);
  const bool vision_counted =
      (wrapper == "gemma3" || wrapper == "qwen2_vl" || wrapper == "llama4") && root.has("vision_config");
  for (const auto& [tower, kind] : towers) {
    if (root.has(tower) && !(vision_counted && std::string_view(kind) == "vision")) {
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
  if (vision_counted)
    model.vision = wrapper == "gemma3"   ? read_gemma3_vision(root, model)
                   : wrapper == "llama4" ? read_llama4_vision(root, model)
                                         : read_qwen2_vl_vision(root, model);
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
