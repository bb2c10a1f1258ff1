// SPDX-License-Identifier: MIT
// Workload options as text key/value pairs, shared by the CLI (--kv-dtype fp8) and the page
// ({kv_dtype: "fp8"}), so both accept, default and refuse exactly the same inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"

namespace fitcheck {

// An option that cannot be used; `option` names it (as the page spells it, e.g. "kv_dtype").
class OptionError : public std::invalid_argument {
 public:
  OptionError(std::string option, const std::string& message)
      : std::invalid_argument(message), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

using OptionList = std::vector<std::pair<std::string, std::string>>;

// Typed reads of one option list. Every key must be consumed by the request parser: an unknown
// key is an error (a typo must not silently fall back to a default).
class OptionReader {
 public:
  explicit OptionReader(const OptionList& options);
  std::optional<std::string> text(const char* key);
  std::int64_t count(const char* key, std::int64_t fallback, std::int64_t minimum, std::int64_t maximum);
  double number(const char* key, double fallback, double minimum, double maximum);
  bool flag(const char* key, bool fallback);
  // Throws OptionError for any key never read.
  void finish() const;

 private:
  const OptionList& options_;
  std::vector<bool> used_;
  const std::string* find(const char* key);
};

struct InferenceRequest {
  InferenceWorkload workload;
  const Accelerator* gpu = nullptr;  // nullptr: no GPU chosen, capacity answers are skipped
  bool weight_format_given = false;  // false: use the checkpoint's own format (native_weight_format)
  std::vector<std::string> defaults_used;  // options left at their default, for the report
};

// Keys: weights, kv_dtype, batch, context, prefill_chunk, kv_block, tp, pp, ep, gpu,
// gpu_memory_utilization, overhead_gib, eager_attention, logits_all_positions.
InferenceRequest parse_inference_options(const OptionList& options);

}  // namespace fitcheck
