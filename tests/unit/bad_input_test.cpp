// SPDX-License-Identifier: MIT
// The bad-input catalogue of docs/reliability.md, through the core and through the CLI: every
// entry is refused with one line naming the field (or option) and the reason, or accepted on
// purpose (a byte order mark, NaN in a field fitcheck does not read, a key repeated with the same
// value). Fuzz-found inputs are replayed at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// A small valid Llama: 1000 x 64 embedding, 2 layers of 4 heads (2 KV heads) of dimension 16.
const std::string llama_fields =
    R"("model_type":"llama","hidden_size":64,"intermediate_size":128,)"
    R"("num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000)";
const std::string llama = "{" + llama_fields + "}";

// The llama above with fields' JSON values replaced (or added), written as raw JSON text.
std::string llama_with(const std::vector<std::pair<std::string, std::string>>& changes) {
  nlohmann::ordered_json config = nlohmann::ordered_json::parse(llama);
  for (const auto& change : changes) config[change.first] = nullptr;
  std::string text = config.dump();
  for (const auto& [field, value] : changes) {
    const std::string slot = "\"" + field + "\":null";
    text.replace(text.find(slot), slot.size(), "\"" + field + "\":" + value);
  }
  return text;
}
std::string llama_with(const std::string& field, const std::string& value) { return llama_with({{field, value}}); }

struct Refusal {
  std::string field;
  std::string message;
};

Refusal config_refusal(const std::string& text) {
  try {
    (void)parameter_report_json(text);
  } catch (const ConfigError& error) {
    return {error.field(), error.what()};
  }
  FAIL("accepted: " << text.substr(0, 200));
  return {};
}

Refusal option_refusal(const std::string& config, const OptionList& options) {
  try {
    (void)inference_report_json(config, options);
  } catch (const ConfigError& error) {
    return {error.field(), error.what()};
  } catch (const OptionError& error) {
    return {error.option(), error.what()};
  } catch (const std::overflow_error& error) {
    return {"", error.what()};
  }
  FAIL("accepted");
  return {};
}

// The CLI prints the same refusal as one line and exits 2.
void check_cli_refuses(const std::string& arguments, const std::string& stdin_text, const std::string& needle) {
  const auto result = test::run_cli(arguments, stdin_text);
  CHECK(result.exit_status == 2);
  CHECK(result.out.empty());
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK_MESSAGE(result.err.find(needle) != std::string::npos, result.err);
}

struct ConfigCase {
  const char* name;
  std::string text;
  const char* field;    // expected ConfigError::field()
  const char* message;  // a part of the message
};

