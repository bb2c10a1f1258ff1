// SPDX-License-Identifier: MIT
// Image tokens per image, as each model's image processor sizes an image.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fitcheck/model.hpp"

namespace fitcheck {

// Qwen2-VL (huggingface/transformers src/transformers/models/qwen2_vl/image_processing_qwen2_vl.py,
// smart_resize and Qwen2VLImageProcessor's defaults): each side is rounded to a multiple of
// factor = patch_size x merge_size (Python's round, half to even); an image over max_pixels =
// 14 x 14 x 4 x 1280 is scaled down (floor), one under min_pixels = 56 x 56 scaled up (ceil); the
// tokens are the merged patches, (height / patch) x (width / patch) / merge^2 (one temporal patch:
// an image is repeated temporal_patch_size times).
namespace {

// Llama 4 (huggingface/transformers@e1b551679e26 src/transformers/models/llama4/
// image_processing_llama4_fast.py, Llama4ImageProcessorFast with max_patches 16 and resize_to_max_canvas
// false): the canvases are every rows x columns of tiles with rows x columns <= max_patches, in the
// order find_supported_resolutions lists them (tile counts from max_patches down, each count's factor
// pairs in ascending order, grouped by aspect ratio in first-seen order); get_best_fit scales the
// image to each canvas without distortion (float32 scales, as torch divides the integer tensors), takes
// the smallest scale >= 1 or else the largest below 1, and among the canvases of that scale the first
// of least area. Llama4Processor._prompt_split_image (huggingface/transformers@f5d3f1e134fe
// processing_llama4.py): <|image_start|>, then with more than one tile rows x columns tiles of
// tokens_per_tile patch tokens, a <|tile_x_separator|> between the tiles of a row and a
// <|tile_y_separator|> after each row; then <|image|>, the global tile's tokens_per_tile and <|image_end|>.
std::int64_t llama4_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  struct Canvas {
    std::int64_t rows, columns;
  };
  std::vector<double> ratios;                 // aspect ratios in first-seen order (Python dict order)
  std::vector<std::vector<Canvas>> by_ratio;  // canvases of each ratio, in insertion order
  for (std::int64_t tiles = tower.max_tiles; tiles >= 1; --tiles) {
    for (std::int64_t rows = 1; rows <= tiles; ++rows) {  // sorted factors: ascending rows
      if (tiles % rows != 0) continue;
      const std::int64_t columns = tiles / rows;
      const double ratio = static_cast<double>(rows) / static_cast<double>(columns);
      std::size_t slot = 0;
      while (slot < ratios.size() && ratios[slot] != ratio) ++slot;
      if (slot == ratios.size()) {
        ratios.push_back(ratio);
        by_ratio.emplace_back();
      }
      by_ratio[slot].push_back({rows, columns});
    }
  }
  std::vector<Canvas> canvases;
  for (const auto& group : by_ratio) canvases.insert(canvases.end(), group.begin(), group.end());
  std::vector<float> scales;
  for (const Canvas& c : canvases) {
    const float scale_w = static_cast<float>(c.columns * tower.image_size) / static_cast<float>(width);
    const float scale_h = static_cast<float>(c.rows * tower.image_size) / static_cast<float>(height);
    scales.push_back(scale_h > scale_w ? scale_w : scale_h);
  }
  bool upscaling = false;
  float selected = 0;
  for (const float scale : scales) {
    if (scale >= 1 && (!upscaling || scale < selected)) selected = scale;
    upscaling = upscaling || scale >= 1;
  }
  if (!upscaling)
    for (const float scale : scales) selected = std::max(selected, scale);
  const Canvas* best = nullptr;
  for (std::size_t i = 0; i < canvases.size(); ++i)
    if (scales[i] == selected &&
        (best == nullptr || canvases[i].rows * canvases[i].columns < best->rows * best->columns))
      best = &canvases[i];
  const std::int64_t rows = best->rows, columns = best->columns;
  std::int64_t tokens = 1 + 1 + tower.tokens_per_tile + 1;  // image_start, image, the global tile, image_end
  if (rows * columns > 1) tokens += rows * columns * tower.tokens_per_tile + rows * (columns - 1) + rows;
  return tokens;
}

// LLaVA-NeXT (huggingface/transformers@81bb907ccf34 src/transformers/models/llava_next/
// processing_llava_next.py, _get_number_of_features and _get_unpadded_features, with
// image_processing_utils.py's select_best_resolution): the canvas (height, width) of image_grid_pinpoints
// that keeps the most of the image's pixels once scaled to fit (then the one wasting least); the crop of
// image_size gives (image_size / patch)^2 tokens (the class token too with the "full" strategy), the
// canvas rows x columns of those patches less the padding around the scaled image, and one newline
// token per remaining row.
std::int64_t llava_next_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  std::pair<std::int64_t, std::int64_t> best{0, 0};
  std::int64_t most_effective = 0, least_wasted = 0;
  for (const auto& [canvas_height, canvas_width] : tower.grid_pinpoints) {
    const double scale = std::min(static_cast<double>(canvas_width) / static_cast<double>(width),
                                  static_cast<double>(canvas_height) / static_cast<double>(height));
    const auto scaled_width = static_cast<std::int64_t>(static_cast<double>(width) * scale);
    const auto scaled_height = static_cast<std::int64_t>(static_cast<double>(height) * scale);
    const std::int64_t effective = std::min(scaled_width * scaled_height, width * height);
    const std::int64_t wasted = canvas_width * canvas_height - effective;
    if (effective > most_effective || (effective == most_effective && wasted < least_wasted)) {
      most_effective = effective;
      least_wasted = wasted;
      best = {canvas_height, canvas_width};
    }
  }
  const std::int64_t patches = tower.image_size / tower.patch_size;
  std::int64_t rows = patches * (best.first / tower.image_size);
  std::int64_t columns = patches * (best.second / tower.image_size);
  if (static_cast<double>(width) / static_cast<double>(height) >
      static_cast<double>(columns) / static_cast<double>(rows))
    rows -= (rows - height * columns / width) / 2 * 2;
  else
    columns -= (columns - width * rows / height) / 2 * 2;
  return rows * columns + rows + patches * patches + (tower.keeps_class_token ? 1 : 0);
}

