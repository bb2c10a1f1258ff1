// SPDX-License-Identifier: MIT
// The planner: search GPU kinds and counts, tensor/pipeline/expert parallel degrees, weight and KV
// formats and batch sizes for the serving layouts that fit, ranked by an objective, with the
// throughput-versus-cost frontier. Prepared once per model (all vector work, the exact memory
// terms per layout), then every candidate is arithmetic only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"

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
  std::int64_t max_gpus = 8;                      // GPUs one replica may use
  std::int64_t max_gpus_per_node = 0;             // 0: each GPU's typical node size; tp stays within a node
  std::vector<WeightFormat> weight_formats{WeightFormat::bf16};
  std::vector<KvCacheDtype> kv_cache_dtypes{KvCacheDtype::bf16};
  std::vector<std::int64_t> batch_sizes{1, 2, 4, 8, 16, 32, 64, 128, 256};
  std::int64_t prompt_tokens = 1024;
  std::int64_t generated_tokens = 256;
  double memory_headroom = 0.1;        // share of GPU memory left unused (vLLM: 1 - 0.9)
  double ttft_target_seconds = 0;      // 0: no target
  double tpot_target_seconds = 0;      // time per output token target; 0: none
  PlanObjective objective = PlanObjective::highest_throughput;
  std::size_t keep = 20;               // best candidates returned
  InferenceWorkload base{};            // overhead, activation width, prefill chunk, paging...
  LatencyAssumptions assumptions{};
  bool use_gpu_prices = true;          // price per GPU-hour from the catalog (else assumptions')
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
  double tokens_per_second = 0;              // generated tokens per second, whole batch
  double cost_per_million_output_tokens_usd = 0;
  double price_per_hour_usd = 0;
};

struct InferencePlan {
  std::int64_t evaluated = 0;   // candidates whose memory was checked
  std::int64_t feasible = 0;    // that fit and met the targets
  std::vector<PlanCandidate> best;      // by the objective
  std::vector<PlanCandidate> frontier;  // throughput vs cost: no other candidate is both faster and cheaper
  std::vector<std::string> notes;
};

// Progress callback: fraction done in [0, 1]; return false to stop early.
using PlanProgress = std::function<bool(double)>;

InferencePlan plan_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                             const InferencePlanRequest& request, const PlanProgress& progress = {});

// Keys: gpus (comma-separated ids), max_gpus, gpus_per_node, weights (comma-separated formats;
// default: the checkpoint's stored format), kv_dtypes, batches (comma-separated), prompt_len,
// gen_len, headroom, ttft, tpot (seconds), objective, keep, prefill_chunk, overhead_gib.
// Throws OptionError naming the key.
InferencePlanRequest parse_plan_options(const ModelDescription& model, const OptionList& options);

// plan_inference as JSON: evaluated, feasible, best[], frontier[], notes, and the request echoed.
std::string plan_report_json(std::string_view config_json_text, const OptionList& options);

}  // namespace fitcheck
