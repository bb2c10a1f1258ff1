// SPDX-License-Identifier: MIT
// Qwen3-VL's wrapper (qwen3_vl, qwen3_vl_moe): the vision_config of Qwen3VLVisionConfig and the
// top-level tie_word_embeddings of Qwen3VLConfig.
#include <algorithm>
#include <set>

#include "config/config_vision.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// Qwen3VLConfig (huggingface/transformers@000c33fdfde1 src/transformers/models/qwen3_vl/
// configuration_qwen3_vl.py) keeps tie_word_embeddings at the top level (default false); released
// text_configs name it too (2B, 4B) or not at all (8B, 30B-A3B). The top level decides when the
// text_config is silent; two values that disagree are refused.
void read_qwen3_vl_tie(const ConfigFields& root, ModelDescription& model) {
  const auto top = root.boolean("tie_word_embeddings");
  const auto text = root.object("text_config");
  const auto inner = text ? text->boolean("tie_word_embeddings") : std::nullopt;
  if (top && inner && *top != *inner)
    throw ConfigError(text->path_of("tie_word_embeddings"),
                      "field 'text_config.tie_word_embeddings' (" + std::string(*inner ? "true" : "false") +
                          ") contradicts the top-level tie_word_embeddings (" + (*top ? "true" : "false") +
                          "): Qwen3-VL ties its embeddings by one switch");
  if (inner) return;
  model.tie_word_embeddings = top.value_or(false);
  // The language model's reader noted text_config's absent switch; the wrapper's value replaces it.
  std::erase_if(model.assumptions,
                [](const std::string& note) { return note.rfind("tie_word_embeddings absent", 0) == 0; });
  if (!top) model.assumptions.push_back("tie_word_embeddings absent: separate lm_head, the default of Qwen3VLConfig");
}

}  // namespace

// Qwen3VLVisionConfig (same file; defaults depth 27, hidden_size 1152, intermediate_size 4304,
// num_heads 16, in_channels 3, patch_size 16, spatial_merge_size 2, temporal_patch_size 2,
// out_hidden_size 3584, num_position_embeddings 2304, deepstack_visual_indexes [8, 16, 24]).
// out_hidden_size is the language model's width the mergers project to. Images: Qwen3-VL's
// preprocessor_config.json gives Qwen2VLImageProcessorFast size {shortest_edge 65536, longest_edge
// 16777216} (smart_resize's min and max pixels) with patch_size 16 and merge_size 2.
VisionTower read_qwen3_vl_vision(const ConfigFields& root, ModelDescription& model) {
  read_qwen3_vl_tie(root, model);
  const ConfigFields vision = *root.object("vision_config");
  const std::string type = vision.string("vision_config.model_type").value_or("qwen3_vl");
  static const std::set<std::string> known = {"qwen3_vl", "qwen3_vl_moe", "qwen3_vl_vision", "qwen3_vl_moe_vision"};
  if (!known.contains(type))
    throw ConfigError(vision.path_of("vision_config.model_type"),
                      "field 'vision_config.model_type' is '" + printable(type) +
                          "'; Qwen3-VL's vision tower is a 'qwen3_vl' (or 'qwen3_vl_moe') vision model");
  constexpr std::int64_t max_size = 1 << 16;
  VisionTower v;
  v.kind = "qwen3_vl";
  v.hidden_size = vision.optional_count("vision_config.hidden_size", 1, max_size).value_or(1152);
  v.intermediate_size = vision.optional_count("vision_config.intermediate_size", 1, 1 << 20).value_or(4304);
  v.layers = vision.optional_count("vision_config.depth", 1, 1024).value_or(27);
  v.heads = vision.optional_count("vision_config.num_heads", 1, max_size).value_or(16);
  check_heads_divide_hidden(vision, v, "vision_config.num_heads");
  v.channels = vision.optional_count("vision_config.in_channels", 1, 16).value_or(3);
  v.patch_size = vision.optional_count("vision_config.patch_size", 1, 1024).value_or(16);
  v.temporal_patch_size = vision.optional_count("vision_config.temporal_patch_size", 1, 64).value_or(2);
  v.spatial_merge_size = vision.optional_count("vision_config.spatial_merge_size", 1, 64).value_or(2);
  v.position_embeddings = vision.optional_count("vision_config.num_position_embeddings", 1, 1 << 24).value_or(2304);
  v.projector_output = vision.optional_count("vision_config.out_hidden_size", 1, max_size).value_or(3584);
  if (v.projector_output != model.hidden_size)
    throw ConfigError(vision.path_of("vision_config.out_hidden_size"),
                      "vision_config.out_hidden_size (" + std::to_string(v.projector_output) +
                          ") must be the language model's hidden_size (" + std::to_string(model.hidden_size) +
                          "): the mergers project into it");
  const auto deepstack =
      vision.integer_list("vision_config.deepstack_visual_indexes").value_or(std::vector<std::int64_t>{8, 16, 24});
  for (const std::int64_t index : deepstack)
    if (index < 0 || index >= v.layers)
      throw ConfigError(vision.path_of("vision_config.deepstack_visual_indexes"),
                        "vision_config.deepstack_visual_indexes holds " + std::to_string(index) +
                            ", not a layer of the " + std::to_string(v.layers) + "-layer vision encoder");
  v.deepstack_mergers = static_cast<std::int64_t>(deepstack.size());
  v.min_pixels = 65536;
  v.max_pixels = 16777216;
  model.assumptions.push_back(
      "Qwen3-VL images: resized as Qwen3-VL's preprocessor_config.json sets Qwen2VLImageProcessorFast (min_pixels "
      "65536, max_pixels 16777216; the file itself is not read)");
  model.assumptions.push_back(
      "the vision tower and mergers are counted (total_params_with_vision), their weights are in the inference memory "
      "(unquantized, with the language model); time and training estimates cover the language model: the tower's "
      "compute is not included (image tokens enter inference "
      "with the images option, sized by the image size)");
  return v;
}

}  // namespace fitcheck::detail
