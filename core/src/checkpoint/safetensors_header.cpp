// SPDX-License-Identifier: MIT
// safetensors headers and model.safetensors.index.json.
//
// Format: huggingface/safetensors README ("Format"): 8 bytes, an unsigned little-endian 64-bit
// header size N; N bytes of UTF-8 JSON, {"TENSOR_NAME": {"dtype": "F16", "shape": [1, 16, 256],
// "data_offsets": [BEGIN, END]}, ..., "__metadata__": {string: string}}; offsets relative to the
// byte after the header. Limits and widths: safetensors/src/tensor.rs
// (safetensors@45c8c2cbd1a86ce87866a584410984bcd9aa25fc): MAX_HEADER_SIZE = 100_000_000, and
// Dtype::bitsize (F4 = 4 bits, F6_* = 6, so sizes are counted in bits and must end on a byte).
// The index is what transformers writes next to sharded checkpoints (modeling_utils.py,
// SAFE_WEIGHTS_INDEX_NAME): {"metadata": {"total_size": BYTES}, "weight_map": {tensor: shard}}.
#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "checkpoint/checkpoint_internal.hpp"
#include "config/config_fields.hpp"
#include "fitcheck/checkpoint.hpp"
#include "support/json_reader.hpp"

namespace fitcheck {
namespace {

using Json = detail::JsonValue;

constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;  // safetensors MAX_HEADER_SIZE
// Real headers nest three levels; the bound keeps the recursive walks of a document (dump_json) short.
constexpr std::size_t kMaxNesting = 16;

struct Dtype {
  const char* name;
  std::int64_t bits;
};
constexpr std::array<Dtype, 20> kDtypes{{
    {"BOOL", 8}, {"U8", 8},   {"I8", 8},    {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16},
    {"U16", 16}, {"F16", 16}, {"BF16", 16}, {"I32", 32},    {"U32", 32},    {"F32", 32},    {"C64", 64},
    {"F64", 64}, {"I64", 64}, {"U64", 64},  {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6},
}};

const Dtype* find_dtype(std::string_view name) {
  for (const Dtype& dtype : kDtypes)
    if (name == dtype.name) return &dtype;
  return nullptr;
}

// The file offset of a member's key in the JSON text, for messages: `base` (where the text starts
// in the file) plus the first match at or after `from`, or plus `from` when the key is not found
// verbatim (escaped characters).
std::uint64_t key_offset(std::string_view text, const std::string& key, std::uint64_t base, std::size_t from = 0) {
  const std::size_t at = text.find("\"" + key + "\"", from);
  return base + (at == std::string_view::npos ? from : at);
}

// Refuses nesting deeper than kMaxNesting before the JSON reader sees the text.
void check_nesting(std::string_view text, std::uint64_t base, const char* what) {
  const std::size_t at = detail::json_nesting_excess(text, kMaxNesting);
  if (at != std::string_view::npos)
    throw CheckpointError(base + at, what, "nests deeper than " + std::to_string(kMaxNesting) + " levels");
}

Json parse_json(std::string_view text, std::uint64_t base, const char* what) {
  check_nesting(text, base, what);
  try {
    return detail::parse_json(text);
  } catch (const detail::JsonSyntaxError& error) {
    // byte is the 1-based position of the last character read.
    const std::uint64_t at = base + (error.byte > 0 ? error.byte - 1 : 0);
    // The message quotes what the reader last read, raw bytes included.
    throw CheckpointError(at, what, std::string("is not valid JSON: ") + detail::printable(error.what(), 200));
  } catch (const detail::JsonNumberOverflow& error) {
    // A number too large for a double ("number overflow parsing '1E999'").
    throw CheckpointError(base, what, std::string("is not valid JSON: ") + detail::printable(error.what(), 200));
  }
}

std::int64_t non_negative_integer(const Json& value, std::uint64_t at, const std::string& field) {
  if (value.is_whole() && value.as_int64() >= 0 && value.as_int64() <= detail::kMaxExactInteger)
    return value.as_int64();
  throw CheckpointError(at, field, "is " + detail::dump_json(value).substr(0, 40) + ", not an integer in [0, 2^53]");
}

std::string metadata_text(const Json& value) { return value.is_string() ? value.text : detail::dump_json(value); }

}  // namespace

CheckpointRead parse_safetensors_header(std::span<const std::byte> bytes, std::uint64_t file_size_bytes) {
  CheckpointRead read;
  if (file_size_bytes && file_size_bytes < 8)
    throw CheckpointError(0, "header length",
                          "of 8 bytes runs past the end of the file (" + std::to_string(file_size_bytes) + " bytes)");
  if (bytes.size() < 8) {
    read.bytes_needed = 8;
    read.needed_for = "header length";
    return read;
  }
  std::uint64_t header_length = 0;
  for (unsigned i = 0; i < 8; ++i) header_length |= std::to_integer<std::uint64_t>(bytes[i]) << (8 * i);
  if (header_length > kMaxHeaderBytes)
    throw CheckpointError(0, "header length",
                          std::to_string(header_length) + " exceeds " + std::to_string(kMaxHeaderBytes) +
                              " bytes (safetensors MAX_HEADER_SIZE)");
  if (file_size_bytes && 8 + header_length > file_size_bytes)
    throw CheckpointError(8, "header JSON",
                          "of " + std::to_string(header_length) + " bytes runs past the end of the file (" +
                              std::to_string(file_size_bytes) + " bytes)");
  if (bytes.size() < 8 + header_length) {
    read.bytes_needed = 8 + header_length;
    read.needed_for = "header JSON";
    return read;
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8), static_cast<std::size_t>(header_length));
  const Json header = parse_json(text, 8, "header JSON");
  if (!header.is_object()) throw CheckpointError(8, "header JSON", "is not an object");

