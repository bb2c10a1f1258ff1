// SPDX-License-Identifier: MIT
// Option parsing: every line "key=value" of the input becomes one option. For the inference, the
// local and (when built) the training options: either an OptionError naming the option, or a workload
// inside the documented ranges; a value holding a NUL byte is never accepted.
#include <cstddef>
#include <cstdint>

#include "fitcheck/local.hpp"
#include "fitcheck/options.hpp"
#include "fuzz_support.hpp"
#if __has_include("fitcheck/training_request.hpp")
#include "fitcheck/training_request.hpp"
#define FITCHECK_FUZZ_TRAINING 1
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fitcheck;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const OptionList options = fuzz::split_input(text + "\n%%\n").options;  // every line is an option
  bool nul_in_value = false;  // every value is read or refused as unknown: one holding a NUL is refused
  for (const auto& option : options) nul_in_value = nul_in_value || option.second.find('\0') != std::string::npos;
  try {
    const InferenceWorkload w = parse_inference_options(options).workload;
    if (nul_in_value) fuzz::fail("inference options with a NUL inside a value were accepted", text);
    if (w.batch_size < 1 || w.context_tokens < 1 || w.layout.tensor_parallel < 1 || w.layout.pipeline_parallel < 1 ||
        w.layout.expert_parallel < 1 || w.prefill_chunk_tokens < 0 || w.kv_block_tokens < 0 ||
        w.framework_overhead_bytes < 0 || !(w.gpu_memory_utilization > 0.0 && w.gpu_memory_utilization <= 1.0))
      fuzz::fail("accepted inference options give a workload outside its ranges", text);
  } catch (const OptionError& error) {
    fuzz::check_refusal(error.what(), error.option(), false);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parse_inference_options threw something other than OptionError: ") + error.what(), text);
  }
  try {
    const LocalRequest r = parse_local_options(options).request;
    if (nul_in_value) fuzz::fail("local options with a NUL inside a value were accepted", text);
    if (r.context < 1 || r.parallel < 1 || r.ubatch < 1 || r.gen_len < 1 || r.prompt_len < 0 ||
        r.prompt_len + r.gen_len > r.context / r.parallel || r.n_cpu_moe < 0 || r.ram_bytes <= 0)
      fuzz::fail("accepted local options give a request outside its ranges", text);
  } catch (const OptionError& error) {
    fuzz::check_refusal(error.what(), error.option(), false);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parse_local_options threw something other than OptionError: ") + error.what(), text);
  }
#ifdef FITCHECK_FUZZ_TRAINING
  try {
    const auto w = parse_training_options(options).workload;
    if (nul_in_value) fuzz::fail("training options with a NUL inside a value were accepted", text);
    if (w.micro_batch_size < 1 || w.sequence_tokens < 1 || w.layout.tensor_parallel < 1 ||
        w.layout.pipeline_parallel < 1 || w.layout.data_parallel < 1 || w.context_parallel < 1 ||
        w.framework_overhead_bytes < 0 || w.zero_stage < 0 || w.zero_stage > 3)
      fuzz::fail("accepted training options give a workload outside its ranges", text);
  } catch (const OptionError& error) {
    fuzz::check_refusal(error.what(), error.option(), false);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parse_training_options threw something other than OptionError: ") + error.what(), text);
  }
#endif
  return 0;
}
