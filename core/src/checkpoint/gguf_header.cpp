// SPDX-License-Identifier: MIT
// The GGUF header: magic, version, counts, metadata key/values, tensor infos. Layout from
// ggml-org/ggml@01f0d4da3e444ca2bfe705e72adab08a4394bb1d docs/gguf.md ("File Structure"); the
// checks follow llama.cpp's reader, ggml/src/gguf.cpp gguf_init_from_reader
// (llama.cpp@067d44f6c48459f7a82dbafc6fbd0bae97755a4e): version 1 refused, a byte-swapped version
// read as big-endian, at most 4 dimensions, non-negative dimensions whose product fits in int64,
// known types, rows whole blocks, no duplicate keys or tensor names, alignment a power of two.
//
// Every count and length is checked against the bytes it needs before anything is kept: nothing
// is reserved or allocated from a size the file states, only from bytes that are in `bytes`.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/checkpoint_internal.hpp"
#include "checkpoint/gguf_keys.hpp"
#include "fitcheck/checkpoint.hpp"

namespace fitcheck {
namespace {

using detail::Captured;
using detail::kDefaultAlignment;
using detail::kMaxPerLayerValues;
using detail::per_layer_key;
using detail::resolve_hyperparameters;

// The largest header read. A header holds the metadata and the tensor table; the big ones carry a
// 256k-token vocabulary with its scores and merges, tens of MB. Past this a length is corrupt.
constexpr std::uint64_t kMaxHeaderBytes = 256ull << 20;
// gguf.md: a key "must be at most 2^16-1/65535 bytes long"; a tensor name "at most 64 bytes long".
constexpr std::uint64_t kMaxKeyBytes = 65535;
constexpr std::uint64_t kMaxTensorNameBytes = 64;
constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS
// Arrays of arrays are allowed by gguf.md; no writer nests them, llama.cpp refuses them. A bound
// keeps the recursion shallow.
constexpr int kMaxArrayDepth = 4;

// The smallest encodings, to bound counts by the bytes left: a key/value is a key length (8), a
// type (4) and at least 1 byte; a tensor info is a name length (8), n_dims (4), a type (4) and an
// offset (8); a string is its length (8); an array element of an array is its type and count (12).
constexpr std::uint64_t kMinKeyValueBytes = 13;
constexpr std::uint64_t kMinTensorInfoBytes = 24;

enum ValueType : std::uint32_t {
  k_uint8 = 0,
  k_int8,
  k_uint16,
  k_int16,
  k_uint32,
  k_int32,
  k_float32,
  k_bool,
  k_string,
  k_array,
  k_uint64,
  k_int64,
  k_float64,
};
constexpr std::uint32_t kValueTypeCount = 13;

// Fixed widths of the scalar types (0 for string and array).
std::uint64_t scalar_bytes(std::uint32_t type) {
  switch (type) {
    case k_uint8:
    case k_int8:
    case k_bool:
      return 1;
    case k_uint16:
    case k_int16:
      return 2;
    case k_uint32:
    case k_int32:
    case k_float32:
      return 4;
    case k_uint64:
    case k_int64:
    case k_float64:
      return 8;
    default:
      return 0;
  }
}

// Thrown inside the parser when the prefix ends before a field does; turned into the
// CheckpointRead answer at the top.
struct NeedMoreBytes {
  std::uint64_t bytes_needed;
  std::string field;
};

class Reader {
 public:
  Reader(std::span<const std::byte> bytes, std::uint64_t file_size) : bytes_(bytes), file_size_(file_size) {}

  std::uint64_t at() const { return at_; }
  std::uint64_t file_size() const { return file_size_; }

  // Makes sure `size` bytes from the cursor are in the prefix; `field` names them for errors.
  void require(std::uint64_t size, const std::string& field) {
    const std::uint64_t limit = file_size_ ? std::min(file_size_, kMaxHeaderBytes) : kMaxHeaderBytes;
    if (size > limit || at_ > limit - size) {
      if (file_size_ && file_size_ <= kMaxHeaderBytes)
        throw CheckpointError(at_, field,
                              "of " + detail::number_text(size) + " bytes runs past the end of the file (" +
                                  detail::number_text(file_size_) + " bytes)");
      throw CheckpointError(at_, field,
                            "of " + detail::number_text(size) + " bytes exceeds the header (at most " +
                                detail::number_text(kMaxHeaderBytes) + " bytes are read)");
    }
    if (at_ + size > bytes_.size()) throw NeedMoreBytes{at_ + size, field};
  }

