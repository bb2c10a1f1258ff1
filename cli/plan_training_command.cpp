// SPDX-License-Identifier: MIT
// `fitcheck plan --mode training`: flags map one to one onto the training planner's option keys
// (dashes become underscores), as the page sends them to trainingPlanReport.
#include "plan_training_command.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "format.hpp"
#include "infer_command.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

using Json = nlohmann::json;

constexpr const char* kHelp =
    "usage: fitcheck plan CONFIG.json [--mode inference|training] [options] [--json]\n"
    "\n"
    "--mode inference (default): serving layouts; options in 'fitcheck help'.\n"
    "--mode training: training layouts that fit, ranked. The planner searches the GPU kind and\n"
    "count, tp, cp (powers of two, tp x cp within a node), pp (powers of two) and its model chunks\n"
    "per GPU, dp, ep (MoE), the ZeRO stage (or FSDP's mode), the micro-batch size and recomputation;\n"
    "sequence parallelism is on when tp > 1. Only the parallelisms the run's --framework offers are searched\n"
    "(Hugging Face and torchtune: no pp or ep; LitGPT: data parallel only; DeepSpeed: pp with ZeRO 0-1).\n"
    "constraints:\n"
    "  --gpus a,b               GPU kinds (default h100-sxm-80gb,h200,a100-sxm-80gb; 'fitcheck gpus')\n"
    "  --max-gpus N             GPUs available in all (default 64)\n"
    "  --gpus-per-node N        node size for tp x cp (default 0: each GPU's typical node)\n"
    "  --headroom F             share of GPU memory left free (default 0.1)\n"
    "  --global-batch-tokens N  tokens per optimizer step, fixed: dp x micro-batch x accumulation x\n"
    "                           seq-len (default 4194304)\n"
    "  --micro-batch-sizes L    micro-batch sizes to try (default 1,2,4,8)\n"
    "  --zero-stages L          ZeRO stages to try (default 0,1,2,3); torchtitan, automodel, torchtune\n"
    "                           and litgpt shard with FSDP: 0 unsharded, 2 SHARD_GRAD_OP, 3 FULL_SHARD\n"
    "                           (and, but for litgpt, HYBRID_SHARD within a node when dp x cp spans nodes)\n"
    "  --recompute-modes L      none,selective,full (default all three; also selective-op,\n"
    "                           selective-layer, gradient-checkpointing)\n"
    "  --virtual-stages L       model chunks per GPU to try when pp > 1 (default 1,2,4; 1: 1F1B,\n"
    "                           more: interleaved 1F1B)\n"
    "  --objective O            shortest_time (default) | highest_throughput | lowest_cost | fewest_gpus\n"
    "  --keep N                 best layouts listed (default 20)\n"
    "the run, as in 'fitcheck train':\n"
    "  --precision P --optimizer O --master-weights M --fp32-gradients --adafactor-first-moment\n"
    "  --seq-len N (4096) --eager-attention --dropout --lora-rank N --lora-modules L --qlora\n"
    "  --lora-dropout --dora --overhead-gib X --train-tokens N (1e12; 1e8 with --lora-rank) --flops-efficiency F "
    "--overlap "
    "true|false\n"
    "  --framework F --memory-statistic S --attention-efficiency F --compile --eager-loss --paged-optimizer\n"
    "  --network-gb-per-s X (50: one 400 Gb/s NIC per GPU)\n"
    "  --json                   one JSON object\n";

// FSDP's mode, with HYBRID_SHARD's shard group: "hybrid_shard/8".
std::string fsdp_text(const Json& c) {
  const auto mode = c["fsdp"].get<std::string>();
  return mode == "hybrid_shard" ? mode + "/" + std::to_string(c["fsdp_shard_group"].get<long long>()) : mode;
}

void print_rows(const Json& candidates) {
  print("%-15s %5s %3s %3s %2s %4s %3s %3s %4s %-15s %3s %4s %-9s %9s %8s %12s %5s %9s %13s\n", "gpu", "gpus", "tp",
        "pp", "v", "dp", "cp", "ep", "zero", "fsdp", "mb", "acc", "recompute", "mem GiB", "step s", "tokens/s", "MFU",
        "days", "cost USD");
  for (const auto& c : candidates)
    print(
        "%-15s %5lld %3lld %3lld %2lld %4lld %3lld %3lld %4lld %-15s %3lld %4lld %-9s %9.2f %8.3f %12.0f %5.3f "
        "%9.2f %13.0f\n",
        c["gpu"].get<std::string>(), c["gpus"].get<long long>(), c["tp"].get<long long>(), c["pp"].get<long long>(),
        c["virtual_stages"].get<long long>(), c["dp"].get<long long>(), c["cp"].get<long long>(),
        c["ep"].get<long long>(), c["zero"].get<long long>(), fsdp_text(c), c["micro_batch"].get<long long>(),
        c["micro_batches"].get<long long>(), c["recompute"].get<std::string>(),
        gibibytes(c["memory_bytes_per_gpu"].get<std::int64_t>()), c["step_seconds"].get<double>(),
        c["tokens_per_second"].get<double>(), c["mfu"].get<double>(), c["train_seconds"].get<double>() / 86400.0,
        c["train_cost_usd"].get<double>());
}

int run_plan_training(const std::vector<std::string>& args) {
  const CommandArgs parsed =
      parse_command_args(args, "plan",
                         {"fp32_gradients", "adafactor_first_moment", "eager_attention", "dropout", "qlora",
                          "lora_dropout", "dora", "compile", "eager_loss", "paged_optimizer"});
  const std::string report_text = training_plan_report_json(read_input(parsed.path), parsed.options);
  if (parsed.json) {
    print("%s\n", report_text);
    return 0;
  }
  const Json report = Json::parse(report_text);
  const Json& request = report["request"];
  print("training plan, objective %s: %lld layouts evaluated, %lld fit; %s tokens per step, %.3g tokens to train\n\n",
        request["objective"].get<std::string>(), report["evaluated"].get<long long>(),
        report["feasible"].get<long long>(), with_thousands(request["global_batch_tokens"].get<std::int64_t>()),
        request["train_tokens"].get<double>());
  print_rows(report["best"]);
  print("\ntime-to-train/cost frontier (no layout both faster and cheaper): %zu layouts\n", report["frontier"].size());
  print_rows(report["frontier"]);
  for (const auto& note : report["notes"]) print("note: %s\n", note.get<std::string>());
  return 0;
}

}  // namespace

int run_plan_modes(const std::vector<std::string>& args) {
  std::vector<std::string> rest;
  std::string mode = "inference";
  bool help = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h")
      help = true;
    else if (args[i] == "--mode" && i + 1 < args.size())
      mode = args[++i];
    else if (args[i].rfind("--mode=", 0) == 0)
      mode = args[i].substr(7);
    else
      rest.push_back(args[i]);
  }
  if (help) {
    put(kHelp, stdout);
    put(kCustomGpuHelp, stdout);
    return 0;
  }
  if (mode == "inference") return run_plan(rest);
  if (mode != "training") {
    print_to(stderr, "fitcheck: error: --mode: unknown planner mode '%s' (inference, training)\n", mode);
    return 2;
  }
  try {
    return run_plan_training(rest);
  } catch (const OptionError& error) {
    put(option_error_line(error), stderr);
  } catch (const ConfigError& error) {
    print_to(stderr, "fitcheck: error: config%s: %s\n", error.field().empty() ? "" : (" field '" + error.field() + "'"),
             error.what());
  }
  return 2;
}

}  // namespace fitcheck::cli
