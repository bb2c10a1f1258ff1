// SPDX-License-Identifier: MIT
// The rates a latency evaluation divides by (peaks, bandwidths and links with their efficiencies),
// the collective and routing formulas shared with training time, and the names of operations.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "fitcheck/latency.hpp"
#include "latency/latency_ops.hpp"

namespace fitcheck {

namespace detail {

double expected_distinct_experts(double experts, double experts_per_token, double tokens) {
  if (experts <= 0 || experts_per_token <= 0 || tokens <= 0) return 0;
  if (experts_per_token >= experts) return experts;
  // Each token picks k of E experts; an expert is missed by one token with probability 1 - k/E,
  // by all of them with (1 - k/E)^tokens (routing taken as independent and uniform).
  return experts * -std::expm1(tokens * std::log1p(-experts_per_token / experts));
}

double attended_pairs(double tokens, double window, bool causal) {
  if (!causal) return tokens * tokens;
  if (window <= 0 || window >= tokens) return tokens * (tokens + 1) / 2;
  return window * (window + 1) / 2 + (tokens - window) * window;
}

double ring_all_reduce_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds) {
  if (ranks <= 1) return 0;
  return 2 * (ranks - 1) / ranks * message_bytes / bytes_per_second + 2 * (ranks - 1) * hop_seconds + base_seconds;
}

double ring_all_gather_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds) {
  if (ranks <= 1) return 0;
  return (ranks - 1) / ranks * message_bytes / bytes_per_second + (ranks - 1) * hop_seconds + base_seconds;
}

// Sum over integer x in [x0, x1] of max(a1 + s1 x, a2 + s2 x): two arithmetic series split where
// the lines cross.
double sum_of_max_of_lines(double a1, double s1, double a2, double s2, double x0, double x1) {
  auto series = [](double a, double s, double u, double v) {
    if (v < u) return 0.0;
    const double n = v - u + 1;
    return n * a + s * (u + v) * n / 2;
  };
  if (x1 < x0) return 0;
  if (s1 == s2) return series(std::max(a1, a2), s1, x0, x1);
  const double cross = (a2 - a1) / (s1 - s2);
  if (s1 > s2) {
    const double split = std::clamp(std::ceil(cross), x0, x1 + 1);  // line 1 on top from here
    return series(a2, s2, x0, split - 1) + series(a1, s1, split, x1);
  }
  const double split = std::clamp(std::floor(cross), x0 - 1, x1);  // line 1 on top up to here
  return series(a1, s1, x0, split) + series(a2, s2, split + 1, x1);
}

LayerSplit layer_split(const LatencyLayerKind& k, const ParallelLayout& layout) {
  LayerSplit s;
  s.tp = static_cast<double>(layout.tensor_parallel);
  const double ep = static_cast<double>(layout.expert_parallel);
  // kv/tp heads per rank, or one replicated head when kv < tp (vLLM); the MLA latent is shared by
  // all heads and every rank keeps all of it (as kv_cache() counts it).
  const double kv_per_rank = k.kv_heads >= s.tp ? k.kv_heads / s.tp : 1.0;
  s.kv_share = k.multi_latent ? 1.0 : (k.kv_heads > 0 ? kv_per_rank / k.kv_heads : 0.0);
  s.heads = k.heads / s.tp;
  // Whole experts over ep ranks when ep > 1, else each expert split over tp (tensors_on_busiest_gpu).
  s.expert_ranks = ep > 1 ? ep : s.tp;
  // Expert parallelism wider than tp spans data-parallel attention replicas: their tokens meet at
  // the experts and travel by all-to-all; within tp the tokens are already on every rank.
  s.expert_token_factor = std::max(1.0, s.expert_ranks / s.tp);
  s.all_to_all = ep > s.tp;
  return s;
}

