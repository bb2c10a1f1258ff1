// SPDX-License-Identifier: MIT
// Phi-4-multimodal's audio_config (the conformer speech encoder), read into an AudioTower counted
// apart from the language model. Internal to the core.
#pragma once

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// Phi4MultimodalConfig's audio_config; the language model is already in `model` (hidden_size).
// Absent fields take Phi4MultimodalAudioConfig's defaults, each named in model.assumptions.
AudioTower read_phi4_multimodal_audio(const ConfigFields& root, ModelDescription& model);

}  // namespace fitcheck::detail
