// SPDX-License-Identifier: MIT
// The serving planner with fuzzed requests: plan_report_json(config, options), options taken from
// the input's head (see fuzz_support.hpp). A refusal names its field or option; a plan holds
// finite, exact numbers only (a tiny custom rate is refused, never infinite), each list option's
// items once and each layout once.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

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
  if (parsed["feasible"].get<std::int64_t>() > parsed["evaluated"].get<std::int64_t>())
    fuzz::fail("more feasible plans than evaluated", text);
  // Every list option keeps each item once (GPU kinds by catalog id), so no layout is listed twice.
  for (const char* list : {"gpus", "weights", "kv_dtypes", "batches"})
    if (fuzz::has_duplicates(parsed["request"][list]))
      fuzz::fail(std::string("the request's ") + list + " repeat an item", text);
  const auto layout = [](const nlohmann::json& c) {
    return std::make_tuple(c["gpu"].get<std::string>(), c["gpus"].get<std::int64_t>(), c["tp"].get<std::int64_t>(),
                           c["pp"].get<std::int64_t>(), c["ep"].get<std::int64_t>(), c["weights"].get<std::string>(),
                           c["kv_dtype"].get<std::string>(), c["batch"].get<std::int64_t>());
  };
  std::vector<decltype(layout(parsed["best"][0]))> seen;
  for (const auto& c : parsed["best"]) seen.push_back(layout(c));
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) fuzz::fail("a layout is listed twice", text);
  return 0;
}
