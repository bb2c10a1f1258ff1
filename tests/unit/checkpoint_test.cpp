// SPDX-License-Identifier: MIT
// Weight-file headers: GGUF and safetensors built here byte by byte, read back, cut and corrupted.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fitcheck/checkpoint.hpp"
#include "fitcheck/local.hpp"
#include "fitcheck/quantization.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// A GGUF v3 writer for tests: key/values and tensor infos in the order added; tensor offsets are
// laid out one after another, each padded to the 32-byte default alignment.
class GgufWriter {
 public:
  enum : std::uint32_t { u8 = 0, i8, u16, i16, u32, i32, f32, boolean, string, array, u64, i64, f64 };

  GgufWriter& version(std::uint32_t v) {
    version_ = v;
    return *this;
  }

  GgufWriter& kv_u32(const std::string& key, std::uint32_t value) { return kv(key, u32, le(value, 4)); }
  GgufWriter& kv_i32(const std::string& key, std::int32_t value) {
    return kv(key, i32, le(static_cast<std::uint32_t>(value), 4));
  }
  GgufWriter& kv_u64(const std::string& key, std::uint64_t value) { return kv(key, u64, le(value, 8)); }
  GgufWriter& kv_i64(const std::string& key, std::int64_t value) {
    return kv(key, i64, le(static_cast<std::uint64_t>(value), 8));
  }
  GgufWriter& kv_u8(const std::string& key, std::uint8_t value) { return kv(key, u8, le(value, 1)); }
  GgufWriter& kv_i16(const std::string& key, std::int16_t value) {
    return kv(key, i16, le(static_cast<std::uint16_t>(value), 2));
  }
  GgufWriter& kv_bool(const std::string& key, bool value) { return kv(key, boolean, le(value ? 1 : 0, 1)); }
  GgufWriter& kv_f32(const std::string& key, float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    return kv(key, f32, le(bits, 4));
  }
  GgufWriter& kv_f64(const std::string& key, double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, 8);
    return kv(key, f64, le(bits, 8));
  }
  GgufWriter& kv_string(const std::string& key, const std::string& value) { return kv(key, string, str(value)); }
  GgufWriter& kv_strings(const std::string& key, const std::vector<std::string>& values) {
    std::string body = le(string, 4) + le(values.size(), 8);
    for (const auto& v : values) body += str(v);
    return kv(key, array, body);
  }
  GgufWriter& kv_u32s(const std::string& key, const std::vector<std::uint32_t>& values) {
    std::string body = le(u32, 4) + le(values.size(), 8);
    for (auto v : values) body += le(v, 4);
    return kv(key, array, body);
  }
  GgufWriter& kv_f32s(const std::string& key, std::size_t count) {
    return kv(key, array, le(f32, 4) + le(count, 8) + std::string(4 * count, '\0'));
  }
  // An already encoded value (for corrupt cases).
  GgufWriter& kv_raw(const std::string& key, std::uint32_t type, const std::string& body) {
    return kv(key, type, body);
  }

  // A tensor of `dims` (ne[0] first) of ggml type `type`, whose data takes `bytes`.
  GgufWriter& tensor(const std::string& name, const std::vector<std::uint64_t>& dims, std::uint32_t type,
                     std::uint64_t bytes) {
    tensors_ += str(name) + le(dims.size(), 4);
    for (auto d : dims) tensors_ += le(d, 8);
    tensors_ += le(type, 4) + le(next_offset_, 8);
    next_offset_ += (bytes + 31) / 32 * 32;
    ++tensor_count_;
    return *this;
  }

  std::string bytes() const {
    return "GGUF" + le(version_, 4) + le(tensor_count_, 8) + le(kv_count_, 8) + kvs_ + tensors_;
  }
  std::uint64_t kv_count() const { return kv_count_; }

  static std::string le(std::uint64_t value, int size) {
    std::string out;
    for (int i = 0; i < size; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
    return out;
  }
  static std::string str(const std::string& text) { return le(text.size(), 8) + text; }

 private:
  GgufWriter& kv(const std::string& key, std::uint32_t type, const std::string& body) {
    kvs_ += str(key) + le(type, 4) + body;
    ++kv_count_;
    return *this;
  }

  std::uint32_t version_ = 3;
  std::string kvs_, tensors_;
  std::uint64_t kv_count_ = 0, tensor_count_ = 0, next_offset_ = 0;
};

std::span<const std::byte> as_bytes(const std::string& text) {
  return std::as_bytes(std::span<const char>(text.data(), text.size()));
}

// ggml type ids (ggml.h enum ggml_type).
constexpr std::uint32_t F32 = 0, F16 = 1, Q8_0 = 8, Q4_K = 12, Q6_K = 14, MXFP4 = 39;

