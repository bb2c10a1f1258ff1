// SPDX-License-Identifier: MIT
// Memory over one workload setting (context length or batch size), every other option as given:
// the page's charts of memory against context and batch in one call, not one report per point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

enum class SweepAxis { context, batch };

struct InferenceSweepPoint {
  std::int64_t value = 0;
  InferenceMemoryTotals totals;  // inference_memory()'s totals at this value
};

// A value the request refuses (e.g. a context beyond what the layout allows): left out of the points.
struct InferenceSweepRefusal {
  std::int64_t value = 0;
  std::string option;  // the option the refusal names
  std::string message;
};

struct InferenceSweep {
  SweepAxis axis = SweepAxis::context;
  std::vector<InferenceSweepPoint> points;  // in the order of the values asked
  std::vector<InferenceSweepRefusal> refused;
};

// Each value is the estimate of `options` with the axis' key (context or batch) set to it, without
// a GPU (the memory terms only, no capacity searches); a context point also drops prompt_len and
// gen_len, so that it sets the sequence length alone. The model is read once.
InferenceSweep sweep_inference_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                      const OptionList& options, SweepAxis axis,
                                      const std::vector<std::int64_t>& values);

// Options 'sweep' (context or batch) and 'sweep_values' (comma-separated counts, at most
// kMaxSweepValues) choose the axis and values; the other options are the estimate's. parse_hf_config
// refusals throw ConfigError; a bad sweep or sweep_values, OptionError naming it.
inline constexpr std::size_t kMaxSweepValues = 64;
InferenceSweep sweep_inference_memory(std::string_view config_json_text, const OptionList& options);

}  // namespace fitcheck
