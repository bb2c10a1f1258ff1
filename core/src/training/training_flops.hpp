// SPDX-License-Identifier: MIT
// The FLOPs a training step runs, from the latency model's layer kinds (training_flops.cpp): the
// products of the matrices a token reaches, the attention core, and what Megatron's selective
// modules run again.
#pragma once

#include "fitcheck/latency.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck::detail {

// The matrix parameters one token multiplies in a layer of `k` (its routed experts' top-k only).
double active_matrix_params(const LatencyLayerKind& k);
// The attention core's forward FLOPs for one sequence of s tokens.
double attention_core_per_sequence(const LatencyLayerKind& k, double s, bool causal);

// The forward products Megatron's selective modules run again, per sequence of s tokens: 'mlp' a dense
// layer's MLP, 'moe' a MoE layer's router, routed experts (at their grouped-GEMM time) and shared experts,
// 'shared_experts' the shared experts, 'mla_up_proj' MLA's q and kv up-projections
// (multi_latent_attention.py qkv_up_proj_and_rope_apply: linear_q_up_proj or linear_q_proj, linear_kv_up_proj).
// `flops` counts them as FLOPs (HFU), `timed_flops` adds the experts' grouped-GEMM excess
// (`expert_excess_products`, per sequence).
struct ModuleRecomputeProducts {
  double flops = 0, timed_flops = 0;
};
ModuleRecomputeProducts module_recompute_products(const PreparedLatencyModel& model, const RecomputeModules& modules,
                                                  double s, double expert_excess_products);

}  // namespace fitcheck::detail
