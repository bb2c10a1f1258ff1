// SPDX-License-Identifier: MIT
// Vision-language wrappers whose processors cut an image into tiles of the tower's input size: each
// family's vision_config and connector as its transformers configuration class reads them.
#include <cmath>
#include <string>

#include "config/config_vision.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// A side given as one integer or as a square [height, width] pair (InternVLVisionConfig accepts both).
std::int64_t square_side(const ConfigFields& vision, Field field, std::int64_t fallback) {
  const std::string path = vision.path_of(field);
  if (!vision.is_list(field)) return vision.optional_count(field, 1, 1 << 16).value_or(fallback);
  const auto sides = vision.integer_list(field);
  if (!sides || sides->size() != 2 || (*sides)[0] != (*sides)[1] || (*sides)[0] < 1 || (*sides)[0] > (1 << 16))
    throw ConfigError(path, "field '" + path +
                                "' must be one size or a square [height, width] pair (InternVL's pixel shuffle "
                                "folds a square grid of patches)");
  return (*sides)[0];
}

}  // namespace

// Idefics3ForConditionalGeneration and SmolVLMForConditionalGeneration (huggingface/transformers
// src/transformers/models/idefics3/modeling_idefics3.py, models/smolvlm/modeling_smolvlm.py): a SigLIP-style
// vision transformer (Idefics3VisionConfig / SmolVLMVisionConfig, whose defaults are hidden 1152,
// intermediate 3072, 12 layers, 16 heads, 3 channels, image 224, patch 32) and a connector that
// pixel-shuffles scale_factor x scale_factor patches into one token (Idefics3Config / SmolVLMConfig:
// scale_factor 2) before one Linear without bias into the text model.
// Image tokens (Idefics3Processor, SmolVLMProcessor): image_seq_len per tile, set to
// int((image_size // patch_size)^2 / scale_factor^2) as the processors' docstrings give it; tiles of
// max_image_size, here the tower's image_size, as the published preprocessor configs set it; the image
// first resized to a longest edge of 4 tiles (the image processors' default size).
VisionTower read_idefics3_vision(const std::string& wrapper, const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  check_vision_tower_type(vision, wrapper + "_vision", "a '" + wrapper + "' model");
  VisionTower v;
  v.kind = "idefics3";
  read_encoder_widths(vision, {1152, 3072, 12, 16}, v);
  read_patch_grid(vision, 32, 224, v);
  // Idefics3Connector.pixel_shuffle reshapes the (image_size // patch)^2 patches into a square grid and
  // folds scale_factor x scale_factor of them into one: the side must divide by scale_factor.
  v.spatial_merge_size = root.optional_count("scale_factor", 1, 64).value_or(2);
  const std::int64_t side = v.image_size / v.patch_size;
  if (side % v.spatial_merge_size != 0)
    throw ConfigError("scale_factor", "field 'scale_factor' (" + std::to_string(v.spatial_merge_size) +
                                          ") does not divide the tower's patch grid side (vision_config.image_size " +
                                          "// patch_size = " + std::to_string(side) + ")");
  if (!root.has("scale_factor")) model.assumptions.push_back("scale_factor absent: 2, as Idefics3Config");
  v.projector_output = model.hidden_size;
  v.tokens_per_tile = side * side / (v.spatial_merge_size * v.spatial_merge_size);
  v.resize_longest_edge = 4 * v.image_size;
  model.assumptions.push_back(
      "Idefics3/SmolVLM images: resized to a longest edge of 4 x vision_config.image_size, then cut into tiles of "
      "vision_config.image_size plus one global image, each of (image_size // patch_size)^2 / scale_factor^2 tokens "
      "(the image processor's defaults; preprocessor_config.json and processor_config.json are not read)");
  model.assumptions.push_back(kTowerNotInEstimates);
  return v;
}

