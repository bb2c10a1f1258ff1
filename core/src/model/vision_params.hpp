// SPDX-License-Identifier: MIT
// The parameters of a multimodal model's vision tower and projector (ParameterCount::vision_tower and
// multimodal_projector), counted apart from the language model. Internal to the core.
#pragma once

#include <cstdint>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck::detail {

// a + b of parameter counts, or a ConfigError when the sum does not fit in 64 bits.
inline std::int64_t checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    throw ConfigError("", "the parameter count of this config does not fit in 64 bits; check the sizes");
  return sum;
}

// Sets count.vision_tower and count.multimodal_projector for `tower`, by its kind.
void count_vision(const VisionTower& tower, ParameterCount& count);

// Qwen3-VL's vision model and mergers (vision_params_qwen3.cpp).
void count_qwen3_vl_vision(const VisionTower& tower, ParameterCount& count);

}  // namespace fitcheck::detail
