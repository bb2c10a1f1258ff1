// SPDX-License-Identifier: MIT
// `fitcheck local` options into a LocalRequest; every refusal names its option.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "config/config_fields.hpp"
#include "fitcheck/local.hpp"
#include "fitcheck/options.hpp"

namespace fitcheck {
namespace {

// An on/off switch: on, true, 1 or off, false, 0; `fallback` when the option is absent.
bool on_off(OptionReader& reader, const char* name, bool fallback) {
  const auto text = reader.text(name);
  if (!text) return fallback;
  if (*text == "on" || *text == "true" || *text == "1") return true;
  if (*text == "off" || *text == "false" || *text == "0") return false;
  throw OptionError(name,
                    std::string("option '") + name + "' must be on or off, got '" + detail::printable(*text) + "'");
}

}  // namespace

LocalOptions parse_local_options(const OptionList& options) {
  OptionReader reader(options);
  LocalOptions out;
  LocalRequest& r = out.request;
  const auto gpu_text = reader.text("gpu");
  const std::vector<std::string> names = gpu_text ? split_option_list(*gpu_text) : std::vector<std::string>{};
  bool custom_named = false;
  for (const std::string& name : names) custom_named = custom_named || is_custom_gpu_name(name);
  const auto custom = read_custom_gpu_options(reader, custom_named);
  if (names.size() > 16) throw OptionError("gpu", "option 'gpu': at most 16 GPUs");
  for (const std::string& name : names) {
    r.gpus.push_back(*resolve_gpu_option("gpu", name, custom));
    if (!default_local_backend(r.gpus.back()))
      throw OptionError("gpu", "option 'gpu': llama.cpp has no backend for " + std::string(r.gpus.back().name) +
                                   "; it runs on " + llama_cpp_devices_text());
  }

  const auto ram = reader.text("ram_gib");
  if (!ram) throw OptionError("ram_gib", "option 'ram_gib' is required: the system RAM that holds the CPU buffers");
  r.ram_bytes = static_cast<std::int64_t>(std::llround(reader.number("ram_gib", 0, 0.5, 1 << 20) * 1073741824.0));
  if (const auto cpu = reader.text("cpu")) {
    const CpuDevice* found = find_cpu(*cpu);
    if (!found)
      throw OptionError("cpu", "option 'cpu': unknown CPU '" + detail::printable(*cpu) + "' (see fitcheck cpus)");
    r.cpu = *found;
  }
  // The installed RAM: its transfer rate (DDR5-6000 is 6000) and populated 64-bit channels, in place
  // of the fastest speed and every channel the CPU's specification allows.
  for (const char* ram_option : {"ram_mts", "ram_channels"})
    if (reader.text(ram_option) && !r.cpu)
      throw OptionError(ram_option, std::string("option '") + ram_option +
                                        "' describes the RAM of the CPU given with --cpu: give --cpu too");
  if (reader.text("threads") && !r.cpu)
    throw OptionError("threads", "option 'threads' is llama.cpp's -t on the CPU given with --cpu: give --cpu too");
  if (reader.text("threads")) r.threads = static_cast<int>(reader.count("threads", 0, 1, 1024));
  if (r.cpu) {
    if (reader.text("ram_mts")) r.cpu->memory_transfers_per_second = reader.number("ram_mts", 0, 200, 20000) * 1e6;
    if (reader.text("ram_channels")) r.cpu->memory_channels = static_cast<int>(reader.count("ram_channels", 0, 1, 24));
  }
  if (const auto weights = reader.text("weights")) {
    const auto format = find_weight_format(*weights);
    if (!format)
      throw OptionError("weights", "option 'weights': unknown weight format '" + detail::printable(*weights) +
                                       "' (e.g. q4_k_m, q8_0, fp16; see fitcheck formats)");
    out.weights = *format;
  }
  out.weight_options.bits = static_cast<int>(reader.count("weight_bits", 4, 2, 8));
  out.weight_options.group_size = reader.count("group_size", 128, -1, 1 << 20);
  if (out.weight_options.group_size == 0)
    throw OptionError("group_size", "option 'group_size' must be -1 (per channel) or positive");

  r.context = reader.count("context", 4096, 1, std::int64_t{1} << 24);
  r.parallel = reader.count("parallel", 1, 1, 256);
  if (r.context < r.parallel)
    throw OptionError("context",
                      "option 'context' is the total over the parallel slots: give at least one token per slot");
  if (const auto kv = reader.text("kv_dtype")) {
    const auto type = find_local_kv_type(*kv);
    if (!type)
      throw OptionError("kv_dtype", "option 'kv_dtype': llama.cpp KV types are f16, q8_0 and q4_0, got '" +
                                        detail::printable(*kv) + "'");
    r.kv_type = *type;
  }
  if (const auto mmproj = reader.text("mmproj")) {
    const auto type = find_local_mmproj_type(*mmproj);
    if (!type)
      throw OptionError("mmproj",
                        "option 'mmproj': the multimodal projector file's type is off, f16, bf16, f32 or "
                        "q8_0, got '" +
                            detail::printable(*mmproj) + "'");
    r.mmproj = *type;
  }
  r.mmproj_offload = on_off(reader, "mmproj_offload", r.mmproj_offload);
  r.flash_attention = on_off(reader, "flash_attention", r.flash_attention);
  r.kv_offload = on_off(reader, "kv_offload", r.kv_offload);
  const bool mmap_given = reader.text("mmap").has_value();
  r.mmap = on_off(reader, "mmap", r.mmap);
  const bool cuda_mmq_given = reader.text("cuda_mmq").has_value();
  r.cuda_mmq = on_off(reader, "cuda_mmq", r.cuda_mmq);
  if (reader.text("n_gpu_layers")) r.n_gpu_layers = reader.count("n_gpu_layers", 0, 0, 100000);
  r.n_cpu_moe = reader.count("n_cpu_moe", 0, 0, 100000);
  if (const auto split = reader.text("tensor_split")) {
    for (const std::string& item : split_option_list(*split)) {
      char* end = nullptr;
      const double share = std::strtod(item.c_str(), &end);
      if (end == item.c_str() || end != item.c_str() + item.size() || !std::isfinite(share) || share < 0)
        throw OptionError("tensor_split",
                          "option 'tensor_split': shares are numbers 0 or more, got '" + detail::printable(item) + "'");
      r.tensor_split.push_back(share);
    }
    if (r.tensor_split.size() != r.gpus.size())
      throw OptionError("tensor_split", "option 'tensor_split': give one share per GPU in --gpu (" +
                                            std::to_string(r.gpus.size()) + ")");
    double sum = 0;
    for (double s : r.tensor_split) sum += s;
    if (!(sum > 0)) throw OptionError("tensor_split", "option 'tensor_split': the shares add up to 0");
  }
  if (const auto backend = reader.text("backend")) {
    const auto found = find_local_backend(*backend);
    if (!found)
      throw OptionError("backend", "option 'backend' must be cuda, metal, vulkan, rocm, sycl or cpu, got '" +
                                       detail::printable(*backend) + "'");
    r.backend = *found;
  } else {
    r.backend = r.gpus.empty() ? LocalBackend::cpu : *default_local_backend(r.gpus.front());
  }
  if (r.backend != LocalBackend::cpu && r.gpus.empty())
    throw OptionError("gpu", "option 'gpu' is required with --backend " + std::string(local_backend_name(r.backend)));
  for (const Accelerator& gpu : r.gpus)
    if (!local_backend_runs_on(r.backend, gpu))
      throw OptionError("backend", "option 'backend': llama.cpp's " + std::string(local_backend_name(r.backend)) +
                                       " backend does not run on " + gpu.name + "; its default there is " +
                                       local_backend_name(*default_local_backend(gpu)) + ", and vulkan runs on it too");
  if (const auto build = reader.text("llama_cpp_build")) {
    // A release tag as llama.cpp prints it (b5937) or its number.
    const std::string digits = !build->empty() && (*build)[0] == 'b' ? build->substr(1) : *build;
    char* end = nullptr;
    const long long number = std::strtoll(digits.c_str(), &end, 10);
    if (digits.empty() || end != digits.c_str() + digits.size() || number < 1 || number > 1000000)
      throw OptionError("llama_cpp_build",
                        "option 'llama_cpp_build': a llama.cpp release such as b5937 or 5937, got '" +
                            detail::printable(*build) + "'");
    r.llama_cpp_build = number;
  }
  if (!cuda_mmq_given) r.cuda_mmq = local_cuda_mmq_by_default(r.llama_cpp_build);
  if (!mmap_given) r.mmap = local_maps_model_file_by_default(r.llama_cpp_build);
  r.ubatch = reader.count("ubatch", 512, 1, 1 << 16);
  r.batch = reader.count("batch", 2048, 1, 1 << 20);
  // llama.cpp would quietly run min(n_batch, n_ubatch) tokens a ubatch (src/llama-context.cpp,
  // llama_context::llama_context); fitcheck asks for a consistent pair instead of guessing which was meant.
  if (r.ubatch > r.batch)
    throw OptionError("ubatch",
                      "option 'ubatch' (" + std::to_string(r.ubatch) + ") is larger than option 'batch' (" +
                          std::to_string(r.batch) +
                          "): llama.cpp would run ubatches of n_batch tokens; give --batch at least --ubatch");
  // A slot holds the cached depth, the prompt and the generated tokens; the defaults (512 and 128)
  // shrink to fit what the depth leaves.
  const std::int64_t slot = r.context / r.parallel;
  const bool depth_given = reader.text("depth").has_value();
  const bool prompt_given = reader.text("prompt_len").has_value();
  const bool gen_given = reader.text("gen_len").has_value();
  r.depth = reader.count("depth", 0, 0, std::int64_t{1} << 24);
  const std::int64_t room = std::max<std::int64_t>(0, slot - r.depth);
  r.prompt_len = reader.count("prompt_len", std::min<std::int64_t>(512, room / 2), 0, std::int64_t{1} << 24);
  r.gen_len = reader.count("gen_len", std::max<std::int64_t>(1, std::min<std::int64_t>(128, room - r.prompt_len)), 1,
                           std::int64_t{1} << 24);
  if (r.depth + r.prompt_len + r.gen_len > slot) {
    const char* blamed = prompt_given ? "prompt_len" : gen_given ? "gen_len" : depth_given ? "depth" : "context";
    throw OptionError(
        blamed,
        "option '" + std::string(blamed) + "': " +
            (r.depth > 0 ? "the cached depth, the prompt and the generated tokens (" + std::to_string(r.depth) + " + "
                         : std::string("the prompt and the generated tokens (")) +
            std::to_string(r.prompt_len) + " + " + std::to_string(r.gen_len) +
            ") must fit in one slot of the context (" + std::to_string(slot) + " tokens: --context / --parallel)");
  }
  reader.finish();
  return out;
}

}  // namespace fitcheck
