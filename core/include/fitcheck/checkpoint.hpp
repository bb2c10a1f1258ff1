// SPDX-License-Identifier: MIT
// Sizing a model from its weight file's header alone: GGUF (llama.cpp) and safetensors (Hugging
// Face), and the sharded checkpoint's model.safetensors.index.json. Bytes in, structs out: no I/O.
// The caller reads the first bytes of the file; a GGUF header's length is not stored, so the parser
// answers "need more bytes" until the prefix holds the whole header (docs/model-files.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fitcheck {

// A header that cannot be read: truncated at the end of the file, corrupt, or over a limit.
// offset(): the byte in the file where the offending field starts; field(): what it is
// ("metadata key 3 length", "tensor 'blk.0.attn_q.weight' type"). what() carries both.
class CheckpointError : public std::runtime_error {
 public:
  CheckpointError(std::uint64_t offset, std::string field, const std::string& problem);
  std::uint64_t offset() const { return offset_; }
  const std::string& field() const { return field_; }

 private:
  std::uint64_t offset_;
  std::string field_;
};

enum class CheckpointFormat : std::uint8_t { gguf, safetensors, safetensors_index };
const char* checkpoint_format_name(CheckpointFormat format);  // "gguf", "safetensors", "safetensors_index"

// One ggml tensor type: values are stored in blocks of block_elements taking block_bytes each.
// Source: llama.cpp gguf-py/gguf/constants.py GGML_QUANT_SIZES (and ggml.c type_traits).
struct GgmlTypeTraits {
  std::uint32_t id = 0;  // ggml_type as stored in the file
  const char* name = "";
  std::int64_t block_elements = 0;
  std::int64_t block_bytes = 0;
};
// The traits of ggml type `id`, or nullptr for an id no ggml release assigns (4, 5, 31..33, ...).
const GgmlTypeTraits* ggml_type_traits(std::uint32_t id);

// One tensor as its header describes it.
struct CheckpointTensor {
  std::string name;
  std::string type;                 // "Q4_K", "F32" (GGUF); "BF16", "F8_E4M3" (safetensors); "" in an index
  std::vector<std::int64_t> shape;  // as stored: GGUF lists ne[0] (the row length) first
  std::int64_t elements = 0;        // product of shape (1 for a scalar)
  std::int64_t bytes = 0;           // exact size of the data: whole blocks (GGUF), elements x width
  std::uint64_t data_offset = 0;    // GGUF: from the start of the tensor data; safetensors: begin
  std::string shard;                // index only: the file that holds the tensor
};

// Tensors of one type, and their elements and bytes.
struct CheckpointTypeTotal {
  std::string type;
  std::int64_t tensors = 0;
  std::int64_t elements = 0;
  std::int64_t bytes = 0;
};

// The hyperparameters GGUF stores under "<architecture>.<name>" (llama.cpp gguf-py constants.py,
// Keys.LLM and Keys.Attention); absent when the file does not say.
struct GgufHyperparameters {
  std::optional<std::int64_t> block_count;          // <arch>.block_count: transformer layers
  std::optional<std::int64_t> context_length;       // <arch>.context_length: tokens trained on
  std::optional<std::int64_t> embedding_length;     // <arch>.embedding_length: hidden size
  std::optional<std::int64_t> feed_forward_length;  // <arch>.feed_forward_length: MLP width
  std::optional<std::int64_t> head_count;           // <arch>.attention.head_count
  std::optional<std::int64_t> head_count_kv;        // <arch>.attention.head_count_kv
  std::optional<std::int64_t> key_length;           // <arch>.attention.key_length: K head size
  std::optional<std::int64_t> value_length;         // <arch>.attention.value_length: V head size
  std::optional<std::int64_t> expert_count;         // <arch>.expert_count
  std::optional<std::int64_t> expert_used_count;    // <arch>.expert_used_count
  std::optional<std::int64_t> vocab_size;           // <arch>.vocab_size, else tokenizer.ggml.tokens' length
  std::optional<std::int64_t> file_type;            // general.file_type (llama_ftype)
  // <arch>.attention.head_count_kv when the file stores one per layer (hybrids: 0 for a recurrent layer).
  std::vector<std::int64_t> head_count_kv_per_layer;
  // State-space and linear-attention mixers (llama.cpp llama-arch.cpp LLM_KV_SSM_*, LLM_KV_SHORTCONV_L_CACHE,
  // LLM_KV_FULL_ATTENTION_INTERVAL).
  std::optional<std::int64_t> ssm_conv_kernel;          // <arch>.ssm.conv_kernel
  std::optional<std::int64_t> ssm_inner_size;           // <arch>.ssm.inner_size
  std::optional<std::int64_t> ssm_state_size;           // <arch>.ssm.state_size
  std::optional<std::int64_t> ssm_group_count;          // <arch>.ssm.group_count
  std::optional<std::int64_t> shortconv_l_cache;        // <arch>.shortconv.l_cache (LFM2)
  std::optional<std::int64_t> full_attention_interval;  // <arch>.full_attention_interval (Qwen3-Next, Qwen3.5)
};
// llama_ftype's name ("MOSTLY_Q4_K_M") for general.file_type, or "" when unknown.
const char* gguf_file_type_name(std::int64_t file_type);

