// SPDX-License-Identifier: MIT
// A user-defined accelerator (gpu=custom): the same figures as a catalog entry give the same
// results, memory edges fall where the arithmetic says, and every bad value names its key.
#include <doctest/doctest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/hardware.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_request.hpp"
#include "test_support.hpp"

using namespace fitcheck;
using Json = nlohmann::json;

namespace {

std::string qwen() { return test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen2-0.5B.json"); }

// A small valid Llama: 1000 x 64 embedding, 2 layers of 4 heads (2 KV heads) of dimension 16.
const std::string tiny_llama =
    R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,)"
    R"("num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000})";

// The H100 SXM's catalog figures as spec-sheet numbers (hardware_nvidia_hbm.cpp): 81559 MiB =
// 81559 / 1024 GiB = 79.6474609375 GiB, 3.35 TB/s, dense 989.4 / 989.4 / 1978.9 / 1978.9 / 67
// TFLOP/s, NVLink 450 GB/s per direction, 8 per node, 2.69 USD/h.
const OptionList h100_as_custom = {
    {"gpu", "custom"},
    {"custom_gpu_name", "NVIDIA H100 SXM5 80GB"},  // the catalog name, so that formulas quoting it match
    {"custom_gpu_memory_gib", "79.6474609375"},
    {"custom_gpu_bandwidth_gb_per_s", "3350"},
    {"custom_gpu_bf16_tflops", "989.4"},
    {"custom_gpu_fp16_tflops", "989.4"},
    {"custom_gpu_fp8_tflops", "1978.9"},
    {"custom_gpu_int8_tops", "1978.9"},
    {"custom_gpu_fp32_tflops", "67"},
    {"custom_gpu_interconnect_gb_per_s", "450"},
    {"custom_gpu_gpus_per_node", "8"},
    {"custom_gpu_price_per_hour", "2.69"},
};

OptionList with(OptionList options, const OptionList& more) {
  options.insert(options.end(), more.begin(), more.end());
  return options;
}

// The report without the fields that name the GPU (and its tf32/fp4/int4 rates, which the custom
// keys do not set and a bf16 workload does not read).
Json without_gpu_identity(Json report) {
  report.erase("gpu");
  return report;
}

std::string gib_text(std::int64_t bytes) {
  char text[64];  // bytes / 2^30 is a dyadic fraction: %.40g prints it exactly, strtod reads it back exactly
  std::snprintf(text, sizeof text, "%.40g", static_cast<double>(bytes) / 1073741824.0);
  return text;
}

