// SPDX-License-Identifier: MIT
// simulate_serving(): hand-checkable cases against the latency model, the scheduler's rules, and
// invariants of every run; the serve-sim report and CLI.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/serving.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

struct Setup {
  ModelDescription model;
  std::vector<WeightTensor> tensors;
  PreparedLatencyModel prepared;
  InferenceWorkload workload;
  const Accelerator* gpu;
  LatencyAssumptions assumptions;
  SchedulerLimits limits;
};

Setup llama_8b_h100() {
  Setup s;
  s.model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
  s.tensors = weight_tensors(s.model);
  s.prepared = prepare_latency_model(s.model, s.tensors, WeightFormat::bf16);
  s.gpu = find_accelerator("h100");
  s.assumptions = default_latency_assumptions(*s.gpu);
  s.limits = vllm_default_limits(*s.gpu);
  s.limits.kv_capacity_blocks = vllm_kv_capacity(s.model, s.tensors, s.workload, *s.gpu, s.limits).blocks;
  return s;
}

ServingLoad closed_loop(std::int64_t requests, std::int64_t concurrency, std::int64_t prompt, std::int64_t output) {
  ServingLoad load;
  load.requests = requests;
  load.concurrency = concurrency;
  load.prompt.tokens = prompt;
  load.output.tokens = output;
  return load;
}

ServingResult run(const Setup& s, const ServingLoad& load) {
  return simulate_serving(s.prepared, s.workload, *s.gpu, s.assumptions, s.limits, load);
}

LatencyTotals totals(const Setup& s, std::int64_t batch, std::int64_t prompt, std::int64_t output) {
  InferenceWorkload w = s.workload;
  w.batch_size = batch;
  return estimate_latency_totals(s.prepared, w, *s.gpu, LatencyRequest{prompt, output}, s.assumptions);
}

void check_invariants(const ServingResult& r, const ServingLoad& load) {
  CHECK(r.requests == load.requests);
  CHECK(r.ttft_seconds_p50 <= r.ttft_seconds_p90);
  CHECK(r.ttft_seconds_p90 <= r.ttft_seconds_p99);
  CHECK(r.tpot_seconds_p50 <= r.tpot_seconds_p90);
  CHECK(r.tpot_seconds_p90 <= r.tpot_seconds_p99);
  CHECK(r.ttft_seconds_p50 > 0);
  CHECK(r.duration_seconds > 0);
  CHECK(r.output_tokens_per_second == doctest::Approx(static_cast<double>(r.output_tokens) / r.duration_seconds));
  CHECK(r.requests_per_second == doctest::Approx(static_cast<double>(r.requests) / r.duration_seconds));
  CHECK(r.queue_seconds_mean >= 0);
  CHECK(r.queue_seconds_mean <= r.ttft_seconds_mean);
  CHECK(r.mean_running_batch > 0);
  CHECK(r.max_running <= load.requests);
}

}  // namespace

TEST_CASE("one request alone: TTFT is its prefill step, TPOT the mean of its decode steps") {
  const Setup s = llama_8b_h100();
  const ServingLoad load = closed_loop(1, 1, 1000, 200);
  const ServingResult r = run(s, load);
  const LatencyTotals t = totals(s, 1, 1000, 200);
  CHECK(r.ttft_seconds_p50 == doctest::Approx(t.prefill_seconds).epsilon(1e-9));
  CHECK(r.ttft_seconds_p99 == doctest::Approx(t.prefill_seconds).epsilon(1e-9));
  CHECK(r.tpot_seconds_p50 == doctest::Approx(t.decode_total_seconds / 199).epsilon(1e-9));
  CHECK(r.duration_seconds == doctest::Approx(t.end_to_end_seconds).epsilon(1e-9));
  CHECK(r.steps == 200);  // one prefill, 199 decodes
  CHECK(r.queue_seconds_mean == 0);
  CHECK_FALSE(r.kv_limited);
  check_invariants(r, load);
}