std::vector<ConfigCase> refused_configs() {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  return {
      {"truncated", llama.substr(0, llama.size() - 20), "", "not valid JSON (line 1, column"},
      {"trailing comma", "{" + llama_fields + ",}", "", "not valid JSON"},
      {"comment", "{// a comment\n" + llama_fields + "}", "", "not valid JSON (line 1, column 2)"},
      {"NaN in a read field", llama_with("vocab_size", "NaN"), "vocab_size", "non-finite literal NaN"},
      {"Infinity in a read field", llama_with("hidden_size", "-Infinity"), "hidden_size", "-Infinity"},
      {"NaN as a key", "{NaN:1," + llama_fields + "}", "", "not valid JSON (line 1, column 2)"},
      {"number beyond a double", llama_with("rope_theta", "1e400"), "", "beyond the range of a 64-bit float"},
      {"duplicate key, two values", "{" + llama_fields + R"(,"hidden_size":128})", "hidden_size",
       "appears more than once in config.json with different values (64, then 128)"},
      {"duplicate nested key",
       R"({"model_type":"gemma3","text_config":{)" + llama_fields + R"(,"num_hidden_layers":3}})",
       "text_config.num_hidden_layers", "(2, then 3)"},
      {"string for a number", llama_with("hidden_size", "\"64\""), "hidden_size",
       "must be a whole number, but it is a string"},
      {"fraction for a count", llama_with("num_hidden_layers", "2.5"), "num_hidden_layers", "whole number"},
      {"negative", llama_with("num_hidden_layers", "-2"), "num_hidden_layers", "must be at least 1"},
      {"zero", llama_with("intermediate_size", "0"), "intermediate_size", "must be at least 1"},
      {"absurd field", llama_with("hidden_size", "1099511627776"), "hidden_size", "beyond any real model"},
      {"beyond 64 bits", llama_with("vocab_size", "18446744073709551615"), "vocab_size", "too large"},
      {"products beyond 2^48 parameters",
       R"({"model_type":"llama","hidden_size":1048576,"intermediate_size":4194304,"num_hidden_layers":4096,)"
       R"("num_attention_heads":8,"vocab_size":1000})",
       "intermediate_size", "more than 2^48 parameters"},
      {"heads do not divide hidden", llama_with("num_attention_heads", "6"), "num_attention_heads", "not divisible"},
      {"kv heads do not divide heads", llama_with("num_key_value_heads", "3"), "num_key_value_heads", "not a multiple"},
      {"more kv heads than heads", llama_with("num_key_value_heads", "8"), "num_key_value_heads", "between 1 and"},
      {"missing required field", R"({"model_type":"llama","hidden_size":64})", "num_hidden_layers", "is missing"},
      {"missing model_type", R"({"hidden_size":64})", "model_type", "model_type' is missing"},
      {"layer_types against num_hidden_layers", llama_with("layer_types", R"(["full_attention"])"), "layer_types",
       "lists 1 layers, but the model has 2"},
      {"sliding layers without a window", llama_with("layer_types", R"(["sliding_attention","full_attention"])"),
       "sliding_window", "'sliding_window' is missing"},
      {"more experts per token than experts",
       R"({"model_type":"mixtral","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,)"
       R"("num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000,"num_local_experts":4,)"
       R"("num_experts_per_tok":8})",
       "num_experts_per_tok", "between 1 and the number of experts (4)"},
      {"bad quantization block",
       llama_with("quantization_config", R"({"quant_method":"fp8","weight_block_size":[0,128]})"),
       "quantization_config.weight_block_size", "between 1 and"},
      {"unsupported family", R"({"model_type":"zamba","hidden_size":64})", "model_type", "not supported yet"},
      {"wrong type for a section", llama_with("text_config", "[1]"), "text_config",
       "must be an object ({...}), but it is an array"},
      {"not an object", "[1, 2]", "", "must be a JSON object ({...}), but it is an array"},
      {"empty", "", "", "not valid JSON"},
      {"deep nesting in a read field", R"({"model_type":)" + deep + "}", "", "more than 64 levels deep"},
      {"deep nesting in an unread field", "{" + llama_fields + R"(,"extra":)" + deep + "}", "",
       "more than 64 levels deep"},
      {"65 levels", llama_with("extra", std::string(64, '[') + std::string(64, ']')), "",
       "more than 64 levels deep (line 1, column"},
      {"non-UTF-8 bytes", R"({"model_type":"llama)" + std::string("\xff\xfe") + R"("})", "",
       "ill-formed UTF-8 byte; last read: '\"llama\\xFF'"},
      {"10 MB of garbage", std::string(10 << 20, 'x'), "", "more than the 8 MiB fitcheck reads"},
  };
}

}  // namespace

TEST_CASE("bad configs are refused with the field and the reason, in the core and the CLI") {
  for (const auto& c : refused_configs()) {
    CAPTURE(c.name);
    const Refusal refusal = config_refusal(c.text);
    CHECK(refusal.field == c.field);
    CHECK_MESSAGE(refusal.message.find(c.message) != std::string::npos, refusal.message);
    if (!refusal.field.empty())
      CHECK(refusal.message.find(refusal.field.substr(refusal.field.rfind('.') + 1)) != std::string::npos);
    check_cli_refuses("params - --json", c.text, c.message);
  }
}

