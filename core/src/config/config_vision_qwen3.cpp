// SPDX-License-Identifier: MIT
// The Qwen3-VL vision tower and its wrappers: Qwen3-VL (qwen3_vl, qwen3_vl_moe) and Qwen3.5 (qwen3_5,
// qwen3_5_moe), whose tower is Qwen3-VL's without the DeepStack mergers. The vision_config and the
// top-level tie_word_embeddings of the wrapper's configuration class.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config_vision.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// What sets the wrappers apart: their names, the vision model_type values their configuration
// classes write, and the DeepStack mergers (Qwen3VLVisionConfig defaults deepstack_visual_indexes to
// [8, 16, 24]; Qwen3_5VisionConfig removes the field and Qwen3_5VisionModel deletes
// deepstack_merger_list: huggingface/transformers@009e78d6e89f src/transformers/models/qwen3_5/
// modular_qwen3_5.py).
struct Qwen3VisionWrapper {
  const char* family;  // "Qwen3-VL", "Qwen3.5"
  const char* config_class;
  std::set<std::string> vision_types;
  std::vector<std::int64_t> default_deepstack;
  bool deepstack = true;
};

const Qwen3VisionWrapper& qwen3_vl_wrapper() {
  static const Qwen3VisionWrapper wrapper{"Qwen3-VL",
                                          "Qwen3VLConfig",
                                          {"qwen3_vl", "qwen3_vl_moe", "qwen3_vl_vision", "qwen3_vl_moe_vision"},
                                          {8, 16, 24},
                                          true};
  return wrapper;
}

// Qwen3_5MoeConfig renames the vision model_type "qwen3_5_moe" of older checkpoints to
// "qwen3_5_moe_vision" (configuration_qwen3_5_moe.py @008e57439125); the dense checkpoints write "qwen3_5".
const Qwen3VisionWrapper& qwen3_5_wrapper(bool moe) {
  static const std::set<std::string> types = {"qwen3_5", "qwen3_5_vision", "qwen3_5_moe", "qwen3_5_moe_vision"};
  static const Qwen3VisionWrapper dense{"Qwen3.5", "Qwen3_5Config", types, {}, false};
  static const Qwen3VisionWrapper sparse{"Qwen3.5", "Qwen3_5MoeConfig", types, {}, false};
  return moe ? sparse : dense;
}

// Qwen3VLConfig (huggingface/transformers@000c33fdfde1 src/transformers/models/qwen3_vl/
// configuration_qwen3_vl.py) keeps tie_word_embeddings at the top level (default false); released
// text_configs name it too (2B, 4B) or not at all (8B, 30B-A3B). The top level decides when the
// text_config is silent; two values that disagree are refused. Qwen3_5Config and Qwen3_5MoeConfig
// keep the same switch (default false).
void read_top_level_tie(const ConfigFields& root, const Qwen3VisionWrapper& wrapper, ModelDescription& model) {
  const auto top = root.boolean("tie_word_embeddings");
  const auto text = root.object("text_config");
  const auto inner = text ? text->boolean("tie_word_embeddings") : std::nullopt;
  if (top && inner && *top != *inner)
    throw ConfigError(text->path_of("tie_word_embeddings"),
                      "field 'text_config.tie_word_embeddings' (" + std::string(*inner ? "true" : "false") +
                          ") contradicts the top-level tie_word_embeddings (" + (*top ? "true" : "false") +
                          "): " + wrapper.family + " ties its embeddings by one switch");
  if (inner) return;
  model.tie_word_embeddings = top.value_or(false);
  // The language model's reader noted text_config's absent switch; the wrapper's value replaces it.
  std::erase_if(model.assumptions,
                [](const std::string& note) { return note.rfind("tie_word_embeddings absent", 0) == 0; });
  if (!top)
    model.assumptions.push_back(std::string("tie_word_embeddings absent: separate lm_head, the default of ") +
                                wrapper.config_class);
}

// Qwen3VLVisionConfig (same file; defaults depth 27, hidden_size 1152, intermediate_size 4304,
// num_heads 16, in_channels 3, patch_size 16, spatial_merge_size 2, temporal_patch_size 2,
// out_hidden_size 3584, num_position_embeddings 2304, deepstack_visual_indexes [8, 16, 24]).
// out_hidden_size is the language model's width the mergers project to. Images: Qwen3-VL's
// preprocessor_config.json gives Qwen2VLImageProcessorFast size {shortest_edge 65536, longest_edge
// 16777216} (smart_resize's min and max pixels) with patch_size 16 and merge_size 2.
VisionTower read_tower(const ConfigFields& root, const Qwen3VisionWrapper& wrapper, ModelDescription& model) {
  read_top_level_tie(root, wrapper, model);
  const ConfigFields vision = *root.object("vision_config");
  const std::string type = vision.string("vision_config.model_type").value_or(*wrapper.vision_types.begin());
  if (!wrapper.vision_types.contains(type)) {
    std::string listed;
    for (const std::string& known : wrapper.vision_types) listed += (listed.empty() ? "'" : ", '") + known + "'";
    throw ConfigError(vision.path_of("vision_config.model_type"), "field 'vision_config.model_type' is '" +
                                                                      printable(type) + "'; " + wrapper.family +
                                                                      "'s vision tower is one of " + listed);
  }
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
      vision.integer_list("vision_config.deepstack_visual_indexes").value_or(wrapper.default_deepstack);
  if (!wrapper.deepstack && !deepstack.empty())
    throw ConfigError(vision.path_of("vision_config.deepstack_visual_indexes"),
                      "vision_config.deepstack_visual_indexes lists layers, but " + std::string(wrapper.family) +
                          "'s vision model has no DeepStack mergers (Qwen3_5VisionModel deletes them)");
  for (const std::int64_t index : deepstack)
    if (index < 0 || index >= v.layers)
      throw ConfigError(vision.path_of("vision_config.deepstack_visual_indexes"),
                        "vision_config.deepstack_visual_indexes holds " + std::to_string(index) +
                            ", not a layer of the " + std::to_string(v.layers) + "-layer vision encoder");
  v.deepstack_mergers = static_cast<std::int64_t>(deepstack.size());
  v.min_pixels = 65536;
  v.max_pixels = 16777216;
  model.assumptions.push_back(
      wrapper.deepstack
          ? std::string(
                "Qwen3-VL images: resized as Qwen3-VL's preprocessor_config.json sets "
                "Qwen2VLImageProcessorFast (min_pixels 65536, max_pixels 16777216; the file itself is not read)")
          : std::string("Qwen3.5 images: resized with Qwen3-VL's image processor bounds (min_pixels 65536, max_pixels "
                        "16777216): transformers has no Qwen3.5 image processor of its own, and the checkpoint's "
                        "preprocessor_config.json is not read"));
  model.assumptions.push_back(
      "the vision tower and mergers are counted (total_params_with_vision), their weights are in the inference memory "
      "(unquantized, with the language model); time and training estimates cover the language model: the tower's "
      "compute is not included (image tokens enter inference "
      "with the images option, sized by the image size)");
  return v;
}

}  // namespace

VisionTower read_qwen3_vl_vision(const ConfigFields& root, ModelDescription& model) {
  return read_tower(root, qwen3_vl_wrapper(), model);
}

VisionTower read_qwen3_5_vision(const std::string& wrapper, const ConfigFields& root, ModelDescription& model) {
  return read_tower(root, qwen3_5_wrapper(wrapper == "qwen3_5_moe"), model);
}

}  // namespace fitcheck::detail
