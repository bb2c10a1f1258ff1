// SPDX-License-Identifier: MIT
// Multimodal wrappers: each family's vision_config as its transformers configuration class reads it
// (and the image tokens its processor gives one image), and a text_config completed with the defaults
// of its own configuration class.
#include "config/config_vision.hpp"

#include "config/config_other_families.hpp"

#include <cmath>
#include <optional>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {

void check_vision_tower_type(const ConfigFields& vision, const std::string& tower_type, const std::string& owner) {
  const std::string type = vision.string("vision_config.model_type").value_or(tower_type);
  if (type != tower_type)
    throw ConfigError(vision.path_of("vision_config.model_type"), "field 'vision_config.model_type' is '" +
                                                                      printable(type) + "'; " + owner +
                                                                      "'s vision tower is a '" + tower_type + "'");
}

void check_heads_divide_hidden(const ConfigFields& vision, const VisionTower& v, Field heads_field) {
  if (v.hidden_size % v.heads == 0) return;
  const std::string path = vision.path_of(heads_field);
  throw ConfigError(path, "vision_config.hidden_size (" + std::to_string(v.hidden_size) + ") is not a multiple of " +
                              path + " (" + std::to_string(v.heads) + ")");
}

void read_encoder_widths(const ConfigFields& vision, const EncoderDefaults& defaults, VisionTower& v) {
  constexpr std::int64_t max_size = 1 << 16;
  v.hidden_size = vision.optional_count("vision_config.hidden_size", 1, max_size).value_or(defaults.hidden);
  v.intermediate_size =
      vision.optional_count("vision_config.intermediate_size", 1, 1 << 20).value_or(defaults.intermediate);
  v.layers = vision.optional_count("vision_config.num_hidden_layers", 1, 1024).value_or(defaults.layers);
  v.heads = vision.optional_count("vision_config.num_attention_heads", 1, max_size).value_or(defaults.heads);
  check_heads_divide_hidden(vision, v, "vision_config.num_attention_heads");
}

void read_patch_grid(const ConfigFields& vision, std::int64_t default_patch, std::int64_t default_image,
                     VisionTower& v) {
  constexpr std::int64_t max_size = 1 << 16;
  v.patch_size = vision.optional_count("vision_config.patch_size", 1, max_size).value_or(default_patch);
  v.image_size = vision.optional_count("vision_config.image_size", 1, max_size).value_or(default_image);
  if (v.image_size < v.patch_size)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is smaller than vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
}

namespace {

// A SiglipVisionConfig tower without its pooling head (vision_use_head true is refused): Gemma-3's and
// PaliGemma's; Phi-4-multimodal's (`tower_type` phi4_multimodal_vision) has the SigLIP layers too.
// `image_size_default`: the value taken when image_size is absent (none: required).
VisionTower read_siglip_tower(const ConfigFields& vision, const std::string& family,
                              std::optional<std::int64_t> image_size_default,
                              const std::string& tower_type = "siglip_vision_model") {
  check_vision_tower_type(vision, tower_type, family);
  if (vision.boolean("vision_config.vision_use_head").value_or(false))
    throw ConfigError(vision.path_of("vision_config.vision_use_head"),
                      "field 'vision_config.vision_use_head' is true: " + family +
                          " uses SigLIP without its pooling head, and fitcheck does not count one");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "siglip";
  v.hidden_size = vision.required_count("vision_config.hidden_size", 1, max_size);
  v.intermediate_size = vision.required_count("vision_config.intermediate_size", 1, 1 << 20);
  v.layers = vision.required_count("vision_config.num_hidden_layers", 1, 1024);
  v.heads = vision.required_count("vision_config.num_attention_heads", 1, max_size);
  v.patch_size = vision.required_count("vision_config.patch_size", 1, max_size);
  v.image_size = image_size_default
                     ? vision.optional_count("vision_config.image_size", 1, max_size).value_or(*image_size_default)
                     : vision.required_count("vision_config.image_size", 1, max_size);
  if (v.image_size % v.patch_size != 0)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is not a multiple of vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  return v;
}

}  // namespace

