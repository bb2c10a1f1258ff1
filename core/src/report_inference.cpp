// SPDX-License-Identifier: MIT
// JSON reports of inference memory and of the catalogs (hardware, formats).
#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
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

Json phase_json(const LatencyPhase& phase) {
  Json ops = Json::object();
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    if (phase.seconds[i] == 0 && phase.flops[i] == 0 && phase.bytes[i] == 0) continue;
    ops[latency_op_name(static_cast<LatencyOp>(i))] = {{"seconds", phase.seconds[i]},
                                                        {"flops", phase.flops[i]},
                                                        {"bytes", phase.bytes[i]},
                                                        {"bound", latency_bound_name(phase.bound[i])}};
  }
  return {{"seconds", phase.total_seconds},
          {"dominant_op", phase.dominant_op == LatencyOp::count_ ? "none" : latency_op_name(phase.dominant_op)},
          {"dominant_bound", latency_bound_name(phase.dominant_bound)},
          {"ops", ops}};
}

// The latency block, and llm-analysis's summary names at the top level of the report (same
// conventions: decode_latency is one step with the full prompt + generated cache).
void add_latency(Json& report, const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                 const InferenceRequest& request, const Accelerator& gpu, const CapacityAnswer& prefill_batch,
                 const CapacityAnswer& decode_batch) {
  const InferenceWorkload& w = request.workload;
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, w.weight_format, w.weight_options);
  const LatencyAssumptions assumptions = latency_assumptions_for(request, gpu);
  const LatencyExplanation explanation = explain_latency(prepared, w, gpu, request.lengths, assumptions);
  const LatencyEstimate& e = explanation.estimate;
  const LatencyTotals& t = e.totals;
  Json lines = Json::array();
  for (const auto& line : explanation.lines)
    lines.push_back({{"phase", line.phase},
                     {"op", line.op},
                     {"flops", line.flops},
                     {"bytes", line.bytes},
                     {"seconds", line.seconds},
                     {"bound", line.bound},
                     {"formula", line.formula}});
  report["latency"] = {
      {"prompt_len", request.lengths.prompt_tokens},
      {"gen_len", request.lengths.generated_tokens},
      {"time_to_first_token_seconds", t.prefill_seconds},
      {"prefill_seconds", t.prefill_seconds},
      {"decode_step_first_seconds", t.decode_step_first_seconds},
      {"decode_step_last_seconds", t.decode_step_last_seconds},
      {"decode_total_seconds", t.decode_total_seconds},
      {"end_to_end_seconds", t.end_to_end_seconds},
      {"request_tokens_per_second", t.request_tokens_per_second},
      {"batch_tokens_per_second", t.batch_tokens_per_second},
      {"prefill_tokens_per_second", t.prefill_tokens_per_second},
      {"decode_tokens_per_second", t.decode_tokens_per_second},
      {"gpus", t.gpus},
      {"price_per_hour_usd", t.price_per_hour_usd},
      {"cost_per_million_input_tokens_usd", t.cost_per_million_input_tokens_usd},
      {"cost_per_million_output_tokens_usd", t.cost_per_million_output_tokens_usd},
      {"weight_bytes_per_gpu", e.weight_bytes_per_gpu},
      {"decode_weight_bytes_read_per_gpu", e.decode_weight_bytes_read_per_gpu},
      {"dominant_op", e.dominant_op == LatencyOp::count_ ? "none" : latency_op_name(e.dominant_op)},
      {"dominant_bound", latency_bound_name(e.dominant_bound)},
      {"prefill_dominates", e.prefill_dominates},
      {"assumptions_used",
       {{"flops_efficiency", assumptions.flops_efficiency},
        {"hbm_efficiency", assumptions.hbm_efficiency},
        {"interconnect_efficiency", assumptions.interconnect_efficiency},
        {"fp8_activations", assumptions.fp8_activations},
        {"matmul_dtype", compute_dtype_name(e.rates.matmul_dtype)},
        {"matmul_flops_per_second", e.rates.matmul_flops_per_second},
        {"hbm_bytes_per_second", e.rates.hbm_bytes_per_second}}},
      {"phases",
       {{"prefill", phase_json(e.prefill)},
        {"decode_first", phase_json(e.decode_first)},
        {"decode_last", phase_json(e.decode_last)},
        {"decode_full", phase_json(e.decode_full)}}},
      {"lines", lines},
      {"summary", explanation.summary},
      {"notes", explanation.assumptions},
  };
  const LlmAnalysisCompat& compat = e.llm_analysis;
  report["prefill_latency"] = compat.prefill_latency;
  report["decode_latency"] = compat.decode_latency;
  report["total_decode_latency"] = compat.total_decode_latency;
  report["total_latency"] = compat.total_latency;
  report["total_per_token_latency"] = compat.total_per_token_latency;
  report["prefill_tokens_per_sec"] = compat.prefill_tokens_per_sec;
  report["decode_tokens_per_sec"] = compat.decode_tokens_per_sec;
  report["total_tokens_per_sec"] = compat.total_tokens_per_sec;
  report["prefill_cost_per_1k_tokens"] = compat.prefill_cost_per_1k_tokens;
  report["decode_cost_per_1k_tokens"] = compat.decode_cost_per_1k_tokens;
  report["total_cost_per_1k_tokens"] = compat.total_cost_per_1k_tokens;
  report["kv_cache_memory_per_gpu"] = report["kv_cache_bytes"];
  report["weight_memory_per_gpu"] = report["weight_bytes"];
  report["prefill_max_batch_size_per_gpu"] = prefill_batch.value;
  report["decode_max_batch_size_per_gpu"] = decode_batch.value;
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    const std::string op = latency_op_name(static_cast<LatencyOp>(i));
    report["prefill_latency_" + op] = compat.prefill_latency_by_op[i];
    report["decode_latency_" + op] = compat.decode_latency_by_op[i];
  }
}