// A small Llama-shaped header: every metadata value type, a string array, and tensors of six types.
GgufWriter tiny_llama() {
  GgufWriter w;
  w.kv_string("general.architecture", "llama")
      .kv_string("general.name", "tiny")
      .kv_u32("general.alignment", 32)
      .kv_u32("llama.block_count", 2)
      .kv_u64("llama.context_length", 4096)
      .kv_u32("llama.embedding_length", 256)
      .kv_i32("llama.feed_forward_length", 512)
      .kv_u32("llama.attention.head_count", 8)
      .kv_u32("llama.attention.head_count_kv", 2)
      .kv_i64("llama.expert_count", 4)
      .kv_u32("llama.expert_used_count", 2)
      .kv_f32("llama.rope.freq_base", 10000.0f)
      .kv_f64("llama.attention.layer_norm_rms_epsilon", 1e-5)
      .kv_bool("llama.use_parallel_residual", false)
      .kv_u8("test.u8", 7)
      .kv_i16("test.i16", -3)
      .kv_u32("general.file_type", 15)
      .kv_strings("tokenizer.ggml.tokens", {"<s>", "</s>", "a", "b"})
      .kv_f32s("tokenizer.ggml.scores", 4)
      .kv_u32("general.quantization_version", 2);
  // Bytes by ggml's row rule, (ne[0] / block) x block bytes x rows:
  w.tensor("token_embd.weight", {256, 1000}, Q4_K, 144000)                  // Q4_K: 256 per 144 B block; 1 x 144 x 1000
      .tensor("output_norm.weight", {256}, F32, 1024)                       // 256 x 4 B
      .tensor("blk.0.attn_q.weight", {256, 256}, Q8_0, 69632)               // Q8_0: 32 per 34 B; 8 x 34 = 272 x 256
      .tensor("blk.0.ffn_down.weight", {512, 256}, Q6_K, 107520)            // Q6_K: 256 per 210 B; 2 x 210 = 420 x 256
      .tensor("blk.0.attn_norm.weight", {256}, F16, 512)                    // 256 x 2 B
      .tensor("blk.0.ffn_gate_exps.weight", {256, 512, 4}, MXFP4, 278528);  // MXFP4: 32 per 17 B; 8 x 17 = 136 x 2048
  return w;
}
constexpr std::int64_t kTinyElements = 256000 + 256 + 65536 + 131072 + 256 + 524288;  // 977,408
constexpr std::int64_t kTinyBytes = 144000 + 1024 + 69632 + 107520 + 512 + 278528;    // 601,216

CheckpointSummary read_whole(const std::string& header) {
  const CheckpointRead read = parse_gguf_header(as_bytes(header));
  REQUIRE(read.complete);
  return read.summary;
}

// The CheckpointError parse_gguf_header throws for `header` (as the whole file), or "" if none.
std::string gguf_error(const std::string& header) {
  try {
    parse_gguf_header(as_bytes(header), header.size());
  } catch (const CheckpointError& error) {
    return error.what();
  }
  return "";
}

// A directory under /tmp for the CLI test's files, removed with them at the end of the test.
class TempDir {
 public:
  TempDir() {
    char directory[] = "/tmp/fitcheck-checkpoint-XXXXXX";
    REQUIRE(mkdtemp(directory) != nullptr);
    path_ = directory;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary);
  file << bytes;
}

}  // namespace

TEST_CASE("ggml type traits: block sizes and bytes per block (gguf-py GGML_QUANT_SIZES)") {
  const auto check = [](std::uint32_t id, const char* name, std::int64_t block, std::int64_t bytes) {
    const GgmlTypeTraits* traits = ggml_type_traits(id);
    REQUIRE(traits != nullptr);
    CHECK(std::string(traits->name) == name);
    CHECK(traits->block_elements == block);
    CHECK(traits->block_bytes == bytes);
  };
  check(0, "F32", 1, 4);
  check(30, "BF16", 1, 2);
  check(2, "Q4_0", 32, 18);
  check(12, "Q4_K", 256, 144);  // 2 + 2 + 256/2 + 12
  check(14, "Q6_K", 256, 210);  // 2 + 256/2 + 256/4 + 256/16
  check(15, "Q8_K", 256, 292);  // 4 + 256 + 256/8
  check(16, "IQ2_XXS", 256, 66);
  check(29, "IQ1_M", 256, 56);
  check(34, "TQ1_0", 256, 54);  // 2 + 4 x 13
  check(39, "MXFP4", 32, 17);   // 1 + 16
  for (std::uint32_t removed : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 1000u})
    CHECK(ggml_type_traits(removed) == nullptr);
  // Definition: the quantization layer's preset table agrees with this one where both list a type.
  for (int t = 0; t <= static_cast<int>(GgufType::mxfp4); ++t) {
    const GgufTypeInfo& info = gguf_type_info(static_cast<GgufType>(t));
    bool found = false;
    for (std::uint32_t id = 0; id < 64; ++id) {
      const GgmlTypeTraits* traits = ggml_type_traits(id);
      if (!traits || std::string(traits->name) != info.name) continue;
      found = true;
      CHECK(traits->block_elements == info.block_elements);
      CHECK(traits->block_bytes == info.block_bytes);
    }
    CHECK_MESSAGE(found, info.name);
  }
}

TEST_CASE("GGUF header: architecture, hyperparameters, tensors and exact bytes") {
  const std::string header = tiny_llama().bytes();
  const CheckpointSummary s = read_whole(header);
  CHECK(s.format == CheckpointFormat::gguf);
  CHECK(s.gguf_version == 3);
  CHECK(s.architecture == "llama");
  CHECK(s.name == "tiny");
  CHECK(s.metadata_count == 20);
  CHECK(s.alignment_bytes == 32);
  CHECK(s.header_bytes == header.size());
  CHECK(s.data_offset_bytes % 32 == 0);
  CHECK(s.data_offset_bytes >= s.header_bytes);
  CHECK(s.data_offset_bytes - s.header_bytes < 32);

  const GgufHyperparameters& h = s.hyperparameters;
  CHECK(h.block_count == 2);
  CHECK(h.context_length == 4096);
  CHECK(h.embedding_length == 256);
  CHECK(h.feed_forward_length == 512);
  CHECK(h.head_count == 8);
  CHECK(h.head_count_kv == 2);
  CHECK(h.expert_count == 4);
  CHECK(h.expert_used_count == 2);
  CHECK(h.vocab_size == 4);  // no llama.vocab_size: the length of tokenizer.ggml.tokens
  CHECK(h.file_type == 15);
  CHECK(std::string(gguf_file_type_name(15)) == "MOSTLY_Q4_K_M");

  REQUIRE(s.tensors.size() == 6);
  CHECK(s.tensors[0].name == "token_embd.weight");
  CHECK(s.tensors[0].type == "Q4_K");
  CHECK(s.tensors[0].shape == std::vector<std::int64_t>{256, 1000});
  CHECK(s.tensors[0].elements == 256000);
  CHECK(s.tensors[0].bytes == 144000);
  CHECK(s.tensors[1].bytes == 1024);
  CHECK(s.tensors[2].bytes == 69632);
  CHECK(s.tensors[3].bytes == 107520);
  CHECK(s.tensors[4].bytes == 512);
  CHECK(s.tensors[5].type == "MXFP4");
  CHECK(s.tensors[5].elements == 524288);
  CHECK(s.tensors[5].bytes == 278528);
  CHECK(s.tensors[1].data_offset == 144000);  // 144000 is a multiple of 32
  CHECK(s.total_parameters == kTinyElements);
  CHECK(s.total_bytes == kTinyBytes);

  REQUIRE(s.by_type.size() == 6);
  std::int64_t elements = 0, bytes = 0;
  for (const CheckpointTypeTotal& row : s.by_type) {
    CHECK(row.tensors == 1);
    elements += row.elements;
    bytes += row.bytes;
  }
  CHECK(elements == s.total_parameters);
  CHECK(bytes == s.total_bytes);
}

