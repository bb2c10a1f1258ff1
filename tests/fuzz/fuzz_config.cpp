// SPDX-License-Identifier: MIT
// Config parsing and parameter counting: parse_hf_config -> count_parameters -> weight_tensors ->
// parameter_report_json. Either a ConfigError naming the field, or a report that adds up.
#include <cstddef>
#include <cstdint>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ModelDescription model;
  try {
    model = parse_hf_config(text);
  } catch (const ConfigError& error) {
    fuzz::check_refusal(error.what(), error.field());
    return 0;
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parse_hf_config threw something other than ConfigError: ") + error.what(), text);
  }
  ParameterCount count;
  std::vector<WeightTensor> tensors;
  try {
    count = count_parameters(model);
    tensors = weight_tensors(model);
  } catch (const ConfigError& error) {
    fuzz::check_refusal(error.what(), error.field());
    return 0;
  } catch (const std::exception& error) {
    fuzz::fail(std::string("counting threw something other than ConfigError: ") + error.what(), text);
  }

  // The inventory is the count; the breakdown is the count; active never exceeds total.
  std::int64_t inventory = 0;
  for (const auto& tensor : tensors) {
    if (tensor.rows < 1 || tensor.columns < 1 || tensor.copies < 1) fuzz::fail("empty tensor in the inventory", text);
    inventory += tensor.parameters();
  }
  if (inventory != count.total) fuzz::fail("weight_tensors does not sum to count_parameters", text);
  const ParameterBreakdown& b = count.breakdown;
  if (b.embedding + b.attention + b.mlp + b.routed_experts + b.shared_experts + b.router + b.norms + b.lm_head +
          b.ssm !=
      count.total)
    fuzz::fail("breakdown does not sum to the total", text);
  if (count.active_per_token > count.total || count.active_per_token <= 0)
    fuzz::fail("active parameters outside (0, total]", text);

  std::string report;
  try {
    report = parameter_report_json(model, count);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parameter_report_json threw: ") + error.what(), text);
  }
  const auto parsed = fuzz::check_report(report);
  if (parsed["total_params"].get<std::int64_t>() != count.total)
    fuzz::fail("report total differs from the count", text);
  return 0;
}
