// SPDX-License-Identifier: MIT
// Reliability, round two (docs/reliability.md): each case is an input that fitcheck answered wrongly
// (an infinite figure, a silent misreading, raw terminal bytes, a misleading refusal) and the answer
// it must give instead. Hostile inputs as data live in tests/fixtures/hostile/.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "../../cli/format.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_memory.hpp"
#include "test_support.hpp"

using namespace fitcheck;
using Json = nlohmann::json;

namespace {

const std::string llama = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,)"
                          R"("num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000})";

std::string hostile(const std::string& name) {
  return test::read_file(test::fixture_configs_dir() + "/../hostile/" + name);
}
std::string hostile_path(const std::string& name) { return test::fixture_configs_dir() + "/../hostile/" + name; }

template <typename Call>
std::string refused_option(Call&& call) {
  try {
    call();
  } catch (const OptionError& error) {
    return error.option();
  }
  FAIL("accepted");
  return {};
}

template <typename Call>
ConfigError refused_config(Call&& call) {
  try {
    call();
  } catch (const ConfigError& error) {
    return error;
  }
  FAIL("accepted");
  return ConfigError("", "");
}

const OptionList custom_gpu{
    {"gpu", "custom"}, {"custom_gpu_memory_gib", "80"}, {"custom_gpu_bandwidth_gb_per_s", "3000"}};

OptionList with(OptionList options, const OptionList& more) {
  options.insert(options.end(), more.begin(), more.end());
  return options;
}

}  // namespace

TEST_CASE("D01: a custom GPU rate that would make a figure infinite is refused, naming the option") {
  for (const char* rate : {"5e-324", "1e-300", "1e-9", "0.0009"}) {
    CAPTURE(rate);
    CHECK(refused_option([&] {
            (void)inference_report_json(llama, with(custom_gpu, {{"custom_gpu_bf16_tflops", rate}}));
          }) == "custom_gpu_bf16_tflops");
    CHECK(refused_option([&] {
            (void)inference_report_json(
                llama, with(custom_gpu, {{"custom_gpu_bf16_tflops", "1000"}, {"custom_gpu_fp8_tflops", rate}}));
          }) == "custom_gpu_fp8_tflops");
    CHECK(refused_option([&] {
            (void)inference_report_json(llama, with(custom_gpu, {{"custom_gpu_bf16_tflops", "1000"},
                                                                 {"custom_gpu_interconnect_gb_per_s", rate},
                                                                 {"custom_gpu_gpus_per_node", "8"},
                                                                 {"tp", "2"}}));
          }) == "custom_gpu_interconnect_gb_per_s");
    CHECK(refused_option([&] {
            (void)training_report_json(llama, {{"gpu", "custom"},
                                               {"custom_gpu_memory_gib", "16384"},
                                               {"custom_gpu_bandwidth_gb_per_s", "1"},
                                               {"custom_gpu_bf16_tflops", rate}});
          }) == "custom_gpu_bf16_tflops");
    CHECK(refused_option([&] {
            (void)plan_report_json(llama, {{"gpus", "h100-sxm-80gb,custom"},
                                           {"custom_gpu_memory_gib", "80"},
                                           {"custom_gpu_bandwidth_gb_per_s", "3000"},
                                           {"custom_gpu_bf16_tflops", rate}});
          }) == "custom_gpu_bf16_tflops");
  }
  // The smallest rates allowed give finite figures, and 0 still means "no such path" for the optional ones.
  const Json report =
      Json::parse(inference_report_json(llama, with(custom_gpu, {{"custom_gpu_bf16_tflops", "0.001"},
                                                                 {"custom_gpu_fp8_tflops", "0"},
                                                                 {"custom_gpu_interconnect_gb_per_s", "0.001"},
                                                                 {"custom_gpu_gpus_per_node", "8"},
                                                                 {"tp", "2"}})));
  CHECK(report["latency"]["end_to_end_seconds"].is_number());
  CHECK(report["latency"]["time_to_first_token_seconds"].is_number());
}

TEST_CASE("D01/D12: a custom GPU with bf16 0 names the option") {
  CHECK(refused_option([&] {
          (void)inference_report_json(llama, with(custom_gpu, {{"custom_gpu_bf16_tflops", "0"}}));
        }) == "custom_gpu_bf16_tflops");
}