// Dispatch and combine of this rank's share of the tokens (tp ranks split them): the copies that
// leave it over NVLink and through its NIC (expert_dispatch_copies()), both links at once. NCCL's
// pairwise all-to-all takes ep - 1 steps; DeepEP's kernels send to every peer at once, one launch
// each way. DeepEP as SGLang's deepep_mode auto runs it: the normal kernels (one RDMA copy per
// destination node) for passes with prompt tokens, the low-latency kernels (a copy per token and
// expert) for decode-only passes (sgl-project/sglang python/sglang/srt/layers/moe/token_dispatcher/deepep.py).
ExpertExchange expert_exchange(const LatencyRates& r, const LatencyLayerKind& k, const LayerSplit& s, double tokens,
                               double a, double hidden, bool decode_only) {
  const double ep = s.expert_ranks;
  const bool deepep = r.moe_dispatcher == MoeDispatcher::deepep;
  const ExpertCopies copies = expert_dispatch_copies(
      k.experts, k.experts_per_token, ep, r.ep_ranks_per_fabric,
      deepep && !decode_only ? MoeDispatcher::deepep : MoeDispatcher::all_to_all, MoeRouting::random);
  const double bytes = tokens / s.tp * hidden * ((r.dispatch_fp8 ? kFp8DispatchBytesPerElement : a) + a);
  ExpertExchange x;
  x.nvlink_bytes = bytes * copies.nvlink;
  x.network_bytes = bytes * copies.network;
  x.transfer_seconds =
      bytes * std::max(copies.nvlink / r.ep_nvlink_bytes_per_second, copies.network / r.ep_link_bytes_per_second);
  x.seconds = x.transfer_seconds + 2 * ((deepep ? 0.0 : (ep - 1) * r.ep_hop_seconds) + r.collective_base_seconds);
  return x;
}

GpuWeightBytes busiest_gpu_weight_bytes(const PreparedLatencyModel& pm, const ParallelLayout& layout, double batch) {
  // The first stage holds the remainder layers and the embedding, the last the lm_head (a second
  // copy when tied), as plan_stages() places them; layer kinds are taken as spread evenly.
  double stored = 0, read = 0;
  for (const LatencyLayerKind& k : pm.kinds) {
    const LayerSplit s = layer_split(k, layout);
    const double common = (k.query.bytes + k.kv_up.bytes + k.output.bytes + k.mlp.bytes + k.shared.bytes) / s.tp +
                          k.key_value.bytes * s.kv_share + k.attention_replicated.bytes + k.router.bytes +
                          k.norms.bytes;
    const double n = static_cast<double>(k.layers);
    stored += n * (common + k.experts / s.expert_ranks * k.expert.bytes);
    if (k.encoder) continue;  // encoder layers run in prefill only
    const double touched = expected_distinct_experts(k.experts, k.experts_per_token, batch * s.expert_token_factor);
    read += n * (common + touched / s.expert_ranks * k.expert.bytes);
  }
  const double layers = static_cast<double>(pm.layers), pp = static_cast<double>(layout.pipeline_parallel);
  const double tp = static_cast<double>(layout.tensor_parallel);
  const double embedding = pm.embedding_bytes / tp, lm_head = pm.lm_head.bytes / tp;
  GpuWeightBytes w;
  if (pp <= 1) {
    w.stored = stored + embedding + (pm.tied_embeddings ? 0 : lm_head) + pm.final_norm_bytes;
    w.read_per_decode_step = read + lm_head;
    return w;
  }
  const double first = std::ceil(layers / pp) / layers, last = std::floor(layers / pp) / layers;
  w.stored = std::max(stored * first + embedding, stored * last + lm_head + pm.final_norm_bytes);
  w.read_per_decode_step = std::max(read * first, read * last + lm_head);
  return w;
}

}  // namespace detail

LatencyAssumptions default_latency_assumptions(const Accelerator& accelerator) {
  LatencyAssumptions assumptions;
  // NCCL's per-step ring LL latency is 1.0 us over PCIe against 0.6 us over NVLink (tuning.cc hwLat).
  if (std::strncmp(accelerator.interconnect, "PCIe", 4) == 0) assumptions.link_hop_latency_seconds = 1.0e-6;
  return assumptions;
}

