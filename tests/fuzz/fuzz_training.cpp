// SPDX-License-Identifier: MIT
// The training estimate with fuzzed workloads: training_report_json(config, options), options
// taken from the input's head (see fuzz_support.hpp). Same rules as the inference target.
#include <cstddef>
#include <cstdint>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  const auto report = fuzz::report_unless_refused(
      "training_report_json", [&] { return training_report_json(input.config, input.options); }, input, text);
  if (!report) return 0;
  const nlohmann::json& parsed = *report;
  fuzz::check_terms_add_up(parsed, "total_bytes_per_gpu", text);
  return 0;
}
