// SPDX-License-Identifier: MIT
#include "fitcheck/inference_sweep.hpp"

#include <limits>
#include <optional>
#include <stdexcept>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"

namespace fitcheck {

namespace {

// `options` without the keys `drop` names.
OptionList without(const OptionList& options, bool (*drop)(const std::string&)) {
  OptionList kept;
  for (const auto& option : options)
    if (!drop(option.first)) kept.push_back(option);
  return kept;
}

// The GPU and the custom accelerator's keys (refused without gpu=custom).
bool is_gpu_key(const std::string& name) {
  for (const char* custom : kCustomGpuKeys)
    if (name == custom) return true;
  return name == "gpu";
}

bool is_length_key(const std::string& name) { return name == "prompt_len" || name == "gen_len"; }
bool is_context_key(const std::string& name) { return name == "context"; }
bool is_batch_key(const std::string& name) { return name == "batch"; }

}  // namespace

InferenceSweep sweep_inference_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                      const OptionList& options, SweepAxis axis,
                                      const std::vector<std::int64_t>& values) {
  InferenceSweep sweep;
  sweep.axis = axis;
  const char* key = axis == SweepAxis::context ? "context" : "batch";
  // Without a GPU: the memory terms are the same and the capacity searches are skipped.
  OptionList base = without(options, is_gpu_key);
  if (axis == SweepAxis::context) base = without(without(base, is_length_key), is_context_key);
  if (axis == SweepAxis::batch) base = without(base, is_batch_key);
  base.emplace_back(key, "");  // set to each value in turn
  for (const std::int64_t value : values) {
    try {
      base.back().second = std::to_string(value);
      const InferenceRequest request = parse_inference_options(base);
      const InferenceEstimate estimate = estimate_inference_without_fit_changes(model, tensors, request);
      sweep.points.push_back({value, estimate.memory.totals});
    } catch (const OptionError& error) {
      sweep.refused.push_back({value, error.option(), error.what()});
    } catch (const std::invalid_argument& error) {
      sweep.refused.push_back({value, key, error.what()});
    } catch (const std::overflow_error& error) {  // batch x context past 2^63 bytes
      sweep.refused.push_back({value, key, error.what()});
    }
  }
  return sweep;
}

InferenceSweep sweep_inference_memory(std::string_view config_json_text, const OptionList& options) {
  OptionList rest;
  std::optional<std::string> axis_text, values_text;
  for (const auto& [key, value] : options) {
    if (key == "sweep")
      axis_text = value;
    else if (key == "sweep_values")
      values_text = value;
    else
      rest.emplace_back(key, value);
  }
  if (!axis_text || (*axis_text != "context" && *axis_text != "batch"))
    throw OptionError("sweep", "option 'sweep' must be context or batch");
  const std::vector<std::string> items = split_option_list(values_text.value_or(""));
  if (items.empty() || items.size() > kMaxSweepValues)
    throw OptionError("sweep_values", "option 'sweep_values' must list 1 to " + std::to_string(kMaxSweepValues) +
                                          " comma-separated counts");
  std::vector<std::int64_t> values;
  for (const std::string& item : items)
    values.push_back(option_list_count("sweep_values", item, 1, std::numeric_limits<std::int64_t>::max()));
  // Options are read before the config, as estimate_inference() does, so the first refusal is the same.
  parse_inference_options(rest);
  const ModelDescription model = parse_hf_config(config_json_text);
  return sweep_inference_memory(model, weight_tensors(model), rest,
                                *axis_text == "context" ? SweepAxis::context : SweepAxis::batch, values);
}

}  // namespace fitcheck
