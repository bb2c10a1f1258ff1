// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

TEST_CASE("the parameter report carries the count, the breakdown and the 16-bit weight bytes") {
  const auto report = nlohmann::json::parse(
      parameter_report_json(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json")));
  CHECK(report["total_params"].get<std::int64_t>() == 8'030'261'248);
  CHECK(report["model_type"] == "llama");
  CHECK(report["breakdown"]["lm_head"].get<std::int64_t>() == 128256LL * 4096);
  CHECK(report["weights_16bit"]["bytes"].get<std::int64_t>() == 16'060'522'496);  // 2 bytes per parameter
  CHECK(report["assumptions"].is_array());
}

TEST_CASE("fitcheck params prints JSON with --json, from a file or stdin") {
  const std::string path = test::fixture_configs_dir() + "/Qwen--Qwen2-7B-Instruct.json";
  const auto from_file = test::run_cli("params '" + path + "' --json");
  REQUIRE(from_file.exit_status == 0);
  const auto report = nlohmann::json::parse(from_file.out);
  CHECK(report["total_params"].get<std::int64_t>() == 7'615'616'512);
  CHECK(report.contains("breakdown"));
  const auto from_stdin = test::run_cli("params - --json", test::read_file(path));
  REQUIRE(from_stdin.exit_status == 0);
  CHECK(from_stdin.out == from_file.out);
}

TEST_CASE("fitcheck params prints a readable table") {
  const auto result = test::run_cli("params '" + test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json'");
  REQUIRE(result.exit_status == 0);
  CHECK(result.out.find("8,030,261,248") != std::string::npos);
  CHECK(result.out.find("8.03 B") != std::string::npos);
}

TEST_CASE("bad input exits 2 with one line naming the field") {
  const auto result = test::run_cli("params - --json", R"({"model_type":"llama","hidden_size":"big"})");
  CHECK(result.exit_status == 2);
  CHECK(result.out.empty());
  CHECK(result.err.find("hidden_size") != std::string::npos);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(test::run_cli("params /nonexistent/config.json").exit_status == 2);
  CHECK(test::run_cli("params - --json", "{ not json").exit_status == 2);
  CHECK(test::run_cli("frobnicate").exit_status == 2);
  CHECK(test::run_cli("params").exit_status == 2);
}

TEST_CASE("without a weights option the checkpoint's own stored format is used") {
  // openai/gpt-oss-120b model.safetensors.index.json metadata.total_size = 65,248,815,744 bytes
  // (MXFP4 experts, everything else bf16; see docs/quantization.md).
  const auto report = nlohmann::json::parse(
      inference_report_json(test::read_file(test::fixture_configs_dir() + "/openai--gpt-oss-120b.json"), {}));
  CHECK(report["workload"]["weights"] == "mxfp4");
  CHECK(report["weight_bytes"].get<std::int64_t>() == 65'248'815'744);
  const auto deepseek = nlohmann::json::parse(
      inference_report_json(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"), {}));
  CHECK(deepseek["workload"]["weights"] == "fp8-block128");
  const auto chosen = nlohmann::json::parse(inference_report_json(
      test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"), {{"weights", "bf16"}}));
  CHECK(chosen["weight_bytes"].get<std::int64_t>() == 2 * 671'026'419'200LL);
}

TEST_CASE("the training report carries step time, MFU and time to train when a GPU is chosen") {
  const std::string config = test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json");
  const auto report = nlohmann::json::parse(
      training_report_json(config, {{"gpu", "h100"},
                                    {"gpus", "8"},
                                    {"zero", "1"},
                                    {"train_tokens", "1e9"},
                                    {"flops_efficiency", "0.4"},
                                    {"attention_efficiency", "0.4"},
                                    {"framework", "megatron"}}));  // Megatron's MFU counts the FLOPs the kernels run
  const auto& time = report["time"];
  const double mfu = time["mfu"].get<double>();
  CHECK(mfu > 0.0);
  CHECK(mfu <= 0.4 + 1e-12);  // MFU cannot beat the efficiency the kernels are granted
  CHECK(time["attention_efficiency"].get<double>() == 0.4);
  // GPU-hours = seconds x 8 GPUs / 3600, and 1e9 tokens at the step's rate.
  CHECK(time["train_gpu_hours"].get<double>() == doctest::Approx(time["train_seconds"].get<double>() * 8 / 3600));
  CHECK(time["train_seconds"].get<double>() == doctest::Approx(1e9 / time["tokens_per_second"].get<double>()));
  CHECK(time["global_batch_tokens"].get<std::int64_t>() == 4LL << 20);
  const auto no_gpu = nlohmann::json::parse(training_report_json(config, {}));
  CHECK_FALSE(no_gpu.contains("time"));
}
