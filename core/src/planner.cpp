// SPDX-License-Identifier: MIT
#include "fitcheck/planner.hpp"

#include "fitcheck/options.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace fitcheck {
namespace {

// Per-GPU memory of one (format, layout, KV dtype) as an exact affine function of the batch:
// every term of inference_memory() is a constant or proportional to the batch (KV cache, logits,
// and activations when the whole batch is prefilled at once), so two exact evaluations give all.
struct MemoryLine {
  bool valid = false;
  std::int64_t at_batch_one = 0;
  std::int64_t per_extra_sequence = 0;
  std::int64_t at(std::int64_t batch) const { return at_batch_one + (batch - 1) * per_extra_sequence; }
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

// Keeps the candidates no other beats on both throughput (higher) and cost (lower).
void add_to_frontier(std::vector<PlanCandidate>& frontier, const PlanCandidate& candidate) {
  for (const auto& kept : frontier) {
    if (kept.tokens_per_second >= candidate.tokens_per_second &&
        kept.cost_per_million_output_tokens_usd <= candidate.cost_per_million_output_tokens_usd)
      return;  // dominated (or equal)
  }
  frontier.erase(std::remove_if(frontier.begin(), frontier.end(),
                                [&](const PlanCandidate& kept) {
                                  return candidate.tokens_per_second >= kept.tokens_per_second &&
                                         candidate.cost_per_million_output_tokens_usd <= kept.cost_per_million_output_tokens_usd;
                                }),
                 frontier.end());
  frontier.push_back(candidate);
}

void check_request(const InferencePlanRequest& request) {
  if (request.gpus.empty()) throw OptionError("gpus", "the planner needs at least one GPU kind");
  for (const auto* gpu : request.gpus)
    if (!gpu) throw OptionError("gpus", "unknown GPU in the planner's list");
  if (request.max_gpus < 1 || request.max_gpus > 4096) throw OptionError("max_gpus", "max GPUs must be between 1 and 4096");
  if (request.weight_formats.empty()) throw OptionError("weights", "the planner needs at least one weight format");
  if (request.kv_cache_dtypes.empty()) throw OptionError("kv_dtype", "the planner needs at least one KV cache dtype");
  if (request.batch_sizes.empty()) throw OptionError("batch", "the planner needs at least one batch size");
  for (auto batch : request.batch_sizes)
    if (batch < 1 || batch > (std::int64_t{1} << 24)) throw OptionError("batch", "batch sizes must be between 1 and 2^24");
  if (request.prompt_tokens < 1 || request.generated_tokens < 1)
    throw OptionError("prompt_len", "prompt and generated lengths must be at least 1 token");
  if (!(request.memory_headroom >= 0.0 && request.memory_headroom < 1.0))
    throw OptionError("headroom", "memory headroom must be in [0, 1)");
  if (request.keep < 1) throw OptionError("keep", "keep at least one candidate");
}

}  // namespace

const char* plan_objective_name(PlanObjective objective) {
  switch (objective) {
    case PlanObjective::lowest_latency: return "lowest_latency";
    case PlanObjective::highest_throughput: return "highest_throughput";
    case PlanObjective::lowest_cost: return "lowest_cost";
    case PlanObjective::fewest_gpus: return "fewest_gpus";
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

  // Exact memory per (format, layout, kv dtype), independent of the GPU kind; the weights of a
  // (format, layout) once for all its KV dtypes.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, MemoryLine> memory;
  std::map<std::pair<std::size_t, std::size_t>, std::optional<LayoutWeights>> weights;
  auto memory_line = [&](std::size_t format, std::size_t layout, std::size_t kv) -> const MemoryLine& {
    auto [it, inserted] = memory.try_emplace({format, layout, kv});
    if (!inserted) return it->second;
    InferenceWorkload workload = request.base;
    workload.weight_format = request.weight_formats[format];
    workload.kv_cache_dtype = request.kv_cache_dtypes[kv];
    workload.layout = {layouts[layout].tp, layouts[layout].pp, layouts[layout].ep, 1};
    workload.context_tokens = context;
    try {
      auto [w, first] = weights.try_emplace({format, layout});
      if (first) w->second = layout_weights(model, tensors, workload);
      if (!w->second) throw std::invalid_argument("this split cannot run the model");
      workload.batch_size = 1;
      const std::int64_t one = inference_memory_totals(model, *w->second, workload).total_bytes_per_gpu;
      workload.batch_size = 2;
      const std::int64_t two = inference_memory_totals(model, *w->second, workload).total_bytes_per_gpu;
      it->second = {true, one, two - one};
    } catch (const std::invalid_argument&) {
      it->second.valid = false;  // this split cannot run the model
    }
    return it->second;
  };

  std::vector<PreparedLatencyModel> prepared;
  for (auto format : request.weight_formats) prepared.push_back(prepare_latency_model(model, tensors, format, request.base.weight_options));

  std::vector<PlanCandidate> best;  // a heap, the worst on top
  auto worse_on_top = [&](const PlanCandidate& a, const PlanCandidate& b) { return better(a, b, request.objective); };
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
    const std::int64_t node = request.max_gpus_per_node > 0 ? request.max_gpus_per_node : std::max(1, gpu.gpus_per_node);
    const auto budget =
        static_cast<std::int64_t>((1.0 - request.memory_headroom) * static_cast<double>(gpu.memory_bytes));
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
          const MemoryLine& line = memory_line(f, l, k);
          if (!line.valid) continue;
          InferenceWorkload workload = request.base;
          workload.weight_format = request.weight_formats[f];
          workload.kv_cache_dtype = request.kv_cache_dtypes[k];
          workload.layout = {layout.tp, layout.pp, layout.ep, 1};
          workload.context_tokens = context;
          for (const std::int64_t batch : batches) {
            plan.evaluated += 1;
            const std::int64_t bytes = line.at(batch);
            if (bytes > budget) break;  // memory grows with the batch: larger ones do not fit either
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
                estimate.decode_tokens_per_second > 0 ? static_cast<double>(batch) / estimate.decode_tokens_per_second : 0;
            candidate.end_to_end_seconds = estimate.end_to_end_seconds;
            candidate.tokens_per_second = estimate.batch_tokens_per_second;
            candidate.cost_per_million_output_tokens_usd = estimate.cost_per_million_output_tokens_usd;
            candidate.price_per_hour_usd = estimate.price_per_hour_usd;
            if (request.ttft_target_seconds > 0 && candidate.time_to_first_token_seconds > request.ttft_target_seconds) continue;
            if (request.tpot_target_seconds > 0 && candidate.time_per_output_token_seconds > request.tpot_target_seconds) continue;
            plan.feasible += 1;
            add_to_frontier(plan.frontier, candidate);
            if (best.size() < request.keep) {
              best.push_back(candidate);
              std::push_heap(best.begin(), best.end(), worse_on_top);
            } else if (better(candidate, best.front(), request.objective)) {
              std::pop_heap(best.begin(), best.end(), worse_on_top);
              best.back() = candidate;
              std::push_heap(best.begin(), best.end(), worse_on_top);
            }
          }
        }
      }
    }
  }
  std::sort(best.begin(), best.end(), [&](const auto& a, const auto& b) { return better(a, b, request.objective); });
  plan.best = std::move(best);
  std::sort(plan.frontier.begin(), plan.frontier.end(),
            [](const auto& a, const auto& b) {
              if (a.cost_per_million_output_tokens_usd != b.cost_per_million_output_tokens_usd)
                return a.cost_per_million_output_tokens_usd < b.cost_per_million_output_tokens_usd;
              return layout_key(a) < layout_key(b);
            });
  if (plan.feasible == 0) plan.notes.push_back("no layout fits the GPUs and targets given");
  return plan;
}

}  // namespace fitcheck
