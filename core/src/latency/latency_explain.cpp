// SPDX-License-Identifier: MIT
// The report path of the latency model: the evaluate step's figures as lines with their formulas,
// numbers substituted. Strings are made here only, never in estimate_latency().
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fitcheck/latency.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

bool is_link(LatencyOp op) {
  return op == LatencyOp::tp_collectives || op == LatencyOp::pp_transfer || op == LatencyOp::ep_all_to_all;
}

// The compute rate an operation is timed at, and the dtype it names.
double rate_of(LatencyOp op, const LatencyRates& r, ComputeDtype& dtype) {
  switch (op) {
    case LatencyOp::qkv_projection:
    case LatencyOp::output_projection:
    case LatencyOp::mlp:
    case LatencyOp::moe_experts:
    case LatencyOp::moe_shared_experts:
      dtype = r.matmul_dtype;
      return r.matmul_flops_per_second;
    case LatencyOp::embedding:
    case LatencyOp::norms:
      dtype = ComputeDtype::fp32;
      return r.vector_flops_per_second;
    case LatencyOp::sparse_indexer:
      dtype = r.indexer_dtype;
      return r.indexer_flops_per_second;
    default:
      dtype = r.activation_dtype;
      return r.activation_flops_per_second;
  }
}

double link_of(LatencyOp op, const LatencyRates& r) {
  if (op == LatencyOp::tp_collectives) return r.tp_link_bytes_per_second;
  return r.pp_link_bytes_per_second;
}

std::string op_formula(LatencyOp op, const LatencyPhase& p, const LatencyRates& r) {
  const auto i = static_cast<std::size_t>(op);
  if (op == LatencyOp::ep_all_to_all) {
    // Two links at once: the NVLink (or node link) copies and the NIC's; the slower one counts.
    const double network = p.ep_network_bytes, nvlink = p.bytes[i] - network;
    return detail::four_significant_digits(nvlink) + " B over the node link at " +
           detail::four_significant_digits(r.ep_nvlink_bytes_per_second) + " B/s and " +
           detail::four_significant_digits(network) + " B through the NIC at " +
           detail::four_significant_digits(r.ep_link_bytes_per_second) +
           " B/s (link x efficiency), at once: " + detail::four_significant_digits(p.ep_transfer_seconds) + " s, + " +
           detail::four_significant_digits(p.seconds[i] - p.ep_transfer_seconds) +
           " s of latency floors = " + detail::four_significant_digits(p.seconds[i]) + " s (" +
           moe_dispatcher_name(r.moe_dispatcher) + " dispatch)";
  }
  if (is_link(op)) {
    const double link = link_of(op, r);
    const double floors = p.seconds[i] - p.bytes[i] / link;
    return detail::four_significant_digits(p.bytes[i]) + " B sent / " + detail::four_significant_digits(link) +
           " B/s (link x efficiency) + " + detail::four_significant_digits(floors) +
           " s of latency floors = " + detail::four_significant_digits(p.seconds[i]) + " s";
  }
  ComputeDtype dtype = ComputeDtype::bf16;
  const double rate = rate_of(op, r, dtype);
  const std::string compute = detail::four_significant_digits(p.flops[i]) + " FLOP / " +
                              detail::four_significant_digits(rate) + " FLOP/s (" + compute_dtype_name(dtype) +
                              " peak x efficiency)";
  const std::string memory = detail::four_significant_digits(p.bytes[i]) + " B / " +
                             detail::four_significant_digits(r.hbm_bytes_per_second) + " B/s (HBM x efficiency)";
  const double single = std::max(p.compute_seconds[i], p.memory_seconds[i]);
  if (std::abs(single - p.seconds[i]) <= 1e-9 * p.seconds[i])
    return "max(" + compute + ", " + memory + ") = " + detail::four_significant_digits(p.seconds[i]) + " s";
  return "sum over layer kinds of max(FLOP time, byte time); in all " + compute + " = " +
         detail::four_significant_digits(p.compute_seconds[i]) + " s, " + memory + " = " +
         detail::four_significant_digits(p.memory_seconds[i]) + " s; time " +
         detail::four_significant_digits(p.seconds[i]) + " s";
}

