// SPDX-License-Identifier: MIT
// What each device of a placement does for a token (docs/local.md, "Speed"): its layers' weights and
// multiplies, the routed experts where --n-cpu-moe keeps them, llama.cpp's graph ops, the cache and
// attention where the cache lives, the output layer.
#include "local/local_device_work.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fitcheck {
namespace {

// Adds the multiplies of `parameters` weights (of which `split` are stored as floats) read at
// `share` per token, held as `bytes` in memory; `experts`: routed experts.
void add_matmuls(DeviceWork& w, std::int64_t parameters, const LocalFloatParameters& split,
                 const LocalQuantizedParameters& quantized, std::int64_t bytes, double share, bool experts) {
  const double total = static_cast<double>(parameters);
  const std::array<double, kStorageKinds> by_kind = {
      std::max(0.0, total - static_cast<double>(split.f16 + split.bf16 + split.f32)), static_cast<double>(split.f16),
      static_cast<double>(split.bf16), static_cast<double>(split.f32)};
  for (std::size_t k = 0; k < kStorageKinds; ++k) w.flops_per_token_by_kind[k] += 2.0 * by_kind[k] * share;
  if (experts) {
    for (std::size_t k = 0; k < kStorageKinds; ++k) w.expert_flops_by_kind[k] += 2.0 * by_kind[k] * share;
  } else {
    for (std::size_t t = 0; t < kGgufTypeCount; ++t)
      w.dense_quantized_flops_by_type[t] += 2.0 * static_cast<double>(quantized[t]) * share;
  }
  w.flops_per_token += 2.0 * total * share;
  if (total > 0) {
    w.quantized_parameters_resident += by_kind[kQuantized];
    w.quantized_bytes_resident += static_cast<double>(bytes) * by_kind[kQuantized] / total;
  }
}

}  // namespace

std::vector<DeviceWork> local_device_work(const LocalModel& model, const LocalRequest& request, const LocalPlacement& p,
                                          std::vector<std::string>& assumptions) {
  const double touched = model.num_experts > 0 && model.experts_per_token > 0
                             ? static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts)
                             : 1.0;
  const std::size_t n_gpus = p.devices.size() - 1;
  std::vector<DeviceWork> work(p.devices.size());
  const auto index_of = [&](int device) { return local_device_index(p, device); };
  const double attention_width = static_cast<double>(model.num_heads * model.head_dim);
  const double tokens = std::max(1.0, static_cast<double>(request.prompt_len));  // of the prompt
  const double depth = static_cast<double>(request.depth);                       // cached before it
  std::int64_t all_graph_ops = 0, fused_graph_ops = 0;                           // besides attention, over every device
  std::int64_t concurrent_kernels = 0;  // of the kernels left after fusion (Metal, local_kernels.cpp)
  const double expert_combine_bytes = local_expert_combine(model, request).bytes_per_token;
  for (std::size_t il = 0; il < model.layers.size(); ++il) {
    const LocalLayer& layer = model.layers[il];
    DeviceWork& home = work[index_of(p.layer_device[il])];
    DeviceWork& experts = work[static_cast<std::int64_t>(il) < p.n_cpu_moe ? n_gpus : index_of(p.layer_device[il])];
    const std::int64_t fused =
        local_metal_fused_ops(request, layer.rms_norms, layer.layer_norms, layer.expert_sum_adds);
    // A layer on the CPU runs its ops one after another; on a Metal GPU the concurrent ones share a barrier.
    const std::int64_t concurrent =
        index_of(p.layer_device[il]) < n_gpus ? local_metal_concurrent_kernels(request, layer) : 0;
    home.graph_ops += layer.graph_ops - fused - concurrent;
    all_graph_ops += layer.graph_ops;
    fused_graph_ops += fused;
    concurrent_kernels += concurrent;
    home.weight_bytes_per_token += static_cast<double>(layer.dense_bytes);
    home.weight_bytes_resident += static_cast<double>(layer.dense_bytes);
    add_matmuls(home, layer.dense_parameters, layer.dense_float, layer.dense_quantized, layer.dense_bytes, 1.0, false);
    // One token reads only the experts it is routed to: experts_per_token of num_experts.
    experts.weight_bytes_per_token += static_cast<double>(layer.expert_bytes) * touched;
    experts.weight_bytes_resident += static_cast<double>(layer.expert_bytes);
    experts.expert_bytes_resident += static_cast<double>(layer.expert_bytes);
    add_matmuls(experts, layer.expert_parameters, layer.expert_float, layer.expert_quantized, layer.expert_bytes,
                touched, true);
    if (layer.expert_parameters > 0) {
      experts.expert_matrix_ops += layer.expert_matrices;
      home.expert_combine_bytes_per_token += expert_combine_bytes;
    }
    for (const LocalMatrix& m : layer.quantized_matrices)
      (m.routed_experts ? experts : home).quantized_matrices.push_back(m);
    // The cache is read where it lives (the CPU with -nkvo), and attention runs there.
    DeviceWork& cache = request.kv_offload ? home : work[n_gpus];
    cache.layer_cells.push_back(local_layer_cells(layer, request, p.kv_size));
    cache.layer_cell_bytes.push_back(static_cast<double>(local_layer_kv_bytes(layer, request.kv_type, 1)));
    // A recurrent layer's state, every token: the scan reads it and writes the new one into its
    // output, and a copy reads that back into the cache (ggml-org/llama.cpp
    // src/models/graph-context-mamba.cpp: ggml_ssm_scan, then ggml_cpy of the last states; the conv
    // window likewise): four passes over r + s.
    cache.state_bytes_per_token += 4.0 * static_cast<double>(local_layer_state_bytes(layer));
    if (layer.attention) {
      // QK^T and PV: 2 x 2 x n_head x head_dim FLOPs per token per cached position.
      const auto cells = static_cast<double>(cache.layer_cells.back());
      cache.prompt_attention_flops += 4.0 * attention_width * prompt_attention_pairs(tokens, depth, cells);
      cache.materialized_scores_per_head +=
          materialized_scores_per_head(tokens, static_cast<double>(request.ubatch), cells, depth);
      cache.graph_ops += request.flash_attention ? kLocalAttentionOpsFlash : kLocalAttentionOps;
    }
  }
  DeviceWork& output = work[index_of(p.output_device)];
  const std::int64_t output_fused = local_metal_fused_ops(request, model.output_rms_norms, model.output_layer_norms, 0);
  output.graph_ops += model.output_graph_ops - output_fused;
  all_graph_ops += model.output_graph_ops;
  fused_graph_ops += output_fused;
  if (std::string rule = local_metal_fusion_rule(request, all_graph_ops, fused_graph_ops); !rule.empty())
    assumptions.push_back(std::move(rule));
  if (std::string rule = local_metal_concurrency_rule(all_graph_ops - fused_graph_ops, concurrent_kernels);
      !rule.empty())
    assumptions.push_back(std::move(rule));
  output.weight_bytes_per_token += static_cast<double>(model.output_bytes);
  output.weight_bytes_resident += static_cast<double>(model.output_bytes);
  add_matmuls(output, model.output_parameters, model.output_float, model.output_quantized, model.output_bytes, 1.0,
              false);
  output.quantized_matrices.insert(output.quantized_matrices.end(), model.output_quantized_matrices.begin(),
                                   model.output_quantized_matrices.end());
  return work;
}

