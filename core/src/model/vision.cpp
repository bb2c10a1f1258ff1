// SPDX-License-Identifier: MIT
// Image tokens per image, as each model's image processor sizes an image.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fitcheck/model.hpp"

namespace fitcheck {

// Qwen2-VL (huggingface/transformers src/transformers/models/qwen2_vl/image_processing_qwen2_vl.py,
// smart_resize and Qwen2VLImageProcessor's defaults): each side is rounded to a multiple of
// factor = patch_size x merge_size (Python's round, half to even); an image over max_pixels =
// 14 x 14 x 4 x 1280 is scaled down (floor), one under min_pixels = 56 x 56 scaled up (ceil); the
// tokens are the merged patches, (height / patch) x (width / patch) / merge^2 (one temporal patch:
// an image is repeated temporal_patch_size times).
std::int64_t image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  if (tower.kind != "qwen2_vl") return tower.tokens_per_image;
  if (width < 1 || height < 1) throw std::invalid_argument("image size: width and height must be at least 1 pixel");
  const double longer = static_cast<double>(std::max(width, height));
  const double shorter = static_cast<double>(std::min(width, height));
  if (longer / shorter > 200)
    throw std::invalid_argument("image size: Qwen2-VL's processor refuses an aspect ratio over 200 (" +
                                std::to_string(width) + " x " + std::to_string(height) + ")");
  const std::int64_t factor = tower.patch_size * tower.spatial_merge_size;
  constexpr double min_pixels = 56.0 * 56.0;
  constexpr double max_pixels = 14.0 * 14.0 * 4.0 * 1280.0;
  const double h = static_cast<double>(height), w = static_cast<double>(width), f = static_cast<double>(factor);
  // std::nearbyint rounds half to even in the default rounding mode, as Python's round does.
  double h_bar = std::nearbyint(h / f) * f, w_bar = std::nearbyint(w / f) * f;
  if (h_bar * w_bar > max_pixels) {
    const double beta = std::sqrt(h * w / max_pixels);
    h_bar = std::floor(h / beta / f) * f;
    w_bar = std::floor(w / beta / f) * f;
  } else if (h_bar * w_bar < min_pixels) {
    const double beta = std::sqrt(min_pixels / (h * w));
    h_bar = std::ceil(h * beta / f) * f;
    w_bar = std::ceil(w * beta / f) * f;
  }
  const auto patches_high = static_cast<std::int64_t>(h_bar) / tower.patch_size;
  const auto patches_wide = static_cast<std::int64_t>(w_bar) / tower.patch_size;
  return patches_high * patches_wide / (tower.spatial_merge_size * tower.spatial_merge_size);
}

}  // namespace fitcheck
