// SPDX-License-Identifier: MIT
// The assumptions a latency estimate divides by: the efficiencies of matrix products, memory and
// links, NCCL's latency floors, and a serving engine's fixed costs per forward pass. Defaults and
// sources: docs/latency.md; the engine profiles that set the fixed costs: docs/engines-serving.md.
#pragma once

#include <cstdint>

#include "fitcheck/expert_dispatch.hpp"
#include "fitcheck/hardware.hpp"

namespace fitcheck {

// User-settable efficiencies and link figures. Defaults and sources: docs/latency.md.
struct LatencyAssumptions {
  double flops_efficiency = 0.7;  // share of dense peak a matrix product reaches
  // FP8 products reach this share of flops_efficiency (the chip's measured fp8 over bf16 achievable
  // matmul share, Accelerator::mamf_share_fp8 / mamf_share_bf16, set by the engine's kernel
  // efficiency); 1: the same share as 16-bit products.
  double fp8_flops_share = 1.0;
  double hbm_efficiency = 0.8;           // share of peak memory bandwidth a streaming read reaches
  double interconnect_efficiency = 0.7;  // share of the per-direction link a ring collective reaches
  // NCCL's latency model (NVIDIA/nccl@b6475625 src/graph/tuning.cc): ring LL base latency per
  // collective, and per-step hardware latency over NVLink (PCIe: 1.0 us) and the network.
  double collective_base_latency_seconds = 6.6e-6;
  double link_hop_latency_seconds = 0.6e-6;
  double network_hop_latency_seconds = 2.7e-6;
  // Bandwidth one GPU has to other nodes, one direction: DGX H100 has one 400 Gb/s NIC per GPU.
  double inter_node_bytes_per_second_per_gpu = 50e9;
  // fp8 weight formats (fp8-per-tensor, fp8-block128) quantize activations too and multiply in fp8
  // where the chip has an fp8 path (vLLM/TensorRT-LLM W8A8); false: weight-only, bf16 products.
  bool fp8_activations = true;
  double price_per_gpu_hour_usd = -1;  // < 0: the accelerator's editable default
  // A serving engine's fixed costs per forward pass (engine profiles, docs/engines-serving.md); all
  // 0 without an engine. Decode steps of at most cuda_graph_max_batch sequences replay a captured
  // CUDA graph and pay no launches; prefill steps and larger decodes launch every layer's kernels.
  double step_overhead_seconds = 0;     // CPU scheduling, input preparation, sampling
  double launch_seconds_per_layer = 0;  // kernel launches of one layer outside a graph
  double kernel_seconds_per_layer = 0;  // small kernels of one layer, in a graph or not
  std::int64_t cuda_graph_max_batch = 0;
  // Decode attention without GQA-aware kernels (HF transformers' repeat_kv before SDPA): the
  // grouped K/V are copied out once per query head and read from the copy.
  bool repeat_kv_per_query_head = false;
  // The self-attention cache grows by concatenation (HF transformers' DynamicCache): each decode
  // step reads every layer's cache and writes it again one token longer.
  bool kv_cache_concatenated = false;
  // The self-attention cache is preallocated for prompt + generated tokens (HF transformers'
  // StaticCache): each decode step's attention reads every preallocated position under its mask.
  bool kv_cache_preallocated = false;
  // Weight products computed in CUTLASS tiles of 64 rows (at most 128 rows) or 128 rows (more): the
  // rows are padded to the tile and the padding is computed (gemm_tile_rows()). Off without an engine.
  bool gemm_row_tiles = false;
  // How a MoE layer's tokens reach expert-parallel ranks beyond tensor parallelism (docs/latency.md,
  // "Expert-parallel dispatch"): all_to_all, a copy per (token, expert) pair in the activation type;
  // deepep, DeepEP as SGLang's --moe-a2a-backend deepep runs it (deepep_mode auto): its normal
  // kernels for passes with prompt tokens (a copy per destination rank, one RDMA copy per destination
  // node), its low-latency kernels for decode-only passes (a copy per pair), FP8 dispatch and
  // 16-bit combine, at kDeepEpLinkShare of the links instead of interconnect_efficiency.
  MoeDispatcher moe_dispatcher = MoeDispatcher::all_to_all;
};

// The rows a tiled weight product computes for `rows` token rows: vLLM's Hopper FP8 CUTLASS
// dispatch (vllm-project/vllm@44d638a89638f617e8315b25ad699a5a72e845b9
// csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh) runs M <= 128 in 64-row
// tiles (TileShape 64x64 or 64x128) and larger M in 128-row tiles (128x128); a partial tile costs a
// whole one. 0 for 0 rows.
double gemm_tile_rows(double rows);

// The fixed time of one forward pass under `assumptions`: the step overhead and `layers` layers'
// small kernels, plus their launches unless the pass is a decode of at most cuda_graph_max_batch
// sequences.
double fixed_step_seconds(const LatencyAssumptions& assumptions, double layers, bool prefill, double decode_sequences);

// The assumptions with the per-step link latency of the accelerator's node link (PCIe or NVLink).
LatencyAssumptions default_latency_assumptions(const Accelerator& accelerator);

}  // namespace fitcheck