// Mistral-3 (huggingface/transformers@9243e99d559d src/transformers/models/pixtral/processing_pixtral.py,
// PixtralProcessor._get_num_multimodal_tokens, with image_processing_pixtral.py's
// get_resize_output_image_size, over patches of patch_size x spatial_merge_size): an image whose longer side exceeds
// image_size (the longest edge) is scaled by ratio = max(height, width) / image_size with each side floored; each side
// is then padded up to a multiple of the merged patch; one token per merged patch, and an [IMG_BREAK] after each row
// but the last, which ends with [IMG_END].
std::int64_t pixtral_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  double w = static_cast<double>(width), h = static_cast<double>(height);
  const double edge = static_cast<double>(tower.image_size);
  const double ratio = std::max(h / edge, w / edge);
  if (ratio > 1) {
    h = std::floor(h / ratio);
    w = std::floor(w / ratio);
  }
  const auto merged = static_cast<double>(tower.patch_size * tower.spatial_merge_size);
  const auto rows = static_cast<std::int64_t>(std::ceil(h / merged));
  const auto columns = static_cast<std::int64_t>(std::ceil(w / merged));
  return rows * (columns + 1);
}

// Idefics3 / SmolVLM (huggingface/transformers@0e97420c9957 src/transformers/models/idefics3/
// processing_idefics3.py, with image_processing_idefics3.py): the image is resized so that its longest edge
// is resize_longest_edge (the other side int(side x ratio), made even), each side then rounded up to a
// multiple of the tile (the shorter one from int(longer / aspect ratio)); an image larger than one tile
// becomes rows x columns tiles and a global image, one no larger a single image. The processor counts
// (image_seq_len + 3) tokens for the global image (<fake_token_around_image><global-img>, its tokens and
// a closing <fake_token_around_image>) and, per row, (image_seq_len + 2) per tile
// (<fake_token_around_image><row_r_col_c> and its tokens) and a newline.
std::int64_t idefics3_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  const double aspect = static_cast<double>(width) / static_cast<double>(height);
  std::int64_t w = 0, h = 0;
  const std::int64_t edge = tower.resize_longest_edge;
  if (width >= height) {
    w = edge;
    h = static_cast<std::int64_t>(static_cast<double>(w) / aspect);
    if (h % 2 != 0) ++h;
  } else {
    h = edge;
    w = static_cast<std::int64_t>(static_cast<double>(h) * aspect);
    if (w % 2 != 0) ++w;
  }
  h = std::max<std::int64_t>(h, 1);
  w = std::max<std::int64_t>(w, 1);
  const std::int64_t tile = tower.image_size;
  const double resized_aspect = static_cast<double>(w) / static_cast<double>(h);
  const auto round_up = [tile](std::int64_t side) { return (side + tile - 1) / tile * tile; };
  if (w >= h) {
    w = round_up(w);
    h = round_up(static_cast<std::int64_t>(static_cast<double>(w) / resized_aspect));
  } else {
    h = round_up(h);
    w = round_up(static_cast<std::int64_t>(static_cast<double>(h) * resized_aspect));
  }
  const std::int64_t seq = tower.tokens_per_tile;
  if (h <= tile && w <= tile) return seq + 3;
  const std::int64_t rows = (h + tile - 1) / tile, columns = (w + tile - 1) / tile;
  return seq + 3 + rows * ((seq + 2) * columns + 1);
}