TEST_CASE("a fixed step overhead adds to every step") {
  Setup s = llama_8b_h100();
  s.limits.step_overhead_seconds = 1.5e-3;
  const ServingResult r = run(s, closed_loop(1, 1, 1000, 200));
  const LatencyTotals t = totals(s, 1, 1000, 200);
  CHECK(r.ttft_seconds_p50 == doctest::Approx(t.prefill_seconds + 1.5e-3).epsilon(1e-9));
  CHECK(r.tpot_seconds_p50 == doctest::Approx(t.decode_total_seconds / 199 + 1.5e-3).epsilon(1e-9));
}

TEST_CASE("a request overhead delays the request's entry into the scheduler and counts in its TTFT") {
  Setup s = llama_8b_h100();
  s.limits.request_overhead_seconds = 4e-3;
  const LatencyTotals t = totals(s, 1, 1000, 200);
  // Idle engine: the request reaches the queue 4 ms after it is sent, then prefills in one step.
  const ServingResult one = run(s, closed_loop(1, 1, 1000, 200));
  CHECK(one.ttft_seconds_p50 == doctest::Approx(4e-3 + t.prefill_seconds).epsilon(1e-9));
  CHECK(one.queue_seconds_mean == doctest::Approx(4e-3).epsilon(1e-9));
  CHECK(one.tpot_seconds_p50 == doctest::Approx(t.decode_total_seconds / 199).epsilon(1e-9));
  // Closed loop, two requests in turn: each pays the 4 ms again, so the run lasts
  // 2 x (4 ms + its end-to-end time).
  const ServingResult two = run(s, closed_loop(2, 1, 1000, 200));
  CHECK(two.duration_seconds == doctest::Approx(2 * (4e-3 + t.end_to_end_seconds)).epsilon(1e-9));
  CHECK(two.ttft_seconds_p99 == doctest::Approx(4e-3 + t.prefill_seconds).epsilon(1e-9));
  s.limits.request_overhead_seconds = -1;
  CHECK_THROWS_AS(run(s, closed_loop(1, 1, 1000, 200)), std::invalid_argument);
}

TEST_CASE("SGLang's new_token_ratio: decay, floor and the estimate after a retraction") {
  // environ.py: 0.7 initial, floor 0.7 x 0.14 = 0.098, reached after 600 decoding steps.
  CHECK(SglangTokenRatio::kMinimum == doctest::Approx(0.098));
  CHECK(SglangTokenRatio::decayed(0.7) == doctest::Approx(0.7 - 0.602 / 600));
  double ratio = SglangTokenRatio::kInitial;
  for (int step = 0; step < 300; ++step) ratio = SglangTokenRatio::decayed(ratio);
  CHECK(ratio == doctest::Approx(0.7 - 0.301));
  for (int step = 0; step < 1000; ++step) ratio = SglangTokenRatio::decayed(ratio);
  CHECK(ratio == doctest::Approx(0.098));
  // retract_decode: (100 decoded + 20 x 2 requests) / 1000 max_new_tokens = 0.14; at most 1.
  CHECK(SglangTokenRatio::after_retraction(100, 2, 1000) == doctest::Approx(0.14));
  CHECK(SglangTokenRatio::after_retraction(900, 10, 1000) == 1);
}

