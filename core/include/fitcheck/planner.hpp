// SPDX-License-Identifier: MIT
// The planner: search GPU kinds and counts, tensor/pipeline/expert parallel degrees, weight and KV
// formats and batch sizes for the serving layouts that fit, ranked by an objective, with the
// throughput-versus-cost frontier. Prepared once per model (all vector work, the exact memory
// terms per layout), then every candidate is arithmetic only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_request.hpp"

namespace fitcheck {

enum class PlanObjective : std::uint8_t {
  lowest_latency,      // shortest end-to-end request time
  highest_throughput,  // most generated tokens per second per replica
  lowest_cost,         // cheapest per million output tokens
  fewest_gpus,         // smallest replica, then cheapest
};
const char* plan_objective_name(PlanObjective objective);
std::optional<PlanObjective> find_plan_objective(std::string_view id);

struct InferencePlanRequest {
  std::vector<const Accelerator*> gpus;           // candidate kinds
  std::shared_ptr<const Accelerator> custom_gpu;  // owns the kind named custom, if any
  std::int64_t max_gpus = 8;                      // GPUs one replica may use
  std::int64_t max_gpus_per_node = 0;             // 0: each GPU's typical node size; tp stays within a node
  std::vector<WeightFormat> weight_formats{WeightFormat::bf16};
  std::vector<KvCacheDtype> kv_cache_dtypes{KvCacheDtype::bf16};
  std::vector<std::int64_t> batch_sizes{1, 2, 4, 8, 16, 32, 64, 128, 256};
  std::int64_t prompt_tokens = 1024;
  std::int64_t generated_tokens = 256;
  double memory_headroom = 0.1;    // share of GPU memory left unused (vLLM: 1 - 0.9)
  double ttft_target_seconds = 0;  // 0: no target
  double tpot_target_seconds = 0;  // time per output token target; 0: none
  PlanObjective objective = PlanObjective::highest_throughput;
  std::size_t keep = 20;     // best candidates returned
  InferenceWorkload base{};  // overhead, activation width, prefill chunk, paging...
  LatencyAssumptions assumptions{};
  bool use_gpu_prices = true;  // price per GPU-hour from the catalog (else assumptions')
};

struct PlanCandidate {
  std::size_t gpu = 0;  // index into request.gpus
  std::int64_t tensor_parallel = 1, pipeline_parallel = 1, expert_parallel = 1;
  WeightFormat weight_format = WeightFormat::bf16;
  KvCacheDtype kv_cache_dtype = KvCacheDtype::bf16;
  std::int64_t batch_size = 1;
  std::int64_t gpus = 1;
  std::int64_t memory_bytes_per_gpu = 0;
  std::int64_t budget_bytes_per_gpu = 0;
  double time_to_first_token_seconds = 0;
  double time_per_output_token_seconds = 0;  // mean decode step
  double end_to_end_seconds = 0;
  double tokens_per_second = 0;  // generated tokens per second, whole batch
  double cost_per_million_output_tokens_usd = 0;
  double price_per_hour_usd = 0;
};

struct InferencePlan {
  std::int64_t evaluated = 0;           // candidates whose memory was checked
  std::int64_t feasible = 0;            // that fit and met the targets
  std::vector<PlanCandidate> best;      // by the objective
  std::vector<PlanCandidate> frontier;  // throughput vs cost: no other candidate is both faster and cheaper
  std::vector<std::string> notes;
};

// Progress callback: fraction done in [0, 1]; return false to stop early.
using PlanProgress = std::function<bool(double)>;

InferencePlan plan_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                             const InferencePlanRequest& request, const PlanProgress& progress = {});

// ---- Training layouts -------------------------------------------------------------------------
// Search GPU kind and count, tp/pp/dp/cp/ep, the pipeline's model chunks per GPU, ZeRO stage,
// micro-batch size and recomputation for the training layouts whose memory (training_memory) fits,
// timed by estimate_training_time and ranked by an objective, with the time-to-train versus cost
// frontier. docs/planner.md.