  std::uint64_t u64(const std::string& field) { return little_endian(8, field); }
  // An unsigned little-endian integer of `size` bytes (1, 2, 4 or 8).
  std::uint64_t unsigned_of_size(unsigned size, const std::string& field) { return little_endian(size, field); }
  std::uint32_t u32(const std::string& field) { return static_cast<std::uint32_t>(little_endian(4, field)); }

  // A GGUF string: u64 length, then that many bytes. The view points into `bytes`.
  std::string_view string(const std::string& field, std::uint64_t max_length) {
    const std::uint64_t length_at = at_;
    const std::uint64_t length = u64(field + " length");
    if (length > max_length) {
      at_ = length_at;
      throw CheckpointError(length_at, field + " length",
                            detail::number_text(length) + " exceeds " + detail::number_text(max_length) + " bytes");
    }
    require(length, field);
    const std::string_view text(reinterpret_cast<const char*>(bytes_.data() + at_), static_cast<std::size_t>(length));
    at_ += length;
    return text;
  }

  void skip(std::uint64_t size, const std::string& field) {
    require(size, field);
    at_ += size;
  }

  // Bytes left before the header limit: counts are bounded by it.
  std::uint64_t room() const { return at_ < kMaxHeaderBytes ? kMaxHeaderBytes - at_ : 0; }

 private:
  std::uint64_t little_endian(unsigned size, const std::string& field) {
    require(size, field);
    std::uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i)
      value |= static_cast<std::uint64_t>(std::to_integer<std::uint8_t>(bytes_[static_cast<std::size_t>(at_ + i)]))
               << (8 * i);
    at_ += size;
    return value;
  }

  std::span<const std::byte> bytes_;
  std::uint64_t file_size_;
  std::uint64_t at_ = 0;
};

bool wanted_string(std::string_view key) { return key == "general.architecture" || key == "general.name"; }

void read_array(Reader& in, std::string_view key, const std::string& field, int depth, Captured& captured);

// Reads one value of `type` at the cursor. Integer scalars are kept in `captured` under `key`.
void read_value(Reader& in, std::uint32_t type, std::string_view key, const std::string& field, int depth,
                Captured& captured) {
  if (type >= kValueTypeCount) {
    throw CheckpointError(in.at() - 4, field + " type",
                          detail::number_text(type) + " is not a GGUF value type (0..12)");
  }
  if (const std::uint64_t width = scalar_bytes(type)) {
    const std::uint64_t value_at = in.at();
    const std::uint64_t raw = in.unsigned_of_size(static_cast<unsigned>(width), field);
    std::int64_t value = 0;
    bool integer = true;
    switch (type) {
      case k_int8:
        value = static_cast<std::int8_t>(raw);
        break;
      case k_int16:
        value = static_cast<std::int16_t>(raw);
        break;
      case k_int32:
        value = static_cast<std::int32_t>(raw);
        break;
      case k_uint8:
      case k_uint16:
      case k_uint32:
      case k_int64:
        value = static_cast<std::int64_t>(raw);
        break;
      case k_uint64:
        integer = raw <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        value = static_cast<std::int64_t>(raw);
        break;
      default:
        integer = false;  // float32, float64, bool
    }
    if (key == "general.alignment") {
      // llama.cpp: "must be of type uint32"; a power of two (gguf.md says a multiple of 8).
      if (type != k_uint32 || raw == 0 || !std::has_single_bit(raw))
        throw CheckpointError(value_at, field, "is not a uint32 power of two (general.alignment)");
      captured.alignment = raw;
    }
    if (integer && depth == 0) captured.integers.emplace_back(key, value);
    return;
  }
  if (type == k_string) {
    const std::string_view text = in.string(field, in.room());
    if (depth == 0 && wanted_string(key)) (key == "general.name" ? captured.name : captured.architecture) = text;
    return;
  }
  read_array(in, key, field, depth, captured);
}

// An array: element type, element count, elements; an element of an array of arrays is itself
// an element type, count and elements (gguf.md gguf_metadata_value_t.array).
void read_array(Reader& in, std::string_view key, const std::string& field, int depth, Captured& captured) {
  const std::uint32_t element_type = in.u32(field + " element type");
  if (element_type >= kValueTypeCount)
    throw CheckpointError(in.at() - 4, field + " element type",
                          detail::number_text(element_type) + " is not a GGUF value type (0..12)");
  const std::uint64_t count_at = in.at();
  const std::uint64_t count = in.u64(field + " element count");
  const std::uint64_t width = scalar_bytes(element_type);
  const std::uint64_t min_element_bytes = width ? width : element_type == k_string ? 8 : 12;
  if (count > in.room() / min_element_bytes)
    throw CheckpointError(count_at, field + " element count",
                          detail::number_text(count) + " cannot fit in the header (at most " +
                              detail::number_text(kMaxHeaderBytes) + " bytes are read)");
  if (depth == 0) captured.array_lengths.emplace_back(key, count);
  const bool integers = element_type <= k_int32 || element_type == k_uint64 || element_type == k_int64;
  if (depth == 0 && width && integers && per_layer_key(key) && count <= kMaxPerLayerValues) {
    std::vector<std::int64_t> values;
    values.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t raw = in.unsigned_of_size(static_cast<unsigned>(width), field + " element");
      const bool is_signed = element_type == k_int8 || element_type == k_int16 || element_type == k_int32;
      values.push_back(is_signed && width < 8 && (raw >> (8 * width - 1)) != 0
                           ? static_cast<std::int64_t>(raw) - (std::int64_t{1} << (8 * width))
                           : static_cast<std::int64_t>(raw));
    }
    captured.integer_arrays.emplace_back(key, std::move(values));
  } else if (width) {
    in.skip(count * width, field + " elements");
  } else if (element_type == k_string) {
    for (std::uint64_t i = 0; i < count; ++i) in.string(field + " element " + detail::number_text(i), in.room());
  } else {
    if (depth + 1 >= kMaxArrayDepth)
      throw CheckpointError(count_at - 4, field + " element type",
                            "nests arrays deeper than " + std::to_string(kMaxArrayDepth) + " levels");
    for (std::uint64_t i = 0; i < count; ++i)
      read_array(in, key, field + " element " + detail::number_text(i), depth + 1, captured);
  }
}

