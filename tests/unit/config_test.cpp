// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>

#include "fitcheck/config.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The field a parse error names, or "(no error)".
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

bool mentions(const std::vector<std::string>& lines, const std::string& fragment) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) { return line.find(fragment) != std::string::npos; });
}

const std::string small_llama = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
  "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000})";

}  // namespace

TEST_CASE("a Llama config becomes a normalized description") {
  const ModelDescription model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
  CHECK(model.model_type == "llama");
  CHECK(model.architecture == "LlamaForCausalLM");
  CHECK(model.hidden_size == 4096);
  CHECK(model.num_layers == 32);
  CHECK(model.vocab_size == 128256);
  CHECK_FALSE(model.tie_word_embeddings);
  REQUIRE(model.layer_kinds.size() == 1);
  CHECK(model.layer_kinds[0].layer_count == 32);
  CHECK(model.layer_kinds[0].attention.num_heads == 32);
  CHECK(model.layer_kinds[0].attention.num_kv_heads == 8);
  CHECK(model.layer_kinds[0].attention.head_dim == 128);
  CHECK(model.layer_kinds[0].mlp.gated);
}

TEST_CASE("explicit head_dim wins over hidden/heads") {
  const ModelDescription model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/mistralai--Devstral-Small-2507.json"));
  CHECK(model.layer_kinds[0].attention.head_dim == 128);  // 5120 / 32 would be 160
}

TEST_CASE("alternating sliding-window layers become two layer kinds") {
  const ModelDescription gemma2 = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Ayush2006128--mithoon-2b.json"));
  REQUIRE(gemma2.layer_kinds.size() == 2);
  CHECK(gemma2.layer_kinds[gemma2.layer_kind_of_layer[0]].attention.sliding_window == 4096);
  CHECK(gemma2.layer_kinds[gemma2.layer_kind_of_layer[1]].attention.sliding_window == 0);
  const ModelDescription gemma3 = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json"));
  // 62 layers, every 6th global: layers 5, 11, ..., 59 -> 10 global, 52 local.
  int global = 0;
  for (auto kind : gemma3.layer_kind_of_layer) global += gemma3.layer_kinds[kind].attention.sliding_window == 0;
  CHECK(global == 10);
  CHECK(mentions(gemma3.not_counted, "vision"));
}

TEST_CASE("DeepSeek-V3 reads MLA, dense-first layers and the MTP depth") {
  const ModelDescription model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"));
  CHECK(model.multi_token_prediction_layers == 1);
  int dense = 0;
  for (auto kind : model.layer_kind_of_layer) dense += !model.layer_kinds[kind].is_moe();
  CHECK(dense == 3);
  const AttentionShape& attention = model.layer_kinds[0].attention;
  CHECK(attention.is_multi_latent());
  CHECK(attention.kv_lora_rank == 512);
  CHECK(attention.qk_rope_head_dim == 64);
}

TEST_CASE("malformed JSON names the line and column") {
  const std::string message = error_message("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 64,\n}");
  CHECK(message.find("not valid JSON") != std::string::npos);
  CHECK(message.find("line 4") != std::string::npos);
  CHECK(error_field("[1, 2]") == "");
  CHECK(error_message("[1, 2]").find("must be a JSON object") != std::string::npos);
  CHECK(error_field("") == "");
}

TEST_CASE("missing and mistyped fields are named") {
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":10})") ==
        "intermediate_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":"64","intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64.5,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":-64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10})") == "hidden_size");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10,"tie_word_embeddings":"yes"})") == "tie_word_embeddings");
  CHECK(error_field(R"({"hidden_size":64})") == "model_type");
}

TEST_CASE("shapes that cannot be built are refused") {
  // 60 is not divisible by 7 heads and there is no head_dim.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":60,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":7,"vocab_size":10})") == "num_attention_heads");
  // 4 query heads cannot be grouped over 3 key/value heads.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":3,"vocab_size":10})") == "num_key_value_heads");
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":10,"num_local_experts":8,"num_experts_per_tok":9})") == "num_experts_per_tok");
  // Absurd sizes are refused before any product can overflow.
  CHECK(error_field(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2000000000,
    "num_attention_heads":4,"vocab_size":10})") == "num_hidden_layers");
}

TEST_CASE("an integral float is read as a count, and said so") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"llama","hidden_size":64.0,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})");
  CHECK(model.hidden_size == 64);
  CHECK(mentions(model.assumptions, "hidden_size"));
}

TEST_CASE("defaults taken are reported") {
  const ModelDescription model = parse_hf_config(small_llama);
  CHECK(mentions(model.assumptions, "tie_word_embeddings absent"));
}

TEST_CASE("an unknown model_type with standard fields is read as a generic decoder, with assumptions") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"my_new_llm","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})");
  CHECK(mentions(model.assumptions, "my_new_llm"));
  CHECK(mentions(model.assumptions, "generic"));
}

TEST_CASE("an unknown model_type with fields missing names all of them") {
  const std::string message = error_message(R"({"model_type":"my_new_llm","hidden_size":64})");
  CHECK(message.find("num_hidden_layers") != std::string::npos);
  CHECK(message.find("intermediate_size") != std::string::npos);
  CHECK(message.find("vocab_size") != std::string::npos);
}

TEST_CASE("unsupported architectures are refused by name") {
  CHECK(error_message(test::read_file(test::fixture_configs_dir() + "/nvidia--Nemotron-H-56B-Base-8K.json")).find("Mamba") !=
        std::string::npos);
}

TEST_CASE("NaN and Infinity literals pass in unread fields and fail in read ones") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000,"time_step_limit":[0.0, Infinity]})");
  CHECK(mentions(model.assumptions, "Infinity"));
  CHECK(error_field(R"({"model_type":"llama","hidden_size":NaN,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":1000})") == "hidden_size");
}

TEST_CASE("a UTF-8 byte order mark is accepted") {
  CHECK(parse_hf_config("\xEF\xBB\xBF" + small_llama).hidden_size == 64);
}
