// SPDX-License-Identifier: MIT
// Each backend's speed factors, read off published llama-bench tables or, where none were, estimated
// (docs/local.md, "Efficiencies"), with the report's statement of where they come from; the peaks
// CUDA's matrix-multiply paths run against.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// Per backend, read off published llama-bench tables (docs/local.md, "Efficiencies"): a token's
// time is its bytes at a fraction of peak memory bandwidth plus a fixed time per op of the graph
// (kernel launch and synchronization, which is why an 8B model reads its weights at a lower fraction
// than a 70B one on the same GPU, and a MoE layer, with its routing ops, costs more than a dense one).
// The time per op is the time per layer solved from a pair of dense Llama rows, over the ops of that
// Llama layer (local_graph_ops.hpp LayerOpCount): 19 with flash attention, 22 without. Prompt processing
// on CUDA runs each weight on its matrix-multiply path (local_matmul_path) at that path's efficiency;
// the other backends run it at a fraction of the dense fp16 peak. Vulkan, ROCm and SYCL have fewer
// published tables and are rougher.
//
// The ops of a Llama layer at one token (local_graph_ops.hpp LayerOpCount): 18 besides the attention core.
constexpr double kLlamaLayerOpsFlash = 18 + kLocalAttentionOpsFlash;
constexpr double kLlamaLayerOps = 18 + kLocalAttentionOps;

// CUDA generation (docs/local.md, "Efficiencies": Llama-2-7B Q4_0 and Llama 3.3 70B Q4_K_M tg128 on an RTX
// PRO 6000 solve to these): the share of bandwidth the mat-vec kernels read, and the time per op of a graph
// replayed as a CUDA graph, no kernel launched from the CPU one by one.
constexpr double kCudaGenerationBandwidth = 0.88;
constexpr double kCudaSecondsPerOp = 30e-6 / kLlamaLayerOpsFlash;
// What an op costs more when the host launches it than when a CUDA graph replays it: the mean over three
// published tg timings of Llama-2-7B with and without graphs, each pair's time per token apart over the 707
// ops of its graph (32 layers of 22 without flash attention, and the output's 3): RTX 3090 Q4_0 116.31 /
// 128.27 t/s and RTX 4090 Q4_0 138.31 / 146.81 (ggml-org/llama.cpp#6766, JohannesGaessler, 2024-04-19),
// H100 PCIe Q4_K_M 143.35 / 163.83 (#6763, agray3): 1.13, 0.59 and 1.23 us. The host's CPU sets it, which
// is why the pairs spread.
constexpr double kCudaUngraphedExtraSecondsPerOp = (1.134e-6 + 0.592e-6 + 1.233e-6) / 3;

// CPU generation (docs/local.md, "Efficiencies"): the share of the RAM's peak the cores read, as a memory
// benchmark measures it: AIDA64's read on dual-channel DDR4-3200, about 46,000 of 51,200 MB/s (Guru3D,
// G.Skill TridentZ Royal DDR4-3200 review, "System Memory Bandwidth Performance"), as ikawrakow states
// for his Ryzen 9 7950X ("64 GB/s theoretical memory bandwidth, but 60 GB/s is the best one gets in
// practice", ikawrakow/ik_llama.cpp#232, 2025-02-24).
constexpr double kCpuRamReadShare = 0.90;
// Every node of a ggml-cpu graph ends at a barrier all threads pass (ggml-cpu.c ggml_graph_compute_thread,
// ggml_barrier), so a node costs more the more threads wait: test-barrier, 2,000 small Q4_0 mat-vec
// nodes, in the OpenMP build (GGML_OPENMP, ggml's default) on an i9-13900K ran 474 ns a node on 1 thread and
// 1,039 on 8 (slaren, ggml-org/llama.cpp#9461, 2024-09-17): 80.8 ns more for each thread. An EPYC's line is
// steeper (1,963 ns at 4 threads, 3,039 at 8, ggml's own threadpool:
// max-krasnyansky, #9598), so many-core servers may lose more than this line gives.
constexpr double kCpuNodeSecondsOneThread = 474e-9;
constexpr double kCpuNodeSecondsPerExtraThread = (1039.47e-9 - 474e-9) / 7;

// Metal, float weights: 0.60 (the quantized rows' fraction) x 1.20, the mean of F16 over Q4_K_M prompt
// speed of one model on one chip in XiongjieDai's May 2024 tables (M2 Ultra 8B 1.18 and 70B 1.24, M1 Max
// 8B 1.27, M3 Max 8B 1.11), where both run the same multiplies.
constexpr double kMetalFloatPromptCompute = 0.72;

