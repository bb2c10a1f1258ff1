// SPDX-License-Identifier: MIT
// The readers of the families outside the common set (config_other_families.hpp). Only these three
// functions live here: the first-view module links wasm/first_view_readers.cpp instead, so nothing
// else may be defined in this file.
#include "config/config_other_families.hpp"

#include <stdexcept>

#include "config/config_families.hpp"
#include "config/config_gemma3n_towers.hpp"
#include "config/config_phi4_audio.hpp"
#include "config/config_vision.hpp"

namespace fitcheck::detail {

void read_other_family(const std::string& type, const ConfigFields& fields, ModelDescription& model) {
  if (read_hybrid_family(type, fields, model) || read_nas_family(type, fields, model) ||
      read_gemma3n_family(type, fields, model))
    return;
  if (type == "recurrent_gemma") return read_recurrent_gemma(fields, model);
  if (type == "minimax" || type == "minimax_m1" || type == "minimax_text_01") return read_minimax(type, fields, model);
  if (type == "whisper") return read_whisper(fields, model);
  if (type == "mllama" || type == "mllama_text_model") return read_mllama_text(fields, model);
  throw std::logic_error("model_type '" + type + "' is listed in kOtherFamilies but no reader takes it");
}

VisionTower read_other_vision_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model) {
  if (wrapper == "gemma3n") return read_gemma3n_vision(root, model);
  if (wrapper == "llava") return read_llava_vision(root, model);
  if (wrapper == "paligemma") return read_paligemma_vision(root, model);
  if (wrapper == "llava_next") return read_llava_next_vision(root, model);
  if (wrapper == "mistral3") return read_mistral3_vision(root, model);
  if (wrapper == "qwen3_vl" || wrapper == "qwen3_vl_moe") return read_qwen3_vl_vision(root, model);
  if (wrapper == "qwen3_5" || wrapper == "qwen3_5_moe") return read_qwen3_5_vision(wrapper, root, model);
  if (wrapper == "idefics3" || wrapper == "smolvlm") return read_idefics3_vision(wrapper, root, model);
  if (wrapper == "internvl") return read_internvl_vision(root, model);
  if (wrapper == "phi4_multimodal") return read_phi4_multimodal_vision(root, model);
  if (wrapper == "mllama") return read_mllama_vision(root, model);
  throw std::logic_error("wrapper '" + wrapper + "' is listed in kOtherVisionWrappers but no reader takes it");
}

AudioTower read_other_audio_tower(const std::string& wrapper, const ConfigFields& root, ModelDescription& model) {
  if (wrapper == "gemma3n") return read_gemma3n_audio(root, model);
  if (wrapper == "phi4_multimodal") return read_phi4_multimodal_audio(root, model);
  throw std::logic_error("wrapper '" + wrapper + "' is listed in kOtherAudioWrappers but no reader takes it");
}

}  // namespace fitcheck::detail
