// SPDX-License-Identifier: MIT
// fitcheck: the command-line face of the estimation core.
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkpoint_command.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/memory.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "format.hpp"
#include "infer_command.hpp"
#include "local_command.hpp"
#include "plan_training_command.hpp"
#include "read_input.hpp"
#include "serve_sim_command.hpp"
#include "train_command.hpp"
#include "transformer_mem_command.hpp"

namespace {

using namespace fitcheck;

constexpr const char* usage_text =
    "usage: fitcheck <command> [options]\n"
    "\n"
    "commands:\n"
    "  params CONFIG.json [--json]   exact parameter count and breakdown (CONFIG may be - for stdin)\n"
    "  params MODEL [--json]         a weight file's header: model.gguf, model.safetensors or\n"
    "      model.safetensors.index.json (tensors, types, exact bytes, hyperparameters; weights unread)\n"
    "  infer CONFIG.json [options]   inference memory per GPU and capacity (fitcheck infer --help); options:\n"
    "      --weights FORMAT (bf16, fp8, q4_k_m, gptq, awq, nf4, mxfp4...; see 'formats')\n"
    "      --kv-dtype D (bf16, fp16, fp32, fp8, int8, int4)  --batch N  --context N (tokens per sequence)\n"
    "      --tp N --pp N --ep N  --gpu NAME (see 'gpus'; or custom)  --gpu-memory-utilization F (0.9)\n"
    "      --prefill-chunk N  --kv-block N (16 = paged)  --overhead-gib F (1)  --eager-attention\n"
    "      --weight-bits N --group-size N (GPTQ/AWQ)  --json\n"
    "      --images N [--image-width N --image-height N] (Gemma-3, Qwen2-VL, Qwen3-VL, Llama 4, LLaVA(-NeXT),\n"
    "      PaliGemma, Mistral-3, Idefics3/SmolVLM, InternVL, Phi-4-multimodal: image tokens join prompts;\n"
    "      Llama 3.2 Vision: they are its cross-attention layers' keys and values, held per sequence)\n"
    "      with --gpu, latency too: --prompt-len N --gen-len N --flops-efficiency F --hbm-efficiency F\n"
    "      --interconnect-efficiency F --price-per-gpu-hour X --fp8-activations true|false\n"
    "      --moe-dispatcher alltoall|deepep\n"
    "  train CONFIG.json [options]   training memory per GPU (options: fitcheck train --help)\n"
    "  plan CONFIG.json [options]    search GPUs, counts, tp/pp/ep, formats and batch sizes for the\n"
    "      serving layouts that fit, ranked: --gpus a,b --max-gpus N --weights f1,f2 --kv-dtypes d1,d2\n"
    "      --batches 1,8,64 --prompt-len N --gen-len N --ttft S --tpot S --keep N\n"
    "      --objective lowest_latency|highest_throughput|lowest_cost|fewest_gpus\n"
    "      a custom GPU: custom in --gpus (infer, train and plan: --custom-gpu-* flags, infer --help)\n"
    "      --mode training: training layouts (tp/pp/dp/cp/ep, ZeRO, micro-batch, recompute); plan --help\n"
    "  serve-sim CONFIG.json [options]  continuous-batching simulation under load: throughput, TTFT\n"
    "      and TPOT percentiles (--gpu NAME --prompt-len N --gen-len N --concurrency N | --arrival-rate R;\n"
    "      fitcheck serve-sim --help)\n"
    "  local MODEL --ram-gib N [options]  llama.cpp / Ollama on one machine: layers per GPU (-ngl,\n"
    "      --tensor-split, --n-cpu-moe), model/KV/compute buffers per device, the most layers that fit,\n"
    "      prompt and generation tokens/s; MODEL a config.json or .gguf (fitcheck local --help):\n"
    "      --gpu NAME[,NAME...] --cpu NAME --threads N --weights FMT --context N --kv-dtype f16|q8_0|q4_0\n"
    "      --flash-attention on|off --kv-offload on|off --mmap on|off --n-gpu-layers N --n-cpu-moe N --tensor-split "
    "A,B\n"
    "      --backend cuda|metal|vulkan|rocm|sycl|cpu --cuda-mmq on|off --parallel N\n"
    "      --ubatch N --batch N --llama-cpp-build bN --prompt-len N --gen-len N --depth N --json\n"
    "  transformer-mem [flags]       the classic transformer_mem.py report, same flags and numbers\n"
    "  gpus [--json]                 the accelerator catalog\n"
    "  cpus [--json]                 CPUs and their RAM (peak bandwidth and FLOP/s) for CPU inference\n"
    "  formats [--json]              weight formats and KV cache dtypes\n"
    "  config-fields [--json]        the config.json keys fitcheck reads, with their aliases\n"
    "  help                          this text\n"
    "  version                       the version\n";

int fail(const std::string& message) {
  cli::print_to(stderr, "fitcheck: error: %s\n", message);
  return 2;
}

void print_parameter_table(const ModelDescription& model, const ParameterCount& count) {
  cli::print("model_type: %s%s%s\n", model.model_type,
             model.architecture.empty() ? "" : "  architecture: ", model.architecture);
  cli::print("\n%-28s %22s %12s\n", "parameters", "exact", "rounded");
  const auto row = [](const char* name, std::int64_t value) {
    cli::print("  %-26s %22s %12s\n", name, cli::with_thousands(value), cli::rounded_count(value));
  };
  const ParameterBreakdown& b = count.breakdown;
  row("embedding", b.embedding);
  row("attention", b.attention);
  if (b.mlp) row("mlp", b.mlp);
  if (b.routed_experts) row("routed experts", b.routed_experts);
  if (b.shared_experts) row("shared experts", b.shared_experts);
  if (b.router) row("router", b.router);
  row("norms", b.norms);
  if (b.ssm) row("state-space (Mamba)", b.ssm);
  row(model.tie_word_embeddings ? "lm_head (tied: 0)" : "lm_head", b.lm_head);
  if (model.parameter_count_exact()) {
    row("total", count.total);
  } else {
    // A count that rests on guesses says so at the number itself.
    cli::print("  %-26s %22s %12s\n", "total (estimate)", "~" + cli::with_thousands(count.total),
               "~" + cli::rounded_count(count.total));
    std::string why;
    for (const auto& guess : model.guessed_fields) why += (why.empty() ? "" : "; ") + guess;
    cli::print("  (estimate: %s)\n", why);
  }
  if (count.active_per_token != count.total) row("active per token", count.active_per_token);
  if (model.vision) {
    row("vision tower", count.vision_tower);
    row("multimodal projector", count.multimodal_projector);
    row("total with vision", count.total_with_vision());
  }
  if (model.audio) {
    row("audio tower", count.audio_tower);
    row("audio projector", count.audio_projector);
    row("total with audio", count.total_with_audio());
  }
  if (count.multi_token_prediction) row("MTP module (not in total)", count.multi_token_prediction);
  const WeightMemoryFigure weights = weight_bytes_at_uniform_width(count, 2);
  cli::print("\nweights at bf16/fp16: %s bytes = %s\n", cli::with_thousands(weights.bytes),
             cli::gib_and_gb(weights.bytes));
  for (const auto& line : model.not_counted) cli::print("not counted: %s\n", line);
  if (!model.assumptions.empty()) {
    cli::print("\nassumptions:\n");
    for (const auto& line : model.assumptions) cli::print("  - %s\n", line);
  }
}

int run_params(const std::vector<std::string>& args) {
  std::string path;
  bool json = false;
  for (const auto& arg : args) {
    if (arg == "--json")
      json = true;
    else if (arg == "-" || arg.rfind("-", 0) != 0) {
      if (!path.empty()) return fail("params takes one CONFIG.json, got '" + path + "' and '" + arg + "'");
      path = arg;
    } else {
      return fail("unknown option '" + arg + "' for params (expected --json)");
    }
  }
  if (path.empty()) return fail("params needs a CONFIG.json path (or - for standard input)");
  if (const auto format = cli::checkpoint_format_of(path)) return cli::run_params_checkpoint(path, *format, json);
  const ModelDescription model = parse_hf_config(cli::read_input(path));
  const ParameterCount count = count_parameters(model);
  if (json)
    cli::print("%s\n", parameter_report_json(model, count));
  else
    print_parameter_table(model, count);
  return 0;
}

// The core's table of read keys: as is with --json, else one line per field with its aliases.
int run_config_fields(const std::vector<std::string>& args) {
  bool json = false;
  for (const auto& arg : args) {
    if (arg == "--json")
      json = true;
    else
      return fail("unknown option '" + arg + "' for config-fields (expected --json)");
  }
  const std::string table = config_fields_json();
  if (json) {
    cli::print("%s\n", table);
    return 0;
  }
  const nlohmann::json parsed = nlohmann::json::parse(table);
  std::string scope;
  for (const auto& row : parsed["fields"]) {
    if (row["in"] != scope) {
      scope = row["in"].get<std::string>();
      if (scope == "model")
        cli::print("config.json (top level, or text_config):\n");
      else
        cli::print("\ninside %s:\n", scope);
    }
    std::string aliases;
    for (const auto& alias : row["aliases"]) aliases += (aliases.empty() ? "" : ", ") + alias.get<std::string>();
    if (row.contains("holds")) aliases = row["holds"] == "none" ? "(an object: its presence only)" : "(an object)";
    if (aliases.empty())
      cli::print("  %s\n", row["name"].get<std::string>());
    else
      cli::print("  %-32s %s\n", row["name"].get<std::string>(), aliases);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    cli::put(usage_text, stderr);
    return 2;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  try {
    if (command == "params") return run_params(args);
    if (command == "infer") return cli::run_infer(args);
    if (command == "train") {
      std::string out, err;
      const int status = cli::run_train(args, out, err);
      cli::put(out, stdout);
      cli::put(err, stderr);
      return status;
    }
    if (command == "transformer-mem") {
      std::string out, err;
      const int status = cli::run_transformer_mem(args, out, err);
      cli::put(out, stdout);
      cli::put(err, stderr);
      return status;
    }
    if (command == "plan") return cli::run_plan_modes(args);
    if (command == "serve-sim") return cli::run_serve_sim(args);
    if (command == "local") return cli::run_local(args);
    if (command == "gpus") return cli::run_gpus(args);
    if (command == "cpus") return cli::run_cpus(args);
    if (command == "formats") return cli::run_formats(args);
    if (command == "config-fields") return run_config_fields(args);
    if (command == "help" || command == "--help" || command == "-h") {
      cli::put(usage_text, stdout);
      return 0;
    }
    if (command == "version" || command == "--version") {
      cli::print("fitcheck 0.1.0\n");
      return 0;
    }
    return fail("unknown command '" + command + "' (try 'fitcheck help')");
  } catch (const ConfigError& error) {
    return fail(error.what());
  } catch (const std::exception& error) {
    return fail(error.what());
  }
}
