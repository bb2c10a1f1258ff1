// SPDX-License-Identifier: MIT
// What llama.cpp's kernels do beyond a model's FLOPs, bytes and graph ops: routed experts multiplied
// in whole tiles (CUDA's MMQ, Metal's kernel_mul_mm_id, Vulkan's coopmat2 mul_mm_id), Vulkan's coopmat2
// path on NVIDIA GPUs, the ops Metal's encoder fuses, by build (docs/local.md, "Efficiencies"), and MMQ's
// memory traffic where its working set overflows the L2 (docs/local.md, "MMQ's tile traffic").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fitcheck/latency.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// Routed experts multiplied in whole tiles of `tile` tokens: each expert runs ceil(n / tile) tiles for
// the n tokens routed to it. With balanced random routing an expert's n is Binomial(batch, p), p =
// experts_per_token / num_experts, so the expected work done over the work needed is
// E[ceil(n / tile)] x tile / (batch x p); near a tile's edge the spread matters (a mean of exactly one
// tile still gives 1.46 tiles an expert at a batch of 512).
double expert_tile_factor(double batch, double experts_per_token, double num_experts, double tile) {
  if (batch < 1 || experts_per_token <= 0 || num_experts <= 0 || tile <= 0) return 1.0;
  const double p = std::min(1.0, experts_per_token / num_experts);
  if (p >= 1.0) return std::ceil(batch / tile) * tile / batch;
  // The Binomial weights by their ratio from k = 0 (unnormalized, rescaled before they overflow), so
  // only exact IEEE operations run and the native and WebAssembly builds agree to the bit.
  const double odds = p / (1.0 - p);
  double weight = 1.0, total = 1.0, tiles = 0.0;
  for (double k = 0; k < batch; ++k) {
    weight *= (batch - k) / (k + 1.0) * odds;
    total += weight;
    tiles += weight * std::ceil((k + 1.0) / tile);
    if (weight > 1e200) {
      weight *= 1e-200;
      total *= 1e-200;
      tiles *= 1e-200;
    }
    if (k > batch * p && weight < total * 1e-17) break;  // the tail no longer changes the sums
  }
  return std::max(1.0, tiles / total * tile / (batch * p));
}

// MMQ over routed experts (mmq.cu, ggml_cuda_mul_mat_q with ids): the column tile mmq_x is chosen
// for the whole batch (ncols_max = the ubatch's tokens; mmq.cuh mul_mat_q_case: the first mmq_x, in
// steps of 8, 16 from 48 on, up to 128 on Turing and later, that needs the fewest tiles), but each
// expert multiplies only the tokens routed to it, in whole tiles.
double mmq_column_tile(double ubatch_tokens) {
  constexpr double kMmqXMax = 128;
  const double tiles = std::ceil(ubatch_tokens / kMmqXMax);
  const double width = std::ceil(ubatch_tokens / tiles);
  const double granularity = width >= 48 ? 16 : 8;
  return std::min(kMmqXMax, std::ceil(width / granularity) * granularity);
}

// Metal's routed-expert multiply over a batch of at least 32 tokens (ggml-metal-ops.cpp
// ggml_metal_op_mul_mat_id: the matrix kernel from ne21_mm_id_min = 32 tokens on; kernel_mul_mm_id in
// mul_mm.metal): one threadgroup per expert for each 64-row by 32-token tile, each running its
// simdgroup multiply over the whole tile however few tokens the expert got (it returns only when the
// tile starts past them).
constexpr double kMetalExpertTokenTile = 32;
constexpr std::int64_t kMetalExpertMatrixMinTokens = 32;

// Vulkan's routed-expert multiply with NV_cooperative_matrix2 (ggml-vulkan.cpp: ggml_vk_mul_mat_id takes
// the vector kernel up to 8 tokens (ggml_vk_use_mul_mat_vec_id), else ggml_vk_guess_matmul_id_pipeline
// picks by the batch's tokens n: the large shader when n exceeds the medium one's 64-token tile, whose
// tiles are 128 rows by 128 tokens (l_mmqid_wg_denoms), else 64-token tiles). Each workgroup serves one
// expert and multiplies its whole tile however few of the expert's tokens fall in it.
constexpr std::int64_t kVulkanExpertMatrixMinTokens = 9;
constexpr double kVulkanExpertTokenTileLarge = 128;
constexpr double kVulkanExpertTokenTileMedium = 64;

