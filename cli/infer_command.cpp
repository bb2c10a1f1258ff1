// SPDX-License-Identifier: MIT
#include "infer_command.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "args.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/serving.hpp"
#include "format.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

using Json = nlohmann::json;

constexpr const char* kInferHelp =
    "usage: fitcheck infer CONFIG.json [options] [--json]     (CONFIG may be - for stdin)\n"
    "  --weights FORMAT (see 'fitcheck formats')  --weight-bits N --group-size N (GPTQ/AWQ)\n"
    "  --kv-dtype D  --batch N  --context N  --prefill-chunk N  --kv-block N  --tp N --pp N --ep N\n"
    "  --gpu NAME (see 'fitcheck gpus', or custom)  --gpu-memory-utilization F (0.9)  --overhead-gib F (1)\n"
    "  --eager-attention  --logits-all-positions\n"
    "  --images N: images per request (Gemma-3, Qwen2-VL, Qwen3-VL, Llama 4, LLaVA, LLaVA-NeXT, PaliGemma, Mistral-3, "
    "Idefics3/SmolVLM, InternVL with vision): their "
    "image tokens "
    "join each prompt (Llama 3.2 Vision: its cross-attention layers' keys and values)\n"
    "  --image-width N --image-height N: the images' size in pixels (default 1024 x 1024; Qwen2/3-VL's\n"
    "      token count follows it, Gemma-3's mm_tokens_per_image does not)\n"
    "  --engine vllm|sglang|trtllm|llamacpp|hf|vllm-v0: the engine's memory budget, prefill chunk, KV block,\n"
    "      step costs and kernel efficiencies (needs --gpu; options given win)\n"
    "  --hf-cache dynamic|static (dynamic): with --engine hf, transformers' cache_implementation\n"
    "  --max-model-len N (the config's max_position_embeddings): with --engine vllm or vllm-v0, whether vLLM starts\n"
    "    (its KV cache must hold one request of N tokens) and the longest N that would\n"
    "  --vllm-sampler torch|flashinfer (torch): with --engine vllm, the sampler of vLLM's profile run: torch sorts\n"
    "    max_num_seqs rows of logits (38 B a logit; v0.11), flashinfer does not (v0.10 with FlashInfer installed)\n"
    "  --shared-prefix N (0): prompt tokens every sequence shares (prefix caching)\n"
    "  --spec-tokens K (0) --spec-acceptance A --spec-draft-layers L (1): speculative decoding\n"
    "  with --gpu, latency too: --prompt-len N --gen-len N --flops-efficiency F --hbm-efficiency F\n"
    "  --interconnect-efficiency F --price-per-gpu-hour X --fp8-activations true|false\n"
    "  --moe-dispatcher alltoall|deepep (alltoall): how tokens reach expert-parallel ranks beyond tp; deepep:\n"
    "    DeepEP as SGLang's --moe-a2a-backend deepep runs it (FP8 dispatch, one RDMA copy per node in prefill)\n";

