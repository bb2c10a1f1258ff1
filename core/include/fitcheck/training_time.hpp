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
#include "fitcheck/training_workload.hpp"

namespace fitcheck {

struct TrainingAssumptions {
  double flops_efficiency = 0.5;  // share of dense peak the weight products reach (docs/latency.md)
  // false: flops_efficiency is the default, and FP8 products reach it times the chip's MAMF share
  // of the fp8 peak over its bf16 share (Accelerator::mamf_share_fp8 / mamf_share_bf16); true: the
  // user's figure for the precision's peak, applied as given.
  bool flops_efficiency_given = false;
  // Share of the 16-bit peak the attention core reaches; <= 0: attention_efficiency_default().
  double attention_efficiency = -1;
  // Share of the HBM bandwidth the memory-bound kernels (elementwise ops, FP8 casts, the loss)
  // reach: torchao's roofline takes 0.92 for pointwise Triton kernels with large inputs, "about
  // 2.2k GBPS on Meta's H100 variant" of 2.4 TB/s (pytorch/ao 36027d82
  // torchao/testing/training/roofline_utils.py, pct_achievable_mem_bw).
  double elementwise_bandwidth_efficiency = 0.92;
  // Link efficiency, collective latencies, inter-node bandwidth and price; the HBM and fp8 fields
  // are not read.
  LatencyAssumptions communication{};
};

// Forward FLOPs of one sequence through the whole model.
struct TrainingFlops {
  double layer_matmul = 0;    // 2 x matrix parameters per token, summed over layers (top-k experts)
  double attention_core = 0;  // q.k^T and p.v, summed over layers
  double lm_head = 0;
  double total() const { return layer_matmul + attention_core + lm_head; }
};
TrainingFlops training_forward_flops_per_sequence(const PreparedLatencyModel& model, double sequence_length,
                                                  bool causal);

struct TrainingTime {
  std::int64_t gpus = 0;                     // tp x pp x cp x dp
  std::int64_t micro_batches = 0;            // per data-parallel rank per step
  double sequences_per_step = 0;             // micro_batches x micro-batch x dp
  TrainingFlops forward_flops_per_sequence;  // what the FLOPs per step are counted from
  double step_seconds = 0;
  double tokens_per_second = 0;
  double tokens_per_second_per_gpu = 0;
  double model_flops_per_step = 0;               // 3 x forward, no recomputation, as the framework counts it
  bool mfu_attention_full_square = false;        // attention counted over s x s for MFU (the framework's rule)
  double hardware_flops_per_step = 0;            // with recomputation
  double peak_flops_per_second = 0;              // per GPU, the precision's dense peak
  double mfu = 0;                                // model FLOPs / (step x peak x gpus)
  double hfu = 0;                                // hardware FLOPs / (step x peak x gpus)
  double achieved_flops_per_second_per_gpu = 0;  // hardware FLOPs / (step x gpus): Narayanan's "X"
  double flops_efficiency = 0;                   // applied: share of the precision's peak for the products
  double attention_efficiency = 0;               // applied: share of the 16-bit peak for the attention core
  // The routed experts' grouped GEMMs: their time over the dense rate's (FLOP-weighted over MoE
  // layers; 1 without routed experts), their bytes blended with their FLOPs at few tokens per expert.
  double expert_gemm_slowdown = 1;
  double pipeline_bubble_fraction = 0;  // ((pp-1)/v) / (m + (pp-1)/v) of the pipeline time
  // How the elementwise operations ran (the framework's kernels, fused by --compile where it compiles).
  ElementwiseKernels elementwise_kernels = ElementwiseKernels::eager;
  // One micro-batch on the busiest stage's GPU.
  double microbatch_compute_seconds = 0;           // forward + backward + recompute: the three below
  double microbatch_matmul_seconds = 0;            // weight products and lm_head at the GEMM rate
  double microbatch_attention_seconds = 0;         // attention core: forward, backward (2.5 x forward), recompute
  double microbatch_memory_seconds = 0;            // memory-bound kernels: elementwise ops, FP8 casts, the loss
  double microbatch_memory_bytes = 0;              // their bytes through HBM
  double microbatch_moe_token_bytes = 0;           // of which the MoE layers' routed tokens (router, copies, biases)
  double microbatch_dora_bytes = 0;                // of which DoRA's weight norms and magnitude products
  double tensor_parallel_seconds = 0;              // the layers' tensor-parallel collectives in full
  double microbatch_tensor_parallel_seconds = 0;   // their exposed part (all of it without tp_comm_overlap)
  double microbatch_context_parallel_seconds = 0;  // exposed part of the ring-attention exchange
  double expert_parallel_seconds = 0;              // the expert all-to-alls in full
  double microbatch_expert_parallel_seconds = 0;   // their exposed part (all of it without ep_comm_overlap)
  double microbatch_pipeline_send_seconds = 0;
  double microbatch_seconds = 0;
  double pipeline_seconds = 0;  // microbatch x (m + (pp-1)/v)
  double bubble_seconds = 0;
  double data_parallel_seconds = 0;  // the collectives' full time
  double data_parallel_exposed_seconds = 0;
  // Training N tokens.
  double train_tokens = 0;
  double train_seconds = 0;
  double train_days = 0;  // train_seconds / 86,400
  double train_gpu_hours = 0;
  double price_per_gpu_hour_usd = 0;  // the assumptions' price, else the GPU's catalog price
  double train_cost_usd = 0;
};

// The attention core's forward + backward rate as a share of the 16-bit dense peak, by kernel
// (training_attention_kernel: --attention-kernel, else the framework's) and chip generation, the
// forward and backward weighted 1 : 2.5 as FlashAttention's benchmarks count them.
// Ampere and older: FlashAttention-2 reaches 50-73% of A100 peak (Dao 2023, arXiv 2307.08691,
// abstract; 0.5, the backward-bound low end). Hopper and later: the flash-attn package's
// FlashAttention-2 forward 370 and backward 322 TFLOP/s (Shah et al. 2024, arXiv 2407.08608,
// Figures 5-6, head dim 128, 16k): 0.34; PyTorch SDPA's vendored flash kernels forward 304 TFLOP/s
// (pytorch/benchmark d5f0a12b, TritonBench on H100, head dim 128, 16k) with the same backward ratio:
// 0.28; cuDNN fused attention (Transformer Engine), FlashAttention-3-class on Hopper: 75% forward
// (740 TFLOP/s) and a backward 1.5x FlashAttention-2's: 0.55 (on Blackwell the FlashAttention-2
// share). The generation is told by the chip's rates (fp8 without fp4: Hopper; fp4: Blackwell).
struct AttentionEfficiency {
  double share = 0.5;
  const char* kernel = "";  // which published rate it is
};
AttentionEfficiency attention_efficiency_default(const Accelerator& accelerator, const TrainingWorkload& workload);

// Empty when `accelerator` publishes the rates a step time needs: `precision`'s dense rate for the
// weight products and bf16 or fp16 for the attention core. Otherwise a one-line note naming option
// 'precision', the missing rate, and the rates the chip does publish with the 'precision' value
// that uses each. The memory of a workload needs no rate, so a report can give it with this note.
// The share of `precision`'s dense peak the weight products reach: the assumptions' flops
// efficiency, scaled for FP8 (when not given) by the chip's MAMF fp8 share over its bf16 share, the
// measured gap between FP8 and bf16 matmuls on the same chip (H100 SXM: 70.9% against 80.3%).
double training_flops_efficiency(const Accelerator& accelerator, PrecisionRecipe precision,
                                 const TrainingAssumptions& assumptions);

std::string training_time_missing_rate(const Accelerator& accelerator, ComputeDtype precision);

// `model` prepared at WeightFormat::bf16 (its bytes / 2 are parameter counts). The workload reads
// as the memory does: the recipe's matrix dtype (training_compute_dtype), FSDP modes as their ZeRO
// stage (training_collective_zero_stage), global_batch_tokens_or_default(). Workloads that cannot
// run (check_training_workload with step_time) throw OptionError naming the training option that
// sets them; a missing rate throws OptionError("precision", training_time_missing_rate(...)), never
// another dtype's rate in its place.
TrainingTime estimate_training_time(const PreparedLatencyModel& model, const TrainingWorkload& workload,
                                    const Accelerator& accelerator, double train_tokens,
                                    const TrainingAssumptions& assumptions = {});

struct TrainingExplanation {
  TrainingTime time;
  std::vector<std::string> lines;  // each figure with its formula, numbers substituted
  std::vector<std::string> assumptions;
};
TrainingExplanation explain_training_time(const PreparedLatencyModel& model, const TrainingWorkload& workload,
                                          const Accelerator& accelerator, double train_tokens,
                                          const TrainingAssumptions& assumptions = {});

}  // namespace fitcheck