// Every figure of one accelerator (the catalog's, or a user-defined one in a report).
Json accelerator_json(const Accelerator& gpu) {
  Json peaks = Json::object();
  for (std::size_t i = 0; i < kComputeDtypeCount; ++i)
    peaks[compute_dtype_name(static_cast<ComputeDtype>(i))] = gpu.dense_flops_per_second[i];
  return {{"id", gpu.id},
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
          {"sources", gpu.sources}};
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
    report["gpu"] = accelerator_json(gpu);  // every figure: a custom GPU's are the user's
    report["gpu"]["budget_bytes"] = budget;
    report["fits"] = memory.total_bytes_per_gpu <= budget;
    report["headroom_bytes"] = budget - memory.total_bytes_per_gpu;
    report["max_batch_size"] = batch.value;
    report["max_context_length"] = context.value;
    report["min_gpus"] = gpus.value;
    // Decode steps carry one token per sequence: their activations are those of a one-token step.
    InferenceWorkload decode = w;
    decode.prefill_chunk_tokens = 1;
    const CapacityAnswer decode_batch = max_batch_size(model, tensors, decode, gpu);
    report["capacity"] = {{"max_batch_size", capacity_json(batch)},
                          {"max_context_length", capacity_json(context)},
                          {"min_gpus", capacity_json(gpus)},
                          {"decode_max_batch_size", capacity_json(decode_batch)}};
    add_latency(report, model, tensors, request, gpu, batch, decode_batch);
  } else {
    assumptions.push_back("no GPU chosen: capacity answers (max batch, max context, fewest GPUs) need one");
  }
  report["assumptions"] = assumptions;
  return report.dump();
}

std::string accelerator_catalog_json() {
  Json list = Json::array();
  for (const Accelerator& gpu : accelerator_catalog()) list.push_back(accelerator_json(gpu));
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
