// SPDX-License-Identifier: MIT
// Benchmarks of the estimation core, compiled natively (fitcheck_bench) and to WebAssembly
// (bench-wasm/fitcheck_bench.mjs) from the same source, so the two can be compared.
#pragma once

#include <cstdint>
#include <string>

namespace fitcheck::bench {

struct BenchResult {
  std::int64_t count = 0;  // estimates or layouts evaluated
  double seconds = 0;
  double per_second() const { return seconds > 0 ? static_cast<double>(count) / seconds : 0; }
};

// The config is parsed and prepared once (parameter count, latency model, weights per layout,
// training memory per ZeRO stage); then `iterations` full estimates over a grid of workloads, each
// through the numbers-only evaluate functions: inference memory, latency totals on a GPU and
// training memory, batch, context, layout, ZeRO stage, micro-batch and sequence varying.
BenchResult full_estimates(const std::string& config_json_text, std::int64_t iterations);

// Inference memory + latency totals only (the planner's per-layout work), `iterations` times.
BenchResult inference_estimates(const std::string& config_json_text, std::int64_t iterations);

// One planner sweep sized to evaluate about `target_layouts` layouts.
BenchResult planner_sweep(const std::string& config_json_text, std::int64_t target_layouts);

// One training planner run (plan_training) as the page's Plan tab starts it: H100, H200 and A100,
// at most 64 GPUs, 4M-token global batch, every ZeRO stage, recompute mode, micro-batch size 1-8 and
// 1, 2 or 4 model chunks, under Megatron-Core (every parallelism searched). count is the layouts
// evaluated; the model is parsed before the clock starts.
BenchResult training_plan(const std::string& config_json_text);

// One serving simulation (simulate_serving) of `requests` requests on an H100 at the vLLM defaults:
// closed loop at concurrency 256, prompts uniform in 512..1536 and outputs in 128..384 tokens
// (seed 1). The model is prepared before the clock starts; count is the requests simulated.
BenchResult serve_sim(const std::string& config_json_text, std::int64_t requests);

// The Local tab's weight formats table (compare_local_formats), `iterations` times: every common GGUF type
// of the model on an RTX 4090 with 64 GiB of RAM at n_ctx 8192, each placed as llama.cpp's --fit places it.
// The model is parsed before the clock starts; count is the tables.
BenchResult local_formats(const std::string& config_json_text, std::int64_t iterations);

}  // namespace fitcheck::bench