TEST_CASE("SGLang's admission holds back the running requests' expected output") {
  // A pool of 1000 one-token pages; requests of 100 prompt + 300 output tokens, four at once.
  Setup s = llama_8b_h100();
  s.limits.kv_block_tokens = 1;
  s.limits.kv_capacity_blocks = 1000;
  const ServingLoad load = closed_loop(4, 4, 100, 300);
  // Taken as tokens come (vLLM), all four start (400 prompt tokens) and outgrow the pool (1600).
  const ServingResult taken = run(s, load);
  CHECK(taken.max_running == 4);
  CHECK(taken.preemptions > 0);
  // SGLang: the first needs 100 + 300 of 1000 free (then 900 free, 300 held back); the second
  // 400 of 900 - 300 = 600; the third 400 of 800 - 600 = 200: it waits. While the two decode
  // (g tokens each, ratio 0.7 - 0.001 g), free - held = 1000 - 2 (101 + g) - 2 (300 - g)(0.7 -
  // 0.001 g) is 378 at g = 0, 358 at g = 100, 253 at g = 250: below 400 until they end. Then the
  // last two start (400 of 1000, 400 of 600). Two at a time, nothing evicted.
  s.limits.reserve_estimated_output = true;
  const ServingResult reserved = run(s, load);
  CHECK(reserved.max_running == 2);
  CHECK(reserved.preemptions == 0);
  CHECK(reserved.kv_limited);
  CHECK(reserved.output_tokens == 4 * 300);
  CHECK(reserved.steps == 2 * 300);  // two rounds of one prefill and 299 decodes
  check_invariants(reserved, load);
}

TEST_CASE("SGLang's step order: prompts alone whenever one can start, decodes otherwise") {
  // Two requests of 100 + 3 tokens at once, 100 tokens per step.
  Setup s = llama_8b_h100();
  s.limits.max_num_batched_tokens = 100;
  const ServingLoad load = closed_loop(2, 2, 100, 3);
  // vLLM (mixed steps): A's prompt; A decodes + B's first 99; A decodes (done) + B's last token;
  // B decodes twice: 5 steps.
  CHECK(run(s, load).steps == 5);
  // Prefill first: A's prompt; B's prompt alone (A waits); both decode twice: 4 steps.
  s.limits.prefill_first = true;
  const ServingResult r = run(s, load);
  CHECK(r.steps == 4);
  CHECK(r.max_running == 2);
  CHECK(r.output_tokens == 2 * 3);
  check_invariants(r, load);
}

TEST_CASE("a prompt longer than the token budget is prefilled in chunks") {
  Setup s = llama_8b_h100();
  s.limits.max_num_batched_tokens = 256;
  const ServingResult r = run(s, closed_loop(1, 1, 1000, 2));
  CHECK(r.steps == 4 + 1);  // 256 + 256 + 256 + 232, then one decode
  // Chunks attend earlier chunks: more time than one whole-prompt step, which reads weights once.
  CHECK(r.ttft_seconds_p50 > totals(s, 1, 1000, 2).prefill_seconds);
}

TEST_CASE("N requests at once: one prefill step of N prompts, then decode steps of batch N") {
  const Setup s = llama_8b_h100();
  const ServingLoad load = closed_loop(16, 16, 500, 64);  // 16 x 500 = 8000 tokens fit the 8192 budget
  const ServingResult r = run(s, load);
  const LatencyTotals t = totals(s, 16, 500, 64);
  CHECK(r.ttft_seconds_p50 == doctest::Approx(t.prefill_seconds).epsilon(1e-9));
  CHECK(r.ttft_seconds_p99 == doctest::Approx(t.prefill_seconds).epsilon(1e-9));
  CHECK(r.tpot_seconds_p50 == doctest::Approx(t.decode_total_seconds / 63).epsilon(1e-9));
  CHECK(r.mean_running_batch == doctest::Approx(16));
  check_invariants(r, load);

  // Concurrency 1 vs 16 on the same 64 requests: more throughput, slower tokens per user.
  const ServingResult one = run(s, closed_loop(64, 1, 500, 64));
  const ServingResult many = run(s, closed_loop(64, 16, 500, 64));
  CHECK(many.output_tokens_per_second > 8 * one.output_tokens_per_second);
  CHECK(many.tpot_seconds_p50 > one.tpot_seconds_p50);
  CHECK(one.output_tokens == many.output_tokens);
  CHECK(one.output_tokens == 64 * 64);
  CHECK(one.max_running == 1);
  CHECK(many.max_running == 16);
}