// Metal's op fusion (ggml-metal-ops.cpp: each op's encoder returns how many following nodes it ran,
// n_fuse): from b5937 (ggml-org/llama.cpp#14596, merged 2025-07-18) an RMS_NORM runs its weight's MUL in
// the same kernel and up to 8 consecutive ADDs run as one, among them the n_expert_used - 1 ADDs that
// sum the routed experts' outputs (the graph orders the experts' views before the ADDs); from b6577
// (#16220, 2025-09-25) a NORM runs its weight's MUL and its bias's ADD too. The ops that no longer
// launch a kernel; 0 on other backends and older builds.
constexpr std::int64_t kMetalRmsNormFusionBuild = 5937;
// ggml-metal's concurrent encoder (ggml-org/llama.cpp#15929, f161463a, merged 2025-09-13, b6460): the graph
// is encoded with MTLDispatchTypeConcurrent and a memory barrier only before a kernel that reads an output
// of, or writes what is used by, the kernels since the last barrier (ggml-metal-ops.cpp
// ggml_metal_op_concurrency_check and _reset); before, one serial encoder ordered every kernel after the
// one before it (ggml-metal.m: MTLDispatchTypeSerial at b2796, computeCommandEncoder at b6283).
constexpr std::int64_t kMetalConcurrencyBuild = 6460;
constexpr std::int64_t kMetalNormFusionBuild = 6577;
constexpr std::int64_t kMetalMaxFusedAdds = 8;

// The routed experts' combine (src/llama-graph.cpp build_moe_ffn): the down MUL_MAT_ID writes each token's
// n_expert_used outputs, f32 of n_embd values each; a MUL scales them by the routing weights (read and
// written again, with the weights); n_expert_used - 1 ADDs sum the outputs' views, each reading two
// tensors and writing one, unless the backend fuses consecutive ADDs into one kernel that reads every
// operand once and writes the sum once: ggml-cuda (CUDA, and ROCm, its HIP build) up to 8 from b6316
// (ggml-org/llama.cpp#15631, 2025-08-29: ggml-cuda.cu, the multi-add loop over n_fuse <= 6, then n_fuse++),
// ggml-vulkan up to MAX_FUSED_ADDS from b6182 (#15252, 2025-08-16: MAX_PARAMETER_COUNT 8 - 2 = 6), 9 from
// b6258 (#15281: 12 - 3), Metal up to kMetalMaxFusedAdds from b5937; SYCL and the CPU run them one by one.
// A dense FFN writes one output a token, so the combine's bytes beyond it are what a MoE layer adds.
constexpr std::int64_t kCudaFusedAddsBuild = 6316;
constexpr std::int64_t kCudaMaxFusedAdds = 8;
constexpr std::int64_t kVulkanFusedAddsBuild = 6182;
constexpr std::int64_t kVulkanMaxFusedAddsFirst = 6;
constexpr std::int64_t kVulkanWiderFusedAddsBuild = 6258;
constexpr std::int64_t kVulkanMaxFusedAdds = 9;

// ggml-cuda's CUDA graphs (ggml-cuda.cu ggml_backend_cuda_graph_compute): from b2822 (ggml-org/llama.cpp#6766,
// 2024-05-08) a one-token graph is captured once and replayed; below compute capability 8.0 they stay off
// (disable_due_to_gpu_arch) until b10042 (#25749, Volta and Turing); and a graph holding a MUL_MAT_ID runs
// without one until b5170 (#13014).
constexpr std::int64_t kCudaGraphsBuild = 2822;
constexpr std::int64_t kCudaGraphsVoltaTuringBuild = 10042;
// MUL_MAT_ID before #13014 (b5170) and #13199 (b5237) (ggml-cuda.cu ggml_cuda_mul_mat_id at b56f079e, b4418):
// the expert ids are copied to the host behind a stream synchronization; one token then runs
// ggml_cuda_mul_mat for each expert used (quantize and mat-vec), a batch runs, for each expert that has
// tokens, a memset, a gather of its tokens (k_copy_src1_to_contiguous), ggml_cuda_mul_mat (quantize and
// MMQ) and a scatter back (k_copy_dst_from_contiguous). From b5170 one token's MUL_MAT_ID reads the ids on
// the device; from b5237 a batch's does (mmq.cu's ids helper), in MMQ's whole tiles (local_expert_tiles).
constexpr std::int64_t kCudaMulMatIdGenerationBuild = 5170;
constexpr std::int64_t kCudaMulMatIdPromptBuild = 5237;

