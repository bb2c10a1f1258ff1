// SPDX-License-Identifier: MIT
// When a setup does not fit, the inference estimate lists the nearest single changes that do
// (core/src/inference/fit_changes.cpp). Each must fit when applied as options, with the memory it
// announced; a setup that fits lists none.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/inference.hpp"
#include "fitcheck/options.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string config(const std::string& file) { return test::read_file(test::fixture_configs_dir() + "/" + file); }

OptionList applied(OptionList options, const FitChange& change) {
  for (const auto& [name, value] : change.options) options.emplace_back(name, value);  // a later value wins
  return options;
}

const FitChange* find(const std::vector<FitChange>& changes, const std::string& what) {
  for (const FitChange& change : changes)
    if (change.what == what) return &change;
  return nullptr;
}

void check_every_change_fits(const std::string& text, const OptionList& options) {
  const InferenceEstimate estimate = estimate_inference(text, options);
  REQUIRE(estimate.on_gpu);
  REQUIRE_FALSE(estimate.on_gpu->verdict.fits);
  REQUIRE_FALSE(estimate.on_gpu->fit_changes.empty());
  for (const FitChange& change : estimate.on_gpu->fit_changes) {
    CAPTURE(change.summary);
    const InferenceEstimate after = estimate_inference(text, applied(options, change));
    REQUIRE(after.on_gpu);
    CHECK(after.on_gpu->verdict.fits);
    CHECK(after.memory.totals.total_bytes_per_gpu == change.total_bytes_per_gpu);
    CHECK(after.on_gpu->verdict.headroom_bytes == change.headroom_bytes);
    CHECK(change.headroom_bytes >= 0);
  }
}

}  // namespace

TEST_CASE("fit changes: gpt-oss-120b in bf16 on one H100 fits in its own MXFP4, or on 4 GPUs") {
  // 116.8 B parameters at 2 bytes are 219 GiB with the cache; one H100's budget is 0.9 x 79.65 GiB.
  // The checkpoint stores its experts in MXFP4 (about 61 GiB): that is the first way out offered.
  const std::string text = config("openai--gpt-oss-120b.json");
  const OptionList options = {{"gpu", "h100"}, {"weights", "bf16"}};
  const InferenceEstimate estimate = estimate_inference(text, options);
  REQUIRE(estimate.on_gpu);
  const auto& changes = estimate.on_gpu->fit_changes;
  REQUIRE(!changes.empty());
  CHECK(changes.front().what == "weights");
  CHECK(changes.front().options.at(0).second == "mxfp4");
  CHECK(changes.front().summary.find("the checkpoint's own format") != std::string::npos);
  // ceil(219.06 GiB of weights and cache / 71.68 GiB) = 4 GPUs, and tp 4 divides its 64 heads and 8 KV heads.
  const FitChange* gpus = find(changes, "gpus");
  REQUIRE(gpus);
  const std::vector<std::pair<std::string, std::string>> four_gpus = {{"tp", "4"}, {"pp", "1"}};
  CHECK(gpus->options == four_gpus);
  check_every_change_fits(text, options);
}

TEST_CASE("fit changes: Llama-3.1-70B AWQ on 2 H100s at batch 64 x 4096 tokens") {
  // Whole-batch prefill activations (64 x 4096 tokens at once) are what overflow: a prefill chunk,
  // an FP8 cache, a smaller batch or context, or 4 GPUs each fit; the batch offered is the largest
  // that fits (one more does not).
  const std::string text = config("meta-llama--Llama-3.1-70B.json");
  const OptionList options = {{"gpu", "h100"}, {"tp", "2"}, {"weights", "awq"}, {"batch", "64"}, {"context", "4096"}};
  check_every_change_fits(text, options);
  const InferenceEstimate estimate = estimate_inference(text, options);
  const auto& changes = estimate.on_gpu->fit_changes;
  const FitChange* weights = find(changes, "weights");
  if (weights) CHECK(weights->options.at(0).second != "awq");
  REQUIRE(find(changes, "prefill_chunk"));
  REQUIRE(find(changes, "kv_dtype"));
  const FitChange* batch = find(changes, "batch");
  REQUIRE(batch);
  const std::int64_t largest = std::stoll(batch->options.at(0).second);
  CHECK(largest < 64);
  OptionList one_more = options;
  one_more.emplace_back("batch", std::to_string(largest + 1));
  CHECK_FALSE(estimate_inference(text, one_more).on_gpu->verdict.fits);
}

TEST_CASE("fit changes: none when the setup fits, and none without a GPU") {
  const std::string text = config("meta-llama--Llama-3.1-8B.json");
  const InferenceEstimate fits = estimate_inference(text, {{"gpu", "h100"}});
  REQUIRE(fits.on_gpu);
  CHECK(fits.on_gpu->verdict.fits);
  CHECK(fits.on_gpu->fit_changes.empty());
  CHECK_FALSE(estimate_inference(text, {}).on_gpu);
}