LatencyRates latency_rates(const PreparedLatencyModel& model, const Accelerator& gpu, const ParallelLayout& layout,
                           const LatencyAssumptions& assume) {
  LatencyRates r;
  const double bf16 = peak_flops_per_second(gpu, ComputeDtype::bf16);
  const double fp16 = peak_flops_per_second(gpu, ComputeDtype::fp16);
  const double fp32 = peak_flops_per_second(gpu, ComputeDtype::fp32);
  // Activations are bf16 where the chip multiplies bf16, else fp16 (V100, T4): the framework's
  // choice of dtype, not a substitute rate.
  r.activation_dtype = bf16 > 0 ? ComputeDtype::bf16 : ComputeDtype::fp16;
  const double sixteen = bf16 > 0 ? bf16 : fp16;
  if (sixteen <= 0) throw std::invalid_argument("the accelerator publishes no bf16 or fp16 rate to time products with");
  r.matmul_dtype = r.activation_dtype;
  double matmul = sixteen;
  switch (model.matmul_precision) {
    case MatmulPrecision::fp32:
      if (fp32 <= 0) throw std::invalid_argument("the accelerator publishes no fp32 rate for fp32 weights");
      matmul = fp32;
      r.matmul_dtype = ComputeDtype::fp32;
      break;
    case MatmulPrecision::fp8:
      if (assume.fp8_activations && peak_flops_per_second(gpu, ComputeDtype::fp8) > 0) {
        matmul = peak_flops_per_second(gpu, ComputeDtype::fp8);
        r.matmul_dtype = ComputeDtype::fp8;
      }
      break;
    case MatmulPrecision::fp4:
      if (peak_flops_per_second(gpu, ComputeDtype::fp4) > 0) {
        matmul = peak_flops_per_second(gpu, ComputeDtype::fp4);
        r.matmul_dtype = ComputeDtype::fp4;
      }
      break;
    case MatmulPrecision::activation_16bit:
      break;
  }
  const double fp8_share = r.matmul_dtype == ComputeDtype::fp8 ? assume.fp8_flops_share : 1.0;
  r.matmul_flops_per_second = matmul * assume.flops_efficiency * fp8_share;
  r.activation_flops_per_second = sixteen * assume.flops_efficiency;
  r.vector_flops_per_second = (fp32 > 0 ? fp32 : sixteen) * assume.flops_efficiency;
  // The lightning indexer multiplies FP8 queries and keys (DeepGEMM fp8_mqa_logits in vLLM's
  // deepseek_v2.py Indexer); a chip without FP8 runs them in its 16-bit type.
  const double fp8 = peak_flops_per_second(gpu, ComputeDtype::fp8);
  r.indexer_dtype = fp8 > 0 ? ComputeDtype::fp8 : r.activation_dtype;
  r.indexer_flops_per_second =
      fp8 > 0 ? fp8 * assume.flops_efficiency * assume.fp8_flops_share : sixteen * assume.flops_efficiency;
  r.hbm_bytes_per_second = gpu.memory_bandwidth_bytes_per_second * assume.hbm_efficiency;

  const double node = static_cast<double>(nvlink_fabric_gpus(gpu));
  const double intra = gpu.interconnect_bytes_per_second_per_direction;
  const double inter = assume.inter_node_bytes_per_second_per_gpu;
  // A group of `ranks` GPUs `inner` apart (tp ranks are adjacent; pipeline neighbours are a tp group
  // apart) that spans more than one NVLink fabric (a node, or GB200 NVL72's 72 GPUs) runs at the
  // network's per-GPU bandwidth and hop latency.
  auto pick = [&](double ranks, double inner, double& bandwidth, double& hop) {
    const bool spans = ranks * inner > node || intra <= 0;
    bandwidth = (spans ? (intra > 0 ? std::min(intra, inter) : inter) : intra) * assume.interconnect_efficiency;
    hop = spans ? assume.network_hop_latency_seconds : assume.link_hop_latency_seconds;
  };
  const double tp = static_cast<double>(layout.tensor_parallel);
  pick(tp, 1, r.tp_link_bytes_per_second, r.tp_hop_seconds);
  // Expert-parallel ranks are adjacent GPUs: copies to ranks of the sender's fabric go over NVLink
  // (or the node's link), the rest through its NIC, both at once (expert_dispatch_copies()).
  const double ep = static_cast<double>(layout.expert_parallel);
  const bool deepep = assume.moe_dispatcher == MoeDispatcher::deepep;
  const double ep_share = deepep ? kDeepEpLinkShare : assume.interconnect_efficiency;
  const bool ep_spans = ep > node || intra <= 0;
  r.ep_hop_seconds = ep_spans ? assume.network_hop_latency_seconds : assume.link_hop_latency_seconds;
  r.moe_dispatcher = assume.moe_dispatcher;
  r.ep_ranks_per_fabric = intra > 0 ? std::min(ep, node) : 1.0;
  r.ep_nvlink_bytes_per_second = (intra > 0 ? intra : inter) * ep_share;
  r.ep_link_bytes_per_second = ep_spans ? inter * ep_share : r.ep_nvlink_bytes_per_second;
  r.dispatch_fp8 = deepep && fp8 > 0;
  pick(static_cast<double>(layout.pipeline_parallel), tp, r.pp_link_bytes_per_second, r.pp_hop_seconds);
  r.collective_base_seconds = assume.collective_base_latency_seconds;
  r.repeat_kv_per_query_head = assume.repeat_kv_per_query_head;
  r.kv_cache_concatenated = assume.kv_cache_concatenated;
  r.kv_cache_preallocated = assume.kv_cache_preallocated;
  r.gemm_row_tiles = assume.gemm_row_tiles;
  return r;
}