TEST_CASE("GGUF header: key and value lengths, and the model llama.cpp would load from it") {
  GgufWriter w = tiny_llama();
  w.kv_u32("llama.attention.key_length", 48).kv_u32("llama.attention.value_length", 40);
  const CheckpointSummary s = read_whole(w.bytes());
  CHECK(s.hyperparameters.key_length == 48);
  CHECK(s.hyperparameters.value_length == 40);
  const LocalModel m = local_model_from_gguf(s);
  REQUIRE(m.layers.size() == 2);  // block_count 2; blk.1 holds no tensors in this header
  CHECK(m.input_bytes == 144000);
  CHECK(m.output_bytes == 1024 + 144000);  // output_norm, and token_embd again: no output.weight
  CHECK(m.layers[0].dense_bytes == 69632 + 107520 + 512);
  CHECK(m.layers[0].expert_bytes == 278528);
  CHECK(m.layers[0].kv_key_width == 2 * 48);  // head_count_kv x key_length
  CHECK(m.layers[0].kv_value_width == 2 * 40);
  CHECK(m.num_experts == 4);
  CHECK(m.experts_per_token == 2);
  // What Metal's fusion merges: blk.0's RMS norm, the one ADD summing 2 experts' outputs, the output norm.
  CHECK(m.layers[0].rms_norms == 1);
  CHECK(m.layers[0].layer_norms == 0);
  CHECK(m.layers[0].expert_sum_adds == 1);
  CHECK(m.layers[1].rms_norms == 0);
  CHECK(m.output_rms_norms == 1);
  // With biases, the same norms are LayerNorms.
  GgufWriter biased = tiny_llama();
  biased.tensor("blk.0.attn_norm.bias", {256}, F32, 1024).tensor("output_norm.bias", {256}, F32, 1024);
  const LocalModel ln = local_model_from_gguf(read_whole(biased.bytes()));
  CHECK(ln.layers[0].rms_norms == 0);
  CHECK(ln.layers[0].layer_norms == 1);
  CHECK(ln.output_rms_norms == 0);
  CHECK(ln.output_layer_norms == 1);
}

TEST_CASE("GGUF header: same types add up; a per-layer array is a note; version 2 reads") {
  GgufWriter w;
  w.version(2)
      .kv_string("general.architecture", "openelm")
      .kv_u32s("openelm.attention.head_count", {12, 12, 16})
      .kv_u64("openelm.vocab_size", 32000)
      .kv_raw("openelm.block_count", GgufWriter::u16, GgufWriter::le(36, 2));  // any integer width reads
  w.tensor("a", {64, 2}, Q8_0, 136).tensor("b", {64, 3}, Q8_0, 204);           // 2 blocks x 34 B per row
  const CheckpointSummary s = read_whole(w.bytes());
  CHECK(s.gguf_version == 2);
  REQUIRE(s.by_type.size() == 1);
  CHECK(s.by_type[0].type == "Q8_0");
  CHECK(s.by_type[0].tensors == 2);
  CHECK(s.by_type[0].elements == 320);
  CHECK(s.by_type[0].bytes == 340);
  CHECK_FALSE(s.hyperparameters.head_count.has_value());
  CHECK(s.hyperparameters.vocab_size == 32000);
  CHECK(s.hyperparameters.block_count == 36);
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0].find("'openelm.attention.head_count' is an array of 3") == 0);
}

TEST_CASE("GGUF header cut at every byte: need more bytes, or with the file size a named error") {
  const std::string header = tiny_llama().bytes();
  for (std::size_t n = 0; n < header.size(); ++n) {
    const std::string prefix = header.substr(0, n);
    const CheckpointRead read = parse_gguf_header(as_bytes(prefix));
    CAPTURE(n);
    REQUIRE_FALSE(read.complete);
    CHECK(read.bytes_needed > n);
    CHECK(read.bytes_needed <= header.size());
    CHECK_FALSE(read.needed_for.empty());
    // The same prefix as a whole (truncated) file: an error naming an offset inside it.
    try {
      parse_gguf_header(as_bytes(prefix), n == 0 ? 1 : n);
      if (n > 0) FAIL("no error for a file cut at byte " << n);
    } catch (const CheckpointError& error) {
      CHECK(error.offset() <= n);
      CHECK(std::string(error.what()).find("runs past the end of the file") != std::string::npos);
    }
  }
  // A reader that grows its prefix as the parser asks ends with the whole header.
  std::size_t have = 16;
  int reads = 0;
  for (;; ++reads) {
    const CheckpointRead read = parse_gguf_header(as_bytes(header.substr(0, have)));
    if (read.complete) break;
    have = std::max<std::size_t>(read.bytes_needed, 2 * have);
    REQUIRE(reads < 20);
  }
  CHECK(have >= header.size());
}

