// SPDX-License-Identifier: MIT
// Which device holds each layer, and the three buffers each backend allocates, as llama.cpp does it.
// Sources (ggml-org/llama.cpp, commit 001d906a6d86e2490e394361e7cc6f478b100088 unless stated):
//   src/llama-model.cpp load_tensors: i_gpu_start, act_gpu_layers, splits, dev_input/dev_output;
//   src/llama-kv-cache.cpp: one K and one V tensor per layer on the layer's device, ggml_row_size x cells;
//   src/llama-graph.cpp / ggml-alloc.c: the compute buffer is the graph allocator's peak of live tensors.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"

namespace fitcheck {
namespace {

constexpr std::int64_t kMiB = std::int64_t{1} << 20;

std::int64_t pad_to(std::int64_t value, std::int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// ggml_row_size(type, n): whole blocks of the cache type (gguf_type_info: f16 2 bytes a value, q8_0 34
// bytes per 32, q4_0 18 per 32; ggml/src/ggml-common.h).
std::int64_t kv_row_bytes(LocalKvType type, std::int64_t values) {
  const GgufTypeInfo& info = gguf_type_info(type == LocalKvType::q8_0   ? GgufType::q8_0
                                            : type == LocalKvType::q4_0 ? GgufType::q4_0
                                                                        : GgufType::f16);
  return (values + info.block_elements - 1) / info.block_elements * info.block_bytes;
}

std::string device_name(LocalBackend backend, std::size_t index, std::size_t count) {
  switch (backend) {
    case LocalBackend::cuda:
      return "CUDA" + std::to_string(index);
    case LocalBackend::metal:
      return count == 1 ? "Metal" : "Metal" + std::to_string(index);
    case LocalBackend::vulkan:
      return "Vulkan" + std::to_string(index);
    case LocalBackend::rocm:
      return "ROCm" + std::to_string(index);
    case LocalBackend::sycl:
      return "SYCL" + std::to_string(index);
    case LocalBackend::cpu:
      return "CPU";
  }
  return "GPU" + std::to_string(index);
}

}  // namespace

// Ollama reserves a minimum of free memory per GPU before it fits layers (ollama/ollama discover:
// cudaMinimumMemory = rocmMinimumMemory = 457 MiB, metalMinimumMemory = 512 MiB); Vulkan and SYCL
// take the CUDA figure here.
std::int64_t local_gpu_reserve_bytes(LocalBackend backend) {
  return backend == LocalBackend::metal ? 512 * kMiB : 457 * kMiB;
}

// Cells of the cache: n_ctx padded to 256 with flash attention, 32 without
// (llama_kv_cache_unified::get_padding: cparams.flash_attn ? 256u : 32u).
std::int64_t local_kv_size(const LocalRequest& request) {
  return pad_to(request.context, request.flash_attention ? 256 : 32);
}

// Cells a layer's cache holds: a sliding-window layer keeps n_swa + n_ubatch, padded
// (llama_kv_cache_iswa: size_swa = min(size_base, GGML_PAD(n_swa + n_ubatch, n_pad))).
std::int64_t local_layer_cells(const LocalLayer& layer, const LocalRequest& request, std::int64_t kv_size) {
  if (layer.sliding_window <= 0) return kv_size;
  return std::min(kv_size, pad_to(layer.sliding_window + request.ubatch, request.flash_attention ? 256 : 32));
}

std::int64_t local_layer_kv_bytes(const LocalLayer& layer, LocalKvType type, std::int64_t cells) {
  return (kv_row_bytes(type, layer.kv_key_width) + kv_row_bytes(type, layer.kv_value_width)) * cells;
}

std::int64_t local_layer_state_bytes(const LocalLayer& layer) {
  return (layer.recurrent_conv_values + layer.recurrent_state_values) * kLocalF32Bytes;
}

LocalPlacement place_local(const LocalModel& model, const LocalRequest& request, std::int64_t n_gpu_layers) {
  const auto n_layer = static_cast<std::int64_t>(model.layers.size());
  if (n_layer == 0) throw std::invalid_argument("model: no layers to place");
  if (n_gpu_layers < 0) throw std::invalid_argument("--n-gpu-layers: must be 0 or more");
  if (request.context < 1) throw std::invalid_argument("--context: must be at least 1 token");
  if (request.ubatch < 1) throw std::invalid_argument("--ubatch: must be at least 1");
  if (request.n_cpu_moe < 0) throw std::invalid_argument("--n-cpu-moe: must be 0 or more");
  const bool gpus = !request.gpus.empty() && request.backend != LocalBackend::cpu;
  const std::size_t n_devices = gpus ? request.gpus.size() : 0;
  if (!request.tensor_split.empty() && request.tensor_split.size() != request.gpus.size())
    throw std::invalid_argument("--tensor-split: give one share per GPU (" + std::to_string(request.gpus.size()) + ")");

  LocalPlacement p;
  p.n_layers = n_layer + 1;
  p.n_gpu_layers = gpus ? std::min(n_gpu_layers, n_layer + 1) : 0;
  p.n_cpu_moe = request.n_cpu_moe;
  p.kv_size = local_kv_size(request);
  const bool recurrent = std::any_of(model.layers.begin(), model.layers.end(),
                                     [](const LocalLayer& layer) { return local_layer_state_bytes(layer) > 0; });
  p.recurrent_cells = recurrent ? std::max<std::int64_t>(1, request.parallel) : 0;

  // Split points: the given shares, else each device's free memory; cumulative, normalized, in float as
  // llama_model::load_tensors computes them (so a split of whole layer counts lands on its boundaries).
  std::vector<float> splits(n_devices);
  float sum = 0;
  for (std::size_t i = 0; i < n_devices; ++i) {
    const double share = request.tensor_split.empty() ? static_cast<double>(gpu_memory_limit_bytes(request.gpus[i]))
                                                      : request.tensor_split[i];
    if (!(share >= 0) || !std::isfinite(share))
      throw std::invalid_argument("--tensor-split: shares must be finite and 0 or more");
    sum += static_cast<float>(share);
    splits[i] = sum;
  }
  if (n_devices > 0 && !(sum > 0)) throw std::invalid_argument("--tensor-split: the shares add up to 0");
  for (float& s : splits) s /= sum;

  // load_tensors: layers below i_gpu_start stay on the CPU, the last n_gpu_layers go to the GPUs,
  // and "layer" n_layer is the output layer, offloaded only when n_gpu_layers > n_layer.
  const std::int64_t i_gpu_start = std::max<std::int64_t>(n_layer - p.n_gpu_layers, 0);
  const std::int64_t act_gpu_layers = n_devices == 0 ? 0 : std::min(p.n_gpu_layers, n_layer + 1);
  const auto device_of = [&](std::int64_t il) -> int {
    if (il < i_gpu_start || il - i_gpu_start >= act_gpu_layers) return -1;
    const float point = static_cast<float>(il - i_gpu_start) / static_cast<float>(act_gpu_layers);
    const auto at = std::upper_bound(splits.begin(), splits.end(), point) - splits.begin();
    return static_cast<int>(std::min<std::ptrdiff_t>(at, static_cast<std::ptrdiff_t>(n_devices) - 1));
  };
  p.layer_device.resize(static_cast<std::size_t>(n_layer));
  for (std::int64_t il = 0; il < n_layer; ++il) p.layer_device[static_cast<std::size_t>(il)] = device_of(il);
  p.output_device = device_of(n_layer);

  p.devices.resize(n_devices + 1);
  for (std::size_t i = 0; i < n_devices; ++i) {
    p.devices[i].name = device_name(request.backend, i, n_devices);
    p.devices[i].gpu_id = request.gpus[i].id;
    p.devices[i].limit_bytes = gpu_memory_limit_bytes(request.gpus[i]) - local_gpu_reserve_bytes(request.backend);
  }
  LocalDeviceUse& cpu = p.devices.back();
  cpu.name = "CPU";
  cpu.limit_bytes = request.ram_bytes;
  const auto use_of = [&](int device) -> LocalDeviceUse& {
    return device < 0 ? cpu : p.devices[static_cast<std::size_t>(device)];
  };

  // Model buffers. The input layer always stays on the CPU ("there is very little benefit to
  // offloading the input layer"); --n-cpu-moe N overrides ffn_*_exps of blk.0..N-1 to the CPU
  // buffer (common/arg.cpp, llm_ffn_exps_block_regex).
  cpu.model_buffer_bytes += model.input_bytes;
  for (std::int64_t il = 0; il < n_layer; ++il) {
    const LocalLayer& layer = model.layers[static_cast<std::size_t>(il)];
    LocalDeviceUse& home = use_of(p.layer_device[static_cast<std::size_t>(il)]);
    home.model_buffer_bytes += layer.dense_bytes;
    home.layers += 1;
    (il < request.n_cpu_moe ? cpu : home).model_buffer_bytes += layer.expert_bytes;
    // The KV of a layer lives on the layer's device (llama-kv-cache.cpp: dev = offload ? dev_layer(il) : cpu).
    (request.kv_offload ? home : cpu).kv_buffer_bytes +=
        local_layer_kv_bytes(layer, request.kv_type, local_layer_cells(layer, request, p.kv_size));
    // A recurrent layer's state as well (llama-memory-recurrent.cpp: dev_layer(i) when offloaded):
    // r and s, f32, one row per cell.
    (request.kv_offload ? home : cpu).recurrent_state_buffer_bytes +=
        local_layer_state_bytes(layer) * p.recurrent_cells;
  }
  LocalDeviceUse& out = use_of(p.output_device);
  out.model_buffer_bytes += model.output_bytes;
  out.holds_output = true;

  // The mapped span (llama_model_loader::get_mapping_range: the lowest and highest file offsets of
  // the tensors in the CPU buffer; load_tensors maps that whole range as "CPU_Mapped"). GGUF files
  // store output, output_norm and token_embd first, then blk.0 .. blk.N-1 in order (gguf-dump
  // listings of converted models), so the span is the CPU's head and embedding tensors and every
  // block up to the last one holding a CPU tensor, whole.
  std::int64_t last_cpu_block = -1;
  for (std::int64_t il = 0; il < n_layer; ++il) {
    const bool layer_on_cpu = p.layer_device[static_cast<std::size_t>(il)] < 0;
    const bool experts_on_cpu = il < request.n_cpu_moe && model.layers[static_cast<std::size_t>(il)].expert_bytes > 0;
    if (layer_on_cpu || experts_on_cpu) last_cpu_block = il;
  }
  // A file read without mapping (--no-mmap, or the direct I/O of b7668-b7852) has no span: the CPU's tensors sit
  // in the GPU backend's host buffer ("CUDA_Host model buffer"), model_buffer_bytes.
  if (request.mmap) {
    cpu.mapped_model_buffer_bytes = model.input_bytes + (p.output_device < 0 ? model.output_bytes : 0);
    for (std::int64_t il = 0; il <= last_cpu_block; ++il) {
      const LocalLayer& layer = model.layers[static_cast<std::size_t>(il)];
      cpu.mapped_model_buffer_bytes += layer.dense_bytes + layer.expert_bytes;
    }
  }

  // Compute buffers: the graph allocator's peak for the worst-case ubatch (n_tokens = min(n_ctx,
  // n_ubatch)), with in-place reuse (ggml-alloc.c ggml_op_can_inplace: soft_max, add, mul, rope...).
  // Peaks, in f32 unless stated: attention without flash attention holds KQ (n_kv x n_tokens x
  // n_head) beside the mask (n_kv x n_tokens; f16 with flash attention), two hidden-sized tensors
  // (residual, normed input) and two n_head x head_dim wide ones (Q, attention output; wider than
  // the hidden state in models such as Qwen3-30B-A3B, 32 x 128 over 2048); the FFN holds gate and up (n_ff x n_tokens
  // each); the output layer holds the logits (n_vocab x n_tokens) and the normed hidden state.
  // The host buffer holds the inputs: token embeddings and the f32 mask.
  const std::int64_t tokens = std::min(request.ubatch, p.kv_size);
  const std::int64_t mask_rows = pad_to(tokens, 64);  // GGML_KQ_MASK_PAD
  const std::int64_t hidden = model.hidden_size * tokens * kLocalF32Bytes;
  const std::int64_t mask_device = p.kv_size * mask_rows * (request.flash_attention ? kLocalF16Bytes : kLocalF32Bytes);
  const std::int64_t mask_host = p.kv_size * mask_rows * kLocalF32Bytes;
  const std::int64_t kq = request.flash_attention ? 0 : model.num_heads * p.kv_size * tokens * kLocalF32Bytes;
  const std::int64_t query_width = model.head_dim > 0 ? model.num_heads * model.head_dim : model.hidden_size;
  const std::int64_t attention_peak = kq + mask_device + 2 * hidden + 2 * query_width * tokens * kLocalF32Bytes;
  const std::int64_t ffn_width = std::max(model.feed_forward, model.expert_feed_forward * model.experts_per_token);
  const std::int64_t ffn_peak = mask_device + 2 * hidden + 2 * ffn_width * tokens * kLocalF32Bytes +
                                model.num_experts * tokens * kLocalF32Bytes;  // router logits
  std::int64_t output_peak = (model.vocab_size + model.hidden_size) * tokens * kLocalF32Bytes;
  // With flash attention, before b9410 the graph copies the f32 mask to the device and casts it to f16
  // once, before the first layer; the logits land above part of that region, how much of it depends on
  // the allocator's history (Llama 3.1 8B at ubatch 1024: 96 MiB under the logits at n_ctx 16384, none at 4096).
  // Three flash-attention load logs (Llama 3.1 8B on Vulkan, ubatch 1024; GLM-4-32B, ubatch 512;
  // GLM-4.5-Air, ubatch 4096) print the output layer's peak plus the f16 mask plus one to three hidden
  // states; fitcheck adds two (-5%, +3% and 0% on those logs). From b9410 the mask is an f16 input
  // (ggml-org/llama.cpp#23764, build_attn_inp_kq_mask), no cast sits under the logits, and the peak is
  // the logits and the normed state (docs/local.md, "Compute buffers").
  const std::int64_t logits = model.vocab_size * tokens * kLocalF32Bytes;
  const bool f16_mask_input =
      request.flash_attention && local_build_includes(request.llama_cpp_build, kLocalF16MaskInputBuild);
  const bool mask_cast_on_device = request.flash_attention && !f16_mask_input;
  if (mask_cast_on_device && logits > mask_device) output_peak += mask_device + 2 * hidden;
  // A sliding-window model has a second mask for its window layers (build_attn_inp_kv_iswa), over the
  // window's cells.
  std::int64_t window_cells = 0;
  for (const LocalLayer& layer : model.layers)
    if (layer.attention && layer.sliding_window > 0)
      window_cells = std::max(window_cells, local_layer_cells(layer, request, p.kv_size));
  // The host buffer holds the graph inputs: the token embeddings and the masks (f32; from b9410 f16 with
  // flash attention, beside a second hidden-sized input, the window mask not yet checked there).
  const std::int64_t host_input_bytes = f16_mask_input ? 2 * hidden + p.kv_size * mask_rows * kLocalF16Bytes
                                                       : hidden + mask_host + window_cells * mask_rows * kLocalF32Bytes;
  // Without KV offload the attention over the cache runs on the CPU, beside the cache.
  const bool any_layers_on_gpu =
      std::any_of(p.devices.begin(), p.devices.end() - 1, [](const LocalDeviceUse& d) { return d.layers > 0; });
  for (LocalDeviceUse& d : p.devices) {
    const bool is_cpu = &d == &cpu;
    std::int64_t peak = 0;
    if (d.layers > 0) peak = request.kv_offload || is_cpu ? std::max(attention_peak, ffn_peak) : ffn_peak;
    if (is_cpu && !request.kv_offload && any_layers_on_gpu) peak = std::max(peak, attention_peak);
    if (d.holds_output) peak = std::max(peak, output_peak);
    d.compute_buffer_bytes = peak;
  }
  cpu.compute_buffer_bytes = std::max(cpu.compute_buffer_bytes, host_input_bytes);
  // Before b9410, flash attention casts the f32 mask to f16 on the device of the first layer that reads it
  // (build_attn_inp_kv: ggml_cast; the f32 mask is that split's input copy), just before the layer's
  // attention: the copy, the cast and that attention's tensors are live together, and a sliding-window
  // model's two window masks with them. Hand-run dry runs of b6567 (scripts/llama-cpp-dry-run) print exactly
  // this at n_ctx 131072: Llama 3.1 8B 416.01 and 832.02 MiB at ubatch 512 and 1024, gpt-oss-20b 413.52 and
  // 1672.08 (the latter also the Metal load log of b7217 in the validation set).
  const auto first_attention =
      std::find_if(model.layers.begin(), model.layers.end(), [](const LocalLayer& layer) { return layer.attention; });
  if (mask_cast_on_device && request.kv_offload && first_attention != model.layers.end()) {
    const int cast_device = p.layer_device[static_cast<std::size_t>(first_attention - model.layers.begin())];
    if (cast_device >= 0) {
      const std::int64_t window_mask_bytes = window_cells * mask_rows * (kLocalF32Bytes + kLocalF16Bytes);
      LocalDeviceUse& d = p.devices[static_cast<std::size_t>(cast_device)];
      d.compute_buffer_bytes = std::max(d.compute_buffer_bytes, attention_peak + mask_host + window_mask_bytes);
    }
  }

  // The op offload (local_rules.hpp): over a batch of 32 tokens or more the first GPU runs the ops whose
  // weights stay in RAM (the layers below -ngl, the experts --n-cpu-moe keeps, the head when the output layer
  // stays), and with them the attention of those layers, their K and V copied from the host cache. Each such
  // weight is copied in a split of its own (ggml-backend.cpp ggml_backend_sched_split_graph starts a new split at
  // a weight of another backend, "so the memory of the previously offloaded weights can be reused"), so the
  // GPU holds one at a time, with the op's input and output. The host buffer keeps the graph inputs only.
  // An LM Studio load log of a Qwen3-8B Q8_0 file (Nemeca99/AIOS d224de02) prints exactly the head's copy +
  // logits + normed state at -ngl 0 (630.59 + 296.75 + 8 = 935.34 MiB), and at -ngl 19 and n_ctx 131072
  // 9240 MiB where this gives a layer's attention peak plus its cache, 8992 (docs/local.md).
  const auto with_activations = [&](const LocalMatrix& m, std::int64_t slots) {
    return m.bytes + (m.rows + m.columns) * slots * tokens * kLocalF32Bytes;
  };
  bool weights_in_ram = p.output_device < 0;
  std::int64_t offload_peak_bytes = weights_in_ram ? with_activations(model.head_matrix, 1) : 0;
  for (std::int64_t il = 0; il < n_layer; ++il) {
    const LocalLayer& layer = model.layers[static_cast<std::size_t>(il)];
    const bool layer_in_ram = p.layer_device[static_cast<std::size_t>(il)] < 0;
    if (layer_in_ram) {
      const std::int64_t kv_copy_bytes =
          local_layer_kv_bytes(layer, request.kv_type, local_layer_cells(layer, request, p.kv_size));
      offload_peak_bytes = std::max({offload_peak_bytes, ffn_peak, with_activations(layer.largest_dense_matrix, 1)});
      if (layer.attention) offload_peak_bytes = std::max(offload_peak_bytes, attention_peak + kv_copy_bytes);
    }
    const bool experts_in_ram = (layer_in_ram || il < request.n_cpu_moe) && layer.largest_expert_matrix.bytes > 0;
    if (experts_in_ram)
      offload_peak_bytes =
          std::max(offload_peak_bytes,
                   with_activations(layer.largest_expert_matrix, std::max<std::int64_t>(1, model.experts_per_token)));
    weights_in_ram = weights_in_ram || layer_in_ram || experts_in_ram;
  }
  p.op_offload_copies = weights_in_ram && request.kv_offload && local_op_offload(request, tokens);
  if (p.op_offload_copies) {
    p.devices[0].compute_buffer_bytes = std::max(p.devices[0].compute_buffer_bytes, offload_peak_bytes);
    cpu.compute_buffer_bytes = host_input_bytes;
  }

  // The multimodal projector file: clip.cpp loads every tensor of it into one buffer of its backend, the
  // first GPU device (clip_ctx: ggml_backend_init_by_type(GPU); clip_model_loader::load_tensors) unless
  // --no-mmproj-offload keeps it on the CPU (common/arg.cpp; mtmd_context_params.use_gpu).
  p.mmproj = local_resolved_mmproj(model, request);
  const std::int64_t mmproj_bytes = local_mmproj_bytes(model.encoder_parameters, p.mmproj);
  if (mmproj_bytes > 0) {
    p.mmproj_device = request.mmproj_offload && n_devices > 0 ? 0 : static_cast<int>(n_devices);
    p.devices[static_cast<std::size_t>(p.mmproj_device)].mmproj_buffer_bytes = mmproj_bytes;
  }

  // Apple silicon: the GPU's buffers and the CPU's come out of one unified memory.
  if (n_devices > 0 && request.gpus[0].unified_memory && request.ram_bytes > 0) {
    std::int64_t gpu_bytes = 0;
    for (std::size_t i = 0; i < n_devices; ++i) gpu_bytes += p.devices[i].total_bytes();
    cpu.limit_bytes = std::max<std::int64_t>(1, request.ram_bytes - gpu_bytes);
  }
  p.fits = std::all_of(p.devices.begin(), p.devices.end(), [](const LocalDeviceUse& d) { return d.fits(); });
  return p;
}

}  // namespace fitcheck
