// SPDX-License-Identifier: MIT
// The serve-sim report: the simulation's figures, the engine limits and KV capacity it used, and
// the assumptions, as JSON (one serializer for the CLI and the WebAssembly module).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/engine_profile.hpp"
#include "fitcheck/engine_step.hpp"
#include "fitcheck/quantization.hpp"
#include "fitcheck/serving.hpp"
#include "support/json_writer.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

std::string milliseconds(double seconds) { return detail::as_given(seconds * 1e3); }

// The longest length `lengths` can draw (the bounds of the simulation's draws, docs/serving.md).
std::int64_t longest_draw(const TokenLengths& lengths) {
  const double mean = static_cast<double>(lengths.tokens);
  switch (lengths.distribution) {
    case LengthDistribution::fixed:
      return lengths.tokens;
    case LengthDistribution::uniform:
      return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(mean * (1 + lengths.spread))));
    case LengthDistribution::normal:
      return std::max<std::int64_t>(1, std::llround(mean + 6 * lengths.spread * mean));  // Irwin-Hall: |z| <= 6
  }
  return lengths.tokens;
}

// The longest prompt and output the load's requests can have: a replayed trace's, else the draws' bounds.
RequestLengths longest_request(const ServingLoad& load) {
  if (load.trace.empty()) return {longest_draw(load.prompt), longest_draw(load.output)};
  RequestLengths longest{1, 1};
  for (const RequestLengths& lengths : load.trace) {
    longest.prompt = std::max(longest.prompt, lengths.prompt);
    longest.output = std::max(longest.output, lengths.output);
  }
  return longest;
}

// Refusals the page can point at: each names the option (or config field) to change.
void check_runnable(const ServingRequest& request, const Accelerator& gpu, const SchedulerLimits& limits,
                    const KvCapacity& capacity) {
  if (capacity.blocks < 1 && capacity.state_slots > 0)
    throw OptionError("gpu", "option 'gpu': the recurrent-state pool on " + std::string(gpu.name) + " holds " +
                                 std::to_string(capacity.state_slots) +
                                 " slots, fewer than one running request takes: " + capacity.rule);
  if (capacity.blocks < 1)
    throw OptionError("gpu", "option 'gpu': no KV cache fits on " + std::string(gpu.name) +
                                 ": weights, the activations of one " + std::to_string(limits.max_num_batched_tokens) +
                                 "-token step and overhead take " + std::to_string(capacity.non_kv_bytes) +
                                 " B of the " + std::to_string(capacity.budget_bytes) +
                                 " B budget (more tensor parallelism, smaller weights or a larger GPU)");
  const ServingLoad& load = request.load;
  const auto [prompt, output] = longest_request(load);
  if (kv_blocks_for_sequence(limits, prompt + output) > capacity.blocks) {
    const std::string sizes = std::to_string(prompt) + " + " + std::to_string(output) +
                              " tokens do not fit the KV cache of " + std::to_string(capacity.blocks) + " blocks of " +
                              std::to_string(limits.kv_block_tokens) + " tokens (" +
                              std::to_string(kv_blocks_for_sequence(limits, prompt + output)) + " needed)";
    if (!load.trace.empty())
      throw OptionError("request_lengths", "option 'request_lengths': the trace's longest prompt and output, " + sizes);
    throw OptionError(kv_blocks_for_sequence(limits, prompt) > capacity.blocks ? "prompt_len" : "gen_len",
                      "options 'prompt_len' and 'gen_len': requests of up to " + sizes);
  }
  if (static_cast<double>(load.requests) * static_cast<double>(output) > static_cast<double>(kMaxServingOutputTokens))
    throw OptionError("requests", "option 'requests': " + std::to_string(load.requests) + " requests of up to " +
                                      std::to_string(output) +
                                      " output tokens may pass the simulation's 2^28 output tokens (fewer requests or "
                                      "shorter outputs)");
}

}  // namespace