TEST_CASE("GGUF header with any one byte changed: a summary, a request for more, or a named error") {
  const std::string header = tiny_llama().bytes();
  for (const char value : {'\xFF', '\x00', '\x7F'}) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      std::string changed = header;
      changed[i] = value;
      CAPTURE(i);
      try {
        const CheckpointRead read = parse_gguf_header(as_bytes(changed));
        if (read.complete)
          CHECK(read.summary.total_bytes >= 0);
        else
          CHECK(read.bytes_needed > changed.size());
      } catch (const CheckpointError& error) {
        CHECK(std::string(error.what()).rfind("offset ", 0) == 0);
      }
    }
  }
}

TEST_CASE("GGUF header: corrupt lengths and counts are named with their offsets") {
  const std::string big = GgufWriter::le(1'000'000'000'000'000'000ull, 8);
  SUBCASE("a huge key length") {
    std::string header = tiny_llama().bytes();
    header.replace(24, 8, big);  // the first key's length, right after the 24-byte preamble
    CHECK(gguf_error(header) == "offset 24: metadata key 0 length 1000000000000000000 exceeds 65535 bytes");
  }
  SUBCASE("a huge string value length") {
    GgufWriter w;
    w.kv_raw("general.name", GgufWriter::string, big + "x");
    const std::string error = gguf_error(w.bytes());
    CHECK(error.rfind("offset 48: metadata 'general.name' value length 1000000000000000000 exceeds", 0) == 0);
  }
  SUBCASE("a huge tensor count") {
    std::string header = tiny_llama().bytes();
    header.replace(8, 8, big);
    CHECK(gguf_error(header).rfind("offset 8: tensor count 1000000000000000000 cannot fit in the header", 0) == 0);
  }
  SUBCASE("a huge metadata count") {
    std::string header = tiny_llama().bytes();
    header.replace(16, 8, big);
    CHECK(gguf_error(header).rfind("offset 16: metadata key/value count 1000000000000000000 cannot fit", 0) == 0);
  }
  SUBCASE("a huge array") {
    GgufWriter w;
    w.kv_raw("tokenizer.ggml.tokens", GgufWriter::array, GgufWriter::le(GgufWriter::string, 4) + big);
    // key length 8 @24, key 21 B @32, type @53, element type @57, count @61
    CHECK(gguf_error(w.bytes()).rfind(
              "offset 61: metadata 'tokenizer.ggml.tokens' value element count 1000000000000000000 cannot fit", 0) ==
          0);
  }
  SUBCASE("five dimensions") {
    GgufWriter w;
    w.tensor("t", {1, 1, 1, 1, 1}, F32, 4);
    // name length @24, name @32, n_dims @33
    CHECK(gguf_error(w.bytes()) == "offset 33: tensor 't' dimension count 5 exceeds 4 (GGML_MAX_DIMS)");
  }
  SUBCASE("an unknown tensor type") {
    GgufWriter w;
    w.tensor("t", {32}, 99, 4);
    CHECK(gguf_error(w.bytes()) == "offset 45: tensor 't' type 99 is not a ggml type this reader knows");
    GgufWriter removed;
    removed.tensor("t", {32}, 4, 4);  // Q4_2, removed from ggml
    CHECK(gguf_error(removed.bytes()).find("type 4 is not a ggml type") != std::string::npos);
  }
  SUBCASE("a row that is not whole blocks") {
    GgufWriter w;
    w.tensor("t", {100, 2}, Q4_K, 0);
    CHECK(gguf_error(w.bytes()) ==
          "offset 37: tensor 't' dimension 0 100 is not a multiple of Q4_K's block of 256 values");
  }
  SUBCASE("counts past 2^53, the page's exact integers") {
    GgufWriter w;
    w.tensor("t", {1ull << 40, 1ull << 40}, F32, 0);
    CHECK(gguf_error(w.bytes()) == "offset 45: tensor 't' dimension 1 makes the element count exceed 2^53");
    GgufWriter one;
    one.tensor("t", {(1ull << 53) + 1, 0}, F32, 0);
    CHECK(gguf_error(one.bytes()) == "offset 37: tensor 't' dimension 0 9007199254740993 exceeds 2^53");
    std::string offset = GgufWriter().tensor("t", {1}, F32, 4).bytes();
    offset.replace(offset.size() - 8, 8, GgufWriter::le(1ull << 60, 8));
    CHECK(gguf_error(offset) == "offset 49: tensor 't' offset 1152921504606846976 exceeds 2^53");
    GgufWriter bytes;
    bytes.tensor("t", {1ull << 52, 4}, F32, 0);  // 2^52 x 4 = 2^54 elements
    CHECK(gguf_error(bytes.bytes()).find("makes the element count exceed 2^53") != std::string::npos);
    GgufWriter many;
    many.tensor("a", {1ull << 52}, F32, 0).tensor("b", {1ull << 52}, F32, 0);  // 2^54 bytes each
    CHECK(gguf_error(many.bytes()).find("makes the byte count exceed 2^53") != std::string::npos);
  }
  SUBCASE("a hyperparameter that is not a size is left out with a note") {
    GgufWriter w;
    w.kv_string("general.architecture", "llama").kv_i32("llama.block_count", -2);
    const CheckpointSummary s = read_whole(w.bytes());
    CHECK_FALSE(s.hyperparameters.block_count.has_value());
    REQUIRE(s.notes.size() == 1);
    CHECK(s.notes[0] == "'llama.block_count' is -2, not a size; left out");
  }
  SUBCASE("a tensor name over 64 bytes") {
    GgufWriter w;
    w.tensor(std::string(65, 'n'), {1}, F32, 4);
    CHECK(gguf_error(w.bytes()) == "offset 24: tensor 0 name length 65 exceeds 64 bytes");
  }
  SUBCASE("an unknown value type") {
    GgufWriter w;
    w.kv_raw("a.b", 13, "");
    CHECK(gguf_error(w.bytes()) == "offset 35: metadata 'a.b' value type 13 is not a GGUF value type (0..12)");
  }
  SUBCASE("arrays nested too deep") {
    std::string body;
    for (int i = 0; i < 6; ++i) body += GgufWriter::le(GgufWriter::array, 4) + GgufWriter::le(1, 8);
    GgufWriter w;
    w.kv_raw("a.b", GgufWriter::array, body);
    CHECK(gguf_error(w.bytes()).find("nests arrays deeper than 4 levels") != std::string::npos);
  }
  SUBCASE("duplicates, alignment, offsets") {
    GgufWriter twice;
    twice.kv_u32("a.b", 1).kv_u32("a.b", 2);
    CHECK(gguf_error(twice.bytes()) == "offset 43: metadata key 1 'a.b' appears twice");
    GgufWriter names;
    names.tensor("t", {1}, F32, 4).tensor("t", {1}, F32, 4);
    CHECK(gguf_error(names.bytes()).find("tensor 1 name 't' appears twice") != std::string::npos);
    // Names from the file reach messages with control bytes and invalid UTF-8 escaped.
    GgufWriter odd;
    odd.tensor("a\x1b[2J\xff", {1}, F32, 4).tensor("a\x1b[2J\xff", {1}, F32, 4);
    CHECK(gguf_error(odd.bytes()).find("tensor 1 name 'a\\x1B[2J\\xFF' appears twice") != std::string::npos);
    GgufWriter alignment;
    alignment.kv_u32("general.alignment", 24);
    CHECK(gguf_error(alignment.bytes()) ==
          "offset 53: metadata 'general.alignment' value is not a uint32 power of two (general.alignment)");
    GgufWriter aligned;
    aligned.kv_u32("general.alignment", 64).tensor("a", {8}, F32, 32).tensor("b", {8}, F32, 32);  // b at 32, not 64
    CHECK(gguf_error(aligned.bytes()).find("tensor 'b' offset 32 is not a multiple of the alignment 64") !=
          std::string::npos);
  }
  SUBCASE("magic and version") {
    CHECK(gguf_error("GGML" + std::string(20, '\0')) == "offset 0: magic is not \"GGUF\" (not a GGUF file)");
    CHECK(gguf_error(GgufWriter().version(1).bytes()).rfind("offset 4: version 1 is no longer read", 0) == 0);
    CHECK(gguf_error(GgufWriter().version(0x03000000).bytes()).find("big-endian") != std::string::npos);
    CHECK(gguf_error(GgufWriter().version(4).bytes()).find("newer than 3") != std::string::npos);
  }
}

