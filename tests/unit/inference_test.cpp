// SPDX-License-Identifier: MIT
// The inference estimate (inference.hpp): computed once, then written by the report and the CLI.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string llama_8b() { return test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"); }

}  // namespace

TEST_CASE("the verdict is the memory against the GPU's budget") {
  const std::string config = llama_8b();
  const OptionList options = {{"gpu", "h100-sxm-80gb"}, {"batch", "8"}, {"context", "4096"}, {"weights", "bf16"}};
  const InferenceEstimate estimate = estimate_inference(config, options);
  REQUIRE(estimate.on_gpu);
  const InferenceOnGpu& on_gpu = *estimate.on_gpu;
  // 0.9 (vLLM's default utilization) x 81,559 MiB = 0.9 x 85,520,809,984 B = 76,968,728,985.6 B.
  CHECK(on_gpu.verdict.budget_bytes == 76'968'728'985);
  // The memory is inference_memory()'s for the same workload.
  const ModelDescription model = parse_hf_config(config);
  InferenceWorkload workload;
  workload.weight_format = WeightFormat::bf16;
  workload.batch_size = 8;
  workload.context_tokens = 4096;
  const std::int64_t total = inference_memory(model, weight_tensors(model), workload).totals.total_bytes_per_gpu;
  CHECK(estimate.memory.totals.total_bytes_per_gpu == total);
  CHECK(on_gpu.verdict.headroom_bytes == 76'968'728'985 - total);
  CHECK(on_gpu.verdict.fits == (total <= 76'968'728'985));
  CHECK(on_gpu.gpu == find_accelerator("h100-sxm-80gb"));
  // Capacity answers at the budget's edge: batch max fits, max + 1 does not.
  workload.batch_size = on_gpu.capacity.max_batch_size.value;
  CHECK(inference_memory(model, weight_tensors(model), workload).totals.total_bytes_per_gpu <= 76'968'728'985);
  workload.batch_size += 1;
  CHECK(inference_memory(model, weight_tensors(model), workload).totals.total_bytes_per_gpu > 76'968'728'985);
  // Latency uses the catalog's price: $2.69 per H100-hour (hardware_nvidia_hbm.cpp), one GPU.
  CHECK(on_gpu.latency.explanation.estimate.totals.price_per_hour_usd == doctest::Approx(2.69));
}

TEST_CASE("defaults applied and assumptions are part of the estimate") {
  const InferenceEstimate estimate = estimate_inference(llama_8b(), {});
  // No weights option: the checkpoint's own format (torch_dtype bfloat16), said in the assumptions.
  CHECK(estimate.weight_format_from_checkpoint);
  CHECK(estimate.workload.weight_format == WeightFormat::bf16);
  bool format_said = false;
  for (const auto& line : estimate.assumptions)
    format_said = format_said || line.find("(choose another with the weights option)") != std::string::npos;
  CHECK(format_said);
  // No GPU: no verdict, capacity or latency, and the report says why.
  CHECK_FALSE(estimate.on_gpu);
  REQUIRE(!estimate.assumptions.empty());
  CHECK(estimate.assumptions.back().find("no GPU chosen") == 0);
  const InferenceEstimate chosen = estimate_inference(llama_8b(), {{"weights", "q4_k_m"}});
  CHECK_FALSE(chosen.weight_format_from_checkpoint);
  CHECK(chosen.workload.weight_format == WeightFormat::gguf_q4_k_m);
}

TEST_CASE("the report writes the estimate and computes nothing more") {
  const OptionList options = {{"gpu", "a100-sxm-80gb"}, {"batch", "64"}, {"context", "8192"}, {"kv_dtype", "fp8"}};
  const InferenceEstimate estimate = estimate_inference(llama_8b(), options);
  REQUIRE(estimate.on_gpu);
  const std::string text = inference_report_json(estimate);
  CHECK(text == inference_report_json(llama_8b(), options));
  const auto report = nlohmann::json::parse(text);
  CHECK(report["total_bytes_per_gpu"].get<std::int64_t>() == estimate.memory.totals.total_bytes_per_gpu);
  CHECK(report["gpu"]["budget_bytes"].get<std::int64_t>() == estimate.on_gpu->verdict.budget_bytes);
  CHECK(report["fits"].get<bool>() == estimate.on_gpu->verdict.fits);
  CHECK(report["headroom_bytes"].get<std::int64_t>() == estimate.on_gpu->verdict.headroom_bytes);
  CHECK(report["capacity"]["decode_max_batch_size"]["value"].get<std::int64_t>() ==
        estimate.on_gpu->capacity.decode_max_batch_size.value);
  CHECK(report["latency"]["end_to_end_seconds"].get<double>() ==
        estimate.on_gpu->latency.explanation.estimate.totals.end_to_end_seconds);
  CHECK(report["assumptions"].size() == estimate.assumptions.size());
}

TEST_CASE("fitcheck infer's table prints the figures of the JSON report") {
  const std::string path = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
  const std::string flags = " --gpu h100 --batch 8 --context 4096 --weights bf16";
  const auto json = test::run_cli("infer '" + path + "'" + flags + " --json");
  const auto table = test::run_cli("infer '" + path + "'" + flags);
  REQUIRE(json.exit_status == 0);
  REQUIRE(table.exit_status == 0);
  const auto report = nlohmann::json::parse(json.out);
  // Llama-3.1-8B bf16 weights: 8,030,261,248 parameters x 2 B = 16,060,522,496 B on one GPU.
  CHECK(report["weight_bytes"].get<std::int64_t>() == 16'060'522'496);
  CHECK(table.out.find("16,060,522,496") != std::string::npos);
  // KV cache: 131,072 B per token (32 layers x 2 x 8 heads x 128 x 2 B) x 8 x 4,096 = 4,294,967,296 B.
  CHECK(report["kv_cache_bytes"].get<std::int64_t>() == 4'294'967'296);
  CHECK(table.out.find("4,294,967,296") != std::string::npos);
  CHECK(table.out.find("NVIDIA H100 SXM5 80GB: budget") != std::string::npos);
  CHECK(table.out.find(report["fits"].get<bool>() ? "fits by" : "DOES NOT FIT") != std::string::npos);
}
