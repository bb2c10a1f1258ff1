// SPDX-License-Identifier: MIT
#include "fitcheck/planner.hpp"

#include "fitcheck/options.hpp"
#include "planner/ranking.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace fitcheck {
namespace {

// Per-GPU memory of one (format, layout, KV dtype) at each batch of the request, evaluated with
// inference_memory_totals() (what `fitcheck infer` reports for the same layout) at every batch: with
// a prefill chunk the activations and eager scores stop growing once a step holds the chunk, so
// memory is not a line through two batches.
struct MemoryByBatch {
  bool valid = false;               // false: this split cannot run the model
  std::vector<std::int64_t> bytes;  // per batch, in the sorted batch order
  static constexpr std::int64_t beyond = std::numeric_limits<std::int64_t>::max();  // past 2^53 bytes
};

struct LayoutChoice {
  std::int64_t tp = 1, pp = 1, ep = 1;
};

// The tail of every ranking: layouts the objective ties on (an fp8 and an int8 KV cache of the same
// size and speed) fall in one order everywhere, whatever the sort's implementation (libstdc++
// natively, libc++ in WebAssembly), so native and WebAssembly answers are the same.
auto layout_key(const PlanCandidate& c) {
  return std::make_tuple(c.gpu, c.gpus, c.tensor_parallel, c.pipeline_parallel, c.expert_parallel,
                         static_cast<int>(c.weight_format), static_cast<int>(c.kv_cache_dtype), c.batch_size);
}

bool better(const PlanCandidate& a, const PlanCandidate& b, PlanObjective objective) {
  switch (objective) {
    case PlanObjective::lowest_latency:
      if (a.end_to_end_seconds != b.end_to_end_seconds) return a.end_to_end_seconds < b.end_to_end_seconds;
      if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
        return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
      break;
    case PlanObjective::highest_throughput:
      if (a.tokens_per_second != b.tokens_per_second) return a.tokens_per_second > b.tokens_per_second;
      if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
        return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
      break;
    case PlanObjective::lowest_cost:
      if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
        return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
      if (a.end_to_end_seconds != b.end_to_end_seconds) return a.end_to_end_seconds < b.end_to_end_seconds;
      break;
    case PlanObjective::fewest_gpus:
      if (a.gpus != b.gpus) return a.gpus < b.gpus;
      if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
        return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
      break;
  }
  return layout_key(a) < layout_key(b);
}

// The frontier's axes: throughput (higher) and cost per output token (lower).
bool covers(const PlanCandidate& a, const PlanCandidate& b) {
  return a.tokens_per_second >= b.tokens_per_second &&
         a.cost_per_million_output_tokens_usd <= b.cost_per_million_output_tokens_usd;
}

void check_request(const InferencePlanRequest& request) {
  if (request.gpus.empty()) throw OptionError("gpus", "the planner needs at least one GPU kind");
  for (const auto* gpu : request.gpus)
    if (!gpu) throw OptionError("gpus", "unknown GPU in the planner's list");
  if (request.max_gpus < 1 || request.max_gpus > 4096)
    throw OptionError("max_gpus", "max GPUs must be between 1 and 4096");
  if (request.weight_formats.empty()) throw OptionError("weights", "the planner needs at least one weight format");
  if (request.kv_cache_dtypes.empty()) throw OptionError("kv_dtype", "the planner needs at least one KV cache dtype");
  if (request.batch_sizes.empty()) throw OptionError("batch", "the planner needs at least one batch size");
  for (auto batch : request.batch_sizes)
    if (batch < 1 || batch > (std::int64_t{1} << 24))
      throw OptionError("batch", "batch sizes must be between 1 and 2^24");
  if (request.prompt_tokens < 1 || request.generated_tokens < 1)
    throw OptionError("prompt_len", "prompt and generated lengths must be at least 1 token");
  if (!(request.memory_headroom >= 0.0 && request.memory_headroom < 1.0))
    throw OptionError("headroom", "memory headroom must be in [0, 1)");
  if (request.keep < 1) throw OptionError("keep", "keep at least one candidate");
}

}  // namespace

