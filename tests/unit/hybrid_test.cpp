// SPDX-License-Identifier: MIT
// State-space hybrids (Nemotron-H), the estimate marker of an unknown model_type, MoE fields that
// contradict their family, and images per request of a vision model. Expected values are hand calculations from the
// modeling code (cited in core/src/config/config_hybrid.cpp and docs/parameters.md), never the code's output.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string nemotron_h_56b() {
  return test::read_file(test::fixture_configs_dir() + "/nvidia--Nemotron-H-56B-Base-8K.json");
}

std::string error_field(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.field();
  }
  return "(no error)";
}

std::string error_message(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

// A small Nemotron-H: hidden 64, Mamba-2 with 4 heads of 16, state 8, 2 groups, kernel 4.
std::string small_nemotron_h(const std::string& pattern, const std::string& extra = "") {
  return R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":)" + std::to_string(pattern.size()) +
         R"(,"hybrid_override_pattern":")" + pattern +
         R"(","num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":128,
    "mamba_num_heads":4,"mamba_head_dim":16,"ssm_state_size":8,"n_groups":2,"conv_kernel":4,
    "use_conv_bias":true,"use_bias":false,"mlp_bias":false,"vocab_size":100,"tie_word_embeddings":false)" +
         extra + "}";
}

}  // namespace