// MMQ's tiles (mmq.cuh): output tiles of mmq_y = 128 weight rows (get_mmq_y_host, Volta and later) by
// mmq_x tokens, each block loading its weight rows and its tokens' activations, quantized to q8_1 (block_q8_1_mmq:
// 144 bytes per 128 values), a K-slice at a time. Volta and later run the stream-K decomposition: one block
// per SM, each over a contiguous run of tiles with the row tile outermost (mul_mat_q: kbc over it, then the
// expert, then jt), so at any moment every SM holds its own row tile while all of them read the activations.
// From b8931 (ggml-org/llama.cpp#22298, 9725a313, 2026-04-25) a multiply whose tiles fill at least 90% of the
// last wave runs one block per tile instead (launch_mul_mat_q: tiles_efficiency_percent), neighbouring blocks
// sharing a row tile.
constexpr double kMmqRowTile = 128;
constexpr double kQ81BytesPerValue = 144.0 / 128.0;
constexpr std::int64_t kMmqTilingBuild = 8931;
constexpr double kMmqTilingMinEfficiency = 0.90;

// The bytes of the combine beyond the dense FFN's one output, `hidden` values a token, `k` outputs, the
// ADDs in groups of at most `adds_per_kernel`.
double expert_combine_bytes(std::int64_t hidden, std::int64_t k, std::int64_t adds_per_kernel) {
  if (hidden <= 0 || k <= 0) return 0;
  const auto n = static_cast<double>(hidden);
  const auto outputs_per_token = static_cast<double>(k);
  const std::int64_t adds = k - 1;
  const auto kernels = static_cast<double>((adds + adds_per_kernel - 1) / adds_per_kernel);
  // The k outputs beyond the dense FFN's one; the MUL: the outputs and the k weights read, the outputs
  // written; the ADDs: each kernel reads its first operand and one per ADD, and writes one sum.
  const double outputs = (outputs_per_token - 1) * n;
  const double scale = 2 * outputs_per_token * n + outputs_per_token;
  const double sums = (static_cast<double>(adds) + 2 * kernels) * n;
  return static_cast<double>(kLocalF32Bytes) * (outputs + scale + sums);
}

std::int64_t max_fused_adds(const LocalRequest& request) {
  const auto includes = [&](std::int64_t release) { return local_build_includes(request.llama_cpp_build, release); };
  switch (request.backend) {
    case LocalBackend::cuda:
    case LocalBackend::rocm:
      return includes(kCudaFusedAddsBuild) ? kCudaMaxFusedAdds : 1;
    case LocalBackend::vulkan:
      return includes(kVulkanWiderFusedAddsBuild) ? kVulkanMaxFusedAdds
             : includes(kVulkanFusedAddsBuild)    ? kVulkanMaxFusedAddsFirst
                                                  : 1;
    case LocalBackend::metal:
      return includes(kMetalRmsNormFusionBuild) ? kMetalMaxFusedAdds : 1;
    case LocalBackend::sycl:
    case LocalBackend::cpu:
      return 1;
  }
  return 1;
}

}  // namespace

