// SPDX-License-Identifier: MIT
// Training planner options and its JSON report.
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

// The planner's own keys; the searched keys of `fitcheck train` are refused, the rest go to
// parse_training_options unchanged.
constexpr const char* kPlannerKeys[] = {"gpus",           "max_gpus",    "gpus_per_node",   "headroom",
                                        "global_batch_tokens", "micro_batch_sizes", "zero_stages",
                                        "recompute_modes", "objective", "keep"};

// A custom accelerator's keys (gpus=...,custom) belong to the planner's side too.
bool planner_key(const std::string& key) {
  return std::find(std::begin(kPlannerKeys), std::end(kPlannerKeys), key) != std::end(kPlannerKeys) ||
         std::find(std::begin(kCustomGpuKeys), std::end(kCustomGpuKeys), key) != std::end(kCustomGpuKeys);
}
constexpr const char* kTrainingKeys[] = {"precision",   "master_weights", "fp32_gradients", "optimizer",
                                         "adafactor_first_moment", "seq_len", "eager_attention", "dropout",
                                         "lora_rank",   "lora_modules",   "qlora",          "lora_dropout",
                                         "overhead_gib", "train_tokens",  "flops_efficiency", "overlap"};

template <std::size_t N>
bool listed(const char* const (&keys)[N], const std::string& key) {
  return std::any_of(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; });
}

void write_candidate(JsonWriter& writer, const TrainingPlanCandidate& c, const TrainingPlanRequest& request) {
  writer.begin_object();
  writer.field("gpu", request.gpus[c.gpu]->id);
  writer.field("gpu_name", request.gpus[c.gpu]->name);
  writer.field("gpus", c.gpus);
  writer.field("tp", c.tensor_parallel);
  writer.field("pp", c.pipeline_parallel);
  writer.field("dp", c.data_parallel);
  writer.field("cp", c.context_parallel);
  writer.field("ep", c.expert_parallel);
  writer.field("sequence_parallel", c.sequence_parallel);
  writer.field("zero", c.zero_stage);
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

TrainingPlanRequest parse_training_plan_options(const OptionList& options) {
  OptionList mine, training;
  for (const auto& option : options) {
    if (planner_key(option.first)) mine.push_back(option);
    else if (listed(kTrainingKeys, option.first)) training.push_back(option);
    else
      throw OptionError(option.first, "option '" + detail::printable(option.first) +
                                          "' is not a training planner option (the planner searches gpu counts, tp, pp, "
                                          "dp, cp, ep, zero, micro_batch and recompute itself)");
  }
  TrainingPlanRequest request;
  request.base = parse_training_options(training);
  OptionReader reader(mine);
  const auto gpu_names = split_option_list(reader.text("gpus").value_or("h100-sxm-80gb,h200,a100-sxm-80gb"));
  request.custom_gpu = read_custom_gpu_options(reader, std::any_of(gpu_names.begin(), gpu_names.end(), is_custom_gpu_name));
  for (const auto& name : gpu_names) append_unique(request.gpus, resolve_gpu_option("gpus", name, request.custom_gpu));
  request.max_gpus = reader.count("max_gpus", 64, 1, 65536);
  request.max_gpus_per_node = reader.count("gpus_per_node", 0, 0, 4096);
  request.memory_headroom = reader.number("headroom", 0.1, 0.0, 0.99);
  request.global_batch_tokens = reader.count("global_batch_tokens", std::int64_t{4} << 20, 1, std::int64_t{1} << 40);
  if (auto sizes = reader.text("micro_batch_sizes")) {
    request.micro_batch_sizes.clear();
    for (const auto& text : split_option_list(*sizes))
      append_unique(request.micro_batch_sizes, option_list_count("micro_batch_sizes", text, 1, std::int64_t{1} << 24));
  }
  if (auto stages = reader.text("zero_stages")) {
    request.zero_stages.clear();
    for (const auto& text : split_option_list(*stages))
      append_unique(request.zero_stages, static_cast<int>(option_list_count("zero_stages", text, 0, 3)));
  }
  if (auto modes = reader.text("recompute_modes")) {
    request.recompute_modes.clear();
    for (const auto& id : split_option_list(*modes)) {
      const auto found = find_recompute(id);
      if (!found) throw OptionError("recompute_modes", "unknown recompute mode '" + detail::printable(id) + "' in 'recompute_modes' (none, selective, full)");
      append_unique(request.recompute_modes, *found);
    }
  }
  if (auto objective = reader.text("objective")) {
    const auto parsed = find_training_plan_objective(*objective);
    if (!parsed)
      throw OptionError("objective", "unknown objective '" + detail::printable(*objective) +
                                         "' (shortest_time, highest_throughput, lowest_cost, fewest_gpus)");
    request.objective = *parsed;
  }
  request.keep = static_cast<std::size_t>(reader.count("keep", 20, 1, 1000));
  reader.finish();
  return request;
}

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
  writer.field("precision", precision_recipe_info(w.precision).id);
  writer.field("optimizer", optimizer_info(w.optimizer).id);
  writer.field("train_tokens", request.base.train_tokens);
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