TEST_CASE("nemotron_h: Nemotron-H-56B counted layer by layer from NemotronHBlock and its mixers") {
  // hidden 8192; pattern: 54 Mamba-2 ('M'), 10 attention ('*'), 54 MLP ('-') layers, one RMSNorm each.
  // Mamba-2: inner 256 x 64 = 16,384; conv channels 16,384 + 2 x 8 x 256 = 20,480;
  //   in_proj (16,384 + 20,480 + 256) x 8192 = 304,087,040; conv1d 20,480 x 4 + bias 20,480;
  //   dt_bias, A_log, D 3 x 256; gated norm 16,384; out_proj 8192 x 16,384 = 134,217,728
  //   -> 438,424,320 (+ block norm 8,192).
  // Attention: q 8192 x 8192, k and v 1024 x 8192 each, o 8192 x 8192, no biases -> 150,994,944.
  // MLP: up 32,768 x 8192 and down, relu2, no biases -> 536,870,912.
  // Embedding and lm_head 131,072 x 8192 = 1,073,741,824 each; norm_f 8,192.
  const std::int64_t mamba = 438'424'320, attention = 150'994'944, mlp = 536'870'912, norm = 8'192;
  const std::int64_t expected =
      54 * (mamba + norm) + 10 * (attention + norm) + 54 * (mlp + norm) + 2 * 1'073'741'824LL + norm;
  CHECK(expected == 56'324'350'464);
  const ModelDescription model = parse_hf_config(nemotron_h_56b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 54 * mamba);
  CHECK(count.breakdown.attention == 10 * attention);
  CHECK(count.breakdown.mlp == 54 * mlp);
  CHECK(count.breakdown.norms == 118 * norm + norm);
  CHECK(count.active_per_token == count.total);
  CHECK(model.parameter_count_exact());
  const auto& b = count.breakdown;
  CHECK(b.embedding + b.attention + b.mlp + b.routed_experts + b.shared_experts + b.router + b.norms + b.lm_head +
            b.ssm ==
        count.total);
}

TEST_CASE("nemotron_h: the state per sequence replaces the KV cache of Mamba-2 layers; attention keeps its cache") {
  // KV: 10 attention layers x 8 kv heads x (128 + 128) x 2 B = 40,960 B per token.
  // State per Mamba-2 layer (bf16): conv 20,480 x 4 + SSM 256 x 64 x 256 = 4,276,224 values = 8,552,448 B;
  // 54 layers: 461,832,192 B per sequence, whatever the context.
  const ModelDescription model = parse_hf_config(nemotron_h_56b());
  InferenceWorkload w;
  w.batch_size = 4;
  w.context_tokens = 8192;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 40'960);
  CHECK(figure.state_bytes_per_sequence == 461'832'192);
  CHECK(figure.bytes == 4 * (461'832'192LL + 40'960LL * 8192));
  w.context_tokens = 1024;  // a shorter context shrinks the attention cache only
  CHECK(kv_cache(model, w).bytes == 4 * (461'832'192LL + 40'960LL * 1024));
  // tp 2: 128 heads and 4 groups per rank: conv (8,192 + 2 x 4 x 256) x 4 + 128 x 64 x 256 = 2,138,112 values.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 2, 2) == 4'276'224);
}

TEST_CASE("nemotron_h: inference on a GPU answers memory, capacity and latency with the state counted") {
  const InferenceEstimate e =
      estimate_inference(nemotron_h_56b(), {{"gpu", "h200"}, {"batch", "8"}, {"context", "8192"}, {"tp", "2"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 461'832'192);
  CHECK(e.on_gpu->capacity.max_batch_size.value > 0);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(t.prefill_seconds > 0);
  CHECK(std::isfinite(t.decode_total_seconds));
  const std::string json = inference_report_json(e);
  CHECK(json.find("\"state_bytes_per_sequence\":461832192") != std::string::npos);
}

TEST_CASE("nemotron_h: a small hybrid by hand, and its refusals name the field") {
  // Mamba-2: inner 64; conv channels 64 + 2 x 2 x 8 = 96; in_proj (64 + 96 + 4) x 64 = 10,496; conv 384 + 96;
  // 3 x 4 scalars; norm 64; out_proj 4,096 -> 15,148 (+ norm 64). Attention: q 4,096 + k,v 2 x 2,048 + o 4,096
  // = 12,288 (+ 64). MLP: 2 x 128 x 64 = 16,384 (+ 64). Embedding and lm_head 6,400 each, norm_f 64.
  CHECK(count_parameters(parse_hf_config(small_nemotron_h("M*-"))).total == 15'212 + 12'352 + 16'448 + 2 * 6'400 + 64);
  CHECK(error_field(small_nemotron_h("M*-E")) == "hybrid_override_pattern");  // MoE layers: not modelled
  CHECK(error_field(small_nemotron_h("M*x")) == "hybrid_override_pattern");
  const std::string short_pattern =
      R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":4,"hybrid_override_pattern":"M*-",
    "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":128,"mamba_num_heads":4,
    "mamba_head_dim":16,"ssm_state_size":8,"n_groups":2,"conv_kernel":4,"vocab_size":100})";
  CHECK(error_message(short_pattern).find("describes 3 layers, but num_hidden_layers is 4") != std::string::npos);
  CHECK(error_field(R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":1,
    "hybrid_override_pattern":"M","intermediate_size":128,"num_attention_heads":4,"vocab_size":100})") ==
        "mamba_num_heads");
  CHECK(error_field(R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":1,"intermediate_size":128,
    "num_attention_heads":4,"vocab_size":100})") == "hybrid_override_pattern");
  // tp must split the Mamba heads.
  try {
    estimate_inference(small_nemotron_h("M*-"), {{"tp", "8"}});
    FAIL("tp 8 over 4 Mamba heads was accepted");
  } catch (const std::exception& error) {
    CHECK(std::string(error.what()).find("state-space (Mamba) heads") != std::string::npos);
  }
}

TEST_CASE("an unknown model_type is counted as an estimate and says what was guessed") {
  const std::string molmo = R"({"model_type":"molmo","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})";
  const ModelDescription model = parse_hf_config(molmo);
  CHECK_FALSE(model.parameter_count_exact());
  REQUIRE_FALSE(model.guessed_fields.empty());
  CHECK(model.guessed_fields.front().find("unknown model_type 'molmo'") != std::string::npos);
  const std::string params = parameter_report_json(molmo);
  CHECK(params.find("\"parameter_count_exact\":false") != std::string::npos);
  CHECK(params.find("\"guessed_fields\":[\"model_type: unknown model_type 'molmo'") != std::string::npos);
  const std::string infer = inference_report_json(molmo, {});
  CHECK(infer.find("\"parameter_count_exact\":false") != std::string::npos);
  // A known family is exact and says so.
  const std::string llama = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})";
  CHECK(parse_hf_config(llama).parameter_count_exact());
  CHECK(parameter_report_json(llama).find("\"parameter_count_exact\":true,\"guessed_fields\":[]") != std::string::npos);
  // The CLI marks the number itself: 64,000 + 2 x (16,384 + 24,576 + 128) + 64 + 64,000 = 210,240.
  const auto table = test::run_cli("params -", molmo);
  CHECK(table.exit_status == 0);
  CHECK(table.out.find("~210,240") != std::string::npos);
  CHECK(table.out.find("(estimate: model_type: unknown model_type 'molmo'") != std::string::npos);
}