const char* plan_objective_name(PlanObjective objective) {
  switch (objective) {
    case PlanObjective::lowest_latency:
      return "lowest_latency";
    case PlanObjective::highest_throughput:
      return "highest_throughput";
    case PlanObjective::lowest_cost:
      return "lowest_cost";
    case PlanObjective::fewest_gpus:
      return "fewest_gpus";
  }
  return "unknown";
}

std::optional<PlanObjective> find_plan_objective(std::string_view id) {
  for (auto objective : {PlanObjective::lowest_latency, PlanObjective::highest_throughput, PlanObjective::lowest_cost,
                         PlanObjective::fewest_gpus}) {
    std::string_view name = plan_objective_name(objective);
    if (name.size() != id.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < id.size(); ++i) {
      const char c = id[i] == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(id[i])));
      same = same && c == name[i];
    }
    if (same) return objective;
  }
  return std::nullopt;
}

InferencePlan plan_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                             const InferencePlanRequest& request, const PlanProgress& progress) {
  check_request(request);
  InferencePlan plan;
  const std::int64_t context = request.prompt_tokens + request.generated_tokens;
  std::vector<std::int64_t> batches = request.batch_sizes;
  std::sort(batches.begin(), batches.end());
  batches.erase(std::unique(batches.begin(), batches.end()), batches.end());

  bool moe = false;
  std::int64_t experts = 0;
  for (const auto& kind : model.layer_kinds)
    if (kind.is_moe()) {
      moe = true;
      experts = kind.moe.num_experts;
    }

  // Every (tp, pp, ep) a replica of at most max_gpus could use; per GPU kind, tp is capped by the node.
  std::vector<LayoutChoice> layouts;
  for (std::int64_t tp = 1; tp <= request.max_gpus; tp *= 2)
    for (std::int64_t pp = 1; tp * pp <= request.max_gpus && pp <= model.num_layers; ++pp)
      for (std::int64_t ep = 1; ep <= (moe ? std::min(tp, experts) : 1); ep *= 2) layouts.push_back({tp, pp, ep});

  // Exact memory per (format, layout, kv dtype) at every batch, independent of the GPU kind; the
  // weights of a (format, layout) once for all its KV dtypes and batches.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, MemoryByBatch> memory;
  std::map<std::pair<std::size_t, std::size_t>, std::optional<LayoutWeights>> weights;
  auto memory_by_batch = [&](std::size_t format, std::size_t layout, std::size_t kv) -> const MemoryByBatch& {
    auto [it, inserted] = memory.try_emplace({format, layout, kv});
    if (!inserted) return it->second;
    InferenceWorkload workload = request.base;
    workload.weight_format = request.weight_formats[format];
    workload.kv_cache_dtype = request.kv_cache_dtypes[kv];
    workload.layout = {layouts[layout].tp, layouts[layout].pp, layouts[layout].ep, 1};
    workload.context_tokens = context;
    MemoryByBatch& result = it->second;
    try {
      auto [w, first] = weights.try_emplace({format, layout});
      if (first) w->second = layout_weights(model, tensors, workload);
      if (!w->second) throw std::invalid_argument("this split cannot run the model");
      for (const std::int64_t batch : batches) {
        workload.batch_size = batch;
        try {
          result.bytes.push_back(inference_memory_totals(model, *w->second, workload).total_bytes_per_gpu);
        } catch (const std::overflow_error&) {
          result.bytes.push_back(MemoryByBatch::beyond);  // more than any GPU holds
        }
      }
      result.valid = true;
    } catch (const std::invalid_argument&) {
      result = {};  // this split cannot run the model
    }
    return result;
  };

  std::vector<PreparedLatencyModel> prepared;
  for (auto format : request.weight_formats)
    prepared.push_back(prepare_latency_model(model, tensors, format, request.base.weight_options));

  auto ranks_before = [&](const PlanCandidate& a, const PlanCandidate& b) { return better(a, b, request.objective); };
  detail::BestCandidates<PlanCandidate, decltype(ranks_before)> best(request.keep, ranks_before);
  const double total_steps = static_cast<double>(request.gpus.size() * layouts.size());
  double steps = 0;
  const LatencyRequest lengths{request.prompt_tokens, request.generated_tokens};

  for (std::size_t g = 0; g < request.gpus.size(); ++g) {
    // A kind listed twice is planned once (its first place), as the option readers keep it.
    if (std::find(request.gpus.begin(), request.gpus.begin() + static_cast<std::ptrdiff_t>(g), request.gpus[g]) !=
        request.gpus.begin() + static_cast<std::ptrdiff_t>(g)) {
      steps += static_cast<double>(layouts.size());
      continue;
    }
    const Accelerator& gpu = *request.gpus[g];
    const std::int64_t node =
        request.max_gpus_per_node > 0 ? request.max_gpus_per_node : std::max(1, gpu.gpus_per_node);
    const std::int64_t budget = memory_budget_bytes(gpu, 1.0 - request.memory_headroom);
    LatencyAssumptions assumptions = request.assumptions;
    if (request.use_gpu_prices) assumptions.price_per_gpu_hour_usd = -1;
    for (std::size_t l = 0; l < layouts.size(); ++l) {
      steps += 1;
      if (progress && !progress(steps / total_steps)) {
        plan.notes.push_back("stopped early");
        g = request.gpus.size();
        break;
      }
      const LayoutChoice& layout = layouts[l];
      if (layout.tp > node) continue;
      for (std::size_t f = 0; f < request.weight_formats.size(); ++f) {
        for (std::size_t k = 0; k < request.kv_cache_dtypes.size(); ++k) {
          const MemoryByBatch& by_batch = memory_by_batch(f, l, k);
          if (!by_batch.valid) continue;
          InferenceWorkload workload = request.base;
          workload.weight_format = request.weight_formats[f];
          workload.kv_cache_dtype = request.kv_cache_dtypes[k];
          workload.layout = {layout.tp, layout.pp, layout.ep, 1};
          workload.context_tokens = context;
          for (std::size_t b = 0; b < batches.size(); ++b) {
            const std::int64_t batch = batches[b];
            plan.evaluated += 1;
            const std::int64_t bytes = by_batch.bytes[b];
            // Every term is non-decreasing in the batch (the KV cache and logits grow with it, a
            // prefill step's tokens are min(chunk, batch x context)): larger ones do not fit either.
            if (bytes > budget) break;
            workload.batch_size = batch;
            LatencyTotals estimate;
            try {
              estimate = estimate_latency_totals(prepared[f], workload, gpu, lengths, assumptions);
            } catch (const std::invalid_argument&) {
              break;  // the chip has no rate for this format's products
            }
            PlanCandidate candidate;
            candidate.gpu = g;
            candidate.tensor_parallel = layout.tp;
            candidate.pipeline_parallel = layout.pp;
            candidate.expert_parallel = layout.ep;
            candidate.weight_format = workload.weight_format;
            candidate.kv_cache_dtype = workload.kv_cache_dtype;
            candidate.batch_size = batch;
            candidate.gpus = layout.tp * layout.pp;
            candidate.memory_bytes_per_gpu = bytes;
            candidate.budget_bytes_per_gpu = budget;
            candidate.time_to_first_token_seconds = estimate.prefill_seconds;
            candidate.time_per_output_token_seconds =
                estimate.decode_tokens_per_second > 0 ? static_cast<double>(batch) / estimate.decode_tokens_per_second
                                                      : 0;
            candidate.end_to_end_seconds = estimate.end_to_end_seconds;
            candidate.tokens_per_second = estimate.batch_tokens_per_second;
            candidate.cost_per_million_output_tokens_usd = estimate.cost_per_million_output_tokens_usd;
            candidate.price_per_hour_usd = estimate.price_per_hour_usd;
            if (request.ttft_target_seconds > 0 && candidate.time_to_first_token_seconds > request.ttft_target_seconds)
              continue;
            if (request.tpot_target_seconds > 0 &&
                candidate.time_per_output_token_seconds > request.tpot_target_seconds)
              continue;
            plan.feasible += 1;
            detail::add_to_frontier(plan.frontier, candidate, covers);
            best.offer(candidate);
          }
        }
      }
    }
  }
  plan.best = best.take_sorted();
  std::sort(plan.frontier.begin(), plan.frontier.end(), [](const auto& a, const auto& b) {
    if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
      return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
    return layout_key(a) < layout_key(b);
  });
  if (plan.feasible == 0) plan.notes.push_back("no layout fits the GPUs and targets given");
  return plan;
}

}  // namespace fitcheck