TEST_CASE("the sequence limit and the KV cache hold requests back") {
  Setup s = llama_8b_h100();
  SUBCASE("max_num_seqs") {
    s.limits.max_num_seqs = 4;
    const ServingLoad load = closed_loop(32, 32, 200, 50);
    const ServingResult r = run(s, load);
    CHECK(r.max_running == 4);
    CHECK(r.queue_seconds_mean > 0);
    CHECK_FALSE(r.kv_limited);
    check_invariants(r, load);
  }
  SUBCASE("KV blocks: admission waits, the run still finishes") {
    s.limits.kv_capacity_blocks = 100;  // 1600 tokens: three 500-token requests at most
    const ServingLoad load = closed_loop(40, 20, 400, 100);
    const ServingResult r = run(s, load);
    CHECK(r.kv_limited);
    CHECK(r.max_running <= 4);
    CHECK(r.peak_kv_blocks_used <= 100);
    CHECK(r.output_tokens == 40 * 100);
    check_invariants(r, load);
    Setup roomy = llama_8b_h100();
    CHECK(run(roomy, load).ttft_seconds_p90 < r.ttft_seconds_p90);
  }
  SUBCASE("decodes that outgrow the cache evict the latest-admitted request, which recomputes") {
    s.limits.kv_capacity_blocks = 40;  // 640 tokens; prompts of 100 grow to 400
    const ServingLoad load = closed_loop(12, 6, 100, 300);
    const ServingResult r = run(s, load);
    CHECK(r.preemptions > 0);
    CHECK(r.kv_limited);
    CHECK(r.output_tokens == 12 * 300);
    check_invariants(r, load);
  }
  SUBCASE("a request longer than the whole cache is refused") {
    s.limits.kv_capacity_blocks = 10;
    CHECK_THROWS_AS(run(s, closed_loop(1, 1, 150, 20)), std::invalid_argument);
  }
}

TEST_CASE("Poisson arrivals and drawn lengths are deterministic by seed") {
  const Setup s = llama_8b_h100();
  ServingLoad load;
  load.requests = 300;
  load.arrival_rate_per_second = 20;
  load.prompt = {800, LengthDistribution::uniform, 0.5};
  load.output = {150, LengthDistribution::normal, 0.3};
  load.seed = 7;
  const ServingResult a = run(s, load), b = run(s, load);
  CHECK(a.ttft_seconds_p90 == b.ttft_seconds_p90);
  CHECK(a.tpot_seconds_p99 == b.tpot_seconds_p99);
  CHECK(a.prompt_tokens == b.prompt_tokens);
  CHECK(a.steps == b.steps);
  check_invariants(a, load);
  // Uniform 400..1200 has mean 800; the normal's mean is 150.
  CHECK(static_cast<double>(a.prompt_tokens) / 300 == doctest::Approx(800).epsilon(0.05));
  CHECK(static_cast<double>(a.output_tokens) / 300 == doctest::Approx(150).epsilon(0.05));
  // 300 requests at 20/s arrive over about 15 s, far below capacity: the run lasts about as long.
  CHECK(a.duration_seconds == doctest::Approx(15).epsilon(0.2));
  load.seed = 8;
  const ServingResult c = run(s, load);
  CHECK(c.prompt_tokens != a.prompt_tokens);
  // The generator's first draws are fixed: a change to it shows here (and in WebAssembly alike).
  ServingLoad one = load;
  one.requests = 1;
  one.seed = 42;
  CHECK(run(s, one).prompt_tokens == run(s, one).prompt_tokens);
}

TEST_CASE("bad loads are refused") {
  const Setup s = llama_8b_h100();
  ServingLoad both = closed_loop(10, 2, 100, 10);
  both.arrival_rate_per_second = 1;
  CHECK_THROWS_AS(run(s, both), std::invalid_argument);
  CHECK_THROWS_AS(run(s, closed_loop(0, 1, 100, 10)), std::invalid_argument);
  CHECK_THROWS_AS(run(s, closed_loop(10, 0, 100, 10)), std::invalid_argument);
}