TEST_CASE("MoE fields that contradict the family are refused, naming the field, for every family") {
  const std::string base = R"("hidden_size":64,"intermediate_size":128,"moe_intermediate_size":32,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,
    "kv_lora_rank":16,"qk_nope_head_dim":8,"qk_rope_head_dim":8,"v_head_dim":8)";
  const char* moe_families[] = {"mixtral", "qwen2_moe", "qwen3_moe",   "olmoe",       "granitemoe", "granitemoeshared",
                                "phimoe",  "gpt_oss",   "deepseek_v2", "deepseek_v3", "kimi_k2"};
  for (const char* family : moe_families) {
    CAPTURE(family);
    const std::string head = std::string(R"({"model_type":")") + family + "\"," + base;
    // Zero experts is not a dense model of an always-MoE family.
    CHECK(error_field(head + R"(,"num_local_experts":0,"num_experts_per_tok":2})") == "num_local_experts");
    CHECK(error_field(head + R"(,"num_experts":0})") == "num_experts");
    // No expert count at all: transformers would take its configuration class's default; fitcheck refuses.
    CHECK(error_field(head + R"(,"num_experts_per_tok":2})") == "num_local_experts");
    // With experts the family reads.
    CHECK(error_field(head + R"(,"num_local_experts":4,"num_experts_per_tok":2})") == "(no error)");
  }
  const char* dense_families[] = {"llama", "mistral", "qwen2", "qwen3",   "gemma",     "gemma2",    "gemma3_text",
                                  "phi3",  "cohere",  "olmo2", "granite", "internlm2", "starcoder2"};
  for (const char* family : dense_families) {
    CAPTURE(family);
    const std::string head = std::string(R"({"model_type":")") + family + "\"," + base;
    CHECK(error_field(head + R"(,"num_local_experts":8,"num_experts_per_tok":2})") == "num_local_experts");
    CHECK(error_field(head + R"(,"num_experts_per_tok":2})") == "num_experts_per_tok");
    CHECK(error_field(head + "}") == "(no error)");
  }
}

TEST_CASE("training memory refuses state-space layers rather than leaving their activations out") {
  const std::string text = small_nemotron_h("M*-");
  const auto result = test::run_cli("train - --json", text);
  CHECK(result.exit_status != 0);
  CHECK(result.err.find("state-space (Mamba-2)") != std::string::npos);
  // The training planner says the same, not "no training layout fits".
  const auto plan = test::run_cli("plan - --mode training --json", text);
  CHECK(plan.exit_status != 0);
  CHECK(plan.err.find("state-space (Mamba-2)") != std::string::npos);
}

TEST_CASE("images per request: each adds mm_tokens_per_image tokens to the prompt and the context") {
  const std::string medgemma = test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json");
  // 2 images x 256 tokens = 512 tokens: the cache of context 4,096 + 512 = the cache of context 4,608.
  const InferenceEstimate with_images = estimate_inference(medgemma, {{"context", "4096"}, {"images", "2"}});
  const InferenceEstimate longer = estimate_inference(medgemma, {{"context", "4608"}});
  CHECK(with_images.image_tokens == 512);
  CHECK(with_images.workload.context_tokens == 4608);
  CHECK(with_images.memory.totals.kv_cache_bytes == longer.memory.totals.kv_cache_bytes);
  CHECK(with_images.lengths.prompt_tokens ==
        estimate_inference(medgemma, {{"context", "4096"}}).lengths.prompt_tokens + 512);
  // 0 images changes nothing.
  CHECK(inference_report_json(estimate_inference(medgemma, {{"images", "0"}})) ==
        inference_report_json(estimate_inference(medgemma, {})));
  // A model without a counted vision tower refuses the option, naming it.
  try {
    estimate_inference(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
      "num_attention_heads":4,"vocab_size":1000})",
                       {{"images", "1"}});
    FAIL("images on a text-only model was accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "images");
  }
}
