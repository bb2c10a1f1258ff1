// SPDX-License-Identifier: MIT
// The FLOPs a training step runs, counted from the model's real shapes (docs/latency.md, "Training
// time"): a token's products, the attention core's pairs, and Megatron's recomputed modules.
#include "training/training_flops.hpp"

#include "fitcheck/latency.hpp"
#include "fitcheck/training_time.hpp"

namespace fitcheck {
namespace detail {

double active_matrix_params(const LatencyLayerKind& k) {
  return k.query.matrix_params + k.key_value.matrix_params + k.attention_replicated.matrix_params +
         k.kv_up.matrix_params + k.output.matrix_params + k.mlp.matrix_params + k.router.matrix_params +
         k.experts_per_token * k.expert.matrix_params + k.shared.matrix_params;
}

double attention_core_per_sequence(const LatencyLayerKind& k, double s, bool causal) {
  // MLA trains unabsorbed: keys of nope + rope dims, values of v_head_dim (DeepSeek-V2 §2.1.2).
  const double qk = k.multi_latent ? k.nope_head_dim + k.rope_head_dim : k.qk_head_dim;
  const double per_pair = 2 * k.heads * (qk + k.v_head_dim);  // q.k^T and p.v
  // Llama 3.2 Vision's cross-attention layers have no self-attention; their cross block is taken over
  // the sequence, as T5's (training reads no images).
  double flops = k.self_attention ? per_pair * attended_pairs(s, k.sliding_window, causal && !k.encoder) : 0;
  if (k.cross_attention) flops += per_pair * s * s;
  return flops;
}

ModuleRecomputeProducts module_recompute_products(const PreparedLatencyModel& model, const RecomputeModules& modules,
                                                  double s, double expert_excess_products) {
  ModuleRecomputeProducts out;
  for (const LatencyLayerKind& k : model.kinds) {
    const double n = static_cast<double>(k.layers);
    double params = 0;
    if (!k.moe && modules.mlp) params += k.mlp.matrix_params;
    if (k.moe && modules.moe) params += k.router.matrix_params + k.experts_per_token * k.expert.matrix_params;
    if (k.moe && (modules.moe || modules.shared_experts)) params += k.shared.matrix_params;
    if (k.multi_latent && modules.mla_up_proj) params += k.query.matrix_params + k.kv_up.matrix_params;
    out.flops += n * 2 * s * params;
  }
  out.timed_flops = out.flops + (modules.moe ? expert_excess_products : 0.0);
  return out;
}

}  // namespace detail

TrainingFlops training_forward_flops_per_sequence(const PreparedLatencyModel& model, double s, bool causal) {
  TrainingFlops f;
  for (const LatencyLayerKind& k : model.kinds) {
    const double n = static_cast<double>(k.layers);
    f.layer_matmul += n * 2 * s * detail::active_matrix_params(k);
    f.attention_core += n * detail::attention_core_per_sequence(k, s, causal);
  }
  f.lm_head = 2 * s * model.lm_head.matrix_params;  // every position's logits, for the loss
  return f;
}

}  // namespace fitcheck
