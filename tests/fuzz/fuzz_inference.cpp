// SPDX-License-Identifier: MIT
// The inference estimate with fuzzed workloads: inference_report_json(config, options), options
// taken from the input's head (see fuzz_support.hpp). A refusal names its field or option; a
// report holds only finite, exact, non-negative figures whose terms add up to the total.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  const auto report = fuzz::report_unless_refused(
      "inference_report_json", [&] { return inference_report_json(input.config, input.options); }, input, text,
      /*strict_options=*/true);
  if (!report) return 0;
  const auto& parsed = *report;
  fuzz::check_terms_add_up(parsed, "total_bytes_per_gpu", text);
  if (parsed["kv_cache_bytes"].get<std::int64_t>() > parsed["total_bytes_per_gpu"].get<std::int64_t>())
    fuzz::fail("KV cache larger than the total", text);
  return 0;
}
