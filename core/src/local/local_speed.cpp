// SPDX-License-Identifier: MIT
// The speed of a placement: prompt processing and generation tokens/s per device, as llama.cpp's
// kernels run them (docs/local.md, "Speed").
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// Without --cpu: a dual-channel DDR5-5600 desktop (89.6 GB/s) and 1 TFLOP/s of fp32.
constexpr double kDefaultRamBandwidth = 89.6e9;
constexpr double kDefaultCpuFlops = 1e12;
// A host-to-GPU copy when the GPU's link is not in the catalog: PCIe 4.0 x16, 32 GB/s one way.
constexpr double kDefaultPcieBytesPerSecond = 32e9;
constexpr double kPcieEfficiency = 0.8;
// ggml-cuda.cu ggml_backend_cuda_device_offload_op: min_batch_size = 32. A matrix multiply over a
// batch this large runs on the GPU even when its weight lives in RAM; the weight is copied over.
constexpr std::int64_t kOffloadMinBatch = 32;

// Storage kinds of a weight: quantized (any ggml quant type), f16, bf16, f32.
enum StorageKind : std::size_t { kQuantized, kF16, kBf16, kF32, kStorageKinds };

// The GPU's link to the host: its PCIe rate when the catalog names one, else a PCIe 4.0 x16.
double host_link_bytes_per_second(const Accelerator& gpu) {
  return std::string_view(gpu.interconnect).find("PCIe") != std::string_view::npos &&
                 gpu.interconnect_bytes_per_second_per_direction > 0
             ? gpu.interconnect_bytes_per_second_per_direction
             : kDefaultPcieBytesPerSecond;
}

