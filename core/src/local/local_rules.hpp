// SPDX-License-Identifier: MIT
// The rules the files of core/src/local/ share.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <span>

#include "fitcheck/local.hpp"

namespace fitcheck {

// Whether the llama.cpp build that runs includes release `release` (bNNNN); absent: a current build, which does.
inline bool local_build_includes(std::optional<std::int64_t> build, std::int64_t release) {
  return build.value_or(release) >= release;
}

// The share of a PCIe link's rate a host-device copy reaches (pinned memory).
constexpr double kLocalPcieEfficiency = 0.8;

// Bytes of an f32 value (GGML_TYPE_F32): the hidden state, recurrent states and the graph's f32 intermediates.
constexpr std::int64_t kLocalF32Bytes = 4;
// Bytes of an f16 value (GGML_TYPE_F16): the flash-attention mask.
constexpr std::int64_t kLocalF16Bytes = 2;

// The build from which llama.cpp builds the attention mask as an f16 input when flash attention is on
// (ggml-org/llama.cpp#23764, "use f16 mask for FA to save VRAM", b9410); before it an f32 input cast to f16.
constexpr std::int64_t kLocalF16MaskInputBuild = 9410;

// The op offload (ggml-backend.cpp ggml_backend_sched_backend_id_from_cur, cause "1.off"): an op whose weight
// sits in host memory runs on the highest-priority GPU when that backend's offload_op accepts its batch
// (ggml-cuda.cu ggml_backend_cuda_device_offload_op, ggml-vulkan.cpp likewise: at least 32 tokens, the default
// GGML_OP_OFFLOAD_MIN_BATCH); the weight is copied to the GPU for the op. Metal shares memory with the CPU.
constexpr std::int64_t kLocalOpOffloadMinBatch = 32;
inline bool local_op_offload(const LocalRequest& request, std::int64_t batch_tokens) {
  return !request.gpus.empty() && request.backend != LocalBackend::cpu && request.backend != LocalBackend::metal &&
         batch_tokens >= kLocalOpOffloadMinBatch;
}

// The index of a placement's device in per-device lists (the GPUs in order, then the CPU): `device` as
// LocalPlacement::layer_device and output_device give it, -1 for the CPU.
inline std::size_t local_device_index(const LocalPlacement& p, int device) {
  return device < 0 ? p.devices.size() - 1 : static_cast<std::size_t>(device);
}

std::int64_t local_gpu_reserve_bytes(LocalBackend backend);
std::int64_t local_kv_size(const LocalRequest& request);
std::int64_t local_layer_cells(const LocalLayer& layer, const LocalRequest& request, std::int64_t kv_size);
std::int64_t local_layer_kv_bytes(const LocalLayer& layer, LocalKvType type, std::int64_t cells);
// One cell of a recurrent layer's state (r and s, f32); 0 for a layer without one.
std::int64_t local_layer_state_bytes(const LocalLayer& layer);
// The request's mmproj type for this model: as given (OptionError naming mmproj when the model has no
// encoders), else f16 for a model with encoders and off without.
LocalMmprojType local_resolved_mmproj(const LocalModel& model, const LocalRequest& request);
// Without flash attention (local_attention_scores.cpp): the scores one head of a layer computes over a
// prompt of `tokens` after `depth` cached ones in ubatches of `ubatch`, each attending to at most
// `layer_cells` cached tokens; the bytes `scores` move through memory; the rule as the report states it.
double materialized_scores_per_head(double tokens, double ubatch, double layer_cells, double depth);
// With flash attention: the query/key pairs a causal prompt attends (masked tiles skipped).
double prompt_attention_pairs(double tokens, double depth, double layer_cells);
double materialized_score_bytes(double scores);
std::string materialized_scores_rule(double prompt_time_share);

// llama.cpp's pipeline over several GPUs (local_pipeline.cpp): the prompt's time when the ubatches of
// a batch overlap, given each device's time for the whole prompt; inactive when they do not.
struct LocalPromptPipeline {
  bool active = false;
  double seconds = 0;
  std::string rule;
};
LocalPromptPipeline local_prompt_pipeline(const LocalRequest& request, const LocalPlacement& placement,
                                          const std::vector<double>& device_seconds, double tokens, double ubatches);

// Prompt matrix multiplies on the CPU as ggml-cpu runs them (local_cpu_matmul.cpp): the FLOPs of one
// device's share of a prompt, by what decides the kernel (the weights' ggml type; routed experts go
// through MUL_MAT_ID).
struct LocalCpuMatmulFlops {
  std::array<double, kGgufTypeCount> dense_quantized{};  // MUL_MAT over quantized weights of each known type
  double dense_other_quantized = 0;                      // MUL_MAT, types fitcheck has no GgufType for
  double dense_f16 = 0, dense_bf16 = 0, dense_f32 = 0;   // MUL_MAT over float weights
  double expert_quantized = 0;                           // MUL_MAT_ID
  double expert_f16 = 0, expert_bf16 = 0, expert_f32 = 0;
  double attention = 0;  // QK^T and PV (f16 K/V, f32 accumulation)
};
struct LocalCpuMatmulTime {
  double seconds = 0;
  int threads = 0;
  std::string rule;  // the kernels, rates and threads, as the report states them
};
LocalCpuMatmulTime local_cpu_matmul_seconds(const LocalCpuMatmulFlops& flops, const CpuDevice& cpu,
                                            const LocalRequest& request);
// The report's statement where a CPU's multiplies, not its reads, set a generated token's time.
std::string local_cpu_generation_compute_rule(double compute_seconds, double read_seconds, int threads);
// llama.cpp's default thread count on this CPU (common_cpu_get_num_math).
int local_cpu_default_threads(const CpuDevice& cpu);

// Vulkan on an NVIDIA GPU: llama.cpp's Vulkan backend multiplies through NV_cooperative_matrix2 there
// (local_kernels.cpp), with f16 accumulators and its own expert tiles.
bool local_vulkan_coopmat2(LocalBackend backend, const Accelerator& gpu);

// Routed experts multiplied in whole tiles over a prompt batch (local_kernels.cpp): the kernel, its
// tile, and the expected work done over the work needed (1 where no tiled kernel runs them).
enum class LocalExpertKernel : std::uint8_t { none, cuda_mmq, metal_mul_mm_id, vulkan_coopmat2_mul_mm_id };
struct LocalExpertTiles {
  LocalExpertKernel kernel = LocalExpertKernel::none;
  double batch_tokens = 0;
  double tile_tokens = 0;
  double work_factor = 1.0;
};
LocalExpertTiles local_expert_tiles(const LocalModel& model, const LocalRequest& request, double batch_tokens);
// CUDA's MMQ over `matrices` on `gpu` for one ubatch of `tiles.batch_tokens` (local_kernels.cpp): each matrix
// reads its weights and q8_1 activations once while its stream-K working set fits the L2, else every tile
// from memory, and a multiply takes the longer of its compute (at `mmq_flops_per_second`) and its traffic (at
// `stream_bytes_per_second`). `excess_seconds`: what the traffic-bound multiplies add over their compute, of it
// `tile_excess_seconds` the multiplies whose tiles come from memory; `known`: the GPU's SMs and L2 are in the
// catalog (else nothing is computed).
struct LocalMmqTraffic {
  double excess_seconds = 0;
  double tile_excess_seconds = 0;
  bool known = false;
};
LocalMmqTraffic local_mmq_traffic(std::span<const LocalMatrix> matrices, const Accelerator& gpu,
                                  const LocalRequest& request, const LocalModel& model, const LocalExpertTiles& tiles,
                                  double mmq_flops_per_second, double stream_bytes_per_second);
std::string local_mmq_traffic_rule(const LocalRequest& request);
std::string local_expert_tiles_rule(const LocalModel& model, const LocalExpertTiles& tiles);
// The graph ops Metal's encoder fuses into other ops' kernels for the request's build (0 elsewhere), of
// a layer with these norms and expert ADDs; the rule as the report states it ("" when nothing to say).
std::int64_t local_metal_fused_ops(const LocalRequest& request, std::int64_t rms_norms, std::int64_t layer_norms,
                                   std::int64_t expert_sum_adds);
std::string local_metal_fusion_rule(const LocalRequest& request, std::int64_t graph_ops, std::int64_t fused_ops);
// The routed experts' combine in a prompt (local_kernels.cpp): the bytes build_moe_ffn moves through memory
// a token and MoE layer beyond a dense FFN's one output, for the model's hidden size and experts a token,
// with the ADDs summing them fused in groups of at most `adds_per_kernel` (the backend's, for the
// request's build; 1 where nothing fuses); the rule as the report states it.
struct LocalExpertCombine {
  double bytes_per_token = 0;
  std::int64_t adds_per_kernel = 1;
};
LocalExpertCombine local_expert_combine(const LocalModel& model, const LocalRequest& request);
std::string local_expert_combine_rule(const LocalModel& model, const LocalExpertCombine& combine,
                                      double prompt_time_share);
// Of a layer's kernels, those Metal's concurrent encoder issues with no memory barrier before them for the
// request's build (from b6460, ggml-org/llama.cpp#15929; 0 on other backends and older builds), so one
// barrier group of kernels pays one kernel's fixed time; the rule as the report states it ("" when none).
std::int64_t local_metal_concurrent_kernels(const LocalRequest& request, const LocalLayer& layer);
std::string local_metal_concurrency_rule(std::int64_t kernels, std::int64_t concurrent_kernels);

// The attention core's ops at one token: one FLASH_ATTN_EXT, or MUL_MAT KQ, SOFT_MAX, MUL_MAT KQV and
// CONT without flash attention.
constexpr std::int64_t kLocalAttentionOpsFlash = 1;
constexpr std::int64_t kLocalAttentionOps = 4;

// A backend's speed factors (local_rates.cpp): a token's time is its bytes at generation_bandwidth of
// the peak plus seconds_per_op for each op of the graph; the prompt's multiplies run at prompt_compute
// of the dense fp16 peak (CUDA: per matrix-multiply path, local_matmul_path_efficiency instead), float
// weights and the attention's f16 products at prompt_compute_float (higher where the kernel
// dequantizes quantized weights inside its tiles, as Metal's does).
struct LocalBackendRates {
  double generation_bandwidth;
  double seconds_per_op;
  double prompt_compute;
  double prompt_compute_float;
};
LocalBackendRates local_backend_rates(LocalBackend backend);
// A ggml-cpu graph node's time beyond its bytes on `threads` threads: its dispatch and the barrier every
// thread passes after it (local_rates.cpp).
double local_cpu_seconds_per_op(int threads);
// The report's statement of that time on `threads` threads and where it comes from.
std::string local_cpu_seconds_per_op_rule(int threads);
// The time a blocking handoff between two backends adds to a token (local_rates.cpp): the scheduler
// synchronizes the device it leaves and copies the split's inputs before it starts the next split.
double local_split_handoff_seconds();
// The report's statement of the handoffs a token (and a ubatch) makes and what they cost.
std::string local_split_handoffs_rule(std::int64_t token_handoffs, std::int64_t ubatch_handoffs);
// The op offload's copies of weights kept in RAM (local_rates.cpp): from a mapped file (pageable memory)
// at this share of the pinned rate; the routed experts' share a ubatch of `tokens` uses and so copies
// (from b6220, ggml-org/llama.cpp#15346; all of them before); the report's statement of both.
double local_pageable_copy_share();
// What the builds that read the model file with direct I/O by default do (local_maps_model_file_by_default).
std::string local_direct_io_default_rule();
double local_used_expert_share(const LocalModel& model, double tokens, std::optional<std::int64_t> build);
std::string local_host_copy_rule(const LocalRequest& request, double link_bytes_per_second, double used_expert_share);
// CUDA generation on NVIDIA's HBM parts (A100, H100...): the share of peak bandwidth llama.cpp's
// single-token mat-vec kernels read (docs/local.md, "Efficiencies": the mean over eight XiongjieDai rows
// of A100 PCIe / SXM and H100 PCIe, F16 and 70B, two builds).
constexpr double kLocalCudaHbmGenerationBandwidth = 0.53;
// The share of a CUDA matrix-multiply path's peak (local_matmul_peak_flops) llama.cpp reaches over a
// ubatch of 512.
double local_matmul_path_efficiency(LocalMatmulPath path);
// Where the backend's speed factors come from, as the report states it (local_rates.cpp, beside them).
std::string local_backend_rates_rule(LocalBackend backend);

// ggml-cuda's launches by llama.cpp build (local_kernels.cpp): whether a one-token graph replays as a CUDA
// graph on `gpu`, and whether MUL_MAT_ID copies the expert ids to the host and launches one multiply per
// expert (for a batch, per expert with tokens; for one token, per expert used).
struct LocalCudaLaunches {
  bool graphs = true;                        // generation replays a CUDA graph
  bool expert_host_loop_prompt = false;      // before b5237 (#13199)
  bool expert_host_loop_generation = false;  // before b5170 (#13014)
  double seconds_per_launch = 0;             // a kernel launched from the host (local_cuda_ungraphed_seconds_per_op)
};
LocalCudaLaunches local_cuda_launches(const LocalModel& model, const LocalRequest& request, const Accelerator& gpu);
// The host-launched kernels of one MUL_MAT_ID in the host loop: per expert multiplied, and the device-to-host
// copy of the ids with the stream synchronization that follows it, counted as launches.
constexpr std::int64_t kCudaExpertLoopPromptLaunches = 5;
constexpr std::int64_t kCudaExpertLoopGenerationLaunches = 2;
constexpr std::int64_t kCudaExpertLoopSyncLaunches = 2;
// The report's statement of the rules that apply ("" when none does).
std::string local_cuda_launches_rule(const LocalModel& model, const LocalRequest& request,
                                     const LocalCudaLaunches& launches);
// The time of a CUDA op launched from the host, not replayed in a graph (local_rates.cpp).
double local_cuda_ungraphed_seconds_per_op();

// A GPU's prompt multiplies over the whole prompt (local_gpu_matmul.cpp): every weight multiply by how the
// weight is stored, the routed experts' (MUL_MAT_ID) among them, the attention's products, and the quantized
// weights it holds (read and dequantized every ubatch where MMQ does not run them).
struct LocalGpuMatmulWork {
  double quantized = 0, f16 = 0, bf16 = 0, f32 = 0;                              // FLOPs
  double expert_quantized = 0, expert_f16 = 0, expert_bf16 = 0, expert_f32 = 0;  // of those, MUL_MAT_ID
  double attention = 0;                                                          // QK^T and PV
  double quantized_bytes = 0;
  double quantized_parameters = 0;
  std::int64_t expert_matrix_ops = 0;               // MUL_MAT_IDs a token runs over the experts it holds
  std::span<const LocalMatrix> quantized_matrices;  // the quantized matrices it multiplies (MMQ's tile traffic)
};
struct LocalGpuMatmulTime {
  double seconds = 0;
  bool expert_tiles_timed = false;   // the expert tiles' waste was counted (the report states the rule)
  bool mmq_traffic_bound = false;    // MMQ's tiles from memory outlast its compute (local_mmq_traffic)
  bool mmq_traffic_unknown = false;  // MMQ ran on a GPU whose SMs and L2 are not in the catalog
};
// `stream_bytes_per_second`: the GPU's bandwidth at the share its streaming kernels reach (dequantization).
LocalGpuMatmulTime local_gpu_matmul_seconds(const LocalGpuMatmulWork& work, const Accelerator& gpu,
                                            const LocalRequest& request, const LocalModel& model,
                                            const LocalExpertTiles& tiles, double ubatches,
                                            double stream_bytes_per_second);

// Prompt and generation tokens/s of a placement (local_speed.cpp); appends what it assumed.
LocalSpeed local_speed(const LocalModel& model, const LocalRequest& request, const LocalPlacement& placement,
                       std::vector<std::string>& assumptions);

}  // namespace fitcheck