TEST_CASE("harmless oddities are accepted: BOM, NaN where fitcheck does not look, a key repeated with its value") {
  const std::int64_t total = count_parameters(parse_hf_config(llama)).total;
  // 1000 x 64 embedding and lm_head; per layer q 64x64, k and v 32x64, o 64x64, MLP 3 x 128x64,
  // 2 norms of 64; final norm 64: 2*64000 + 2*(4096+2048+2048+4096+24576+128) + 64 = 202,048.
  CHECK(total == 202'048);
  CHECK(count_parameters(parse_hf_config("\xEF\xBB\xBF" + llama)).total == total);
  const ModelDescription with_nan = parse_hf_config(llama_with("rope_scaling", R"({"factor":NaN,"low":-Infinity})"));
  CHECK(count_parameters(with_nan).total == total);
  CHECK(std::any_of(with_nan.assumptions.begin(), with_nan.assumptions.end(),
                    [](const std::string& line) { return line.find("NaN/Infinity") != std::string::npos; }));
  CHECK(count_parameters(parse_hf_config("{" + llama_fields + R"(,"hidden_size": 64 })")).total == total);
  // A duplicate in a field fitcheck never reads: the JSON library keeps the last, nothing changes.
  CHECK(count_parameters(parse_hf_config("{" + llama_fields + R"(,"rope_theta":1,"rope_theta":2})")).total == total);
  CHECK(count_parameters(parse_hf_config(llama_with("num_hidden_layers", "2.0"))).total ==
        total);  // noted as an assumption
  // 64 levels (the object and 63 arrays) are accepted; the 65th is refused (above).
  CHECK(count_parameters(parse_hf_config(llama_with("nested", std::string(63, '[') + std::string(63, ']')))).total ==
        total);
}

// Speed is not asserted here (bench/ measures it); the fuzz replay holds every committed input to
// FUZZ_TIMEOUT (10 s) per run under the sanitizers.
TEST_CASE("7 MB of JSON is read (the limit is 8 MiB)") {
  const std::string padding = "\"" + std::string(7 << 20, 'a') + "\"";
  CHECK(count_parameters(parse_hf_config(llama_with("padding", padding))).total == 202'048);
  std::string many(1, '[');
  for (int i = 0; i < 1'000'000; ++i) many += i ? ",1.5" : "1.5";
  many += ']';
  CHECK(count_parameters(parse_hf_config(llama_with("many", many))).total == 202'048);
  const auto result = test::run_cli("params - --json", llama_with("padding", padding));
  CHECK(result.exit_status == 0);
}

TEST_CASE("workloads that make no sense are refused naming the option") {
  // 6 heads of 16 over 3 KV heads: tp 2 divides the heads, and neither 3 / 2 nor 2 / 3 is whole.
  const std::string six_heads =
      llama_with({{"hidden_size", "96"}, {"num_attention_heads", "6"}, {"num_key_value_heads", "3"}});
  struct Case {
    const char* name;
    std::string config;
    OptionList options;
    const char* option;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"tp does not divide the heads", llama, {{"tp", "3"}}, "tp", "does not divide the 4 attention heads"},
      {"tp and kv heads divide neither way", six_heads, {{"tp", "2"}}, "tp", "key/value heads divide neither way"},
      {"pp larger than the layers", llama, {{"pp", "3"}}, "pp", "larger than the 2 layers"},
      {"ep on a dense model", llama, {{"ep", "2"}}, "ep", "needs a mixture-of-experts model"},
      {"batch 0", llama, {{"batch", "0"}}, "batch", "must be between 1 and"},
      {"context 0", llama, {{"context", "0"}}, "context", "must be between 1 and"},
      {"utilization 0", llama, {{"gpu_memory_utilization", "0"}}, "gpu_memory_utilization", "between 0.01"},
      {"utilization above 1", llama, {{"gpu_memory_utilization", "1.5"}}, "gpu_memory_utilization", "between 0.01"},
      {"utilization NaN", llama, {{"gpu_memory_utilization", "nan"}}, "gpu_memory_utilization", "finite number"},
      {"unknown GPU", llama, {{"gpu", "h1000"}}, "gpu", "unknown GPU 'h1000'"},
      {"unknown format", llama, {{"weights", "q3_k_xl"}}, "weights", "unknown weight format 'q3_k_xl'"},
      {"unknown KV dtype", llama, {{"kv_dtype", "fp7"}}, "kv_dtype", "unknown KV cache dtype 'fp7'"},
      {"unknown option", llama, {{"batchsize", "8"}}, "batchsize", "unknown option 'batchsize'"},
      {"GPTQ bits it cannot pack", llama, {{"weights", "gptq"}, {"weight_bits", "5"}}, "weight_bits", "2, 3, 4 or 8"},
      {"count written as a fraction", llama, {{"batch", "1.5"}}, "batch", "whole number"},
      {"unknown dispatcher", llama, {{"moe_dispatcher", "nccl"}}, "moe_dispatcher", "must be alltoall or deepep"},
      {"DeepEP without expert parallelism",
       llama,
       {{"moe_dispatcher", "deepep"}},
       "moe_dispatcher",
       "needs ep (1) larger than tp (1)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const Refusal refusal = option_refusal(c.config, c.options);
    CHECK(refusal.field == c.option);
    CHECK_MESSAGE(refusal.message.find(c.message) != std::string::npos, refusal.message);
    CHECK(refusal.message.find(c.option) != std::string::npos);
  }
  // A value's bytes reach the message escaped (fuzz: invalid UTF-8 in moe_dispatcher).
  const Refusal bytes = option_refusal(llama, {{"moe_dispatcher", "deep\x92\x8f"}});
  CHECK(bytes.field == "moe_dispatcher");
  CHECK(bytes.message.find('\x92') == std::string::npos);
  check_cli_refuses("infer - --tp 3", llama, "option 'tp': tensor parallel size 3 does not divide");
  check_cli_refuses("infer - --batch 0", llama, "option 'batch' must be between 1");
  check_cli_refuses("infer - --gpu h1000", llama, "unknown GPU");
}

TEST_CASE("a workload beyond 2^53 bytes is refused, and capacity searches treat it as not fitting") {
  const std::string big = test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-405B.json");
  // 126 layers x 8 KV heads x (128 + 128) x 2 B = 516,096 B per token; x 2^24 x 2^32 tokens is ~2^78.
  const Refusal refusal = option_refusal(big, {{"batch", "16777216"}, {"context", "4294967296"}});
  CHECK(refusal.field.empty());
  CHECK(refusal.message.find("exceeds 2^") != std::string::npos);
  check_cli_refuses("infer - --batch 16777216 --context 4294967296", big, "exceeds 2^");
  // With a GPU, the searches for the largest batch and context step over such workloads.
  const auto report =
      nlohmann::json::parse(inference_report_json(big, {{"context", "131072"}, {"gpu", "h100-sxm-80gb"}}));
  CHECK(report["fits"] == false);
  CHECK(report["max_batch_size"] == 0);
  CHECK(report["min_gpus"].get<std::int64_t>() > 8);
}

// It took minutes when every layout weighed every tensor; tests/fuzz/regressions/inference/
// thousand-layers-min-gpus.txt holds it to the fuzz replay's 10 s.
TEST_CASE("a thousand-layer model on a GPU it can never fit answers") {
  const std::string deep_model = llama_with("num_hidden_layers", "1024");
  const auto report = nlohmann::json::parse(
      inference_report_json(deep_model, {{"gpu", "t4"}, {"context", "100000000"}, {"batch", "100"}}));
  CHECK(report["min_gpus"] == 0);  // one layer's cache (100 x 10^8 tokens x 128 B) exceeds any T4
}

TEST_CASE("fuzz-found inputs stay fixed") {
  // tests/fuzz/regressions/<target>/ holds the inputs that once crashed a target or broke one of
  // its rules; each must now give a report or a named refusal (and, in scripts/fuzz.sh's replay,
  // within 10 s and every rule of its target).
  const std::filesystem::path root = std::filesystem::path(test::fixture_configs_dir()) / "../../fuzz/regressions";
  REQUIRE(std::filesystem::exists(root));
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    CAPTURE(entry.path().string());
    const std::string text = test::read_file(entry.path().string());
    const std::string target = entry.path().parent_path().filename().string();
    std::string config = text;
    OptionList options;
    if (const auto marker = text.find("\n%%\n"); marker != std::string::npos) {
      config = text.substr(marker + 4);
      for (std::size_t start = 0; start < marker;) {
        const std::size_t end = std::min(text.find('\n', start), marker);
        const std::string line = text.substr(start, end - start);
        if (!line.empty())
          options.emplace_back(line.substr(0, line.find('=')),
                               line.find('=') == std::string::npos ? "" : line.substr(line.find('=') + 1));
        start = end + 1;
      }
    }
    try {
      if (target == "config")
        (void)parameter_report_json(config);
      else if (target == "inference")
        (void)inference_report_json(config, options);
      else if (target == "training")
        (void)training_report_json(config, options);
      else if (target == "plan")
        (void)plan_report_json(config, options);
      else
        continue;
    } catch (const ConfigError& error) {
      CHECK(std::string(error.what()).size() > 0);
    } catch (const OptionError& error) {
      CHECK(std::string(error.what()).size() > 0);
    } catch (const std::overflow_error& error) {
      CHECK(std::string(error.what()).size() > 0);
    }
  }
}
