// SPDX-License-Identifier: MIT
// The serve-sim request: the inference keys through parse_inference_options(), the load and
// scheduler keys through an OptionReader of their own, so both refuse unknown keys by name.
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

#include "fitcheck/serving.hpp"

namespace fitcheck {
namespace {

constexpr const char* kServingKeys[] = {
    "concurrency",
    "arrival_rate",
    "requests",
    "max_num_seqs",
    "max_num_batched_tokens",
    "seed",
    "prompt_spread",
    "gen_spread",
    "length_distribution",
    "request_lengths",
    "step_overhead_ms",
    "request_overhead_ms",
    "cuda_graph_max_batch",
};
// Inference keys a simulation sets itself: the batch and the cache come from the scheduler.
constexpr const char* kFixedBySimulation[] = {"batch", "context", "prefill_chunk", "kv_block"};

bool listed(const std::string& key, const char* const* begin, const char* const* end) {
  for (auto it = begin; it != end; ++it)
    if (key == *it) return true;
  return false;
}

}  // namespace

ServingRequest parse_serving_options(const OptionList& options) {
  OptionList serving, inference;
  for (const auto& option : options) {
    if (listed(option.first, std::begin(kFixedBySimulation), std::end(kFixedBySimulation)))
      throw OptionError(option.first, "option '" + option.first +
                                          "' is set by the simulation (the scheduler batches; use max_num_seqs, "
                                          "max_num_batched_tokens, prompt_len and gen_len)");
    (listed(option.first, std::begin(kServingKeys), std::end(kServingKeys)) ? serving : inference).push_back(option);
  }
  ServingRequest request;
  request.inference = parse_inference_options(inference);
  if (request.inference.images > 0)
    throw OptionError("images",
                      "option 'images' is not modelled by the serving simulation yet (fitcheck infer takes it)");
  if (request.inference.hf_static_cache)
    throw OptionError(
        "hf_cache", "option 'hf_cache' static is not modelled by the serving simulation yet (fitcheck infer takes it)");
  if (request.inference.max_model_len > 0)
    throw OptionError("max_model_len",
                      "option 'max_model_len' is vLLM's start-up check (fitcheck infer takes it); the simulation's "
                      "max_model_len is the longest request its load draws");
  if (!request.inference.gpu) throw OptionError("gpu", "option 'gpu' is required: the simulation times steps on a GPU");

  OptionReader reader(serving);
  // The engine option is an inference key (parse_inference_options); vLLM V1 unless given.
  request.engine = request.inference.engine.value_or(EngineKind::vllm);
  ServingLoad& load = request.load;
  load.prompt.tokens = request.inference.lengths.prompt_tokens;
  load.output.tokens = request.inference.lengths.generated_tokens;
  load.shared_prefix_tokens = request.inference.lengths.shared_prefix_tokens;
  load.requests = reader.count("requests", 1000, 1, kMaxServingRequests);
  load.concurrency = reader.count("concurrency", 0, 0, kMaxServingRequests);
  load.arrival_rate_per_second = reader.number("arrival_rate", 0, 0, 1e9);
  if ((load.concurrency > 0) == (load.arrival_rate_per_second > 0))
    throw OptionError(
        load.concurrency > 0 ? "arrival_rate" : "concurrency",
        "give exactly one of the options 'concurrency' (closed loop) and 'arrival_rate' (Poisson, requests/s)");
  load.seed = static_cast<std::uint64_t>(reader.count("seed", 0, 0, std::int64_t{1} << 53));  // exact in JSON and JS
  if (auto distribution = reader.text("length_distribution")) {
    if (*distribution == "fixed")
      load.prompt.distribution = LengthDistribution::fixed;
    else if (*distribution == "uniform")
      load.prompt.distribution = LengthDistribution::uniform;
    else if (*distribution == "normal")
      load.prompt.distribution = LengthDistribution::normal;
    else
      throw OptionError("length_distribution", "option 'length_distribution' must be fixed, uniform or normal");
    load.output.distribution = load.prompt.distribution;
  }
  load.prompt.spread = reader.number("prompt_spread", 0, 0, 1);
  load.output.spread = reader.number("gen_spread", 0, 0, 1);
  if (auto trace = reader.text("request_lengths")) {
    for (const char* drawn : {"length_distribution", "prompt_spread", "gen_spread"})
      if (reader.text(drawn))
        throw OptionError(drawn, std::string("option '") + drawn +
                                     "' draws lengths; option 'request_lengths' replays a trace's (give one of them)");
    for (const char* length : {"prompt_len", "gen_len"})
      for (const auto& option : options)
        if (option.first == length)
          throw OptionError(length, std::string("option '") + length +
                                        "' is taken from the trace (option 'request_lengths'): give one of them");
    load.trace = parse_request_lengths(*trace);
    double prompt_tokens = 0, output_tokens = 0;
    for (const RequestLengths& lengths : load.trace) {
      if (load.shared_prefix_tokens >= lengths.prompt)
        throw OptionError("shared_prefix", "option 'shared_prefix' (" + std::to_string(load.shared_prefix_tokens) +
                                               " tokens) must be shorter than every prompt of the trace (one has " +
                                               std::to_string(lengths.prompt) + ")");
      prompt_tokens += static_cast<double>(lengths.prompt);
      output_tokens += static_cast<double>(lengths.output);
    }
    // A trace runs once through unless a number of requests is given (then it repeats in order).
    if (!reader.text("requests")) load.requests = static_cast<std::int64_t>(load.trace.size());
    const double count = static_cast<double>(load.trace.size());
    load.prompt = {std::llround(prompt_tokens / count), LengthDistribution::fixed, 0};
    load.output = {std::llround(output_tokens / count), LengthDistribution::fixed, 0};
  }
  request.max_num_seqs = reader.count("max_num_seqs", 0, 1, std::int64_t{1} << 20);
  request.max_num_batched_tokens = reader.count("max_num_batched_tokens", 0, 1, std::int64_t{1} << 24);
  request.step_overhead_given = reader.text("step_overhead_ms").has_value();
  request.step_overhead_seconds = reader.number("step_overhead_ms", 0, 0, 1e5) / 1e3;
  request.request_overhead_given = reader.text("request_overhead_ms").has_value();
  request.request_overhead_seconds = reader.number("request_overhead_ms", 0, 0, 1e5) / 1e3;
  request.cuda_graph_max_batch_given = reader.text("cuda_graph_max_batch").has_value();
  request.cuda_graph_max_batch = reader.count("cuda_graph_max_batch", 0, 0, std::int64_t{1} << 20);
  reader.finish();
  return request;
}

}  // namespace fitcheck
