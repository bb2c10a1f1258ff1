// SPDX-License-Identifier: MIT
// training_estimate.hpp: estimate_training() computes everything the training report and the CLI
// table show; both only write it.
#include <doctest/doctest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "../../cli/format.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_estimate.hpp"
#include "fitcheck/training_request.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

const std::string kTinyLlama = "TinyLlama--TinyLlama-1.1B-Chat-v1.0.json";

ModelDescription tiny_llama() {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + kTinyLlama));
}

std::int64_t total_at_micro_batch(const ModelDescription& model, TrainingWorkload w, std::int64_t micro_batch) {
  w.micro_batch_size = micro_batch;
  return training_memory(model, weight_tensors(model), w).totals.total_bytes_per_gpu;
}

}  // namespace

TEST_CASE("estimate_training without a GPU: the memory, no verdict, no step time, a note naming option gpu") {
  const ModelDescription model = tiny_llama();
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), TrainingRequest{});
  CHECK(e.model_type == "llama");
  CHECK(e.memory.totals.total_bytes_per_gpu ==
        training_memory(model, weight_tensors(model), TrainingWorkload{}).totals.total_bytes_per_gpu);
  CHECK_FALSE(e.fit.has_value());
  CHECK_FALSE(e.time.has_value());
  CHECK(e.missing_rate.empty());
  REQUIRE_FALSE(e.assumptions.empty());
  CHECK(e.assumptions.back() == "no GPU chosen: the largest micro-batch needs one (gpu)");
  CHECK(e.workload.global_batch_tokens == 0);  // no step time: nothing filled in
}

TEST_CASE("estimate_training on an H100: the verdict, the largest micro-batch and the step time") {
  const ModelDescription model = tiny_llama();
  TrainingRequest request;
  request.gpu = find_accelerator("h100");
  REQUIRE(request.gpu);
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), request);
  REQUIRE(e.fit.has_value());
  const std::int64_t total = e.memory.totals.total_bytes_per_gpu;
  CHECK(e.fit->budget_bytes == request.gpu->memory_bytes);
  CHECK(e.fit->fits == (total <= request.gpu->memory_bytes));
  CHECK(e.fit->headroom_bytes == request.gpu->memory_bytes - total);
  // The largest micro-batch fits and one more does not.
  const std::int64_t largest = e.fit->max_micro_batch.value;
  REQUIRE(largest >= 1);
  CHECK(total_at_micro_batch(model, request.workload, largest) <= request.gpu->memory_bytes);
  CHECK(total_at_micro_batch(model, request.workload, largest + 1) > request.gpu->memory_bytes);

  REQUIRE(e.time.has_value());
  CHECK(e.missing_rate.empty());
  // Default global batch: 4 x 2^20 tokens (one 4096-token micro-batch per step is less).
  CHECK(e.workload.global_batch_tokens == 4'194'304);
  CHECK(e.time->flops_efficiency == 0.5);  // TrainingAssumptions' default (docs/latency.md)
  const TrainingTime& t = e.time->explained.time;
  CHECK(t.micro_batches == 1024);  // 4,194,304 / 4096 tokens / (micro-batch 1 x dp 1)
  CHECK(t.train_days == doctest::Approx(t.train_seconds / 86400));
  CHECK(t.train_tokens == 1e12);  // the request's default

  request.flops_efficiency = 0.4;
  request.train_tokens = 1e9;
  const TrainingEstimate slower = estimate_training(model, weight_tensors(model), request);
  REQUIRE(slower.time.has_value());
  CHECK(slower.time->flops_efficiency == 0.4);
  CHECK(slower.time->explained.time.step_seconds > t.step_seconds);
  CHECK(slower.time->explained.time.train_tokens == 1e9);
}

