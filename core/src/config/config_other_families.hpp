// SPDX-License-Identifier: MIT
// The families read outside the common set: the state-space and recurrent hybrids, Llama-Nemotron's
// searched blocks, Gemma 3n, Whisper, Llama 3.2 Vision, and the vision and audio towers of the wrappers other than
// Gemma-3's, Qwen2-VL's and Llama 4's. read_family and read_vision_tower reach them only through the three readers
// below, defined in config_other_families.cpp. The page's first-view WebAssembly module links
// wasm/first_view_readers.cpp in their place, whose readers refuse with FamilyNotInBuild, so that its
// download carries the common families only; the page then reads such a config with the full module
// (docs/performance.md, "The first view reads the common families").
#pragma once

#include <string>
#include <string_view>

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// model_type values (canonical, lowercase) read by read_other_family.
inline constexpr std::string_view kOtherFamilies[] = {"mamba",
                                                      "falcon_mamba",
                                                      "jamba",
                                                      "mamba2",
                                                      "nemotron_h",
                                                      "bamba",
                                                      "granitemoehybrid",
                                                      "qwen3_next",
                                                      "qwen3_5_text",
                                                      "qwen3_5_moe_text",
                                                      "lfm2",
                                                      "lfm2_moe",
                                                      "falcon_h1",
                                                      "zamba2",
                                                      "nemotron-nas",
                                                      "recurrent_gemma",
                                                      "minimax",
                                                      "minimax_m1",
                                                      "minimax_text_01",
                                                      "gemma3n",
                                                      "gemma3n_text",
                                                      "whisper",
                                                      "mllama",
                                                      "mllama_text_model"};
// Wrapper model_type values whose vision_config read_other_vision_tower reads.
inline constexpr std::string_view kOtherVisionWrappers[] = {
    "llava",       "llava_next", "paligemma", "mistral3", "qwen3_vl", "qwen3_vl_moe",    "qwen3_5",
    "qwen3_5_moe", "idefics3",   "smolvlm",   "internvl", "gemma3n",  "phi4_multimodal", "mllama"};
// Wrapper model_type values whose audio_config read_other_audio_tower reads.
inline constexpr std::string_view kOtherAudioWrappers[] = {"gemma3n", "phi4_multimodal"};

constexpr bool listed(std::string_view name, const auto& names) {
  for (std::string_view listed_name : names)
    if (listed_name == name) return true;
  return false;
}
constexpr bool is_other_family(std::string_view type) { return listed(type, kOtherFamilies); }
constexpr bool is_other_vision_wrapper(std::string_view wrapper) { return listed(wrapper, kOtherVisionWrappers); }
constexpr bool is_other_audio_wrapper(std::string_view wrapper) { return listed(wrapper, kOtherAudioWrappers); }

void read_other_family(const std::string& type, const ConfigFields& fields, ModelDescription& model);
VisionTower read_other_vision_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model);
AudioTower read_other_audio_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model);

}  // namespace fitcheck::detail
