// SPDX-License-Identifier: MIT
// The GGUF header's metadata as the reader keeps it (gguf_header.cpp reads the bytes) and what the
// keys mean (gguf_keys.cpp: the hyperparameters under "<arch>.").
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/checkpoint.hpp"

namespace fitcheck::detail {

inline constexpr std::uint64_t kDefaultAlignment = 32;

// What the key/value pass keeps: integer scalars and array lengths, by key (views into `bytes`).
struct Captured {
  std::vector<std::pair<std::string_view, std::int64_t>> integers;
  std::vector<std::pair<std::string_view, std::uint64_t>> array_lengths;
  // Integer arrays of the keys that hold one value per layer (per_layer_key).
  std::vector<std::pair<std::string_view, std::vector<std::int64_t>>> integer_arrays;
  std::string_view architecture, name;
  std::uint64_t alignment = kDefaultAlignment;  // gguf.md: "If the alignment is not specified, assume it is 32"
};

// Whether a key holds one value per layer, kept whole when it is an integer array of at most
// kMaxPerLayerValues values: hybrid models store a KV head count per layer, 0 for a recurrent layer
// (llama.cpp reads <arch>.attention.head_count_kv with get_key_or_arr).
bool per_layer_key(std::string_view key);
// More values than any model has layers: a longer array is kept as a length only.
inline constexpr std::uint64_t kMaxPerLayerValues = 65536;

// The hyperparameters under "<arch>." into summary.hyperparameters: integers, or a note when the file
// holds a per-layer array for a key read as one number.
void resolve_hyperparameters(const Captured& captured, CheckpointSummary& summary);

}  // namespace fitcheck::detail
