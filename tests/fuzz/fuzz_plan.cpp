// SPDX-License-Identifier: MIT
// The serving planner with fuzzed requests: plan_report_json(config, options), options taken from
// the input's head (see fuzz_support.hpp). A refusal names its field or option; a plan holds
// finite, exact numbers only.
#include <cstddef>
#include <cstdint>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  const auto report = fuzz::report_unless_refused(
      "plan_report_json", [&] { return plan_report_json(input.config, input.options); }, input, text);
  if (!report) return 0;
  const nlohmann::json& parsed = *report;
  if (parsed["feasible"].get<std::int64_t>() > parsed["evaluated"].get<std::int64_t>()) fuzz::fail("more feasible plans than evaluated", text);
  return 0;
}
