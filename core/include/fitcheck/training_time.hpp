// SPDX-License-Identifier: MIT
// Training step time for 3D/4D-parallel transformer training: forward, backward and recomputed
// FLOPs from the model's real shapes, tensor/context/expert-parallel communication per layer, the
// pipeline bubble, and the data-parallel gradient (or ZeRO) collectives, exposed or overlapped.
// Outputs step time, tokens/s, MFU and HFU, and the time, GPU-hours and cost to train N tokens.
// Formulas and sources: docs/latency.md ("Training time").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"

namespace fitcheck {

enum class RecomputeMode : std::uint8_t {
  none,
  selective,  // attention core only: q.k^T, softmax, p.v (Korthikanti et al. 2022, §5)
  full,       // every transformer layer's forward again during backward
};
const char* recompute_mode_name(RecomputeMode mode);

struct TrainingWorkload {
  std::int64_t global_batch_tokens = std::int64_t{4} << 20;  // tokens per optimizer step
  std::int64_t sequence_length = 4096;
  std::int64_t micro_batch_sequences = 1;
  ParallelLayout layout{};              // tp, pp, ep (carved from dp x cp), dp
  std::int64_t context_parallel = 1;    // sequence split over cp ranks (ring attention)
  std::int64_t virtual_stages = 1;      // interleaved 1F1B model chunks per GPU; 1: plain 1F1B
  RecomputeMode recompute = RecomputeMode::selective;
  int zero_stage = 1;                   // 0: plain data parallel; 1/2: sharded optimizer/gradients; 3: params too
  bool overlap_data_parallel = true;    // gradient and parameter collectives hidden behind compute
  ComputeDtype precision = ComputeDtype::bf16;  // dtype of the weight products (bf16, fp16, fp8)
  std::int64_t gradient_bytes_per_parameter = 4;   // fp32 gradient reduction (Megatron-LM default with bf16)
  std::int64_t parameter_bytes_per_parameter = 2;  // what ZeRO all-gathers
  std::int64_t activation_bytes_per_element = 2;
  // true: attention counts the attended query/key pairs of a causal mask (what FlashAttention
  // computes); false: the full s x s square, as Narayanan et al. 2021 Eq. 3 and PaLM's MFU count.
  bool causal_attention_flops = true;
};

struct TrainingAssumptions {
  double flops_efficiency = 0.5;  // share of dense peak the training kernels reach (docs/latency.md)
  // Link efficiency, collective latencies, inter-node bandwidth and price; the HBM and fp8 fields
  // are not read.
  LatencyAssumptions communication{};
};

// Forward FLOPs of one sequence through the whole model.
struct TrainingFlops {
  double layer_matmul = 0;     // 2 x matrix parameters per token, summed over layers (top-k experts)
  double attention_core = 0;   // q.k^T and p.v, summed over layers
  double lm_head = 0;
  double total() const { return layer_matmul + attention_core + lm_head; }
};
TrainingFlops training_forward_flops_per_sequence(const PreparedLatencyModel& model, double sequence_length,
                                                  bool causal);

struct TrainingTime {
  std::int64_t gpus = 0;                 // tp x pp x cp x dp
  std::int64_t micro_batches = 0;        // per data-parallel rank per step
  double step_seconds = 0;
  double tokens_per_second = 0;
  double tokens_per_second_per_gpu = 0;
  double model_flops_per_step = 0;       // 3 x forward, no recomputation
  double hardware_flops_per_step = 0;    // with recomputation
  double peak_flops_per_second = 0;      // per GPU, the precision's dense peak
  double mfu = 0;                        // model FLOPs / (step x peak x gpus)
  double hfu = 0;                        // hardware FLOPs / (step x peak x gpus)
  double achieved_flops_per_second_per_gpu = 0;  // hardware FLOPs / (step x gpus): Narayanan's "X"
  double pipeline_bubble_fraction = 0;   // ((pp-1)/v) / (m + (pp-1)/v) of the pipeline time
  // One micro-batch on the busiest stage's GPU.
  double microbatch_compute_seconds = 0;       // forward + backward + recompute
  double microbatch_tensor_parallel_seconds = 0;
  double microbatch_context_parallel_seconds = 0;  // exposed part of the ring-attention exchange
  double microbatch_expert_parallel_seconds = 0;
  double microbatch_pipeline_send_seconds = 0;
  double microbatch_seconds = 0;
  double pipeline_seconds = 0;           // microbatch x (m + (pp-1)/v)
  double bubble_seconds = 0;
  double data_parallel_seconds = 0;      // the collectives' full time
  double data_parallel_exposed_seconds = 0;
  // Training N tokens.
  double train_tokens = 0;
  double train_seconds = 0;
  double train_gpu_hours = 0;
  double train_cost_usd = 0;
};

// Empty when `accelerator` publishes the rates a step time needs: `precision`'s dense rate for the
// weight products and bf16 or fp16 for the attention core. Otherwise a one-line note naming option
// 'precision', the missing rate, and the rates the chip does publish with the 'precision' value
// that uses each. The memory of a workload needs no rate, so a report can give it with this note.
std::string training_time_missing_rate(const Accelerator& accelerator, ComputeDtype precision);

// `model` prepared at WeightFormat::bf16 (its bytes / 2 are parameter counts). Sizes that do not fit
// (a global batch smaller than dp x micro-batch, cp not dividing the sequence, ...) throw
// OptionError naming the training option that sets them; a missing rate throws
// OptionError("precision", training_time_missing_rate(...)), never another dtype's rate in its place.
TrainingTime estimate_training_time(const PreparedLatencyModel& model, const TrainingWorkload& workload,
                                    const Accelerator& accelerator, double train_tokens,
                                    const TrainingAssumptions& assumptions = {});

struct TrainingExplanation {
  TrainingTime time;
  std::vector<std::string> lines;        // each figure with its formula, numbers substituted
  std::vector<std::string> assumptions;
};
TrainingExplanation explain_training_time(const PreparedLatencyModel& model, const TrainingWorkload& workload,
                                          const Accelerator& accelerator, double train_tokens,
                                          const TrainingAssumptions& assumptions = {});

}  // namespace fitcheck