void print_inference_table(const InferenceEstimate& estimate) {
  const InferenceWorkload& w = estimate.workload;
  const InferenceMemory& memory = estimate.memory;
  print("model_type: %s   weights: %s   kv cache: %s   batch %lld x context %lld   tp %lld pp %lld ep %lld\n\n",
        estimate.model_type, weight_format_info(w.weight_format).id, kv_cache_dtype_info(w.kv_cache_dtype).id,
        static_cast<long long>(w.batch_size), static_cast<long long>(w.context_tokens),
        static_cast<long long>(w.layout.tensor_parallel), static_cast<long long>(w.layout.pipeline_parallel),
        static_cast<long long>(w.layout.expert_parallel));
  if (!estimate.parameter_count_exact) {
    std::string why;
    for (const auto& guess : estimate.guessed_fields) why += (why.empty() ? "" : "; ") + guess;
    print("weights are an estimate: the parameter count rests on guesses (%s)\n\n", why);
  }
  print("%-14s %20s %26s\n", "per GPU", "bytes", "");
  for (const auto& term : memory.terms)
    print("  %-12s %20s %26s\n      %s\n", term.name, with_thousands(term.bytes), gib_and_gb(term.bytes), term.formula);
  const std::int64_t total = memory.totals.total_bytes_per_gpu;
  print("  %-12s %20s %26s\n", "total", with_thousands(total), gib_and_gb(total));
  print("\nKV cache per token (all layers): %s bytes\n", with_thousands(memory.totals.kv_cache_bytes_per_token));
  if (memory.kv_cache.state_bytes_per_sequence > 0)
    print("state per sequence (state-space layers, any context): %s bytes\n",
          with_thousands(memory.kv_cache.state_bytes_per_sequence));
  if (memory.kv_cache.cross_bytes_per_sequence > 0)
    print("cross-attention keys and values per sequence (fixed source, any context): %s bytes\n",
          with_thousands(memory.kv_cache.cross_bytes_per_sequence));
  if (estimate.on_gpu) {
    const InferenceOnGpu& on_gpu = *estimate.on_gpu;
    const std::int64_t headroom = on_gpu.verdict.headroom_bytes;
    print("\n%s: budget %s; %s by %s\n", on_gpu.gpu->name, gib_and_gb(on_gpu.verdict.budget_bytes),
          on_gpu.verdict.fits ? "fits" : "DOES NOT FIT", gib_and_gb(headroom < 0 ? -headroom : headroom));
    const std::pair<const char*, const CapacityAnswer*> answers[] = {
        {"max_batch_size", &on_gpu.capacity.max_batch_size},
        {"max_context_length", &on_gpu.capacity.max_context_length},
        {"min_gpus", &on_gpu.capacity.min_gpus},
    };
    for (const auto& [key, answer] : answers)
      print("  %-20s %12s   limited by %s\n", key, with_thousands(answer->value), answer->limited_by);
    if (const auto& start = on_gpu.engine_start) {
      print("\nvLLM start-up: one request of max_model_len %s%s needs %s of KV cache; %s left: %s\n",
            with_thousands(start->max_model_len), start->max_model_len_from_config ? " (the config's)" : "",
            gib_and_gb(start->needed_bytes), gib_and_gb(start->available_bytes),
            start->starts ? "starts" : "REFUSES TO START");
      if (!start->starts)
        print("  --max-model-len %s would start (the longest that fits)\n",
              with_thousands(start->longest_max_model_len));
    }
    if (!on_gpu.fit_changes.empty()) print("\nchanges that fit, each on its own:\n");
    for (const FitChange& change : on_gpu.fit_changes) {
      std::string flags;
      for (const auto& [name, value] : change.options) {
        std::string flag = name;
        std::replace(flag.begin(), flag.end(), '_', '-');
        flags += (flags.empty() ? "--" : " --") + flag + " " + value;
      }
      print("  %-24s %s: %s per GPU, %s to spare\n", flags, change.summary, gib_and_gb(change.total_bytes_per_gpu),
            gib_and_gb(change.headroom_bytes));
    }
  }
  if (!estimate.assumptions.empty()) {
    print("\nassumptions:\n");
    for (const auto& line : estimate.assumptions) print("  - %s\n", line);
  }
}

bool wants_json(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--json") continue;
    throw OptionError(arg, "unknown option '" + arg + "' (expected --json)");
  }
  return !args.empty();
}

}  // namespace

int run_infer(const std::vector<std::string>& args) {
  const CommandArgs parsed = parse_command_args(args, "infer", {"eager_attention", "logits_all_positions"});
  if (parsed.help) {
    print("%s%s", kInferHelp, kCustomGpuHelp);
    return 0;
  }
  const std::string config_text = read_input(parsed.path);
  InferenceEstimate estimate = estimate_inference(config_text, parsed.options);
  if (estimate.engine) {  // the engine's scheduler at saturation (docs/serving.md)
    const ModelDescription model = parse_hf_config(config_text);
    add_engine_capacity(model, weight_tensors(model), estimate);
  }
  if (parsed.json)
    print("%s\n", inference_report_json(estimate));
  else
    print_inference_table(estimate);
  return 0;
}

