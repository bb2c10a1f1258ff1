// SPDX-License-Identifier: MIT
// Inference latency, throughput and cost from a roofline per operation: each operation of a layer
// takes max(FLOPs / (peak x efficiency), bytes / (bandwidth x efficiency)); collectives take a ring
// model with a latency floor. Two steps: prepare_latency_model() once per model and weight format
// (shapes, storage bytes per operation, all vector work), then per workload either
// estimate_latency_totals() (the planner's inner loop: under a microsecond in WebAssembly) or
// estimate_latency() (the same formulas with a per-operation breakdown); both do arithmetic only,
// no allocation and no strings. explain_latency() adds the formula strings for reports.
// Formulas, default efficiencies and their sources: docs/latency.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency_assumptions.hpp"
#include "fitcheck/latency_model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via
// Speculative Decoding", ICML 2023): a draft proposes `draft_tokens` tokens one at a time, the
// target verifies them in one pass of draft_tokens + 1 tokens per sequence and keeps the accepted
// prefix plus one of its own. With each draft token accepted independently with probability
// `acceptance_rate`, a step yields (1 - a^(k+1)) / (1 - a) tokens (their eq. 1). The draft costs
// `draft_layers` of the target's decoder layers per proposed token (EAGLE and DeepSeek-V3's MTP
// module: 1 layer; a separate draft model: its cost in target layers).
struct SpeculativeDecoding {
  std::int64_t draft_tokens = 0;  // 0: off
  double acceptance_rate = 0;
  double draft_layers = 1;
};
double expected_tokens_per_step(const SpeculativeDecoding& speculative);  // 1 when off

struct LatencyRequest {
  std::int64_t prompt_tokens = 512;     // per sequence
  std::int64_t generated_tokens = 128;  // per sequence, the first one produced by prefill
  // Prefix caching: the first shared_prefix_tokens of every prompt are the same (a system prompt);
  // one sequence computes them, the others find them cached and prefill only the rest.
  std::int64_t shared_prefix_tokens = 0;
  SpeculativeDecoding speculative{};
};

// One forward pass (prefill, or one decode step), per operation, on the GPUs that run it.
struct LatencyPhase {
  std::array<double, kLatencyOpCount> seconds{};
  std::array<double, kLatencyOpCount> flops{};            // per GPU, summed over layers
  std::array<double, kLatencyOpCount> bytes{};            // HBM bytes per GPU (links: bytes sent)
  std::array<double, kLatencyOpCount> compute_seconds{};  // flops / (peak x efficiency)
  std::array<double, kLatencyOpCount> memory_seconds{};   // bytes / (bandwidth x efficiency)
  std::array<LatencyBound, kLatencyOpCount> bound{};
  // Of bytes[ep_all_to_all]: those sent through the NIC (the rest over NVLink, at the same time),
  // and the seconds the slower path takes, latency floors apart.
  double ep_network_bytes = 0;
  double ep_transfer_seconds = 0;
  double total_seconds = 0;
  LatencyOp dominant_op = LatencyOp::count_;
  LatencyBound dominant_bound = LatencyBound::none;
};

// The names and conventions of cli99/llm-analysis's inference summary (analysis.py, inference()):
// decode_latency is one step with the full prompt + generated cache and every one of the
// num_tokens_to_generate steps is charged at it; cost uses tp x pp GPUs. Seconds and US dollars.
struct LlmAnalysisCompat {
  double prefill_latency = 0;
  double decode_latency = 0;
  double total_decode_latency = 0;     // generated_tokens x decode_latency
  double total_latency = 0;            // prefill_latency + total_decode_latency
  double total_per_token_latency = 0;  // total_latency / generated_tokens
  double prefill_tokens_per_sec = 0;   // batch x prompt / prefill_latency
  double decode_tokens_per_sec = 0;    // batch / decode_latency
  double total_tokens_per_sec = 0;     // batch x generated / total_latency
  double prefill_cost_per_1k_tokens = 0;
  double decode_cost_per_1k_tokens = 0;
  double total_cost_per_1k_tokens = 0;
  // Per-op keys: "prefill_latency_<op>" and "decode_latency_<op>" with latency_op_name(op).
  std::array<double, kLatencyOpCount> prefill_latency_by_op{};
  std::array<double, kLatencyOpCount> decode_latency_by_op{};
};

