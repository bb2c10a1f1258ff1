// SPDX-License-Identifier: MIT
// A weight file's header summary as JSON: the same document for `fitcheck params FILE --json` and
// the page. Keys are listed in docs/model-files.md.
#include <algorithm>

#include "fitcheck/checkpoint.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

void optional_field(detail::JsonWriter& out, std::string_view key, const std::optional<std::int64_t>& value) {
  if (value)
    out.field(key, *value);
  else
    out.field(key, nullptr);
}

void write_hyperparameters(detail::JsonWriter& out, const GgufHyperparameters& h) {
  out.begin_object("hyperparameters");
  optional_field(out, "block_count", h.block_count);
  optional_field(out, "context_length", h.context_length);
  optional_field(out, "embedding_length", h.embedding_length);
  optional_field(out, "feed_forward_length", h.feed_forward_length);
  optional_field(out, "attention.head_count", h.head_count);
  optional_field(out, "attention.head_count_kv", h.head_count_kv);
  optional_field(out, "attention.key_length", h.key_length);
  optional_field(out, "attention.value_length", h.value_length);
  optional_field(out, "expert_count", h.expert_count);
  optional_field(out, "expert_used_count", h.expert_used_count);
  optional_field(out, "vocab_size", h.vocab_size);
  optional_field(out, "file_type", h.file_type);
  out.field("file_type_name", h.file_type ? gguf_file_type_name(*h.file_type) : "");
  // State-space keys only where the file has them (hybrid and state-space models).
  const std::pair<const char*, const std::optional<std::int64_t>*> ssm_keys[] = {
      {"ssm.conv_kernel", &h.ssm_conv_kernel},     {"ssm.inner_size", &h.ssm_inner_size},
      {"ssm.state_size", &h.ssm_state_size},       {"ssm.group_count", &h.ssm_group_count},
      {"shortconv.l_cache", &h.shortconv_l_cache}, {"full_attention_interval", &h.full_attention_interval}};
  for (const auto& [key, value] : ssm_keys)
    if (value->has_value()) out.field(key, **value);
  if (!h.head_count_kv_per_layer.empty()) out.field("attention.head_count_kv_per_layer", h.head_count_kv_per_layer);
  out.end_object();
}

}  // namespace

std::string checkpoint_report_json(const CheckpointSummary& summary) {
  detail::JsonWriter out;
  out.begin_object();
  out.field("format", checkpoint_format_name(summary.format));
  if (summary.format == CheckpointFormat::gguf) out.field("gguf_version", summary.gguf_version);
  out.field("architecture", summary.architecture);
  out.field("name", summary.name);
  out.field("shapes_known", summary.shapes_known);
  out.field("tensor_count", static_cast<std::int64_t>(summary.tensors.size()));
  out.field("total_parameters", summary.total_parameters);
  out.field("total_bytes", summary.total_bytes);
  out.field("header_bytes", summary.header_bytes);
  out.field("data_offset_bytes", summary.data_offset_bytes);
  if (summary.format == CheckpointFormat::gguf) {
    out.field("alignment_bytes", summary.alignment_bytes);
    write_hyperparameters(out, summary.hyperparameters);
  }
  out.field("metadata_count", summary.metadata_count);
  out.begin_object("metadata");
  for (const auto& [key, value] : summary.metadata) out.field(key, value);
  out.end_object();
  out.begin_array("by_type");
  for (const CheckpointTypeTotal& row : summary.by_type) {
    out.begin_object();
    out.field("type", row.type);
    out.field("tensors", row.tensors);
    out.field("elements", row.elements);
    out.field("bytes", row.bytes);
    out.end_object();
  }
  out.end_array();
  if (summary.format == CheckpointFormat::safetensors_index) out.field("shards", summary.shards);
  out.begin_array("tensors");
  for (const CheckpointTensor& tensor : summary.tensors) {
    out.begin_object();
    out.field("name", tensor.name);
    if (summary.shapes_known) {
      out.field("type", tensor.type);
      out.field("shape", tensor.shape);
      out.field("elements", tensor.elements);
      out.field("bytes", tensor.bytes);
      out.field("data_offset", tensor.data_offset);
    } else {
      out.field("shard", tensor.shard);
    }
    out.end_object();
  }
  out.end_array();
  out.field("notes", summary.notes);
  out.end_object();
  return out.take();
}

std::string checkpoint_read_json(std::span<const std::byte> prefix, std::uint64_t file_size_bytes) {
  // An index is a few hundred KB of JSON; past this a file that is neither GGUF nor safetensors
  // is not one of the three.
  constexpr std::uint64_t kMaxIndexBytes = 64u << 20;
  const auto need = [](std::uint64_t bytes_needed, std::string_view field) {
    detail::JsonWriter out;
    out.begin_object();
    out.field("complete", false);
    out.field("bytes_needed", bytes_needed);
    out.field("needed_for", field);
    out.end_object();
    return out.take();
  };
  const auto format = sniff_checkpoint_format(prefix.first(std::min<std::size_t>(prefix.size(), 16)));
  if (!format) {
    if (prefix.size() < 16 && prefix.size() < file_size_bytes)
      return need(std::min<std::uint64_t>(16, file_size_bytes), "magic");
    if (file_size_bytes > kMaxIndexBytes)
      throw CheckpointError(0, "magic",
                            "is neither \"GGUF\" nor a safetensors header, and the file is too large for an index");
    if (prefix.size() < file_size_bytes) return need(file_size_bytes, "index JSON");
    const std::string_view text(reinterpret_cast<const char*>(prefix.data()), prefix.size());
    return checkpoint_report_json(parse_safetensors_index(text));
  }
  const CheckpointRead read = *format == CheckpointFormat::gguf ? parse_gguf_header(prefix, file_size_bytes)
                                                                : parse_safetensors_header(prefix, file_size_bytes);
  if (!read.complete) return need(read.bytes_needed, read.needed_for);
  return checkpoint_report_json(read.summary);
}

}  // namespace fitcheck