// InternVL (huggingface/transformers src/transformers/models/got_ocr2/image_processing_got_ocr2.py,
// get_all_supported_aspect_ratios and get_optimal_tiled_canvas, with processing_internvl.py): the grids of
// columns x rows tiles with min_tiles <= columns x rows <= max_tiles, listed columns-major and then sorted
// (stably) by tile count; the first grid whose columns / rows is closest to the image's width / height wins,
// a later one of equal distance replacing it while the image's area exceeds half the grid's. Several tiles
// add a thumbnail tile; each tile gives tokens_per_tile tokens, and <img> and </img> wrap them.
std::int64_t internvl_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  std::vector<std::pair<std::int64_t, std::int64_t>> grids;  // (columns, rows)
  for (std::int64_t columns = 1; columns <= tower.max_tiles; ++columns)
    for (std::int64_t rows = 1; rows <= tower.max_tiles; ++rows)
      if (columns * rows <= tower.max_tiles && columns * rows >= tower.min_tiles) grids.emplace_back(columns, rows);
  std::stable_sort(grids.begin(), grids.end(),
                   [](const auto& a, const auto& b) { return a.first * a.second < b.first * b.second; });
  const double aspect = static_cast<double>(width) / static_cast<double>(height);
  const double area = static_cast<double>(width) * static_cast<double>(height);
  const double tile_area = static_cast<double>(tower.image_size) * static_cast<double>(tower.image_size);
  double best_difference = std::numeric_limits<double>::infinity();
  std::pair<std::int64_t, std::int64_t> best{1, 1};
  for (const auto& grid : grids) {
    const double difference = std::fabs(aspect - static_cast<double>(grid.first) / static_cast<double>(grid.second));
    if (difference < best_difference) {
      best_difference = difference;
      best = grid;
    } else if (difference == best_difference &&
               area > 0.5 * tile_area * static_cast<double>(grid.first) * static_cast<double>(grid.second)) {
      best = grid;
    }
  }
  std::int64_t tiles = best.first * best.second;
  if (tiles > 1) ++tiles;  // the thumbnail
  return 2 + tiles * tower.tokens_per_tile;
}

// Phi-4-multimodal (huggingface/transformers@017789380092 src/transformers/models/phi4_multimodal/
// image_processing_phi4_multimodal_fast.py, Phi4MultimodalImageProcessorFast): dynamic_preprocess takes
// ceil(width / 448) x ceil(height / 448) crops, or past dynamic_hd (max_tiles) crops the closest aspect
// ratio of at most that many (by crop count, ascending; a tie goes to the later ratio when the image
// covers more than half its area); the image is resized without distortion into the crops and padded,
// and padding of a patch or more masks patch columns or rows. preprocess: 256 + 1 + the unmasked
// patches of every second row and column + one per such row + 16 tokens (a 448 / 14 = 32-patch crop
// pooled 2 x 2: 16 x 16 global tokens and a newline per row, a separator, then the crops' tokens).
std::int64_t phi4_multimodal_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  const std::int64_t size = tower.image_size, patch = tower.patch_size, mask_side = size / patch;
  std::int64_t columns = (width + size - 1) / size, rows = (height + size - 1) / size;
  if (columns * rows > tower.max_tiles) {
    const double aspect = static_cast<double>(width) / static_cast<double>(height);
    const double area = static_cast<double>(width) * static_cast<double>(height);
    double best_difference = INFINITY;
    std::pair<std::int64_t, std::int64_t> best{1, 1};
    for (std::int64_t crops = 1; crops <= tower.max_tiles; ++crops)
      for (std::int64_t i = 1; i <= crops; ++i) {
        if (crops % i != 0) continue;
        const std::int64_t j = crops / i;
        const double difference = std::abs(aspect - static_cast<double>(i) / static_cast<double>(j));
        if (difference < best_difference) {
          best_difference = difference;
          best = {i, j};
        } else if (difference == best_difference &&
                   area > 0.5 * static_cast<double>(size * size) * static_cast<double>(i * j)) {
          best = {i, j};
        }
      }
    columns = best.first;
    rows = best.second;
  }
  const std::int64_t target_width = size * columns, target_height = size * rows;
  const double ratio_width = static_cast<double>(target_width) / static_cast<double>(width);
  const double ratio_height = static_cast<double>(target_height) / static_cast<double>(height);
  std::int64_t new_width = target_width, new_height = target_height;
  if (ratio_width < ratio_height)
    new_height = static_cast<std::int64_t>(static_cast<double>(height) * ratio_width);
  else
    new_width = static_cast<std::int64_t>(static_cast<double>(width) * ratio_height);
  if (std::min(new_height, target_height) < 10 || std::min(new_width, target_width) < 10)
    throw std::invalid_argument("image size: Phi-4-multimodal's processor refuses so extreme an aspect ratio (" +
                                std::to_string(width) + " x " + std::to_string(height) + ")");
  const std::int64_t padding_width = target_width - new_width, padding_height = target_height - new_height;
  const std::int64_t unmasked_columns = mask_side * columns - (padding_width >= patch ? padding_width / patch : 0);
  const std::int64_t unmasked_rows = mask_side * rows - (padding_height >= patch ? padding_height / patch : 0);
  // mask[:, 0::2, 0::2] of each crop: the patches at an even place within their crop.
  auto kept = [&](std::int64_t unmasked) {
    std::int64_t count = 0;
    for (std::int64_t k = 0; k < unmasked; ++k) count += (k % mask_side) % 2 == 0 ? 1 : 0;
    return count;
  };
  const std::int64_t pooled_side = mask_side / 2 + mask_side % 2;
  const std::int64_t kept_rows = kept(unmasked_rows), kept_columns = kept(unmasked_columns);
  return pooled_side * pooled_side + 1 + kept_rows * kept_columns + kept_rows + pooled_side;
}