// Gemma3ForConditionalGeneration's vision_config (a SiglipVisionConfig) and mm_tokens_per_image.
VisionTower read_gemma3_vision(const ConfigFields& root, ModelDescription& model) {
  VisionTower v = read_siglip_tower(*root.object("vision_config"), "Gemma-3", std::nullopt);
  v.projector_output = model.hidden_size;
  v.tokens_per_image = root.optional_count("mm_tokens_per_image", 1, 1 << 20).value_or(256);
  if (!root.has("mm_tokens_per_image"))
    model.assumptions.push_back("mm_tokens_per_image absent: 256 image tokens per image, as Gemma3Config");
  model.assumptions.push_back(kTowerNotInEstimates);
  return v;
}

// Phi4MultimodalForCausalLM (huggingface/transformers@00d4b3d2142c src/transformers/models/phi4_multimodal/
// modeling_phi4_multimodal.py, Phi4MultimodalImageEmbedding): Phi4MultimodalVisionModel, SigLIP layers
// with post_layernorm and the attention-pooling head (all stored), and the projector img_projection_up
// and img_projection_down. Its image processor (image_processing_phi4_multimodal_fast.py) cuts an image
// into at most dynamic_hd = 36 crops of 448 pixels. The vision and speech LoRA adapters of the language
// model are stored apart (PEFT) and not counted; the audio conformer is read in config_phi4_audio.cpp.
VisionTower read_phi4_multimodal_vision(const ConfigFields& root, ModelDescription& model) {
  VisionTower v =
      read_siglip_tower(*root.object("vision_config"), "Phi-4-multimodal", std::nullopt, "phi4_multimodal_vision");
  v.kind = "phi4_multimodal";
  v.projector_output = model.hidden_size;
  v.max_tiles = 36;  // Phi4MultimodalImageProcessorFast.dynamic_hd
  model.assumptions.push_back(
      "image crops: an image is cut into at most 36 crops (dynamic_hd), the image processor's default");
  model.not_counted.push_back(
      "the vision and speech LoRA adapters of the language model (PEFT adapters stored apart) are not counted");
  model.assumptions.push_back(kTowerNotInEstimates);
  return v;
}

