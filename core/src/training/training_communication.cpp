// SPDX-License-Identifier: MIT
// A training step's collectives: links, per-layer tensor/context/expert parallel traffic and the
// data-parallel collectives. Formulas and sources: docs/latency.md, "Training time".
#include "training/training_communication.hpp"

#include <algorithm>
#include <cmath>

#include "fitcheck/training_framework.hpp"

namespace fitcheck::detail {
namespace {

// The model is prepared at bf16: two bytes per parameter, vectors included.
double parameters(const OpWeights& w) { return w.bytes / 2; }

}  // namespace

// A group that spans more than one node runs at the network's bandwidth and hop latency. A GPU's
// own sends leave through its NIC. A ring collective runs one NCCL channel per NIC, so a ring over
// the group's GPUs of a node crosses into the next node on all their NICs at once: its bus
// bandwidth is their sum, capped by NVLink (NVIDIA/nccl-tests #119: 24 A100s on 3 nodes with 4 x
// 200 Gb/s NICs each reach an all-reduce busbw of 85-96 GB/s, the NICs' 100 GB/s; NVIDIA/nccl #29,
// sjeaugey: "DGX-1 can get 48 GB/s because we have 4 IB adapters instead of 1").
CollectiveLink collective_link(double ranks, double inner, const Accelerator& gpu, const LatencyAssumptions& c,
                               LinkTraffic traffic) {
  const double node = static_cast<double>(nvlink_fabric_gpus(gpu));
  const double intra = gpu.interconnect_bytes_per_second_per_direction;
  const bool spans = ranks * inner > node || intra <= 0;
  const double nics = traffic == LinkTraffic::ring ? std::max(1.0, std::floor(node / inner)) : 1.0;
  const double network = nics * c.inter_node_bytes_per_second_per_gpu;
  const double raw = spans ? (intra > 0 ? std::min(intra, network) : c.inter_node_bytes_per_second_per_gpu) : intra;
  return {raw * c.interconnect_efficiency, spans ? c.network_hop_latency_seconds : c.link_hop_latency_seconds,
          c.collective_base_latency_seconds};
}

double all_reduce_seconds(double bytes, double ranks, const CollectiveLink& l) {
  return ring_all_reduce_seconds(bytes, ranks, l.bandwidth, l.hop, l.base);
}
double all_gather_seconds(double bytes, double ranks, const CollectiveLink& l) {
  return ring_all_gather_seconds(bytes, ranks, l.bandwidth, l.hop, l.base);
}

LayerCollectiveSeconds layer_collective_seconds(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                                const Accelerator& gpu, const LatencyAssumptions& c,
                                                const StageCollectiveInput& stage) {
  const ParallelLayout& lay = w.layout;
  const double tp = static_cast<double>(lay.tensor_parallel), ep = static_cast<double>(lay.expert_parallel);
  const double cp = static_cast<double>(w.context_parallel);
  const double a = kActivationBytesPerElement, h = model.hidden;
  const double b = stage.micro_batch, s = stage.sequence, tokens_gpu = stage.tokens_per_rank;
  const CollectiveLink tp_link = collective_link(tp, 1, gpu, c);
  const CollectiveLink cp_link = collective_link(cp, tp, gpu, c, LinkTraffic::per_gpu);
  const CollectiveLink ep_link = collective_link(ep, tp * cp, gpu, c, LinkTraffic::per_gpu);
  const CollectiveLink ep_intra = collective_link(1, 1, gpu, c);  // NVLink between the ep ranks of one node
  const double node_gpus = static_cast<double>(nvlink_fabric_gpus(gpu));
  LayerCollectiveSeconds out;
  for (const LatencyLayerKind& k : model.kinds) {
    const double n = static_cast<double>(k.layers) * stage.layer_share;
    // Megatron-LM: an all-reduce after attention and after the MLP in forward and in backward
    // (sequence parallelism replaces each with a reduce-scatter and an all-gather of the same
    // volume, Korthikanti et al. 2022 §4.2.2).
    const double reduces = k.parallel_attention_mlp || (!k.moe && k.mlp.matrix_params <= 0) ? 1 : 2;
    const bool mlp_recomputed = k.moe ? stage.moe_recomputed : stage.dense_mlp_recomputed && k.mlp.matrix_params > 0;
    const double recomputed_reduces = mlp_recomputed && !k.parallel_attention_mlp ? 1 : 0;
    out.tensor_parallel +=
        n * (stage.forward_passes * reduces + recomputed_reduces) * all_reduce_seconds(tokens_gpu * h * a, tp, tp_link);
    // Partitioned checkpoints: the recomputed layers (forward_passes - 2 of them per layer) gather
    // their input (checkpointing.py gather_partitioned_activations; Megatron's gather_split_1d_tensor).
    if (stage.partitioned_checkpoints && tp > 1)
      out.tensor_parallel += n * (stage.forward_passes - 2) * all_gather_seconds(tokens_gpu * h * a, tp, tp_link);
    if (cp > 1) {
      // Ring attention passes each rank's keys and values around the cp ranks: forward once,
      // backward the keys/values and their gradients (Liu et al. 2023, Ring Attention §3).
      // PyTorch's ring passes the keys and values SDPA receives, repeated to every query head, and
      // the key/value gradients in fp32 (twice their bf16 bytes).
      const double kv_heads = stage.torch_ring ? k.heads : k.kv_heads;
      const double kv_width = k.multi_latent ? k.heads * (k.nope_head_dim + k.rope_head_dim + k.v_head_dim)
                                             : kv_heads * (k.qk_head_dim + k.v_head_dim);
      const double volume = b * s * kv_width * a * (cp - 1) / cp / tp;
      const double exchange = volume / cp_link.bandwidth + (cp - 1) * cp_link.hop;
      const double backward_passes = stage.torch_ring ? 3 : 2;
      out.context_parallel += n * exchange * (1 + backward_passes + stage.recompute_attention_share);
    }
    if (k.moe && ep > 1) {
      // Dispatch and combine in forward and backward (and the recomputed forward); tokens are
      // split over tp ranks by sequence parallelism before they leave. Of the copies a rank sends
      // to the ep ranks, those for the group's ranks on its own node go over NVLink and the rest
      // through its NIC, at the same time.
      const double on_node = std::min(ep, std::max(1.0, std::floor(node_gpus / (tp * cp))));
      const ExpertCopies per_token =
          expert_dispatch_copies(k.experts, k.experts_per_token, ep, on_node, w.moe_dispatcher, w.moe_routing);
      const double token_bytes = tokens_gpu / tp * h * a;
      const double sent_intra = token_bytes * per_token.nvlink, sent_inter = token_bytes * per_token.network;
      const double seconds =
          std::max(sent_intra / ep_intra.bandwidth, sent_inter > 0 ? sent_inter / ep_link.bandwidth : 0.0);
      const double passes = stage.forward_passes + (stage.moe_recomputed ? 1 : 0);
      out.expert_parallel += n * 2 * passes * (seconds + (ep - 1) * ep_link.hop + ep_link.base);
    }
  }
  return out;
}

DataParallelCollectives data_parallel_collectives(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                                  const Accelerator& gpu, const LatencyAssumptions& c,
                                                  double stage_layer_share, bool first_stage, bool last_stage,
                                                  double micro_batches) {
  const ParallelLayout& lay = w.layout;
  const double tp = static_cast<double>(lay.tensor_parallel), pp = static_cast<double>(lay.pipeline_parallel);
  const double ep = static_cast<double>(lay.expert_parallel), dp = static_cast<double>(lay.data_parallel);
  const double cp = static_cast<double>(w.context_parallel), m = micro_batches;
  double dense = 0, experts = 0;
  for (const LatencyLayerKind& k : model.kinds) {
    const double n = static_cast<double>(k.layers) * stage_layer_share;
    dense += n * (parameters(k.query) + parameters(k.key_value) + parameters(k.attention_replicated) +
                  parameters(k.kv_up) + parameters(k.output) + parameters(k.mlp) + parameters(k.router) +
                  parameters(k.shared) + parameters(k.norms));
    experts += n * k.experts * parameters(k.expert);
  }
  if (first_stage) dense += model.embedding_bytes / 2;
  if (last_stage && !(pp <= 1 && model.tied_embeddings)) dense += parameters(model.lm_head);
  const double params_gpu = dense / tp + experts / (ep > 1 ? ep : tp);
  const double ranks = dp * cp;
  const double grads = params_gpu * static_cast<double>(training_gradient_bytes_per_parameter(w));
  const double weights =
      params_gpu * static_cast<double>(precision_recipe_info(w.precision).weight_bytes_per_parameter);
  const CollectiveLink dp_link = collective_link(dp * cp, tp, gpu, c);
  DataParallelCollectives out;
  switch (training_collective_zero_stage(w)) {
    case 0:
      out.seconds = all_reduce_seconds(grads, ranks, dp_link);
      break;
    case 1:
    case 2:  // ZeRO (Rajbhandari et al. 2020, §7.2): reduce-scatter gradients, all-gather parameters
      out.seconds = all_gather_seconds(grads, ranks, dp_link) + all_gather_seconds(weights, ranks, dp_link);
      break;
    default:  // ZeRO-3 gathers the parameters for forward and for backward of every micro-batch
      if (w.fsdp == FsdpMode::hybrid_shard) {
        // HYBRID_SHARD: gathers and reduce-scatters within the shard group, then one all-reduce
        // of each rank's gradient shard across the replicas (PyTorch FSDP HYBRID_SHARD; FSDP2's
        // fully_shard on a 2-D (replicate, shard) mesh).
        const double shard = std::min(static_cast<double>(w.fsdp_shard_group), ranks);
        const double replicas = ranks / shard;
        const CollectiveLink shard_link = collective_link(shard, tp, gpu, c);
        const CollectiveLink replica_link = collective_link(replicas, tp * shard, gpu, c);
        out.seconds = all_gather_seconds(grads, shard, shard_link) +
                      all_reduce_seconds(grads / shard, replicas, replica_link) +
                      2 * m * all_gather_seconds(weights, shard, shard_link);
      } else {
        out.seconds = all_gather_seconds(grads, ranks, dp_link) + 2 * m * all_gather_seconds(weights, ranks, dp_link);
      }
      out.hidden_by_every_micro_batch = true;
      break;
  }
  return out;
}

}  // namespace fitcheck::detail