TEST_CASE("vLLM defaults by GPU and the KV capacity") {
  CHECK(vllm_default_limits(*find_accelerator("h100")).max_num_batched_tokens == 8192);
  CHECK(vllm_default_limits(*find_accelerator("h100")).max_num_seqs == 1024);
  CHECK(vllm_default_limits(*find_accelerator("a100")).max_num_batched_tokens == 2048);
  CHECK(vllm_default_limits(*find_accelerator("a100")).max_num_seqs == 256);
  CHECK(vllm_default_limits(*find_accelerator("l4")).max_num_seqs == 256);
  // Qwen3-8B BF16 on H100, util 0.9: vLLM 0.30 logged 377,024 KV tokens (docs/engines-serving.md
  // 1.1, tgarg01/silybench-data); fitcheck reserves less for activations and overhead.
  const ModelDescription qwen = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json"));
  const Accelerator& h100 = *find_accelerator("h100");
  const KvCapacity capacity =
      vllm_kv_capacity(qwen, weight_tensors(qwen), InferenceWorkload{}, h100, vllm_default_limits(h100));
  CHECK(capacity.block_bytes == 16 * 147456);
  CHECK(static_cast<double>(capacity.blocks * 16) == doctest::Approx(377024).epsilon(0.08));
}

TEST_CASE("serve-sim report and CLI") {
  const std::string config = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
  const auto done = test::run_cli("serve-sim '" + config +
                                  "' --gpu h100 --prompt-len 512 --gen-len 64 --concurrency 8 --requests 40 --json");
  REQUIRE(done.exit_status == 0);
  const auto report = nlohmann::json::parse(done.out);
  for (const char* key : {"output_tokens_per_second", "requests_per_second", "ttft_seconds_p50", "ttft_seconds_p90",
                          "ttft_seconds_p99", "tpot_seconds_p50", "tpot_seconds_p90", "tpot_seconds_p99"}) {
    CAPTURE(key);
    CHECK(report[key].get<double>() > 0);
  }
  CHECK(report["engine"] == "vllm");
  CHECK(report["scheduler"]["max_num_batched_tokens"] == 8192);
  CHECK(report["scheduler"]["kv_capacity_tokens"].get<std::int64_t>() > 100000);
  CHECK(report["requests"] == 40);

  const auto text = test::run_cli("serve-sim '" + config +
                                  "' --gpu h100 --prompt-len 512 --gen-len 64 --arrival-rate 4 --requests 20");
  CHECK(text.exit_status == 0);
  CHECK(text.out.find("TTFT ms") != std::string::npos);

  const auto bad = test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 4 --max-num-seqs 0");
  CHECK(bad.exit_status == 2);
  CHECK(bad.err.find("--max-num-seqs") != std::string::npos);
  const auto typo = test::run_cli("serve-sim '" + config + "' --gpu h100 --concurency 4");
  CHECK(typo.exit_status == 2);
  CHECK(typo.err.find("--concurency") != std::string::npos);
  const auto neither = test::run_cli("serve-sim '" + config + "' --gpu h100");
  CHECK(neither.exit_status == 2);
  CHECK(neither.err.find("--concurrency") != std::string::npos);
  const auto batch = test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --batch 8");
  CHECK(batch.exit_status == 2);
  CHECK(batch.err.find("--batch") != std::string::npos);
  const auto too_long =
      test::run_cli("serve-sim '" + config + "' --gpu l4 --concurrency 2 --prompt-len 100000 --gen-len 10");
  CHECK(too_long.exit_status == 2);
  CHECK(too_long.err.find("--prompt-len") != std::string::npos);
  const auto too_much =
      test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --requests 1000000 --gen-len 1000");
  CHECK(too_much.exit_status == 2);
  CHECK(too_much.err.find("--requests") != std::string::npos);
  // The engine's request overhead (TensorRT-LLM: 4 ms), or the one given.
  const auto trtllm = test::run_cli("serve-sim '" + config +
                                    "' --gpu h100 --engine trtllm --prompt-len 512 --gen-len 8 --concurrency 1 "
                                    "--requests 2 --json");
  REQUIRE(trtllm.exit_status == 0);
  CHECK(nlohmann::json::parse(trtllm.out)["scheduler"]["request_overhead_seconds"].get<double>() ==
        doctest::Approx(4e-3));
  const auto given = test::run_cli("serve-sim '" + config +
                                   "' --gpu h100 --engine trtllm --prompt-len 512 --gen-len 8 --concurrency 1 "
                                   "--requests 2 --request-overhead-ms 0 --json");
  REQUIRE(given.exit_status == 0);
  const auto given_report = nlohmann::json::parse(given.out);
  CHECK(given_report["scheduler"]["request_overhead_seconds"].get<double>() == 0);
  // Concurrency 1 on an idle engine: the 4 ms add to every TTFT.
  CHECK(nlohmann::json::parse(trtllm.out)["ttft_seconds_mean"].get<double>() ==
        doctest::Approx(given_report["ttft_seconds_mean"].get<double>() + 4e-3).epsilon(1e-9));
  CHECK(report["scheduler"]["request_overhead_seconds"].get<double>() == 0);  // vLLM: none published
  const auto negative = test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --request-overhead-ms -1");
  CHECK(negative.exit_status == 2);
  CHECK(negative.err.find("--request-overhead-ms") != std::string::npos);
  const auto no_gpu = test::run_cli("serve-sim '" + config + "' --concurrency 2");
  CHECK(no_gpu.exit_status == 2);
  CHECK(no_gpu.err.find("--gpu") != std::string::npos);
}