void add_phase(LatencyExplanation& x, const char* name, const LatencyPhase& p, const LatencyRates& r) {
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    if (p.seconds[i] <= 0) continue;
    const auto op = static_cast<LatencyOp>(i);
    x.lines.push_back({name, latency_op_name(op), p.flops[i], p.bytes[i], p.seconds[i], latency_bound_name(p.bound[i]),
                       op_formula(op, p, r)});
  }
}

}  // namespace

LatencyExplanation explain_latency(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                   const Accelerator& accelerator, const LatencyRequest& request,
                                   const LatencyAssumptions& assumptions) {
  LatencyExplanation x;
  x.estimate = estimate_latency(model, workload, accelerator, request, assumptions);
  const LatencyEstimate& e = x.estimate;
  const LatencyRates& r = e.rates;
  add_phase(x, "prefill", e.prefill, r);
  add_phase(x, "decode_first", e.decode_first, r);
  add_phase(x, "decode_last", e.decode_last, r);

  const std::string batch = std::to_string(workload.batch_size), prompt = std::to_string(request.prompt_tokens);
  const std::string generated = std::to_string(request.generated_tokens);
  const double steps = static_cast<double>(request.generated_tokens - 1);
  x.summary.push_back("time to first token = prefill of " + batch + " x " + prompt +
                      " tokens = " + detail::four_significant_digits(e.totals.prefill_seconds) + " s (dominated by " +
                      latency_op_name(e.prefill.dominant_op) + ", " + latency_bound_name(e.prefill.dominant_bound) +
                      "-bound)");
  x.summary.push_back(
      "decode step attending " + std::to_string(request.prompt_tokens + 1) +
      " tokens = " + detail::four_significant_digits(e.totals.decode_step_first_seconds) + " s; attending " +
      std::to_string(request.prompt_tokens + std::max<std::int64_t>(1, request.generated_tokens - 1)) +
      " tokens = " + detail::four_significant_digits(e.totals.decode_step_last_seconds) + " s (dominated by " +
      latency_op_name(e.decode_last.dominant_op) + ", " + latency_bound_name(e.decode_last.dominant_bound) + "-bound)");
  x.summary.push_back("decode total = sum over the " + detail::four_significant_digits(steps) +
                      " steps after the first token, closed form = " +
                      detail::four_significant_digits(e.totals.decode_total_seconds) + " s");
  x.summary.push_back("end to end = " + detail::four_significant_digits(e.totals.prefill_seconds) + " + " +
                      detail::four_significant_digits(e.totals.decode_total_seconds) + " = " +
                      detail::four_significant_digits(e.totals.end_to_end_seconds) + " s; per request " + generated +
                      " / " + detail::four_significant_digits(e.totals.end_to_end_seconds) + " = " +
                      detail::four_significant_digits(e.totals.request_tokens_per_second) + " tokens/s; batch " +
                      batch + " x " + generated + " / " + detail::four_significant_digits(e.totals.end_to_end_seconds) +
                      " = " + detail::four_significant_digits(e.totals.batch_tokens_per_second) + " tokens/s");
  const double mean_step = steps > 0 ? e.totals.decode_total_seconds / steps : e.totals.decode_step_first_seconds;
  const std::string per_second = "$" + detail::four_significant_digits(e.totals.price_per_hour_usd) + "/3600";
  x.summary.push_back(
      "price = " + std::to_string(e.totals.gpus) + " GPUs x $" +
      detail::four_significant_digits(e.totals.price_per_hour_usd / static_cast<double>(e.totals.gpus)) + "/h = $" +
      detail::four_significant_digits(e.totals.price_per_hour_usd) + "/h; input " + per_second + " x " +
      detail::four_significant_digits(e.totals.prefill_seconds) + " s / (" + batch + " x " + prompt +
      " tokens) x 1e6 = $" + detail::four_significant_digits(e.totals.cost_per_million_input_tokens_usd) +
      " per million; output " + per_second + " x " + detail::four_significant_digits(mean_step) + " s per step / " +
      batch + " tokens x 1e6 = $" + detail::four_significant_digits(e.totals.cost_per_million_output_tokens_usd) +
      " per million");
  x.summary.push_back("weights per GPU " + detail::four_significant_digits(e.weight_bytes_per_gpu) +
                      " B; read per decode step " +
                      detail::four_significant_digits(e.decode_weight_bytes_read_per_gpu) +
                      " B (routed experts: expected distinct experts touched)");

  const std::string fp8_share =
      assumptions.fp8_flops_share != 1.0 && e.rates.matmul_dtype == ComputeDtype::fp8
          ? " (fp8 products x " + detail::four_significant_digits(assumptions.fp8_flops_share) + ")"
          : "";
  x.assumptions.push_back("efficiencies: flops " + detail::four_significant_digits(assumptions.flops_efficiency) +
                          fp8_share + ", HBM " + detail::four_significant_digits(assumptions.hbm_efficiency) +
                          ", interconnect " + detail::four_significant_digits(assumptions.interconnect_efficiency) +
                          " (docs/latency.md gives the sources)");
  if (assumptions.step_overhead_seconds > 0 || assumptions.launch_seconds_per_layer > 0 ||
      assumptions.kernel_seconds_per_layer > 0)
    x.assumptions.push_back(
        "fixed per forward pass (the engine's): " + detail::four_significant_digits(assumptions.step_overhead_seconds) +
        " s step overhead (scheduling, input preparation, sampling) + " +
        (assumptions.kernel_seconds_per_layer > 0
             ? std::to_string(model.layers) + " layers x " +
                   detail::four_significant_digits(assumptions.kernel_seconds_per_layer) +
                   " s of small kernels (in a CUDA graph or not) + "
             : std::string()) +
        std::to_string(model.layers) + " layers x " +
        detail::four_significant_digits(assumptions.launch_seconds_per_layer) +
        " s of kernel launches outside a CUDA graph (decode steps of at most " +
        std::to_string(assumptions.cuda_graph_max_batch) + " sequences replay one); per decode step here " +
        detail::four_significant_digits(fixed_step_seconds(assumptions, static_cast<double>(model.layers), false,
                                                           static_cast<double>(workload.batch_size))) +
        " s, per prefill step " +
        detail::four_significant_digits(fixed_step_seconds(assumptions, static_cast<double>(model.layers), true, 0)) +
        " s");
  const std::int64_t prompt_tokens = workload.batch_size * request.prompt_tokens;
  if (workload.prefill_chunk_tokens > 0 && workload.prefill_chunk_tokens < prompt_tokens)
    x.summary.push_back(
        "prefill in steps of at most " + std::to_string(workload.prefill_chunk_tokens) +
        " tokens (chunked prefill, the step the activations are sized for): " +
        std::to_string((prompt_tokens + workload.prefill_chunk_tokens - 1) / workload.prefill_chunk_tokens) +
        " steps, each reading the weights once; the per-operation lines show one pass");
  x.assumptions.push_back(std::string("weight products in ") + compute_dtype_name(r.matmul_dtype) +
                          "; attention core, router and lm_head in " + compute_dtype_name(r.activation_dtype) +
                          "; norms on the fp32 vector units");
  x.assumptions.push_back("collectives: ring, 2(n-1)/n x message / link for all-reduce, plus " +
                          detail::four_significant_digits(assumptions.collective_base_latency_seconds) +
                          " s per collective and " + detail::four_significant_digits(r.tp_hop_seconds) +
                          " s per ring step (NCCL's latency model)");
  x.assumptions.push_back("prefill: logits for the last position of each sequence only" +
                          std::string(workload.logits_all_positions ? " (overridden: all positions)" : "") +
                          "; the first generated token comes from prefill");
  x.assumptions.push_back(
      "MoE: experts touched by a step of B tokens, top-k of E: E x (1 - (1 - k/E)^B), each read once");
  x.assumptions.push_back(
      "llm-analysis fields: decode_latency attends prompt + generated tokens and is charged for "
      "every generated token; costs over tp x pp GPUs");
  return x;
}

}  // namespace fitcheck