LocalMmqTraffic local_mmq_traffic(std::span<const LocalMatrix> matrices, const Accelerator& gpu,
                                  const LocalRequest& request, const LocalModel& model, const LocalExpertTiles& tiles,
                                  double mmq_flops_per_second, double stream_bytes_per_second) {
  LocalMmqTraffic traffic;
  const GpuOnChipCache cache = gpu_on_chip_cache(gpu);
  if (cache.streaming_multiprocessors <= 0 || cache.l2_cache_bytes <= 0 || mmq_flops_per_second <= 0 ||
      stream_bytes_per_second <= 0)
    return traffic;
  traffic.known = true;
  const double batch = tiles.batch_tokens;
  const double sms = cache.streaming_multiprocessors;
  const double column_tile = mmq_column_tile(batch);
  const double column_tiles = std::ceil(batch / column_tile);
  const bool tiling_build = local_build_includes(request.llama_cpp_build, kMmqTilingBuild);
  const double routed_share =
      model.num_experts > 0 ? static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts)
                            : 1.0;
  for (const LocalMatrix& m : matrices) {
    const double values = static_cast<double>(m.rows) * static_cast<double>(m.columns) * static_cast<double>(m.copies);
    if (values <= 0 || m.bytes <= 0) continue;
    const double weight_bytes = static_cast<double>(m.bytes);
    const double row_tiles = std::ceil(static_cast<double>(m.rows) / kMmqRowTile);
    const double copies = static_cast<double>(m.copies);
    // How the matrix is launched: routed experts in one MMQ over every expert, each expert multiplying its own
    // tokens in whole column tiles (local_expert_tiles), or, in builds with the MUL_MAT_ID host loop, one
    // multiply per expert of the tokens gathered for it; other matrices in one multiply of the whole ubatch.
    const bool expert_tiles = m.routed_experts && tiles.kernel == LocalExpertKernel::cuda_mmq;
    const bool expert_loop = m.routed_experts && !expert_tiles;
    const double launch_copies = expert_tiles ? copies : 1.0;
    const double expert_tokens = batch * routed_share;
    const double grid_column_tiles =
        expert_loop ? std::ceil(expert_tokens / mmq_column_tile(expert_tokens)) : column_tiles;
    const double weight_reads =
        expert_tiles ? tiles.work_factor * expert_tokens / tiles.tile_tokens : grid_column_tiles;
    // The q8_1 activations of every launch, a token's once for each expert it is routed to.
    const double activation_bytes = batch * (m.routed_experts ? static_cast<double>(model.experts_per_token) : 1.0) *
                                    static_cast<double>(m.columns) * kQ81BytesPerValue;
    const double launch_activation_bytes = expert_loop ? activation_bytes / copies : activation_bytes;
    const double output_tiles = row_tiles * grid_column_tiles * launch_copies;
    const double waves = std::ceil(output_tiles / sms);
    const bool stream_k = !tiling_build || output_tiles / (sms * waves) < kMmqTilingMinEfficiency;
    const double row_tile_bytes = weight_bytes / (row_tiles * copies);
    const double working_set = std::min(sms, row_tiles * launch_copies) * row_tile_bytes + launch_activation_bytes;
    // Untouched experts are not read: the expected share of them a ubatch routes tokens to.
    const double touched =
        m.routed_experts
            ? detail::expected_distinct_experts(copies, static_cast<double>(model.experts_per_token), batch) / copies
            : 1.0;
    const bool from_memory = stream_k && working_set > static_cast<double>(cache.l2_cache_bytes);
    const double bytes =
        from_memory ? weight_bytes * weight_reads * (expert_tiles ? 1.0 : touched) + activation_bytes * row_tiles
                    : weight_bytes * touched + activation_bytes;
    // Its compute as local_gpu_matmul_seconds times it: 2 x weights x tokens, the routed experts' tokens in
    // their whole tiles.
    const double tokens = m.routed_experts ? batch * static_cast<double>(model.experts_per_token) : batch;
    const double compute_seconds = 2.0 * static_cast<double>(m.rows) * static_cast<double>(m.columns) * tokens *
                                   (expert_tiles ? tiles.work_factor : 1.0) / mmq_flops_per_second;
    const double excess = std::max(0.0, bytes / stream_bytes_per_second - compute_seconds);
    traffic.excess_seconds += excess;
    if (from_memory) traffic.tile_excess_seconds += excess;
  }
  return traffic;
}

std::string local_mmq_traffic_rule(const LocalRequest& request) {
  const bool tiling_build = local_build_includes(request.llama_cpp_build, kMmqTilingBuild);
  return std::string(
             "prompt: MMQ reads every weight and activation tile from memory where a multiply's stream-K "
             "working set (one 128-row weight tile per SM and the q8_1 activations) exceeds the GPU's L2") +
         (tiling_build ? " (from b8931 only multiplies whose tiles fill less than 90% of the last wave run stream-K)"
                       : " (builds before b8931 run every multiply stream-K)") +
         "; each multiply takes the longer of its compute and its traffic at the streaming share of bandwidth "
         "(docs/local.md, \"MMQ's tile traffic\")";
}