// PaliGemmaForConditionalGeneration (huggingface/transformers src/transformers/models/paligemma/
// modeling_paligemma.py): a SigLIP tower (SiglipVisionConfig's image_size default 224), and
// PaliGemmaMultiModalProjector, one Linear(vision hidden, projection_dim) with bias, projection_dim
// being the language model's width. PaliGemmaProcessor gives each image (image_size / patch_size)^2
// tokens (PaliGemmaConfig sets vision_config.num_image_tokens so).
VisionTower read_paligemma_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  VisionTower v = read_siglip_tower(vision, "PaliGemma", 224);
  v.kind = "paligemma";
  if (!vision.has("vision_config.vision_use_head"))
    model.assumptions.push_back(
        "vision_config.vision_use_head absent: SigLIP read without its pooling head, as PaliGemma checkpoints store "
        "none");
  const std::string projection_path = vision.has("vision_config.projection_dim")
                                          ? vision.path_of("vision_config.projection_dim")
                                          : root.path_of("projection_dim");
  v.projector_output = vision.optional_count("vision_config.projection_dim", 1, 1 << 20)
                           .value_or(root.optional_count("projection_dim", 1, 1 << 20).value_or(2048));
  if (v.projector_output != model.hidden_size)
    throw ConfigError(projection_path, "field '" + projection_path + "' (" + std::to_string(v.projector_output) +
                                           ") must be the language model's hidden_size (" +
                                           std::to_string(model.hidden_size) + "): the projector feeds it");
  v.tokens_per_image = (v.image_size / v.patch_size) * (v.image_size / v.patch_size);
  model.assumptions.push_back(kTowerNotInEstimates);
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
  v.min_pixels = 56 * 56;             // Qwen2VLImageProcessor's min_pixels
  v.max_pixels = 14 * 14 * 4 * 1280;  // and max_pixels
  model.assumptions.push_back(
      "the vision tower and merger are counted (total_params_with_vision), their weights are in the inference memory "
      "(unquantized, with the language model); time and training estimates cover the language model: the tower's "
      "compute is not included (image tokens enter inference with the "
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
  check_vision_tower_type(vision, "llama4_vision_model", "Llama 4");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "llama4";
  v.hidden_size = vision.required_count("vision_config.hidden_size", 1, max_size);
  v.intermediate_size = vision.required_count("vision_config.intermediate_size", 1, 1 << 20);
  v.layers = vision.required_count("vision_config.num_hidden_layers", 1, 1024);
  v.heads = vision.required_count("vision_config.num_attention_heads", 1, max_size);
  check_heads_divide_hidden(vision, v, "vision_config.num_attention_heads");
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
  // Compared as a double first: a tiny ratio's 1 / ratio^2 does not fit an int64.
  const double downsample_real = std::nearbyint(1.0 / (*ratio * *ratio));
  const std::int64_t side = v.image_size / v.patch_size;
  if (!(downsample_real >= 1 && downsample_real <= static_cast<double>(side * side)))
    throw ConfigError(ratio_path, "field '" + ratio_path + "' shuffles more patches together than a tile has");
  const auto downsample = static_cast<std::int64_t>(downsample_real);
  v.tokens_per_tile = side * side / downsample;
  v.max_tiles = 16;  // Llama4ImageProcessorFast max_patches
  model.assumptions.push_back(
      "Llama 4 images: the image processor's defaults (tiles of vision_config.image_size, at most 16 tiles, "
      "resize_to_max_canvas false; processor_config.json is not read) and its patch size and pixel shuffle ratio "
      "taken as vision_config's");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute is not included (image tokens enter inference "
      "with the images option, sized by the image size)");
  return v;
}

namespace {

// vision_feature_layer: one encoder layer (an integer), or a list of layers whose features are concatenated.
std::int64_t read_feature_layers(const ConfigFields& root) {
  if (!root.is_list("vision_feature_layer")) {
    (void)root.integer("vision_feature_layer");  // one layer; a value of another type is refused
    return 1;
  }
  const auto layers = root.integer_list("vision_feature_layer");
  if (layers->empty()) throw ConfigError("vision_feature_layer", "field 'vision_feature_layer' is an empty list");
  return static_cast<std::int64_t>(layers->size());
}

}  // namespace

// LlavaForConditionalGeneration (huggingface/transformers@e33ea883d6dd src/transformers/models/llava/
// modeling_llava.py): the vision tower is AutoModel of vision_config, here a CLIPVisionConfig (its
// defaults: hidden 768, intermediate 3072, 12 layers, 12 heads, image 224, patch 32, 3 channels); the
// projector's input is vision hidden x the number of vision_feature_layer entries (an int: one);
// vision_feature_select_strategy "default" drops the class token, "full" keeps it; LlavaConfig's
// multimodal_projector_bias defaults to true.
VisionTower read_llava_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  check_vision_tower_type(vision, "clip_vision_model", "LLaVA");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "clip";
  read_encoder_widths(vision, {768, 3072, 12, 12}, v);
  v.patch_size = vision.optional_count("vision_config.patch_size", 1, max_size).value_or(32);
  v.image_size = vision.optional_count("vision_config.image_size", 1, max_size).value_or(224);
  if (v.image_size % v.patch_size != 0)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is not a multiple of vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  v.projector_output = model.hidden_size;
  v.feature_layers = read_feature_layers(root);
  const std::string strategy = root.string("vision_feature_select_strategy").value_or("default");
  if (strategy != "default" && strategy != "full")
    throw ConfigError("vision_feature_select_strategy", "field 'vision_feature_select_strategy' is '" +
                                                            printable(strategy) + "'; LLaVA takes 'default' or 'full'");
  v.keeps_class_token = strategy == "full";
  v.projector_bias = root.boolean("multimodal_projector_bias").value_or(true);
  v.tokens_per_image = (v.image_size / v.patch_size) * (v.image_size / v.patch_size) + (v.keeps_class_token ? 1 : 0);
  model.assumptions.push_back(
      "LLaVA images: every image resized and cropped to vision_config.image_size, as CLIPImageProcessor does "
      "(preprocessor_config.json is not read)");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute is not included (image tokens enter inference "
      "with the images option)");
  return v;
}

