// SPDX-License-Identifier: MIT
// fitcheck_bench CONFIG.json: one line of JSON with the native figures (bench/run.mjs takes medians).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "bench_core.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fitcheck_bench CONFIG.json\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  using namespace fitcheck::bench;
  const BenchResult full = full_estimates(text.str(), 20000);
  const BenchResult inference = inference_estimates(text.str(), 200000);
  const BenchResult sweep = planner_sweep(text.str(), 1000000);
  const BenchResult serving = serve_sim(text.str(), 10000);
  const BenchResult training = training_plan(text.str());
  const BenchResult formats = local_formats(text.str(), 20);
  std::printf(
      "{\"full_estimates_per_second\": %.1f, \"inference_estimates_per_second\": %.1f, "
      "\"planner_layouts_per_second\": %.1f, \"sweep_layouts\": %lld, \"sweep_seconds\": %.4f, "
      "\"serve_sim_10k_requests_ms\": %.3f, \"training_plan_ms\": %.3f, \"training_plan_layouts\": %lld, "
      "\"local_formats_ms\": %.3f}\n",
      full.per_second(), inference.per_second(), sweep.per_second(), static_cast<long long>(sweep.count), sweep.seconds,
      serving.seconds * 1e3 * (10000.0 / static_cast<double>(serving.count)), training.seconds * 1e3,
      static_cast<long long>(training.count), formats.seconds * 1e3 / static_cast<double>(formats.count));
  return 0;
}
