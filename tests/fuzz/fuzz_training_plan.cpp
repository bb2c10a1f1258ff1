// SPDX-License-Identifier: MIT
// The training planner with fuzzed requests: training_plan_report_json(config, options), options
// taken from the input's head (see fuzz_support.hpp). A refusal is readable; a plan holds finite,
// exact numbers, and every layout it lists fits its budget, adds up to its GPU count and covers the
// global batch exactly (dp x micro-batch x micro-batches x sequence = global batch tokens).
#include <charconv>
#include <cstddef>
#include <cstdint>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fuzz_support.hpp"

namespace {

// The sweep grows with max_gpus (every dp up to it, for each tp, cp and pp): at 65,536 GPUs it
// takes seconds natively and past the per-input timeout under the sanitizers. Its correctness does
// not depend on the size, so larger counts are cut to this one (docs/reliability.md, "Known limits").
constexpr std::int64_t kMaxGpus = 256;

fitcheck::OptionList bounded(fitcheck::OptionList options) {
  for (auto& [key, value] : options) {
    std::int64_t gpus = 0;
    const auto parsed = std::from_chars(value.data(), value.data() + value.size(), gpus);
    if (key == "max_gpus" && parsed.ec == std::errc() && parsed.ptr == value.data() + value.size() && gpus > kMaxGpus)
      value = std::to_string(kMaxGpus);
  }
  return options;
}

void check_layouts(const nlohmann::json& layouts, const nlohmann::json& request, std::string_view text) {
  const auto global_batch = request["global_batch_tokens"].get<std::int64_t>();
  const auto sequence = request["seq_len"].get<std::int64_t>();
  const auto max_gpus = request["max_gpus"].get<std::int64_t>();
  for (const auto& layout : layouts) {
    const auto gpus = layout["gpus"].get<std::int64_t>();
    const auto dp = layout["dp"].get<std::int64_t>();
    if (layout["tp"].get<std::int64_t>() * layout["pp"].get<std::int64_t>() * layout["cp"].get<std::int64_t>() * dp !=
        gpus)
      fitcheck::fuzz::fail("a layout's tp x pp x cp x dp is not its GPU count", text);
    if (gpus > max_gpus) fitcheck::fuzz::fail("a layout uses more GPUs than max_gpus", text);
    if (layout["memory_bytes_per_gpu"].get<std::int64_t>() > layout["budget_bytes_per_gpu"].get<std::int64_t>())
      fitcheck::fuzz::fail("a listed layout does not fit its memory budget", text);
    if (dp * layout["micro_batch"].get<std::int64_t>() * layout["micro_batches"].get<std::int64_t>() * sequence !=
        global_batch)
      fitcheck::fuzz::fail("a layout does not cover the global batch exactly", text);
    if (!(layout["step_seconds"].get<double>() > 0)) fitcheck::fuzz::fail("a layout's step takes no time", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  const auto report = fuzz::report_unless_refused(
      "training_plan_report_json", [&] { return training_plan_report_json(input.config, bounded(input.options)); },
      input, text);
  if (!report) return 0;
  const nlohmann::json& parsed = *report;
  if (parsed["feasible"].get<std::int64_t>() > parsed["evaluated"].get<std::int64_t>())
    fuzz::fail("more feasible plans than evaluated", text);
  for (const char* list : {"gpus", "micro_batch_sizes", "zero_stages", "recompute_modes"})
    if (parsed["request"].contains(list) && fuzz::has_duplicates(parsed["request"][list]))
      fuzz::fail(std::string("the request's ") + list + " repeat an item", text);
  if (parsed["best"].size() > parsed["feasible"].get<std::size_t>())
    fuzz::fail("more plans listed than feasible", text);
  check_layouts(parsed["best"], parsed["request"], text);
  check_layouts(parsed["frontier"], parsed["request"], text);
  return 0;
}
