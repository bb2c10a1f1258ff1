// SPDX-License-Identifier: MIT
// A CPU's generation speed in llama.cpp: the RAM its cores can read (the RAM's peak, or its core dies'
// fabric links where lower) at a memory benchmark's read share, and each graph node's barrier by thread
// count. Expected values are written out from the published figures beside each check.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/cpu.hpp"
#include "fitcheck/local.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// AIDA64's read on dual-channel DDR4-3200 (Guru3D): about 46,000 of 51,200 MB/s.
constexpr double kReadShare = 0.90;

// test-barrier on an i9-13900K, OpenMP build (ggml-org/llama.cpp#9461): 474 ns a node on 1 thread, 1,039.47 on 8.
double node_seconds(int threads) { return (474 + (threads - 1) * (1039.47 - 474) / 7) * 1e-9; }

LocalModel llama3_8b_q4_0() {
  return local_model_from_config(test::fixture_model("meta-llama--Llama-3.1-8B.json"), WeightFormat::gguf_q4_0);
}

LocalRequest cpu_only(const char* cpu_id) {
  LocalRequest r;
  r.backend = LocalBackend::cpu;
  r.cpu = *find_cpu(cpu_id);
  r.ram_bytes = std::int64_t{64} << 30;
  r.context = 640;
  r.flash_attention = false;
  r.prompt_len = 0;
  r.gen_len = 1;
  return r;
}

bool stated(const LocalEstimate& e, const std::string& text) { return test::mentions(e.assumptions, text); }

}  // namespace

TEST_CASE("local CPU generation: a single-die Ryzen reads through its fabric link, not at its RAM's peak") {
  const LocalModel model = llama3_8b_q4_0();
  // Ryzen 5 7600X: one die, 32 B x 2 GHz = 64 GB/s, under its DDR5-5200's 83.2 GB/s.
  const LocalEstimate single = estimate_local(model, cpu_only("ryzen-5-7600x"));
  const LocalTokenTime& t = single.speed.generation_token_time.back();
  CHECK(t.bandwidth_fraction == doctest::Approx(kReadShare));
  CHECK(t.bandwidth_bytes_per_second == doctest::Approx(kReadShare * 64e9));
  CHECK(stated(single, "CPU layers read at most 64 GB/s, not the RAM's 83.2: 1 core die x 32 B x 2 GHz"));
  // Ryzen 9 7950X: two dies read 128 GB/s, so its RAM's 83.2 bounds it, and nothing is said of links.
  const LocalEstimate dual = estimate_local(model, cpu_only("ryzen-9-7950x"));
  CHECK(dual.speed.generation_token_time.back().bandwidth_bytes_per_second == doctest::Approx(kReadShare * 83.2e9));
  CHECK_FALSE(stated(dual, "CPU layers read at most"));
}

TEST_CASE("local CPU generation: every graph node costs its barrier on the threads that run it") {
  const LocalModel model = llama3_8b_q4_0();
  // Llama 3.1 8B without flash attention: 32 layers of 22 nodes and the output's 3.
  LocalRequest r = cpu_only("threadripper-pro-5995wx");
  r.threads = 64;
  const LocalEstimate many = estimate_local(model, r);
  const LocalTokenTime& t = many.speed.generation_token_time.back();
  CHECK(t.graph_ops == 707);
  CHECK(t.seconds_per_op == doctest::Approx(node_seconds(64)));  // 5.56 us
  // Eight channels of DDR4-3200 (204.8 GB/s), under its eight dies' 409.6 GB/s of links.
  CHECK(t.bandwidth_bytes_per_second == doctest::Approx(kReadShare * 204.8e9));
  CHECK(t.seconds == doctest::Approx(t.bytes / (kReadShare * 204.8e9) + 707 * node_seconds(64)));
  CHECK(many.speed.generation_tokens_per_second == doctest::Approx(1.0 / t.seconds));
  CHECK(stated(many, "each graph node costs 5.56 us beyond its bytes on 64 threads"));
  // Fewer threads wait less at each barrier: 32 threads, 2.98 us a node.
  r.threads = 32;
  const LocalEstimate few = estimate_local(model, r);
  CHECK(few.speed.generation_token_time.back().seconds_per_op == doctest::Approx(node_seconds(32)));
  CHECK(few.speed.generation_tokens_per_second > many.speed.generation_tokens_per_second);
  // Fewer still and the multiplies take longer than the reads: with 4 threads the token waits on them, at half
  // the rate of 8 (the same cores, each adding its own), and the report says so.
  r.threads = 8;
  const LocalTokenTime eight = estimate_local(model, r).speed.generation_token_time.back();
  r.threads = 4;
  const LocalEstimate four = estimate_local(model, r);
  const LocalTokenTime& slow = four.speed.generation_token_time.back();
  CHECK(slow.compute_seconds == doctest::Approx(2 * eight.compute_seconds));
  CHECK(slow.compute_seconds > slow.bytes / slow.bandwidth_bytes_per_second);
  CHECK(slow.seconds == doctest::Approx(slow.compute_seconds + 707 * node_seconds(4)));
  CHECK(stated(four, "CPU generation: a token's multiplies on 4 threads take"));
  CHECK(t.compute_seconds < t.bytes / t.bandwidth_bytes_per_second);
  CHECK_FALSE(stated(many, "CPU generation: a token's multiplies"));
  // Without -t, llama.cpp's default: one thread per core (6 on a Ryzen 5 7600X).
  const LocalEstimate defaults = estimate_local(model, cpu_only("ryzen-5-7600x"));
  CHECK(defaults.speed.generation_token_time.back().seconds_per_op == doctest::Approx(node_seconds(6)));
}

TEST_CASE("local CPU generation: without --cpu, 8 threads on a dual-channel DDR5-5600 desktop") {
  const LocalModel model = llama3_8b_q4_0();
  LocalRequest r = cpu_only("ryzen-9-7950x");
  r.cpu.reset();
  const LocalEstimate e = estimate_local(model, r);
  const LocalTokenTime& t = e.speed.generation_token_time.back();
  CHECK(t.bandwidth_bytes_per_second == doctest::Approx(kReadShare * 89.6e9));
  CHECK(t.seconds_per_op == doctest::Approx(node_seconds(8)));
  CHECK(stated(e, "on 8 threads"));
}
