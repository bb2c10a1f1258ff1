// SPDX-License-Identifier: MIT
#include "local_command.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "checkpoint_command.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/local.hpp"
#include "format.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

constexpr const char* kLocalHelp =
    "usage: fitcheck local MODEL --ram-gib N [options]\n"
    "  llama.cpp / Ollama on one machine: which layers go to which GPU, each backend's model, KV and\n"
    "  compute buffers, the most layers that fit, and prompt / generation tokens per second.\n"
    "  MODEL: a config.json (sized with --weights) or a .gguf file (its header only: exact tensor bytes)\n"
    "options:\n"
    "  --gpu NAME[,NAME...]   one entry per GPU, in device order (see 'fitcheck gpus'; custom with\n"
    "                         --custom-gpu-* flags); none: CPU only\n"
    "  --ram-gib N            system RAM for the CPU buffers (required)\n"
    "  --cpu NAME             the CPU whose RAM bandwidth and FLOP/s run CPU layers (see 'fitcheck cpus')\n"
    "  --ram-mts N  --ram-channels N  the RAM as installed (DDR5-6000: 6000), in place of the CPU's\n"
    "                         specification (needs --cpu)\n"
    "  --threads N            llama.cpp's -t (needs --cpu; default: one per performance core,\n"
    "                         one per two on a hybrid Intel part without SMT, as llama.cpp counts them)\n"
    "  --weights FMT          q4_k_m, q8_0, fp16, ... (config.json only; default: the config's own)\n"
    "  --context N            n_ctx over all slots (4096)      --parallel N   slots (1)\n"
    "  --kv-dtype f16|q8_0|q4_0 (f16)   --flash-attention on|off (on)   --kv-offload on|off (on; off = -nkvo)\n"
    "  --mmap on|off (the build's: on, off for b7668-b7852, which read the file with direct I/O; off =\n"
    "                         --no-mmap: weights kept in RAM are pinned, so the GPU copies them faster)\n"
    "  --n-gpu-layers N       as -ngl (default: as llama.cpp's --fit places them, the most that fit\n"
    "                         before b7407)   --n-cpu-moe N   experts of the first N layers stay in RAM\n"
    "  --tensor-split A,B,... shares per GPU (default: by free memory, or --fit's layer counts)\n"
    "  --backend cuda|metal|vulkan|rocm|sycl|cpu (default from the first GPU's vendor)\n"
    "  --cuda-mmq on|off (on; off = quantized weights dequantized for cuBLAS, GGML_CUDA_FORCE_CUBLAS;\n"
    "                         the default off for --llama-cpp-build below b3216, June 2024)\n"
    "  --ubatch N (512)  --batch N (2048: n_batch, the tokens of one llama_decode call; -b)\n"
    "  --llama-cpp-build bN   the llama.cpp release that runs (default: a current one; older builds\n"
    "                         lack Metal's op fusion, b5937, and concurrent encoder, b6460, CUDA graphs,\n"
    "                         b2822, MMQ by default, b3216, MMQ's one block per tile, b8931, and\n"
    "                         --fit's count of the mmproj file, b9251)\n"
    "  --mmproj off|f16|bf16|f32|q8_0 (f16 for a config with vision or audio encoders: llama-server's\n"
    "                         --mmproj file)   --mmproj-offload on|off (on; off = --no-mmproj-offload)\n"
    "  --prompt-len N (512)  --gen-len N (128)  --depth N (0: tokens already cached before the prompt,\n"
    "                         llama-bench -d)  --json\n"
    "  --engine llamacpp|mlx (llamacpp)\n"
    "  --compare-formats      the model at each common GGUF type (f16 .. q2_k) on this machine: size,\n"
    "                         layers offloaded as --fit places them, where it runs, speeds (config.json only;\n"
    "                         with --engine mlx: bf16 and 8 to 3 bits, peak memory and speeds)\n"
    "MLX LM on Apple silicon (--engine mlx; MODEL a config.json): --gpu CHIP (one Apple chip),\n"
    "  --weights 2bit|3bit|4bit|5bit|6bit|8bit|bf16|fp16|fp32 (4bit) --group-size 32|64|128 (64)\n"
    "  --prompt-len N (512) --gen-len N (128) --prefill-step N (2048): peak memory as\n"
    "  mx.get_peak_memory() reports it, prompt and generation tokens/s as mlx_lm.benchmark prints them\n";

