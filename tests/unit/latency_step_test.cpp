// SPDX-License-Identifier: MIT
// engine_step_seconds(): the step of a continuous-batching engine against the evaluate step it
// shares its formulas with (estimate_latency_totals), and its own invariants.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/engine_step.hpp"
#include "fitcheck/latency.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

struct Case {
  const char* file;
  WeightFormat format;
  std::int64_t tp, ep;
  KvCacheDtype kv;
  bool flash;
};

// Dense GQA, MoE, MLA, DeepSeek-V3.2's sparse attention and indexer, sliding windows (Gemma 2
// alternates, gpt-oss windows half its layers, Mistral 7B v0.1 windows all), tensor and expert parallelism, eager
// attention, an fp8 cache and a GGUF format.
const Case kCases[] = {
    {"meta-llama--Llama-3.1-8B.json", WeightFormat::bf16, 1, 1, KvCacheDtype::bf16, true},
    {"meta-llama--Llama-3.1-70B.json", WeightFormat::fp8_e4m3_per_tensor, 4, 1, KvCacheDtype::fp8, true},
    {"Qwen--Qwen3-30B-A3B.json", WeightFormat::bf16, 2, 2, KvCacheDtype::bf16, true},
    {"deepseek-ai--DeepSeek-V3.json", WeightFormat::fp8_e4m3_block128, 8, 8, KvCacheDtype::bf16, true},
    {"google--gemma-2-9b.json", WeightFormat::bf16, 1, 1, KvCacheDtype::bf16, true},
    {"openai--gpt-oss-20b.json", WeightFormat::mxfp4, 1, 1, KvCacheDtype::bf16, true},
    {"mistralai--Mistral-7B-v0.1.json", WeightFormat::bf16, 2, 1, KvCacheDtype::fp16, false},
    {"Qwen--Qwen3-8B.json", WeightFormat::gguf_q4_k_m, 1, 1, KvCacheDtype::fp8, true},
    {"deepseek-ai--DeepSeek-V3.2.json", WeightFormat::fp8_e4m3_block128, 8, 8, KvCacheDtype::fp8, true},
};

struct Setup {
  PreparedLatencyModel prepared;
  InferenceWorkload workload;
  LatencyRates rates;
  StepWindows windows;
};

Setup setup(const Case& c, const Accelerator& gpu, const LatencyAssumptions& assumptions) {
  const ModelDescription model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + c.file));
  Setup s;
  s.prepared = prepare_latency_model(model, weight_tensors(model), c.format);
  s.workload.weight_format = c.format;
  s.workload.kv_cache_dtype = c.kv;
  s.workload.flash_attention = c.flash;
  s.workload.layout.tensor_parallel = c.tp;
  s.workload.layout.expert_parallel = c.ep;
  s.rates = latency_rates(s.prepared, gpu, s.workload.layout, assumptions);
  s.windows = make_step_windows(s.prepared);
  return s;
}

const Accelerator& h100() { return *find_accelerator("h100"); }

}  // namespace

TEST_CASE("a step of whole prompts is estimate_latency_totals' prefill; a step of decodes is its decode step") {
  const LatencyAssumptions assumptions = default_latency_assumptions(h100());
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    const Setup s = setup(c, h100(), assumptions);
    for (const std::int64_t batch : {1, 8, 64}) {
      for (const std::int64_t prompt : {1, 100, 2048, 9000}) {
        CAPTURE(batch);
        CAPTURE(prompt);
        InferenceWorkload w = s.workload;
        w.batch_size = batch;
        const LatencyRequest request{prompt, 300};
        const LatencyTotals totals = estimate_latency_totals(s.prepared, w, h100(), request, assumptions);

        EngineStepTokens prefill;
        for (std::int64_t i = 0; i < batch; ++i) add_prefill_chunk(prefill, s.windows, 0, prompt, true);
        CHECK(engine_step_seconds(s.prepared, w, s.rates, s.windows, prefill) ==
              doctest::Approx(totals.prefill_seconds).epsilon(1e-9));

        // First decode step attends prompt + 1 keys, the last prompt + 299 (generated 300).
        for (const auto& [context, expected] : {std::pair{prompt + 1, totals.decode_step_first_seconds},
                                                std::pair{prompt + 299, totals.decode_step_last_seconds}}) {
          EngineStepTokens decode;
          for (std::int64_t i = 0; i < batch; ++i) add_decode_sequence(decode, s.windows, context);
          CHECK(engine_step_seconds(s.prepared, w, s.rates, s.windows, decode) ==
                doctest::Approx(expected).epsilon(1e-9));
        }
      }
    }
  }
}

