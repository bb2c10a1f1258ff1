// SPDX-License-Identifier: MIT
// The vision towers of multimodal wrappers (vision_config beside text_config), read into a VisionTower
// counted apart from the language model. Internal to the core.
#pragma once

#include <string>

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// The assumption every counted tower adds: counted apart, its weights in the inference memory, left
// out of the time and training estimates.
inline constexpr const char* kTowerNotInEstimates =
    "the vision tower and projector are counted (total_params_with_vision), and their weights are in the "
    "inference memory (unquantized, with the language model); time and training estimates cover the language "
    "model: the tower's compute is not included (image tokens enter inference with the images option)";

// `text` (a wrapper's text_config of model_type `text_type`, lowercase) completed with the defaults of
// its configuration class, each default taken reported; unchanged for a type without a table here.
ConfigFields with_text_config_defaults(const ConfigFields& text, const std::string& text_type, ModelDescription& model);

// True when the vision tower of the wrapper model_type `wrapper` (lowercase) is counted.
bool vision_tower_counted(const std::string& wrapper);

// Refuses (naming vision_config.model_type) a vision_config whose model_type is not `tower_type`; an
// absent model_type is `tower_type`, the wrapper's configuration class default. `owner` names the
// model in the refusal ("Llama 4").
void check_vision_tower_type(const ConfigFields& vision, const std::string& tower_type, const std::string& owner);

// Refuses a vision_config whose heads (the field `heads_field`) do not divide its hidden size.
void check_heads_divide_hidden(const ConfigFields& vision, const VisionTower& v, Field heads_field);

// An encoder's hidden_size, intermediate_size, num_hidden_layers and num_attention_heads, each absent
// one its configuration class's default; heads must divide hidden.
struct EncoderDefaults {
  std::int64_t hidden = 0, intermediate = 0, layers = 0, heads = 0;
};
void read_encoder_widths(const ConfigFields& vision, const EncoderDefaults& defaults, VisionTower& v);

// A tower's patch_size, image_size and num_channels, each absent one the class default given (3
// channels); an image smaller than one patch is refused naming vision_config.image_size.
void read_patch_grid(const ConfigFields& vision, std::int64_t default_patch, std::int64_t default_image,
                     VisionTower& v);

// Reads root's vision_config by the rules of `wrapper` (one vision_tower_counted accepts); the
// language model is already in `model` (hidden_size). Assumptions go to model.assumptions.
VisionTower read_vision_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model);

// Qwen3-VL's vision_config (qwen3_vl and qwen3_vl_moe wrappers; config_vision_qwen3.cpp), with the
// wrapper's top-level tie_word_embeddings applied to `model`.
// Each wrapper's tower (config_vision.cpp).
VisionTower read_gemma3_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_qwen2_vl_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_llama4_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_paligemma_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_llava_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_llava_next_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_mistral3_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_phi4_multimodal_vision(const ConfigFields& root, ModelDescription& model);
VisionTower read_qwen3_vl_vision(const ConfigFields& root, ModelDescription& model);
// Qwen3.5's (`wrapper` "qwen3_5" or "qwen3_5_moe"): Qwen3-VL's tower without the DeepStack mergers
// (config_vision_qwen3.cpp).
VisionTower read_qwen3_5_vision(const std::string& wrapper, const ConfigFields& root, ModelDescription& model);
// The tiling wrappers' readers (config_vision_tiled.cpp): Idefics3 and SmolVLM (`wrapper` "idefics3" or
// "smolvlm").
VisionTower read_idefics3_vision(const std::string& wrapper, const ConfigFields& root, ModelDescription& model);
// InternVL (`wrapper` "internvl").
VisionTower read_internvl_vision(const ConfigFields& root, ModelDescription& model);
// Llama 3.2 Vision's tower and projector (`wrapper` "mllama"; config_mllama.cpp).
VisionTower read_mllama_vision(const ConfigFields& root, ModelDescription& model);

}  // namespace fitcheck::detail