// CUDA prompt processing: the share of each path's peak llama.cpp's kernels reach over a ubatch of
// 512 (docs/local.md, "Efficiencies": read off llama-bench tables of GeForce, workstation and
// data-center cards, one value per path for all of them).
constexpr double kMmqEfficiency = 0.26;     // MMQ of the dense int8 tensor rate
constexpr double kCublasEfficiency = 0.47;  // cuBLAS GEMM of its compute type's tensor rate

// Hopper: the dense tensor peak is reached only with wgmma (warpgroup MMA, sm_90a); ggml-cuda's
// kernels (MMQ and the flash-attention kernel, ggml/src/ggml-cuda/mma.cuh) issue the Ampere-era
// mma.sync, which does not reach it (Shah et al. 2024, FlashAttention-3, arXiv 2407.08608, section
// 2.2). The published H100 PCIe rows of both the MMQ and the f16 cuBLAS path (XiongjieDai tables,
// docs/local.md, "Efficiencies") run at half the rate the paths' efficiencies give on the dense peak:
// about the Ampere rate per SM and clock, 1,024 fp16 FMAs per SM per cycle against Hopper's 2,048.
constexpr double kHopperMmaSyncShare = 0.5;

}  // namespace

LocalBackendRates local_backend_rates(LocalBackend backend) {
  switch (backend) {
    case LocalBackend::cuda:
      return {kCudaGenerationBandwidth, kCudaSecondsPerOp, 0.0, 0.0};
    case LocalBackend::metal:
      // ggml-metal.metal kernel_mul_mm<block_q, nl, dequantize_func>: every threadgroup dequantizes its
      // weight tile into threadgroup memory before the simdgroup multiply, once for each 32-token column
      // tile of the batch (dequantize_f16 for f16 is a plain copy), so float weights run at a higher
      // share of the peak (docs/local.md, "Efficiencies": read off the F16 and the quantized rows).
      return {0.85, 200e-6 / kLlamaLayerOps, 0.60, kMetalFloatPromptCompute};
    case LocalBackend::rocm:
      return {0.80, 100e-6 / kLlamaLayerOps, 0.40, 0.40};
    case LocalBackend::vulkan:
      // Generation as CUDA's: ggml-vulkan records a graph's nodes into command buffers and submits them in
      // batches (ggml-vulkan.cpp ggml_backend_vk_graph_compute: every 100 nodes or about 200 GFLOP, so the
      // CPU records the next batch while the GPU runs this one), as a CUDA graph replays, not one CPU launch
      // per kernel. The prompt fraction stays an estimate.
      return {kCudaGenerationBandwidth, kCudaSecondsPerOp, 0.40, 0.40};
    case LocalBackend::sycl:
      return {0.70, 150e-6 / kLlamaLayerOps, 0.30, 0.30};
    case LocalBackend::cpu:
      // seconds_per_op depends on the threads: local_cpu_seconds_per_op.
      return {kCpuRamReadShare, 0.0, 0.40, 0.40};
  }
  return {0.8, 100e-6 / kLlamaLayerOps, 0.4, 0.4};
}

double local_cpu_seconds_per_op(int threads) {
  return kCpuNodeSecondsOneThread + kCpuNodeSecondsPerExtraThread * std::max(0, threads - 1);
}

std::string local_cpu_seconds_per_op_rule(int threads) {
  return "CPU layers: each graph node costs " +
         detail::three_significant_digits(local_cpu_seconds_per_op(threads) * 1e6) + " us beyond its bytes on " +
         std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
         " (its dispatch and the barrier every thread passes after it: test-barrier on an i9-13900K, " +
         detail::three_significant_digits(kCpuNodeSecondsOneThread * 1e9) + " ns on 1 thread + " +
         detail::three_significant_digits(kCpuNodeSecondsPerExtraThread * 1e9) +
         " ns a thread; docs/local.md, \"Efficiencies\")";
}

// A handoff between backends within a token: ggml_backend_sched_compute_splits synchronizes the backend a
// split leaves (ggml_backend_synchronize, cudaStreamSynchronize) and copies the next split's inputs
// with blocking copies where the backends have no asynchronous copy between them (the CPU backend has
// none: ggml-cpu.cpp; ggml_backend_cuda_cpy_tensor_async copies CUDA to CUDA only), so the device the
// token enters idles while the host waits, copies and launches. ggml-org/llama.cpp#17795 made the one
// such handoff of a fully offloaded model (the CPU's token embedding into CUDA) asynchronous: gpt-oss-20b
// tg128 went from 295.02 to 317.25 t/s (RTX PRO 6000 Max-Q), 1/295.02 - 1/317.25 = 0.2375 ms a token.
// That handoff is in every row the per-op times were read off, so only the crossings after a token's
// first are counted. Reverted twice (#20463, #25138): current builds still block.
constexpr double kSplitHandoffSeconds = 1.0 / 295.02 - 1.0 / 317.25;

