// SPDX-License-Identifier: MIT
// The serving simulation with fuzzed options: serving_report_json(config, options), options taken
// from the input's head (see fuzz_support.hpp). A refusal names its option or config field; a
// report holds only finite, non-negative figures, ordered percentiles and every request finished.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/serving.hpp"
#include "fuzz_support.hpp"

namespace {

// The option's value as a number (the last one given wins, as in OptionReader), or `fallback`.
double option_number(const fitcheck::OptionList& options, const char* key, double fallback) {
  double value = fallback;
  for (const auto& [name, text] : options)
    if (name == key) value = std::strtod(text.c_str(), nullptr);
  return std::isfinite(value) ? std::abs(value) : fallback;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  // The simulation may step up to 2^28 output tokens (seconds natively, minutes under the
  // sanitizers): keep each input to about 2 x 10^5 sequence-steps, prefill chunks included.
  const double requests = option_number(input.options, "requests", 1000);
  const double spread = 1 + 6 * option_number(input.options, "gen_spread", 0);
  const double prompt_spread = 1 + 6 * option_number(input.options, "prompt_spread", 0);
  const double budget = std::max(1.0, option_number(input.options, "max_num_batched_tokens", 2048));
  // A trace's own lengths: its output tokens in all (repeated up to the requests given), its longest prompt.
  double trace_output = 0, trace_prompt = 0;
  for (const auto& [name, value] : input.options) {
    if (name != "request_lengths") continue;
    try {
      const auto trace = fitcheck::parse_request_lengths(value);
      for (const auto& lengths : trace) {
        trace_output += static_cast<double>(lengths.output);
        trace_prompt += static_cast<double>(lengths.prompt);
      }
      const double repeats = std::max(1.0, requests / static_cast<double>(trace.size()));
      trace_output *= repeats;
      trace_prompt *= repeats;
    } catch (const fitcheck::OptionError&) {
    }
  }
  if (trace_output > 2e5 || trace_prompt / option_number(input.options, "max_num_batched_tokens", 2048) > 2e5) return 0;
  if (requests * option_number(input.options, "gen_len", 128) * spread > 2e5 ||
      requests * option_number(input.options, "prompt_len", 512) * prompt_spread / budget > 2e5)
    return 0;
  const auto report = fuzz::report_unless_refused(
      "serving_report_json", [&] { return serving_report_json(input.config, input.options); }, input, text,
      /*strict_options=*/true);
  if (!report) return 0;
  const auto& r = *report;
  for (const char* figure : {"ttft", "tpot"}) {
    const std::string key = std::string(figure) + "_seconds_p";
    if (!(r[key + "50"].get<double>() <= r[key + "90"].get<double>() &&
          r[key + "90"].get<double>() <= r[key + "95"].get<double>() &&
          r[key + "95"].get<double>() <= r[key + "99"].get<double>()))
      fuzz::fail(std::string(figure) + " percentiles out of order", text);
  }
  if (r["requests"] != r["load"]["requests"]) fuzz::fail("not every request finished", text);
  if (!(r["output_tokens_per_second"].get<double>() > 0)) fuzz::fail("no output tokens per second", text);
  if (r["peak_kv_blocks_used"].get<std::int64_t>() > r["scheduler"]["kv_capacity_blocks"].get<std::int64_t>())
    fuzz::fail("more KV blocks used than the cache holds", text);
  return 0;
}
