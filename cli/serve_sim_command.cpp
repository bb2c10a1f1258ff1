// SPDX-License-Identifier: MIT
#include "serve_sim_command.hpp"

#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "args.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/serving.hpp"
#include "format.hpp"
#include "read_input.hpp"

namespace fitcheck::cli {
namespace {

using Json = nlohmann::json;

constexpr const char* kServeSimHelp =
    "usage: fitcheck serve-sim CONFIG.json --gpu NAME --prompt-len N --gen-len N\n"
    "                          (--concurrency N | --arrival-rate R) [options] [--json]\n"
    "  a continuous-batching simulation of a serving engine's scheduler (docs/serving.md)\n"
    "  --concurrency N      closed loop: N requests at once, a new one when one finishes\n"
    "  --arrival-rate R     Poisson arrivals, R requests per second\n"
    "  --requests N (1000)  --seed N (0)  --engine vllm|sglang|trtllm|llamacpp|hf|vllm-v0 (vllm)\n"
    "  --length-distribution fixed|uniform|normal  --prompt-spread F --gen-spread F (uniform: range\n"
    "      ratio as vLLM's benchmark; normal: standard deviation / mean)\n"
    "  --lengths-file FILE  replay a trace's request lengths in order instead of drawing them (then\n"
    "      --prompt-len and --gen-len are not needed; --requests repeats the trace): a benchmark result\n"
    "      JSON with input_lens and output_lens (vllm bench serve --save-result --save-detailed), or\n"
    "      lines 'prompt,output' (tokens; '#' comments and a header line are skipped)\n"
    "  --max-num-seqs N --max-num-batched-tokens N (default: the engine's defaults for the GPU)\n"
    "  --vllm-sampler torch|flashinfer (torch): with --engine vllm, the sampler of its profile run (KV budget)\n"
    "  --weights FORMAT --kv-dtype D --tp N --pp N --ep N --gpu-memory-utilization F (the engine's)\n"
    "  --overhead-gib F (1) --flops-efficiency F --hbm-efficiency F --interconnect-efficiency F\n"
    "  --step-overhead-ms X (the engine's): fixed CPU time added to every step\n"
    "  --request-overhead-ms X (the engine's): fixed time before a request reaches the scheduler\n"
    "  --cuda-graph-max-batch N (the engine's): decode-only steps of at most N sequences replay a CUDA\n"
    "      graph, no launches (0: none; TensorRT-LLM's PyTorch backend: its cuda_graph_config)\n"
    "  --shared-prefix N (0): prompt tokens every request shares (prefix caching)\n"
    "  --spec-tokens K (0) --spec-acceptance A --spec-draft-layers L (1): speculative decoding\n"
    "  --moe-dispatcher alltoall|deepep (alltoall): expert-parallel dispatch (infer --help)\n";

void print_serving_table(const Json& r) {
  const auto& s = r["scheduler"];
  const auto& l = r["load"];
  const auto& w = r["workload"];
  std::printf("engine %s on %s x%lld (tp %lld pp %lld ep %lld), %s weights, %s KV cache\n",
              r["engine"].get<std::string>().c_str(), w["gpu"].get<std::string>().c_str(),
              w["tp"].get<long long>() * w["pp"].get<long long>(), w["tp"].get<long long>(), w["pp"].get<long long>(),
              w["ep"].get<long long>(), w["weights"].get<std::string>().c_str(),
              w["kv_dtype"].get<std::string>().c_str());
  std::printf("scheduler: max_num_seqs %lld, max_num_batched_tokens %lld, KV cache %s tokens (%lld blocks of %lld)\n",
              s["max_num_seqs"].get<long long>(), s["max_num_batched_tokens"].get<long long>(),
              with_thousands(s["kv_capacity_tokens"].get<std::int64_t>()).c_str(),
              s["kv_capacity_blocks"].get<long long>(), s["kv_block_tokens"].get<long long>());
  if (l["concurrency"].get<long long>() > 0)
    std::printf("load: %lld requests, concurrency %lld, prompt %lld + output %lld tokens (%s)\n\n",
                l["requests"].get<long long>(), l["concurrency"].get<long long>(), l["prompt_len"].get<long long>(),
                l["gen_len"].get<long long>(), l["length_distribution"].get<std::string>().c_str());
  else
    std::printf("load: %lld requests, Poisson %.3g requests/s, prompt %lld + output %lld tokens (%s)\n\n",
                l["requests"].get<long long>(), l["arrival_rate"].get<double>(), l["prompt_len"].get<long long>(),
                l["gen_len"].get<long long>(), l["length_distribution"].get<std::string>().c_str());
  std::printf("  %-26s %12.1f\n", "output tokens/s", r["output_tokens_per_second"].get<double>());
  std::printf("  %-26s %12.1f\n", "input tokens/s", r["input_tokens_per_second"].get<double>());
  std::printf("  %-26s %12.3f\n", "requests/s", r["requests_per_second"].get<double>());
  std::printf("  %-26s %10s %10s %10s %10s\n", "", "p50", "p90", "p99", "mean");
  std::printf("  %-26s %10.1f %10.1f %10.1f %10.1f\n", "TTFT ms", r["ttft_seconds_p50"].get<double>() * 1e3,
              r["ttft_seconds_p90"].get<double>() * 1e3, r["ttft_seconds_p99"].get<double>() * 1e3,
              r["ttft_seconds_mean"].get<double>() * 1e3);
  std::printf("  %-26s %10.2f %10.2f %10.2f %10.2f\n", "TPOT ms", r["tpot_seconds_p50"].get<double>() * 1e3,
              r["tpot_seconds_p90"].get<double>() * 1e3, r["tpot_seconds_p99"].get<double>() * 1e3,
              r["tpot_seconds_mean"].get<double>() * 1e3);
  std::printf("  %-26s %12.3f\n", "mean queueing s", r["queue_seconds_mean"].get<double>());
  std::printf("  %-26s %12.1f (max %lld)\n", "mean running batch", r["mean_running_batch"].get<double>(),
              r["max_running"].get<long long>());
  std::printf("  %-26s %12lld in %.2f s\n", "steps", r["steps"].get<long long>(), r["duration_seconds"].get<double>());
  std::printf("  %-26s %12s (%lld preemptions, peak %lld blocks)\n", "KV-limited",
              r["kv_limited"].get<bool>() ? "yes" : "no", r["preemptions"].get<long long>(),
              r["peak_kv_blocks_used"].get<long long>());
  std::printf("\nassumptions:\n");
  for (const auto& line : r["assumptions"]) std::printf("  - %s\n", line.get<std::string>().c_str());
}

}  // namespace

int run_serve_sim(const std::vector<std::string>& args) {
  try {
    const CommandArgs parsed = parse_command_args(args, "serve-sim", {});
    if (parsed.help) {
      std::fputs(kServeSimHelp, stdout);
      return 0;
    }
    // The trace file is read here and its text handed to the core (option request_lengths).
    OptionList options;
    for (const auto& [key, value] : parsed.options) {
      if (key != "lengths_file") {
        options.emplace_back(key, value);
        continue;
      }
      try {
        options.emplace_back("request_lengths", read_input(value));
      } catch (const std::exception& error) {
        throw OptionError("lengths_file", "option 'lengths_file': " + std::string(error.what()));
      }
    }
    std::string report;
    try {
      report = serving_report_json(read_input(parsed.path), options);
    } catch (const OptionError& error) {
      // The core names the option it was given; the command line gave the file.
      if (error.option() != "request_lengths") throw;
      const std::string message = error.what();
      const std::string prefix = "option 'request_lengths': ";
      throw OptionError("lengths_file", "option 'lengths_file': " +
                                            (message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message));
    }
    if (parsed.json)
      std::printf("%s\n", report.c_str());
    else
      print_serving_table(Json::parse(report));
    return 0;
  } catch (const OptionError& error) {
    std::fputs(option_error_line(error).c_str(), stderr);
  }
  return 2;
}

}  // namespace fitcheck::cli