double local_split_handoff_seconds() { return kSplitHandoffSeconds; }

std::string local_split_handoffs_rule(std::int64_t token_handoffs, std::int64_t ubatch_handoffs) {
  std::string rule =
      "handoffs between backends: a token crosses " + std::to_string(token_handoffs + 1) +
      " device boundaries (the first, the token embedding into the first GPU, is in the per-op "
      "times); each later one blocks the host while it synchronizes the device it leaves and "
      "copies the next split's inputs: " +
      detail::three_significant_digits(kSplitHandoffSeconds * 1e3) + " ms each (ggml-org/llama.cpp" +
      "#17795: gpt-oss-20b tg128 295.02 -> 317.25 t/s when one was made asynchronous), " +
      detail::three_significant_digits(static_cast<double>(token_handoffs) * kSplitHandoffSeconds * 1e3) +
      " ms a token";
  if (ubatch_handoffs != token_handoffs)
    rule += ", " + std::to_string(ubatch_handoffs) +
            " a prompt ubatch (the op offload runs the CPU's multiplies on the GPU)";
  return rule;
}

// Weights in RAM that the op offload copies to the GPU each ubatch (ggml_backend_sched_compute_splits) sit
// in pageable memory when llama.cpp maps the file, its default: llama-model-loader.cpp puts them in the GPU
// backend's pinned host buffer (CUDA_Host) only with --no-mmap ("avoid using a host buffer when using
// mmap", since b3990), and a copy from pageable memory is staged by the driver through a pinned buffer.
// ggml-org/llama.cpp#20978 measured both on one machine, gpt-oss-20b with its experts in RAM at n_ubatch
// 128, where the copies are most of the time: pp2048 543.68 t/s pinned, 298.28 t/s mapped. #28223 (2x
// RTX 3090) saw 166 against 330 t/s the same way.
constexpr double kPageableCopyShare = 298.28 / 543.68;
// ggml-org/llama.cpp#15346 (b6220, 2025-08-20): the scheduler copies only the experts a ubatch's tokens
// were routed to (ggml-backend.cpp, "copying only the experts that are used").
constexpr std::int64_t kCopyUsedExpertsBuild = 6220;

double local_pageable_copy_share() { return kPageableCopyShare; }

// ggml-org/llama.cpp#18166 (b7668, 2026-01-08) made direct I/O the default way to read the model file
// (use_direct_io true in llama_model_default_params and common_params), and the loader turns mapping off
// wherever the file opens with it (src/llama-model-loader.cpp, "direct I/O is enabled, disabling mmap": Linux
// with O_DIRECT, Windows; macOS has none); #19109 (b7853, 2026-01-28) turned direct I/O off by default again.
constexpr std::int64_t kDirectIoDefaultBuild = 7668;
constexpr std::int64_t kDirectIoDefaultEndBuild = 7853;

bool local_maps_model_file_by_default(std::optional<std::int64_t> llama_cpp_build) {
  return !local_build_includes(llama_cpp_build, kDirectIoDefaultBuild) ||
         local_build_includes(llama_cpp_build, kDirectIoDefaultEndBuild);
}

std::string local_direct_io_default_rule() {
  return "llama.cpp b" + std::to_string(kDirectIoDefaultBuild) + "-b" + std::to_string(kDirectIoDefaultEndBuild - 1) +
         " reads the model file with direct I/O by default where the file system allows it (Linux, Windows; "
         "ggml-org/llama.cpp#18166, until #19109), which maps nothing: weights kept in RAM sit in the GPU backend's "
         "pinned host buffer, as with --no-mmap (--mmap on maps the file); llama-bench read it unmapped from b" +
         std::to_string(kDirectIoDefaultBuild) + " to b8246 (-mmp 0 from #18841 until #20211)";
}

double local_used_expert_share(const LocalModel& model, double tokens, std::optional<std::int64_t> build) {
  if (!local_build_includes(build, kCopyUsedExpertsBuild) || model.num_experts <= 0 || model.experts_per_token <= 0)
    return 1.0;
  // Balanced routing: an expert is left out of a token's experts_per_token picks with probability
  // 1 - k / E, so of all `tokens` with that probability to that power.
  const double k_over_e = static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts);
  return 1.0 - std::pow(1.0 - k_over_e, tokens);
}