TEST_CASE("D03/D13: the CLI's one escaping rule") {
  CHECK(cli::terminal_safe("plain ascii, tab\tand newline\n") == "plain ascii, tab\tand newline\n");
  CHECK(cli::terminal_safe("\x1b[2J") == "\\x1B[2J");
  CHECK(cli::terminal_safe(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(cli::terminal_safe("\x7f\r\x07") == "\\x7F\\x0D\\x07");
  CHECK(cli::terminal_safe("\xc2\x9b"
                           "31m") == "\\u009B31m");  // C1 CSI as UTF-8
  CHECK(cli::terminal_safe("\xe2\x80\xae"
                           "txt") == "\\u202Etxt");                // right-to-left override
  CHECK(cli::terminal_safe("\xff\xc3") == "\\xFF\\xC3");           // invalid and truncated UTF-8
  CHECK(cli::terminal_safe("\xc0\xaf") == "\\xC0\\xAF");           // overlong '/'
  CHECK(cli::terminal_safe("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // a surrogate
  CHECK(cli::terminal_safe("caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x98\x80");
}

TEST_CASE("D03/D13: no CLI output carries a terminal escape from a config, an option or a path") {
  const auto no_escape = [](const test::CommandResult& result) {
    CHECK(result.out.find('\x1b') == std::string::npos);
    CHECK(result.err.find('\x1b') == std::string::npos);
    CHECK(result.out.find('\x07') == std::string::npos);
    CHECK(result.err.find('\x07') == std::string::npos);
  };
  const std::string config = hostile_path("terminal-escapes.json");
  const auto params = test::run_cli("params '" + config + "'");
  no_escape(params);
  CHECK(params.out.find("\\x1B[2J") != std::string::npos);
  const auto infer = test::run_cli("infer '" + config + "'");
  no_escape(infer);
  CHECK(infer.out.find("\\x1B]52;") != std::string::npos);
  const auto mode = test::run_cli("plan - --mode \"$(printf '\\377\\033[2Jtraining')\"", llama);
  no_escape(mode);
  CHECK(mode.err.find("\\xFF\\x1B[2J") != std::string::npos);
  // A NUL inside a config string (valid JSON: \u0000) is shown, not an end of the text.
  std::string nul = llama;
  nul.replace(nul.find("\"llama\""), 7, "\"llama\\u0000evil\"");
  for (const char* command : {"params -", "infer -", "train -"}) {
    const auto shown = test::run_cli(command, nul);
    CAPTURE(command);
    CHECK(shown.out.find("llama\\x00evil") != std::string::npos);
  }
  const auto path = test::run_cli("params \"$(printf '/nonexistent/\\033]0;pwned\\007')\"");
  no_escape(path);
  CHECK(path.err.find("\\x1B]0;pwned\\x07") != std::string::npos);
}

TEST_CASE("D05: an MoE field that contradicts its family is refused, naming it") {
  CHECK(refused_config([] { (void)parse_hf_config(hostile("mixtral-zero-experts.json")); }).field() ==
        "num_local_experts");
  // 0 experts with top-k 2 in a family that is not always MoE: the top-k contradicts it.
  std::string qwen = llama;
  qwen.replace(qwen.find("llama"), 5, "qwen2");
  qwen.insert(qwen.size() - 1, R"(,"num_experts":0,"num_experts_per_tok":2)");
  CHECK(refused_config([&] { (void)parse_hf_config(qwen); }).field() == "num_experts");
  // Without a top-k, 0 experts in a dense family stays a dense model.
  std::string dense = llama;
  dense.insert(dense.size() - 1, R"(,"num_experts":0)");
  CHECK(parse_hf_config(dense).layer_kinds.at(0).is_moe() == false);
}

TEST_CASE("D06: every list option names each item once, in both planners") {
  const Json one = Json::parse(plan_report_json(
      llama, {{"gpus", "h200"}, {"keep", "50"}, {"batches", "1,8"}, {"weights", "bf16"}, {"kv_dtypes", "bf16"}}));
  const Json twice = Json::parse(plan_report_json(llama, {{"gpus", "h200,H200, h200"},
                                                          {"keep", "50"},
                                                          {"batches", "8,8,1"},
                                                          {"weights", "bf16,bf16"},
                                                          {"kv_dtypes", "bf16,bf16"}}));
  CHECK(twice["request"]["gpus"] == Json::array({"h200"}));
  CHECK(twice["request"]["batches"] == Json::array({8, 1}));
  CHECK(twice["best"].size() == one["best"].size());
  CHECK(twice["evaluated"] == one["evaluated"]);
  const OptionList training{{"gpus", "h100-sxm-80gb,H100,h100-sxm-80gb"},
                            {"max_gpus", "8"},
                            {"micro_batch_sizes", "1,1"},
                            {"zero_stages", "0,0"},
                            {"recompute_modes", "none,none"},
                            {"keep", "50"}};
  const Json t = Json::parse(training_plan_report_json(llama, training));
  const Json t1 = Json::parse(training_plan_report_json(llama, {{"gpus", "h100-sxm-80gb"},
                                                                {"max_gpus", "8"},
                                                                {"micro_batch_sizes", "1"},
                                                                {"zero_stages", "0"},
                                                                {"recompute_modes", "none"},
                                                                {"keep", "50"}}));
  CHECK(t["request"]["gpus"].size() == 1);
  CHECK(t["best"].size() == t1["best"].size());
  CHECK(t["evaluated"] == t1["evaluated"]);
}

TEST_CASE("D08: layouts the objective ties on come in one total order") {
  const Json plan = Json::parse(plan_report_json(
      test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"), {{"gpus", "h100-sxm-80gb"},
                                                                                        {"weights", "fp8,int8"},
                                                                                        {"kv_dtypes", "fp8,int8"},
                                                                                        {"max_gpus", "8"},
                                                                                        {"batches", "1,8"},
                                                                                        {"keep", "40"}}));
  const auto& best = plan["best"];
  REQUIRE(best.size() > 4);
  int ties = 0;
  for (std::size_t i = 1; i < best.size(); ++i) {
    const auto& a = best[i - 1];
    const auto& b = best[i];
    if (a["tokens_per_second"] != b["tokens_per_second"] ||
        a["cost_per_million_output_tokens_usd"] != b["cost_per_million_output_tokens_usd"])
      continue;
    ++ties;
    // fp8 is listed before int8 in the catalogs (weights and KV dtypes alike): the earlier one first.
    const auto key = [](const Json& c) {
      return std::make_tuple(c["gpus"].get<int>(), c["tp"].get<int>(), c["pp"].get<int>(), c["ep"].get<int>(),
                             c["weights"] == "fp8" ? 0 : 1, c["kv_dtype"] == "fp8" ? 0 : 1, c["batch"].get<int>());
    };
    CHECK(key(a) < key(b));
  }
  CHECK(ties > 0);
}

TEST_CASE("D09: quantization_config.group_size 0 is refused, naming the field") {
  CHECK(refused_config([] { (void)parse_hf_config(hostile("gptq-group-size-zero.json")); }).field() ==
        "quantization_config.group_size");
}

TEST_CASE("D10: a NUL byte is refused in a config and in an option value") {
  const ConfigError error = refused_config([] { (void)parse_hf_config(hostile("nul-then-garbage.json")); });
  CHECK(std::string(error.what()).find("NUL") != std::string::npos);
  CHECK(refused_option([] {
          (void)inference_report_json(llama, {{"batch", std::string("8\0garbage", 9)}});
        }) == "batch");
  CHECK(refused_option([] { (void)inference_report_json(llama, {{"gpu", std::string("h100\0x", 6)}}); }) == "gpu");
  // A key given twice: the last value wins, but a NUL in the one it overrides is refused too (a fuzz
  // input: "batch=\x1e\0..." then "batch=16777").
  CHECK(refused_option([] {
          (void)inference_report_json(llama, {{"batch", std::string("\x1e\0\0", 3)}, {"batch", "16"}});
        }) == "batch");
}

TEST_CASE("D11: one input limit, refused before parsing") {
  std::string big = llama;
  big.insert(1, "\"padding\":\"" + std::string(kMaxConfigBytes, 'x') + "\",");
  const ConfigError error = refused_config([&] { (void)parse_hf_config(big); });
  CHECK(std::string(error.what()).find("8 MiB") != std::string::npos);
  const auto cli = test::run_cli("params -", big);
  CHECK(cli.exit_status == 2);
  CHECK(cli.err.find("8 MiB") != std::string::npos);
}

TEST_CASE("D12: refusals name the real problem") {
  const std::string brackets = refused_config([] { (void)parse_hf_config(hostile("junk-with-brackets.txt")); }).what();
  CHECK(brackets.find("nests") == std::string::npos);
  CHECK(brackets.find("invalid literal") != std::string::npos);
  const std::string fullwidth = refused_config([] { (void)parse_hf_config(hostile("fullwidth-brace.json")); }).what();
  CHECK(fullwidth.find("BOM") == std::string::npos);
  CHECK(fullwidth.find("\xef\xbd\x9b") != std::string::npos);
  std::string huge = llama;
  huge.replace(huge.find("1000"), 4, "18446744073709551616");
  const ConfigError too_large = refused_config([&] { (void)parse_hf_config(huge); });
  CHECK(too_large.field() == "vocab_size");
  CHECK(std::string(too_large.what()).find("too large") != std::string::npos);
  // Columns count characters: "é" is one column, two bytes (x is the 8th character, the 10th byte).
  const std::string column = refused_config([] { (void)parse_hf_config("{\"\xc3\xa9\xc3\xa9\": x}"); }).what();
  CHECK_MESSAGE(column.find("line 1, column 8)") != std::string::npos, column);
  const auto cli = test::run_cli("infer - --batch --context 5", llama);
  CHECK(cli.exit_status == 2);
  CHECK(cli.err.find("--batch") != std::string::npos);
  CHECK(cli.err.find("needs a value") != std::string::npos);
}

TEST_CASE("one numeric grammar for every option value") {
  const auto batch = [](const std::string& text) {
    return Json::parse(inference_report_json(llama, {{"batch", text}}))["workload"]["batch"].get<int>();
  };
  CHECK(batch("8") == 8);
  CHECK(batch(" 8\t") == 8);
  for (const char* bad : {"+8", "0x8", "8.0", "1e1", "8 8", "", " ", "-", "8_0", "\xef\xbc\x98"})
    CHECK(refused_option([&] { (void)inference_report_json(llama, {{"batch", bad}}); }) == "batch");
  const auto utilization = [](const std::string& text) {
    return refused_option([&] { (void)inference_report_json(llama, {{"gpu_memory_utilization", text}}); });
  };
  for (const char* bad : {"0x1p-1", "inf", "nan", "+0.5", "0.5.", "e5", ".e1", "0,5"})
    CHECK(utilization(bad) == "gpu_memory_utilization");
  for (const char* good : {"0.5", ".5", "5e-1", " 0.5 ", "1."})
    CHECK_NOTHROW((void)inference_report_json(llama, {{"gpu_memory_utilization", good}}));
  CHECK(refused_option([] { (void)inference_report_json(llama, {{"batch", "99999999999999999999"}}); }) == "batch");
}

TEST_CASE("transformer-mem reads params one way in the CLI and in the core's options") {
  // The CLI follows transformer_mem.py (argparse type=int): "1.5e9" is not an int there.
  const auto cli = test::run_cli("transformer-mem --params 1.5e9");
  CHECK(cli.exit_status == 2);
  CHECK(refused_option([] { (void)transformer_mem_report_json({{"params", "1.5e9"}}); }) == "params");
  // Both refuse 0 with the core's own message.
  const auto zero = test::run_cli("transformer-mem --params 0");
  CHECK(zero.exit_status != 0);
  CHECK(zero.err.find("--params/-p: must be a finite number > 0 (got 0)") != std::string::npos);
  try {
    (void)transformer_mem_report_json({{"params", "0"}});
    FAIL("accepted");
  } catch (const std::exception& error) {
    CHECK(std::string(error.what()).find("params must be a finite number > 0 (got 0)") != std::string::npos);
  }
  const Json report = Json::parse(transformer_mem_report_json({{"params", "6900000000"}}));
  CHECK(report.dump().find("6900000000") != std::string::npos);
}