std::string serving_report_json(std::string_view config_json_text, const OptionList& options) {
  ServingRequest request = parse_serving_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  InferenceWorkload& w = request.inference.workload;
  std::vector<std::string> assumptions = model.assumptions;
  if (!request.inference.weight_format_given) {
    const NativeWeightFormat native = native_weight_format(model);
    w.weight_format = native.format;
    w.weight_options = native.options;
    assumptions.push_back(native.explanation + " (choose another with the weights option)");
  }
  const Accelerator& gpu = *request.inference.gpu;
  EngineProfile profile = engine_profile(request.engine, gpu, w.layout);
  if (request.inference.vllm_flashinfer_sampler) use_flashinfer_sampler(profile);
  for (std::string& line : apply_engine_state_rules(profile, model, w)) assumptions.push_back(std::move(line));
  const char* engine = engine_kind_id(profile.kind);
  const std::string expert_padding = apply_expert_padding(profile.kind, gpu, model, w);
  SchedulerLimits limits = scheduler_limits(profile);
  const bool seqs_default = request.max_num_seqs == 0, tokens_default = request.max_num_batched_tokens == 0;
  // The engine's max_model_len taken as the longest request the load draws.
  const RequestLengths longest = longest_request(request.load);
  limits.max_num_batched_tokens = engine_token_budget(profile, longest.prompt + longest.output);
  if (!seqs_default) limits.max_num_seqs = request.max_num_seqs;
  if (!tokens_default) limits.max_num_batched_tokens = request.max_num_batched_tokens;
  limits.speculative = request.inference.lengths.speculative;
  if (request.request_overhead_given) limits.request_overhead_seconds = request.request_overhead_seconds;
  const ServingLoad& load = request.load;
  if (!limits.continuous_batching && seqs_default && load.concurrency > 0)
    limits.max_num_seqs = load.concurrency;  // generate runs the batch it is given
  if (limits.max_num_batched_tokens == 0)    // no step limit: the whole batch's prompts in one pass
    limits.max_num_batched_tokens =
        std::max<std::int64_t>(1, std::min<std::int64_t>(limits.max_num_seqs, load.requests) * longest.prompt);
  // Without chunked prefill the engine is built to take its longest prompt in one step beside a
  // decode token of every running sequence (TensorRT-LLM: max_num_tokens at least max_input_len;
  // trtllm-bench sizes it from the dataset, perf-overview.md at 258c7540 "Engine Building").
  if (!limits.chunked_prefill && tokens_default && profile.token_budget_floor == 0)
    limits.max_num_batched_tokens =
        std::max(limits.max_num_batched_tokens, longest.prompt + std::min(limits.max_num_seqs, load.requests));
  const double fraction =
      request.inference.gpu_memory_utilization_given ? w.gpu_memory_utilization : profile.memory_fraction;
  w.gpu_memory_utilization = fraction;
  const KvCapacity capacity = engine_kv_capacity(profile, fraction, model, tensors, w, gpu, limits);
  apply_kv_capacity(capacity, limits);
  LatencyAssumptions latency = latency_assumptions_for(request.inference, gpu);
  apply_engine_fixed_costs(profile, latency);
  if (request.step_overhead_given) latency.step_overhead_seconds = request.step_overhead_seconds;
  if (request.cuda_graph_max_batch_given) latency.cuda_graph_max_batch = request.cuda_graph_max_batch;
  const KernelEfficiency efficiency = kernel_efficiency(profile.kind, gpu, w.weight_format);
  if (request.inference.latency_overrides.hbm_efficiency <= 0) latency.hbm_efficiency = efficiency.hbm;
  if (request.inference.latency_overrides.flops_efficiency <= 0) {
    latency.flops_efficiency = efficiency.flops;
    latency.fp8_flops_share = efficiency.fp8_flops_share;
  }
  latency.gemm_row_tiles = efficiency.gemm_row_tiles;
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, w.weight_format, w.weight_options);
  try {
    make_step_windows(prepared);
  } catch (const std::invalid_argument& error) {
    throw ConfigError("model_type", "model_type '" + model.model_type + "': " + error.what());
  }
  check_runnable(request, gpu, limits, capacity);
  const ServingResult r = simulate_serving(prepared, w, gpu, latency, limits, request.load);

  assumptions.push_back(std::string("engine ") + engine + ": " + profile.version);
  for (const std::string& rule : profile.rules) assumptions.push_back(std::string(engine) + ": " + rule);
  if (!expert_padding.empty()) assumptions.push_back(std::string(engine) + ": " + expert_padding);
  assumptions.push_back(std::string(engine) + " on " + gpu_generation_name(gpu_generation(gpu)) + ": " +
                        efficiency.source);
  assumptions.push_back(std::string("scheduler: max_num_seqs ") + std::to_string(limits.max_num_seqs) +
                        (seqs_default ? " and" : " (given) and") + " max_num_batched_tokens " +
                        std::to_string(limits.max_num_batched_tokens) +
                        (tokens_default ? " (the engine's defaults for this GPU)" : " (given)") +
                        (limits.chunked_prefill ? "; chunked prefill: running sequences' decode tokens and prompt "
                                                  "chunks first, then waiting requests first come first served, the "
                                                  "last prompt cut to the token budget"
                                                : "; no chunked prefill: a prompt runs whole in one step") +
                        (limits.continuous_batching ? "" : "; static batches: a batch starts when the last ends") +
                        (limits.prefill_first ? "; prefill first: a step of prompts alone whenever one can start, "
                                                "else a decode step"
                                              : ""));
  assumptions.push_back(
      "KV cache: budget " + std::to_string(capacity.budget_bytes) + " B - " + std::to_string(capacity.non_kv_bytes) +
      " B weights, activations of one " + std::to_string(limits.max_num_batched_tokens) +
      "-token step, logits and overhead = " + std::to_string(capacity.blocks) + " blocks of " +
      std::to_string(limits.kv_block_tokens) + " tokens (" + std::to_string(capacity.block_bytes) + " B each); " +
      (limits.reserve_whole_request ? "admission reserves the blocks of the whole request, nothing is evicted"
                                    : "blocks are taken as tokens are computed, and a sequence that finds none evicts "
                                      "the latest-admitted one, which recomputes later"));
  if (!capacity.rule.empty()) assumptions.push_back(capacity.rule);
  if (!load.trace.empty())
    assumptions.push_back("lengths: a trace of " + std::to_string(load.trace.size()) + " requests replayed in order" +
                          (load.requests > static_cast<std::int64_t>(load.trace.size()) ? " and repeated" : "") +
                          " (request_lengths): mean " + std::to_string(load.prompt.tokens) + " + " +
                          std::to_string(load.output.tokens) + " tokens, longest prompt " +
                          std::to_string(longest.prompt) + ", longest output " + std::to_string(longest.output));
  if (load.shared_prefix_tokens > 0 && !limits.prefix_caching)
    assumptions.push_back("prefix caching: off, as the engine runs this model (every prompt's shared " +
                          std::to_string(load.shared_prefix_tokens) + " tokens are computed again)");
  else if (load.shared_prefix_tokens > 0)
    assumptions.push_back("prefix caching: every prompt starts with the same " +
                          std::to_string(load.shared_prefix_tokens) + " tokens; once one request has computed them, " +
                          "later requests find their full " + std::to_string(limits.kv_block_tokens) +
                          "-token blocks cached (held once, shared) and prefill only the rest (vLLM automatic prefix "
                          "caching, vllm/v1/core/kv_cache_manager.py get_computed_blocks; SGLang RadixAttention)");
  if (limits.speculative.draft_tokens > 0) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "speculative decoding: %lld draft tokens of %g layer(s) each, acceptance %g: %.3g tokens per "
                  "decode step on average",
                  static_cast<long long>(limits.speculative.draft_tokens), limits.speculative.draft_layers,
                  limits.speculative.acceptance_rate, expected_tokens_per_step(limits.speculative));
    assumptions.push_back(std::string(text) +
                          " ((1 - a^(k+1)) / (1 - a), Leviathan et al. 2023 eq. 1); a decoding sequence takes k + 1 "
                          "tokens of the step budget for the verify pass; the draft's memory is not taken from the KV "
                          "cache");
  }
  assumptions.push_back(
      "step time: the latency model's roofline per operation over all tokens of the step, weights read once "
      "per step, plus " +
      milliseconds(latency.step_overhead_seconds) + " ms per step (" +
      (request.step_overhead_given ? "step_overhead_ms, given" : "the engine's estimate") + ") and " +
      (latency.kernel_seconds_per_layer > 0
           ? milliseconds(latency.kernel_seconds_per_layer) + " ms of small kernels per layer (the engine's estimate), "
           : std::string()) +
      milliseconds(latency.launch_seconds_per_layer) + " ms of launches per layer outside CUDA graphs (decode up to " +
      std::to_string(latency.cuda_graph_max_batch) +
      " sequences replays a graph); no CUDA-graph padding, prefix caching or speculative decoding; pipeline "
      "stages run one step at a time (no micro-batch overlap)");
  assumptions.push_back("request overhead: " + milliseconds(limits.request_overhead_seconds) + " ms (" +
                        (request.request_overhead_given ? "request_overhead_ms, given" : "the engine's") +
                        ") between a request's arrival and its place in the scheduler's queue (HTTP server, "
                        "tokenization, frontend hops), counted in its TTFT; it then waits for the step in flight");

  detail::JsonWriter out;
  out.begin_object();
  out.field("output_tokens_per_second", r.output_tokens_per_second);
  out.field("requests_per_second", r.requests_per_second);
  out.field("ttft_seconds_p50", r.ttft_seconds_p50);
  out.field("ttft_seconds_p90", r.ttft_seconds_p90);
  out.field("ttft_seconds_p99", r.ttft_seconds_p99);
  out.field("tpot_seconds_p50", r.tpot_seconds_p50);
  out.field("tpot_seconds_p90", r.tpot_seconds_p90);
  out.field("tpot_seconds_p99", r.tpot_seconds_p99);
  out.field("ttft_seconds_p95", r.ttft_seconds_p95);
  out.field("tpot_seconds_p95", r.tpot_seconds_p95);
  out.field("ttft_seconds_mean", r.ttft_seconds_mean);
  out.field("tpot_seconds_mean", r.tpot_seconds_mean);
  out.field("e2e_seconds_mean", r.e2e_seconds_mean);
  out.field("queue_seconds_mean", r.queue_seconds_mean);
  out.field("input_tokens_per_second", r.input_tokens_per_second);
  out.field("duration_seconds", r.duration_seconds);
  out.field("mean_running_batch", r.mean_running_batch);
  out.field("mean_step_tokens", r.mean_step_tokens);
  out.field("max_running", r.max_running);
  out.field("steps", r.steps);
  out.field("requests", r.requests);
  out.field("prompt_tokens", r.prompt_tokens);
  out.field("output_tokens", r.output_tokens);
  out.field("kv_limited", r.kv_limited);
  out.field("preemptions", r.preemptions);
  out.field("peak_kv_blocks_used", r.peak_kv_blocks_used);
  out.field("model_type", model.model_type);
  out.field("engine", engine);
  out.begin_object("scheduler");
  out.field("max_num_seqs", limits.max_num_seqs);
  out.field("max_num_batched_tokens", limits.max_num_batched_tokens);
  out.field("kv_block_tokens", limits.kv_block_tokens);
  out.field("kv_capacity_blocks", limits.kv_capacity_blocks);
  out.field("kv_capacity_tokens", capacity.tokens);
  out.field("kv_budget_bytes", capacity.budget_bytes);
  out.field("non_kv_bytes", capacity.non_kv_bytes);
  out.field("kv_block_bytes", capacity.block_bytes);
  out.field("step_overhead_seconds", latency.step_overhead_seconds);
  out.field("launch_seconds_per_layer", latency.launch_seconds_per_layer);
  out.field("kernel_seconds_per_layer", latency.kernel_seconds_per_layer);
  out.field("cuda_graph_max_batch", latency.cuda_graph_max_batch);
  out.field("chunked_prefill", limits.chunked_prefill);
  out.field("continuous_batching", limits.continuous_batching);
  out.field("reserve_whole_request", limits.reserve_whole_request);
  out.field("reserve_estimated_output", limits.reserve_estimated_output);
  out.field("prefill_first", limits.prefill_first);
  out.field("request_overhead_seconds", limits.request_overhead_seconds);
  out.field("spec_tokens", limits.speculative.draft_tokens);
  out.field("spec_acceptance", limits.speculative.acceptance_rate);
  out.field("spec_draft_layers", limits.speculative.draft_layers);
  out.field("hbm_efficiency", latency.hbm_efficiency);
  out.field("flops_efficiency", latency.flops_efficiency);
  out.field("fp8_flops_share", latency.fp8_flops_share);
  out.end_object();
  out.begin_object("load");
  out.field("requests", load.requests);
  out.field("concurrency", load.concurrency);
  out.field("arrival_rate", load.arrival_rate_per_second);
  out.field("prompt_len", load.prompt.tokens);
  out.field("gen_len", load.output.tokens);
  out.field("shared_prefix", load.shared_prefix_tokens);
  out.field("length_distribution", load.trace.empty() ? length_distribution_name(load.prompt.distribution) : "trace");
  out.field("trace_requests", static_cast<std::int64_t>(load.trace.size()));
  out.field("prompt_spread", load.prompt.spread);
  out.field("gen_spread", load.output.spread);
  out.field("seed", static_cast<std::int64_t>(load.seed));
  out.end_object();
  out.begin_object("workload");
  out.field("gpu", gpu.id);
  out.field("weights", weight_format_info(w.weight_format).id);
  out.field("kv_dtype", kv_cache_dtype_info(w.kv_cache_dtype).id);
  out.field("tp", w.layout.tensor_parallel);
  out.field("pp", w.layout.pipeline_parallel);
  out.field("ep", w.layout.expert_parallel);
  out.field("gpu_memory_utilization", w.gpu_memory_utilization);
  out.end_object();
  out.field("assumptions", assumptions);
  out.end_object();
  return out.take();
}

}  // namespace fitcheck
