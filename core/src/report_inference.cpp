// SPDX-License-Identifier: MIT
// JSON reports of inference memory and of the catalogs (hardware, formats).
#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/report.hpp"

namespace fitcheck {
namespace {

using Json = nlohmann::ordered_json;

Json capacity_json(const CapacityAnswer& answer) {
  return {{"value", answer.value}, {"limited_by", answer.limited_by}, {"formula", answer.formula}};
}

Json terms_json(const std::vector<MemoryTerm>& terms) {
  Json out = Json::array();
  for (const auto& term : terms) out.push_back({{"name", term.name}, {"bytes", term.bytes}, {"formula", term.formula}});
  return out;
}

}  // namespace

std::string inference_report_json(std::string_view config_json_text, const OptionList& options) {
  InferenceRequest request = parse_inference_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  std::string format_note;
  if (!request.weight_format_given) {
    const NativeWeightFormat native = native_weight_format(model);
    request.workload.weight_format = native.format;
    request.workload.weight_options = native.options;
    format_note = native.explanation + " (choose another with the weights option)";
  }
  const InferenceMemory memory = inference_memory(model, tensors, request.workload);
  const InferenceWorkload& w = request.workload;

  Json kv_terms = Json::array();
  for (const auto& term : memory.kv_cache.terms)
    kv_terms.push_back({{"layer_kind", term.layer_kind},
                        {"layers", term.layers},
                        {"bytes_per_token_per_layer", term.bytes_per_token_per_layer},
                        {"cached_tokens_per_sequence", term.cached_tokens_per_sequence},
                        {"bytes", term.bytes},
                        {"formula", term.formula}});
  std::vector<std::string> assumptions = model.assumptions;
  if (!format_note.empty()) assumptions.push_back(format_note);
  assumptions.insert(assumptions.end(), memory.assumptions.begin(), memory.assumptions.end());

  Json report = {
      {"model_type", model.model_type},
      {"workload",
       {{"weights", weight_format_info(w.weight_format).id},
        {"kv_dtype", kv_cache_dtype_info(w.kv_cache_dtype).id},
        {"batch", w.batch_size},
        {"context", w.context_tokens},
        {"prefill_chunk", w.prefill_chunk_tokens},
        {"kv_block", w.kv_block_tokens},
        {"tp", w.layout.tensor_parallel},
        {"pp", w.layout.pipeline_parallel},
        {"ep", w.layout.expert_parallel},
        {"gpu_memory_utilization", w.gpu_memory_utilization},
        {"overhead_bytes", w.framework_overhead_bytes},
        {"flash_attention", w.flash_attention}}},
      {"weight_bytes", memory.weight_bytes},
      {"kv_cache_bytes", memory.kv_cache_bytes},
      {"kv_cache_bytes_per_token", memory.kv_cache_bytes_per_token},
      {"activation_bytes", memory.activation_bytes},
      {"logits_bytes", memory.logits_bytes},
      {"overhead_bytes", memory.overhead_bytes},
      {"total_bytes_per_gpu", memory.total_bytes_per_gpu},
      {"terms", terms_json(memory.terms)},
      {"kv_cache", {{"bytes_per_token", memory.kv_cache.bytes_per_token},
                    {"convention", memory.kv_cache.convention},
                    {"terms", kv_terms}}},
      {"weights_whole_model",
       {{"format", weight_format_info(w.weight_format).id},
        {"bytes", memory.weights_whole_model.total_bytes},
        {"effective_bits_per_weight", memory.weights_whole_model.effective_bits_per_weight},
        {"quantized_params", memory.weights_whole_model.quantized_params},
        {"high_precision_params", memory.weights_whole_model.high_precision_params},
        {"scale_bytes", memory.weights_whole_model.scale_bytes},
        {"notes", memory.weights_whole_model.notes}}},
  };
  if (request.gpu) {
    const Accelerator& gpu = *request.gpu;
    const auto budget = static_cast<std::int64_t>(w.gpu_memory_utilization * static_cast<double>(gpu.memory_bytes));
    const CapacityAnswer batch = max_batch_size(model, tensors, w, gpu);
    const CapacityAnswer context = max_context_tokens(model, tensors, w, gpu);
    const CapacityAnswer gpus = min_gpus(model, tensors, w, gpu);
    report["gpu"] = {{"id", gpu.id}, {"name", gpu.name}, {"memory_bytes", gpu.memory_bytes}, {"budget_bytes", budget}};
    report["fits"] = memory.total_bytes_per_gpu <= budget;
    report["headroom_bytes"] = budget - memory.total_bytes_per_gpu;
    report["max_batch_size"] = batch.value;
    report["max_context_length"] = context.value;
    report["min_gpus"] = gpus.value;
    report["capacity"] = {{"max_batch_size", capacity_json(batch)},
                          {"max_context_length", capacity_json(context)},
                          {"min_gpus", capacity_json(gpus)}};
  } else {
    assumptions.push_back("no GPU chosen: capacity answers (max batch, max context, fewest GPUs) need one");
  }
  report["assumptions"] = assumptions;
  return report.dump();
}

std::string accelerator_catalog_json() {
  Json list = Json::array();
  for (const Accelerator& gpu : accelerator_catalog()) {
    Json peaks = Json::object();
    for (std::size_t i = 0; i < kComputeDtypeCount; ++i)
      peaks[compute_dtype_name(static_cast<ComputeDtype>(i))] = gpu.dense_flops_per_second[i];
    list.push_back({{"id", gpu.id},
                    {"name", gpu.name},
                    {"vendor", gpu.vendor},
                    {"memory_bytes", gpu.memory_bytes},
                    {"memory_convention", memory_convention_name(gpu.memory_convention)},
                    {"memory_bandwidth_bytes_per_second", gpu.memory_bandwidth_bytes_per_second},
                    {"dense_flops_per_second", peaks},
                    {"interconnect", gpu.interconnect},
                    {"interconnect_bytes_per_second_per_direction", gpu.interconnect_bytes_per_second_per_direction},
                    {"gpus_per_node", gpu.gpus_per_node},
                    {"unified_memory", gpu.unified_memory},
                    {"price_per_hour_usd", gpu.price_per_hour_usd},
                    {"price_source", gpu.price_source},
                    {"sources", gpu.sources}});
  }
  return list.dump();
}

std::string format_catalog_json() {
  Json weights = Json::array();
  for (const auto& format : weight_formats())
    weights.push_back({{"id", format.id},
                       {"name", format.name},
                       {"base_bits_per_weight", format.base_bits_per_weight},
                       {"high_precision", format.high_precision},
                       {"source", format.source}});
  Json kv = Json::array();
  for (auto dtype : {KvCacheDtype::bf16, KvCacheDtype::fp16, KvCacheDtype::fp32, KvCacheDtype::fp8, KvCacheDtype::int8,
                     KvCacheDtype::int4}) {
    const auto& info = kv_cache_dtype_info(dtype);
    kv.push_back({{"id", info.id}, {"element_bits", info.element_bits}, {"source", info.source}});
  }
  return Json{{"weight_formats", weights}, {"kv_cache_dtypes", kv}}.dump();
}

}  // namespace fitcheck