  CheckpointSummary& summary = read.summary;
  summary.format = CheckpointFormat::safetensors;
  summary.header_bytes = 8 + header_length;
  summary.data_offset_bytes = 8 + header_length;

  // Tensors in the order of their data (the reader keeps an object's members in key order).
  struct Entry {
    std::int64_t begin;
    CheckpointTensor tensor;
    std::uint64_t at;
  };
  std::vector<Entry> entries;
  for (const detail::JsonMember& item : header.members) {
    // Named references, not a structured binding: the lambda below uses them (clang 14 cannot).
    const std::string& name = item.key;
    const Json& info = item.value;
    const std::uint64_t at = key_offset(text, name, 8);
    if (name == "__metadata__") {
      if (!info.is_object()) throw CheckpointError(at, "__metadata__", "is not an object");
      for (const auto& [key, value] : info.members) summary.metadata.emplace_back(key, metadata_text(value));
      summary.metadata_count = static_cast<std::int64_t>(summary.metadata.size());
      continue;
    }
    const std::string field = "tensor " + detail::quoted(name);
    if (!info.is_object()) throw CheckpointError(at, field, "is not an object");
    const auto member = [&](const char* key) -> const Json& {
      const Json* found = info.find(key);
      if (found == nullptr) throw CheckpointError(at, field + " " + key, "is missing");
      return *found;
    };
    CheckpointTensor tensor;
    tensor.name = name;
    const Json& dtype_value = member("dtype");
    const Dtype* dtype = dtype_value.is_string() ? find_dtype(dtype_value.text) : nullptr;
    if (!dtype)
      throw CheckpointError(at, field + " dtype",
                            detail::dump_json(dtype_value).substr(0, 40) + " is not a safetensors dtype");
    tensor.type = dtype->name;
    const Json& shape = member("shape");
    if (!shape.is_array() || shape.items.size() > 64)
      throw CheckpointError(at, field + " shape", "is not an array of at most 64 sizes");
    std::int64_t elements = 1;
    for (const Json& dim : shape.items) {
      const std::int64_t size = non_negative_integer(dim, at, field + " shape");
      tensor.shape.push_back(size);
      if (__builtin_mul_overflow(elements, size, &elements) || elements > detail::kMaxExactInteger)
        throw CheckpointError(at, field + " shape", "makes the element count exceed 2^53");
    }
    tensor.elements = elements;
    std::int64_t bits = 0;
    if (__builtin_mul_overflow(elements, dtype->bits, &bits) || bits % 8 != 0)
      throw CheckpointError(at, field + " shape",
                            std::to_string(elements) + " values of " + dtype->name + " do not fill whole bytes");
    tensor.bytes = bits / 8;
    const Json& offsets = member("data_offsets");
    if (!offsets.is_array() || offsets.items.size() != 2)
      throw CheckpointError(at, field + " data_offsets", "is not [BEGIN, END]");
    const std::int64_t begin = non_negative_integer(offsets.items[0], at, field + " data_offsets");
    const std::int64_t end = non_negative_integer(offsets.items[1], at, field + " data_offsets");
    if (end < begin || end - begin != tensor.bytes)
      throw CheckpointError(at, field + " data_offsets",
                            "[" + std::to_string(begin) + ", " + std::to_string(end) + "] hold " +
                                std::to_string(end - begin) + " bytes, but " + std::to_string(elements) +
                                " values of " + dtype->name + " take " + std::to_string(tensor.bytes));
    tensor.data_offset = static_cast<std::uint64_t>(begin);
    entries.push_back({begin, std::move(tensor), at});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
  // safetensors' validate (tensor.rs): sorted by offset, each tensor starts where the last one ends.
  std::int64_t previous_end = 0;
  for (Entry& entry : entries) {
    if (entry.begin != previous_end)
      throw CheckpointError(entry.at, "tensor " + detail::quoted(entry.tensor.name) + " data_offsets",
                            "begin " + std::to_string(entry.begin) + " is not where the previous tensor's data ends (" +
                                std::to_string(previous_end) + "): safetensors data is contiguous");
    previous_end = entry.begin + entry.tensor.bytes;
    detail::add_checkpoint_tensor(summary, std::move(entry.tensor), entry.at);
  }
  detail::note_cut_data(summary, file_size_bytes);
  read.complete = true;
  return read;
}

CheckpointSummary parse_safetensors_index(std::string_view json_text) {
  const Json index = parse_json(json_text, 0, "index JSON");
  if (!index.is_object()) throw CheckpointError(0, "index JSON", "is not an object");
  CheckpointSummary summary;
  summary.format = CheckpointFormat::safetensors_index;
  summary.shapes_known = false;
  summary.header_bytes = json_text.size();
  if (const Json* metadata = index.find("metadata"); metadata != nullptr && !metadata->is_null()) {
    const std::uint64_t at = key_offset(json_text, "metadata", 0);
    if (!metadata->is_object()) throw CheckpointError(at, "metadata", "is not an object");
    for (const auto& [key, value] : metadata->members) {
      if (key == "total_size") {
        // transformers writes an integer; some tools write 1.5e10-style floats.
        if (value.kind == Json::Kind::floating && value.floating >= 0 &&
            value.floating <= static_cast<double>(detail::kMaxExactInteger) &&
            value.floating == static_cast<double>(static_cast<std::int64_t>(value.floating)))
          summary.total_bytes = static_cast<std::int64_t>(value.floating);
        else
          summary.total_bytes =
              non_negative_integer(value, key_offset(json_text, "total_size", 0), "metadata.total_size");
      } else {
        summary.metadata.emplace_back(key, metadata_text(value));
      }
    }
    summary.metadata_count = static_cast<std::int64_t>(metadata->members.size());
  }
  const Json* weight_map = index.find("weight_map");
  if (weight_map == nullptr || !weight_map->is_object())
    throw CheckpointError(0, "weight_map", "is missing or not an object (not a model.safetensors.index.json)");
  const std::size_t map_at = static_cast<std::size_t>(key_offset(json_text, "weight_map", 0));
  for (const auto& [name, shard] : weight_map->members) {
    if (!shard.is_string())
      throw CheckpointError(key_offset(json_text, name, 0, map_at), "weight_map " + detail::quoted(name),
                            "is not a file name");
    CheckpointTensor tensor;
    tensor.name = name;
    tensor.shard = shard.text;
    if (std::find(summary.shards.begin(), summary.shards.end(), tensor.shard) == summary.shards.end())
      summary.shards.push_back(tensor.shard);
    summary.tensors.push_back(std::move(tensor));
  }
  if (summary.total_bytes == 0)
    summary.notes.push_back("metadata.total_size is missing: the index gives no byte count");
  summary.notes.push_back("an index names tensors and shards but no shapes: read each shard's header for parameters");
  return summary;
}

}  // namespace fitcheck
