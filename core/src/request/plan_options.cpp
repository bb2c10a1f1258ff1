// SPDX-License-Identifier: MIT
// The planners' requests from text options (CLI flags, page inputs, links): the serving planner's
// lists of GPU kinds, formats and batches, and the training planner's own keys beside the training
// options it hands to parse_training_options. Every refusal names its option.
#include <algorithm>

#include "config/config_fields.hpp"
#include "fitcheck/plan_options.hpp"
#include "fitcheck/training_request.hpp"

namespace fitcheck {
namespace {

// The planner's own keys; the searched keys of `fitcheck train` are refused, the rest go to
// parse_training_options unchanged.
constexpr const char* kPlannerKeys[] = {"gpus",
                                        "max_gpus",
                                        "gpus_per_node",
                                        "headroom",
                                        "global_batch_tokens",
                                        "micro_batch_sizes",
                                        "zero_stages",
                                        "recompute_modes",
                                        "virtual_stages",
                                        "objective",
                                        "keep"};

// A custom accelerator's keys (gpus=...,custom) belong to the planner's side too.
bool planner_key(const std::string& key) {
  return std::find(std::begin(kPlannerKeys), std::end(kPlannerKeys), key) != std::end(kPlannerKeys) ||
         std::find(std::begin(kCustomGpuKeys), std::end(kCustomGpuKeys), key) != std::end(kCustomGpuKeys);
}
constexpr const char* kTrainingKeys[] = {"precision",
                                         "master_weights",
                                         "fp32_gradients",
                                         "optimizer",
                                         "adafactor_first_moment",
                                         "seq_len",
                                         "eager_attention",
                                         "dropout",
                                         "lora_rank",
                                         "lora_modules",
                                         "qlora",
                                         "lora_dropout",
                                         "dora",
                                         "compile",
                                         "eager_loss",
                                         "paged_optimizer",
                                         "overhead_gib",
                                         "train_tokens",
                                         "flops_efficiency",
                                         "overlap",
                                         "framework",
                                         "memory_statistic",
                                         "attention_efficiency",
                                         "network_gb_per_s",
                                         "pipeline_schedule"};

template <std::size_t N>
bool listed(const char* const (&keys)[N], const std::string& key) {
  return std::any_of(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; });
}

}  // namespace

InferencePlanRequest parse_plan_options(const ModelDescription& model, const OptionList& options) {
  OptionReader reader(options);
  InferencePlanRequest request;
  const auto gpu_names = split_option_list(reader.text("gpus").value_or("h100-sxm-80gb,h200,a100-sxm-80gb,l40s"));
  request.custom_gpu =
      read_custom_gpu_options(reader, std::any_of(gpu_names.begin(), gpu_names.end(), is_custom_gpu_name));
  for (const auto& name : gpu_names) append_unique(request.gpus, resolve_gpu_option("gpus", name, request.custom_gpu));
  request.max_gpus = reader.count("max_gpus", 8, 1, 4096);
  request.max_gpus_per_node = reader.count("gpus_per_node", 0, 0, 4096);
  if (auto formats = reader.text("weights")) {
    request.weight_formats.clear();
    for (const auto& id : split_option_list(*formats)) {
      const auto format = find_weight_format(id);
      if (!format)
        throw OptionError("weights", "option 'weights': unknown weight format '" + detail::printable(id) + "'");
      append_unique(request.weight_formats, *format);
    }
  } else {
    const NativeWeightFormat native = native_weight_format(model);
    request.weight_formats = {native.format};
    request.base.weight_options = native.options;
  }
  if (auto dtypes = reader.text("kv_dtypes")) {
    request.kv_cache_dtypes.clear();
    for (const auto& id : split_option_list(*dtypes)) {
      const auto* info = find_kv_cache_dtype(id);
      if (!info)
        throw OptionError("kv_dtypes", "option 'kv_dtypes': unknown KV cache dtype '" + detail::printable(id) + "'");
      append_unique(request.kv_cache_dtypes, info->dtype);
    }
  }
  if (auto batches = reader.text("batches")) {
    request.batch_sizes.clear();
    for (const auto& text : split_option_list(*batches))
      append_unique(request.batch_sizes, option_list_count("batches", text, 1, std::int64_t{1} << 24));
  }
  request.prompt_tokens = reader.count("prompt_len", 1024, 1, std::int64_t{1} << 31);
  request.generated_tokens = reader.count("gen_len", 256, 1, std::int64_t{1} << 31);
  request.memory_headroom = reader.number("headroom", 0.1, 0.0, 0.99);
  request.ttft_target_seconds = reader.number("ttft", 0, 0, 1e6);
  request.tpot_target_seconds = reader.number("tpot", 0, 0, 1e6);
  if (auto objective = reader.text("objective")) {
    const auto parsed = find_plan_objective(*objective);
    if (!parsed)
      throw OptionError("objective", "option 'objective': unknown objective '" + detail::printable(*objective) +
                                         "' (lowest_latency, highest_throughput, lowest_cost, fewest_gpus)");
    request.objective = *parsed;
  }
  request.keep = static_cast<std::size_t>(reader.count("keep", 20, 1, 1000));
  request.base.prefill_chunk_tokens = reader.count("prefill_chunk", 0, 0, std::int64_t{1} << 32);
  request.base.framework_overhead_bytes =
      static_cast<std::int64_t>(reader.number("overhead_gib", 1.0, 0.0, 1024.0) * 1024.0 * 1024.0 * 1024.0);
  reader.finish();
  return request;
}

TrainingPlanRequest parse_training_plan_options(const OptionList& options) {
  OptionList mine, training;
  for (const auto& option : options) {
    if (planner_key(option.first))
      mine.push_back(option);
    else if (listed(kTrainingKeys, option.first))
      training.push_back(option);
    else
      throw OptionError(option.first,
                        "option '" + detail::printable(option.first) +
                            "' is not a training planner option (the planner searches gpu counts, tp, pp, "
                            "dp, cp, ep, zero, micro_batch, recompute and virtual stages itself)");
  }
  TrainingPlanRequest request;
  request.base = parse_training_options(training);
  OptionReader reader(mine);
  const auto gpu_names = split_option_list(reader.text("gpus").value_or("h100-sxm-80gb,h200,a100-sxm-80gb"));
  request.custom_gpu =
      read_custom_gpu_options(reader, std::any_of(gpu_names.begin(), gpu_names.end(), is_custom_gpu_name));
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
      if (!found)
        throw OptionError("recompute_modes", "unknown recompute mode '" + detail::printable(id) +
                                                 "' in 'recompute_modes' (none, selective, full, selective-op, "
                                                 "selective-layer, gradient-checkpointing)");
      append_unique(request.recompute_modes, *found);
    }
  }
  if (auto counts = reader.text("virtual_stages")) {
    request.virtual_stages.clear();
    for (const auto& text : split_option_list(*counts))
      append_unique(request.virtual_stages, option_list_count("virtual_stages", text, 1, 1024));
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

}  // namespace fitcheck
