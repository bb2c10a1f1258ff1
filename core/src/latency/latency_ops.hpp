// SPDX-License-Identifier: MIT
// The per-operation formulas of one forward pass, shared by the evaluate step (latency_evaluate.cpp)
// and the engine step of continuous batching (latency_step.cpp), so both time an operation alike.
// Moved here unchanged from latency_evaluate.cpp; formulas and sources: docs/latency.md.
#pragma once

#include <algorithm>
#include <cmath>

#include "fitcheck/latency.hpp"

namespace fitcheck::detail {

// One MoE layer's dispatch and combine of `tokens` tokens (docs/latency.md, "Expert-parallel
// dispatch"): bytes sent over NVLink and through the NIC, the slower path's seconds, and those
// plus the latency floors. decode_only: a pass without prompt tokens (DeepEP's low-latency kernels).
struct ExpertExchange {
  double nvlink_bytes = 0, network_bytes = 0, transfer_seconds = 0, seconds = 0;
};
ExpertExchange expert_exchange(const LatencyRates& rates, const LatencyLayerKind& kind, const LayerSplit& split,
                               double tokens, double activation_bytes, double hidden, bool decode_only);

}  // namespace fitcheck::detail

namespace fitcheck::detail::latency_ops {

using KindSplit = detail::LayerSplit;

struct OpCost {
  double flops = 0;
  double bytes = 0;
};

// Sums the time only (the planner's path); the same calls, so the same formulas.
struct TotalAccumulator {
  double total = 0;
  double hbm = 0;
  void op(LatencyOp, double flops, double flops_per_second, double bytes, double times) {
    total += std::max(flops / flops_per_second, bytes / hbm) * times;
  }
  void link(LatencyOp, double, double seconds, double times) { total += seconds * times; }
  void exchange(double, double, double, double seconds, double times) { total += seconds * times; }
};

// `preallocated_keys` > 0: a preallocated cache (StaticCache) hands the kernel all its positions
// under a mask, so every query scores every one of them and their keys and values are read.
inline OpCost attention_prefill(const LatencyLayerKind& k, const KindSplit& s, double sequences, double prompt,
                                double a, double kv_bytes, bool flash, bool causal, double preallocated_keys = 0) {
  const double tokens = sequences * prompt;
  const double keys = preallocated_keys > 0 ? preallocated_keys : prompt;
  // FlashAttention skips fully masked blocks: causal work is the attended pairs. Eager attention
  // multiplies the whole square and masks it.
  const double pairs = preallocated_keys > 0 ? prompt * keys
                       : flash               ? attended_pairs(prompt, k.sliding_window, causal)
                                             : prompt * prompt;
  OpCost c;
  double qk_dim = k.qk_head_dim;
  if (k.multi_latent) {
    // Prefill decompresses keys and values from the latent for every token (DeepSeek-V2 §2.1.2).
    qk_dim = k.nope_head_dim + k.rope_head_dim;
    c.flops += 2 * tokens * k.kv_up.matrix_params / s.tp;
    c.bytes += k.kv_up.bytes / s.tp + tokens * a * (k.kv_lora_rank + k.rope_head_dim) +
               2 * tokens * a * s.heads * (k.nope_head_dim + k.v_head_dim);
  } else {
    c.bytes += sequences * keys * a * k.kv_heads * s.kv_share * (k.qk_head_dim + k.v_head_dim);  // k, v read
  }
  c.flops += 2 * sequences * s.heads * pairs * (qk_dim + k.v_head_dim);  // q.k^T and p.v
  c.bytes += tokens * a * s.heads * (qk_dim + k.v_head_dim);             // q read, output written
  c.bytes += tokens * kv_bytes * s.kv_share;                             // cache written
  // Eager: scores written, read by softmax, probabilities written, read by p.v.
  if (!flash) c.bytes += 4 * sequences * s.heads * prompt * keys * a;
  return c;
}

// Cross-attention of `queries` tokens per sequence to a source of `source` tokens fixed per sequence
// (Whisper's encoder frames, Llama 3.2 Vision's image tokens): every query attends every source token
// (no causal mask). With `project_source` (the prefill), the source's keys and values are projected
// once (k_proj and v_proj over the `hidden`-wide source tokens, their weights counted with the layer's) and
// written to the cache; otherwise they are read from it.
inline OpCost attention_cross(const LatencyLayerKind& k, const KindSplit& s, double sequences, double queries,
                              double source, double a, double cross_kv_bytes, double hidden, bool project_source,
                              double kv_read_factor = 1) {
  OpCost c;
  const double query_tokens = sequences * queries, source_tokens = sequences * source;
  c.flops = 2 * sequences * s.heads * queries * source * (k.qk_head_dim + k.v_head_dim);  // q.k^T and p.v
  c.bytes = query_tokens * a * s.heads * (k.qk_head_dim + k.v_head_dim);                  // q read, output written
  c.bytes += source_tokens * cross_kv_bytes * s.kv_share * kv_read_factor;                // cache read
  if (project_source) {
    c.flops += 2 * source_tokens * k.key_value.matrix_params * s.kv_share;
    c.bytes += source_tokens * a * hidden + source_tokens * cross_kv_bytes * s.kv_share;  // source read, cache written
  }
  return c;
}

// Bytes of the cache a decode step moves per cached byte: 1 with GQA-aware kernels (each KV head
// read once for its query group); with repeat_kv (HF transformers, integrations/sdpa_attention.py at
// 00c238bd) the cache is read, its heads x (heads / kv_heads) copy written and read again.
inline double kv_read_factor(const LatencyLayerKind& k, const LatencyRates& r) {
  if (!r.repeat_kv_per_query_head || k.multi_latent || k.kv_heads <= 0 || k.heads <= k.kv_heads) return 1;
  return 1 + 2 * k.heads / k.kv_heads;
}

// The same for the self-attention cache of a decode step, which a concatenated cache also copies:
// DynamicCache.update appends with torch.cat (src/transformers/cache_utils.py at 004999d9), reading
// the layer's cache and writing it again, 2 more bytes moved per cached byte. Cross-attention
// caches are written once and only read (kv_read_factor).
inline double self_kv_read_factor(const LatencyLayerKind& k, const LatencyRates& r) {
  return kv_read_factor(k, r) + (r.kv_cache_concatenated ? 2.0 : 0.0);
}

// One decode step of `sequences` tokens attending `attended` cached tokens each: linear in attended.
inline OpCost attention_decode(const LatencyLayerKind& k, const KindSplit& s, double sequences, double attended,
                               double a, double kv_bytes, double kv_read_factor = 1) {
  OpCost c;
  if (k.multi_latent) {
    // Absorbed MLA (DeepSeek-V2 §2.1.3 and Appendix C): W_UK folds into the query and W_UV into
    // the output, so each head scores and averages the latent (kv_lora_rank + rope dims) itself.
    const double r = k.kv_lora_rank;
    c.flops = 2 * sequences * s.heads *
              (k.nope_head_dim * r + attended * (r + k.rope_head_dim) + attended * r + r * k.v_head_dim);
    c.bytes = k.kv_up.bytes / s.tp + sequences * a * s.heads * (k.nope_head_dim + k.rope_head_dim + k.v_head_dim);
  } else {
    c.flops = 2 * sequences * s.heads * attended * (k.qk_head_dim + k.v_head_dim);
    c.bytes = sequences * a * s.heads * (k.qk_head_dim + k.v_head_dim);
  }
  c.bytes += sequences * (attended * kv_read_factor + 1) * kv_bytes * s.kv_share;  // cache read, new token written
  return c;
}

// DeepSeek-V3.2's lightning indexer (DeepSeek-V3.2-Exp paper §2.1, eq. 1) for `queries` new tokens
// scoring `pairs` (query, cached key) pairs in all, whose sequences' cached indexer keys (`keys_read`)
// are read once: per pair 2 x index_heads x (index_head_dim + 1) FLOPs (FP8 q.k per head, ReLU, the
// heads' weighted sum), and its fp32 score written and read back by the top-k (8 B); per query its FP8
// query read and index_topk int32 indices written; each new key written (deepseek-ai/DeepSeek-V3.2-Exp
// @3b99a53 inference/model.py Indexer.forward, inference/kernel.py fp8_index). vLLM keeps the
// indexer whole on every tensor-parallel rank (ReplicatedLinear), so nothing here is split by tp.
inline OpCost sparse_indexer(const LatencyLayerKind& k, double queries, double pairs, double keys_read) {
  OpCost c;
  if (k.index_heads <= 0) return c;
  c.flops = 2 * k.index_heads * (k.index_head_dim + 1) * pairs;
  c.bytes = 8 * pairs + (keys_read + queries) * k.index_key_bytes_per_token +
            queries * (k.index_heads * k.index_head_dim + 4 * k.sliding_window);
  return c;
}

// The core of a Mamba-2 mixer (timed as the layer's attention operation): the selective scan,
// about 6 FLOPs per state element per token (decay, input outer product, accumulate, readout; Dao &
// Gu 2024, arXiv 2405.21060, §3), the conv and scan activations written and read, and each
// sequence's fixed state (conv channels x kernel + heads x head_dim x state_size) read and written
// once per pass, whatever the context. Zero for a layer without a state-space mixer.
inline OpCost ssm_mixer(const LatencyLayerKind& k, const KindSplit& s, double sequences, double tokens, double a) {
  OpCost c;
  if (k.ssm_heads <= 0) return c;
  const double heads = k.ssm_heads / s.tp;
  const double groups = std::fmod(k.ssm_groups, s.tp) == 0 ? k.ssm_groups / s.tp : k.ssm_groups;
  const double inner = heads * k.ssm_head_dim;
  const double conv_channels = inner + 2 * groups * k.ssm_state_size;
  const double state = conv_channels * k.ssm_conv_kernel + inner * k.ssm_state_size;
  c.flops = 6 * tokens * inner * k.ssm_state_size;
  c.bytes = 2 * tokens * a * (conv_channels + inner) + 2 * sequences * state * a;
  return c;
}

// Everything of one layer kind in one pass except the attention core.
template <class Accumulator>
void add_layer_ops(Accumulator& acc, const LatencyRates& r, const LatencyLayerKind& k, const KindSplit& s,
                   double tokens, double a, double hidden, bool decode_only) {
  const double n = static_cast<double>(k.layers), tp = s.tp;
  // A hybrid's MLP-only layer has neither attention nor a state-space mixer.
  const bool mixer = k.heads > 0 || k.ssm_heads > 0;
  // Rows the weight products compute: the tokens, padded to whole GEMM tiles under an engine.
  const double m = r.gemm_row_tiles ? gemm_tile_rows(tokens) : tokens;
  double qkv_flops = 2 * m * (k.query.matrix_params / tp + k.attention_replicated.matrix_params);
  double qkv_bytes = k.query.bytes / tp + k.attention_replicated.bytes;
  if (k.multi_latent) {
    qkv_bytes += tokens * a * (hidden + k.q_lora_rank + s.heads * k.qk_head_dim + k.kv_lora_rank + k.rope_head_dim);
  } else {
    qkv_flops += 2 * m * k.key_value.matrix_params * s.kv_share;
    qkv_bytes +=
        k.key_value.bytes * s.kv_share +
        tokens * a * (hidden + s.heads * k.qk_head_dim + k.kv_heads * s.kv_share * (k.qk_head_dim + k.v_head_dim));
  }
  if (mixer) {
    acc.op(LatencyOp::qkv_projection, qkv_flops, r.matmul_flops_per_second, qkv_bytes, n);
    acc.op(LatencyOp::output_projection, 2 * m * k.output.matrix_params / tp, r.matmul_flops_per_second,
           k.output.bytes / tp + tokens * a * (s.heads * k.v_head_dim + hidden), n);
  }
  // Activation traffic of an MLP: input and output, and the intermediate written and read once.
  if (k.mlp.matrix_params > 0)
    acc.op(LatencyOp::mlp, 2 * m * k.mlp.matrix_params / tp, r.matmul_flops_per_second,
           k.mlp.bytes / tp + tokens * a * (2 * hidden + 2 * k.mlp_width / tp), n);
  bool moe_all_to_all = false;
  if (k.moe) {
    acc.op(LatencyOp::moe_router, 2 * tokens * k.router.matrix_params, r.activation_flops_per_second,
           k.router.bytes + tokens * a * (hidden + k.experts), n);
    const double group_tokens = tokens * s.expert_token_factor;
    // Each touched expert's weights are read once per step, however many tokens it serves.
    const double touched = expected_distinct_experts(k.experts, k.experts_per_token, group_tokens);
    const double routed = group_tokens * k.experts_per_token / s.expert_ranks;  // token-expert pairs per rank
    // A grouped GEMM pads each touched expert's rows to whole tiles (the mean rows per expert here).
    const double routed_rows =
        r.gemm_row_tiles && touched > 0
            ? touched / s.expert_ranks * gemm_tile_rows(group_tokens * k.experts_per_token / touched)
            : routed;
    acc.op(LatencyOp::moe_experts, 2 * routed_rows * k.expert.matrix_params, r.matmul_flops_per_second,
           touched / s.expert_ranks * k.expert.bytes + routed * a * (2 * hidden + 2 * k.expert_width), n);
    if (k.shared.matrix_params > 0)
      acc.op(LatencyOp::moe_shared_experts, 2 * m * k.shared.matrix_params / tp, r.matmul_flops_per_second,
             k.shared.bytes / tp + tokens * a * (2 * hidden + 2 * k.shared_width / tp), n);
    if (s.all_to_all) {
      moe_all_to_all = true;
      const ExpertExchange x = expert_exchange(r, k, s, tokens, a, hidden, decode_only);
      acc.exchange(x.nvlink_bytes, x.network_bytes, x.transfer_seconds, x.seconds, n);
    }
  }
  // RMSNorm per element: square, accumulate, scale, weight (4 FLOPs); the row read and written.
  acc.op(LatencyOp::norms, 4 * tokens * hidden * k.hidden_norms, r.vector_flops_per_second,
         k.norms.bytes + 2 * tokens * hidden * a * k.hidden_norms, n);
  if (tp > 1) {
    // Megatron-LM (Shoeybi et al. 2019, §3): one all-reduce after attention and one after the MLP;
    // a parallel attention+MLP block sums both first and reduces once.
    const bool has_mlp = k.moe || k.mlp.matrix_params > 0;
    double reduces = k.parallel_attention_mlp || !has_mlp || !mixer ? 1 : 2;
    if (moe_all_to_all && !k.parallel_attention_mlp) reduces -= 1;
    const double message = tokens * hidden * a;
    acc.link(LatencyOp::tp_collectives, reduces * 2 * (tp - 1) / tp * message,
             reduces * ring_all_reduce_seconds(message, tp, r.tp_link_bytes_per_second, r.tp_hop_seconds,
                                               r.collective_base_seconds),
             n);
  }
}

// Embedding rows, final norm, lm_head, their collectives and the pipeline sends of one pass.
template <class Accumulator>
void add_model_ops(Accumulator& acc, const LatencyRates& r, const PreparedLatencyModel& pm,
                   const ParallelLayout& layout, double tokens, double lm_rows, double a) {
  const double tp = static_cast<double>(layout.tensor_parallel), pp = static_cast<double>(layout.pipeline_parallel);
  const double h = pm.hidden;
  // Vocabulary-parallel embedding (each rank reads the rows it holds, then an all-reduce).
  acc.op(LatencyOp::embedding, 0, r.vector_flops_per_second, tokens * pm.embedding_row_bytes / tp + tokens * h * a, 1);
  acc.op(LatencyOp::norms, 4 * tokens * h * pm.final_norms, r.vector_flops_per_second,
         pm.final_norm_bytes + 2 * tokens * h * a * pm.final_norms, 1);
  acc.op(LatencyOp::lm_head, 2 * lm_rows * pm.lm_head.matrix_params / tp, r.activation_flops_per_second,
         pm.lm_head.bytes / tp + lm_rows * a * (h + pm.vocab / tp), 1);
  if (tp > 1) {
    const double embed = tokens * h * a, logits = lm_rows * pm.vocab * a;
    acc.link(
        LatencyOp::tp_collectives, 2 * (tp - 1) / tp * embed + (tp - 1) / tp * logits,
        ring_all_reduce_seconds(embed, tp, r.tp_link_bytes_per_second, r.tp_hop_seconds, r.collective_base_seconds) +
            ring_all_gather_seconds(logits, tp, r.tp_link_bytes_per_second, r.tp_hop_seconds,
                                    r.collective_base_seconds),
        1);
  }
  if (pp > 1) {
    const double message = tokens * h * a;
    acc.link(LatencyOp::pp_transfer, message,
             message / r.pp_link_bytes_per_second + r.pp_hop_seconds + r.collective_base_seconds, pp - 1);
  }
}

}  // namespace fitcheck::detail::latency_ops