// ggml-vulkan.cpp: a device with VK_NV_cooperative_matrix2 (and its workgroup-scope, flexible-dimension and
// tensor-addressing features) runs every matrix multiply through it. Only NVIDIA's drivers offer it; fitcheck
// takes it on every NVIDIA GPU, though a run's path is the build's and the driver's, Turing's included (an RTX
// 2060 SUPER prints KHR_coopmat, an RTX 2070 NV_coopmat2: docs/validation.md, "Vulkan's matrix path"), not
// modelled. At the default precision
// llama.cpp's weight multiplies keep, ggml_vk_get_mul_mat_mat_pipeline takes the f16-accumulator
// pipeline (pipeline_dequant_mul_mat_mat_f16[type].f16acc; ggml_vk_get_mul_mat_mat_id_pipeline always
// prefers it), so the weights run at the fp16-accumulate tensor rate, twice the fp32-accumulate one on
// GeForce cards. Flash attention asks for f32 precision (llama-graph.cpp ggml_flash_attn_ext_set_prec).
bool local_vulkan_coopmat2(LocalBackend backend, const Accelerator& gpu) {
  return backend == LocalBackend::vulkan && std::string_view(gpu.vendor) == "NVIDIA";
}

LocalExpertTiles local_expert_tiles(const LocalModel& model, const LocalRequest& request, double batch_tokens) {
  LocalExpertTiles tiles;
  tiles.batch_tokens = batch_tokens;
  if (model.num_experts <= 0) return tiles;
  if (request.backend == LocalBackend::metal && batch_tokens >= static_cast<double>(kMetalExpertMatrixMinTokens)) {
    tiles.kernel = LocalExpertKernel::metal_mul_mm_id;
    tiles.tile_tokens = kMetalExpertTokenTile;
  } else if (request.backend == LocalBackend::cuda && request.cuda_mmq &&
             local_build_includes(request.llama_cpp_build, kCudaMulMatIdPromptBuild)) {
    tiles.kernel = LocalExpertKernel::cuda_mmq;
    tiles.tile_tokens = mmq_column_tile(batch_tokens);
  } else if (!request.gpus.empty() && local_vulkan_coopmat2(request.backend, request.gpus.front()) &&
             batch_tokens >= static_cast<double>(kVulkanExpertMatrixMinTokens)) {
    tiles.kernel = LocalExpertKernel::vulkan_coopmat2_mul_mm_id;
    tiles.tile_tokens =
        batch_tokens > kVulkanExpertTokenTileMedium ? kVulkanExpertTokenTileLarge : kVulkanExpertTokenTileMedium;
  } else {
    return tiles;
  }
  tiles.work_factor = expert_tile_factor(batch_tokens, static_cast<double>(model.experts_per_token),
                                         static_cast<double>(model.num_experts), tiles.tile_tokens);
  return tiles;
}

std::string local_expert_tiles_rule(const LocalModel& model, const LocalExpertTiles& tiles) {
  const double per_expert =
      tiles.batch_tokens * static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts);
  return std::string("prompt: routed experts multiplied in whole ") +
         detail::four_significant_digits(tiles.tile_tokens) + "-token tiles (" +
         (tiles.kernel == LocalExpertKernel::metal_mul_mm_id             ? "Metal kernel_mul_mm_id"
          : tiles.kernel == LocalExpertKernel::vulkan_coopmat2_mul_mm_id ? "Vulkan coopmat2 mul_mm_id"
                                                                         : "CUDA MMQ") +
         "): " + detail::four_significant_digits(per_expert) + " tokens an expert on average in a batch of " +
         detail::four_significant_digits(tiles.batch_tokens) +
         ", spread as Binomial(batch, experts per token / experts) under balanced routing, so " +
         detail::two_decimals(tiles.work_factor) + " x the expert multiplies they need";
}

// ggml-cuda.cu ggml_cuda_mul_mat before a818f302 (b3216, #8075): with CUDA_USE_TENSOR_CORES (the default) on
// Volta or later, use_mul_mat_q only for src1->ne[1] <= MMQ_MAX_BATCH_SIZE (32); from b3216 mmq.cu
// ggml_cuda_should_use_mmq takes MMQ wherever int8 tensor cores are.
constexpr std::int64_t kCudaMmqDefaultBuild = 3216;