TEST_CASE("golden: vLLM 0.30 on one H100, Qwen3-8B BF16, 2048 + 2048 tokens at concurrency 16, 64 and 128") {
  // validation/serving.json rows vllm-0.30-qwen3-8b-h100-bf16-2048-2048-c{16,64,128}
  // (tgarg01/silybench-data@893db45107f431f132318c8e70e0de2fb01d3c83): output tokens/s and TPOT p95
  // at --max-concurrency c over c x 5 prompts. The simulation carries no per-step CPU time, so it
  // runs a little fast; 15% bounds both figures (docs/serving.md has the table, and c1, where the
  // missing CPU time makes it 20% fast).
  Setup s;
  s.model = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json"));
  s.tensors = weight_tensors(s.model);
  s.prepared = prepare_latency_model(s.model, s.tensors, WeightFormat::bf16);
  s.gpu = find_accelerator("h100");
  s.assumptions = default_latency_assumptions(*s.gpu);
  s.limits = vllm_default_limits(*s.gpu);
  s.limits.kv_capacity_blocks = vllm_kv_capacity(s.model, s.tensors, s.workload, *s.gpu, s.limits).blocks;
  struct Row {
    std::int64_t concurrency, requests;
    double output_tokens_per_second, tpot_p95_seconds;
  };
  for (const Row row :
       {Row{16, 80, 1625.12, 9.80e-3}, Row{64, 320, 3462.84, 18.34e-3}, Row{128, 640, 3917.07, 40.02e-3}}) {
    CAPTURE(row.concurrency);
    const ServingResult r = run(s, closed_loop(row.requests, row.concurrency, 2048, 2048));
    CHECK(r.output_tokens_per_second == doctest::Approx(row.output_tokens_per_second).epsilon(0.15));
    CHECK(r.tpot_seconds_p95 == doctest::Approx(row.tpot_p95_seconds).epsilon(0.15));
  }
}

