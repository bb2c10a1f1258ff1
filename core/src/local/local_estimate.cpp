// SPDX-License-Identifier: MIT
// The most layers that fit, the speed of a placement, and the commands that reproduce it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"

namespace fitcheck {
namespace {

// Per backend, read off published llama-bench tables (docs/local.md, "Efficiencies"): a token's
// time is its bytes at a fraction of peak memory bandwidth plus a fixed time per layer (kernel
// launches and synchronization, which is why an 8B model reads its weights at a lower fraction
// than a 70B one on the same GPU); prompt processing runs matrix multiplies at a fraction of the
// dense fp16 peak. Vulkan, ROCm and SYCL have fewer published tables and are rougher.
struct BackendRates {
  double generation_bandwidth;
  double seconds_per_layer;
  double prompt_compute;
};

BackendRates rates_of(LocalBackend backend) {
  switch (backend) {
    case LocalBackend::cuda:
      return {0.90, 80e-6, 0.80};
    case LocalBackend::metal:
      return {0.85, 200e-6, 0.60};
    case LocalBackend::rocm:
      return {0.80, 100e-6, 0.40};
    case LocalBackend::vulkan:
      return {0.80, 100e-6, 0.40};
    case LocalBackend::sycl:
      return {0.70, 150e-6, 0.30};
    case LocalBackend::cpu:
      return {0.65, 0.0, 0.40};
  }
  return {0.8, 100e-6, 0.4};
}

// Without --cpu: a dual-channel DDR5-5600 desktop (89.6 GB/s) and 1 TFLOP/s of fp32.
constexpr double kDefaultRamBandwidth = 89.6e9;
constexpr double kDefaultCpuFlops = 1e12;
// A host-to-GPU copy when the GPU's link is not in the catalog: PCIe 4.0 x16, 32 GB/s one way.
constexpr double kDefaultPcieBytesPerSecond = 32e9;
constexpr double kPcieEfficiency = 0.8;
// ggml-cuda.cu ggml_backend_cuda_device_offload_op: min_batch_size = 32. A matrix multiply over a
// batch this large runs on the GPU even when its weight lives in RAM; the weight is copied over.
constexpr std::int64_t kOffloadMinBatch = 32;

double gpu_matmul_peak(const Accelerator& gpu) {
  for (ComputeDtype dtype : {ComputeDtype::fp16, ComputeDtype::bf16, ComputeDtype::fp32}) {
    const double peak = peak_flops_per_second(gpu, dtype);
    if (peak > 0) return peak;
  }
  return 0;
}

std::string shortest(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

struct DeviceWork {
  double weight_bytes_per_token = 0;      // generation: weights read for one token
  double kv_bytes_per_cell = 0;           // generation: bytes read per cached token (all its layers)
  std::vector<std::int64_t> layer_cells;  // cells of each of its layers (sliding windows cap them)
  std::vector<double> layer_cell_bytes;
  double weight_bytes_resident = 0;  // prompt: everything it holds, read once per ubatch
  double flops_per_token = 0;        // prompt: 2 x active parameters
  double attention_flops_per_token_per_position = 0;
  std::int64_t layers = 0;  // repeating layers and the output layer it runs
};

}  // namespace

const char* local_backend_name(LocalBackend backend) {
  switch (backend) {
    case LocalBackend::cuda:
      return "cuda";
    case LocalBackend::metal:
      return "metal";
    case LocalBackend::vulkan:
      return "vulkan";
    case LocalBackend::rocm:
      return "rocm";
    case LocalBackend::sycl:
      return "sycl";
    case LocalBackend::cpu:
      return "cpu";
  }
  return "cuda";
}

std::optional<LocalBackend> find_local_backend(std::string_view name) {
  for (LocalBackend b : {LocalBackend::cuda, LocalBackend::metal, LocalBackend::vulkan, LocalBackend::rocm,
                         LocalBackend::sycl, LocalBackend::cpu})
    if (name == local_backend_name(b)) return b;
  if (name == "hip") return LocalBackend::rocm;
  return std::nullopt;
}

LocalBackend default_local_backend(const Accelerator& gpu) {
  const std::string vendor = gpu.vendor;
  if (vendor == "Apple") return LocalBackend::metal;
  if (vendor == "AMD") return LocalBackend::rocm;
  if (vendor == "Intel") return LocalBackend::sycl;
  return LocalBackend::cuda;
}

const char* local_kv_type_name(LocalKvType type) {
  switch (type) {
    case LocalKvType::f16:
      return "f16";
    case LocalKvType::q8_0:
      return "q8_0";
    case LocalKvType::q4_0:
      return "q4_0";
  }
  return "f16";
}

std::optional<LocalKvType> find_local_kv_type(std::string_view name) {
  if (name == "f16" || name == "fp16") return LocalKvType::f16;
  if (name == "q8_0") return LocalKvType::q8_0;
  if (name == "q4_0") return LocalKvType::q4_0;
  return std::nullopt;
}

namespace {

LocalSpeed local_speed(const LocalModel& model, const LocalRequest& request, const LocalPlacement& p,
                       std::vector<std::string>& assumptions) {
  const std::size_t n_gpus = p.devices.size() - 1;
  const BackendRates gpu_rates = rates_of(request.backend);
  const BackendRates cpu_rates = rates_of(LocalBackend::cpu);
  const double touched = model.num_experts > 0 && model.experts_per_token > 0
                             ? static_cast<double>(model.experts_per_token) / static_cast<double>(model.num_experts)
                             : 1.0;
  std::vector<DeviceWork> work(p.devices.size());
  const auto index_of = [&](int device) { return device < 0 ? n_gpus : static_cast<std::size_t>(device); };
  const double attention_width = static_cast<double>(model.num_heads * model.head_dim);
  for (std::size_t il = 0; il < model.layers.size(); ++il) {
    const LocalLayer& layer = model.layers[il];
    DeviceWork& home = work[index_of(p.layer_device[il])];
    DeviceWork& experts =
        work[static_cast<std::int64_t>(il) < request.n_cpu_moe ? n_gpus : index_of(p.layer_device[il])];
    home.layers += 1;
    home.weight_bytes_per_token += static_cast<double>(layer.dense_bytes);
    home.weight_bytes_resident += static_cast<double>(layer.dense_bytes);
    home.flops_per_token += 2.0 * static_cast<double>(layer.dense_parameters);
    // One token reads only the experts it is routed to: experts_per_token of num_experts.
    experts.weight_bytes_per_token += static_cast<double>(layer.expert_bytes) * touched;
    experts.weight_bytes_resident += static_cast<double>(layer.expert_bytes);
    experts.flops_per_token += 2.0 * static_cast<double>(layer.expert_parameters) * touched;
    // The cache is read where it lives (the CPU with -nkvo), and attention runs there.
    DeviceWork& cache = request.kv_offload ? home : work[n_gpus];
    cache.layer_cells.push_back(local_layer_cells(layer, request, p.kv_size));
    cache.layer_cell_bytes.push_back(static_cast<double>(local_layer_kv_bytes(layer, request.kv_type, 1)));
    // QK^T and PV: 2 x 2 x n_head x head_dim FLOPs per token per cached position.
    cache.attention_flops_per_token_per_position += 4.0 * attention_width;
  }
  DeviceWork& output = work[index_of(p.output_device)];
  output.layers += 1;
  output.weight_bytes_per_token += static_cast<double>(model.output_bytes);
  output.weight_bytes_resident += static_cast<double>(model.output_bytes);
  output.flops_per_token += 2.0 * static_cast<double>(model.output_parameters);

  const double ram_bandwidth = request.cpu ? cpu_memory_bandwidth_bytes_per_second(*request.cpu)
                               : (n_gpus > 0 && request.gpus[0].unified_memory)
                                   ? request.gpus[0].memory_bandwidth_bytes_per_second
                                   : kDefaultRamBandwidth;
  const double cpu_flops = request.cpu ? cpu_peak_fp32_flops_per_second(*request.cpu) : kDefaultCpuFlops;
  const bool cpu_work = work.back().weight_bytes_resident > 0;
  if (cpu_work && !request.cpu)
    assumptions.push_back(n_gpus > 0 && request.gpus[0].unified_memory
                              ? "CPU layers read the unified memory at the chip's bandwidth (no --cpu given)"
                              : "CPU layers: no --cpu given, so RAM at 89.6 GB/s (dual-channel DDR5-5600) and "
                                "1 TFLOP/s fp32");
  const auto bandwidth_of = [&](std::size_t d) {
    return d < n_gpus ? request.gpus[d].memory_bandwidth_bytes_per_second * gpu_rates.generation_bandwidth
                      : ram_bandwidth * cpu_rates.generation_bandwidth;
  };
  const auto layer_seconds_of = [&](std::size_t d) {
    return d < n_gpus ? gpu_rates.seconds_per_layer : cpu_rates.seconds_per_layer;
  };
  // One token's time at `filled` cached tokens: each device reads its weights and its layers' KV.
  const auto token_seconds = [&](double filled, std::vector<double>* shares) {
    double total = 0;
    std::vector<double> times(work.size(), 0.0);
    for (std::size_t d = 0; d < work.size(); ++d) {
      double bytes = work[d].weight_bytes_per_token;
      for (std::size_t l = 0; l < work[d].layer_cells.size(); ++l)
        bytes += std::min(filled, static_cast<double>(work[d].layer_cells[l])) * work[d].layer_cell_bytes[l];
      times[d] = bytes > 0 ? bytes / bandwidth_of(d) + static_cast<double>(work[d].layers) * layer_seconds_of(d) : 0;
      total += times[d];
    }
    if (shares)
      for (double t : times) shares->push_back(total > 0 ? t / total : 0);
    return total;
  };

  LocalSpeed s;
  const double prompt = static_cast<double>(request.prompt_len);
  const double generated = static_cast<double>(request.gen_len);
  const double context = static_cast<double>(p.kv_size);
  // Time per token grows linearly with the cache, so the mean over the generated tokens is the
  // time at the middle of them.
  const double middle = std::min(context, prompt + generated / 2);
  s.generation_tokens_per_second = 1.0 / token_seconds(middle, &s.generation_time_share);
  s.generation_tokens_per_second_empty = 1.0 / token_seconds(0, nullptr);
  s.generation_tokens_per_second_full = 1.0 / token_seconds(context, nullptr);

  // Prompt processing: per ubatch, each device either streams its weights or runs its share of the
  // matrix multiplies, whichever is slower. With a discrete GPU, weights left in RAM are copied to
  // the GPU for every ubatch of at least 32 tokens and multiplied there (the op offload).
  const double tokens = std::max(1.0, prompt);
  const double ubatches = std::ceil(tokens / static_cast<double>(request.ubatch));
  const bool op_offload = n_gpus > 0 && request.backend != LocalBackend::metal && request.ubatch >= kOffloadMinBatch &&
                          std::min<std::int64_t>(request.ubatch, request.prompt_len) >= kOffloadMinBatch;
  double prompt_seconds = 0;
  std::vector<double> times(work.size(), 0.0);
  for (std::size_t d = 0; d < work.size(); ++d) {
    const DeviceWork& w = work[d];
    if (w.weight_bytes_resident <= 0 && w.flops_per_token <= 0) continue;
    // Causal attention over the prompt: position i attends to i cached tokens, tokens^2 / 2 in all.
    const double flops = w.flops_per_token * tokens + w.attention_flops_per_token_per_position * tokens * tokens / 2;
    double seconds = 0;
    if (d < n_gpus) {
      const double peak = gpu_matmul_peak(request.gpus[d]) * gpu_rates.prompt_compute;
      seconds = std::max(peak > 0 ? flops / peak : 0, w.weight_bytes_resident * ubatches / bandwidth_of(d));
    } else if (op_offload) {
      const Accelerator& gpu = request.gpus[0];
      const double link = (std::string(gpu.interconnect).find("PCIe") != std::string::npos &&
                           gpu.interconnect_bytes_per_second_per_direction > 0)
                              ? gpu.interconnect_bytes_per_second_per_direction
                              : kDefaultPcieBytesPerSecond;
      const double peak = gpu_matmul_peak(gpu) * gpu_rates.prompt_compute;
      // The input layer's get_rows stays on the CPU; only matrix multiply weights travel.
      const double copied = std::max(0.0, w.weight_bytes_resident - static_cast<double>(model.input_bytes));
      seconds = copied * ubatches / (link * kPcieEfficiency) + (peak > 0 ? flops / peak : 0);
    } else {
      seconds = std::max(flops / (cpu_flops * cpu_rates.prompt_compute),
                         w.weight_bytes_resident * ubatches / bandwidth_of(d));
    }
    times[d] = seconds;
    prompt_seconds += seconds;
  }
  if (op_offload && work.back().weight_bytes_resident > static_cast<double>(model.input_bytes))
    assumptions.push_back(
        "prompt: weights in RAM are copied to the GPU for each ubatch over PCIe (llama.cpp's op offload for "
        "batches of 32 or more)");
  s.prompt_tokens_per_second = prompt_seconds > 0 ? tokens / prompt_seconds : 0;
  for (double t : times) s.prompt_time_share.push_back(prompt_seconds > 0 ? t / prompt_seconds : 0);
  return s;
}

std::string tensor_split_text(const std::vector<double>& split) {
  std::string text;
  for (std::size_t i = 0; i < split.size(); ++i) text += (i ? "," : "") + shortest(split[i]);
  return text;
}

}  // namespace

LocalEstimate estimate_local(const LocalModel& model, const LocalRequest& request) {
  if (request.parallel < 1) throw std::invalid_argument("--parallel: must be at least 1");
  if (request.prompt_len < 0) throw std::invalid_argument("--prompt-len: must be 0 or more");
  if (request.gen_len < 1) throw std::invalid_argument("--gen-len: must be at least 1");
  if (request.kv_type != LocalKvType::f16 && !request.flash_attention)
    // llama_init_from_model: "V cache quantization requires flash_attn".
    throw std::invalid_argument("--kv-dtype: a quantized KV cache (" +
                                std::string(local_kv_type_name(request.kv_type)) +
                                ") needs --flash-attention on; llama.cpp refuses a quantized V cache without it");
  LocalEstimate e;
  e.assumptions = model.assumptions;
  const auto n_layer = static_cast<std::int64_t>(model.layers.size());
  const bool gpus = !request.gpus.empty() && request.backend != LocalBackend::cpu;
  if (request.n_gpu_layers) {
    e.placement = place_local(model, request, *request.n_gpu_layers);
  } else {
    // The most layers whose buffers fit every GPU, as Ollama searches (llm/memory.go
    // EstimateGPULayers), each GPU keeping its minimum free memory.
    std::int64_t ngl = gpus ? n_layer + 1 : 0;
    for (;; --ngl) {
      e.placement = place_local(model, request, ngl);
      bool gpus_fit = true;
      for (std::size_t d = 0; d + 1 < e.placement.devices.size(); ++d)
        gpus_fit = gpus_fit && e.placement.devices[d].fits();
      if (gpus_fit || ngl == 0) break;
    }
  }
  if (gpus)
    e.assumptions.push_back("GPU limit: the device's memory (the macOS working set on Apple silicon) less " +
                            std::to_string(local_gpu_reserve_bytes(request.backend) >> 20) +
                            " MiB kept free, as Ollama keeps");
  if (request.gpus.size() > 1 && e.placement.n_gpu_layers > n_layer)
    e.assumptions.push_back(
        "several GPUs with every layer offloaded: llama.cpp's pipeline parallelism (4 copies of the graph inputs) "
        "adds a little to each compute buffer that is not counted");
  if (gpus && !request.kv_offload)
    e.assumptions.push_back(
        "-nkvo: the KV cache and the attention over it on the CPU; its compute buffers are estimates (KQ moves to "
        "the host buffer)");
  if (gpus && e.placement.n_gpu_layers <= n_layer && request.backend != LocalBackend::metal)
    e.assumptions.push_back(
        "partial offload: the GPU compute buffer may grow by the largest weight copied for the op offload; not "
        "counted");
  e.speed = local_speed(model, request, e.placement, e.assumptions);
  e.assumptions.push_back(std::string("speed: achieved bandwidth and compute fractions for ") +
                          local_backend_name(request.backend) +
                          " from published llama-bench tables (estimates; docs/local.md)");

  std::string command = "llama-server -m " + request.model_path + " -ngl " + std::to_string(e.placement.n_gpu_layers);
  if (!request.tensor_split.empty()) command += " --tensor-split " + tensor_split_text(request.tensor_split);
  if (request.n_cpu_moe > 0) command += " --n-cpu-moe " + std::to_string(request.n_cpu_moe);
  command += " -c " + std::to_string(request.context);
  if (request.parallel > 1) command += " -np " + std::to_string(request.parallel);
  if (request.ubatch != 512) command += " -ub " + std::to_string(request.ubatch);
  command +=
      std::string(" -ctk ") + local_kv_type_name(request.kv_type) + " -ctv " + local_kv_type_name(request.kv_type);
  command += std::string(" -fa ") + (request.flash_attention ? "on" : "off");
  if (!request.kv_offload) command += " -nkvo";
  e.llama_cpp_command = command;
  e.ollama_num_gpu = e.placement.n_gpu_layers;
  e.ollama_num_ctx = request.context / request.parallel;
  return e;
}

}  // namespace fitcheck