std::string mib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(bytes) / 1048576.0);
  return text;
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// The headline: where the model runs, how fast, and what a generated token waits on (the verdict's facts).
void print_local_verdict(const nlohmann::json& r) {
  const auto& v = r["verdict"];
  const std::string runs_on = v["runs_on"].get<std::string>();
  if (runs_on == "does_not_fit") {
    const std::string device = v["short_device"].get<std::string>();
    std::int64_t limit = 0;
    for (const auto& d : r["devices"])
      if (d["name"].get<std::string>() == device) limit = d["limit_bytes"].get<std::int64_t>();
    print("does not fit: %s needs %s more than its limit of %s\n", device,
          gib_and_gb(v["shortfall_bytes"].get<std::int64_t>()), gib_and_gb(limit));
    return;
  }
  const long long on_gpus = v["layers_on_gpus"].get<long long>();
  const long long in_ram = v["layers_in_ram"].get<long long>();
  std::string where = runs_on == "gpus" ? "wholly on the GPU(s)"
                      : runs_on == "cpu"
                          ? "on the CPU, every layer in RAM"
                          : "split: " + std::to_string(on_gpus) + " of " + std::to_string(on_gpus + in_ram) +
                                " layers on the GPU(s), " + std::to_string(in_ram) + " in RAM";
  if (runs_on == "gpus_and_ram" && v["expert_layers_in_ram"].get<long long>() > 0)
    where += ", routed experts of " + std::to_string(v["expert_layers_in_ram"].get<long long>()) + " layers in RAM";
  if (runs_on == "gpus_and_ram" && v["output_in_ram"].get<bool>()) where += ", output layer in RAM";
  char speeds[160];
  std::snprintf(speeds, sizeof speeds, "%.1f tokens/s generating, %.0f tokens/s on the prompt",
                r["generation_tokens_per_second"].get<double>(), r["prompt_tokens_per_second"].get<double>());
  std::string bound;
  if (runs_on == "gpus_and_ram") {
    char text[120];
    const std::string device = v["generation_bound_device"].get<std::string>();
    std::snprintf(text, sizeof text, "; a generated token waits on %s for %.0f%% of its time",
                  device == "CPU" ? "the CPU" : device.c_str(), v["generation_bound_share"].get<double>() * 100);
    bound = text;
  }
  print("runs %s: %s%s\n", where, std::string(speeds), bound);
}

