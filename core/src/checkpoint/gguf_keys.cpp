// SPDX-License-Identifier: MIT
// What a GGUF header's keys mean: the hyperparameters under "<arch>." (llama.cpp gguf-py constants.py
// Keys.LLM, Keys.Attention, Keys.SSM; src/llama-arch.cpp LLM_KV_NAMES), kept by gguf_header.cpp's pass.
#include <algorithm>
#include <optional>
#include <string>

#include "checkpoint/checkpoint_internal.hpp"
#include "checkpoint/gguf_keys.hpp"

namespace fitcheck::detail {

bool per_layer_key(std::string_view key) { return key.ends_with(".attention.head_count_kv"); }

namespace {

std::optional<std::int64_t> integer_of(const Captured& captured, std::string_view key) {
  for (const auto& [name, value] : captured.integers)
    if (name == key) return value;
  return std::nullopt;
}

std::optional<std::uint64_t> array_length_of(const Captured& captured, std::string_view key) {
  for (const auto& [name, length] : captured.array_lengths)
    if (name == key) return length;
  return std::nullopt;
}

}  // namespace

void resolve_hyperparameters(const Captured& captured, CheckpointSummary& summary) {
  const std::string prefix = summary.architecture + ".";
  GgufHyperparameters& h = summary.hyperparameters;
  const auto take = [&](std::optional<std::int64_t>& slot, const std::string& suffix) {
    const std::string key = prefix + suffix;
    slot = integer_of(captured, key);
    if (slot && (*slot < 0 || *slot > detail::kMaxExactInteger)) {
      summary.notes.push_back(detail::quoted(key) + " is " + std::to_string(*slot) + ", not a size; left out");
      slot.reset();
    }
    if (!slot) {
      const bool per_layer = std::any_of(captured.integer_arrays.begin(), captured.integer_arrays.end(),
                                         [&](const auto& entry) { return entry.first == key; });
      if (const auto length = array_length_of(captured, key); length && !per_layer)
        summary.notes.push_back(detail::quoted(key) + " is an array of " + detail::number_text(*length) +
                                " values (one per layer), not one number");
    }
  };
  take(h.block_count, "block_count");
  take(h.context_length, "context_length");
  take(h.embedding_length, "embedding_length");
  take(h.feed_forward_length, "feed_forward_length");
  take(h.head_count, "attention.head_count");
  take(h.head_count_kv, "attention.head_count_kv");
  take(h.key_length, "attention.key_length");
  take(h.value_length, "attention.value_length");
  take(h.expert_count, "expert_count");
  take(h.expert_used_count, "expert_used_count");
  take(h.vocab_size, "vocab_size");
  take(h.ssm_conv_kernel, "ssm.conv_kernel");
  take(h.ssm_inner_size, "ssm.inner_size");
  take(h.ssm_state_size, "ssm.state_size");
  take(h.ssm_group_count, "ssm.group_count");
  take(h.shortconv_l_cache, "shortconv.l_cache");
  take(h.full_attention_interval, "full_attention_interval");
  for (const auto& [key, values] : captured.integer_arrays)
    if (key == prefix + "attention.head_count_kv") {
      h.head_count_kv_per_layer = values;
      for (std::int64_t& v : h.head_count_kv_per_layer)
        if (v < 0 || v > detail::kMaxExactInteger) v = 0;
    }
  if (!h.vocab_size) {
    if (const auto tokens = array_length_of(captured, "tokenizer.ggml.tokens"))
      h.vocab_size = static_cast<std::int64_t>(*tokens);
  }
  h.file_type = integer_of(captured, "general.file_type");
  if (h.file_type && (*h.file_type < 0 || *h.file_type > detail::kMaxExactInteger)) h.file_type.reset();
  // gguf-split (llama.cpp tools/gguf-split): each shard holds its own tensors and says which it is.
  const auto split_count = integer_of(captured, "split.count");
  if (split_count && *split_count > 1) {
    const auto split_no = integer_of(captured, "split.no");
    const auto split_tensors = integer_of(captured, "split.tensors.count");
    summary.notes.push_back("this file is split " + (split_no ? std::to_string(*split_no + 1) : std::string("?")) +
                            " of " + std::to_string(*split_count) + " (gguf-split)" +
                            (split_tensors ? "; the model has " + std::to_string(*split_tensors) + " tensors" : "") +
                            "; the totals are this file's tensors only");
  }
}

}  // namespace fitcheck::detail