double gemm_tile_rows(double rows) {
  if (rows <= 0) return 0;
  const double tile = rows <= 128 ? 64 : 128;
  return std::ceil(rows / tile) * tile;
}

double fixed_step_seconds(const LatencyAssumptions& assumptions, double layers, bool prefill, double decode_sequences) {
  const bool graph = !prefill && decode_sequences <= static_cast<double>(assumptions.cuda_graph_max_batch);
  return assumptions.step_overhead_seconds + layers * assumptions.kernel_seconds_per_layer +
         (graph ? 0.0 : layers * assumptions.launch_seconds_per_layer);
}

const char* latency_op_name(LatencyOp op) {
  switch (op) {
    case LatencyOp::embedding:
      return "embedding";
    case LatencyOp::qkv_projection:
      return "qkv_projection";
    case LatencyOp::attention:
      return "attention";
    case LatencyOp::output_projection:
      return "output_projection";
    case LatencyOp::mlp:
      return "mlp";
    case LatencyOp::moe_router:
      return "moe_router";
    case LatencyOp::moe_experts:
      return "moe_experts";
    case LatencyOp::moe_shared_experts:
      return "moe_shared_experts";
    case LatencyOp::norms:
      return "norms";
    case LatencyOp::lm_head:
      return "lm_head";
    case LatencyOp::tp_collectives:
      return "tp_collectives";
    case LatencyOp::pp_transfer:
      return "pp_transfer";
    case LatencyOp::ep_all_to_all:
      return "ep_all_to_all";
    case LatencyOp::sparse_indexer:
      return "sparse_indexer";
    case LatencyOp::count_:
      break;
  }
  return "unknown";
}

const char* latency_bound_name(LatencyBound bound) {
  switch (bound) {
    case LatencyBound::compute:
      return "compute";
    case LatencyBound::memory:
      return "memory";
    case LatencyBound::interconnect:
      return "interconnect";
    case LatencyBound::none:
      break;
  }
  return "none";
}

}  // namespace fitcheck
