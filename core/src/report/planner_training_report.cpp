// SPDX-License-Identifier: MIT
// The training planner's JSON report: it serializes plan_training()'s result and computes nothing.
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

void write_candidate(JsonWriter& writer, const TrainingPlanCandidate& c, const TrainingPlanRequest& request) {
  writer.begin_object();
  writer.field("gpu", request.gpus[c.gpu]->id);
  writer.field("gpu_name", request.gpus[c.gpu]->name);
  writer.field("gpus", c.gpus);
  writer.field("tp", c.tensor_parallel);
  writer.field("pp", c.pipeline_parallel);
  writer.field("virtual_stages", c.virtual_pipeline_stages);
  writer.field("dp", c.data_parallel);
  writer.field("cp", c.context_parallel);
  writer.field("ep", c.expert_parallel);
  writer.field("sequence_parallel", c.sequence_parallel);
  writer.field("zero", c.zero_stage);
  writer.field("fsdp", fsdp_mode_name(c.fsdp));
  writer.field("fsdp_shard_group", c.fsdp_shard_group);
  writer.field("micro_batch", c.micro_batch_size);
  writer.field("micro_batches", c.gradient_accumulation_steps);
  writer.field("recompute", recompute_name(c.recompute));
  writer.field("memory_bytes_per_gpu", c.memory_bytes_per_gpu);
  writer.field("budget_bytes_per_gpu", c.budget_bytes_per_gpu);
  writer.field("step_seconds", c.step_seconds);
  writer.field("tokens_per_second", c.tokens_per_second);
  writer.field("mfu", c.mfu);
  writer.field("train_seconds", c.train_seconds);
  writer.field("train_gpu_hours", c.train_gpu_hours);
  writer.field("train_cost_usd", c.train_cost_usd);
  writer.field("price_per_hour_usd", c.price_per_hour_usd);
  writer.end_object();
}

void write_candidates(JsonWriter& writer, std::string_view key, const std::vector<TrainingPlanCandidate>& candidates,
                      const TrainingPlanRequest& request) {
  writer.begin_array(key);
  for (const auto& candidate : candidates) write_candidate(writer, candidate, request);
  writer.end_array();
}

}  // namespace

std::string training_plan_report_json(std::string_view config_json_text, const OptionList& options) {
  const TrainingPlanRequest request = parse_training_plan_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  const TrainingPlan plan = plan_training(model, weight_tensors(model), request);
  const TrainingWorkload& w = request.base.workload;
  JsonWriter writer;
  writer.begin_object();
  writer.field("model_type", model.model_type);
  writer.begin_object("request");
  writer.begin_array("gpus");
  for (const auto* gpu : request.gpus) writer.element(gpu->id);
  writer.end_array();
  writer.field("max_gpus", request.max_gpus);
  writer.field("gpus_per_node", request.max_gpus_per_node);
  writer.field("headroom", request.memory_headroom);
  writer.field("global_batch_tokens", request.global_batch_tokens);
  writer.field("seq_len", w.sequence_tokens);
  writer.field("micro_batch_sizes", request.micro_batch_sizes);
  writer.begin_array("zero_stages");
  for (const int stage : request.zero_stages) writer.element(stage);
  writer.end_array();
  writer.begin_array("recompute_modes");
  for (auto mode : request.recompute_modes) writer.element(recompute_name(mode));
  writer.end_array();
  writer.field("virtual_stages", request.virtual_stages);
  writer.field("framework", training_framework(w).id);
  writer.field("precision", precision_recipe_info(w.precision).id);
  writer.field("optimizer", optimizer_info(w.optimizer).id);
  writer.field("train_tokens", request.base.train_tokens);
  // The network every layout was timed with: the option, else LatencyAssumptions' default.
  const double network = request.base.network_bytes_per_second_per_gpu > 0
                             ? request.base.network_bytes_per_second_per_gpu
                             : LatencyAssumptions{}.inter_node_bytes_per_second_per_gpu;
  writer.field("network_gb_per_s", network / 1e9);
  writer.field("objective", training_plan_objective_name(request.objective));
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