TEST_CASE("estimate_training on a T4 in bf16: a verdict but no step time, the note naming option precision") {
  const ModelDescription model = tiny_llama();
  TrainingRequest request;
  request.gpu = find_accelerator("t4");  // no bf16 rate (datasheet: fp16 and fp32 only)
  REQUIRE(request.gpu);
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), request);
  CHECK(e.fit.has_value());
  CHECK_FALSE(e.time.has_value());
  CHECK(e.missing_rate.starts_with("option 'precision': the NVIDIA T4 16GB publishes no bf16 rate"));
  CHECK(e.assumptions.back() == e.missing_rate);
}

TEST_CASE("training_report_json writes the estimate it is given") {
  const ModelDescription model = tiny_llama();
  TrainingRequest request;
  request.gpu = find_accelerator("h100");
  request.workload.lora.rank = 8;          // the modules default to every linear layer
  request.train_tokens = kFineTuneTokens;  // option train_tokens' default with adapters
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), request);
  const auto report = nlohmann::json::parse(training_report_json(e));
  CHECK(report["total_bytes_per_gpu"].get<std::int64_t>() == e.memory.totals.total_bytes_per_gpu);
  CHECK(report["trainable_params"].get<std::int64_t>() == e.memory.trainable_parameters);
  CHECK(report["fits"].get<bool>() == e.fit->fits);
  CHECK(report["headroom_bytes"].get<std::int64_t>() == e.fit->headroom_bytes);
  CHECK(report["max_micro_batch_size"].get<std::int64_t>() == e.fit->max_micro_batch.value);
  CHECK(report["time"]["step_seconds"].get<double>() == e.time->explained.time.step_seconds);
  CHECK(report["time"]["global_batch_tokens"].get<std::int64_t>() == 4'194'304);
  CHECK(report["terms"].size() == e.memory.terms.size());
  CHECK(report["assumptions"].size() == e.assumptions.size());
  // Every linear module of the model, and only those: a Llama has no MLA q_down, kv_down or kv_up.
  CHECK(report["workload"]["lora_modules"] == nlohmann::json::array({"q", "k", "v", "o", "gate", "up", "down"}));
  // The config-text entry point is the same estimate.
  CHECK(training_report_json(test::read_file(test::fixture_configs_dir() + "/" + kTinyLlama),
                             {{"gpu", "h100"}, {"lora_rank", "8"}}) == training_report_json(e));
}

TEST_CASE("fitcheck train's table prints the same estimate") {
  const ModelDescription model = tiny_llama();
  TrainingRequest request;
  request.gpu = find_accelerator("h100");
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), request);
  const auto result = test::run_cli("train '" + test::fixture_configs_dir() + "/" + kTinyLlama + "' --gpu h100");
  REQUIRE(result.exit_status == 0);
  REQUIRE(e.fit->max_micro_batch.value < 1000);  // printed without a thousands separator
  CHECK(result.out.find(std::string(request.gpu->name) + ": fits by ") != std::string::npos);
  // TinyLlama's 2,048 positions stop the longest sequence on an H100, and the line says so.
  REQUIRE(e.fit->max_sequence_tokens.limited_by == "max_position_embeddings");
  CHECK(
      result.out.find("; largest micro-batch " + std::to_string(e.fit->max_micro_batch.value) +
                      "; longest sequence at micro-batch 1: " + cli::with_thousands(e.fit->max_sequence_tokens.value) +
                      " tokens (the config's max_position_embeddings)\n") != std::string::npos);
  CHECK(result.out.find("  - " + e.assumptions.back() + "\n") != std::string::npos);
  // A sequence limited by memory prints no such note: Llama 3.1 8B with LoRA at micro-batch 4 on an H100.
  const auto memory_bound = test::run_cli("train '" + test::fixture_configs_dir() +
                                          "/meta-llama--Llama-3.1-8B.json' --gpu h100 --lora-rank 8 --micro-batch 4");
  REQUIRE(memory_bound.exit_status == 0);
  CHECK(memory_bound.out.find("; longest sequence at micro-batch 4: ") != std::string::npos);
  CHECK(memory_bound.out.find("max_position_embeddings)") == std::string::npos);
}

