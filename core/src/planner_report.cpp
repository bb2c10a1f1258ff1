// SPDX-License-Identifier: MIT
// Planner options and its JSON report.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "config_fields.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/planner.hpp"

namespace fitcheck {
namespace {

using Json = nlohmann::ordered_json;

Json candidate_json(const PlanCandidate& c, const InferencePlanRequest& request) {
  return {{"gpu", request.gpus[c.gpu]->id},
          {"gpu_name", request.gpus[c.gpu]->name},
          {"gpus", c.gpus},
          {"tp", c.tensor_parallel},
          {"pp", c.pipeline_parallel},
          {"ep", c.expert_parallel},
          {"weights", weight_format_info(c.weight_format).id},
          {"kv_dtype", kv_cache_dtype_info(c.kv_cache_dtype).id},
          {"batch", c.batch_size},
          {"memory_bytes_per_gpu", c.memory_bytes_per_gpu},
          {"budget_bytes_per_gpu", c.budget_bytes_per_gpu},
          {"time_to_first_token_seconds", c.time_to_first_token_seconds},
          {"time_per_output_token_seconds", c.time_per_output_token_seconds},
          {"end_to_end_seconds", c.end_to_end_seconds},
          {"tokens_per_second", c.tokens_per_second},
          {"cost_per_million_output_tokens_usd", c.cost_per_million_output_tokens_usd},
          {"price_per_hour_usd", c.price_per_hour_usd}};
}

}  // namespace

InferencePlanRequest parse_plan_options(const ModelDescription& model, const OptionList& options) {
  OptionReader reader(options);
  InferencePlanRequest request;
  const auto gpu_names = split_option_list(reader.text("gpus").value_or("h100-sxm-80gb,h200,a100-sxm-80gb,l40s"));
  request.custom_gpu = read_custom_gpu_options(reader, std::any_of(gpu_names.begin(), gpu_names.end(), is_custom_gpu_name));
  for (const auto& name : gpu_names) request.gpus.push_back(resolve_gpu_option("gpus", name, request.custom_gpu));
  request.max_gpus = reader.count("max_gpus", 8, 1, 4096);
  request.max_gpus_per_node = reader.count("gpus_per_node", 0, 0, 4096);
  if (auto formats = reader.text("weights")) {
    request.weight_formats.clear();
    for (const auto& id : split_option_list(*formats)) {
      const auto format = find_weight_format(id);
      if (!format) throw OptionError("weights", "option 'weights': unknown weight format '" + detail::printable(id) + "'");
      request.weight_formats.push_back(*format);
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
      if (!info) throw OptionError("kv_dtypes", "option 'kv_dtypes': unknown KV cache dtype '" + detail::printable(id) + "'");
      request.kv_cache_dtypes.push_back(info->dtype);
    }
  }
  if (auto batches = reader.text("batches")) {
    request.batch_sizes.clear();
    for (const auto& text : split_option_list(*batches)) request.batch_sizes.push_back(option_list_count("batches", text, 1, std::int64_t{1} << 24));
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

std::string plan_report_json(std::string_view config_json_text, const OptionList& options) {
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const InferencePlanRequest request = parse_plan_options(model, options);
  const InferencePlan plan = plan_inference(model, tensors, request);
  Json best = Json::array();
  for (const auto& candidate : plan.best) best.push_back(candidate_json(candidate, request));
  Json frontier = Json::array();
  for (const auto& candidate : plan.frontier) frontier.push_back(candidate_json(candidate, request));
  Json gpus = Json::array();
  for (const auto* gpu : request.gpus) gpus.push_back(gpu->id);
  Json formats = Json::array();
  for (auto format : request.weight_formats) formats.push_back(weight_format_info(format).id);
  Json dtypes = Json::array();
  for (auto dtype : request.kv_cache_dtypes) dtypes.push_back(kv_cache_dtype_info(dtype).id);
  const Json report = {
      {"model_type", model.model_type},
      {"request",
       {{"gpus", gpus},
        {"max_gpus", request.max_gpus},
        {"weights", formats},
        {"kv_dtypes", dtypes},
        {"batches", request.batch_sizes},
        {"prompt_len", request.prompt_tokens},
        {"gen_len", request.generated_tokens},
        {"headroom", request.memory_headroom},
        {"ttft", request.ttft_target_seconds},
        {"tpot", request.tpot_target_seconds},
        {"objective", plan_objective_name(request.objective)}}},
      {"evaluated", plan.evaluated},
      {"feasible", plan.feasible},
      {"best", best},
      {"frontier", frontier},
      {"notes", plan.notes},
  };
  return report.dump();
}

}  // namespace fitcheck