// The headline figures; what a planner needs from one layout.
struct LatencyTotals {
  double prefill_seconds = 0;                     // time to first token
  double decode_step_first_seconds = 0;           // attends prompt + 1 tokens
  double decode_step_last_seconds = 0;            // attends prompt + generated - 1 tokens
  double decode_total_seconds = 0;                // the generated - 1 decode steps, exact sum (closed form)
  double end_to_end_seconds = 0;                  // prefill + decode_total
  double request_tokens_per_second = 0;           // generated / end_to_end, one sequence as its user sees it
  double batch_tokens_per_second = 0;             // batch x generated / end_to_end, one replica (tp x pp GPUs)
  double prefill_tokens_per_second = 0;           // batch x prompt / prefill
  double decode_tokens_per_second = 0;            // batch / mean decode step
  std::int64_t gpus = 0;                          // tp x pp: the GPUs of one replica, all paid for
  double price_per_hour_usd = 0;                  // all of them
  double cost_per_million_input_tokens_usd = 0;   // prefill time priced per prompt token
  double cost_per_million_output_tokens_usd = 0;  // mean decode step priced per generated token
};

struct LatencyEstimate {
  LatencyRates rates;
  LatencyPhase prefill;       // whole prompt of every sequence: time to first token
  LatencyPhase decode_first;  // first decode step: attends prompt + 1 tokens
  LatencyPhase decode_last;   // last decode step: attends prompt + generated - 1 tokens
  LatencyPhase decode_full;   // one step attending prompt + generated tokens (llm-analysis decode)
  LatencyTotals totals;
  double weight_bytes_per_gpu = 0;              // storage bytes on the busiest stage's GPU
  double decode_weight_bytes_read_per_gpu = 0;  // per decode step there (routed experts: touched ones)
  LatencyOp dominant_op = LatencyOp::count_;    // of the phase that takes longer in total
  LatencyBound dominant_bound = LatencyBound::none;
  bool prefill_dominates = false;
  LlmAnalysisCompat llm_analysis;
};

// The evaluate step. Reads workload.batch_size, kv_cache_dtype, layout, flash_attention,
// logits_all_positions and activation_bytes_per_element; the weight format must be the prepared
// one. Throws std::invalid_argument for non-positive sizes or a format mismatch.
LatencyEstimate estimate_latency(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                 const Accelerator& accelerator, const LatencyRequest& request,
                                 const LatencyAssumptions& assumptions = {});
// The same figures without the per-operation breakdown: the planner's inner loop.
LatencyTotals estimate_latency_totals(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                      const Accelerator& accelerator, const LatencyRequest& request,
                                      const LatencyAssumptions& assumptions = {});

// Report path: one line per phase and operation with its formula, numbers substituted.
struct LatencyLine {
  std::string phase;  // "prefill", "decode_first", "decode_last"
  std::string op;     // latency_op_name
  double flops = 0, bytes = 0, seconds = 0;
  std::string bound;
  std::string formula;
};
struct LatencyExplanation {
  LatencyEstimate estimate;
  std::vector<LatencyLine> lines;        // operations with a nonzero time
  std::vector<std::string> summary;      // prefill, decode, totals, cost, each with its formula
  std::vector<std::string> assumptions;  // efficiencies, dtypes, conventions used
};
LatencyExplanation explain_latency(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                   const Accelerator& accelerator, const LatencyRequest& request,
                                   const LatencyAssumptions& assumptions = {});

namespace detail {
// Expected distinct experts a step of `tokens` tokens routes to, top-k of E each:
// E x (1 - (1 - k/E)^tokens). Shared by latency and training time.
double expected_distinct_experts(double experts, double experts_per_token, double tokens);
// Query/key pairs one sequence of `tokens` attends: causal (i attends min(i, window) keys), or
// all tokens x tokens when not causal. window 0: unbounded.
double attended_pairs(double tokens, double window, bool causal);
// Ring collectives: 2(n-1)/n x bytes / bandwidth + 2(n-1) hops for all-reduce; (n-1)/n and n-1
// for all-gather and reduce-scatter; each plus one base latency. 0 when n <= 1.
double ring_all_reduce_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds);
double ring_all_gather_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds);

// Sum over integer x in [x0, x1] of max(a1 + s1 x, a2 + s2 x), in closed form.
double sum_of_max_of_lines(double a1, double s1, double a2, double s2, double x0, double x1);

// How a layout splits one layer kind over the ranks of a pipeline stage.
struct LayerSplit {
  double tp = 1;
  double heads = 0;                // query heads per rank
  double kv_share = 1;             // share of the layer's keys/values (and their weights) per rank
  double expert_ranks = 1;         // ranks the routed experts are spread over
  double expert_token_factor = 1;  // tokens meeting at the experts per token of this replica
  bool all_to_all = false;         // expert parallelism wider than tp: dispatch and combine
};
LayerSplit layer_split(const LatencyLayerKind& kind, const ParallelLayout& layout);

// Storage bytes on the busiest pipeline stage's GPU, and the bytes of weights one decode step of
// `batch` sequences reads there.
struct GpuWeightBytes {
  double stored = 0;
  double read_per_decode_step = 0;
};
GpuWeightBytes busiest_gpu_weight_bytes(const PreparedLatencyModel& model, const ParallelLayout& layout, double batch);
}  // namespace detail

}  // namespace fitcheck
