// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
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
    CHECK(inference_memory(model, tensors, w).totals.total_bytes_per_gpu == candidate.memory_bytes_per_gpu);
    CHECK(candidate.memory_bytes_per_gpu <= candidate.budget_bytes_per_gpu);
    const LatencyTotals totals =
        estimate_latency_totals(prepare_latency_model(model, tensors, candidate.weight_format), w,
                                *request.gpus[candidate.gpu], {request.prompt_tokens, request.generated_tokens});
    CHECK(totals.batch_tokens_per_second == doctest::Approx(candidate.tokens_per_second));
    CHECK(totals.prefill_seconds == doctest::Approx(candidate.time_to_first_token_seconds));
  }
  // Ranked by the objective: highest throughput first.
  for (std::size_t i = 1; i < plan.best.size(); ++i)
    CHECK(plan.best[i - 1].tokens_per_second >= plan.best[i].tokens_per_second);
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
    CHECK(cheapest.best[i - 1].cost_per_million_output_tokens_usd <=
          cheapest.best[i].cost_per_million_output_tokens_usd);
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

namespace {

// DeepSeek-V2-Lite shapes (deepseek-ai/DeepSeek-V2-Lite config.json): MLA and routed experts in a
// model small enough to fit one GPU, so that tp, pp and ep layouts all appear.
const char* deepseek_v2_lite = R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,
  "num_hidden_layers":27,"num_attention_heads":16,"num_key_value_heads":16,"q_lora_rank":null,"kv_lora_rank":512,
  "qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"n_routed_experts":64,"num_experts_per_tok":6,
  "n_shared_experts":2,"moe_intermediate_size":1408,"first_k_dense_replace":1,"moe_layer_freq":1,"vocab_size":102400,
  "tie_word_embeddings":false,"topk_method":"greedy"})";

// The `fitcheck infer` report's memory per GPU for one planned layout: the independent path.
std::int64_t infer_total_bytes(const std::string& config, const PlanCandidate& c, const InferencePlanRequest& request) {
  OptionList options = {{"weights", weight_format_info(c.weight_format).id},
                        {"kv_dtype", kv_cache_dtype_info(c.kv_cache_dtype).id},
                        {"batch", std::to_string(c.batch_size)},
                        {"context", std::to_string(request.prompt_tokens + request.generated_tokens)},
                        {"tp", std::to_string(c.tensor_parallel)},
                        {"pp", std::to_string(c.pipeline_parallel)},
                        {"ep", std::to_string(c.expert_parallel)},
                        {"prefill_chunk", std::to_string(request.base.prefill_chunk_tokens)}};
  if (!request.base.flash_attention) options.push_back({"eager_attention", "true"});
  return nlohmann::json::parse(inference_report_json(config, options))["total_bytes_per_gpu"].get<std::int64_t>();
}

}  // namespace

TEST_CASE("the planner's memory per GPU is the infer report's at every batch, prefill chunk or not") {
  const std::string dir = test::fixture_configs_dir() + "/";
  const std::vector<std::string> configs = {
      test::read_file(dir + "meta-llama--Llama-3.1-8B.json"),  // dense, GQA
      test::read_file(dir + "Qwen--Qwen3-30B-A3B.json"),       // MoE: ep layouts
      test::read_file(dir + "google--gemma-2-9b.json"),        // sliding-window layers
      deepseek_v2_lite,                                        // MLA + MoE
  };
  struct Setting {
    std::int64_t prefill_chunk;
    bool flash_attention;
  };
  // Context 384 + 128 = 512 tokens. A chunk of 2048 holds four whole sequences: batch 1 prefills
  // 512 tokens, batch 2 1,024, batches 4 and up 2,048, so memory is not a line through batches 1
  // and 2 (that line gave batch 8 the activations of 4,096 tokens). A chunk of 256 splits one
  // sequence; eager attention adds the heads x s x s scores of the sequences in a step.
  const Setting settings[] = {{0, true}, {2048, true}, {256, true}, {2048, false}, {0, false}};
  std::int64_t compared = 0, chunk_saturated = 0, expert_parallel = 0, pipeline_parallel = 0;
  for (const auto& config : configs) {
    const ModelDescription model = parse_hf_config(config);
    const auto tensors = weight_tensors(model);
    for (const Setting& setting : settings) {
      InferencePlanRequest request;
      request.gpus = {find_accelerator("h100-sxm-80gb")};
      request.max_gpus = 4;
      request.weight_formats = {WeightFormat::bf16, WeightFormat::fp8_e4m3_per_tensor, WeightFormat::gguf_q4_k_m};
      request.kv_cache_dtypes = {KvCacheDtype::bf16, KvCacheDtype::fp8, KvCacheDtype::int4};
      request.batch_sizes = {1, 2, 3, 8, 32};
      request.prompt_tokens = 384;
      request.generated_tokens = 128;
      request.keep = 1000;
      request.base.prefill_chunk_tokens = setting.prefill_chunk;
      request.base.flash_attention = setting.flash_attention;
      const InferencePlan plan = plan_inference(model, tensors, request);
      CAPTURE(model.model_type);
      CAPTURE(setting.prefill_chunk);
      CAPTURE(setting.flash_attention);
      REQUIRE(plan.feasible > 0);
      REQUIRE(plan.best.size() == static_cast<std::size_t>(plan.feasible));  // every feasible layout checked
      for (const auto& c : plan.best) {
        CAPTURE(c.tensor_parallel);
        CAPTURE(c.pipeline_parallel);
        CAPTURE(c.expert_parallel);
        CAPTURE(c.batch_size);
        CHECK(c.memory_bytes_per_gpu == infer_total_bytes(config, c, request));
        compared += 1;
        expert_parallel += c.expert_parallel > 1 ? 1 : 0;
        pipeline_parallel += c.pipeline_parallel > 1 ? 1 : 0;
        const std::int64_t context = request.prompt_tokens + request.generated_tokens;
        if (setting.prefill_chunk > context && c.batch_size * context > setting.prefill_chunk) chunk_saturated += 1;
      }
    }
  }
  // The grid reaches the layouts a line through batches 1 and 2 got wrong, and MoE/MLA splits.
  CHECK(chunk_saturated > 0);
  CHECK(expert_parallel > 0);
  CHECK(pipeline_parallel > 0);
  CHECK(compared > 500);
}