// What a header says about the model.
struct CheckpointSummary {
  CheckpointFormat format = CheckpointFormat::gguf;
  std::uint32_t gguf_version = 0;                             // 2 or 3 (GGUF only)
  std::string architecture;                                   // general.architecture (GGUF)
  std::string name;                                           // general.name (GGUF)
  GgufHyperparameters hyperparameters;                        // GGUF only
  std::int64_t metadata_count = 0;                            // GGUF key/values; safetensors __metadata__ entries
  std::vector<std::pair<std::string, std::string>> metadata;  // safetensors __metadata__, index "metadata" strings
  std::uint64_t alignment_bytes = 0;                          // GGUF general.alignment (32 when absent)
  std::uint64_t header_bytes = 0;       // bytes from the start of the file to the end of the tensor table
  std::uint64_t data_offset_bytes = 0;  // where tensor data starts in the file (header padded to alignment)
  std::vector<CheckpointTensor> tensors;
  std::vector<CheckpointTypeTotal> by_type;  // in order of first appearance
  bool shapes_known = true;                  // false for an index: it names tensors, not shapes
  std::int64_t total_parameters = 0;         // sum of elements (0 for an index)
  std::int64_t total_bytes = 0;              // sum of tensor bytes; an index's metadata.total_size
  std::vector<std::string> shards;           // index only: files named in weight_map, in first-seen order
  std::vector<std::string> notes;            // what the reader saw but does not turn into a number
};

// The answer for a prefix of a file: either the summary, or how many bytes the prefix must at least
// hold before the header can be read further (read that many, or more, and call again).
struct CheckpointRead {
  bool complete = false;
  std::uint64_t bytes_needed = 0;  // when !complete: a lower bound on the prefix length, > bytes.size()
  std::string needed_for;          // when !complete: the field that runs past the prefix
  CheckpointSummary summary;       // when complete
};

// GGUF v2/v3 (ggml-org/ggml docs/gguf.md). `bytes` is the start of the file; file_size_bytes, when
// known (non-zero), turns a field running past the end of the file into a CheckpointError instead
// of a request for more bytes. Throws CheckpointError with the offset and field on a corrupt header.
CheckpointRead parse_gguf_header(std::span<const std::byte> bytes, std::uint64_t file_size_bytes = 0);

// safetensors: an 8-byte little-endian header length N, then N bytes of JSON
// {name: {dtype, shape, data_offsets}, "__metadata__": {...}} (huggingface/safetensors README).
CheckpointRead parse_safetensors_header(std::span<const std::byte> bytes, std::uint64_t file_size_bytes = 0);

// model.safetensors.index.json: {"metadata": {"total_size": N}, "weight_map": {tensor: shard}}.
// Tensor names and shards only; total_bytes is metadata.total_size (0 when absent).
CheckpointSummary parse_safetensors_index(std::string_view json_text);

// Which of the formats a file's first bytes are: GGUF magic, or a safetensors length followed by
// '{'. std::nullopt for anything else (a config.json, an index: those are JSON text).
std::optional<CheckpointFormat> sniff_checkpoint_format(std::span<const std::byte> first_bytes);

// The summary as JSON (keys in docs/model-files.md): format, architecture, total_parameters,
// total_bytes, by_type, hyperparameters, tensors, notes ...
std::string checkpoint_report_json(const CheckpointSummary& summary);

// One call for a page reading a dropped file in growing slices: the format from the first bytes
// (GGUF, safetensors; otherwise an index, which is JSON text and is read whole), then either
// checkpoint_report_json of the whole header, or {"complete": false, "bytes_needed": N,
// "needed_for": FIELD} when `prefix` is too short. file_size_bytes: the whole file's size.
std::string checkpoint_read_json(std::span<const std::byte> prefix, std::uint64_t file_size_bytes);

}  // namespace fitcheck