void print_local(const nlohmann::json& r) {
  print_local_verdict(r);
  print("weights: %s\n", r["weights"].get<std::string>());
  const long long experts_in_ram = r["n_cpu_moe"].get<long long>();
  const std::string experts = experts_in_ram > 0
                                  ? "; routed experts of " + std::to_string(experts_in_ram) + " layers in RAM" +
                                        (r["fitted"].get<bool>() ? " (llama.cpp's --fit)" : "")
                                  : std::string();
  print("offloaded %lld/%lld layers to the GPU(s)%s; kv cells %lld%s\n", r["n_gpu_layers"].get<long long>(),
        r["n_layers"].get<long long>(), experts, r["kv_size"].get<long long>(),
        r["fits"].get<bool>() ? "" : "  (DOES NOT FIT: see the devices over their limit)");
  // The recurrent state's column only for a model with recurrent layers (llama.cpp's "RS buffer").
  const bool recurrent = r["recurrent_cells"].get<long long>() > 0;
  print("\n%-10s %8s %14s %14s%s %14s %14s %14s\n", "device", "layers", "model MiB", "KV MiB",
        recurrent ? "         RS MiB" : "", "compute MiB", "total MiB", "limit MiB");
  for (const auto& d : r["devices"]) {
    const auto limit = d["limit_bytes"].get<std::int64_t>();
    const std::string state =
        recurrent ? " " + pad_left(mib(d["recurrent_state_buffer_bytes"].get<std::int64_t>()), 14) : std::string();
    print("%-10s %8lld %14s %14s%s %14s %14s %14s%s\n", d["name"].get<std::string>(), d["layers"].get<long long>(),
          mib(d["model_buffer_bytes"].get<std::int64_t>()), mib(d["kv_buffer_bytes"].get<std::int64_t>()), state,
          mib(d["compute_buffer_bytes"].get<std::int64_t>()), mib(d["total_bytes"].get<std::int64_t>()),
          limit > 0 ? mib(limit) : std::string("-"), d["fits"].get<bool>() ? "" : "  over");
  }
  if (recurrent)
    print("recurrent state: %lld cell(s), one per slot (-np); RS is llama.cpp's recurrent-state buffer\n",
          r["recurrent_cells"].get<long long>());
  const auto& mmproj = r["mmproj"];
  if (mmproj["type"].get<std::string>() != "off")
    print("mmproj (vision/audio encoders, %s): %s MiB on %s, in its total\n", mmproj["type"].get<std::string>(),
          mib(mmproj["bytes"].get<std::int64_t>()), mmproj["device"].get<std::string>());
  char speed[200];
  std::snprintf(speed, sizeof speed,
                "\nprompt: %.1f tokens/s   generation: %.1f tokens/s (empty context %.1f, full %.1f)\n",
                r["prompt_tokens_per_second"].get<double>(), r["generation_tokens_per_second"].get<double>(),
                r["generation_tokens_per_second_empty_context"].get<double>(),
                r["generation_tokens_per_second_full_context"].get<double>());
  print("%s", std::string(speed));
  // The prompt, device by device: what each device's share of the time is made of.
  const auto ms = [](double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
    return std::string(text);
  };
  const double ubatches = r["prompt_ubatches"].get<double>();
  print("prompt, %.0f tokens in %.0f ubatch%s:\n", r["prompt_tokens"].get<double>(), ubatches,
        ubatches == 1 ? "" : "es");
  for (const auto& d : r["devices"]) {
    const auto& t = d["prompt_time"];
    if (t["seconds"].get<double>() <= 0) continue;
    char name[64];
    std::snprintf(name, sizeof name, "  %-10s ", d["name"].get<std::string>().c_str());
    std::string line = name;
    if (t["offloaded"].get<bool>())
      line += "weights copied to " + t["offload_device"].get<std::string>() + " over PCIe " +
              ms(t["offload_copy_seconds"].get<double>()) + " + multiplies there " +
              ms(t["multiply_seconds"].get<double>());
    else
      line += "max(multiplies " + ms(t["multiply_seconds"].get<double>()) + ", weights read " +
              ms(t["weight_read_seconds"].get<double>()) + ")";
    if (t["expert_combine_seconds"].get<double>() > 0)
      line += " + experts' combine " + ms(t["expert_combine_seconds"].get<double>());
    if (t["scores_seconds"].get<double>() > 0) line += " + attention scores " + ms(t["scores_seconds"].get<double>());
    line += " + crossings ";
    line += ms(t["crossing_seconds"].get<double>());
    line += " = ";
    line += ms(t["seconds"].get<double>());
    print("%s\n", line);
  }
  if (r["prompt_pipelined"].get<bool>())
    print("  the GPUs overlap the ubatches (llama.cpp's pipeline): %.2f x faster than their sum\n",
          r["prompt_pipeline_speedup"].get<double>());
  print("generation, one token at the middle of the generated tokens:\n");
  for (const auto& d : r["devices"]) {
    const auto& t = d["generation_token_time"];
    if (t["seconds"].get<double>() <= 0) continue;
    const double read_ms = t["bytes"].get<double>() / t["bandwidth_bytes_per_second"].get<double>() * 1e3;
    const double compute_ms = t["compute_seconds"].get<double>() * 1e3;
    char slower[64] = "";
    if (compute_ms > read_ms) std::snprintf(slower, sizeof slower, " (its multiplies slower: %.3f ms)", compute_ms);
    char line[400];
    std::snprintf(line, sizeof line,
                  "  %-10s %.3f GB at %.2f x %.0f GB/s = %.3f ms%s + %lld ops x %.2f us = %.3f ms + crossings %.3f ms "
                  "+ %lld handoffs %.3f ms = %.3f ms\n",
                  d["name"].get<std::string>().c_str(), t["bytes"].get<double>() / 1e9,
                  t["bandwidth_fraction"].get<double>(),
                  t["bandwidth_bytes_per_second"].get<double>() / t["bandwidth_fraction"].get<double>() / 1e9, read_ms,
                  slower, t["graph_ops"].get<long long>(), t["seconds_per_op"].get<double>() * 1e6,
                  static_cast<double>(t["graph_ops"].get<long long>()) * t["seconds_per_op"].get<double>() * 1e3,
                  t["crossing_seconds"].get<double>() * 1e3, t["handoffs"].get<long long>(),
                  t["handoff_seconds"].get<double>() * 1e3, t["seconds"].get<double>() * 1e3);
    print("%s", std::string(line));
  }
  print("\nllama.cpp: %s\n", r["llama_cpp_command"].get<std::string>());
  std::string environment;
  for (const auto& setting : r["ollama_parameters"]["environment"]) environment += " " + setting.get<std::string>();
  print("ollama:    num_gpu %lld, num_ctx %lld; server environment%s\n",
        r["ollama_parameters"]["num_gpu"].get<long long>(), r["ollama_parameters"]["num_ctx"].get<long long>(),
        environment);
  print("\nassumptions:\n");
  for (const auto& line : r["assumptions"]) print("  - %s\n", line.get<std::string>());
}

