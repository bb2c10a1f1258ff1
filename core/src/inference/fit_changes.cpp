// SPDX-License-Identifier: MIT
// When a setup does not fit: the nearest single changes that do, so that a user sees the way out
// beside the verdict (the page offers each as one click). Every change is checked with the same
// memory model as the verdict; a change that does not fit is never offered.
#include <algorithm>
#include <array>
#include <stdexcept>

#include "fitcheck/engine_profile.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {
namespace {

struct Checked {
  bool fits = false;
  std::int64_t total = 0;
};

Checked check(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
              const InferenceWorkload& workload, std::int64_t budget) {
  try {
    const std::int64_t total = inference_memory(model, tensors, workload).totals.total_bytes_per_gpu;
    return {total <= budget, total};
  } catch (const std::invalid_argument&) {  // e.g. a format the model's shapes cannot be packed in
    return {};
  } catch (const std::overflow_error&) {
    return {};
  }
}

std::string with_thousands(std::int64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::vector<FitChange> fit_changes(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                   const InferenceWorkload& workload, const Accelerator& gpu,
                                   const InferenceCapacity& capacity) {
  std::vector<FitChange> changes;
  const std::int64_t budget = memory_budget_bytes(gpu, workload.gpu_memory_utilization);
  const auto add = [&](std::string what, std::vector<std::pair<std::string, std::string>> options, std::string summary,
                       std::int64_t total) {
    changes.push_back(FitChange{std::move(what), std::move(options), std::move(summary), total, budget - total});
  };

  // A smaller weight format: the most precise one below the current width that fits. Serving
  // formats first (engines load these), then llama.cpp's k-quants for local use.
  // The checkpoint's own format comes first: it is what the model was published in (gpt-oss in
  // MXFP4, DeepSeek-V3 in block FP8), so serving it costs no accuracy.
  const double current_bits = weight_format_info(workload.weight_format).base_bits_per_weight;
  const NativeWeightFormat native = native_weight_format(model);
  const std::array<std::pair<WeightFormat, WeightFormatOptions>, 6> candidates{{
      {native.format, native.options},
      {WeightFormat::fp8_e4m3_per_tensor, {}},
      {WeightFormat::awq, {}},
      {WeightFormat::gguf_q4_k_m, {}},
      {WeightFormat::gguf_q3_k_m, {}},
      {WeightFormat::gguf_q2_k, {}},
  }};
  for (const auto& [format, options] : candidates) {
    const WeightFormatInfo& info = weight_format_info(format);
    if (info.base_bits_per_weight >= current_bits) continue;
    InferenceWorkload candidate = workload;
    candidate.weight_format = format;
    candidate.weight_options = options;
    const Checked checked = check(model, tensors, candidate, budget);
    if (!checked.fits) continue;
    const bool own = format == native.format;
    add("weights", {{"weights", info.id}},
        std::string("weights in ") + info.name + (own ? " (the checkpoint's own format)" : ""), checked.total);
    break;
  }

  // An 8-bit KV cache (vLLM kv_cache_dtype=fp8), when the cache is wider.
  if (kv_cache_dtype_info(workload.kv_cache_dtype).element_bits > 8) {
    InferenceWorkload candidate = workload;
    candidate.kv_cache_dtype = KvCacheDtype::fp8;
    const Checked checked = check(model, tensors, candidate, budget);
    if (checked.fits) add("kv_dtype", {{"kv_dtype", "fp8"}}, "an FP8 KV cache", checked.total);
  }

  // Prefill in chunks (the engines' max tokens per step): activations sized for the chunk, not the
  // whole batch x context at once. vLLM's default for this GPU first (engine_profile.cpp: 8192 on
  // parts of 70 GiB and more, 2048 below), then 2048 and 512 (vLLM V0's chunked-prefill default);
  // the largest that fits.
  const std::int64_t engine_chunk = engine_profile(EngineKind::vllm, gpu, workload.layout).max_num_batched_tokens;
  const std::int64_t whole_prefill = workload.batch_size * workload.context_tokens;
  for (const std::int64_t chunk : {engine_chunk, std::int64_t{2048}, std::int64_t{512}}) {
    const std::int64_t current_chunk =
        workload.prefill_chunk_tokens > 0 ? workload.prefill_chunk_tokens : whole_prefill;
    if (chunk >= current_chunk) continue;
    InferenceWorkload candidate = workload;
    candidate.prefill_chunk_tokens = chunk;
    const Checked checked = check(model, tensors, candidate, budget);
    if (!checked.fits) continue;
    add("prefill_chunk", {{"prefill_chunk", std::to_string(chunk)}},
        "prefill in chunks of " + with_thousands(chunk) + " tokens", checked.total);
    break;
  }

  const auto capacity_change = [&](const CapacityAnswer& answer, std::int64_t current, const char* what,
                                   const char* option, const std::string& summary, InferenceWorkload candidate) {
    if (answer.value < 1 || answer.value >= current) return;
    const Checked checked = check(model, tensors, candidate, budget);
    if (checked.fits) add(what, {{option, std::to_string(answer.value)}}, summary, checked.total);
  };
  InferenceWorkload smaller_batch = workload;
  smaller_batch.batch_size = capacity.max_batch_size.value;
  capacity_change(capacity.max_batch_size, workload.batch_size, "batch", "batch",
                  "batch " + with_thousands(capacity.max_batch_size.value), smaller_batch);
  InferenceWorkload shorter = workload;
  shorter.context_tokens = capacity.max_context_length.value;
  capacity_change(capacity.max_context_length, workload.context_tokens, "context", "context",
                  "context " + with_thousands(capacity.max_context_length.value) + " tokens", shorter);

  // More GPUs: min_gpus fills tensor parallelism within a node first, then pipeline stages.
  const std::int64_t gpus_now = workload.layout.tensor_parallel * workload.layout.pipeline_parallel;
  if (capacity.min_gpus.value > gpus_now) {
    const std::int64_t per_node = std::max(1, gpu.gpus_per_node);
    const std::int64_t tp = std::min(capacity.min_gpus.value, per_node);
    const std::int64_t pp = (capacity.min_gpus.value + tp - 1) / tp;
    InferenceWorkload candidate = workload;
    candidate.layout.tensor_parallel = tp;
    candidate.layout.pipeline_parallel = pp;
    const Checked checked = check(model, tensors, candidate, budget);
    if (checked.fits)
      add("gpus", {{"tp", std::to_string(tp)}, {"pp", std::to_string(pp)}},
          with_thousands(tp * pp) + " GPUs (tp " + std::to_string(tp) + ", pp " + std::to_string(pp) + ")",
          checked.total);
  }
  return changes;
}

}  // namespace fitcheck