TEST_CASE("a GGUF whose data is cut short: the header's figures and a note") {
  const std::string header = tiny_llama().bytes();
  const CheckpointRead whole =
      parse_gguf_header(as_bytes(header), header.size() + 32 + 144000 + 1024 + 69632 + 107520 + 512 + 278528 + 64);
  REQUIRE(whole.complete);
  CHECK(whole.summary.notes.empty());
  const CheckpointRead cut = parse_gguf_header(as_bytes(header), header.size() + 1000);
  REQUIRE(cut.complete);
  CHECK(cut.summary.total_bytes == kTinyBytes);
  REQUIRE(cut.summary.notes.size() == 1);
  CHECK(cut.summary.notes[0].find("it is cut short (an unfinished download?)") != std::string::npos);
}

TEST_CASE("GGUF shards from gguf-split say so") {
  GgufWriter w;
  w.kv_string("general.architecture", "llama")
      .kv_u32("split.no", 0)
      .kv_u32("split.count", 3)
      .kv_i32("split.tensors.count", 291);
  w.tensor("t", {1}, F32, 4);
  const CheckpointSummary s = read_whole(w.bytes());
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0] ==
        "this file is split 1 of 3 (gguf-split); the model has 291 tensors; the totals are this file's tensors only");
}

namespace {

std::string safetensors_file(const std::string& json, const std::string& data = "") {
  return GgufWriter::le(json.size(), 8) + json + data;
}

const std::string kMixedHeader = R"({"__metadata__":{"format":"pt"},)"
                                 R"("model.embed.weight":{"dtype":"BF16","shape":[4,8],"data_offsets":[0,64]},)"
                                 R"("model.norm.weight":{"dtype":"F32","shape":[8],"data_offsets":[64,96]},)"
                                 R"("model.q.weight":{"dtype":"F8_E4M3","shape":[16,4],"data_offsets":[96,160]},)"
                                 R"("model.q.weight_scale":{"dtype":"F32","shape":[],"data_offsets":[160,164]},)"
                                 R"("model.ids":{"dtype":"I64","shape":[2],"data_offsets":[164,180]},)"
                                 R"("model.mask":{"dtype":"BOOL","shape":[3],"data_offsets":[180,183]},)"
                                 R"("model.fp4":{"dtype":"F4","shape":[2,4],"data_offsets":[183,187]}})";

}  // namespace

TEST_CASE("safetensors header: mixed dtypes, exact bytes, totals by dtype") {
  const std::string file = safetensors_file(kMixedHeader, std::string(187, '\0'));
  REQUIRE(sniff_checkpoint_format(as_bytes(file)) == CheckpointFormat::safetensors);
  const CheckpointRead read = parse_safetensors_header(as_bytes(file), file.size());
  REQUIRE(read.complete);
  const CheckpointSummary& s = read.summary;
  CHECK(s.format == CheckpointFormat::safetensors);
  CHECK(s.header_bytes == 8 + kMixedHeader.size());
  REQUIRE(s.tensors.size() == 7);
  CHECK(s.tensors[0].name == "model.embed.weight");  // in data order
  CHECK(s.tensors[3].name == "model.q.weight_scale");
  CHECK(s.tensors[3].elements == 1);  // a scalar
  CHECK(s.tensors[6].bytes == 4);     // 8 values x 4 bits
  // 32 + 8 + 64 + 1 + 2 + 3 + 8 values; 64 + 32 + 64 + 4 + 16 + 3 + 4 bytes
  CHECK(s.total_parameters == 118);
  CHECK(s.total_bytes == 187);
  REQUIRE(s.by_type.size() == 6);
  CHECK(s.by_type[1].type == "F32");
  CHECK(s.by_type[1].tensors == 2);
  CHECK(s.by_type[1].bytes == 36);
  REQUIRE(s.metadata.size() == 1);
  CHECK(s.metadata[0] == std::pair<std::string, std::string>{"format", "pt"});
}

