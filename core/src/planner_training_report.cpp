// SPDX-License-Identifier: MIT
// Training planner options and its JSON report.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "config_fields.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"

namespace fitcheck {
namespace {

using Json = nlohmann::ordered_json;

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

Json candidate_json(const TrainingPlanCandidate& c, const TrainingPlanRequest& request) {
  return {{"gpu", request.gpus[c.gpu]->id},
          {"gpu_name", request.gpus[c.gpu]->name},
          {"gpus", c.gpus},
          {"tp", c.tensor_parallel},
          {"pp", c.pipeline_parallel},
          {"dp", c.data_parallel},
          {"cp", c.context_parallel},
          {"ep", c.expert_parallel},
          {"sequence_parallel", c.sequence_parallel},
          {"zero", c.zero_stage},
          {"micro_batch", c.micro_batch_size},
          {"micro_batches", c.gradient_accumulation_steps},
          {"recompute", recompute_name(c.recompute)},
          {"memory_bytes_per_gpu", c.memory_bytes_per_gpu},
          {"budget_bytes_per_gpu", c.budget_bytes_per_gpu},
          {"step_seconds", c.step_seconds},
          {"tokens_per_second", c.tokens_per_second},
          {"mfu", c.mfu},
          {"train_seconds", c.train_seconds},
          {"train_gpu_hours", c.train_gpu_hours},
          {"train_cost_usd", c.train_cost_usd},
          {"price_per_hour_usd", c.price_per_hour_usd}};
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
  for (const auto& name : gpu_names) request.gpus.push_back(resolve_gpu_option("gpus", name, request.custom_gpu));
  request.max_gpus = reader.count("max_gpus", 64, 1, 65536);
  request.max_gpus_per_node = reader.count("gpus_per_node", 0, 0, 4096);
  request.memory_headroom = reader.number("headroom", 0.1, 0.0, 0.99);
  request.global_batch_tokens = reader.count("global_batch_tokens", std::int64_t{4} << 20, 1, std::int64_t{1} << 40);
  if (auto sizes = reader.text("micro_batch_sizes")) {
    request.micro_batch_sizes.clear();
    for (const auto& text : split_option_list(*sizes))
      request.micro_batch_sizes.push_back(option_list_count("micro_batch_sizes", text, 1, std::int64_t{1} << 24));
  }
  if (auto stages = reader.text("zero_stages")) {
    request.zero_stages.clear();
    for (const auto& text : split_option_list(*stages))
      request.zero_stages.push_back(static_cast<int>(option_list_count("zero_stages", text, 0, 3)));
  }
  if (auto modes = reader.text("recompute_modes")) {
    request.recompute_modes.clear();
    for (const auto& id : split_option_list(*modes)) {
      const auto found = find_recompute(id);
      if (!found) throw OptionError("recompute_modes", "unknown recompute mode '" + detail::printable(id) + "' in 'recompute_modes' (none, selective, full)");
      request.recompute_modes.push_back(*found);
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
  Json best = Json::array();
  for (const auto& candidate : plan.best) best.push_back(candidate_json(candidate, request));
  Json frontier = Json::array();
  for (const auto& candidate : plan.frontier) frontier.push_back(candidate_json(candidate, request));
  Json gpus = Json::array();
  for (const auto* gpu : request.gpus) gpus.push_back(gpu->id);
  Json modes = Json::array();
  for (auto mode : request.recompute_modes) modes.push_back(recompute_name(mode));
  const TrainingMemoryWorkload& w = request.base.workload;
  const Json report = {
      {"model_type", model.model_type},
      {"request",
       {{"gpus", gpus},
        {"max_gpus", request.max_gpus},
        {"gpus_per_node", request.max_gpus_per_node},
        {"headroom", request.memory_headroom},
        {"global_batch_tokens", request.global_batch_tokens},
        {"seq_len", w.sequence_tokens},
        {"micro_batch_sizes", request.micro_batch_sizes},
        {"zero_stages", request.zero_stages},
        {"recompute_modes", modes},
        {"precision", precision_recipe_info(w.precision).id},
        {"optimizer", optimizer_info(w.optimizer).id},
        {"train_tokens", request.base.train_tokens},
        {"objective", training_plan_objective_name(request.objective)}}},
      {"evaluated", plan.evaluated},
      {"feasible", plan.feasible},
      {"best", best},
      {"frontier", frontier},
      {"notes", plan.notes},
  };
  return report.dump();
}

}  // namespace fitcheck