TEST_CASE("a trace's lengths are replayed in order, and repeated for more requests") {
  const Setup s = llama_8b_h100();
  ServingLoad load = closed_loop(3, 1, 0, 0);
  load.trace = {{100, 10}, {300, 50}, {50, 5}};
  const ServingResult once = run(s, load);
  CHECK(once.requests == 3);
  CHECK(once.prompt_tokens == 100 + 300 + 50);
  CHECK(once.output_tokens == 10 + 50 + 5);
  check_invariants(once, load);
  load.requests = 7;  // 100, 300, 50, 100, 300, 50, 100
  const ServingResult repeated = run(s, load);
  CHECK(repeated.prompt_tokens == 1000);
  CHECK(repeated.output_tokens == 140);
  // A trace of one length is the fixed distribution of that length, step for step.
  ServingLoad fixed = closed_loop(5, 2, 512, 64);
  ServingLoad traced = closed_loop(5, 2, 0, 0);
  traced.trace = {{512, 64}};
  const ServingResult a = run(s, fixed), b = run(s, traced);
  CHECK(a.steps == b.steps);
  CHECK(a.duration_seconds == b.duration_seconds);
  CHECK(a.ttft_seconds_p90 == b.ttft_seconds_p90);
  ServingLoad empty_lengths = traced;
  empty_lengths.trace = {{512, 0}};
  CHECK_THROWS_AS(run(s, empty_lengths), std::invalid_argument);
}

TEST_CASE("a trace's long tail sets the run's length") {
  // Four requests at once with 560 output tokens in all: evenly (140 each) they decode together for
  // 140 steps; with one of 512 and three of 16 the long one decodes alone for its last 496 steps.
  const Setup s = llama_8b_h100();
  ServingLoad even = closed_loop(4, 4, 0, 0), tail = closed_loop(4, 4, 0, 0);
  even.trace = {{64, 140}};
  tail.trace = {{64, 16}, {64, 16}, {64, 16}, {64, 512}};
  const ServingResult e = run(s, even), t = run(s, tail);
  CHECK(e.output_tokens == t.output_tokens);
  CHECK(t.steps == e.steps + 512 - 140);
  // A decode step reads the weights once whatever the batch, so the time follows the steps.
  CHECK(t.duration_seconds / e.duration_seconds ==
        doctest::Approx(static_cast<double>(t.steps) / static_cast<double>(e.steps)).epsilon(0.03));
  CHECK(t.output_tokens_per_second < 0.4 * e.output_tokens_per_second);
}

