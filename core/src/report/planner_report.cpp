// SPDX-License-Identifier: MIT
// Planner options and its JSON report.
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

InferencePlanRequest parse_plan_options(const ModelDescription& model, const OptionList& options) {
  OptionReader reader(options);
  InferencePlanRequest request;
  const auto gpu_names = split_option_list(reader.text("gpus").value_or("h100-sxm-80gb,h200,a100-sxm-80gb,l40s"));
  request.custom_gpu = read_custom_gpu_options(reader, std::any_of(gpu_names.begin(), gpu_names.end(), is_custom_gpu_name));
  for (const auto& name : gpu_names) append_unique(request.gpus, resolve_gpu_option("gpus", name, request.custom_gpu));
  request.max_gpus = reader.count("max_gpus", 8, 1, 4096);
  request.max_gpus_per_node = reader.count("gpus_per_node", 0, 0, 4096);
  if (auto formats = reader.text("weights")) {
    request.weight_formats.clear();
    for (const auto& id : split_option_list(*formats)) {
      const auto format = find_weight_format(id);
      if (!format) throw OptionError("weights", "option 'weights': unknown weight format '" + detail::printable(id) + "'");
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
      if (!info) throw OptionError("kv_dtypes", "option 'kv_dtypes': unknown KV cache dtype '" + detail::printable(id) + "'");
      append_unique(request.kv_cache_dtypes, info->dtype);
    }
  }
  if (auto batches = reader.text("batches")) {
    request.batch_sizes.clear();
    for (const auto& text : split_option_list(*batches)) append_unique(request.batch_sizes, option_list_count("batches", text, 1, std::int64_t{1} << 24));
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