std::string refusal_key(const OptionList& options) {
  try {
    (void)parse_inference_options(options);
  } catch (const OptionError& error) {
    CHECK(std::string(error.what()).find(error.option()) != std::string::npos);  // the message names it too
    return error.option();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("a custom GPU with exactly the H100 SXM's figures gives the H100 SXM's results") {
  const OptionList workload = {{"tp", "2"}, {"batch", "8"}, {"prompt_len", "2048"}, {"gen_len", "256"}};
  const Json catalog = Json::parse(inference_report_json(qwen(), with({{"gpu", "h100-sxm-80gb"}}, workload)));
  const Json custom = Json::parse(inference_report_json(qwen(), with(h100_as_custom, workload)));
  CHECK(without_gpu_identity(custom) == without_gpu_identity(catalog));
  CHECK(custom["gpu"]["id"] == "custom");
  CHECK(custom["gpu"]["sources"] == "user-defined");
  CHECK(custom["gpu"]["vendor"] == "user-defined");
  CHECK(custom["gpu"]["memory_bytes"] == catalog["gpu"]["memory_bytes"]);
  CHECK(custom["gpu"]["budget_bytes"] == catalog["gpu"]["budget_bytes"]);
  REQUIRE(custom["latency"]["time_to_first_token_seconds"].is_number());
  CHECK(custom["latency"]["time_to_first_token_seconds"] == catalog["latency"]["time_to_first_token_seconds"]);

  // Based on the catalog entry with nothing overridden: every figure is the entry's own.
  const OptionList based_on_h100 = {
      {"gpu", "custom"}, {"custom_gpu_base", "h100"}, {"custom_gpu_name", "NVIDIA H100 SXM5 80GB"}};
  const Json based = Json::parse(inference_report_json(qwen(), with(based_on_h100, workload)));
  CHECK(without_gpu_identity(based) == without_gpu_identity(catalog));
  CHECK(based["gpu"]["dense_flops_per_second"] == catalog["gpu"]["dense_flops_per_second"]);
}

TEST_CASE("training and the planner read a custom GPU like the catalog entry it copies") {
  const OptionList run = {{"gpus", "8"}, {"zero", "1"}, {"seq_len", "2048"}};
  const Json catalog = Json::parse(training_report_json(qwen(), with({{"gpu", "h100-sxm-80gb"}}, run)));
  const Json custom = Json::parse(training_report_json(qwen(), with(h100_as_custom, run)));
  CHECK(without_gpu_identity(custom) == without_gpu_identity(catalog));

  OptionList plan_custom = h100_as_custom;
  plan_custom[0] = {"gpus", "custom"};
  const Json plan_a = Json::parse(plan_report_json(qwen(), with({{"gpus", "h100-sxm-80gb"}, {"batches", "1,16"}}, {})));
  const Json plan_b = Json::parse(plan_report_json(qwen(), with(plan_custom, {{"batches", "1,16"}})));
  REQUIRE(plan_a["best"].size() == plan_b["best"].size());
  REQUIRE(!plan_a["best"].empty());
  for (std::size_t i = 0; i < plan_a["best"].size(); ++i) {
    Json a = plan_a["best"][i], b = plan_b["best"][i];
    CHECK(b["gpu"] == "custom");
    CHECK(b["gpu_name"] == "NVIDIA H100 SXM5 80GB");
    for (Json* row : {&a, &b}) {
      row->erase("gpu");
      row->erase("gpu_name");
    }
    CHECK(a == b);
  }
  // A custom kind beside catalog kinds: each is searched.
  const Json mixed =
      Json::parse(plan_report_json(qwen(), with(plan_custom, {{"gpus", "l4,custom"}, {"batches", "1"}})));
  CHECK(mixed["request"]["gpus"] == Json::array({"l4", "custom"}));
}

TEST_CASE("the training planner searches a custom GPU like the catalog entry it copies") {
  const OptionList search = {
      {"max_gpus", "8"}, {"micro_batch_sizes", "1,2"}, {"zero_stages", "1,3"}, {"seq_len", "2048"}};
  OptionList as_custom = h100_as_custom;
  as_custom[0] = {"gpus", "custom"};
  const Json a = Json::parse(training_plan_report_json(qwen(), with({{"gpus", "h100-sxm-80gb"}}, search)));
  const Json b = Json::parse(training_plan_report_json(qwen(), with(as_custom, search)));
  REQUIRE(!a["best"].empty());
  REQUIRE(a["best"].size() == b["best"].size());
  for (std::size_t i = 0; i < a["best"].size(); ++i) {
    Json row_a = a["best"][i], row_b = b["best"][i];
    CHECK(row_b["gpu"] == "custom");
    for (Json* row : {&row_a, &row_b}) row->erase("gpu");
    CHECK(row_a == row_b);
  }
  // Custom keys without custom among the kinds are refused naming the key.
  try {
    (void)training_plan_report_json(qwen(), {{"gpus", "h100"}, {"custom_gpu_memory_gib", "96"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "custom_gpu_memory_gib");
  }
}

TEST_CASE("the custom memory size sets the budget and the fit edge") {
  // Budget = utilization x memory: 0.9 x 80 GiB = 0.9 x 85,899,345,920 B = 77,309,411,328 B;
  // 0.9 x 96 GiB = 0.9 x 103,079,215,104 B = 92,771,293,593.6 B, truncated to 92,771,293,593.
  for (const auto& [gib, budget] :
       {std::pair<const char*, std::int64_t>{"80", 77'309'411'328}, {"96", 92'771'293'593}}) {
    const Json r = Json::parse(inference_report_json(
        tiny_llama, {{"gpu", "custom"}, {"custom_gpu_base", "h100-sxm-80gb"}, {"custom_gpu_memory_gib", gib}}));
    CHECK(r["gpu"]["budget_bytes"].get<std::int64_t>() == budget);
    CHECK(r["gpu"]["memory_convention"] == "binary_capacity");
    CHECK(r["gpu"]["name"] == "NVIDIA H100 SXM5 80GB (custom)");  // the default name over a base
  }
  // At utilization 1 the budget is the memory: a GPU of exactly the total fits with 0 B to spare,
  // one byte less does not fit, 1 B short.
  const OptionList workload = {{"gpu_memory_utilization", "1"}, {"batch", "4"}};
  const std::int64_t total =
      Json::parse(inference_report_json(tiny_llama, workload))["total_bytes_per_gpu"].get<std::int64_t>();
  const auto report_with_memory = [&](std::int64_t bytes) {
    return Json::parse(inference_report_json(
        tiny_llama,
        with(workload, {{"gpu", "custom"}, {"custom_gpu_base", "l4"}, {"custom_gpu_memory_gib", gib_text(bytes)}})));
  };
  const Json exact = report_with_memory(total);
  CHECK(exact["gpu"]["memory_bytes"].get<std::int64_t>() == total);
  CHECK(exact["fits"] == true);
  CHECK(exact["headroom_bytes"].get<std::int64_t>() == 0);
  const Json short_by_one = report_with_memory(total - 1);
  CHECK(short_by_one["fits"] == false);
  CHECK(short_by_one["headroom_bytes"].get<std::int64_t>() == -1);
}

TEST_CASE("a custom GPU without a base needs memory, bandwidth and bf16; the rest defaults to none") {
  const OptionList minimal = {{"gpu", "custom"},
                              {"custom_gpu_memory_gib", "24"},
                              {"custom_gpu_bandwidth_gb_per_s", "1000"},
                              {"custom_gpu_bf16_tflops", "100"}};
  const Json r = Json::parse(inference_report_json(tiny_llama, minimal));
  // 24 GiB = 24 x 1,073,741,824 B = 25,769,803,776 B; 1000 GB/s = 1e12 B/s; 100 TFLOP/s = 1e14.
  CHECK(r["gpu"]["memory_bytes"].get<std::int64_t>() == 25'769'803'776);
  CHECK(r["gpu"]["memory_bandwidth_bytes_per_second"].get<double>() == 1e12);
  CHECK(r["gpu"]["dense_flops_per_second"]["bf16"].get<double>() == 1e14);
  CHECK(r["gpu"]["dense_flops_per_second"]["fp8"].get<double>() == 0);
  CHECK(r["gpu"]["gpus_per_node"] == 1);
  CHECK(r["gpu"]["price_per_hour_usd"].get<double>() == 0);
  CHECK(r["gpu"]["name"] == "Custom GPU");
  for (std::size_t skip = 1; skip < minimal.size(); ++skip) {
    OptionList missing = minimal;
    missing.erase(missing.begin() + static_cast<std::ptrdiff_t>(skip));
    CHECK(refusal_key(missing) == minimal[skip].first);
  }
}

TEST_CASE("every bad custom GPU value is refused naming its key") {
  const OptionList base = {{"gpu", "custom"}, {"custom_gpu_base", "h100"}};
  for (const char* key : kCustomGpuKeys) {
    if (std::string(key) == "custom_gpu_base" || std::string(key) == "custom_gpu_name") continue;
    CAPTURE(key);
    for (const char* bad : {"-1", "abc", "", "nan", "inf", "1e30"}) {
      CAPTURE(bad);
      CHECK(refusal_key(with(base, {{key, bad}})) == key);
    }
    // Given without gpu=custom: refused, not silently ignored.
    CHECK(refusal_key({{"gpu", "h100"}, {key, "1"}}) == key);
    CHECK(refusal_key({{key, "1"}}) == key);
  }
  CHECK(refusal_key(with(base, {{"custom_gpu_memory_gib", "0"}})) == "custom_gpu_memory_gib");
  CHECK(refusal_key(with(base, {{"custom_gpu_bandwidth_gb_per_s", "0"}})) == "custom_gpu_bandwidth_gb_per_s");
  CHECK(refusal_key(with(base, {{"custom_gpu_gpus_per_node", "2.5"}})) == "custom_gpu_gpus_per_node");
  CHECK(refusal_key({{"gpu", "custom"}, {"custom_gpu_base", "h1000"}}) == "custom_gpu_base");
  CHECK(refusal_key({{"gpu", "custom"}, {"custom_gpu_base", "custom"}}) == "custom_gpu_base");
  CHECK(refusal_key(with(base, {{"custom_gpu_name", ""}})) == "custom_gpu_name");
  CHECK(refusal_key(with(base, {{"custom_gpu_name", "a\x01"}})) == "custom_gpu_name");
  CHECK(refusal_key(with(base, {{"custom_gpu_name", "\xff\xfe"}})) == "custom_gpu_name");
  CHECK(refusal_key(with(base, {{"custom_gpu_name", std::string(65, 'x')}})) == "custom_gpu_name");
  CHECK(refusal_key(with(base, {{"custom_gpu_name", "H100 96 GB \xc3\xa9"}})) == "(accepted)");  // UTF-8 é is fine
  CHECK(refusal_key({{"gpu", "custom"}}) == "custom_gpu_memory_gib");
  // The planner: custom keys need custom among the kinds.
  try {
    (void)plan_report_json(tiny_llama, {{"gpus", "h100"}, {"custom_gpu_memory_gib", "96"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "custom_gpu_memory_gib");
  }
}

TEST_CASE("training and planner refusals quote user text bounded and printable") {
  const std::string long_name = "\"" + std::string(5000, 'q') + "\"";
  for (const char* key : {"gpu", "fsdp", "precision", "optimizer", "recompute", "lora_modules"}) {
    CAPTURE(key);
    OptionList options = {{key, long_name}};
    if (std::string(key) == "lora_modules") options.push_back({"lora_rank", "8"});
    try {
      (void)parse_training_options(options);
      FAIL("accepted");
    } catch (const OptionError& error) {
      CHECK(error.option() == key);
      CHECK(std::string(error.what()).size() < 400);
    }
  }
  for (const auto& [key, value] : OptionList{{"gpus", "h100-sxm-80g\x9e\xff"},
                                             {"weights", "bf\xff"},
                                             {"kv_dtypes", "fp\x80"},
                                             {"objective", std::string(5000, 'z')}}) {
    CAPTURE(key);
    try {
      (void)plan_report_json(tiny_llama, {{key, value}});
      FAIL("accepted");
    } catch (const OptionError& error) {
      const std::string message = error.what();
      CHECK(error.option() == key);
      CHECK(message.size() < 400);
      for (unsigned char c : message) CHECK(c < 0x80);  // the odd bytes come back as \xNN
    }
  }
}

TEST_CASE("training: expert parallelism on a dense model is refused naming ep, not dp") {
  try {
    (void)training_report_json(tiny_llama, {{"ep", "2"}, {"gpus", "2"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "ep");
    CHECK(std::string(error.what()).find("mixture-of-experts") != std::string::npos);
  }
}

TEST_CASE("Apple silicon: the budget is taken of macOS's GPU working set") {
  // m2-ultra: 192 GiB unified, working set 3/4 = 144 GiB = 154,618,822,656 B; budget 0.9 x that =
  // 139,156,940,390.4 B, truncated to 139,156,940,390.
  const Json apple = Json::parse(inference_report_json(tiny_llama, {{"gpu", "m2-ultra"}}));
  CHECK(apple["gpu"]["memory_bytes"].get<std::int64_t>() == 206'158'430'208);
  CHECK(apple["gpu"]["gpu_working_set_bytes"].get<std::int64_t>() == 154'618'822'656);
  CHECK(apple["gpu"]["budget_bytes"].get<std::int64_t>() == 139'156'940'390);
  CHECK(apple["gpu"]["gpu_working_set_source"].get<std::string>().find("iogpu.wired_limit_mb") != std::string::npos);
  // Elsewhere no such field, and the budget stays utilization x memory.
  const Json h100 = Json::parse(inference_report_json(tiny_llama, {{"gpu", "h100-sxm-80gb"}}));
  CHECK_FALSE(h100["gpu"].contains("gpu_working_set_bytes"));
  // A custom size over an Apple base keeps the cap, of the new size: 64 GiB x 3/4 = 48 GiB;
  // 0.9 x 51,539,607,552 B = 46,385,646,796.8 B, truncated.
  const Json custom = Json::parse(inference_report_json(
      tiny_llama, {{"gpu", "custom"}, {"custom_gpu_base", "m2-ultra"}, {"custom_gpu_memory_gib", "64"}}));
  CHECK(custom["gpu"]["gpu_working_set_bytes"].get<std::int64_t>() == 51'539'607'552);
  CHECK(custom["gpu"]["budget_bytes"].get<std::int64_t>() == 46'385'646'796);
}