// Llama 3.2 Vision (huggingface/transformers@485db33d4f05 src/transformers/models/mllama/
// image_processing_mllama.py, get_all_supported_aspect_ratios and get_optimal_tiled_canvas): the canvases
// are a x b tiles with a x b <= max_tiles (a over 1..max_tiles, then b), a tiles high and b wide; each
// scales the image without distortion by min(canvas height / height, canvas width / width) (float64);
// the smallest scale >= 1 wins, or else the largest below 1, and among the canvases of that scale the
// first of least area. vLLM (vllm-project/vllm@005ad95003ff vllm/model_executor/models/mllama.py,
// input_processor_for_mllama) holds that canvas's tiles x tokens_per_tile keys and values per image.
std::int64_t mllama_image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  struct Canvas {
    std::int64_t high, wide;
    double scale;
  };
  std::vector<Canvas> canvases;
  for (std::int64_t a = 1; a <= tower.max_tiles; ++a)
    for (std::int64_t b = 1; b <= tower.max_tiles; ++b) {
      if (a * b > tower.max_tiles) continue;
      const double scale_h = static_cast<double>(a * tower.image_size) / static_cast<double>(height);
      const double scale_w = static_cast<double>(b * tower.image_size) / static_cast<double>(width);
      canvases.push_back({a, b, scale_w > scale_h ? scale_h : scale_w});
    }
  bool upscaling = false;
  double selected = 0;
  for (const Canvas& c : canvases)
    if (c.scale >= 1 && (!upscaling || c.scale < selected)) {
      selected = c.scale;
      upscaling = true;
    }
  if (!upscaling)
    for (const Canvas& c : canvases) selected = std::max(selected, c.scale);
  const Canvas* best = nullptr;
  for (const Canvas& c : canvases)
    if (c.scale == selected && (best == nullptr || c.high * c.wide < best->high * best->wide)) best = &c;
  return best->high * best->wide * tower.tokens_per_tile;
}

}  // namespace

std::int64_t image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height) {
  if (tower.kind == "llama4" || tower.kind == "pixtral" || tower.kind == "llava_next" || tower.kind == "idefics3" ||
      tower.kind == "internvl" || tower.kind == "phi4_multimodal" || tower.kind == "mllama") {
    if (width < 1 || height < 1) throw std::invalid_argument("image size: width and height must be at least 1 pixel");
    if (tower.kind == "mllama") return mllama_image_tokens(tower, width, height);
    if (tower.kind == "llava_next") return llava_next_image_tokens(tower, width, height);
    if (tower.kind == "idefics3") return idefics3_image_tokens(tower, width, height);
    if (tower.kind == "internvl") return internvl_image_tokens(tower, width, height);
    if (tower.kind == "phi4_multimodal") return phi4_multimodal_image_tokens(tower, width, height);
    return tower.kind == "llama4" ? llama4_image_tokens(tower, width, height)
                                  : pixtral_image_tokens(tower, width, height);
  }
  if (tower.kind != "qwen2_vl" && tower.kind != "qwen3_vl") return tower.tokens_per_image;
  if (width < 1 || height < 1) throw std::invalid_argument("image size: width and height must be at least 1 pixel");
  const double longer = static_cast<double>(std::max(width, height));
  const double shorter = static_cast<double>(std::min(width, height));
  if (longer / shorter > 200)
    throw std::invalid_argument(
        "image size: Qwen2-VL's image processor (Qwen3-VL's too) refuses an aspect ratio over 200 (" +
        std::to_string(width) + " x " + std::to_string(height) + ")");
  const std::int64_t factor = tower.patch_size * tower.spatial_merge_size;
  const auto min_pixels = static_cast<double>(tower.min_pixels), max_pixels = static_cast<double>(tower.max_pixels);
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
