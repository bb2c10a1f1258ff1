// SPDX-License-Identifier: MIT
// The training planner's search: every layout is weighed once with training_memory_totals() (the
// figures of training_memory() without its formulas, the same bytes on every GPU kind), then timed
// with estimate_training_time() on each kind where it fits.
#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_time.hpp"
#include "planner/ranking.hpp"

namespace fitcheck {
namespace {

// The tail of every ranking, so that ties fall the same way in one call over every GPU kind and
// in the page's join of one call per kind (web/src/plan/training-merge.ts).
auto layout_key(const TrainingPlanCandidate& c) {
  return std::make_tuple(c.gpu, c.gpus, c.tensor_parallel, c.pipeline_parallel, c.data_parallel, c.context_parallel,
                         c.expert_parallel, c.zero_stage, static_cast<int>(c.fsdp), c.fsdp_shard_group,
                         c.micro_batch_size, static_cast<int>(c.recompute), c.virtual_pipeline_stages);
}

bool better(const TrainingPlanCandidate& a, const TrainingPlanCandidate& b, TrainingPlanObjective objective) {
  switch (objective) {
    case TrainingPlanObjective::shortest_time:
      if (a.train_seconds != b.train_seconds) return a.train_seconds < b.train_seconds;
      if (a.train_cost_usd != b.train_cost_usd) return a.train_cost_usd < b.train_cost_usd;
      break;
    case TrainingPlanObjective::highest_throughput:
      if (a.tokens_per_second != b.tokens_per_second) return a.tokens_per_second > b.tokens_per_second;
      if (a.train_cost_usd != b.train_cost_usd) return a.train_cost_usd < b.train_cost_usd;
      break;
    case TrainingPlanObjective::lowest_cost:
      if (a.train_cost_usd != b.train_cost_usd) return a.train_cost_usd < b.train_cost_usd;
      if (a.train_seconds != b.train_seconds) return a.train_seconds < b.train_seconds;
      break;
    case TrainingPlanObjective::fewest_gpus:
      if (a.gpus != b.gpus) return a.gpus < b.gpus;
      if (a.train_seconds != b.train_seconds) return a.train_seconds < b.train_seconds;
      break;
  }
  return layout_key(a) < layout_key(b);
}

// The frontier's axes: time to train and cost (lower or equal on both).
bool covers(const TrainingPlanCandidate& a, const TrainingPlanCandidate& b) {
  return a.train_seconds <= b.train_seconds && a.train_cost_usd <= b.train_cost_usd;
}

void check_request(const TrainingPlanRequest& request) {
  check_lora_settings(request.base.workload);
  if (request.gpus.empty()) throw OptionError("gpus", "the training planner needs at least one GPU kind");
  for (const auto* gpu : request.gpus)
    if (!gpu) throw OptionError("gpus", "unknown GPU in the training planner's list");
  if (request.max_gpus < 1 || request.max_gpus > 65536)
    throw OptionError("max_gpus", "max GPUs must be between 1 and 65536");
  if (request.max_gpus_per_node < 0) throw OptionError("gpus_per_node", "GPUs per node cannot be negative");
  if (!(request.memory_headroom >= 0.0 && request.memory_headroom < 1.0))
    throw OptionError("headroom", "memory headroom must be in [0, 1)");
  if (request.micro_batch_sizes.empty())
    throw OptionError("micro_batch_sizes", "the planner needs at least one micro-batch size");
  for (auto size : request.micro_batch_sizes)
    if (size < 1 || size > (std::int64_t{1} << 24))
      throw OptionError("micro_batch_sizes", "micro-batch sizes must be between 1 and 2^24");
  if (request.zero_stages.empty()) throw OptionError("zero_stages", "the planner needs at least one ZeRO stage");
  for (int stage : request.zero_stages)
    if (stage < 0 || stage > 3) throw OptionError("zero_stages", "ZeRO stages must be 0, 1, 2 or 3");
  if (request.recompute_modes.empty())
    throw OptionError("recompute_modes", "the planner needs at least one recompute mode");
  if (request.virtual_stages.empty())
    throw OptionError("virtual_stages", "the planner needs at least one virtual stage count (1: plain 1F1B)");
  for (auto v : request.virtual_stages)
    if (v < 1 || v > 1024) throw OptionError("virtual_stages", "virtual stages must be between 1 and 1024");
  if (request.keep < 1) throw OptionError("keep", "keep at least one candidate");
  const std::int64_t seq = request.base.workload.sequence_tokens;
  if (seq < 1) throw OptionError("seq_len", "sequence length must be at least 1 token");
  if (request.global_batch_tokens < seq || request.global_batch_tokens % seq != 0)
    throw OptionError("global_batch_tokens", "the global batch (" + std::to_string(request.global_batch_tokens) +
                                                 " tokens) must be a whole number of sequences of seq_len " +
                                                 std::to_string(seq) + " tokens");
}

template <typename T>
std::vector<T> sorted_unique(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

struct Degrees {
  std::int64_t tp = 1, cp = 1, pp = 1, dp = 1, ep = 1;
};

// Every (tp, cp, pp, dp, ep) of at most max_gpus GPUs: tp, cp and pp powers of two (tp x cp within
// the largest node of the kinds, pp at most the layers), dp any count that divides the global
// batch's sequences, ep a power of two dividing the experts and dp x cp (experts are carved from
// the data- and context-parallel ranks, as in training_time.hpp).
std::vector<Degrees> layouts_of(const ModelDescription& model, const TrainingPlanRequest& request,
                                std::int64_t sequences, std::int64_t largest_node) {
  std::int64_t experts = 0;
  for (const auto& kind : model.layer_kinds)
    if (kind.is_moe()) experts = std::max<std::int64_t>(experts, kind.moe.num_experts);
  const std::int64_t seq = request.base.workload.sequence_tokens;
  std::vector<Degrees> out;
  for (std::int64_t tp = 1; tp <= std::min(largest_node, request.max_gpus); tp *= 2)
    for (std::int64_t cp = 1; tp * cp <= std::min(largest_node, request.max_gpus); cp *= 2) {
      if (seq % cp != 0) continue;
      for (std::int64_t pp = 1; pp <= model.num_layers && tp * cp * pp <= request.max_gpus; pp *= 2)
        for (std::int64_t dp = 1; tp * cp * pp * dp <= request.max_gpus; ++dp) {
          if (sequences % dp != 0 || sequences / dp < pp) continue;
          for (std::int64_t ep = 1; ep <= std::max<std::int64_t>(experts, 1); ep *= 2) {
            if (ep > 1 && (experts % ep != 0 || (dp * cp) % ep != 0)) continue;
            out.push_back({tp, cp, pp, dp, ep});
          }
        }
    }
  return out;
}

// Whether a layout runs `chunks` model chunks per GPU with `micro_batches` per step. Chunks need a
// pipeline, and the zero-bubble schedule modelled runs one. The interleaved schedule runs the
// micro-batches in groups of pp: Megatron-Core refuses a last group smaller than pp
// (NVIDIA/Megatron-LM@d98e8a64 megatron/core/pipeline_parallel/schedules.py
// forward_backward_pipelining_with_interleaving, microbatch_group_size_per_vp_stage defaulting to pp
// in model_parallel_config.py), and PyTorch's ScheduleInterleaved1F1B asks for a multiple of the
// pipeline ranks.
bool runs_chunks(const Degrees& d, std::int64_t chunks, std::int64_t micro_batches, bool zero_bubble) {
  if (chunks == 1) return true;
  return d.pp >= 2 && !zero_bubble && micro_batches % d.pp == 0;
}

struct Sharding {
  FsdpMode fsdp = FsdpMode::off;
  std::int64_t shard_group = 0;  // HYBRID_SHARD only
};

// The shardings a requested ZeRO stage runs as. Under a framework that shards with FSDP: fully_shard
// with reshard_after_forward true is FULL_SHARD, ZeRO-3's collectives; false is SHARD_GRAD_OP,
// ZeRO-2's; ZeRO-1 has no FSDP counterpart (none). Stage 3 also runs as HYBRID_SHARD where the
// framework offers it and the dp x cp ranks span more than one node: sharded over a group of whole
// nodes (one node's GPUs over tp, then two nodes', four..., the inner mesh dimensions
// dp_shard x cp x tp of torchtitan's and AutoModel's device mesh, which take any divisor of the
// data-parallel ranks), replicated across the groups. One node keeps the per-micro-batch gathers on
// the node's links (PyTorch's FSDP HYBRID_SHARD: "shard within a node and replicate across
// nodes"); a larger group holds less per GPU where one node's share does not fit.
std::vector<Sharding> shardings_of(int zero, const FrameworkParallelism& framework, const Degrees& d,
                                   std::int64_t node_gpus) {
  if (!framework.shards_with_fsdp) return {{FsdpMode::off, 0}};
  switch (zero) {
    case 0:
      return {{FsdpMode::off, 0}};
    case 2:
      return {{FsdpMode::shard_grad_op, 0}};
    case 3: {
      std::vector<Sharding> out{{FsdpMode::full_shard, 0}};
      const std::int64_t replicas = d.dp * d.cp;
      if (!framework.hybrid_shard || node_gpus % d.tp != 0) return out;
      for (std::int64_t group = node_gpus / d.tp; group < replicas; group *= 2)
        if (group >= 2 && group % d.cp == 0 && replicas % group == 0) out.push_back({FsdpMode::hybrid_shard, group});
      return out;
    }
    default:
      return {};
  }
}

TrainingPlanCandidate candidate_of(const Degrees& d, int zero, const Sharding& sharding, Recompute recompute,
                                   std::int64_t chunks, std::int64_t micro_batch, std::int64_t micro_batches) {
  TrainingPlanCandidate c;
  c.gpus = d.tp * d.cp * d.pp * d.dp;
  c.tensor_parallel = d.tp;
  c.pipeline_parallel = d.pp;
  c.data_parallel = d.dp;
  c.context_parallel = d.cp;
  c.expert_parallel = d.ep;
  c.virtual_pipeline_stages = chunks;
  c.sequence_parallel = d.tp > 1;
  c.zero_stage = sharding.fsdp == FsdpMode::off ? zero : 0;
  c.fsdp = sharding.fsdp;
  c.fsdp_shard_group = sharding.shard_group;
  c.micro_batch_size = micro_batch;
  c.gradient_accumulation_steps = micro_batches;
  c.recompute = recompute;
  return c;
}

void set_time(TrainingPlanCandidate& c, const TrainingTime& time) {
  c.step_seconds = time.step_seconds;
  c.tokens_per_second = time.tokens_per_second;
  c.mfu = time.mfu;
  c.train_seconds = time.train_seconds;
  c.train_gpu_hours = time.train_gpu_hours;
  c.train_cost_usd = time.train_cost_usd;
  c.price_per_hour_usd = time.price_per_gpu_hour_usd;
}

}  // namespace

const char* training_plan_objective_name(TrainingPlanObjective objective) {
  switch (objective) {
    case TrainingPlanObjective::shortest_time:
      return "shortest_time";
    case TrainingPlanObjective::highest_throughput:
      return "highest_throughput";
    case TrainingPlanObjective::lowest_cost:
      return "lowest_cost";
    case TrainingPlanObjective::fewest_gpus:
      return "fewest_gpus";
  }
  return "unknown";
}

std::optional<TrainingPlanObjective> find_training_plan_objective(std::string_view id) {
  for (auto objective : {TrainingPlanObjective::shortest_time, TrainingPlanObjective::highest_throughput,
                         TrainingPlanObjective::lowest_cost, TrainingPlanObjective::fewest_gpus}) {
    const std::string_view name = training_plan_objective_name(objective);
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

TrainingRequest training_request_of(const TrainingPlanCandidate& c, const TrainingPlanRequest& request) {
  TrainingRequest out = request.base;
  TrainingWorkload& w = out.workload;
  w.layout = {c.tensor_parallel, c.pipeline_parallel, c.expert_parallel, c.data_parallel};
  w.context_parallel = c.context_parallel;
  w.sequence_parallel = c.sequence_parallel;
  w.virtual_pipeline_stages = c.virtual_pipeline_stages;
  w.micro_batches_per_step = c.gradient_accumulation_steps;
  w.zero_stage = c.zero_stage;
  w.fsdp = c.fsdp;
  if (c.fsdp == FsdpMode::hybrid_shard) w.fsdp_shard_group = c.fsdp_shard_group;
  w.micro_batch_size = c.micro_batch_size;
  w.recompute = c.recompute;
  w.global_batch_tokens = request.global_batch_tokens;
  out.gpu = request.gpus.at(c.gpu);
  return out;
}

TrainingPlan plan_training(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                           const TrainingPlanRequest& request, const PlanProgress& progress) {
  check_request(request);
  check_trainable(model);  // not "no layout fits" for a model whose training memory is not modelled
  TrainingPlan plan;
  const std::int64_t sequences = request.global_batch_tokens / request.base.workload.sequence_tokens;
  const auto micro_batches = sorted_unique(request.micro_batch_sizes);
  const auto zero_stages = sorted_unique(request.zero_stages);
  const auto recompute_modes = sorted_unique(request.recompute_modes);
  const auto virtual_stages = sorted_unique(request.virtual_stages);

  // Per GPU kind: node size, memory budget and the step-time assumptions.
  const std::size_t kinds = request.gpus.size();
  std::vector<std::int64_t> node(kinds), budget(kinds);
  std::vector<TrainingAssumptions> assumptions(kinds);
  std::int64_t largest_node = 1;
  for (std::size_t g = 0; g < kinds; ++g) {
    const Accelerator& gpu = *request.gpus[g];
    node[g] = request.max_gpus_per_node > 0 ? request.max_gpus_per_node : std::max(1, gpu.gpus_per_node);
    largest_node = std::max(largest_node, node[g]);
    budget[g] = memory_budget_bytes(gpu, 1.0 - request.memory_headroom);
    assumptions[g] = training_assumptions(request.base, gpu);
  }
  const std::vector<Degrees> layouts = layouts_of(model, request, sequences, largest_node);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);

  auto ranks_before = [&](const TrainingPlanCandidate& a, const TrainingPlanCandidate& b) {
    return better(a, b, request.objective);
  };
  detail::BestCandidates<TrainingPlanCandidate, decltype(ranks_before)> best(request.keep, ranks_before);
  std::int64_t repeated_zero = 0;
  // Layouts beyond the framework's parallelisms (framework_parallelism) are not searched.
  std::int64_t beyond_framework = 0;
  const auto framework_runs = [&](const Degrees& d, int zero, const Sharding& sharding) {
    TrainingWorkload probe = request.base.workload;
    probe.layout = {d.tp, d.pp, d.ep, d.dp};
    probe.context_parallel = d.cp;
    probe.zero_stage = sharding.fsdp == FsdpMode::off ? zero : 0;
    probe.fsdp = sharding.fsdp;
    return framework_parallelism_gap(probe).empty();
  };
  const FrameworkParallelism& parallelism = framework_parallelism(request.base.workload.framework);
  const bool fsdp_framework = parallelism.shards_with_fsdp;
  bool zero_one_skipped = false, hybrid_searched = false;
  std::vector<bool> open(kinds);
  // A kind listed twice is planned once (its first place), as the option readers keep it.
  std::vector<bool> repeated(kinds);
  for (std::size_t g = 0; g < kinds; ++g)
    repeated[g] = std::find(request.gpus.begin(), request.gpus.begin() + static_cast<std::ptrdiff_t>(g),
                            request.gpus[g]) != request.gpus.begin() + static_cast<std::ptrdiff_t>(g);
  for (std::size_t l = 0; l < layouts.size(); ++l) {
    if (progress && !progress(static_cast<double>(l) / static_cast<double>(layouts.size()))) {
      plan.notes.push_back("stopped early");
      break;
    }
    const Degrees& d = layouts[l];
    // Runs of this layout that fitted, by (recompute, chunks, micro-batch, GPU kind), with their
    // step time: a higher ZeRO stage that only saves memory (the same step time, so the same cost)
    // repeats a row; the lowest stage that fits is listed, as DeepSpeed's guidance is to raise the
    // stage only when memory demands it (deepspeed.ai/tutorials/zero: stage 3 adds parameter
    // all-gathers).
    std::vector<std::tuple<Recompute, std::int64_t, std::int64_t, std::size_t, double>> fitted;
    for (int zero : zero_stages) {
      // ZeRO shards over dp x cp: a single replica has nothing to shard, so every stage is the
      // same run there and only the list's first is tried.
      if (d.dp * d.cp == 1 && zero != zero_stages.front()) continue;
      const std::vector<Sharding> shardings = shardings_of(zero, parallelism, d, largest_node);
      if (shardings.empty()) zero_one_skipped = true;
      for (const Sharding& sharding : shardings) {
        if (!framework_runs(d, zero, sharding)) {
          beyond_framework += 1;
          continue;
        }
        hybrid_searched = hybrid_searched || sharding.fsdp == FsdpMode::hybrid_shard;
        for (Recompute recompute : recompute_modes) {
          for (std::int64_t chunks : virtual_stages) {
            if (chunks > 1 && d.pp < 2) continue;
            for (std::size_t g = 0; g < kinds; ++g) open[g] = d.tp * d.cp <= node[g] && !repeated[g];
            // Memory grows with the micro-batch (the sequences in flight, min(pp x b, sequences / dp),
            // never shrink), so a kind is closed at the first size that does not fit it.
            for (std::int64_t size : micro_batches) {
              if (std::none_of(open.begin(), open.end(), [](bool o) { return o; })) break;
              const std::int64_t steps = sequences / d.dp / size;  // micro-batches per step
              if ((sequences / d.dp) % size != 0 || steps < d.pp) continue;
              if (!runs_chunks(d, chunks, steps, request.base.workload.zero_bubble_schedule)) continue;
              TrainingPlanCandidate c = candidate_of(d, zero, sharding, recompute, chunks, size, steps);
              std::size_t first_open = 0;
              while (!open[first_open]) ++first_open;
              c.gpu = first_open;
              const TrainingRequest training = training_request_of(c, request);
              std::int64_t bytes = 0;
              try {
                // The figures alone: the planner writes no formulas.
                const TrainingWorkload& w = training.workload;
                bytes = training_memory_totals(model, prepare_training_memory(model, tensors, w), w.micro_batch_size,
                                               w.sequence_tokens)
                            .total_bytes_per_gpu;
              } catch (const std::exception&) {
                break;  // this split cannot run the model (heads, experts or sizes do not divide)
              }
              for (std::size_t g = 0; g < kinds; ++g) {
                if (!open[g]) continue;
                plan.evaluated += 1;
                if (bytes > budget[g]) {
                  open[g] = false;
                  continue;
                }
                TrainingTime time;
                try {
                  time = estimate_training_time(prepared, training.workload, *request.gpus[g],
                                                request.base.train_tokens, assumptions[g]);
                } catch (const std::invalid_argument&) {
                  open[g] = false;  // no rate for this precision on this chip, or a size the clock refuses
                  continue;
                }
                const auto run = std::make_tuple(recompute, chunks, size, g, time.step_seconds);
                if (std::find(fitted.begin(), fitted.end(), run) != fitted.end()) {
                  plan.feasible += 1;
                  repeated_zero += 1;
                  continue;
                }
                fitted.push_back(run);
                c.gpu = g;
                c.memory_bytes_per_gpu = bytes;
                c.budget_bytes_per_gpu = budget[g];
                set_time(c, time);
                plan.feasible += 1;
                detail::add_to_frontier(plan.frontier, c, covers);
                best.offer(c);
              }
            }
          }
        }
      }
    }
  }
  if (progress) progress(1.0);
  plan.best = best.take_sorted();
  if (beyond_framework > 0) {
    const TrainingFrameworkProfile& framework = training_framework(request.base.workload);
    plan.notes.push_back(std::to_string(beyond_framework) + (beyond_framework == 1 ? " layout is" : " layouts are") +
                         " not searched: " + framework.name + " runs " +
                         framework_parallelism(framework.framework).rule);
  }
  if (fsdp_framework)
    plan.notes.push_back(std::string(training_framework(request.base.workload).name) +
                         " shards with FSDP: ZeRO stage 2 runs as FSDP SHARD_GRAD_OP, 3 as FULL_SHARD" +
                         (hybrid_searched ? " and as HYBRID_SHARD over whole nodes of " + std::to_string(largest_node) +
                                                " GPUs (shard group = one node's GPUs / tp, or two or four... nodes', "
                                                "replicated across the groups)"
                                          : std::string()) +
                         ", 0 unsharded" +
                         (zero_one_skipped ? "; stage 1 (optimizer states only) has no FSDP counterpart and is not "
                                             "searched"
                                           : ""));
  if (repeated_zero > 0)
    plan.notes.push_back(std::to_string(repeated_zero) +
                         " layouts that fit are not listed: they repeat a listed one with a higher sharding stage, "
                         "less memory and the same step time (the lowest stage that fits is listed)");
  std::sort(plan.frontier.begin(), plan.frontier.end(), [](const auto& a, const auto& b) {
    return std::tie(a.train_cost_usd, a.train_seconds) < std::tie(b.train_cost_usd, b.train_seconds);
  });
  if (layouts.empty())
    plan.notes.push_back("no layout divides the global batch: " + std::to_string(sequences) +
                         " sequences per step cannot be split over the GPUs allowed");
  if (plan.feasible == 0) plan.notes.push_back("no training layout fits the GPUs given");
  return plan;
}

}  // namespace fitcheck
