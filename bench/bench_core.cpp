// SPDX-License-Identifier: MIT
#include "bench_core.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/local.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/serving.hpp"
#include "fitcheck/training_memory.hpp"

namespace fitcheck::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A sink the optimizer cannot see through, so measured work is not removed.
volatile double sink = 0;

// What the page and a sweep prepare once per model: the parameter count, the latency model, the
// weights of each tensor-parallel layout and the training memory of each ZeRO stage.
struct Prepared {
  ModelDescription model;
  std::vector<WeightTensor> tensors;
  ParameterCount parameters;
  PreparedLatencyModel latency;
  std::vector<LayoutWeights> layouts;            // tp 1, 2, 4, 8 where the model allows
  std::vector<PreparedTrainingMemory> training;  // ZeRO 0..3 over 8 data-parallel ranks
  const Accelerator* gpu = nullptr;
};

Prepared prepare(const std::string& text) {
  Prepared p;
  p.model = parse_hf_config(text);
  p.tensors = weight_tensors(p.model);
  p.parameters = count_parameters(p.model);
  p.latency = prepare_latency_model(p.model, p.tensors, WeightFormat::bf16);
  p.gpu = find_accelerator("h100-sxm-80gb");
  for (std::int64_t tp : {1, 2, 4, 8}) {
    InferenceWorkload w;
    w.layout.tensor_parallel = tp;
    try {
      p.layouts.push_back(layout_weights(p.model, p.tensors, w));
    } catch (const std::invalid_argument&) {
    }
  }
  if (p.layouts.empty()) throw std::invalid_argument("no tensor-parallel layout fits this model");
  for (int zero = 0; zero <= 3; ++zero) {
    TrainingWorkload t;
    t.zero_stage = zero;
    t.layout.data_parallel = 8;
    p.training.push_back(prepare_training_memory(p.model, p.tensors, t));
  }
  return p;
}

// Inference memory and latency totals of workload i: layout, batch and context vary.
double one_inference_estimate(const Prepared& p, std::int64_t i) {
  const LayoutWeights& layout = p.layouts[static_cast<std::size_t>(i) % p.layouts.size()];
  InferenceWorkload w;
  w.layout = layout.layout;
  w.batch_size = 1 + i % 64;
  w.context_tokens = 512 + (i % 16) * 512;
  const InferenceMemoryTotals memory = inference_memory_totals(p.model, layout, w);
  const LatencyTotals latency = estimate_latency_totals(p.latency, w, *p.gpu, {w.context_tokens - 128, 128});
  return static_cast<double>(memory.total_bytes_per_gpu) + latency.end_to_end_seconds;
}

// Training memory of workload i: ZeRO stage, micro-batch and sequence length vary.
double one_training_estimate(const Prepared& p, std::int64_t i) {
  const PreparedTrainingMemory& training = p.training[static_cast<std::size_t>(i / 3) % p.training.size()];
  const TrainingMemoryTotals memory = training_memory_totals(p.model, training, 1 + i % 4, 2048 * (1 + i % 2));
  return static_cast<double>(memory.total_bytes_per_gpu);
}

}  // namespace

BenchResult inference_estimates(const std::string& config_json_text, std::int64_t iterations) {
  const Prepared p = prepare(config_json_text);
  const auto start = std::chrono::steady_clock::now();
  double total = 0;
  for (std::int64_t i = 0; i < iterations; ++i) total += one_inference_estimate(p, i);
  sink = total;
  return {iterations, seconds_since(start)};
}

BenchResult full_estimates(const std::string& config_json_text, std::int64_t iterations) {
  const Prepared p = prepare(config_json_text);
  const auto start = std::chrono::steady_clock::now();
  double total = 0;
  for (std::int64_t i = 0; i < iterations; ++i) {
    // The parameter count is the model's, the same for every workload: read from the prepared model.
    total += static_cast<double>(p.parameters.total);
    total += one_inference_estimate(p, i);
    total += one_training_estimate(p, i);
  }
  sink = total;
  return {iterations, seconds_since(start)};
}

BenchResult planner_sweep(const std::string& config_json_text, std::int64_t target_layouts) {
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  InferencePlanRequest request;
  for (const char* id : {"h100-sxm-80gb", "h200", "a100-sxm-80gb", "b200", "mi300x"})
    request.gpus.push_back(find_accelerator(id));
  request.max_gpus = 8;
  request.weight_formats = {WeightFormat::bf16, WeightFormat::fp8_e4m3_per_tensor, WeightFormat::gguf_q4_k_m};
  request.kv_cache_dtypes = {KvCacheDtype::bf16, KvCacheDtype::fp8};
  request.prompt_tokens = 256;
  request.generated_tokens = 64;
  request.memory_headroom = 0.0;
  // Layouts per batch size: GPUs x (tp, pp) splits x formats x dtypes; batches fill the rest.
  const std::int64_t per_batch = 5 * 15 * 3 * 2;
  const std::int64_t batches = std::max<std::int64_t>(1, target_layouts / per_batch);
  for (std::int64_t b = 1; b <= batches; ++b) request.batch_sizes.push_back(b);
  const auto start = std::chrono::steady_clock::now();
  const InferencePlan plan = plan_inference(model, tensors, request);
  return {plan.evaluated, seconds_since(start)};
}

BenchResult training_plan(const std::string& config_json_text) {
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  TrainingPlanRequest request;
  for (const char* id : {"h100-sxm-80gb", "h200", "a100-sxm-80gb"}) request.gpus.push_back(find_accelerator(id));
  request.base.workload.framework = TrainingFramework::megatron;
  const auto start = std::chrono::steady_clock::now();
  const TrainingPlan plan = plan_training(model, tensors, request);
  const double seconds = seconds_since(start);
  sink = sink + static_cast<double>(plan.feasible);
  return {plan.evaluated, seconds};
}

BenchResult serve_sim(const std::string& config_json_text, std::int64_t requests) {
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel latency = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& gpu = *find_accelerator("h100-sxm-80gb");
  const InferenceWorkload workload;
  SchedulerLimits limits = vllm_default_limits(gpu);
  limits.kv_capacity_blocks = vllm_kv_capacity(model, tensors, workload, gpu, limits).blocks;
  ServingLoad load;
  load.requests = requests;
  load.concurrency = 256;
  load.prompt = {1024, LengthDistribution::uniform, 0.5};
  load.output = {256, LengthDistribution::uniform, 0.5};
  load.seed = 1;
  const auto start = std::chrono::steady_clock::now();
  const ServingResult result = simulate_serving(latency, workload, gpu, default_latency_assumptions(gpu), limits, load);
  const double seconds = seconds_since(start);
  sink = sink + result.output_tokens_per_second;
  return {result.requests, seconds};
}

BenchResult local_formats(const std::string& config_json_text, std::int64_t iterations) {
  const ModelDescription model = parse_hf_config(config_json_text);
  LocalRequest request;
  request.gpus.push_back(*find_accelerator("rtx-4090"));
  request.ram_bytes = std::int64_t{64} << 30;
  request.context = 8192;
  const auto start = std::chrono::steady_clock::now();
  double total = 0;
  for (std::int64_t i = 0; i < iterations; ++i)
    for (const LocalFormatRow& row : compare_local_formats(model, request))
      total += row.estimate.speed.generation_tokens_per_second;
  sink = total;
  return {iterations, seconds_since(start)};
}

}  // namespace fitcheck::bench
