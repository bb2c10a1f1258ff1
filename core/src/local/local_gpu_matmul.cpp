// SPDX-License-Identifier: MIT
// A GPU's prompt multiplies as llama.cpp's backends run them (docs/local.md, "Prompt processing on CUDA"):
// on CUDA each storage kind on its matrix-multiply path at that path's efficiency, routed experts in
// MMQ's whole tiles or, in older builds, in the MUL_MAT_ID host loop; on the other backends quantized
// weights at one share of the fp16 peak, float weights and attention at another.
#include <algorithm>
#include <array>

#include "fitcheck/latency.hpp"
#include "local/local_rules.hpp"

namespace fitcheck {
namespace {

double gpu_matmul_peak(const Accelerator& gpu) {
  for (ComputeDtype dtype : {ComputeDtype::fp16, ComputeDtype::bf16, ComputeDtype::fp32}) {
    const double peak = peak_flops_per_second(gpu, dtype);
    if (peak > 0) return peak;
  }
  return 0;
}

// Quantized weights, then f16, bf16 and f32 ones.
struct ByStorage {
  std::array<double, 4> all;
  std::array<double, 4> experts;
};
ByStorage by_storage(const LocalGpuMatmulWork& w) {
  return {{w.quantized, w.f16, w.bf16, w.f32}, {w.expert_quantized, w.expert_f16, w.expert_bf16, w.expert_f32}};
}

// The non-CUDA backends: quantized weights at prompt_compute of the dense peak (Vulkan's coopmat2 on
// NVIDIA: of the fp16-accumulate rate, local_kernels.cpp), float weights and attention at
// prompt_compute_float; Metal's and Vulkan coopmat2's expert tiles add their waste.
LocalGpuMatmulTime other_backend_seconds(const LocalGpuMatmulWork& w, const Accelerator& gpu,
                                         const LocalRequest& request, const LocalExpertTiles& tiles) {
  LocalGpuMatmulTime t;
  const double peak = gpu_matmul_peak(gpu);
  if (peak <= 0) return t;
  const LocalBackendRates rates = local_backend_rates(request.backend);
  const double weight_peak = local_vulkan_coopmat2(request.backend, gpu) ? fp16_accumulate_flops_per_second(gpu) : peak;
  double quantized = w.quantized;
  double floats = w.f16 + w.bf16 + w.f32;
  if (tiles.kernel == LocalExpertKernel::metal_mul_mm_id ||
      tiles.kernel == LocalExpertKernel::vulkan_coopmat2_mul_mm_id) {
    const double expert_floats = w.expert_f16 + w.expert_bf16 + w.expert_f32;
    quantized += w.expert_quantized * (tiles.work_factor - 1.0);
    floats += expert_floats * (tiles.work_factor - 1.0);
    t.expert_tiles_timed = w.expert_quantized + expert_floats > 0;
  }
  t.seconds = quantized / (weight_peak * rates.prompt_compute) + floats / (weight_peak * rates.prompt_compute_float) +
              w.attention / (peak * rates.prompt_compute_float);
  return t;
}

}  // namespace

LocalGpuMatmulTime local_gpu_matmul_seconds(const LocalGpuMatmulWork& w, const Accelerator& gpu,
                                            const LocalRequest& request, const LocalModel& model,
                                            const LocalExpertTiles& tiles, double ubatches,
                                            double stream_bytes_per_second) {
  if (request.backend != LocalBackend::cuda) return other_backend_seconds(w, gpu, request, tiles);
  LocalGpuMatmulTime t;
  // CUDA's path for each storage kind: quantized weights on MMQ where the GPU has it (else dequantized
  // for cuBLAS in f16), float weights on cuBLAS in their own type.
  const LocalMatmulPath quantized_path = request.cuda_mmq && local_matmul_peak_flops(gpu, LocalMatmulPath::mmq) > 0
                                             ? LocalMatmulPath::mmq
                                             : LocalMatmulPath::cublas_f16;
  const std::array<LocalMatmulPath, 4> paths = {quantized_path, LocalMatmulPath::cublas_f16,
                                                LocalMatmulPath::cublas_bf16, LocalMatmulPath::cublas_f32};
  const auto rate_of = [&](LocalMatmulPath path) {
    return local_matmul_peak_flops(gpu, path) * local_matmul_path_efficiency(path);
  };
  const auto seconds_on = [&](double flops, LocalMatmulPath path) {
    const double rate = rate_of(path);
    return flops > 0 && rate > 0 ? flops / rate : 0.0;
  };
  const ByStorage flops = by_storage(w);
  double quantized = w.quantized;
  if (quantized_path == LocalMatmulPath::mmq && tiles.kernel == LocalExpertKernel::cuda_mmq) {
    quantized += w.expert_quantized * (tiles.work_factor - 1.0);
    t.expert_tiles_timed = w.expert_quantized > 0;
  }
  double quantized_seconds = seconds_on(quantized, paths[0]);
  if (quantized_path == LocalMatmulPath::mmq) {
    // Each multiply takes the longer of its compute and its memory traffic: its weights and activations once,
    // or every tile where its working set overflows the L2 (local_kernels.cpp local_mmq_traffic).
    const LocalMmqTraffic traffic = local_mmq_traffic(w.quantized_matrices, gpu, request, model, tiles,
                                                      rate_of(LocalMatmulPath::mmq), stream_bytes_per_second);
    t.mmq_traffic_unknown = !traffic.known && !w.quantized_matrices.empty();
    quantized_seconds += traffic.excess_seconds * ubatches;
    t.mmq_traffic_bound = traffic.tile_excess_seconds > 0;
  }
  t.seconds += quantized_seconds;
  for (std::size_t k = 1; k < paths.size(); ++k) t.seconds += seconds_on(flops.all[k], paths[k]);
  // Attention: the scores KQ accumulate in f32, the weighted values in f16 (flash attention,
  // fattn-mma-f16.cuh mma_tile_sizes: T_C_KQ float, T_C_VKQ half2; without it KQ is a cuBLAS GEMM at
  // GGML_PREC_F32 and KQV one at the default f16), half the FLOPs each. f32 accumulation runs at the
  // fp16 column's rate, which GeForce cards halve (docs/hardware.md, "GeForce accumulate").
  t.seconds += seconds_on(w.attention / 2, LocalMatmulPath::cublas_f16);
  t.seconds += seconds_on(w.attention / 2, LocalMatmulPath::cublas_f16_f32acc);
  // Without MMQ every ubatch dequantizes the quantized weights to f16 first: their bytes read, 2 bytes a
  // weight written, at the GPU's streaming share of bandwidth.
  if (quantized_path != LocalMatmulPath::mmq && w.quantized > 0)
    t.seconds += (w.quantized_bytes + 2.0 * w.quantized_parameters) * ubatches / stream_bytes_per_second;

  // The MUL_MAT_ID host loop of older builds (local_kernels.cpp): per ubatch and MUL_MAT_ID, the ids'
  // copy and synchronization, then the launches for each expert with tokens, against the experts' own
  // multiplies (no whole tiles there), which run as they are launched.
  const LocalCudaLaunches launches = local_cuda_launches(model, request, gpu);
  if (launches.expert_host_loop_prompt && w.expert_matrix_ops > 0) {
    const double active_experts = detail::expected_distinct_experts(
        static_cast<double>(model.num_experts), static_cast<double>(model.experts_per_token), tiles.batch_tokens);
    const double launched = ubatches * static_cast<double>(w.expert_matrix_ops) *
                            (static_cast<double>(kCudaExpertLoopSyncLaunches) +
                             active_experts * static_cast<double>(kCudaExpertLoopPromptLaunches));
    double experts = 0;
    for (std::size_t k = 0; k < paths.size(); ++k) experts += seconds_on(flops.experts[k], paths[k]);
    t.seconds += std::max(0.0, launched * launches.seconds_per_launch - experts);
  }
  return t;
}

}  // namespace fitcheck