// InternVLForConditionalGeneration (huggingface/transformers@00779a6b506f src/transformers/models/internvl/
// modeling_internvl.py; configuration_internvl.py): an InternViT tower (InternVLVisionConfig's defaults:
// hidden 1024, intermediate 4096, 24 layers, 16 heads, image 448, patch 14, 3 channels, attention_bias and
// use_qk_norm false, norm_type "layer_norm", use_mask_token false, use_absolute_position_embeddings and
// use_mean_pooling true) and InternVLMultiModalProjector after a pixel shuffle of int(1 / downsample_ratio)^2
// patches (InternVLConfig: downsample_ratio 0.5, image_seq_length 256). Image tokens (InternVLProcessor,
// GotOcr2ImageProcessor): tiles of image_size, 1 to 12 of them (min_patches, max_patches), the processor
// cropping to patches.
VisionTower read_internvl_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  check_vision_tower_type(vision, "internvl_vision", "InternVL");
  VisionTower v;
  v.kind = "internvl";
  read_encoder_widths(vision, {1024, 4096, 24, 16}, v);
  v.image_size = square_side(vision, "vision_config.image_size", 448);
  v.patch_size = square_side(vision, "vision_config.patch_size", 14);
  if (v.image_size % v.patch_size != 0)
    throw ConfigError(vision.path_of("vision_config.image_size"),
                      "vision_config.image_size (" + std::to_string(v.image_size) +
                          ") is not a multiple of vision_config.patch_size (" + std::to_string(v.patch_size) + ")");
  v.channels = vision.optional_count("vision_config.num_channels", 1, 16).value_or(3);
  v.attention_bias = vision.boolean("vision_config.attention_bias").value_or(false);
  v.qk_norm = vision.boolean("vision_config.use_qk_norm").value_or(false);
  const std::string norm = vision.string("vision_config.norm_type").value_or("layer_norm");
  if (norm != "layer_norm" && norm != "rms_norm")
    throw ConfigError(
        vision.path_of("vision_config.norm_type"),
        "field 'vision_config.norm_type' is '" + printable(norm) + "'; InternVL takes 'layer_norm' or 'rms_norm'");
  v.rms_norm = norm == "rms_norm";
  v.mask_token = vision.boolean("vision_config.use_mask_token").value_or(false);
  v.absolute_positions = vision.boolean("vision_config.use_absolute_position_embeddings").value_or(true);
  v.final_layer_norm = !vision.boolean("vision_config.use_mean_pooling").value_or(true);
  // The projector's LayerNorm and linear_1 take hidden x int(1 / downsample_ratio)^2 features, and
  // pixel_shuffle folds the patch grid by downsample_ratio: the two agree only when 1 / ratio is whole.
  const auto ratio = root.number("downsample_ratio").value_or(0.5);
  if (!root.has("downsample_ratio")) model.assumptions.push_back("downsample_ratio absent: 0.5, as InternVLConfig");
  const std::int64_t side = v.image_size / v.patch_size;
  const auto bad_ratio = [&] {
    return ConfigError(
        "downsample_ratio",
        "field 'downsample_ratio' must be 1 / n for a whole n (up to 64) that divides the tower's patch grid side (" +
            std::to_string(side) + ")");
  };
  // The range check comes before the integer conversion: a tiny ratio's inverse does not fit an int64.
  if (!(ratio >= 1.0 / 64 && ratio <= 1)) throw bad_ratio();
  const double inverse = 1.0 / ratio;
  const auto factor = static_cast<std::int64_t>(std::nearbyint(inverse));
  if (std::fabs(inverse - static_cast<double>(factor)) > 1e-9 || side % factor != 0) throw bad_ratio();
  v.spatial_merge_size = factor;
  v.tokens_per_tile = side * side / (factor * factor);
  if (const auto seq = root.optional_count("image_seq_length", 1, 1 << 24); seq && *seq != v.tokens_per_tile)
    throw ConfigError("image_seq_length", "field 'image_seq_length' (" + std::to_string(*seq) +
                                              ") contradicts the tower: (image_size / patch_size)^2 x "
                                              "downsample_ratio^2 = " +
                                              std::to_string(v.tokens_per_tile) + " features per tile");
  v.projector_output = model.hidden_size;
  v.min_tiles = 1;
  v.max_tiles = 12;
  model.assumptions.push_back(
      "InternVL images: cut into 1 to 12 tiles of vision_config.image_size in the grid closest to the image's aspect "
      "ratio, and a thumbnail when there are several (InternVLProcessor's crop_to_patches with GotOcr2ImageProcessor's "
      "min_patches and max_patches; preprocessor_config.json is not read)");
  model.assumptions.push_back(kTowerNotInEstimates);
  return v;
}

}  // namespace fitcheck::detail
