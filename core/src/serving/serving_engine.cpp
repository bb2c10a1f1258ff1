// SPDX-License-Identifier: MIT
// Engine profiles for the serving simulation: vLLM V1's scheduler defaults and its KV cache size.
// Sources: docs/engines-serving.md sections 1.1-1.3; rules: docs/serving.md.
#include <algorithm>
#include <string_view>

#include "fitcheck/serving.hpp"

namespace fitcheck {

const char* serving_engine_name(ServingEngine engine) {
  switch (engine) {
    case ServingEngine::vllm:
      return "vllm";
  }
  return "vllm";
}

const char* length_distribution_name(LengthDistribution distribution) {
  switch (distribution) {
    case LengthDistribution::fixed:
      return "fixed";
    case LengthDistribution::uniform:
      return "uniform";
    case LengthDistribution::normal:
      return "normal";
  }
  return "fixed";
}

SchedulerLimits vllm_default_limits(const Accelerator& gpu) {
  // vllm/engine/arg_utils.py EngineArgs._set_default_args (v0.9 on, copy read v0.10/v0.11), the
  // OpenAI API server column: device_memory >= 70 GiB and not an A100 ("Setting large
  // max_num_batched_tokens for A100 reduces throughput", PR #17885) -> 8192 tokens, 1024 sequences;
  // otherwise 2048 and 256.
  constexpr std::int64_t kLargeDeviceBytes = std::int64_t{70} << 30;
  const bool a100 = std::string_view(gpu.id).starts_with("a100");
  SchedulerLimits limits;
  if (gpu.memory_bytes >= kLargeDeviceBytes && !a100) {
    limits.max_num_batched_tokens = 8192;
    limits.max_num_seqs = 1024;
  } else {
    limits.max_num_batched_tokens = 2048;
    limits.max_num_seqs = 256;
  }
  limits.kv_block_tokens = 16;  // CacheConfig.DEFAULT_BLOCK_SIZE (vllm/config/cache.py at 002f10e0)
  return limits;
}

KvCapacity vllm_kv_capacity(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                            const InferenceWorkload& workload, const Accelerator& gpu, const SchedulerLimits& limits) {
  // vLLM's profiling run is one dummy batch of max_num_batched_tokens tokens; its activation peak,
  // the weights and other allocations come out of gpu_memory_utilization x memory and the rest is
  // KV cache (vllm/v1/worker/gpu_worker.py Worker.determine_available_memory).
  InferenceWorkload profile = workload;
  profile.batch_size = 1;
  profile.context_tokens = limits.max_num_batched_tokens;
  profile.prefill_chunk_tokens = limits.max_num_batched_tokens;
  profile.kv_block_tokens = limits.kv_block_tokens;
  const LayoutWeights weights = layout_weights(model, tensors, profile);
  const InferenceMemoryTotals peak = inference_memory_totals(model, weights, profile);
  InferenceWorkload one_block = profile;
  one_block.context_tokens = limits.kv_block_tokens;
  one_block.prefill_chunk_tokens = 0;
  const InferenceMemoryTotals block = inference_memory_totals(model, weights, one_block);

  KvCapacity capacity;
  capacity.budget_bytes =
      static_cast<std::int64_t>(workload.gpu_memory_utilization * static_cast<double>(gpu_memory_limit_bytes(gpu)));
  capacity.non_kv_bytes = peak.total_bytes_per_gpu - peak.kv_cache_bytes;
  capacity.block_bytes = block.kv_cache_bytes;
  if (capacity.block_bytes > 0 && capacity.budget_bytes > capacity.non_kv_bytes)
    capacity.blocks = (capacity.budget_bytes - capacity.non_kv_bytes) / capacity.block_bytes;
  return capacity;
}

}  // namespace fitcheck