TEST_CASE("engine step: sums stand for the sequences, chunks attend earlier chunks") {
  const LatencyAssumptions assumptions = default_latency_assumptions(h100());
  const Setup s = setup(kCases[0], h100(), assumptions);
  const StepWindows none{};
  SUBCASE("the attended-key sums of a chunk are those of its token positions") {
    EngineStepTokens step;
    add_prefill_chunk(step, none, 100, 50, false);
    CHECK(step.prefill_tokens == 50);
    CHECK(step.prefill_logit_rows == 0);
    CHECK(step.prefill_cached_tokens == 100);
    CHECK(step.prefill_attended_keys == doctest::Approx(50 * (101 + 150) / 2.0));  // 101 + ... + 150
    CHECK(step.prefill_score_entries == 50 * 150);
    StepWindows window;
    window.tokens[0] = 120;
    window.count = 1;
    EngineStepTokens windowed;
    add_prefill_chunk(windowed, window, 100, 50, true);
    // Tokens 101..120 attend 101..120 keys, tokens 121..150 attend 120 each.
    CHECK(windowed.prefill_attended_keys_in_window[0] == doctest::Approx((101 + 120) * 20 / 2.0 + 30 * 120));
    add_decode_sequence(windowed, window, 500);
    add_decode_sequence(windowed, window, 7);
    CHECK(windowed.decode_context_tokens == 507);
    CHECK(windowed.decode_context_tokens_in_window[0] == 127);
  }
  SUBCASE("an empty step takes no time; more work never takes less") {
    CHECK(engine_step_seconds(s.prepared, s.workload, s.rates, s.windows, EngineStepTokens{}) == 0);
    EngineStepTokens decode;
    for (int i = 0; i < 32; ++i) add_decode_sequence(decode, s.windows, 1000);
    const double decode_only = engine_step_seconds(s.prepared, s.workload, s.rates, s.windows, decode);
    EngineStepTokens mixed = decode;
    add_prefill_chunk(mixed, s.windows, 0, 512, true);
    const double with_chunk = engine_step_seconds(s.prepared, s.workload, s.rates, s.windows, mixed);
    EngineStepTokens later = decode;
    add_prefill_chunk(later, s.windows, 4096, 512, true);  // the same chunk after 4096 cached tokens
    CHECK(with_chunk > decode_only);
    CHECK(engine_step_seconds(s.prepared, s.workload, s.rates, s.windows, later) > with_chunk);
    // Weights are read once per step: one mixed step is faster than its parts run apart.
    EngineStepTokens chunk_only;
    add_prefill_chunk(chunk_only, s.windows, 0, 512, true);
    CHECK(with_chunk < decode_only + engine_step_seconds(s.prepared, s.workload, s.rates, s.windows, chunk_only));
  }
}

TEST_CASE("make_step_windows lists distinct windows and refuses encoder-decoder models") {
  const Setup gemma = setup(kCases[4], h100(), {});
  CHECK(gemma.windows.count == 1);
  CHECK(gemma.windows.tokens[0] == 4096);
  CHECK(setup(kCases[0], h100(), {}).windows.count == 0);
  const ModelDescription t5 =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google-t5--t5-small.json"));
  CHECK_THROWS_AS(make_step_windows(prepare_latency_model(t5, weight_tensors(t5), WeightFormat::fp32)),
                  std::invalid_argument);
}
