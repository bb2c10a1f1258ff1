// SPDX-License-Identifier: MIT
// The speed of a placement: prompt processing and generation tokens/s per device, as llama.cpp's
// kernels run them (docs/local.md, "Speed").
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/local.hpp"
#include "local/local_device_work.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// Without --cpu: a dual-channel DDR5-5600 desktop (89.6 GB/s), 1 TFLOP/s of fp32 and 8 threads (one
// per performance core of an 8-core part).
constexpr double kDefaultRamBandwidth = 89.6e9;
constexpr double kDefaultCpuFlops = 1e12;
constexpr int kDefaultCpuThreads = 8;
// A host-to-GPU copy when the GPU's link is not in the catalog: PCIe 4.0 x16, 32 GB/s one way.
constexpr double kDefaultPcieBytesPerSecond = 32e9;

// The GPU's link to the host: its PCIe rate when the catalog names one, else a PCIe 4.0 x16.
double host_link_bytes_per_second(const Accelerator& gpu) {
  return std::string_view(gpu.interconnect).find("PCIe") != std::string_view::npos &&
                 gpu.interconnect_bytes_per_second_per_direction > 0
             ? gpu.interconnect_bytes_per_second_per_direction
             : kDefaultPcieBytesPerSecond;
}

}  // namespace