void print_mlx(const nlohmann::json& r) {
  print("MLX LM, weights: %s (%.3f bits per weight)\n", r["weights"].get<std::string>(),
        r["bits_per_weight"].get<double>());
  print("\npeak memory (mx.get_peak_memory)                      bytes\n");
  for (const auto& t : r["terms"]) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-44s %16lld  %9.3f GB\n", t["name"].get<std::string>().c_str(),
                  t["bytes"].get<long long>(), static_cast<double>(t["bytes"].get<long long>()) / 1e9);
    print("%s", std::string(line));
    print("      %s\n", t["formula"].get<std::string>());
  }
  char total[200];
  std::snprintf(total, sizeof total, "  %-44s %16lld  %9.3f GB   (GPU working set %.3f GB%s)\n", "peak",
                r["peak_memory_bytes"].get<long long>(),
                static_cast<double>(r["peak_memory_bytes"].get<long long>()) / 1e9,
                static_cast<double>(r["working_set_bytes"].get<long long>()) / 1e9,
                r["fits"].get<bool>() ? "" : ": DOES NOT FIT");
  print("%s", std::string(total));
  const auto& g = r["generation_token_time"];
  const auto& p = r["prompt_time"];
  char speed[600];
  std::snprintf(
      speed, sizeof speed,
      "\nprompt: %.1f tokens/s   generation: %.1f tokens/s\n"
      "generation, one token at the middle: (%.3f GB weights + %.3f GB cache) / (%.3f x %.0f GB/s) + %lld kernels x "
      "%.1f us = %.3f ms\n"
      "prompt: %.3f TFLOP at %.2f x %.1f TFLOP/s + %lld chunk(s) x %.3f ms + first token %.3f ms = %.3f s\n",
      r["prompt_tokens_per_second"].get<double>(), r["generation_tokens_per_second"].get<double>(),
      g["weight_bytes"].get<double>() / 1e9, g["kv_bytes"].get<double>() / 1e9, g["bandwidth_fraction"].get<double>(),
      g["bandwidth_bytes_per_second"].get<double>() / g["bandwidth_fraction"].get<double>() / 1e9,
      g["kernels"].get<long long>(), g["seconds_per_kernel"].get<double>() * 1e6, g["seconds"].get<double>() * 1e3,
      p["flops"].get<double>() / 1e12, p["compute_fraction"].get<double>(),
      p["flops_per_second"].get<double>() / p["compute_fraction"].get<double>() / 1e12, p["chunks"].get<long long>(),
      p["chunk_seconds"].get<double>() * 1e3, p["first_token_seconds"].get<double>() * 1e3, p["seconds"].get<double>());
  print("%s", std::string(speed));
  print("\nmlx: %s\n", r["mlx_command"].get<std::string>());
  print("\nassumptions:\n");
  for (const auto& line : r["assumptions"]) print("  - %s\n", line.get<std::string>());
}

// The formats tables' mark on the row of the request's own weights.
const char* chosen_mark(const nlohmann::json& row) { return row["chosen"].get<bool>() ? "  (chosen)" : ""; }

// Each common weight type on the machine: the model's size, the layers --fit offloads, where it runs, its speeds.
void print_local_formats(const nlohmann::json& r) {
  print("%-10s %12s %16s %-14s %16s %12s\n", "weights", "model GiB", "-ngl", "runs", "generation t/s", "prompt t/s");
  for (const auto& row : r["formats"]) {
    char line[200];
    const long long experts = row["n_cpu_moe"].get<long long>();
    const std::string layers = std::to_string(row["n_gpu_layers"].get<long long>()) + "/" +
                               std::to_string(row["n_layers"].get<long long>()) +
                               (experts > 0 ? " +" + std::to_string(experts) + " moe" : "");
    std::snprintf(line, sizeof line, "%-10s %12.2f %16s %-14s %16.1f %12.0f%s\n",
                  row["weights"].get<std::string>().c_str(), gibibytes(row["model_buffer_bytes"].get<std::int64_t>()),
                  layers.c_str(), row["runs_on"].get<std::string>().c_str(),
                  row["generation_tokens_per_second"].get<double>(), row["prompt_tokens_per_second"].get<double>(),
                  chosen_mark(row));
    print("%s", std::string(line));
  }
  print(
      "each type placed as llama.cpp's --fit places it (-ngl and --n-cpu-moe dropped); +N moe: layers whose routed "
      "experts stay in RAM\n");
}

