// SPDX-License-Identifier: MIT
#include "checkpoint_command.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "format.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

// The first read; a GGUF header without a big vocabulary fits in it.
constexpr std::size_t kFirstReadBytes = 1u << 20;

class File {
 public:
  explicit File(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    if (std::fseek(file_, 0, SEEK_END) != 0) throw std::runtime_error("cannot seek in '" + path + "'");
    const long end = std::ftell(file_);
    if (end < 0) throw std::runtime_error("cannot tell the size of '" + path + "'");
    size_ = static_cast<std::uint64_t>(end);
    std::rewind(file_);
  }
  ~File() { std::fclose(file_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  std::uint64_t size() const { return size_; }

  // Extends `prefix` to min(length, file size) bytes from the start of the file.
  void read_prefix(std::vector<std::byte>& prefix, std::uint64_t length) {
    length = std::min(length, size_);
    if (length <= prefix.size()) return;
    const std::size_t have = prefix.size();
    prefix.resize(static_cast<std::size_t>(length));
    if (std::fseek(file_, static_cast<long>(have), SEEK_SET) != 0 ||
        std::fread(prefix.data() + have, 1, prefix.size() - have, file_) != prefix.size() - have)
      throw std::runtime_error("cannot read '" + path_ + "'");
  }

 private:
  std::string path_;
  std::FILE* file_;
  std::uint64_t size_ = 0;
};

// Reads growing prefixes until `parse` has the whole header: the first read, then what the parser
// asks for or twice as much, whichever is more. The parser knows the file size, so a header that
// runs past the end is its error, and the loop ends.
template <typename Parse>
CheckpointSummary read_header(File& file, Parse parse) {
  std::vector<std::byte> prefix;
  file.read_prefix(prefix, kFirstReadBytes);
  for (;;) {
    CheckpointRead read = parse(std::span<const std::byte>(prefix), file.size());
    if (read.complete) return std::move(read.summary);
    if (prefix.size() >= file.size())
      throw std::runtime_error("the header needs " + std::to_string(read.bytes_needed) + " bytes (" + read.needed_for +
                               ") but the file has " + std::to_string(file.size()));
    file.read_prefix(prefix, std::max<std::uint64_t>(read.bytes_needed, 2 * prefix.size()));
  }
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void print_summary(const CheckpointSummary& s) {
  print("format: %s", checkpoint_format_name(s.format));
  if (s.format == CheckpointFormat::gguf) print(" v%u", s.gguf_version);
  if (!s.architecture.empty()) print("  architecture: %s", s.architecture);
  if (!s.name.empty()) print("  name: %s", s.name);
  print("\n");
  if (s.format == CheckpointFormat::safetensors_index) {
    print("tensors: %zu in %zu shards\n", s.tensors.size(), s.shards.size());
    if (s.total_bytes > 0)
      print("total_size: %s bytes = %s\n", with_thousands(s.total_bytes), gib_and_gb(s.total_bytes));
    for (const auto& shard : s.shards) print("  %s\n", shard);
  } else {
    print("tensors: %zu  header: %s bytes (tensor data from byte %s)\n", s.tensors.size(),
          with_thousands(static_cast<std::int64_t>(s.header_bytes)),
          with_thousands(static_cast<std::int64_t>(s.data_offset_bytes)));
    print("\n%-12s %8s %22s %12s %22s\n", "tensor type", "tensors", "parameters", "rounded", "bytes");
    const auto row = [](const std::string& type, std::int64_t tensors, std::int64_t elements, std::int64_t bytes) {
      print("  %-10s %8s %22s %12s %22s\n", type, with_thousands(tensors), with_thousands(elements),
            rounded_count(elements), with_thousands(bytes));
    };
    for (const CheckpointTypeTotal& t : s.by_type) row(t.type, t.tensors, t.elements, t.bytes);
    row("total", static_cast<std::int64_t>(s.tensors.size()), s.total_parameters, s.total_bytes);
    print("\nweights: %s bytes = %s", with_thousands(s.total_bytes), gib_and_gb(s.total_bytes));
    if (s.total_parameters > 0)
      print(", %.3f bits per parameter",
            8.0 * static_cast<double>(s.total_bytes) / static_cast<double>(s.total_parameters));
    print("\n");
  }
  if (s.format == CheckpointFormat::gguf) {
    const GgufHyperparameters& h = s.hyperparameters;
    print("\nhyperparameters (%s.*):\n", s.architecture.empty() ? std::string("?") : s.architecture);
    const auto line = [](const char* key, const std::optional<std::int64_t>& value) {
      if (value) print("  %-26s %s\n", key, with_thousands(*value));
    };
    line("block_count", h.block_count);
    line("context_length", h.context_length);
    line("embedding_length", h.embedding_length);
    line("feed_forward_length", h.feed_forward_length);
    line("attention.head_count", h.head_count);
    line("attention.head_count_kv", h.head_count_kv);
    line("expert_count", h.expert_count);
    line("expert_used_count", h.expert_used_count);
    line("vocab_size", h.vocab_size);
    if (h.file_type) {
      const char* name = gguf_file_type_name(*h.file_type);
      print("  %-26s %lld%s%s\n", "general.file_type", static_cast<long long>(*h.file_type), *name ? " " : "", name);
    }
  }
  if (!s.metadata.empty()) {
    print("\nmetadata:\n");
    for (const auto& [key, value] : s.metadata) print("  %s: %s\n", key, value);
  }
  for (const auto& note : s.notes) print("note: %s\n", note);
}

}  // namespace

std::optional<CheckpointFormat> checkpoint_format_of(const std::string& path) {
  if (path == "-") return std::nullopt;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return std::nullopt;  // read_input reports the path
  char head[4096];
  const std::size_t got = std::fread(head, 1, sizeof head, file);
  std::fclose(file);
  if (const auto format = sniff_checkpoint_format(std::as_bytes(std::span<const char>(head, got)))) return format;
  const std::string_view text(head, got);
  if (ends_with(path, ".index.json") || text.find("\"weight_map\"") != std::string_view::npos)
    return CheckpointFormat::safetensors_index;
  return std::nullopt;
}

CheckpointSummary read_checkpoint_header(const std::string& path, CheckpointFormat format) {
  File file(path);
  return format == CheckpointFormat::gguf ? read_header(file, parse_gguf_header)
                                          : read_header(file, parse_safetensors_header);
}

int run_params_checkpoint(const std::string& path, CheckpointFormat format, bool json) {
  CheckpointSummary summary;
  if (format == CheckpointFormat::safetensors_index) {
    summary = parse_safetensors_index(read_input(path));
  } else {
    summary = read_checkpoint_header(path, format);
  }
  if (json)
    print("%s\n", checkpoint_report_json(summary));
  else
    print_summary(summary);
  return 0;
}

}  // namespace fitcheck::cli