bool local_cuda_mmq_by_default(std::optional<std::int64_t> llama_cpp_build) {
  return local_build_includes(llama_cpp_build, kCudaMmqDefaultBuild);
}

LocalCudaLaunches local_cuda_launches(const LocalModel& model, const LocalRequest& request, const Accelerator& gpu) {
  LocalCudaLaunches launches;
  if (request.backend != LocalBackend::cuda) return launches;
  const auto includes = [&](std::int64_t release) { return local_build_includes(request.llama_cpp_build, release); };
  const bool moe = model.num_experts > 0;
  launches.seconds_per_launch = local_cuda_ungraphed_seconds_per_op();
  launches.expert_host_loop_prompt = moe && !includes(kCudaMulMatIdPromptBuild);
  launches.expert_host_loop_generation = moe && !includes(kCudaMulMatIdGenerationBuild);
  // The catalog's pre-Ampere NVIDIA GPUs are Volta and Turing, which #25749 covers (Pascal stays off).
  const bool pre_ampere = std::string_view(gpu.vendor) == "NVIDIA" && gpu_generation(gpu) == GpuGeneration::older;
  launches.graphs = includes(kCudaGraphsBuild) && !(pre_ampere && !includes(kCudaGraphsVoltaTuringBuild)) &&
                    !launches.expert_host_loop_generation;
  return launches;
}

std::string local_cuda_launches_rule(const LocalModel& model, const LocalRequest& request,
                                     const LocalCudaLaunches& launches) {
  if (request.backend != LocalBackend::cuda) return {};
  std::string rule;
  const std::string per_launch = detail::two_decimals(launches.seconds_per_launch * 1e6) + " us";
  if (!launches.graphs) {
    const std::int64_t build = request.llama_cpp_build.value_or(0);
    rule = "generation: no CUDA graph (";
    rule += build < kCudaGraphsBuild ? "llama.cpp b" + std::to_string(build) + " predates them, b" +
                                           std::to_string(kCudaGraphsBuild) + " (ggml-org/llama.cpp#6766)"
            : launches.expert_host_loop_generation ? "a MUL_MAT_ID in the graph turns them off before b" +
                                                         std::to_string(kCudaMulMatIdGenerationBuild) + " (#13014)"
                                                   : "off below compute capability 8.0 before b" +
                                                         std::to_string(kCudaGraphsVoltaTuringBuild) + " (#25749)";
    rule += "): each op launched from the host, " + per_launch +
            " an op (the replayed op's time plus the mean of three published graph on/off pairs, #6766 and #6763)";
  }
  const std::int64_t experts_used = model.num_experts > 0 ? model.experts_per_token : 0;
  if (launches.expert_host_loop_generation)
    rule += std::string(rule.empty() ? "" : "; ") + "generation: each MUL_MAT_ID copies the expert ids to the host (" +
            std::to_string(kCudaExpertLoopSyncLaunches) +
            " launches' time for the copy and the synchronization), then quantizes and multiplies for each of the " +
            std::to_string(experts_used) + " experts used (" + std::to_string(kCudaExpertLoopGenerationLaunches) +
            " launches each; before b" + std::to_string(kCudaMulMatIdGenerationBuild) + ", #13014)";
  if (launches.expert_host_loop_prompt)
    rule += std::string(rule.empty() ? "" : "; ") +
            "prompt: each MUL_MAT_ID copies the expert ids to the host, then for each expert with tokens (expected " +
            "under balanced routing) a memset, a gather, quantize and multiply, and a scatter (" +
            std::to_string(kCudaExpertLoopPromptLaunches) + " launches at " + per_launch +
            "), overlapping the experts' own GPU time (before b" + std::to_string(kCudaMulMatIdPromptBuild) +
            ", #13199); no whole-tile waste, as each expert's multiply sizes its own tiles";
  return rule;
}