// LlavaNextForConditionalGeneration (huggingface/transformers@3571987262f1 src/transformers/models/llava_next/
// modeling_llava_next.py): LLaVA's CLIP tower and projector, and image_newline, one learned vector of the
// text hidden size; LlavaNextConfig's image_grid_pinpoints default to [[336, 672], [672, 336], [672, 672],
// [1008, 336], [336, 1008]].
VisionTower read_llava_next_vision(const ConfigFields& root, ModelDescription& model) {
  VisionTower v = read_llava_vision(root, model);
  v.kind = "llava_next";
  v.grid_pinpoints = root.integer_pair_list("image_grid_pinpoints")
                         .value_or(std::vector<std::pair<std::int64_t, std::int64_t>>{
                             {336, 672}, {672, 336}, {672, 672}, {1008, 336}, {336, 1008}});
  if (v.grid_pinpoints.empty())
    throw ConfigError("image_grid_pinpoints", "field 'image_grid_pinpoints' is an empty list");
  for (const auto& [height, width] : v.grid_pinpoints)
    if (height < v.image_size || width < v.image_size || height > (1 << 16) || width > (1 << 16))
      throw ConfigError("image_grid_pinpoints", "field 'image_grid_pinpoints' holds [" + std::to_string(height) + ", " +
                                                    std::to_string(width) +
                                                    "]; each side must be between vision_config.image_size and 65536");
  if (!root.has("image_grid_pinpoints"))
    model.assumptions.push_back("image_grid_pinpoints absent: LlavaNextConfig's five canvases of 336-pixel tiles");
  return v;
}

// Mistral3ForConditionalGeneration (huggingface/transformers src/transformers/models/mistral3/
// modeling_mistral3.py; Mistral3Config: spatial_merge_size 2, multimodal_projector_bias false,
// vision_feature_layer -1) with a PixtralVisionConfig tower (models/pixtral/configuration_pixtral.py;
// its defaults: hidden 1024, intermediate 4096, 24 layers, 16 heads, image 1024, patch 16, 3 channels).
VisionTower read_mistral3_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  check_vision_tower_type(vision, "pixtral", "Mistral-3");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "pixtral";
  read_encoder_widths(vision, {1024, 4096, 24, 16}, v);
  // PixtralAttention's q/k/v/o are hidden x heads x head_dim: fitcheck counts head_dim = hidden / heads.
  if (const auto head_dim = vision.optional_count("vision_config.head_dim", 1, max_size);
      head_dim && *head_dim * v.heads != v.hidden_size)
    throw ConfigError(vision.path_of("vision_config.head_dim"),
                      "vision_config.head_dim (" + std::to_string(*head_dim) +
                          ") x vision_config.num_attention_heads is not vision_config.hidden_size (" +
                          std::to_string(v.hidden_size) + "); fitcheck does not count such a Pixtral tower");
  v.patch_size = vision.optional_count("vision_config.patch_size", 1, max_size).value_or(16);
  v.image_size = vision.optional_count("vision_config.image_size", 1, max_size).value_or(1024);
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  v.spatial_merge_size = root.optional_count("spatial_merge_size", 1, 64).value_or(2);
  v.projector_output = model.hidden_size;
  v.feature_layers = read_feature_layers(root);
  v.projector_bias = root.boolean("multimodal_projector_bias").value_or(false);
  model.assumptions.push_back(
      "Mistral-3 images: scaled down to fit vision_config.image_size (the longest edge) and padded to multiples of "
      "patch_size x spatial_merge_size, as PixtralProcessor does (preprocessor_config.json is not read)");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute is not included (image tokens enter inference "
      "with the images option, sized by the image size)");
  return v;
}

