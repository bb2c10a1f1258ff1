// SPDX-License-Identifier: MIT
// What the GGUF and safetensors readers share: the tensor list's running totals, overflow-checked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fitcheck/checkpoint.hpp"

namespace fitcheck::detail {

// The largest count, size or offset a summary holds: 2^53, the last integer a JavaScript number
// (the page, and JSON readers that use doubles) holds exactly. No real tensor or file comes near it
// (8 PiB); a larger value is a corrupt header.
constexpr std::int64_t kMaxExactInteger = std::int64_t{1} << 53;

// Appends `tensor` to summary.tensors and adds it to by_type, total_parameters and total_bytes.
// A sum past kMaxExactInteger is a CheckpointError at `offset`.
void add_checkpoint_tensor(CheckpointSummary& summary, CheckpointTensor tensor, std::uint64_t offset);

// When the file is shorter than its tensor data (data_offset_bytes plus the furthest tensor end),
// a note saying so: a cut download still has its whole header, so the figures stand.
void note_cut_data(CheckpointSummary& summary, std::uint64_t file_size_bytes);

// A key or tensor name from the file for a message, in single quotes: invalid UTF-8 and control
// bytes written as \xNN and long names shortened (detail::printable, as config errors do), since
// messages reach terminals and JavaScript.
std::string quoted(std::string_view name);

// "3", "1000000000000000000": numbers in messages, without locale.
inline std::string number_text(std::uint64_t value) { return std::to_string(value); }

}  // namespace fitcheck::detail