TEST_CASE("estimate_training: the step time's own rules apply only when there is a step time") {
  const ModelDescription model = tiny_llama();
  TrainingRequest request;
  request.workload.context_parallel = 3;  // does not divide the 4096-token sequence
  const TrainingEstimate memory_only = estimate_training(model, weight_tensors(model), request);
  CHECK(memory_only.memory.totals.total_bytes_per_gpu > 0);
  request.gpu = find_accelerator("h100");
  try {
    (void)estimate_training(model, weight_tensors(model), request);
    FAIL("cp 3 of a 4096-token sequence was timed");
  } catch (const OptionError& error) {
    CHECK(error.option() == "cp");
  }
  // A chip without the rate gives its verdict and never reaches the clock's rules.
  request.gpu = find_accelerator("t4");
  const TrainingEstimate no_rate = estimate_training(model, weight_tensors(model), request);
  CHECK(no_rate.fit.has_value());
  CHECK_FALSE(no_rate.time.has_value());
}

TEST_CASE("option train_tokens defaults by method: 1e12 to pre-train, 1e8 for a LoRA or QLoRA fine-tune") {
  CHECK(parse_training_options({}).train_tokens == 1e12);
  CHECK(parse_training_options({{"lora_rank", "0"}}).train_tokens == 1e12);
  CHECK(parse_training_options({{"lora_rank", "16"}}).train_tokens == 1e8);
  CHECK(parse_training_options({{"lora_rank", "16"}, {"qlora", "true"}}).train_tokens == 1e8);
  CHECK(parse_training_options({{"lora_rank", "16"}, {"train_tokens", "1e9"}}).train_tokens == 1e9);
}

TEST_CASE("QLoRA under hf checkpoints whole layers unless told otherwise, as PEFT's prepare_model_for_kbit_training") {
  // peft src/peft/utils/other.py: prepare_model_for_kbit_training(model, use_gradient_checkpointing=True).
  const auto request = [](OptionList options) { return parse_training_options(options); };
  const TrainingRequest qlora = request({{"lora_rank", "16"}, {"qlora", "true"}});
  CHECK(qlora.workload.framework == TrainingFramework::hf);
  CHECK(qlora.workload.recompute == Recompute::full);
  CHECK(qlora.recompute_from_peft_default);
  // Told otherwise, or not QLoRA, or another framework: the option's own default (none).
  const TrainingRequest told = request({{"lora_rank", "16"}, {"qlora", "true"}, {"recompute", "none"}});
  CHECK(told.workload.recompute == Recompute::none);
  CHECK_FALSE(told.recompute_from_peft_default);
  CHECK(request({{"lora_rank", "16"}}).workload.recompute == Recompute::none);
  CHECK(request({{"lora_rank", "16"}, {"qlora", "true"}, {"framework", "torchtitan"}}).workload.recompute ==
        Recompute::none);
  // The estimate says why.
  const ModelDescription model = tiny_llama();
  const TrainingEstimate estimate = estimate_training(model, weight_tensors(model), qlora);
  bool said = false;
  for (const auto& line : estimate.assumptions)
    said = said || line.find("prepare_model_for_kbit_training") != std::string::npos;
  CHECK(said);
}

TEST_CASE("LoRA's default modules are the model's own linear layers") {
  // DeepSeek-V3's MLA projections are linear layers of its blocks; a Llama's are q, k, v and o.
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"));
  TrainingRequest request;
  request.workload.lora.rank = 8;
  request.workload.layout.expert_parallel = 1;
  const TrainingEstimate e = estimate_training(model, weight_tensors(model), request);
  const auto report = nlohmann::json::parse(training_report_json(e));
  CHECK(report["workload"]["lora_modules"] ==
        nlohmann::json::array({"q", "o", "q_down", "kv_down", "kv_up", "gate", "up", "down"}));
}