std::int64_t local_metal_fused_ops(const LocalRequest& request, std::int64_t rms_norms, std::int64_t layer_norms,
                                   std::int64_t expert_sum_adds) {
  if (request.backend != LocalBackend::metal) return 0;
  std::int64_t fused = 0;
  if (local_build_includes(request.llama_cpp_build, kMetalRmsNormFusionBuild))
    fused += rms_norms + expert_sum_adds - (expert_sum_adds + kMetalMaxFusedAdds - 1) / kMetalMaxFusedAdds;
  if (local_build_includes(request.llama_cpp_build, kMetalNormFusionBuild)) fused += 2 * layer_norms;
  return fused;
}

LocalExpertCombine local_expert_combine(const LocalModel& model, const LocalRequest& request) {
  LocalExpertCombine combine;
  combine.adds_per_kernel = max_fused_adds(request);
  combine.bytes_per_token = expert_combine_bytes(model.hidden_size, model.experts_per_token, combine.adds_per_kernel);
  return combine;
}

std::string local_expert_combine_rule(const LocalModel& model, const LocalExpertCombine& combine,
                                      double prompt_time_share) {
  const std::int64_t k = model.experts_per_token;
  return "prompt: each MoE layer combines its routed experts' outputs through memory (llama-graph.cpp "
         "build_moe_ffn): " +
         std::to_string(k) + " f32 outputs of " + std::to_string(model.hidden_size) +
         " values a token, scaled by the routing weights and summed by " + std::to_string(k - 1) + " ADDs" +
         (combine.adds_per_kernel > 1 ? " (" + std::to_string(combine.adds_per_kernel) + " to a kernel in this build)"
                                      : std::string(" (one kernel each)")) +
         ": " + std::to_string(std::llround(combine.bytes_per_token)) +
         " bytes a token beyond a dense FFN's one output, at the GPU's streaming share of bandwidth, " +
         std::to_string(static_cast<int>(std::lround(100 * prompt_time_share))) +
         "% of the prompt's work; not added on the CPU, whose routed-expert share was read off MoE rows";
}

std::int64_t local_metal_concurrent_kernels(const LocalRequest& request, const LocalLayer& layer) {
  if (request.backend != LocalBackend::metal || !local_build_includes(request.llama_cpp_build, kMetalConcurrencyBuild))
    return 0;
  return layer.concurrent_kernels;
}

std::string local_metal_concurrency_rule(std::int64_t kernels, std::int64_t concurrent_kernels) {
  if (concurrent_kernels <= 0) return {};
  return "graph ops: from llama.cpp b" + std::to_string(kMetalConcurrencyBuild) +
         " (ggml-org/llama.cpp#15929) Metal encodes the graph concurrently, with a memory barrier only before a "
         "kernel that reads what the kernels since the last barrier wrote: " +
         std::to_string(concurrent_kernels) + " of " + std::to_string(kernels) +
         " kernels a token besides attention run beside the one before them (Q, K and V and their biases, the "
         "ROPEs and cache writes, gate and up), so the time per kernel is paid " +
         std::to_string(kernels - concurrent_kernels) + " times; --llama-cpp-build N for an older build";
}

std::string local_metal_fusion_rule(const LocalRequest& request, std::int64_t graph_ops, std::int64_t fused_ops) {
  if (fused_ops > 0)
    return std::string("graph ops: Metal fuses each RMS_NORM with its weight's MUL and up to ")
        .append(std::to_string(kMetalMaxFusedAdds))
        .append(" consecutive ADDs (the routed experts' sum) into one kernel from llama.cpp b")
        .append(std::to_string(kMetalRmsNormFusionBuild))
        .append(" (ggml-org/llama.cpp#14596), a NORM with its MUL and ADD from b")
        .append(std::to_string(kMetalNormFusionBuild))
        .append(" (#16220): ")
        .append(std::to_string(graph_ops - fused_ops))
        .append(" kernels a token for ")
        .append(std::to_string(graph_ops))
        .append(" graph ops besides attention; --llama-cpp-build N for an older build");
  if (request.backend == LocalBackend::metal &&
      !local_build_includes(request.llama_cpp_build, kMetalRmsNormFusionBuild))
    return std::string("graph ops: llama.cpp b")
        .append(std::to_string(*request.llama_cpp_build))
        .append(" predates Metal's op fusion (b")
        .append(std::to_string(kMetalRmsNormFusionBuild))
        .append(", ggml-org/llama.cpp#14596): one kernel per op");
  return {};
}

}  // namespace fitcheck