enum class TrainingPlanObjective : std::uint8_t {
  shortest_time,       // least wall-clock time to train the tokens
  highest_throughput,  // most tokens per second
  lowest_cost,         // cheapest to train the tokens
  fewest_gpus,         // smallest job, then the shortest time
};
const char* training_plan_objective_name(TrainingPlanObjective objective);
std::optional<TrainingPlanObjective> find_training_plan_objective(std::string_view id);

struct TrainingPlanRequest {
  std::vector<const Accelerator*> gpus;           // candidate kinds
  std::shared_ptr<const Accelerator> custom_gpu;  // owns the kind named custom, if any
  std::int64_t max_gpus = 64;                     // GPUs available for the whole job
  std::int64_t max_gpus_per_node = 0;             // 0: each GPU's typical node size; tp x cp stays within a node
  double memory_headroom = 0.1;                   // share of GPU memory left unused
  std::int64_t global_batch_tokens = std::int64_t{4} << 20;  // fixed: dp x micro-batch x accumulation x seq
  std::vector<std::int64_t> micro_batch_sizes{1, 2, 4, 8};
  std::vector<int> zero_stages{0, 1, 2, 3};
  std::vector<Recompute> recompute_modes{Recompute::none, Recompute::selective, Recompute::full};
  // Model chunks per GPU tried when pp > 1: 1 is plain 1F1B, more is the interleaved schedule
  // (Narayanan et al. 2021 §2.2.1: the bubble divided by v, more activations in flight).
  std::vector<std::int64_t> virtual_stages{1, 2, 4};
  TrainingPlanObjective objective = TrainingPlanObjective::shortest_time;
  std::size_t keep = 20;
  // Precision, optimizer, sequence length, LoRA, overhead, tokens to train, FLOP efficiency and
  // overlap as `fitcheck train` reads them; the searched fields of its workload are overwritten.
  TrainingRequest base{};
};

struct TrainingPlanCandidate {
  std::size_t gpu = 0;  // index into request.gpus
  std::int64_t gpus = 1;
  std::int64_t tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1, context_parallel = 1, expert_parallel = 1;
  std::int64_t virtual_pipeline_stages = 1;  // model chunks per GPU: above 1, the interleaved schedule
  bool sequence_parallel = false;            // on whenever tp > 1: less memory, same step time
  int zero_stage = 0;
  // Frameworks that shard with FSDP (framework_parallelism): the request's stage 2 runs as
  // SHARD_GRAD_OP, 3 as FULL_SHARD and, where the framework runs HSDP and dp x cp spans more than
  // one node, also as HYBRID_SHARD within a node; 0 unsharded; zero_stage is then 0.
  FsdpMode fsdp = FsdpMode::off;
  std::int64_t fsdp_shard_group = 0;  // HYBRID_SHARD: the dp x cp ranks that shard (0 otherwise)
  std::int64_t micro_batch_size = 1;
  std::int64_t gradient_accumulation_steps = 1;  // micro-batches per data-parallel rank per step
  Recompute recompute = Recompute::none;
  std::int64_t memory_bytes_per_gpu = 0;
  std::int64_t budget_bytes_per_gpu = 0;
  double step_seconds = 0;
  double tokens_per_second = 0;
  double mfu = 0;
  double train_seconds = 0;
  double train_gpu_hours = 0;
  double train_cost_usd = 0;
  double price_per_hour_usd = 0;
};

struct TrainingPlan {
  std::int64_t evaluated = 0;                   // (layout, GPU kind) pairs whose memory was checked
  std::int64_t feasible = 0;                    // that fit
  std::vector<TrainingPlanCandidate> best;      // by the objective
  std::vector<TrainingPlanCandidate> frontier;  // time to train vs cost: none other both faster and cheaper
  std::vector<std::string> notes;
};

// The request of one candidate: the workload its memory and step time read (what `fitcheck train`
// with the same flags evaluates).
TrainingRequest training_request_of(const TrainingPlanCandidate& candidate, const TrainingPlanRequest& request);

TrainingPlan plan_training(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                           const TrainingPlanRequest& request, const PlanProgress& progress = {});

}  // namespace fitcheck