CheckpointSummary parse(Reader& in) {
  CheckpointSummary summary;
  summary.format = CheckpointFormat::gguf;

  in.require(4, "magic");
  {
    const std::uint64_t magic = in.u32("magic");
    if (magic != 0x46554747u)  // "GGUF" read little-endian
      throw CheckpointError(0, "magic", "is not \"GGUF\" (not a GGUF file)");
  }
  const std::uint32_t version = in.u32("version");
  if (version == 1) throw CheckpointError(4, "version", "1 is no longer read (llama.cpp refuses GGUFv1 too)");
  if (version == 0 || (version & 0xFFFFu) == 0)
    throw CheckpointError(4, "version",
                          detail::number_text(version) + " reads as a big-endian file, which is not supported");
  if (version > 3)
    throw CheckpointError(4, "version",
                          detail::number_text(version) + " is newer than 3, the latest this reader knows");
  summary.gguf_version = version;

  const std::uint64_t tensor_count = in.u64("tensor count");
  if (tensor_count > in.room() / kMinTensorInfoBytes)
    throw CheckpointError(8, "tensor count",
                          detail::number_text(tensor_count) + " cannot fit in the header (at most " +
                              detail::number_text(kMaxHeaderBytes) + " bytes are read)");
  const std::uint64_t kv_count = in.u64("metadata key/value count");
  if (kv_count > in.room() / kMinKeyValueBytes)
    throw CheckpointError(16, "metadata key/value count",
                          detail::number_text(kv_count) + " cannot fit in the header (at most " +
                              detail::number_text(kMaxHeaderBytes) + " bytes are read)");
  summary.metadata_count = static_cast<std::int64_t>(kv_count);

  Captured captured;
  std::set<std::string_view> keys;
  for (std::uint64_t i = 0; i < kv_count; ++i) {
    const std::string field = "metadata key " + detail::number_text(i);
    const std::uint64_t key_at = in.at();
    const std::string_view key = in.string(field, kMaxKeyBytes);
    if (key.empty()) throw CheckpointError(key_at, field, "is empty");
    if (!keys.insert(key).second) throw CheckpointError(key_at, field, detail::quoted(key) + " appears twice");
    const std::string value_field = "metadata " + detail::quoted(key) + " value";
    read_value(in, in.u32(value_field + " type"), key, value_field, 0, captured);
  }
  summary.architecture = std::string(captured.architecture);
  summary.name = std::string(captured.name);
  summary.alignment_bytes = captured.alignment;

  std::set<std::string_view> names;
  for (std::uint64_t i = 0; i < tensor_count; ++i) {
    const std::uint64_t info_at = in.at();
    const std::string_view name = in.string("tensor " + detail::number_text(i) + " name", kMaxTensorNameBytes);
    if (!names.insert(name).second)
      throw CheckpointError(info_at, "tensor " + detail::number_text(i) + " name",
                            detail::quoted(name) + " appears twice");
    const std::string field = "tensor " + detail::quoted(name);
    CheckpointTensor tensor;
    tensor.name = std::string(name);
    const std::uint64_t dims_at = in.at();
    const std::uint32_t n_dims = in.u32(field + " dimension count");
    if (n_dims > kMaxDims)
      throw CheckpointError(dims_at, field + " dimension count",
                            detail::number_text(n_dims) + " exceeds " + std::to_string(kMaxDims) + " (GGML_MAX_DIMS)");
    std::int64_t elements = 1;
    for (std::uint32_t d = 0; d < n_dims; ++d) {
      const std::uint64_t dim_at = in.at();
      const std::string dim_field = field + " dimension " + std::to_string(d);
      const std::uint64_t dim = in.u64(dim_field);
      if (dim > static_cast<std::uint64_t>(detail::kMaxExactInteger))
        throw CheckpointError(dim_at, dim_field, detail::number_text(dim) + " exceeds 2^53");
      tensor.shape.push_back(static_cast<std::int64_t>(dim));
      if (__builtin_mul_overflow(elements, static_cast<std::int64_t>(dim), &elements) ||
          elements > detail::kMaxExactInteger)
        throw CheckpointError(dim_at, dim_field, "makes the element count exceed 2^53");
    }
    tensor.elements = elements;
    const std::uint64_t type_at = in.at();
    const std::uint32_t type_id = in.u32(field + " type");
    const GgmlTypeTraits* traits = ggml_type_traits(type_id);
    if (!traits)
      throw CheckpointError(type_at, field + " type",
                            detail::number_text(type_id) + " is not a ggml type this reader knows");
    tensor.type = traits->name;
    // ggml_row_size: a row of ne[0] values is ne[0] / block_elements blocks of block_bytes; the
    // tensor is its rows (ggml_nbytes of a contiguous tensor).
    const std::int64_t row_elements = tensor.shape.empty() ? 1 : tensor.shape.front();
    if (row_elements % traits->block_elements != 0)
      throw CheckpointError(dims_at + 4, field + " dimension 0",
                            std::to_string(row_elements) + " is not a multiple of " + traits->name + "'s block of " +
                                std::to_string(traits->block_elements) + " values");
    if (elements > 0) {
      std::int64_t row_bytes = 0;
      if (__builtin_mul_overflow(row_elements / traits->block_elements, traits->block_bytes, &row_bytes) ||
          __builtin_mul_overflow(row_bytes, elements / row_elements, &tensor.bytes) ||
          tensor.bytes > detail::kMaxExactInteger)
        throw CheckpointError(type_at, field + " type", "makes the byte count exceed 2^53");
    }
    const std::uint64_t offset_at = in.at();
    tensor.data_offset = in.u64(field + " offset");
    if (tensor.data_offset > static_cast<std::uint64_t>(detail::kMaxExactInteger))
      throw CheckpointError(offset_at, field + " offset", detail::number_text(tensor.data_offset) + " exceeds 2^53");
    if (tensor.data_offset % captured.alignment != 0)
      throw CheckpointError(offset_at, field + " offset",
                            detail::number_text(tensor.data_offset) + " is not a multiple of the alignment " +
                                detail::number_text(captured.alignment));
    detail::add_checkpoint_tensor(summary, std::move(tensor), info_at);
  }
  summary.header_bytes = in.at();
  summary.data_offset_bytes = (in.at() + captured.alignment - 1) / captured.alignment * captured.alignment;
  resolve_hyperparameters(captured, summary);
  if (summary.architecture.empty()) summary.notes.push_back("general.architecture is missing");
  detail::note_cut_data(summary, in.file_size());
  return summary;
}

}  // namespace

CheckpointRead parse_gguf_header(std::span<const std::byte> bytes, std::uint64_t file_size_bytes) {
  Reader in(bytes, file_size_bytes);
  CheckpointRead read;
  try {
    read.summary = parse(in);
    read.complete = true;
  } catch (NeedMoreBytes& more) {
    read.bytes_needed = more.bytes_needed;
    read.needed_for = std::move(more.field);
  }
  return read;
}

}  // namespace fitcheck