struct DeviceWork {
  double weight_bytes_per_token = 0;      // generation: weights read for one token
  double kv_bytes_per_cell = 0;           // generation: bytes read per cached token (all its layers)
  double state_bytes_per_token = 0;       // generation: the recurrent layers' states moved per token
  std::vector<std::int64_t> layer_cells;  // cells of each of its layers (sliding windows cap them)
  std::vector<double> layer_cell_bytes;
  double weight_bytes_resident = 0;                             // prompt: everything it holds, read once per ubatch
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

// A CPU device's prompt multiplies by what picks ggml-cpu's kernel (local_cpu_matmul.cpp).
LocalCpuMatmulFlops cpu_matmul_flops(const DeviceWork& w, double tokens, double attention_flops) {
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
LocalGpuMatmulWork gpu_matmul_work(const DeviceWork& w, double tokens, double attention_flops) {
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

}  // namespace

LocalSpeed local_speed(const LocalModel& model, const LocalRequest& request, const LocalPlacement& p,
                       std::vector<std::string>& assumptions) {
  const std::size_t n_gpus = p.devices.size() - 1;
  const LocalBackendRates gpu_rates = local_backend_rates(request.backend);
  const LocalBackendRates cpu_rates = local_backend_rates(LocalBackend::cpu);
  const double touched = model.num_experts > 0 && model.experts_per_token > 0
                             ? static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts)
                             : 1.0;
  std::vector<DeviceWork> work(p.devices.size());
  const auto index_of = [&](int device) { return device < 0 ? n_gpus : static_cast<std::size_t>(device); };
  const double attention_width = static_cast<double>(model.num_heads * model.head_dim);
  const double tokens = std::max(1.0, static_cast<double>(request.prompt_len));  // of the prompt
  const double depth = static_cast<double>(request.depth);                       // cached before it
  std::int64_t all_graph_ops = 0, fused_graph_ops = 0;                           // besides attention, over every device
  std::int64_t concurrent_kernels = 0;  // of the kernels left after fusion (Metal, local_kernels.cpp)
  const double expert_combine_bytes =
      local_expert_combine_bytes(model.hidden_size, model.experts_per_token, local_max_fused_adds(request));
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

  // Where the graph moves from one device to the next, ggml_backend_sched copies the split's input,
  // the hidden state (f32, n_embd per token), over the link (ggml-backend.cpp
  // ggml_backend_sched_compute_splits): the token embeddings (get_rows on the CPU) to the first GPU
  // layer, and from each device's last layer to the next device's first. Unified memory copies
  // nothing. Per token, the seconds of the crossings into each device.
  std::vector<double> crossing_seconds_per_token(work.size(), 0.0);
  if (n_gpus > 0 && !request.gpus[0].unified_memory) {
    const double hidden_bytes = static_cast<double>(model.hidden_size) * 4.0;
    std::size_t from = n_gpus;  // the input layer, on the CPU
    const auto cross = [&](std::size_t to) {
      if (to == from) return;
      const bool host = from == n_gpus || to == n_gpus;
      const Accelerator& gpu = request.gpus[host ? std::min(from, to) : to];
      const double link = host || gpu.interconnect_bytes_per_second_per_direction <= 0
                              ? host_link_bytes_per_second(gpu)
                              : gpu.interconnect_bytes_per_second_per_direction;
      crossing_seconds_per_token[to] += hidden_bytes / (link * kPcieEfficiency);
      from = to;
    };
    for (std::size_t il = 0; il < model.layers.size(); ++il) cross(index_of(p.layer_device[il]));
    cross(index_of(p.output_device));
  }

  const double ram_bandwidth = request.cpu ? cpu_memory_bandwidth_bytes_per_second(*request.cpu)
                               : (n_gpus > 0 && request.gpus[0].unified_memory)
                                   ? request.gpus[0].memory_bandwidth_bytes_per_second
                                   : kDefaultRamBandwidth;
  const bool cpu_work = work.back().weight_bytes_resident > 0;
  if (cpu_work && request.cpu && !cpu_memory_as_specified(*request.cpu)) {
    const CpuDevice& cpu = *request.cpu;
    assumptions.push_back("RAM as installed (--ram-mts, --ram-channels): " + std::to_string(cpu.memory_channels) +
                          (cpu.memory_channels == 1 ? " channel" : " channels") + " x 8 B x " +
                          detail::as_given(cpu.memory_transfers_per_second / 1e6) +
                          " MT/s = " + detail::as_given(ram_bandwidth / 1e9) + " GB/s, not the " + cpu.name +
                          " specification's " + cpu.memory_type);
  }
  if (cpu_work && !request.cpu)
    assumptions.push_back(n_gpus > 0 && request.gpus[0].unified_memory
                              ? "CPU layers read the unified memory at the chip's bandwidth (no --cpu given)"
                              : "CPU layers: no --cpu given, so RAM at 89.6 GB/s (dual-channel DDR5-5600) and "
                                "1 TFLOP/s fp32");
  // The share of a GPU's bandwidth llama.cpp's streaming kernels reach: the single-token mat-vec
  // kernels and, on CUDA without MMQ, the dequantize kernels before cuBLAS (convert.cu
  // dequantize_row_q4_K_cuda: 32 threads a block, one 256-value super-block each; q5_K/q6_K 64), which
  // keep as few bytes in flight and so read HBM at the same low share.
  const auto gpu_stream_fraction = [&](const Accelerator& gpu) {
    const bool hbm = request.backend == LocalBackend::cuda && is_nvidia_hbm_part(gpu);
    return hbm ? kLocalCudaHbmGenerationBandwidth : gpu_rates.generation_bandwidth;
  };
  const auto bandwidth_fraction_of = [&](std::size_t d) {
    return d < n_gpus ? gpu_stream_fraction(request.gpus[d]) : cpu_rates.generation_bandwidth;
  };
  const auto bandwidth_of = [&](std::size_t d) {
    return (d < n_gpus ? request.gpus[d].memory_bandwidth_bytes_per_second : ram_bandwidth) * bandwidth_fraction_of(d);
  };
  // ggml-cuda's launches by build (local_kernels.cpp): without a CUDA graph every op is launched from the
  // host; a MUL_MAT_ID of the host-loop builds is a synchronization and a launch pair per expert used.
  std::vector<LocalCudaLaunches> cuda_launches(n_gpus);
  std::vector<std::string> launch_rules;
  for (std::size_t d = 0; d < n_gpus; ++d) {
    cuda_launches[d] = local_cuda_launches(model, request, request.gpus[d]);
    std::string rule = local_cuda_launches_rule(model, request, cuda_launches[d]);
    if (!rule.empty() && std::find(launch_rules.begin(), launch_rules.end(), rule) == launch_rules.end())
      launch_rules.push_back(std::move(rule));
  }
  for (std::string& rule : launch_rules) assumptions.push_back(std::move(rule));
  const auto op_seconds_of = [&](std::size_t d) {
    if (d >= n_gpus) return cpu_rates.seconds_per_op;
    return request.backend == LocalBackend::cuda && !cuda_launches[d].graphs ? cuda_launches[d].seconds_per_launch
                                                                             : gpu_rates.seconds_per_op;
  };
  const auto launched_ops_of = [&](std::size_t d) {
    std::int64_t ops = work[d].graph_ops;
    if (d < n_gpus && cuda_launches[d].expert_host_loop_generation)
      ops += work[d].expert_matrix_ops *
             (kCudaExpertLoopSyncLaunches - 1 + kCudaExpertLoopGenerationLaunches * model.experts_per_token);
    return ops;
  };
  // One token's time at `filled` cached tokens: each device reads its weights, its layers' KV and
  // its recurrent layers' states.
  const auto token_times = [&](double filled) {
    std::vector<LocalTokenTime> times(work.size());
    for (std::size_t d = 0; d < work.size(); ++d) {
      double bytes = work[d].weight_bytes_per_token + work[d].state_bytes_per_token;
      for (std::size_t l = 0; l < work[d].layer_cells.size(); ++l)
        bytes += std::min(filled, static_cast<double>(work[d].layer_cells[l])) * work[d].layer_cell_bytes[l];
      if (bytes <= 0) continue;
      LocalTokenTime& t = times[d];
      t.bytes = bytes;
      t.bandwidth_fraction = bandwidth_fraction_of(d);
      t.bandwidth_bytes_per_second = bandwidth_of(d);
      t.graph_ops = launched_ops_of(d);
      t.seconds_per_op = op_seconds_of(d);
      t.crossing_seconds = crossing_seconds_per_token[d];
      t.seconds = bytes / t.bandwidth_bytes_per_second + static_cast<double>(t.graph_ops) * t.seconds_per_op +
                  t.crossing_seconds;
    }
    return times;
  };
  const auto token_seconds = [&](double filled) {
    double total = 0;
    for (const LocalTokenTime& t : token_times(filled)) total += t.seconds;
    return total;
  };

  LocalSpeed s;
  const double prompt = static_cast<double>(request.prompt_len);
  const double generated = static_cast<double>(request.gen_len);
  const double context = static_cast<double>(p.kv_size);
  // Time per token grows linearly with the cache, so the mean over the generated tokens is the
  // time at the middle of them, after the depth and the prompt.
  const double middle = std::min(context, depth + prompt + generated / 2);
  s.generation_token_time = token_times(middle);
  double token = 0;
  for (const LocalTokenTime& t : s.generation_token_time) token += t.seconds;
  s.generation_tokens_per_second = 1.0 / token;
  for (const LocalTokenTime& t : s.generation_token_time) s.generation_time_share.push_back(t.seconds / token);
  s.generation_tokens_per_second_empty = 1.0 / token_seconds(0);
  s.generation_tokens_per_second_full = 1.0 / token_seconds(context);

  // Prompt processing: per ubatch, each device either streams its weights or runs its share of the
  // matrix multiplies, whichever is slower. With a discrete GPU, weights left in RAM are copied to
  // the GPU for every ubatch of at least 32 tokens and multiplied there (the op offload).
  const double ubatches = std::ceil(tokens / static_cast<double>(request.ubatch));
  const bool op_offload = n_gpus > 0 && request.backend != LocalBackend::metal && request.ubatch >= kOffloadMinBatch &&
                          std::min<std::int64_t>(request.ubatch, request.prompt_len) >= kOffloadMinBatch;
  // Routed experts in whole tiles (local_kernels.cpp): the expected work over the work needed.
  const double prompt_batch = std::min(static_cast<double>(request.ubatch), tokens);
  const LocalExpertTiles expert_tiles = local_expert_tiles(model, request, prompt_batch);
  bool expert_tiles_timed = false;
  bool mmq_traffic_bound = false;
  std::string mmq_traffic_unknown_gpu;  // a GPU MMQ ran on without SM and L2 figures
  // The multiplies of device work `w` on GPU `gpu` (local_gpu_matmul.cpp); dequantization streams at the
  // GPU's streaming share of bandwidth.
  const auto gpu_compute_seconds = [&](const DeviceWork& w, const Accelerator& gpu, double attention_flops) {
    const LocalGpuMatmulTime t =
        local_gpu_matmul_seconds(gpu_matmul_work(w, tokens, attention_flops), gpu, request, model, expert_tiles,
                                 ubatches, gpu.memory_bandwidth_bytes_per_second * gpu_stream_fraction(gpu));
    expert_tiles_timed = expert_tiles_timed || t.expert_tiles_timed;
    mmq_traffic_bound = mmq_traffic_bound || t.mmq_traffic_bound;
    if (t.mmq_traffic_unknown) mmq_traffic_unknown_gpu = gpu.name;
    return t.seconds;
  };
  // The softmax and the f16 conversions stream the scores with many bytes in flight: the backend's
  // streaming share of the GPU's bandwidth, not the mat-vec kernels' lower share on HBM.
  const auto score_seconds_on = [&](const Accelerator& gpu, double bytes) {
    return bytes / (gpu.memory_bandwidth_bytes_per_second * gpu_rates.generation_bandwidth);
  };
  double prompt_seconds = 0;
  double all_scores_seconds = 0;
  double all_combine_seconds = 0;
  std::string cpu_prompt_rule;
  std::vector<double> times(work.size(), 0.0);
  for (std::size_t d = 0; d < work.size(); ++d) {
    const DeviceWork& w = work[d];
    if (w.weight_bytes_resident <= 0 && w.flops_per_token <= 0) continue;
    // Causal attention over the prompt. Flash attention skips the masked tiles: position i attends to
    // depth + i cached tokens (at most the layer's cells), tokens^2 / 2 in all from an empty cache.
    // Without it every ubatch multiplies all its cells and moves the scores through memory
    // (local_attention_scores.cpp).
    const double attention_flops =
        request.flash_attention ? w.prompt_attention_flops : 4.0 * attention_width * w.materialized_scores_per_head;
    const double score_bytes =
        request.flash_attention
            ? 0.0
            : materialized_score_bytes(static_cast<double>(model.num_heads) * w.materialized_scores_per_head);
    const double flops = w.flops_per_token * tokens + attention_flops;
    double seconds = 0;
    double scores_seconds = 0;
    if (d < n_gpus) {
      const Accelerator& gpu = request.gpus[d];
      scores_seconds = score_seconds_on(gpu, score_bytes);
      seconds =
          std::max(gpu_compute_seconds(w, gpu, attention_flops), w.weight_bytes_resident * ubatches / bandwidth_of(d));
      // The MoE layers' combine runs as its own elementwise kernels after the multiplies.
      const double combine_seconds = w.expert_combine_bytes_per_token * tokens /
                                     (gpu.memory_bandwidth_bytes_per_second * gpu_stream_fraction(gpu));
      seconds += combine_seconds;
      all_combine_seconds += combine_seconds;
    } else if (op_offload) {
      const Accelerator& gpu = request.gpus[0];
      const double link = host_link_bytes_per_second(gpu);
      // The input layer's get_rows stays on the CPU; only matrix multiply weights travel.
      const double copied = std::max(0.0, w.weight_bytes_resident - static_cast<double>(model.input_bytes));
      scores_seconds = score_seconds_on(gpu, score_bytes);
      seconds = copied * ubatches / (link * kPcieEfficiency) + gpu_compute_seconds(w, gpu, attention_flops);
    } else {
      scores_seconds = score_bytes / bandwidth_of(d);
      // With --cpu, ggml-cpu's kernels for each weight type (local_cpu_matmul.cpp); without, the stated
      // default CPU at the backend's one compute fraction.
      double compute_seconds = 0;
      if (request.cpu) {
        const LocalCpuMatmulTime cpu_time =
            local_cpu_matmul_seconds(cpu_matmul_flops(w, tokens, attention_flops), *request.cpu, request);
        compute_seconds = cpu_time.seconds;
        cpu_prompt_rule = cpu_time.rule;
      } else {
        compute_seconds = flops / (kDefaultCpuFlops * cpu_rates.prompt_compute);
      }
      seconds = std::max(compute_seconds, w.weight_bytes_resident * ubatches / bandwidth_of(d));
    }
    seconds += scores_seconds + crossing_seconds_per_token[d] * tokens;
    all_scores_seconds += scores_seconds;
    times[d] = seconds;
    prompt_seconds += seconds;
  }
  if (op_offload && work.back().weight_bytes_resident > static_cast<double>(model.input_bytes))
    assumptions.push_back(
        "prompt: weights in RAM are copied to the GPU for each ubatch over PCIe (llama.cpp's op offload for "
        "batches of 32 or more)");
  if (!cpu_prompt_rule.empty()) assumptions.push_back(cpu_prompt_rule);
  if (expert_tiles_timed && expert_tiles.work_factor > 1.0)
    assumptions.push_back(local_expert_tiles_rule(model, expert_tiles));
  if (mmq_traffic_bound) assumptions.push_back(local_mmq_traffic_rule(request));
  if (!mmq_traffic_unknown_gpu.empty())
    assumptions.push_back("prompt: MMQ's tile traffic not checked on " + mmq_traffic_unknown_gpu +
                          ": its SMs and L2 are not in the catalog (docs/hardware.md), so only its compute and one "
                          "read of the weights bound the multiplies");
  if (all_combine_seconds > 0) {
    s.prompt_expert_combine_time_share = prompt_seconds > 0 ? all_combine_seconds / prompt_seconds : 0;
    assumptions.push_back(local_expert_combine_rule(request, model.hidden_size, model.experts_per_token,
                                                    s.prompt_expert_combine_time_share));
  }
  if (all_scores_seconds > 0) {
    s.prompt_scores_time_share = prompt_seconds > 0 ? all_scores_seconds / prompt_seconds : 0;
    assumptions.push_back(materialized_scores_rule(s.prompt_scores_time_share));
  }
  // Each device's share of the prompt's work, whether or not the pipeline overlaps it.
  for (double t : times) s.prompt_time_share.push_back(prompt_seconds > 0 ? t / prompt_seconds : 0);
  const LocalPromptPipeline pipeline = local_prompt_pipeline(request, p, times, tokens, ubatches);
  if (pipeline.active) {
    s.prompt_pipelined = true;
    s.prompt_pipeline_speedup = prompt_seconds / pipeline.seconds;
    prompt_seconds = pipeline.seconds;
    assumptions.push_back(pipeline.rule);
  }
  s.prompt_tokens_per_second = prompt_seconds > 0 ? tokens / prompt_seconds : 0;
  return s;
}

}  // namespace fitcheck
