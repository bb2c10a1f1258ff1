// SPDX-License-Identifier: MIT
// Memory over context or batch in one call (inference_sweep.hpp): each point is the estimate the
// same options give at that value, without a GPU.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/inference_sweep.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string llama_8b() { return test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"); }

std::string option_of(const OptionError& error) { return error.option(); }

}  // namespace

TEST_CASE("a context sweep: the KV cache grows by 131,072 B per token, the weights stay") {
  const std::string config = llama_8b();
  // The GPU and the request's lengths are dropped: a context point sets the sequence length alone.
  const OptionList options = {{"gpu", "h100-sxm-80gb"},      {"batch", "1"},     {"weights", "bf16"},
                              {"prompt_len", "512"},         {"gen_len", "512"}, {"sweep", "context"},
                              {"sweep_values", "1024, 4096"}};
  const InferenceSweep sweep = sweep_inference_memory(config, options);
  CHECK(sweep.axis == SweepAxis::context);
  REQUIRE(sweep.points.size() == 2);
  CHECK(sweep.refused.empty());
  // 32 layers x 8 KV heads x 128 dims x (K and V) x 2 B = 131,072 B per token.
  CHECK(sweep.points[0].value == 1024);
  CHECK(sweep.points[0].totals.kv_cache_bytes == 1024LL * 131'072);
  CHECK(sweep.points[1].totals.kv_cache_bytes == 4096LL * 131'072);
  // 8,030,261,248 parameters x 2 B.
  CHECK(sweep.points[0].totals.weight_bytes == 16'060'522'496);
  CHECK(sweep.points[1].totals.weight_bytes == 16'060'522'496);
  // Each point is the estimate of the same options at that context, without a GPU.
  for (const InferenceSweepPoint& point : sweep.points) {
    const InferenceEstimate alone =
        estimate_inference(config, {{"batch", "1"}, {"weights", "bf16"}, {"context", std::to_string(point.value)}});
    CHECK(point.totals.total_bytes_per_gpu == alone.memory.totals.total_bytes_per_gpu);
    CHECK(point.totals.activation_bytes == alone.memory.totals.activation_bytes);
  }
}

TEST_CASE("a batch sweep keeps the points the options allow and names the ones refused") {
  const std::string config = llama_8b();
  const OptionList options = {
      {"context", "131072"}, {"weights", "bf16"}, {"sweep", "batch"}, {"sweep_values", "1,2,16777217"}};
  const InferenceSweep sweep = sweep_inference_memory(config, options);
  CHECK(sweep.axis == SweepAxis::batch);
  REQUIRE(sweep.points.size() == 2);
  CHECK(sweep.points[1].totals.kv_cache_bytes == 2 * 131'072LL * 131'072);
  // The batch option's range is 1 to 2^24.
  REQUIRE(sweep.refused.size() == 1);
  CHECK(sweep.refused[0].value == 16'777'217);
  CHECK(sweep.refused[0].option == "batch");
  CHECK(sweep.refused[0].message == "option 'batch' must be between 1 and 16777216, got 16777217");
}

TEST_CASE("a custom GPU's keys leave with the GPU") {
  const OptionList options = {{"gpu", "custom"},
                              {"custom_gpu_base", "h100-sxm-80gb"},
                              {"custom_gpu_memory_gib", "96"},
                              {"weights", "bf16"},
                              {"sweep", "batch"},
                              {"sweep_values", "4"}};
  const InferenceSweep sweep = sweep_inference_memory(llama_8b(), options);
  REQUIRE(sweep.points.size() == 1);
  CHECK(sweep.refused.empty());
}

TEST_CASE("a sweep's own options are refused by name") {
  const std::string config = llama_8b();
  const auto refused_option = [&](const OptionList& options) {
    try {
      sweep_inference_memory(config, options);
    } catch (const OptionError& error) {
      return option_of(error);
    }
    return std::string("accepted");
  };
  CHECK(refused_option({{"sweep_values", "1"}}) == "sweep");
  CHECK(refused_option({{"sweep", "gpus"}, {"sweep_values", "1"}}) == "sweep");
  CHECK(refused_option({{"sweep", "batch"}}) == "sweep_values");
  CHECK(refused_option({{"sweep", "batch"}, {"sweep_values", "1,x"}}) == "sweep_values");
  CHECK(refused_option({{"sweep", "batch"}, {"sweep_values", "0"}}) == "sweep_values");
  std::string many;
  for (int i = 1; i <= 65; ++i) many += std::to_string(i) + ",";
  CHECK(refused_option({{"sweep", "batch"}, {"sweep_values", many}}) == "sweep_values");
  // The estimate's own options are read once, before the points, and refused as the report refuses them.
  CHECK(refused_option({{"sweep", "batch"}, {"sweep_values", "1"}, {"kv_dtype", "int3"}}) == "kv_dtype");
}

TEST_CASE("the sweep's JSON lists points and refusals") {
  const nlohmann::json report = nlohmann::json::parse(inference_sweep_report_json(
      llama_8b(), {{"weights", "bf16"}, {"context", "131072"}, {"sweep", "batch"}, {"sweep_values", "1,16777217"}}));
  CHECK(report["axis"] == "batch");
  REQUIRE(report["points"].size() == 1);
  CHECK(report["points"][0]["value"] == 1);
  CHECK(report["points"][0]["kv_cache_bytes"] == 131'072LL * 131'072);
  CHECK(report["points"][0]["weight_bytes"] == 16'060'522'496);
  REQUIRE(report["refused"].size() == 1);
  CHECK(report["refused"][0]["option"] == "batch");
}
