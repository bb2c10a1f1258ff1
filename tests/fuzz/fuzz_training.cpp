// SPDX-License-Identifier: MIT
// The training estimate with fuzzed workloads: training_report_json(config, options), options
// taken from the input's head (see fuzz_support.hpp). Same rules as the inference target.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/training_memory.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::Input input = fuzz::split_input(text);
  std::string report;
  try {
    report = training_report_json(input.config, input.options);
  } catch (const ConfigError& error) {
    fuzz::check_refusal(error.what(), error.field());
    return 0;
  } catch (const OptionError& error) {
    fuzz::check_refusal_loose(error.what(), input.options);
    return 0;
  } catch (const std::overflow_error& error) {
    fuzz::check_refusal(error.what(), "");
    return 0;
  } catch (const std::exception& error) {
    fuzz::fail(std::string("training_report_json threw an unnamed error: ") + error.what(), text);
  }
  const auto parsed = fuzz::check_report(report);
  fuzz::check_terms_add_up(parsed, "total_bytes_per_gpu", text);
  return 0;
}
