// SPDX-License-Identifier: MIT
// The most layers that fit, and the commands that reproduce a placement; its speed is local_speed.cpp's.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fitcheck/local.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
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

const char* local_mmproj_type_name(LocalMmprojType type) {
  switch (type) {
    case LocalMmprojType::off:
      return "off";
    case LocalMmprojType::f32:
      return "f32";
    case LocalMmprojType::f16:
      return "f16";
    case LocalMmprojType::bf16:
      return "bf16";
    case LocalMmprojType::q8_0:
      return "q8_0";
  }
  return "off";
}

std::optional<LocalMmprojType> find_local_mmproj_type(std::string_view name) {
  for (LocalMmprojType t :
       {LocalMmprojType::off, LocalMmprojType::f32, LocalMmprojType::f16, LocalMmprojType::bf16, LocalMmprojType::q8_0})
    if (name == local_mmproj_type_name(t)) return t;
  if (name == "fp16") return LocalMmprojType::f16;
  if (name == "fp32") return LocalMmprojType::f32;
  return std::nullopt;
}

std::int64_t local_mmproj_bytes(std::int64_t parameters, LocalMmprojType type) {
  if (type == LocalMmprojType::off) return 0;
  const GgufTypeInfo& info = gguf_type_info(type == LocalMmprojType::f32    ? GgufType::f32
                                            : type == LocalMmprojType::q8_0 ? GgufType::q8_0
                                                                            : GgufType::f16);  // bf16: 2 B as f16
  return (parameters + info.block_elements - 1) / info.block_elements * info.block_bytes;
}

LocalMmprojType local_resolved_mmproj(const LocalModel& model, const LocalRequest& request) {
  if (!request.mmproj) return model.encoder_parameters > 0 ? LocalMmprojType::f16 : LocalMmprojType::off;
  if (*request.mmproj != LocalMmprojType::off && model.encoder_parameters == 0)
    throw OptionError("mmproj",
                      "option 'mmproj': this model has no vision or audio encoder to load (a .gguf holds the "
                      "language model only; size the encoders from the model's config.json)");
  return *request.mmproj;
}

const char* local_matmul_path_name(LocalMatmulPath path) {
  switch (path) {
    case LocalMatmulPath::mmq:
      return "mmq";
    case LocalMatmulPath::cublas_f16:
      return "cublas_f16";
    case LocalMatmulPath::cublas_bf16:
      return "cublas_bf16";
    case LocalMatmulPath::cublas_f32:
      return "cublas_f32";
    case LocalMatmulPath::cublas_f16_f32acc:
      return "cublas_f16_f32acc";
  }
  return "mmq";
}

namespace {

// ggml-org/llama.cpp#16653 (merged 2025-12-15, build 7407): llama_params_fit, on by default (common.h fit_params),
// leaving fit_params_target = 1024 MiB free on every device.
constexpr std::int64_t kFitBuild = 7407;
constexpr std::int64_t kFitFreeTargetBytes = std::int64_t{1024} << 20;
// ggml-org/llama.cpp#21489 (merged 2026-05-20, build 9251): --fit counts the mmproj file (mtmd_get_memory_usage).
// Before it llama-server loaded the encoders after fitting the model, so a vision model's placement could leave
// the first GPU short by the mmproj (#18181: a CUDA malloc failure at warmup).
constexpr std::int64_t kFitMmprojBuild = 9251;

std::string tensor_split_text(const std::vector<double>& split) {
  std::string text;
  for (std::size_t i = 0; i < split.size(); ++i) text += (i ? "," : "") + detail::as_given(split[i]);
  return text;
}

}  // namespace

