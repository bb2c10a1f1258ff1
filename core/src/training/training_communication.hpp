// SPDX-License-Identifier: MIT
// A training step's communication: the links a parallel group's collectives run over, the
// per-layer collectives of tensor, context and expert parallelism, and the data-parallel
// collectives of each ZeRO stage. training_time.cpp adds them to the step's compute; formulas and
// sources: docs/latency.md, "Training time".
#pragma once

#include <cstdint>

#include "fitcheck/hardware.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck::detail {

// Bytes per activation element in the per-layer collectives (tensor, context, expert and pipeline
// parallel messages): 16-bit for every recipe. The memory counts fp32 activations at 4 B
// (precision_recipe_info); the step time has sent 2 B for every recipe since it was written, and
// keeps doing so until a change to the fp32 step time is made on purpose.
inline constexpr double kActivationBytesPerElement = 2;

struct CollectiveLink {
  double bandwidth = 0, hop = 0, base = 0;
};

// How a collective's traffic leaves a node: a ring collective (all-reduce, all-gather,
// reduce-scatter) or one GPU's own sends (pipeline sends, ring-attention exchange, all-to-all).
enum class LinkTraffic : std::uint8_t { ring, per_gpu };

// The link of a group of `ranks` GPUs `inner` apart (Megatron-LM rank order: tp, cp, dp, pp from
// the inside).
CollectiveLink collective_link(double ranks, double inner, const Accelerator& gpu, const LatencyAssumptions& c,
                               LinkTraffic traffic = LinkTraffic::ring);
double all_reduce_seconds(double bytes, double ranks, const CollectiveLink& link);
// Reduce-scatter moves the same bytes in the same steps as all-gather.
double all_gather_seconds(double bytes, double ranks, const CollectiveLink& link);

// One micro-batch on the busiest stage, as the layer collectives see it.
struct StageCollectiveInput {
  double layer_share = 0;      // the stage's share of the model's layers
  double micro_batch = 0;      // sequences
  double sequence = 0;         // tokens per sequence
  double tokens_per_rank = 0;  // tokens of the micro-batch on one context-parallel rank
  double forward_passes = 0;   // forward, backward and the recomputed forward's share
  double recompute_attention_share = 0;
  bool torch_ring = false;  // PyTorch's context-parallel ring (keys and values per query head)
  // Megatron's selective modules: 'moe' runs a MoE layer's dispatch, combine and MLP reduction again,
  // 'mlp' a dense layer's MLP reduction.
  bool moe_recomputed = false;
  bool dense_mlp_recomputed = false;
  // The checkpointed layer inputs are split over tp (partition_checkpoints): each recomputed layer
  // all-gathers its input first.
  bool partitioned_checkpoints = false;
};

struct LayerCollectiveSeconds {
  double tensor_parallel = 0;
  double context_parallel = 0;
  double expert_parallel = 0;
};

// The stage's per-layer collectives for one micro-batch, before any overlap.
LayerCollectiveSeconds layer_collective_seconds(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                                const Accelerator& gpu, const LatencyAssumptions& c,
                                                const StageCollectiveInput& stage);

// The data-parallel collectives of one step on a stage (over dp x cp ranks), and whether they may
// hide under every micro-batch's compute (ZeRO-3 / FSDP gathers per micro-batch) or one's.
struct DataParallelCollectives {
  double seconds = 0;
  bool hidden_by_every_micro_batch = false;
};
DataParallelCollectives data_parallel_collectives(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                                  const Accelerator& gpu, const LatencyAssumptions& c,
                                                  double stage_layer_share, bool first_stage, bool last_stage,
                                                  double micro_batches);

}  // namespace fitcheck::detail
