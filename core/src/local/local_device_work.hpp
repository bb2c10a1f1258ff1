// SPDX-License-Identifier: MIT
// What each device of a placement does for a token (local_device_work.cpp): the weights it reads and
// holds, the multiplies it runs by storage, the graph ops it launches, the KV cache and recurrent state
// it reads, the attention it computes over a prompt. local_speed.cpp times that work.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"

namespace fitcheck {

// Storage kinds of a weight: quantized (any ggml quant type), f16, bf16, f32.
enum StorageKind : std::size_t { kQuantized, kF16, kBf16, kF32, kStorageKinds };

struct DeviceWork {
  double weight_bytes_per_token = 0;      // generation: weights read for one token
  double kv_bytes_per_cell = 0;           // generation: bytes read per cached token (all its layers)
  double state_bytes_per_token = 0;       // generation: the recurrent layers' states moved per token
  std::vector<std::int64_t> layer_cells;  // cells of each of its layers (sliding windows cap them)
  std::vector<double> layer_cell_bytes;
  double weight_bytes_resident = 0;                             // prompt: everything it holds, read once per ubatch
  double expert_bytes_resident = 0;                             // of those, routed experts' (MUL_MAT_ID weights)
  double flops_per_token = 0;                                   // prompt: 2 x active parameters
  std::array<double, kStorageKinds> flops_per_token_by_kind{};  // the same, by the weights' storage
  std::array<double, kStorageKinds> expert_flops_by_kind{};     // of those, routed experts' (MUL_MAT_ID)
  std::array<double, kGgufTypeCount> dense_quantized_flops_by_type{};  // MUL_MAT over quantized weights, by type
  double quantized_bytes_resident = 0;       // quantized weights it holds (dequantized for cuBLAS)
  double quantized_parameters_resident = 0;  // their parameters (2 bytes each once dequantized to f16)
  double expert_quantized_flops_per_token() const { return expert_flops_by_kind[kQuantized]; }
  double expert_float_flops_per_token() const {
    return expert_flops_by_kind[kF16] + expert_flops_by_kind[kBf16] + expert_flops_by_kind[kF32];
  }
  // With flash attention: the prompt's QK^T and PV FLOPs over the attention layers whose cache it
  // holds, each query attending the depth and the prompt before it, at most the layer's cells.
  double prompt_attention_flops = 0;
  // Without flash attention: the scores one head computes over the prompt, over the attention layers
  // whose cache it holds (materialized_scores_per_head).
  double materialized_scores_per_head = 0;
  std::int64_t graph_ops = 0;          // ops of the graph it runs per token (its layers' and the output layer's)
  std::int64_t expert_matrix_ops = 0;  // of those, the MUL_MAT_IDs over the routed experts it holds
  std::vector<LocalMatrix> quantized_matrices;  // prompt: its quantized matrices as MMQ tiles them
  // Prompt: the bytes its MoE layers' combine of the routed experts' outputs moves a token beyond a dense
  // FFN's (local_kernels.cpp local_expert_combine_bytes), counted where the layer's own ops run.
  double expert_combine_bytes_per_token = 0;
};

// Each device's work, in the placement's order (the GPUs, then the CPU); the Metal fusion and concurrency
// rules of the request's build go to `assumptions`.
std::vector<DeviceWork> local_device_work(const LocalModel& model, const LocalRequest& request, const LocalPlacement& p,
                                          std::vector<std::string>& assumptions);
// A device's prompt multiplies over `tokens` (and `attention_flops`), as the CPU's kernels
// (local_cpu_matmul.cpp) and a GPU's paths (local_gpu_matmul.cpp) take them.
LocalCpuMatmulFlops local_cpu_matmul_flops(const DeviceWork& w, double tokens, double attention_flops);
LocalGpuMatmulWork local_gpu_matmul_work(const DeviceWork& w, double tokens, double attention_flops);

}  // namespace fitcheck