int run_plan(const std::vector<std::string>& args) {
  const CommandArgs parsed = parse_command_args(args, "plan", {});
  const std::string report_text = plan_report_json(read_input(parsed.path), parsed.options);
  if (parsed.json) {
    print("%s\n", report_text);
    return 0;
  }
  const Json report = Json::parse(report_text);
  print("objective: %s; %lld layouts evaluated, %lld fit and meet the targets\n\n",
        report["request"]["objective"].get<std::string>(), report["evaluated"].get<long long>(),
        report["feasible"].get<long long>());
  print("%-16s %4s %3s %3s %3s %-13s %-5s %6s %10s %10s %12s %12s\n", "gpu", "gpus", "tp", "pp", "ep", "weights", "kv",
        "batch", "TTFT s", "TPOT ms", "tokens/s", "$/M output");
  for (const auto& c : report["best"])
    print("%-16s %4lld %3lld %3lld %3lld %-13s %-5s %6lld %10.3f %10.2f %12.1f %12.3f\n", c["gpu"].get<std::string>(),
          c["gpus"].get<long long>(), c["tp"].get<long long>(), c["pp"].get<long long>(), c["ep"].get<long long>(),
          c["weights"].get<std::string>(), c["kv_dtype"].get<std::string>(), c["batch"].get<long long>(),
          c["time_to_first_token_seconds"].get<double>(), c["time_per_output_token_seconds"].get<double>() * 1e3,
          c["tokens_per_second"].get<double>(), c["cost_per_million_output_tokens_usd"].get<double>());
  print("\nthroughput/cost frontier: %zu layouts\n", report["frontier"].size());
  for (const auto& note : report["notes"]) print("note: %s\n", note.get<std::string>());
  return 0;
}

int run_gpus(const std::vector<std::string>& args) {
  const std::string catalog = accelerator_catalog_json();
  if (wants_json(args)) {
    print("%s\n", catalog);
    return 0;
  }
  const Json gpus = Json::parse(catalog);
  // Columns as wide as the longest id and name, so that every row lines up.
  int id_width = 2, name_width = 4;
  for (const auto& gpu : gpus) {
    id_width = std::max(id_width, static_cast<int>(gpu["id"].get<std::string>().size()));
    name_width = std::max(name_width, static_cast<int>(gpu["name"].get<std::string>().size()));
  }
  print("%-*s %-*s %12s %12s %14s %10s\n", id_width, "id", name_width, "name", "memory", "bandwidth", "bf16 dense",
        "$/hour");
  for (const auto& gpu : gpus) {
    print("%-*s %-*s %8.1f GiB %7.2f TB/s %8.1f TFLOP/s %9.2f\n", id_width, gpu["id"].get<std::string>(), name_width,
          gpu["name"].get<std::string>(), gibibytes(gpu["memory_bytes"].get<std::int64_t>()),
          gpu["memory_bandwidth_bytes_per_second"].get<double>() / 1e12,
          gpu["dense_flops_per_second"]["bf16"].get<double>() / 1e12, gpu["price_per_hour_usd"].get<double>());
  }
  return 0;
}

int run_cpus(const std::vector<std::string>& args) {
  const std::string catalog = cpu_catalog_json();
  if (wants_json(args)) {
    print("%s\n", catalog);
    return 0;
  }
  // "read": what the cores can read at most, the RAM's peak or the core dies' fabric links where lower.
  print("%-24s %-34s %5s %-16s %3s %10s %10s %13s %13s\n", "id", "name", "cores", "memory", "ch", "bandwidth", "read",
        "fp32 peak", "bf16 peak");
  for (const auto& cpu : Json::parse(catalog)) {
    print("%-24s %-34s %5lld %-16s %3lld %5.1f GB/s %5.1f GB/s %7.2f TFLOP/s %7.2f TFLOP/s\n",
          cpu["id"].get<std::string>(), cpu["name"].get<std::string>(), cpu["cores"].get<long long>(),
          cpu["memory_type"].get<std::string>(), cpu["memory_channels"].get<long long>(),
          cpu["memory_bandwidth_bytes_per_second"].get<double>() / 1e9,
          cpu["memory_read_peak_bytes_per_second"].get<double>() / 1e9,
          cpu["peak_fp32_flops_per_second"].get<double>() / 1e12,
          cpu["peak_bf16_flops_per_second"].get<double>() / 1e12);
  }
  return 0;
}

int run_formats(const std::vector<std::string>& args) {
  const std::string catalog = format_catalog_json();
  if (wants_json(args)) {
    print("%s\n", catalog);
    return 0;
  }
  const Json formats = Json::parse(catalog);
  print("weight formats (--weights):\n");
  for (const auto& f : formats["weight_formats"])
    print("  %-16s %6.3f bits/weight  %s\n", f["id"].get<std::string>(), f["base_bits_per_weight"].get<double>(),
          f["name"].get<std::string>());
  print("KV cache dtypes (--kv-dtype):\n");
  for (const auto& k : formats["kv_cache_dtypes"])
    print("  %-6s %2lld bits  %s\n", k["id"].get<std::string>(), k["element_bits"].get<long long>(),
          k["source"].get<std::string>());
  return 0;
}

}  // namespace fitcheck::cli