LocalSpeed local_speed(const LocalModel& model, const LocalRequest& request, const LocalPlacement& p,
                       std::vector<std::string>& assumptions) {
  const std::size_t n_gpus = p.devices.size() - 1;
  const LocalBackendRates gpu_rates = local_backend_rates(request.backend);
  const LocalBackendRates cpu_rates = local_backend_rates(LocalBackend::cpu);
  const std::vector<DeviceWork> work = local_device_work(model, request, p, assumptions);
  const auto index_of = [&](int device) { return local_device_index(p, device); };
  const double attention_width = static_cast<double>(model.num_heads * model.head_dim);
  const double tokens = std::max(1.0, static_cast<double>(request.prompt_len));  // of the prompt
  const double depth = static_cast<double>(request.depth);                       // cached before it

  // Where the graph moves from one device to the next, ggml_backend_sched copies the split's input,
  // the hidden state (f32, n_embd per token), over the link (ggml-backend.cpp
  // ggml_backend_sched_compute_splits): the token embeddings (get_rows on the CPU) to the first GPU
  // layer, and from each device's last layer to the next device's first. Unified memory copies
  // nothing. Per token, the seconds of the crossings into each device. A token also leaves a GPU layer for
  // the CPU and comes back where that layer's routed experts stay in RAM (--n-cpu-moe) or its KV cache and
  // attention do (-nkvo): one token is below the op offload's batch, so those run on the CPU.
  // Every crossing but the first is a blocking handoff between backends (local_split_handoff_seconds): `handoffs`
  // counts them into each device, `prompt_handoffs` those of a ubatch when the op offload runs the CPU's
  // multiplies on the GPU (then only the layers' own devices alternate).
  std::vector<double> crossing_seconds_per_token(work.size(), 0.0);
  std::vector<double> prompt_crossing_seconds_per_token(work.size(), 0.0);
  std::vector<std::int64_t> handoffs(work.size(), 0);
  std::vector<std::int64_t> prompt_handoffs(work.size(), 0);
  const bool discrete = n_gpus > 0 && !request.gpus[0].unified_memory;
  if (discrete) {
    const double hidden_bytes = static_cast<double>(model.hidden_size * kLocalF32Bytes);
    const auto link_between = [&](std::size_t from, std::size_t to) {
      const bool host = from == n_gpus || to == n_gpus;
      const Accelerator& gpu = request.gpus[host ? std::min(from, to) : to];
      return host || gpu.interconnect_bytes_per_second_per_direction <= 0
                 ? host_link_bytes_per_second(gpu)
                 : gpu.interconnect_bytes_per_second_per_direction;
    };
    // Walks one token's graph, `detours` adding the CPU visits of a single token (experts, attention).
    const auto walk = [&](bool detours, std::vector<std::int64_t>& counted, std::vector<double>& copy_seconds) {
      std::size_t from = n_gpus;  // the input layer, on the CPU
      std::int64_t crossings = 0;
      const auto cross = [&](std::size_t to) {
        if (to == from) return;
        copy_seconds[to] += hidden_bytes / (link_between(from, to) * kLocalPcieEfficiency);
        if (crossings++ > 0) counted[to] += 1;
        from = to;
      };
      for (std::size_t il = 0; il < model.layers.size(); ++il) {
        const std::size_t home = index_of(p.layer_device[il]);
        cross(home);
        if (!detours || home == n_gpus) continue;
        if (!request.kv_offload && model.layers[il].attention) {
          cross(n_gpus);
          cross(home);
        }
        if (model.layers[il].expert_parameters > 0 && static_cast<std::int64_t>(il) < p.n_cpu_moe) {
          cross(n_gpus);
          cross(home);
        }
      }
      cross(index_of(p.output_device));
    };
    walk(true, handoffs, crossing_seconds_per_token);
    walk(false, prompt_handoffs, prompt_crossing_seconds_per_token);
  }
  // With --cpu, what its cores can read: the RAM's peak, or its dies' fabric links where lower.
  const double ram_bandwidth = request.cpu ? cpu_memory_read_peak_bytes_per_second(*request.cpu)
                               : (n_gpus > 0 && request.gpus[0].unified_memory)
                                   ? request.gpus[0].memory_bandwidth_bytes_per_second
                                   : kDefaultRamBandwidth;
  const int cpu_threads =
      request.threads.value_or(request.cpu ? local_cpu_default_threads(*request.cpu) : kDefaultCpuThreads);
  const bool cpu_work = work.back().weight_bytes_resident > 0;
  if (cpu_work && request.cpu && ram_bandwidth < cpu_memory_bandwidth_bytes_per_second(*request.cpu)) {
    const CpuDevice& cpu = *request.cpu;
    assumptions.push_back("CPU layers read at most " + detail::as_given(ram_bandwidth / 1e9) + " GB/s, not the RAM's " +
                          detail::as_given(cpu_memory_bandwidth_bytes_per_second(cpu) / 1e9) + ": " +
                          std::to_string(cpu.compute_dies) + (cpu.compute_dies == 1 ? " core die" : " core dies") +
                          " x " + detail::as_given(kFabricLinkReadBytesPerClock) + " B x " +
                          detail::as_given(cpu.fabric_clock_hz / 1e9) +
                          " GHz fabric clock (each die reads through its own Infinity Fabric link; docs/hardware.md, "
                          "\"CPUs and system RAM\")");
  }
  if (cpu_work) assumptions.push_back(local_cpu_seconds_per_op_rule(cpu_threads));
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
    if (d >= n_gpus) return local_cpu_seconds_per_op(cpu_threads);
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
  // The CPU's multiplies for one generated token (the same at any fill: the attention is left out).
  const LocalCpuMatmulTime generation_cpu_matmul =
      cpu_work && request.cpu
          ? local_cpu_matmul_seconds(local_cpu_matmul_flops(work.back(), 1.0, 0.0), *request.cpu, request)
          : LocalCpuMatmulTime{};
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
      t.handoffs = handoffs[d];
      t.handoff_seconds = static_cast<double>(handoffs[d]) * local_split_handoff_seconds();
      // A CPU's matrix-vector products at the same kernels' rates as its prompt (one token's activations):
      // with few threads they, not the RAM, set the pace (the attention's few FLOPs are left out).
      if (d >= n_gpus && request.cpu) t.compute_seconds = generation_cpu_matmul.seconds;
      t.seconds = std::max(bytes / t.bandwidth_bytes_per_second, t.compute_seconds) +
                  static_cast<double>(t.graph_ops) * t.seconds_per_op + t.crossing_seconds + t.handoff_seconds;
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
  if (const LocalTokenTime& cpu_token = s.generation_token_time.back(); cpu_token.compute_seconds > 0) {
    const double read_seconds = cpu_token.bytes / cpu_token.bandwidth_bytes_per_second;
    if (cpu_token.compute_seconds > read_seconds)
      assumptions.push_back(
          local_cpu_generation_compute_rule(cpu_token.compute_seconds, read_seconds, generation_cpu_matmul.threads));
  }
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
  const bool op_offload = local_op_offload(request, std::min<std::int64_t>(request.ubatch, request.prompt_len));
  // Routed experts in whole tiles (local_kernels.cpp): the expected work over the work needed.
  const double prompt_batch = std::min(static_cast<double>(request.ubatch), tokens);
  const LocalExpertTiles expert_tiles = local_expert_tiles(model, request, prompt_batch);
  const double used_expert_share = local_used_expert_share(model, prompt_batch, request.llama_cpp_build);
  bool expert_tiles_timed = false;
  bool mmq_traffic_bound = false;
  std::string mmq_traffic_unknown_gpu;  // a GPU MMQ ran on without SM and L2 figures
  // The multiplies of device work `w` on GPU `gpu` (local_gpu_matmul.cpp); dequantization streams at the
  // GPU's streaming share of bandwidth.
  const auto gpu_compute_seconds = [&](const DeviceWork& w, const Accelerator& gpu, double attention_flops) {
    const LocalGpuMatmulTime t =
        local_gpu_matmul_seconds(local_gpu_matmul_work(w, tokens, attention_flops), gpu, request, model, expert_tiles,
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
  std::string cpu_prompt_rule;
  s.prompt_time.assign(work.size(), LocalPromptTime{});
  s.prompt_tokens = tokens;
  s.prompt_ubatches = ubatches;
  for (std::size_t d = 0; d < work.size(); ++d) {
    const DeviceWork& w = work[d];
    if (w.weight_bytes_resident <= 0 && w.flops_per_token <= 0) continue;
    LocalPromptTime& part = s.prompt_time[d];
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
    if (d < n_gpus) {
      const Accelerator& gpu = request.gpus[d];
      part.scores_seconds = score_seconds_on(gpu, score_bytes);
      part.multiply_seconds = gpu_compute_seconds(w, gpu, attention_flops);
      part.weight_read_seconds = w.weight_bytes_resident * ubatches / bandwidth_of(d);
      // The MoE layers' combine runs as its own elementwise kernels after the multiplies.
      part.expert_combine_seconds = w.expert_combine_bytes_per_token * tokens / bandwidth_of(d);
    } else if (op_offload) {
      // The first GPU multiplies them (ggml_backend_sched's op offload to the highest-priority backend).
      part.offload_gpu = 0;
      const Accelerator& gpu = request.gpus[0];
      const double link = host_link_bytes_per_second(gpu);
      // The input layer's get_rows stays on the CPU; only matrix multiply weights travel, of the routed
      // experts those the ubatch uses; from a mapped file at the pageable share of the pinned rate.
      const double dense =
          std::max(0.0, w.weight_bytes_resident - w.expert_bytes_resident - static_cast<double>(model.input_bytes));
      const double copied = dense + w.expert_bytes_resident * used_expert_share;
      const double rate = link * kLocalPcieEfficiency * (request.mmap ? local_pageable_copy_share() : 1.0);
      part.scores_seconds = score_seconds_on(gpu, score_bytes);
      part.offload_copy_seconds = copied * ubatches / rate;
      part.multiply_seconds = gpu_compute_seconds(w, gpu, attention_flops);
    } else {
      part.scores_seconds = score_bytes / bandwidth_of(d);
      // With --cpu, ggml-cpu's kernels for each weight type (local_cpu_matmul.cpp); without, the stated
      // default CPU at the backend's one compute fraction.
      if (request.cpu) {
        const LocalCpuMatmulTime cpu_time =
            local_cpu_matmul_seconds(local_cpu_matmul_flops(w, tokens, attention_flops), *request.cpu, request);
        part.multiply_seconds = cpu_time.seconds;
        cpu_prompt_rule = cpu_time.rule;
      } else {
        part.multiply_seconds = flops / (kDefaultCpuFlops * cpu_rates.prompt_compute);
      }
      part.weight_read_seconds = w.weight_bytes_resident * ubatches / bandwidth_of(d);
    }
    part.crossing_seconds = (op_offload ? prompt_crossing_seconds_per_token : crossing_seconds_per_token)[d] * tokens;
    part.handoff_seconds =
        static_cast<double>((op_offload ? prompt_handoffs : handoffs)[d]) * ubatches * local_split_handoff_seconds();
    // Offloaded weights are copied, then multiplied; a device's own weights are read while it multiplies.
    part.seconds = (part.offloaded() ? part.offload_copy_seconds + part.multiply_seconds
                                     : std::max(part.multiply_seconds, part.weight_read_seconds)) +
                   part.expert_combine_seconds + part.scores_seconds + part.crossing_seconds + part.handoff_seconds;
  }
  std::vector<double> times;
  double prompt_seconds = 0, all_scores_seconds = 0, all_combine_seconds = 0;
  for (const LocalPromptTime& part : s.prompt_time) {
    times.push_back(part.seconds);
    prompt_seconds += part.seconds;
    all_scores_seconds += part.scores_seconds;
    all_combine_seconds += part.expert_combine_seconds;
  }
  if (op_offload && work.back().weight_bytes_resident > static_cast<double>(model.input_bytes))
    assumptions.push_back(local_host_copy_rule(request, host_link_bytes_per_second(request.gpus[0]),
                                               work.back().expert_bytes_resident > 0 ? used_expert_share : 1.0));
  std::int64_t token_handoffs = 0, ubatch_handoffs = 0;
  for (std::size_t d = 0; d < work.size(); ++d) {
    token_handoffs += handoffs[d];
    ubatch_handoffs += (op_offload ? prompt_handoffs : handoffs)[d];
  }
  if (token_handoffs > 0 || ubatch_handoffs > 0)
    assumptions.push_back(local_split_handoffs_rule(token_handoffs, ubatch_handoffs));
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
    assumptions.push_back(
        local_expert_combine_rule(model, local_expert_combine(model, request), s.prompt_expert_combine_time_share));
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