TEST_CASE("safetensors header: cut, too long, and inconsistent") {
  const std::string file = safetensors_file(kMixedHeader);
  for (std::size_t n = 0; n < file.size(); ++n) {
    const CheckpointRead read = parse_safetensors_header(as_bytes(file.substr(0, n)));
    CAPTURE(n);
    REQUIRE_FALSE(read.complete);
    CHECK(read.bytes_needed == (n < 8 ? 8 : file.size()));
  }
  const auto error = [](const std::string& bytes) {
    try {
      parse_safetensors_header(as_bytes(bytes), bytes.size());
    } catch (const CheckpointError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error(GgufWriter::le(200'000'000, 8) + "{}") ==
        "offset 0: header length 200000000 exceeds 100000000 bytes (safetensors MAX_HEADER_SIZE)");
  CHECK(error(GgufWriter::le(100, 8) + "{}")
            .rfind("offset 8: header JSON of 100 bytes runs past the end of the file", 0) == 0);
  CHECK(error(safetensors_file(R"({"a":{"dtype":"BF16","shape":[4],"data_offsets":[0,6]}})", std::string(8, '\0'))) ==
        "offset 9: tensor 'a' data_offsets [0, 6] hold 6 bytes, but 4 values of BF16 take 8");
  CHECK(error(safetensors_file(R"({"a":{"dtype":"Q4","shape":[4],"data_offsets":[0,2]}})")) ==
        "offset 9: tensor 'a' dtype \"Q4\" is not a safetensors dtype");
  CHECK(error(safetensors_file(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}})"))
            .find("not an integer in [0, 2^53]") != std::string::npos);
  CHECK(error(safetensors_file(R"({"a":{"dtype":"F32","shape":[1]}})")) ==
        "offset 9: tensor 'a' data_offsets is missing");
  CHECK(error(safetensors_file(R"({"a":)")).rfind("offset 13: header JSON is not valid JSON", 0) == 0);
  CHECK(error(safetensors_file(std::string(40, '[') + std::string(40, ']'))).find("nests deeper than 16 levels") !=
        std::string::npos);
  CHECK(error(safetensors_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                               R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})")) ==
        "offset 62: tensor 'b' data_offsets begin 8 is not where the previous tensor's data ends (4): safetensors data "
        "is contiguous");
  // Data past the end of the file: the header is whole, so a note, not an error.
  const std::string cut =
      safetensors_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", std::string(4, '\0'));
  const CheckpointRead read = parse_safetensors_header(as_bytes(cut), cut.size());
  REQUIRE(read.complete);
  REQUIRE(read.summary.notes.size() == 1);
  CHECK(read.summary.notes[0].find("but its tensor data runs to byte") != std::string::npos);
}

TEST_CASE("model.safetensors.index.json: total_size, tensor names and shards") {
  const std::string index = R"({
  "metadata": {"total_size": 16060522496},
  "weight_map": {
    "lm_head.weight": "model-00002-of-00002.safetensors",
    "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
    "model.norm.weight": "model-00002-of-00002.safetensors"
  }
})";
  const CheckpointSummary s = parse_safetensors_index(index);
  CHECK(s.format == CheckpointFormat::safetensors_index);
  CHECK_FALSE(s.shapes_known);
  CHECK(s.total_bytes == 16'060'522'496);
  CHECK(s.total_parameters == 0);
  REQUIRE(s.tensors.size() == 3);
  CHECK(s.tensors[0].name == "lm_head.weight");
  CHECK(s.tensors[0].shard == "model-00002-of-00002.safetensors");
  CHECK(s.shards == std::vector<std::string>{"model-00002-of-00002.safetensors", "model-00001-of-00002.safetensors"});
  CHECK_THROWS_WITH_AS(parse_safetensors_index(R"({"metadata": {}})"),
                       "offset 0: weight_map is missing or not an object (not a model.safetensors.index.json)",
                       CheckpointError);
  // The offset is the tensor's key inside weight_map (found by fuzzing: it was added to the map's).
  CHECK_THROWS_WITH_AS(parse_safetensors_index(R"({"metadata": {"a": 1}, "weight_map": {"a": 3}})"),
                       "offset 38: weight_map 'a' is not a file name", CheckpointError);
  // Found by fuzzing: the JSON library's other exceptions (a number past any C++ type) and its
  // messages quoting raw bytes come back as CheckpointErrors with printable text.
  CHECK_THROWS_WITH_AS(parse_safetensors_index(R"({"metadata": {"total_size": 1E999}, "weight_map": {}})"),
                       "offset 0: index JSON is not valid JSON: number overflow parsing '1E999'", CheckpointError);
  try {
    parse_safetensors_index("{\"weight_map\": {\"a\xff\xfe\": \"s\"}}");
    FAIL("no error");
  } catch (const CheckpointError& error) {
    CHECK(std::string(error.what()).find("\\xFF") != std::string::npos);
  }
}