// A CPU device's prompt multiplies by what picks ggml-cpu's kernel (local_cpu_matmul.cpp).
LocalCpuMatmulFlops local_cpu_matmul_flops(const DeviceWork& w, double tokens, double attention_flops) {
  LocalCpuMatmulFlops f;
  double known = 0;
  for (std::size_t t = 0; t < kGgufTypeCount; ++t) {
    f.dense_quantized[t] = w.dense_quantized_flops_by_type[t] * tokens;
    known += f.dense_quantized[t];
  }
  const auto dense = [&](std::size_t kind) {
    return (w.flops_per_token_by_kind[kind] - w.expert_flops_by_kind[kind]) * tokens;
  };
  f.dense_other_quantized = std::max(0.0, dense(kQuantized) - known);
  f.dense_f16 = dense(kF16);
  f.dense_bf16 = dense(kBf16);
  f.dense_f32 = dense(kF32);
  f.expert_quantized = w.expert_flops_by_kind[kQuantized] * tokens;
  f.expert_f16 = w.expert_flops_by_kind[kF16] * tokens;
  f.expert_bf16 = w.expert_flops_by_kind[kBf16] * tokens;
  f.expert_f32 = w.expert_flops_by_kind[kF32] * tokens;
  f.attention = attention_flops;
  return f;
}

// A GPU device's prompt multiplies by storage and path (local_gpu_matmul.cpp).
LocalGpuMatmulWork local_gpu_matmul_work(const DeviceWork& w, double tokens, double attention_flops) {
  LocalGpuMatmulWork g;
  g.quantized = w.flops_per_token_by_kind[kQuantized] * tokens;
  g.f16 = w.flops_per_token_by_kind[kF16] * tokens;
  g.bf16 = w.flops_per_token_by_kind[kBf16] * tokens;
  g.f32 = w.flops_per_token_by_kind[kF32] * tokens;
  g.expert_quantized = w.expert_flops_by_kind[kQuantized] * tokens;
  g.expert_f16 = w.expert_flops_by_kind[kF16] * tokens;
  g.expert_bf16 = w.expert_flops_by_kind[kBf16] * tokens;
  g.expert_f32 = w.expert_flops_by_kind[kF32] * tokens;
  g.attention = attention_flops;
  g.quantized_bytes = w.quantized_bytes_resident;
  g.quantized_parameters = w.quantized_parameters_resident;
  g.expert_matrix_ops = w.expert_matrix_ops;
  g.quantized_matrices = w.quantized_matrices;
  return g;
}

}  // namespace fitcheck
