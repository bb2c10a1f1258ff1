// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/planner.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

ModelDescription shared_model(const char* file) {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + file));
}

InferencePlanRequest small_request() {
  InferencePlanRequest request;
  request.gpus = {find_accelerator("h100-sxm-80gb"), find_accelerator("l40s")};
  request.max_gpus = 4;
  request.weight_formats = {WeightFormat::bf16, WeightFormat::gguf_q4_k_m};
  request.kv_cache_dtypes = {KvCacheDtype::bf16, KvCacheDtype::fp8};
  request.batch_sizes = {1, 4, 16, 64, 256};
  request.prompt_tokens = 2048;
  request.generated_tokens = 256;
  request.keep = 50;
  return request;
}

InferenceWorkload workload_of(const PlanCandidate& c, const InferencePlanRequest& request) {
  InferenceWorkload w = request.base;
  w.weight_format = c.weight_format;
  w.kv_cache_dtype = c.kv_cache_dtype;
  w.layout = {c.tensor_parallel, c.pipeline_parallel, c.expert_parallel, 1};
  w.batch_size = c.batch_size;
  w.context_tokens = request.prompt_tokens + request.generated_tokens;
  return w;
}

}  // namespace

TEST_CASE("every planned layout's memory is the exact inference memory, within the budget") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  const InferencePlanRequest request = small_request();
  const InferencePlan plan = plan_inference(model, tensors, request);
  REQUIRE(plan.feasible > 0);
  REQUIRE(!plan.best.empty());
  for (const auto& candidate : plan.best) {
    const InferenceWorkload w = workload_of(candidate, request);
    CHECK(inference_memory(model, tensors, w).total_bytes_per_gpu == candidate.memory_bytes_per_gpu);
    CHECK(candidate.memory_bytes_per_gpu <= candidate.budget_bytes_per_gpu);
    const LatencyTotals totals = estimate_latency_totals(prepare_latency_model(model, tensors, candidate.weight_format), w,
                                                         *request.gpus[candidate.gpu],
                                                         {request.prompt_tokens, request.generated_tokens});
    CHECK(totals.batch_tokens_per_second == doctest::Approx(candidate.tokens_per_second));
    CHECK(totals.prefill_seconds == doctest::Approx(candidate.time_to_first_token_seconds));
  }
  // Ranked by the objective: highest throughput first.
  for (std::size_t i = 1; i < plan.best.size(); ++i) CHECK(plan.best[i - 1].tokens_per_second >= plan.best[i].tokens_per_second);
}

TEST_CASE("the frontier holds no layout that another feasible one beats on both throughput and cost") {
  const ModelDescription model = shared_model("Qwen--Qwen3-30B-A3B.json");
  const auto tensors = weight_tensors(model);
  InferencePlanRequest request = small_request();
  request.keep = 1000;
  const InferencePlan plan = plan_inference(model, tensors, request);
  REQUIRE(!plan.frontier.empty());
  for (const auto& kept : plan.frontier)
    for (const auto& other : plan.best)
      CHECK_FALSE((other.tokens_per_second > kept.tokens_per_second &&
                   other.cost_per_million_output_tokens_usd < kept.cost_per_million_output_tokens_usd));
}

TEST_CASE("latency targets and objectives shape the answer") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  InferencePlanRequest request = small_request();
  request.ttft_target_seconds = 0.5;
  request.tpot_target_seconds = 0.02;
  const InferencePlan plan = plan_inference(model, tensors, request);
  REQUIRE(plan.feasible > 0);
  for (const auto& candidate : plan.best) {
    CHECK(candidate.time_to_first_token_seconds <= 0.5);
    CHECK(candidate.time_per_output_token_seconds <= 0.02);
  }
  request.objective = PlanObjective::fewest_gpus;
  const InferencePlan fewest = plan_inference(model, tensors, request);
  CHECK(fewest.best.front().gpus == 1);
  request.objective = PlanObjective::lowest_cost;
  const InferencePlan cheapest = plan_inference(model, tensors, request);
  for (std::size_t i = 1; i < cheapest.best.size(); ++i)
    CHECK(cheapest.best[i - 1].cost_per_million_output_tokens_usd <= cheapest.best[i].cost_per_million_output_tokens_usd);
}

TEST_CASE("a model too large for the allowed GPUs gets no layout, said plainly") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-405B.json");
  const auto tensors = weight_tensors(model);
  InferencePlanRequest request = small_request();
  request.weight_formats = {WeightFormat::bf16};
  const InferencePlan plan = plan_inference(model, tensors, request);
  CHECK(plan.feasible == 0);
  CHECK(plan.best.empty());
  REQUIRE(!plan.notes.empty());
}

TEST_CASE("planner options are checked by name") {
  const std::string config = test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json");
  CHECK_THROWS_WITH_AS(plan_report_json(config, {{"gpus", "h100,tpu-v9"}}), doctest::Contains("tpu-v9"), OptionError);
  CHECK_THROWS_AS(plan_report_json(config, {{"objective", "fastest"}}), OptionError);
  CHECK_THROWS_AS(plan_report_json(config, {{"batches", "1,0"}}), OptionError);
  CHECK_THROWS_AS(plan_report_json(config, {{"max_gpu", "8"}}), OptionError);  // a typo is not ignored
  const auto report = nlohmann::json::parse(plan_report_json(config, {{"gpus", "h100"}, {"max_gpus", "2"}}));
  CHECK(report["evaluated"].get<std::int64_t>() > 0);
  CHECK(report["best"].is_array());
}