TEST_CASE("the checkpoint report: keys and numbers") {
  const auto report = nlohmann::json::parse(checkpoint_report_json(read_whole(tiny_llama().bytes())));
  CHECK(report["format"] == "gguf");
  CHECK(report["architecture"] == "llama");
  CHECK(report["total_parameters"].get<std::int64_t>() == kTinyElements);
  CHECK(report["total_bytes"].get<std::int64_t>() == kTinyBytes);
  CHECK(report["tensor_count"] == 6);
  CHECK(report["hyperparameters"]["block_count"] == 2);
  CHECK(report["hyperparameters"]["attention.head_count_kv"] == 2);
  CHECK(report["hyperparameters"]["file_type_name"] == "MOSTLY_Q4_K_M");
  CHECK(report["by_type"][0]["type"] == "Q4_K");
  CHECK(report["by_type"][0]["bytes"] == 144000);
  CHECK(report["tensors"][5]["shape"] == nlohmann::json::array({256, 512, 4}));
  CHECK(report["notes"].is_array());
}

TEST_CASE("checkpoint_read_json: a page's growing slices end in the report") {
  const std::string file = tiny_llama().bytes() + std::string(1000, '\0');
  std::size_t have = 0;
  nlohmann::json answer;
  for (int reads = 0;; ++reads) {
    REQUIRE(reads < 20);
    answer = nlohmann::json::parse(checkpoint_read_json(as_bytes(file.substr(0, have)), file.size()));
    if (!answer.contains("bytes_needed")) break;
    CHECK(answer["complete"] == false);
    have = std::max<std::size_t>(answer["bytes_needed"].get<std::size_t>(), 2 * have);
  }
  CHECK(answer["format"] == "gguf");
  CHECK(answer["total_bytes"].get<std::int64_t>() == kTinyBytes);

  const std::string st = safetensors_file(kMixedHeader, std::string(187, '\0'));
  const auto first = nlohmann::json::parse(checkpoint_read_json(as_bytes(st.substr(0, 16)), st.size()));
  CHECK(first["bytes_needed"] == 8 + kMixedHeader.size());
  const auto whole = nlohmann::json::parse(checkpoint_read_json(as_bytes(st), st.size()));
  CHECK(whole["total_parameters"] == 118);

  const std::string index = R"({"weight_map": {"a": "s.safetensors"}})";
  CHECK(nlohmann::json::parse(checkpoint_read_json(as_bytes(index.substr(0, 16)), index.size()))["bytes_needed"] ==
        index.size());
  CHECK(nlohmann::json::parse(checkpoint_read_json(as_bytes(index), index.size()))["format"] == "safetensors_index");
  const std::string config = R"({"model_type": "llama"})";
  CHECK_THROWS_AS(checkpoint_read_json(as_bytes(config), config.size()), CheckpointError);
}

TEST_CASE("fitcheck local reads a GGUF's header: every buffer from its tensors") {
  const TempDir directory;
  const std::string gguf = directory.file("tiny.gguf");
  write_file(gguf, tiny_llama().bytes() + std::string(4096, '\0'));
  const auto result =
      test::run_cli("local '" + gguf + "' --gpu rtx-4090 --ram-gib 16 --context 256 --n-gpu-layers 3 --json");
  REQUIRE(result.exit_status == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["n_layers"] == 3);  // block_count 2, and the output layer
  const auto& gpu = report["devices"][0];
  const auto& cpu = report["devices"][1];
  CHECK(gpu["name"] == "CUDA0");
  // blk.0: 69632 + 107520 + 512 + 278528 B; the output layer: output_norm 1024 B and token_embd's
  // 144000 B again (no output.weight). The CPU keeps token_embd.
  CHECK(gpu["model_buffer_bytes"] == 69632 + 107520 + 512 + 278528 + 1024 + 144000);
  CHECK(cpu["model_buffer_bytes"] == 144000);
  // 2 layers x (K + V) x 256 cells x 2 KV heads x 32 (256 / 8 heads) x 2 B.
  CHECK(gpu["kv_buffer_bytes"] == 2 * 2 * 256 * 64 * 2);
  CHECK(report["llama_cpp_command"].get<std::string>().find("-m " + gguf + " -ngl 3") != std::string::npos);
  const auto refused = test::run_cli("local '" + gguf + "' --gpu rtx-4090 --ram-gib 16 --weights q8_0");
  CHECK(refused.exit_status == 2);
  CHECK(refused.err.find("--weights") != std::string::npos);
  // A GGUF holds one set of types: the weight formats are compared from a config.json.
  const auto compared = test::run_cli("local '" + gguf + "' --gpu rtx-4090 --ram-gib 16 --compare-formats");
  CHECK(compared.exit_status == 2);
  CHECK(compared.err.find("--compare-formats") != std::string::npos);
  CHECK(compared.err.find("config.json") != std::string::npos);
}

TEST_CASE("fitcheck params reads a GGUF, a safetensors file and an index from disk") {
  const TempDir directory;
  const std::string gguf = directory.file("tiny.gguf");
  // The header and some stand-in tensor data; only the header is read.
  write_file(gguf, tiny_llama().bytes() + std::string(4096, '\0'));
  const auto table = test::run_cli("params '" + gguf + "'");
  REQUIRE(table.exit_status == 0);
  CHECK(table.out.find("format: gguf v3  architecture: llama  name: tiny") != std::string::npos);
  CHECK(table.out.find("977,408") != std::string::npos);
  CHECK(table.out.find("601,216") != std::string::npos);
  CHECK(table.out.find("Q4_K") != std::string::npos);
  CHECK(table.out.find("MOSTLY_Q4_K_M") != std::string::npos);
  const auto json = test::run_cli("params '" + gguf + "' --json");
  REQUIRE(json.exit_status == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["total_bytes"].get<std::int64_t>() == kTinyBytes);

  // Named by content, not extension.
  const std::string safetensors = directory.file("weights.bin");
  write_file(safetensors, safetensors_file(kMixedHeader, std::string(187, '\0')));
  const auto st = test::run_cli("params '" + safetensors + "' --json");
  REQUIRE(st.exit_status == 0);
  CHECK(nlohmann::json::parse(st.out)["total_bytes"] == 187);

  const std::string index = directory.file("model.safetensors.index.json");
  write_file(index, R"({"metadata": {"total_size": 1000}, "weight_map": {"a": "s1.safetensors"}})");
  const auto ix = test::run_cli("params '" + index + "'");
  REQUIRE(ix.exit_status == 0);
  CHECK(ix.out.find("tensors: 1 in 1 shards") != std::string::npos);

  // A file cut inside its header: an error with the offset, exit status 2.
  const std::string cut = directory.file("cut.gguf");
  write_file(cut, tiny_llama().bytes().substr(0, 300));
  const auto bad = test::run_cli("params '" + cut + "'");
  CHECK(bad.exit_status == 2);
  CHECK(bad.err.find("fitcheck: error: offset ") == 0);
  CHECK(bad.err.find("runs past the end of the file (300 bytes)") != std::string::npos);
}