std::string local_host_copy_rule(const LocalRequest& request, double link_bytes_per_second, double used_expert_share) {
  std::string rule =
      "prompt: weights in RAM are copied to the GPU for each ubatch (llama.cpp's op offload for batches "
      "of 32 or more) at " +
      detail::three_significant_digits(kLocalPcieEfficiency) + " of the link's " +
      detail::as_given(link_bytes_per_second / 1e9) + " GB/s";
  if (request.mmap)
    rule += " x " + detail::three_significant_digits(kPageableCopyShare) +
            " from the mapped file's pageable memory (llama.cpp's default; --no-mmap pins them: "
            "ggml-org/llama.cpp#20978 measured 298.28 against 543.68 t/s)";
  else
    rule += " from the pinned host buffer a file read without mapping puts them in (--no-mmap)";
  // Said where a ubatch leaves at least half a percent of them behind.
  if (used_expert_share < 0.995)
    rule += "; of the routed experts, only those a ubatch uses (" +
            detail::three_significant_digits(100 * used_expert_share) + "% under balanced routing, #15346)";
  return rule;
}

double local_cuda_ungraphed_seconds_per_op() { return kCudaSecondsPerOp + kCudaUngraphedExtraSecondsPerOp; }

double local_matmul_path_efficiency(LocalMatmulPath path) {
  return path == LocalMatmulPath::mmq ? kMmqEfficiency : kCublasEfficiency;
}

double local_matmul_peak_flops(const Accelerator& gpu, LocalMatmulPath path) {
  const double mma_sync_share = gpu_generation(gpu) == GpuGeneration::hopper ? kHopperMmaSyncShare : 1.0;
  switch (path) {
    case LocalMatmulPath::mmq:
      // mmq.cu: int8 mma (mma.sync ... s32.s8.s8.s32) on every NVIDIA GPU with int8 tensor cores; a
      // user-defined GPU run on CUDA is taken at its word (its int8 rate, if given).
      return std::string_view(gpu.vendor) == "NVIDIA" || std::string_view(gpu.id) == kCustomAcceleratorId
                 ? peak_flops_per_second(gpu, ComputeDtype::int8) * mma_sync_share
                 : 0.0;
    case LocalMatmulPath::cublas_f16:
      return fp16_accumulate_flops_per_second(gpu) * mma_sync_share;
    case LocalMatmulPath::cublas_bf16:
      return peak_flops_per_second(gpu, ComputeDtype::bf16);
    case LocalMatmulPath::cublas_f32:
      return peak_flops_per_second(gpu, ComputeDtype::fp32);
    case LocalMatmulPath::cublas_f16_f32acc:
      return peak_flops_per_second(gpu, ComputeDtype::fp16) * mma_sync_share;
  }
  return 0.0;
}

std::string local_backend_rates_rule(LocalBackend backend) {
  const std::string name = local_backend_name(backend);
  switch (backend) {
    case LocalBackend::cuda:
    case LocalBackend::metal:
      return "speed: achieved bandwidth and compute fractions for " + name +
             " read off published llama-bench tables (docs/local.md, \"Efficiencies\")";
    case LocalBackend::cpu:
      return "speed: RAM read at a memory benchmark's share of its peak and each graph node's barrier by thread "
             "count (test-barrier); prompt compute fractions read off published llama-bench tables (docs/local.md, "
             "\"Efficiencies\")";
    case LocalBackend::vulkan:
      return "speed: generation at CUDA's bandwidth share and time per op (ggml-vulkan submits recorded command "
             "buffers in batches, as a CUDA graph replays); the prompt's compute fraction is an estimate placed below "
             "CUDA's, not read off published tables, and on an NVIDIA GPU it applies to the fp16-accumulate rate "
             "(coopmat2); against published llama-bench runs the Radeon 8060S and the RTX 2080 Ti prompt slower than "
             "it gives (docs/validation.md)";
    case LocalBackend::rocm:
    case LocalBackend::sycl:
      break;
  }
  // docs/validation.md, "Vulkan and ROCm rows": measured after the factors were set, not used to set them.
  return "speed: bandwidth and compute fractions for " + name +
         " are estimates placed below CUDA's, not read off published tables; against published llama-bench runs the "
         "Radeon 8060S prompts slower than they give (docs/validation.md)";
}

}  // namespace fitcheck
