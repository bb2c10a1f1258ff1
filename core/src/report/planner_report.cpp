// SPDX-License-Identifier: MIT
// The serving planner's JSON report: it serializes plan_inference()'s result and computes nothing.
#include <algorithm>

#include "config/config_fields.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/plan_options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

using detail::JsonWriter;

void write_candidate(JsonWriter& writer, const PlanCandidate& c, const InferencePlanRequest& request) {
  writer.begin_object();
  writer.field("gpu", request.gpus[c.gpu]->id);
  writer.field("gpu_name", request.gpus[c.gpu]->name);
  writer.field("gpus", c.gpus);
  writer.field("tp", c.tensor_parallel);
  writer.field("pp", c.pipeline_parallel);
  writer.field("ep", c.expert_parallel);
  writer.field("weights", weight_format_info(c.weight_format).id);
  writer.field("kv_dtype", kv_cache_dtype_info(c.kv_cache_dtype).id);
  writer.field("batch", c.batch_size);
  writer.field("memory_bytes_per_gpu", c.memory_bytes_per_gpu);
  writer.field("budget_bytes_per_gpu", c.budget_bytes_per_gpu);
  writer.field("time_to_first_token_seconds", c.time_to_first_token_seconds);
  writer.field("time_per_output_token_seconds", c.time_per_output_token_seconds);
  writer.field("end_to_end_seconds", c.end_to_end_seconds);
  writer.field("tokens_per_second", c.tokens_per_second);
  writer.field("cost_per_million_output_tokens_usd", c.cost_per_million_output_tokens_usd);
  writer.field("price_per_hour_usd", c.price_per_hour_usd);
  writer.end_object();
}

void write_candidates(JsonWriter& writer, std::string_view key, const std::vector<PlanCandidate>& candidates,
                      const InferencePlanRequest& request) {
  writer.begin_array(key);
  for (const auto& candidate : candidates) write_candidate(writer, candidate, request);
  writer.end_array();
}

}  // namespace

std::string plan_report_json(std::string_view config_json_text, const OptionList& options) {
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const InferencePlanRequest request = parse_plan_options(model, options);
  const InferencePlan plan = plan_inference(model, tensors, request);
  JsonWriter writer;
  writer.begin_object();
  writer.field("model_type", model.model_type);
  writer.begin_object("request");
  writer.begin_array("gpus");
  for (const auto* gpu : request.gpus) writer.element(gpu->id);
  writer.end_array();
  writer.field("max_gpus", request.max_gpus);
  writer.begin_array("weights");
  for (auto format : request.weight_formats) writer.element(weight_format_info(format).id);
  writer.end_array();
  writer.begin_array("kv_dtypes");
  for (auto dtype : request.kv_cache_dtypes) writer.element(kv_cache_dtype_info(dtype).id);
  writer.end_array();
  writer.field("batches", request.batch_sizes);
  writer.field("prompt_len", request.prompt_tokens);
  writer.field("gen_len", request.generated_tokens);
  writer.field("headroom", request.memory_headroom);
  writer.field("ttft", request.ttft_target_seconds);
  writer.field("tpot", request.tpot_target_seconds);
  writer.field("objective", plan_objective_name(request.objective));
  writer.end_object();
  writer.field("evaluated", plan.evaluated);
  writer.field("feasible", plan.feasible);
  write_candidates(writer, "best", plan.best, request);
  write_candidates(writer, "frontier", plan.frontier, request);
  writer.field("notes", plan.notes);
  writer.end_object();
  return writer.take();
}

}  // namespace fitcheck