namespace {
// The state-space keys of a hybrid's header (llama-arch.cpp LLM_KV_SSM_*) under `arch`.
GgufWriter& ssm_keys(GgufWriter& w, const std::string& arch, std::uint32_t conv_kernel, std::uint32_t inner,
                     std::uint32_t state, std::uint32_t groups) {
  return w.kv_u32(arch + ".ssm.conv_kernel", conv_kernel)
      .kv_u32(arch + ".ssm.inner_size", inner)
      .kv_u32(arch + ".ssm.state_size", state)
      .kv_u32(arch + ".ssm.group_count", groups);
}
}  // namespace

TEST_CASE("GGUF header: a hybrid's per-layer KV heads and state-space keys make its recurrent layers") {
  // nemotron_h: head_count_kv per layer, 0 for a Mamba-2 layer (llama.cpp marks those recurrent).
  // ssm: conv kernel 4, inner 1024 (16 heads x 64), state 128, 8 groups: r = 3 x (1024 + 2 x 8 x 128)
  // = 9,216 values, s = 128 x 1024 = 131,072 values a cell.
  GgufWriter w;
  w.kv_string("general.architecture", "nemotron_h")
      .kv_u32("nemotron_h.block_count", 4)
      .kv_u32("nemotron_h.embedding_length", 512)
      .kv_u32("nemotron_h.attention.head_count", 8)
      .kv_u32s("nemotron_h.attention.head_count_kv", {0, 2, 0, 0})
      .kv_u32("nemotron_h.attention.key_length", 64);
  ssm_keys(w, "nemotron_h", 4, 1024, 128, 8);
  const CheckpointSummary s = read_whole(w.bytes());
  CHECK(s.hyperparameters.head_count_kv_per_layer == std::vector<std::int64_t>{0, 2, 0, 0});
  CHECK(s.notes.empty());  // the per-layer array is read, not noted
  const std::string report = checkpoint_report_json(s);
  CHECK(report.find(R"("ssm.state_size":128)") != std::string::npos);
  CHECK(report.find(R"("attention.head_count_kv_per_layer":[0,2,0,0])") != std::string::npos);
  const LocalModel m = local_model_from_gguf(s);
  REQUIRE(m.layers.size() == 4);
  CHECK(m.layers[0].recurrent_conv_values == 9'216);
  CHECK(m.layers[0].recurrent_state_values == 131'072);
  CHECK(m.layers[0].kv_key_width == 0);
  CHECK(m.layers[1].recurrent_state_values == 0);
  CHECK(m.layers[1].kv_key_width == 2 * 64);
  CHECK(m.layers[3].recurrent_conv_values == 9'216);

  // qwen3next: every 4th layer attends (full_attention_interval), the others run the Gated DeltaNet.
  GgufWriter q;
  q.kv_string("general.architecture", "qwen3next")
      .kv_u32("qwen3next.block_count", 8)
      .kv_u32("qwen3next.embedding_length", 2048)
      .kv_u32("qwen3next.attention.head_count", 16)
      .kv_u32("qwen3next.attention.head_count_kv", 2)
      .kv_u32("qwen3next.attention.key_length", 256)
      .kv_u32("qwen3next.full_attention_interval", 4);
  ssm_keys(q, "qwen3next", 4, 4096, 128, 16);
  const LocalModel next = local_model_from_gguf(read_whole(q.bytes()));
  for (std::size_t il = 0; il < 8; ++il) {
    const bool attends = (il + 1) % 4 == 0;
    CHECK(next.layers[il].recurrent_conv_values == (attends ? 0 : 24'576));  // 3 x (4096 + 2 x 16 x 128)
    CHECK(next.layers[il].recurrent_state_values == (attends ? 0 : 524'288));
    CHECK(next.layers[il].kv_key_width == (attends ? 512 : 0));
  }

  // mamba2: no attention (head_count 0), every layer recurrent.
  GgufWriter m2;
  m2.kv_string("general.architecture", "mamba2")
      .kv_u32("mamba2.block_count", 2)
      .kv_u32("mamba2.embedding_length", 512)
      .kv_u32("mamba2.attention.head_count", 0);
  ssm_keys(m2, "mamba2", 4, 1024, 128, 8);
  const LocalModel mamba2 = local_model_from_gguf(read_whole(m2.bytes()));
  CHECK(mamba2.layers[1].recurrent_state_values == 131'072);
  CHECK(mamba2.layers[1].kv_key_width == 0);
  // A transformer's header with no heads is still refused.
  GgufWriter bad;
  bad.kv_string("general.architecture", "llama")
      .kv_u32("llama.block_count", 2)
      .kv_u32("llama.embedding_length", 64)
      .kv_u32("llama.attention.head_count", 0);
  CHECK_THROWS_WITH_AS(local_model_from_gguf(read_whole(bad.bytes())), doctest::Contains("attention.head_count"),
                       std::invalid_argument);
}