ConfigFields with_text_config_defaults(const ConfigFields& text, const std::string& text_type,
                                       ModelDescription& model) {
  // LlamaConfig (huggingface/transformers src/transformers/models/llama/configuration_llama.py),
  // MistralConfig (models/mistral/configuration_mistral.py) and Gemma3TextConfig defaults, which a wrapper's
  // configuration class (LlavaConfig: CONFIG_MAPPING[text_config["model_type"]](**text_config)) gives the fields
  // text_config leaves out; LLaVA's published text_configs name only what differs from them.
  std::vector<ConfigFields::Default> defaults;
  if (text_type == "llama")
    defaults = {{"vocab_size", 32000},     {"hidden_size", 4096},       {"intermediate_size", 11008},
                {"num_hidden_layers", 32}, {"num_attention_heads", 32}, {"max_position_embeddings", 2048}};
  else if (text_type == "mistral")
    defaults = {{"vocab_size", 32000},
                {"hidden_size", 4096},
                {"intermediate_size", 14336},
                {"num_hidden_layers", 32},
                {"num_attention_heads", 32},
                {"num_key_value_heads", 8},
                {"max_position_embeddings", 131072},
                {"sliding_window", 4096}};
  else if (text_type == "gemma3_text")
    // Gemma3TextConfig (transformers 008f5c8c src/transformers/models/gemma3/configuration_gemma3.py),
    // which Gemma3Config builds text_config with: google/gemma-3-{4b,12b,27b}-it name only what
    // differs from it (vocabulary, heads, head_dim and pattern come from here).
    defaults = {{"vocab_size", 262208},      {"hidden_size", 2304},
                {"intermediate_size", 9216}, {"num_hidden_layers", 26},
                {"num_attention_heads", 8},  {"num_key_value_heads", 4},
                {"head_dim", 256},           {"max_position_embeddings", 131072},
                {"sliding_window", 4096},    {"sliding_window_pattern", 6}};
  else
    return text;
  std::vector<std::string> taken;
  ConfigFields completed = text.with_defaults(defaults, taken);
  for (const std::string& entry : taken)
    model.assumptions.push_back(entry + ": absent from text_config, the default of its configuration class");
  return completed;
}

bool vision_tower_counted(const std::string& wrapper) {
  return wrapper == "gemma3" || wrapper == "qwen2_vl" || wrapper == "llama4" || wrapper == "llava" ||
         wrapper == "llava_next" || wrapper == "paligemma" || wrapper == "mistral3" || wrapper == "qwen3_vl" ||
         wrapper == "qwen3_vl_moe" || wrapper == "qwen3_5" || wrapper == "qwen3_5_moe" || wrapper == "idefics3" ||
         wrapper == "smolvlm" || wrapper == "internvl" || wrapper == "gemma3n" || wrapper == "phi4_multimodal" ||
         wrapper == "mllama";
}

VisionTower read_vision_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model) {
  if (is_other_vision_wrapper(wrapper)) return read_other_vision_tower(wrapper, root, model);
  if (wrapper == "gemma3") return read_gemma3_vision(root, model);
  if (wrapper == "llama4") return read_llama4_vision(root, model);
  return read_qwen2_vl_vision(root, model);
}

}  // namespace fitcheck::detail