TEST_CASE("request lengths from a benchmark result or from lines") {
  const auto lines = parse_request_lengths("prompt,output\n# a comment\n\n100,10\r\n 200 \t 20 # trailing\n30 3\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].prompt == 100);
  CHECK(lines[0].output == 10);
  CHECK(lines[1].prompt == 200);
  CHECK(lines[1].output == 20);
  CHECK(lines[2].prompt == 30);
  CHECK(lines[2].output == 3);
  // vllm bench serve --save-result --save-detailed: the arrays beside the other figures.
  const auto json = parse_request_lengths(
      R"( {"duration": 1.5, "input_lens": [217, 12], "output_lens": [202, 7], "itls": [[0.1], [0.2]],
          "generated_texts": ["a ] {", "b"]})");
  REQUIRE(json.size() == 2);
  CHECK(json[1].prompt == 12);
  CHECK(json[1].output == 7);

  const auto refusal = [](const std::string& text) {
    try {
      parse_request_lengths(text);
    } catch (const OptionError& error) {
      CHECK(error.option() == "request_lengths");
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal("1,2\n3,x\n").find("line 2: expected two whole numbers") != std::string::npos);
  CHECK(refusal("1,2,3\n").find("line 1") != std::string::npos);
  CHECK(refusal("5,0\n").find("line 1: output tokens must be between 1") != std::string::npos);
  CHECK(refusal("1,2\nprompt,output\n").find("line 2") != std::string::npos);  // a header only before the numbers
  CHECK(refusal("# nothing\n").find("no requests") != std::string::npos);
  CHECK(refusal("").find("no requests") != std::string::npos);
  CHECK(refusal(R"({"input_lens": [1, 2], "output_lens": [3]})").find("2 entries") != std::string::npos);
  CHECK(refusal(R"({"input_lens": [1]})").find("no \"output_lens\"") != std::string::npos);
  CHECK(refusal(R"({"input_lens": 1, "output_lens": [3]})").find("must be an array, got number") != std::string::npos);
  CHECK(refusal(R"({"input_lens": [1.5], "output_lens": [3]})").find("\"input_lens\"[0] must be a whole number") !=
        std::string::npos);
  CHECK(refusal(R"({"input_lens": [4, 9], "output_lens": [3, 0]})").find("request 1: \"output_lens\" is 0") !=
        std::string::npos);
  CHECK(refusal(R"({"input_lens": [1], )").find("JSON syntax error") != std::string::npos);
  CHECK(refusal("{\"x\": " + std::string(40, '[') + std::string(40, ']') + "}").find("nests") != std::string::npos);
}

TEST_CASE("serve-sim replays a trace file") {
  const std::string config = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
  const std::string trace = "prompt,output\n100,10\n300,50\n51,6\n";
  const auto done =
      test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --lengths-file - --json", trace);
  REQUIRE(done.exit_status == 0);
  const auto report = nlohmann::json::parse(done.out);
  CHECK(report["requests"] == 3);
  CHECK(report["prompt_tokens"] == 451);
  CHECK(report["output_tokens"] == 66);
  CHECK(report["load"]["length_distribution"] == "trace");
  CHECK(report["load"]["trace_requests"] == 3);
  CHECK(report["load"]["prompt_len"] == 150);  // 451 / 3 = 150.3
  CHECK(report["load"]["gen_len"] == 22);
  bool stated = false;
  for (const auto& line : report["assumptions"])
    stated = stated || line.get<std::string>().find("a trace of 3 requests replayed in order") != std::string::npos;
  CHECK(stated);
  const auto repeated = test::run_cli(
      "serve-sim '" + config + "' --gpu h100 --concurrency 2 --requests 6 --lengths-file - --json", trace);
  REQUIRE(repeated.exit_status == 0);
  CHECK(nlohmann::json::parse(repeated.out)["prompt_tokens"] == 902);

  const auto refused = [&](const std::string& flags, const std::string& text) {
    return test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 " + flags, text);
  };
  const auto bad_line = refused("--lengths-file -", "100,10\n7\n");
  CHECK(bad_line.exit_status == 2);
  CHECK(bad_line.err.find("--lengths-file") != std::string::npos);
  CHECK(bad_line.err.find("line 2") != std::string::npos);
  const auto missing = refused("--lengths-file /nonexistent/trace.csv", "");
  CHECK(missing.exit_status == 2);
  CHECK(missing.err.find("--lengths-file") != std::string::npos);
  const auto both = refused("--lengths-file - --length-distribution uniform", trace);
  CHECK(both.exit_status == 2);
  CHECK(both.err.find("--length-distribution") != std::string::npos);
  const auto with_length = refused("--lengths-file - --prompt-len 100", trace);
  CHECK(with_length.exit_status == 2);
  CHECK(with_length.err.find("--prompt-len") != std::string::npos);
  const auto prefix = refused("--lengths-file - --shared-prefix 60", trace);
  CHECK(prefix.exit_status == 2);
  CHECK(prefix.err.find("--shared-prefix") != std::string::npos);
  const auto too_long =
      test::run_cli("serve-sim '" + config + "' --gpu l4 --concurrency 2 --lengths-file -", "100,10\n100000,10\n");
  CHECK(too_long.exit_status == 2);
  CHECK(too_long.err.find("--lengths-file") != std::string::npos);
  CHECK(too_long.err.find("the trace's longest prompt and output, 100000 + 10 tokens do not fit") != std::string::npos);
}
