// SPDX-License-Identifier: MIT
// Capacity answers under a serving-engine budget: the engine may use gpu_memory_utilization of
// the GPU (vLLM's --gpu-memory-utilization, default 0.9); weights, activations, logits and
// overhead come first and the rest holds KV blocks.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

#include "fitcheck/inference_memory.hpp"
#include "support/largest_passing.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// `Weights` is the tensor list or precomputed LayoutWeights. With LayoutWeights the searches read
// inference_memory_totals(): the same totals as inference_memory(), without building its formulas
// and assumptions at every candidate (tests/unit/fast_path_test.cpp holds the two equal).
template <typename Weights>
bool fits(const ModelDescription& model, const Weights& weights, const InferenceWorkload& workload,
          std::int64_t budget) {
  try {
    if constexpr (std::is_same_v<Weights, LayoutWeights>)
      return inference_memory_totals(model, weights, workload).total_bytes_per_gpu <= budget;
    else
      return inference_memory(model, weights, workload).totals.total_bytes_per_gpu <= budget;
  } catch (const std::overflow_error&) {
    return false;  // beyond 2^53 bytes: more than any GPU holds
  }
}

// Bytes per parameter no stored tensor goes under: float formats store every tensor at their width;
// the narrowest packed format fitcheck knows (GPTQ 2-bit) still spends 2 bits per weight.
double floor_bytes_per_parameter(WeightFormat format) {
  if (format == WeightFormat::fp32) return 4.0;
  if (format == WeightFormat::bf16 || format == WeightFormat::fp16) return 2.0;
  return 0.25;
}

std::string budget_text(const InferenceWorkload& workload, const Accelerator& gpu, std::int64_t budget) {
  const std::int64_t limit = gpu_memory_limit_bytes(gpu);
  const std::string what = limit < gpu.memory_bytes ? " B (" + std::string(gpu.name) + ", GPU working-set limit) = "
                                                    : " B (" + std::string(gpu.name) + ") = ";
  return detail::two_decimals(workload.gpu_memory_utilization) + " x " + std::to_string(limit) + what +
         std::to_string(budget) + " B";
}

// Why nothing fits at the smallest setting: the first term that alone exhausts the budget.
std::string first_blocker(const InferenceMemory& memory, std::int64_t budget) {
  std::int64_t used = 0;
  for (const auto& term : memory.terms) {
    used += term.bytes;
    if (used > budget) return term.name;
  }
  return "total";
}

}  // namespace

CapacityAnswer max_batch_size(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                              const InferenceWorkload& workload, const Accelerator& gpu) {
  const std::int64_t budget = memory_budget_bytes(gpu, workload.gpu_memory_utilization);
  const LayoutWeights weights = layout_weights(model, tensors, workload);  // the same for every candidate
  InferenceWorkload candidate = workload;
  candidate.batch_size = 1;
  CapacityAnswer answer;
  const InferenceMemory single = inference_memory(model, weights, candidate);
  if (single.totals.total_bytes_per_gpu > budget) {
    answer.limited_by = first_blocker(single, budget);
    answer.formula = "one sequence of " + std::to_string(workload.context_tokens) + " tokens needs " +
                     std::to_string(single.totals.total_bytes_per_gpu) + " B > budget " +
                     budget_text(workload, gpu, budget);
    return answer;
  }
  answer.value = detail::largest_passing(1, std::int64_t{1} << 24, [&](std::int64_t batch) {
    candidate.batch_size = batch;
    return fits(model, weights, candidate, budget);
  });
  answer.limited_by = answer.value == (std::int64_t{1} << 24) ? "search limit" : "kv_cache";
  candidate.batch_size = answer.value;
  const InferenceMemory at_max = inference_memory(model, weights, candidate);
  answer.formula = "largest batch with weights + KV cache + activations + logits + overhead <= budget " +
                   budget_text(workload, gpu, budget) + ": batch " + std::to_string(answer.value) + " uses " +
                   std::to_string(at_max.totals.total_bytes_per_gpu) + " B, of which KV cache " +
                   std::to_string(at_max.totals.kv_cache_bytes) + " B";
  return answer;
}

CapacityAnswer max_context_tokens(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const InferenceWorkload& workload, const Accelerator& gpu) {
  const std::int64_t budget = memory_budget_bytes(gpu, workload.gpu_memory_utilization);
  const LayoutWeights weights = layout_weights(model, tensors, workload);  // the same for every candidate
  InferenceWorkload candidate = workload;
  candidate.context_tokens = 1;
  CapacityAnswer answer;
  const InferenceMemory shortest = inference_memory(model, weights, candidate);
  if (shortest.totals.total_bytes_per_gpu > budget) {
    answer.limited_by = first_blocker(shortest, budget);
    answer.formula = "even one token per sequence needs " + std::to_string(shortest.totals.total_bytes_per_gpu) +
                     " B > budget " + budget_text(workload, gpu, budget);
    return answer;
  }
  const std::int64_t model_limit =
      model.max_position_embeddings > 0 ? model.max_position_embeddings : (std::int64_t{1} << 32);
  answer.value = detail::largest_passing(1, model_limit, [&](std::int64_t context) {
    candidate.context_tokens = context;
    return fits(model, weights, candidate, budget);
  });
  // A model without any KV cache (Mamba, Mamba-2: a fixed state per sequence) grows with the context
  // only through the prefill's activations.
  const bool grows_by_kv_cache = kv_cache(model, candidate).bytes_per_token > 0;
  answer.limited_by = answer.value == model_limit && model.max_position_embeddings > 0 ? kLimitedByPositions
                      : grows_by_kv_cache                                              ? "kv_cache"
                                                                                       : "activations";
  answer.formula = "longest context per sequence at batch " + std::to_string(workload.batch_size) + " within budget " +
                   budget_text(workload, gpu, budget) +
                   (answer.limited_by == kLimitedByPositions ? "; capped by the model's max_position_embeddings" : "");
  return answer;
}

