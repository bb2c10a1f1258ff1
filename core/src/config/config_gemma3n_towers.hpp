// SPDX-License-Identifier: MIT
// Gemma 3n's vision_config (a timm MobileNet-v5) and audio_config (the USM conformer), read into a
// VisionTower and an AudioTower counted apart from the language model. Internal to the core.
#pragma once

#include <string>

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// A tower's size from `fields` (between 1 and `maximum`), or its configuration class's default when
// absent, named in the assumptions with its full path (e.g. audio_config.hidden_size).
std::int64_t count_or_default(const ConfigFields& fields, Field field, std::int64_t maximum, std::int64_t fallback,
                              const char* config_class, ModelDescription& model);

// Gemma3nConfig's vision_config and vision_soft_tokens_per_image; the language model is already in
// `model` (hidden_size). Assumptions go to model.assumptions.
VisionTower read_gemma3n_vision(const ConfigFields& root, ModelDescription& model);

// Gemma3nConfig's audio_config and audio_soft_tokens_per_image, likewise.
AudioTower read_gemma3n_audio(const ConfigFields& root, ModelDescription& model);

}  // namespace fitcheck::detail
