// SPDX-License-Identifier: MIT
// The tables the header readers look values up in: ggml tensor types with their block layouts,
// llama_ftype names, and the tensor list's running totals.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "checkpoint/checkpoint_internal.hpp"
#include "config/config_fields.hpp"
#include "fitcheck/checkpoint.hpp"

namespace fitcheck {
namespace {

// ggml_type ids and (elements per block, bytes per block). Ids 0..39: ggml/include/ggml.h enum
// ggml_type (llama.cpp@004eaba804a34aa1a397b61d6d5274171c5e4cba); ids 40, 41 and every layout:
// gguf-py/gguf/constants.py GGMLQuantizationType and GGML_QUANT_SIZES
// (llama.cpp@0024aa7417efd50a7c2a79e049dfbbbceb0beaaf), which mirror ggml.c's type_traits
// (blck_size, type_size). Id 42 (Q2_0, llama.cpp PR 24448, newer than that commit) as
// @huggingface/tasks 0.21.54 GGMLQuantizationType and @huggingface/gguf 0.4.6 GGML_QUANT_SIZES
// list it. QK_K = 256. The byte counts are the block structs of
// ggml/src/ggml-common.h: scales in fp16 (2 B) or fp32 (4 B), then the packed values.
// clang-format off
constexpr std::array<GgmlTypeTraits, 35> kGgmlTypes{{
    {0, "F32", 1, 4},
    {1, "F16", 1, 2},
    {2, "Q4_0", 32, 18},       // fp16 d + 32 x 4 bit
    {3, "Q4_1", 32, 20},       // fp16 d, m + 32 x 4 bit
    {6, "Q5_0", 32, 22},       // fp16 d + 4 B high bits + 16 B
    {7, "Q5_1", 32, 24},       // fp16 d, m + 4 B + 16 B
    {8, "Q8_0", 32, 34},       // fp16 d + 32 int8
    {9, "Q8_1", 32, 40},       // fp32 d, s + 32 int8
    {10, "Q2_K", 256, 84},     // fp16 d, dmin + 16 B scales + 64 B
    {11, "Q3_K", 256, 110},    // fp16 d + 64 B + 32 B hmask + 12 B scales
    {12, "Q4_K", 256, 144},    // fp16 d, dmin + 12 B scales + 128 B
    {13, "Q5_K", 256, 176},    // fp16 d, dmin + 12 B + 32 B high bits + 128 B
    {14, "Q6_K", 256, 210},    // fp16 d + 128 B low + 64 B high + 16 B scales
    {15, "Q8_K", 256, 292},    // fp32 d + 256 int8 + 32 B sums
    {16, "IQ2_XXS", 256, 66},  // fp16 d + 64 B
    {17, "IQ2_XS", 256, 74},   // fp16 d + 64 B + 8 B scales
    {18, "IQ3_XXS", 256, 98},  // fp16 d + 64 B + 32 B
    {19, "IQ1_S", 256, 50},    // fp16 d + 32 B + 16 B
    {20, "IQ4_NL", 32, 18},    // fp16 d + 16 B
    {21, "IQ3_S", 256, 110},   // fp16 d + 64 B + 32 B + 8 B + 4 B
    {22, "IQ2_S", 256, 82},    // fp16 d + 64 B + 16 B
    {23, "IQ4_XS", 256, 136},  // fp16 d + 2 B high scales + 4 B low scales + 128 B
    {24, "I8", 1, 1},
    {25, "I16", 1, 2},
    {26, "I32", 1, 4},
    {27, "I64", 1, 8},
    {28, "F64", 1, 8},
    {29, "IQ1_M", 256, 56},    // 32 B + 16 B + 8 B (no separate d)
    {30, "BF16", 1, 2},
    {34, "TQ1_0", 256, 54},    // fp16 d + 4 x 13 B
    {35, "TQ2_0", 256, 66},    // fp16 d + 64 B
    {39, "MXFP4", 32, 17},     // 1 B E8M0 scale + 32 x 4 bit
    {40, "NVFP4", 64, 36},     // 4 B of E4M3 scales + 64 x 4 bit
    {41, "Q1_0", 128, 18},     // fp16 d + 128 x 1 bit
    {42, "Q2_0", 64, 18},      // fp16 d + 64 x 2 bit
}};
// clang-format on

// llama_ftype, the value of general.file_type: gguf-py/gguf/constants.py LlamaFileType
// (llama.cpp@0024aa74), 41 as the Q2_0 type above; 4 from ggml docs/gguf.md (ggml@01f0d4da). 5, 6
// and 33..35 were removed.
struct FileTypeName {
  std::int64_t id;
  const char* name;
};
constexpr std::array<FileTypeName, 38> kFileTypes{{
    {0, "ALL_F32"},           {1, "MOSTLY_F16"},           {2, "MOSTLY_Q4_0"},
    {3, "MOSTLY_Q4_1"},       {4, "MOSTLY_Q4_1_SOME_F16"}, {7, "MOSTLY_Q8_0"},
    {8, "MOSTLY_Q5_0"},       {9, "MOSTLY_Q5_1"},          {10, "MOSTLY_Q2_K"},
    {11, "MOSTLY_Q3_K_S"},    {12, "MOSTLY_Q3_K_M"},       {13, "MOSTLY_Q3_K_L"},
    {14, "MOSTLY_Q4_K_S"},    {15, "MOSTLY_Q4_K_M"},       {16, "MOSTLY_Q5_K_S"},
    {17, "MOSTLY_Q5_K_M"},    {18, "MOSTLY_Q6_K"},         {19, "MOSTLY_IQ2_XXS"},
    {20, "MOSTLY_IQ2_XS"},    {21, "MOSTLY_Q2_K_S"},       {22, "MOSTLY_IQ3_XS"},
    {23, "MOSTLY_IQ3_XXS"},   {24, "MOSTLY_IQ1_S"},        {25, "MOSTLY_IQ4_NL"},
    {26, "MOSTLY_IQ3_S"},     {27, "MOSTLY_IQ3_M"},        {28, "MOSTLY_IQ2_S"},
    {29, "MOSTLY_IQ2_M"},     {30, "MOSTLY_IQ4_XS"},       {31, "MOSTLY_IQ1_M"},
    {32, "MOSTLY_BF16"},      {36, "MOSTLY_TQ1_0"},        {37, "MOSTLY_TQ2_0"},
    {38, "MOSTLY_MXFP4_MOE"}, {39, "MOSTLY_NVFP4"},        {40, "MOSTLY_Q1_0"},
    {41, "MOSTLY_Q2_0"},      {1024, "GUESSED"},
}};

}  // namespace

CheckpointError::CheckpointError(std::uint64_t offset, std::string field, const std::string& problem)
    : std::runtime_error("offset " + std::to_string(offset) + ": " + field + " " + problem),
      offset_(offset),
      field_(std::move(field)) {}

const char* checkpoint_format_name(CheckpointFormat format) {
  switch (format) {
    case CheckpointFormat::gguf:
      return "gguf";
    case CheckpointFormat::safetensors:
      return "safetensors";
    case CheckpointFormat::safetensors_index:
      return "safetensors_index";
  }
  return "unknown";
}

const GgmlTypeTraits* ggml_type_traits(std::uint32_t id) {
  for (const GgmlTypeTraits& traits : kGgmlTypes)
    if (traits.id == id) return &traits;
  return nullptr;
}

const char* gguf_file_type_name(std::int64_t file_type) {
  for (const FileTypeName& entry : kFileTypes)
    if (entry.id == file_type) return entry.name;
  return "";
}

std::optional<CheckpointFormat> sniff_checkpoint_format(std::span<const std::byte> first_bytes) {
  if (first_bytes.size() >= 4 && std::memcmp(first_bytes.data(), "GGUF", 4) == 0) return CheckpointFormat::gguf;
  // safetensors: u64 header length, then the JSON object. A JSON text file starts with '{' or
  // whitespace, never with 8 bytes followed by '{' where the length's high bytes are zero.
  if (first_bytes.size() >= 9 && first_bytes[8] == std::byte{'{'} && first_bytes[7] == std::byte{0} &&
      first_bytes[6] == std::byte{0} && first_bytes[5] == std::byte{0})
    return CheckpointFormat::safetensors;
  return std::nullopt;
}

namespace detail {

void add_checkpoint_tensor(CheckpointSummary& summary, CheckpointTensor tensor, std::uint64_t offset) {
  const auto add = [&](std::int64_t& total, std::int64_t amount, const char* what) {
    if (__builtin_add_overflow(total, amount, &total) || total > kMaxExactInteger)
      throw CheckpointError(offset, "tensor " + quoted(tensor.name), std::string("takes the ") + what + " past 2^53");
  };
  CheckpointTypeTotal* row = nullptr;
  for (CheckpointTypeTotal& existing : summary.by_type)
    if (existing.type == tensor.type) row = &existing;
  if (!row) {
    summary.by_type.push_back({tensor.type, 0, 0, 0});
    row = &summary.by_type.back();
  }
  ++row->tensors;
  add(row->elements, tensor.elements, "element count");
  add(row->bytes, tensor.bytes, "byte count");
  add(summary.total_parameters, tensor.elements, "parameter count");
  add(summary.total_bytes, tensor.bytes, "byte count");
  summary.tensors.push_back(std::move(tensor));
}

std::string quoted(std::string_view name) {
  std::string out(1, '\'');  // appended, not "'" + ...: GCC 12 warns of a false -Wrestrict there
  out += printable(name);
  out += '\'';
  return out;
}

void note_cut_data(CheckpointSummary& summary, std::uint64_t file_size_bytes) {
  if (!file_size_bytes) return;
  std::uint64_t data_end = summary.data_offset_bytes;
  for (const CheckpointTensor& tensor : summary.tensors) {
    std::uint64_t end = 0;
    if (__builtin_add_overflow(summary.data_offset_bytes, tensor.data_offset, &end) ||
        __builtin_add_overflow(end, static_cast<std::uint64_t>(tensor.bytes), &end))
      end = std::numeric_limits<std::uint64_t>::max();
    data_end = std::max(data_end, end);
  }
  if (data_end > file_size_bytes)
    summary.notes.push_back("the file has " + std::to_string(file_size_bytes) +
                            " bytes but its tensor data runs to byte " + std::to_string(data_end) +
                            ": it is cut short (an unfinished download?); the header is whole");
}

}  // namespace detail
}  // namespace fitcheck