// MLX LM: each mlx-community conversion on the chip, its peak memory against the working set and its speeds.
void print_mlx_formats(const nlohmann::json& r) {
  print("%-8s %14s %14s %-12s %16s %12s\n", "weights", "weights GiB", "peak GiB", "", "generation t/s", "prompt t/s");
  for (const auto& row : r["formats"]) {
    char line[200];
    std::snprintf(line, sizeof line, "%-8s %14.2f %14.2f %-12s %16.1f %12.0f%s\n",
                  row["weights"].get<std::string>().c_str(), gibibytes(row["weight_bytes"].get<std::int64_t>()),
                  gibibytes(row["peak_memory_bytes"].get<std::int64_t>()),
                  row["fits"].get<bool>() ? "fits" : "DOES NOT FIT", row["generation_tokens_per_second"].get<double>(),
                  row["prompt_tokens_per_second"].get<double>(), chosen_mark(row));
    print("%s", std::string(line));
  }
  print(
      "peak as mx.get_peak_memory() reports it, against the GPU's working set; quantized rows at the group size "
      "given\n");
}

// llama-server loads a GGUF: a config.json's command names the file its conversion would make.
std::string config_stem(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  if (stem.size() > 5 && stem.ends_with(".json")) stem.resize(stem.size() - 5);
  if (stem == "config" || stem == "-" || stem.empty()) stem = "model";
  return stem;
}

}  // namespace

int run_local(const std::vector<std::string>& args) {
  try {
    CommandArgs parsed = parse_command_args(args, "local", {"compare_formats"});
    const auto compare = std::find_if(parsed.options.begin(), parsed.options.end(),
                                      [](const auto& option) { return option.first == "compare_formats"; });
    const bool compare_formats = compare != parsed.options.end();
    if (compare_formats) parsed.options.erase(compare);
    if (parsed.help) {
      put(kLocalHelp, stdout);
      return 0;
    }
    const auto format = checkpoint_format_of(parsed.path);
    if (format && *format != CheckpointFormat::gguf)
      throw std::invalid_argument("local reads a config.json or a .gguf file; '" + parsed.path +
                                  "' is a safetensors file (give its config.json and --weights)");
    std::string report;
    bool mlx = false;
    for (const auto& [key, value] : parsed.options) mlx = mlx || (key == "engine" && value == "mlx");
    if (format && mlx)
      throw OptionError("engine",
                        "option 'engine': MLX loads safetensors with their config.json; give the config.json");
    if (format && compare_formats)
      throw OptionError("compare_formats",
                        "option 'compare-formats': a GGUF file holds one set of types; give the model's config.json");
    if (compare_formats) {
      const std::string formats = local_formats_json(read_input(parsed.path), parsed.options, config_stem(parsed.path));
      if (parsed.json)
        print("%s\n", formats);
      else if (mlx)
        print_mlx_formats(nlohmann::json::parse(formats));
      else
        print_local_formats(nlohmann::json::parse(formats));
      return 0;
    }
    if (format) {
      LocalOptions options = parse_local_options(parsed.options);
      if (options.weights)
        throw OptionError("weights", "option 'weights': a GGUF file states its own tensor types; drop --weights");
      const LocalModel model = local_model_from_gguf(read_checkpoint_header(parsed.path, *format));
      options.request.model_path = parsed.path;
      report = local_report_json(model, estimate_local(model, options.request));
    } else {
      report = local_report_json(read_input(parsed.path), parsed.options, config_stem(parsed.path));
    }
    if (parsed.json)
      print("%s\n", report);
    else if (mlx)
      print_mlx(nlohmann::json::parse(report));
    else
      print_local(nlohmann::json::parse(report));
    return 0;
  } catch (const OptionError& error) {
    put(option_error_line(error), stderr);
  }
  return 2;
}

}  // namespace fitcheck::cli
