// SPDX-License-Identifier: MIT
// An inference estimate's engine capacity: the engine's scheduler simulated at saturation
// (docs/serving.md, "Capacity from the scheduler"), kept out of estimate_inference() so the page's
// first-view module does not carry the simulation; and vLLM's start-up check, which
// estimate_inference() adds but the first-view module's estimate does not.
#include <algorithm>

#include "fitcheck/serving.hpp"

namespace fitcheck {
namespace {

// The engine's scheduler at saturation: the simulation of max_num_seqs closed-loop requests of the
// request's lengths (twice as many requests, at most 4096), on the KV cache its budget rule leaves.
EngineCapacity simulate_engine_capacity(const EngineProfile& profile, const ModelDescription& model,
                                        const std::vector<WeightTensor>& tensors, const PreparedLatencyModel& prepared,
                                        const InferenceWorkload& w, const Accelerator& gpu,
                                        const LatencyAssumptions& latency, const LatencyRequest& lengths) {
  EngineCapacity answer;
  SchedulerLimits limits = scheduler_limits(profile);
  // The step the workload's activations are sized for (the profile's, or the prefill_chunk given).
  if (w.prefill_chunk_tokens > 0) limits.max_num_batched_tokens = w.prefill_chunk_tokens;
  if (limits.max_num_batched_tokens == 0 || !limits.continuous_batching)
    limits.max_num_batched_tokens = std::max<std::int64_t>(1, w.batch_size * lengths.prompt_tokens);
  if (!limits.continuous_batching) limits.max_num_seqs = w.batch_size;  // generate runs the batch it is given
  // TensorRT-LLM's engine holds its longest prompt beside a decode token of every sequence; vLLM
  // V0's budget is max(max_model_len, 2048) itself (the prefill chunk set from it).
  if (!limits.chunked_prefill && profile.token_budget_floor == 0)
    limits.max_num_batched_tokens =
        std::max(limits.max_num_batched_tokens, lengths.prompt_tokens + limits.max_num_seqs);
  limits.speculative = lengths.speculative;
  limits.request_overhead_seconds = 0;  // the scheduler's own capacity: no frontend in the loop
  const KvCapacity kv = engine_kv_capacity(profile, w.gpu_memory_utilization, model, tensors, w, gpu, limits);
  apply_kv_capacity(kv, limits);
  answer.kv_capacity_tokens = kv.tokens;
  ServingLoad load;
  load.prompt.tokens = lengths.prompt_tokens;
  load.output.tokens = lengths.generated_tokens;
  load.shared_prefix_tokens = lengths.shared_prefix_tokens;
  load.concurrency = std::min<std::int64_t>(limits.max_num_seqs, 2048);
  load.requests = std::min<std::int64_t>(2 * load.concurrency, 4096);
  if (kv.blocks < 1 || kv_blocks_for_sequence(limits, lengths.prompt_tokens + lengths.generated_tokens) > kv.blocks) {
    answer.skipped = "one request does not fit the KV cache the engine's budget leaves";
    return answer;
  }
  if (static_cast<double>(load.requests) * static_cast<double>(lengths.generated_tokens) >
      static_cast<double>(kMaxServingOutputTokens) / 16) {
    answer.skipped = "too many output tokens to simulate here (use serve-sim)";
    return answer;
  }
  try {
    const ServingResult r = simulate_serving(prepared, w, gpu, latency, limits, load);
    answer.max_running_sequences = r.max_running;
    answer.mean_running_sequences = r.mean_running_batch;
    answer.offline_output_tokens_per_second = r.output_tokens_per_second;
    const bool state_cap = kv.max_running_sequences > 0 && limits.max_num_seqs == kv.max_running_sequences;
    answer.limited_by = r.kv_limited                          ? "kv_cache"
                        : r.max_running < limits.max_num_seqs ? "requests"
                        : state_cap                           ? "recurrent_state_pool"
                                                              : "max_num_seqs";
  } catch (const std::invalid_argument& error) {
    answer.skipped = error.what();
  }
  return answer;
}

}  // namespace

void add_engine_capacity(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                         InferenceEstimate& estimate) {
  if (!estimate.engine || !estimate.on_gpu) return;
  InferenceOnGpu& on_gpu = *estimate.on_gpu;
  const InferenceWorkload& w = estimate.workload;
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, w.weight_format, w.weight_options);
  on_gpu.engine_capacity = simulate_engine_capacity(*estimate.engine, model, tensors, prepared, w, *on_gpu.gpu,
                                                    on_gpu.latency.assumptions, estimate.lengths);
}

void add_engine_start_check(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                            InferenceEstimate& estimate) {
  if (!estimate.engine || !estimate.on_gpu) return;
  if (estimate.engine->kind != EngineKind::vllm && estimate.engine->kind != EngineKind::vllm_v0) return;
  estimate.on_gpu->engine_start = vllm_start_check(*estimate.engine, model, tensors, estimate.workload,
                                                   *estimate.on_gpu->gpu, estimate.max_model_len);
}

}  // namespace fitcheck