CapacityAnswer min_gpus(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                        const InferenceWorkload& workload, const Accelerator& gpu) {
  const std::int64_t budget = memory_budget_bytes(gpu, workload.gpu_memory_utilization);
  const std::int64_t per_node = std::max(1, gpu.gpus_per_node);
  CapacityAnswer answer;
  InferenceWorkload candidate = workload;
  // Lower bounds skip most layouts without weighing every tensor (hundreds of layouts of a
  // thousand-layer model would otherwise take seconds). For each tp, from one look at pp 1: the
  // busiest stage holds at least 1/pp of one rank's parameters, and at least ceil(layers / pp)
  // times its lightest layer (the first stage has that many); activations and logits do not depend
  // on pp; the KV cache of the busiest stage costs only a walk over the layers. The first stage
  // also holds the embeddings, the last the output head; the final norms sit on both.
  struct Bounds {
    bool runs = false;
    std::int64_t rank_parameters = 0;
    std::int64_t lightest_layer = 0;
    std::int64_t first_stage_extra = 0;  // parameters outside the layers on the first stage
    std::int64_t last_stage_extra = 0;
    std::int64_t fixed_bytes = 0;  // activations + logits + overhead
  };
  const auto layers = static_cast<std::int64_t>(model.layer_kind_of_layer.size());
  std::vector<Bounds> bounds(static_cast<std::size_t>(per_node) + 1);
  for (std::int64_t tp = 1; tp <= per_node; ++tp) {
    Bounds& b = bounds[static_cast<std::size_t>(tp)];
    candidate.layout = workload.layout;
    candidate.layout.tensor_parallel = tp;
    candidate.layout.pipeline_parallel = 1;
    candidate.layout.data_parallel = 1;
    try {
      std::vector<std::int64_t> per_layer(static_cast<std::size_t>(layers), 0);
      for (const auto& tensor : tensors_on_busiest_gpu(model, tensors, candidate.layout)) {
        b.rank_parameters += tensor.parameters();
        if (tensor.layer >= 0)
          per_layer[static_cast<std::size_t>(tensor.layer)] += tensor.parameters();
        else if (tensor.group != ParameterGroup::lm_head)
          b.first_stage_extra += tensor.parameters();
        if (tensor.layer < 0 && tensor.group != ParameterGroup::embedding) b.last_stage_extra += tensor.parameters();
      }
      b.lightest_layer = per_layer.empty() ? 0 : *std::min_element(per_layer.begin(), per_layer.end());
      b.runs = true;
      const InferenceMemory at_one_stage = inference_memory(model, tensors, candidate);
      const InferenceMemoryTotals& at_one = at_one_stage.totals;
      b.fixed_bytes = at_one.activation_bytes + at_one.logits_bytes + at_one.overhead_bytes;
    } catch (const std::invalid_argument&) {
      // this tp cannot run the model (b.runs stays false)
    } catch (const std::overflow_error&) {
      b.fixed_bytes = workload.framework_overhead_bytes;  // the bound without activations and logits
    }
  }
  const double floor_bytes = floor_bytes_per_parameter(workload.weight_format);
  // Tensor parallel within a node first (it splits weights and KV alike), then pipeline stages.
  for (std::int64_t gpus = 1; gpus <= 4096; ++gpus) {
    for (std::int64_t tp = std::min(gpus, per_node); tp >= 1; --tp) {
      const Bounds& b = bounds[static_cast<std::size_t>(tp)];
      if (gpus % tp != 0 || !b.runs) continue;
      const std::int64_t pp = gpus / tp;
      candidate.layout = workload.layout;
      candidate.layout.tensor_parallel = tp;
      candidate.layout.pipeline_parallel = pp;
      candidate.layout.data_parallel = 1;
      const double lightest = static_cast<double>(b.lightest_layer);
      const double busiest_parameters =
          std::max({static_cast<double>(b.rank_parameters) / static_cast<double>(pp),
                    lightest * static_cast<double>((layers + pp - 1) / pp) + static_cast<double>(b.first_stage_extra),
                    lightest * static_cast<double>(layers / pp) + static_cast<double>(b.last_stage_extra)});
      // (a relative slack of 1e-9 keeps the bound strict under double rounding)
      const double limit = static_cast<double>(budget) * (1.0 + 1e-9);
      const double floor_without_kv = busiest_parameters * floor_bytes + static_cast<double>(b.fixed_bytes);
      if (floor_without_kv > limit) continue;
      try {
        if (floor_without_kv + static_cast<double>(kv_cache(model, candidate).bytes) > limit) continue;
        if (!fits(model, tensors, candidate, budget)) continue;
      } catch (const std::invalid_argument&) {
        continue;  // this split cannot run the model (heads not divisible, more stages than layers)
      } catch (const std::overflow_error&) {
        continue;  // its KV cache alone is beyond 64 bits
      }
      answer.value = gpus;
      answer.limited_by = gpus == 1 ? "fits on one GPU" : "weights and KV cache per GPU";
      answer.formula = std::to_string(gpus) + " x " + gpu.name + " as tp " + std::to_string(tp) + " x pp " +
                       std::to_string(pp) + ", each within budget " + budget_text(workload, gpu, budget);
      return answer;
    }
  }
  answer.limited_by = "no layout up to 4096 GPUs fits";
  return answer;
}

}  // namespace fitcheck