LocalEstimate estimate_local(const LocalModel& model, const LocalRequest& request) {
  if (request.parallel < 1) throw std::invalid_argument("--parallel: must be at least 1");
  if (request.prompt_len < 0) throw std::invalid_argument("--prompt-len: must be 0 or more");
  if (request.gen_len < 1) throw std::invalid_argument("--gen-len: must be at least 1");
  if (request.depth < 0) throw std::invalid_argument("--depth: must be 0 or more");
  if (request.kv_type != LocalKvType::f16 && !request.flash_attention)
    // llama_init_from_model: "V cache quantization requires flash_attn".
    throw std::invalid_argument("--kv-dtype: a quantized KV cache (" +
                                std::string(local_kv_type_name(request.kv_type)) +
                                ") needs --flash-attention on; llama.cpp refuses a quantized V cache without it");
  LocalEstimate e;
  e.backend = request.backend;
  e.mmap = request.mmap;
  e.assumptions = model.assumptions;
  const auto n_layer = static_cast<std::int64_t>(model.layers.size());
  const bool gpus = !request.gpus.empty() && request.backend != LocalBackend::cpu;
  // llama.cpp's --fit (common/fit.cpp common_params_fit_impl; on by default from b7407, ggml-org/llama.cpp#16653):
  // with -ngl, --n-cpu-moe (tensor overrides) and, over several GPUs, --tensor-split unset, a MoE model that does
  // not fit but whose dense weights do, with every routed expert in RAM, keeps all its layers on the GPU(s) and
  // moves the routed experts of whole layers to RAM, as few as leave each GPU its free-memory target.
  const bool fit_active = gpus && !request.n_gpu_layers && request.n_cpu_moe == 0 && request.tensor_split.empty() &&
                          local_build_includes(request.llama_cpp_build, kFitBuild);
  const bool fit_rule = fit_active && model.num_experts > 0;
  // Builds before kFitMmprojBuild fit the model without its mmproj file.
  const bool fit_counts_mmproj = local_build_includes(request.llama_cpp_build, kFitMmprojBuild);
  // Whether GPU d's buffers (its mmproj buffer counted or not) leave `margin_bytes` below its limit (an unchecked
  // limit, 0, always does), and every GPU's. --fit counts the mmproj where its build does.
  const auto gpu_fits = [](const LocalPlacement& p, std::size_t d, std::int64_t margin_bytes, bool with_mmproj) {
    const LocalDeviceUse& use = p.devices[d];
    const std::int64_t counted = use.total_bytes() - (with_mmproj ? 0 : use.mmproj_buffer_bytes);
    return use.limit_bytes == 0 || counted <= use.limit_bytes - margin_bytes;
  };
  const auto gpus_fit = [&](const LocalPlacement& p, std::int64_t margin_bytes, bool with_mmproj) {
    for (std::size_t d = 0; d + 1 < p.devices.size(); ++d)
      if (!gpu_fits(p, d, margin_bytes, with_mmproj)) return false;
    return true;
  };
  // fit_params_target left free on each device, counted here from the limit (the device's memory less the
  // runtime's reserve) rather than from the driver's free memory.
  const std::int64_t fit_margin_bytes = kFitFreeTargetBytes - local_gpu_reserve_bytes(request.backend);
  if (fit_rule) {
    const auto with_experts_in_ram = [&](std::int64_t layers) {
      LocalRequest experts_in_ram = request;
      experts_in_ram.n_cpu_moe = layers;
      return place_local(model, experts_in_ram, n_layer + 1);
    };
    if (!gpus_fit(with_experts_in_ram(0), fit_margin_bytes, fit_counts_mmproj) &&
        gpus_fit(with_experts_in_ram(n_layer), fit_margin_bytes, fit_counts_mmproj)) {
      // The fewest layers with experts in RAM; memory falls as the count grows.
      std::int64_t low = 0, high = n_layer;  // low does not fit, high does
      while (high - low > 1) {
        const std::int64_t mid = (low + high) / 2;
        (gpus_fit(with_experts_in_ram(mid), fit_margin_bytes, fit_counts_mmproj) ? high : low) = mid;
      }
      e.placement = with_experts_in_ram(high);
      e.placement.fitted = true;
      e.assumptions.push_back("placement: llama.cpp's --fit (on by default from b" + std::to_string(kFitBuild) +
                              ", common/fit.cpp): every layer on the GPU(s), the routed experts of " +
                              std::to_string(high) + " of " + std::to_string(n_layer) +
                              " layers in RAM, the fewest that leave each GPU " +
                              std::to_string(kFitFreeTargetBytes >> 20) +
                              " MiB free; --fit moves the last layers' experts, --n-cpu-moe the first layers' (the "
                              "same bytes; the command uses --n-cpu-moe); Ollama's num_gpu is the most whole layers "
                              "that fit (Ollama 0.30 and later run llama-server, whose --fit places the experts so "
                              "when num_gpu is unset)");
    }
  }
  // --fit for a dense model, or a MoE model whose dense weights do not fit with every routed expert in RAM
  // (common/fit.cpp, step 3): when offloading everything leaves a GPU under its free-memory target, the GPUs are
  // filled back to front, the last one (which takes the model's last layers) first, each with as many of the
  // remaining layers as leave it the target; a MoE model's routed experts all stay in RAM. -ngl is their sum and
  // --tensor-split their counts.
  std::vector<double> fit_split;
  if (fit_active && !e.placement.fitted) {
    if (!gpus_fit(place_local(model, request, n_layer + 1), fit_margin_bytes, fit_counts_mmproj)) {
      LocalRequest fill = request;
      if (model.num_experts > 0) fill.n_cpu_moe = n_layer;
      const std::size_t n_gpus = request.gpus.size();
      std::vector<std::int64_t> counts(n_gpus, 0);
      const auto place_counts = [&](const std::vector<std::int64_t>& layers) {
        std::int64_t total = 0;
        for (std::int64_t n : layers) total += n;
        if (n_gpus > 1 && total > 0) fill.tensor_split.assign(layers.begin(), layers.end());
        LocalPlacement placement = place_local(model, fill, total);
        fill.tensor_split.clear();
        return placement;
      };
      std::int64_t unassigned = n_layer + 1;
      for (std::size_t d = n_gpus; d-- > 0;) {
        // The most of the unassigned layers device d takes; its memory grows with them.
        const auto fits_with = [&](std::int64_t layers) {
          std::vector<std::int64_t> trial = counts;
          trial[d] = layers;
          return gpu_fits(place_counts(trial), d, fit_margin_bytes, fit_counts_mmproj);
        };
        std::int64_t low = 0, high = unassigned;  // low fits (or is 0), high is the most it could take
        if (fits_with(high)) {
          low = high;
        } else {
          while (high - low > 1) {
            const std::int64_t mid = (low + high) / 2;
            (fits_with(mid) ? low : high) = mid;
          }
        }
        counts[d] = low;
        unassigned -= low;
      }
      e.placement = place_counts(counts);
      e.placement.fitted = true;
      if (n_gpus > 1 && e.placement.n_gpu_layers > 0) fit_split.assign(counts.begin(), counts.end());
      std::string per_gpu;
      for (std::size_t d = 0; d < n_gpus; ++d)
        per_gpu += (d ? ", " : "") + std::to_string(counts[d]) + " on " + e.placement.devices[d].name;
      e.assumptions.push_back(
          "placement: llama.cpp's --fit (on by default from b" + std::to_string(kFitBuild) +
          ", common/fit.cpp): offloading every layer leaves a GPU under " + std::to_string(kFitFreeTargetBytes >> 20) +
          " MiB free, so the GPUs are filled from the last, which takes the model's last layers, each with the most "
          "of the remaining layers that leave it " +
          std::to_string(kFitFreeTargetBytes >> 20) + " MiB (" + per_gpu + ")" +
          (model.num_experts > 0 ? ", every routed expert in RAM (its dense weights do not fit with them there)" : "") +
          "; the command writes that placement out, and Ollama 0.30 and later reach it with num_gpu unset "
          "(llama-server's --fit)");
    }
  }
  // The most layers whose buffers fit every GPU, as Ollama searches (llm/memory.go EstimateGPULayers), each GPU
  // keeping its minimum free memory: Ollama's own search before 0.30, and its num_gpu (whole layers) after --fit too.
  const auto most_layers = [&] {
    LocalPlacement placement;
    for (std::int64_t ngl = gpus ? n_layer + 1 : 0;; --ngl) {
      placement = place_local(model, request, ngl);
      if (gpus_fit(placement, 0, true) || ngl == 0) return placement;
    }
  };
  std::int64_t ollama_layers = 0;
  if (e.placement.fitted) {
    ollama_layers = most_layers().n_gpu_layers;
  } else if (fit_active) {
    // --fit found every layer fits with its margin ("no changes needed"): all of them are offloaded.
    e.placement = place_local(model, request, n_layer + 1);
    ollama_layers = most_layers().n_gpu_layers;
  } else {
    e.placement = request.n_gpu_layers ? place_local(model, request, *request.n_gpu_layers) : most_layers();
    ollama_layers = e.placement.n_gpu_layers;
  }
  if (fit_active && !fit_counts_mmproj && e.placement.mmproj != LocalMmprojType::off)
    e.assumptions.push_back(
        "mmproj and --fit: llama.cpp builds before b" + std::to_string(kFitMmprojBuild) +
        " (ggml-org/llama.cpp#21489) fit the model's layers without the mmproj file, which llama-server loads after "
        "them, so the placement may leave the GPU holding it short (ggml-org/llama.cpp#18181: a CUDA malloc failure "
        "at warmup); set -ngl, or use a later build");
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
  if (e.placement.op_offload_copies)
    e.assumptions.push_back(
        "partial offload: the first GPU runs the prompt's ops of the weights in RAM (llama.cpp's op offload, "
        "batches of 32 tokens or more), one weight copied at a time; its compute buffer holds the largest copy "
        "with its input and output, and the host's only the graph inputs");
  const LocalPlacement& placed = e.placement;
  if (placed.mmproj != LocalMmprojType::off) {
    const LocalDeviceUse& holder = placed.devices[static_cast<std::size_t>(placed.mmproj_device)];
    e.assumptions.push_back(
        "mmproj: the vision/audio encoders and their projectors (" + std::to_string(model.encoder_parameters) +
        " parameters) as llama.cpp's multimodal projector file (convert_hf_to_gguf.py --mmproj), " +
        local_mmproj_type_name(placed.mmproj) + ": " + std::to_string(holder.mmproj_buffer_bytes) + " B on " +
        holder.name +
        " (clip.cpp loads the whole file into one buffer of the first GPU; --no-mmproj-offload keeps it in RAM; "
        "Ollama counts a vision model's projector weights on its first GPU too, llm/memory.go); "
        "norms and biases, which the converter stores in f32, are counted at the file's type, and a converter that "
        "drops encoder layers past the one the model reads from (LLaVA) writes fewer; the encoder's compute buffer "
        "(sized by clip.cpp's warmup image) and the time to encode an image are not counted");
  } else if (model.encoder_parameters > 0) {
    e.assumptions.push_back("mmproj off: the vision/audio encoders (" + std::to_string(model.encoder_parameters) +
                            " parameters) are not loaded; llama-server loads them only with --mmproj FILE");
  }
  if (placed.recurrent_cells > 0) {
    std::int64_t layers = 0, conv = 0, state = 0;
    for (const LocalLayer& layer : model.layers) {
      if (local_layer_state_bytes(layer) == 0) continue;
      layers += 1;
      conv = layer.recurrent_conv_values;
      state = layer.recurrent_state_values;
    }
    const std::int64_t total = placed.recurrent_state_bytes();
    e.assumptions.push_back(
        "recurrent state: " + std::to_string(layers) + " state-space/linear-attention layers x (" +
        std::to_string(conv) + " conv + " + std::to_string(state) + " state values) x 4 B (f32) x " +
        std::to_string(placed.recurrent_cells) + " cell" + (placed.recurrent_cells > 1 ? "s" : "") + " = " +
        std::to_string(total) +
        " B, the \"RS buffer\" beside each layer's KV (llama_memory_recurrent: one cell per sequence, --parallel; "
        "it does not grow with the context); llama-server without -np runs 4 slots (ggml-org/llama.cpp#16736), "
        "so the command sets -np");
  }
  if (gpus && request.backend == LocalBackend::cuda && !request.cuda_mmq)
    e.assumptions.push_back(
        "--cuda-mmq off: quantized weights are dequantized to f16 for cuBLAS on every prompt ubatch (a "
        "GGML_CUDA_FORCE_CUBLAS build, or a llama.cpp build before b3216, ggml-org/llama.cpp#8075, which made MMQ the "
        "default; --llama-cpp-build below it sets this)");
  if (request.depth > 0)
    e.assumptions.push_back("depth: " + std::to_string(request.depth) +
                            " tokens already in the cache (llama-bench -d): the prompt attends them before its own, "
                            "and generation runs after depth + prompt tokens");
  if (gpus && !local_maps_model_file_by_default(request.llama_cpp_build))
    e.assumptions.push_back(local_direct_io_default_rule());
  e.speed = local_speed(model, request, e.placement, e.assumptions);
  e.verdict = local_verdict(e.placement, e.speed);
  e.assumptions.push_back(local_backend_rates_rule(request.backend));

  std::string command = "llama-server -m " + request.model_path + " -ngl " + std::to_string(e.placement.n_gpu_layers);
  if (!request.tensor_split.empty()) command += " --tensor-split " + tensor_split_text(request.tensor_split);
  if (!fit_split.empty()) command += " --tensor-split " + tensor_split_text(fit_split);
  if (e.placement.n_cpu_moe > 0) command += " --n-cpu-moe " + std::to_string(e.placement.n_cpu_moe);
  command += " -c " + std::to_string(request.context);
  // A recurrent model's state takes a cell per slot, so the slots are written out even when 1.
  if (request.parallel > 1 || placed.recurrent_cells > 0) command += " -np " + std::to_string(request.parallel);
  if (request.ubatch != 512) command += " -ub " + std::to_string(request.ubatch);
  if (request.batch != 2048) command += " -b " + std::to_string(request.batch);
  if (request.threads) command += " -t " + std::to_string(*request.threads);
  command +=
      std::string(" -ctk ") + local_kv_type_name(request.kv_type) + " -ctv " + local_kv_type_name(request.kv_type);
  command += std::string(" -fa ") + (request.flash_attention ? "on" : "off");
  if (!request.kv_offload) command += " -nkvo";
  // Written where it differs from the build's default (--mmap also turns off the direct I/O of b7668-b7852).
  if (request.mmap != local_maps_model_file_by_default(request.llama_cpp_build))
    command += request.mmap ? " --mmap" : " --no-mmap";
  if (placed.mmproj != LocalMmprojType::off) {
    command += " --mmproj mmproj-" + request.model_name + "-" + local_mmproj_type_name(placed.mmproj) + ".gguf";
    if (!request.mmproj_offload) command += " --no-mmproj-offload";
  }
  e.llama_cpp_command = command;
  e.ollama_num_gpu = ollama_layers;
  e.ollama_num_ctx = request.context / request.parallel;
  // envconfig: FlashAttention = Bool("OLLAMA_FLASH_ATTENTION"), KvCacheType = String("OLLAMA_KV_CACHE_TYPE")
  // (empty: f16), NumParallel = Uint("OLLAMA_NUM_PARALLEL"); written out whatever a version's default.
  e.ollama_environment.push_back(std::string("OLLAMA_FLASH_ATTENTION=") + (request.flash_attention ? "1" : "0"));
  if (request.kv_type != LocalKvType::f16)
    e.ollama_environment.push_back(std::string("OLLAMA_KV_CACHE_TYPE=") + local_kv_type_name(request.kv_type));
  e.ollama_environment.push_back("OLLAMA_NUM_PARALLEL=" + std::to_string(request.parallel));
  std::string no_ollama;
  if (e.placement.n_cpu_moe > 0 && !e.placement.fitted) no_ollama += "--n-cpu-moe, ";
  if (!request.tensor_split.empty()) no_ollama += "--tensor-split (Ollama splits by free memory), ";
  if (!request.kv_offload) no_ollama += "-nkvo, ";
  if (!no_ollama.empty())
    e.assumptions.push_back("Ollama has no setting for " + no_ollama.substr(0, no_ollama.size() - 2) +
                            " (ollama/ollama api/types.go Options, envconfig): its parameters reproduce the layers "
                            "and the context only");
  // Ollama decides the mapping itself unless use_mmap is set (server/sched.go disableMmapDefaultReason,
  // ollama/ollama fb307609): off for CPU-only runs, on Windows with CUDA, and for Metal partial offload.
  const bool copies_weights = std::any_of(e.speed.prompt_time.begin(), e.speed.prompt_time.end(),
                                          [](const LocalPromptTime& part) { return part.offload_copy_seconds > 0; });
  if (copies_weights && request.mmap && request.backend == LocalBackend::cuda)
    e.assumptions.push_back(
        "Ollama reads the model file without mapping on Windows with CUDA unless use_mmap is set "
        "(ollama/ollama server/sched.go disableMmapDefaultReason): there its prompts copy the weights in RAM from "
        "pinned memory, as --mmap off gives");
  return e;
}

}  // namespace fitcheck
