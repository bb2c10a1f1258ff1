// SPDX-License-Identifier: MIT
// JSON reports of inference memory and of the catalogs (hardware, formats).
#include "fitcheck/inference.hpp"
#include "fitcheck/inference_sweep.hpp"
#include "fitcheck/report.hpp"
#include "report/report_terms.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

void write_capacity(detail::JsonWriter& out, const char* key, const CapacityAnswer& answer) {
  out.begin_object(key);
  out.field("value", answer.value);
  out.field("limited_by", answer.limited_by);
  out.field("formula", answer.formula);
  out.end_object();
}

const char* dominant_op_name(LatencyOp op) { return op == LatencyOp::count_ ? "none" : latency_op_name(op); }

void write_phase(detail::JsonWriter& out, const char* key, const LatencyPhase& phase) {
  out.begin_object(key);
  out.field("seconds", phase.total_seconds);
  out.field("dominant_op", dominant_op_name(phase.dominant_op));
  out.field("dominant_bound", latency_bound_name(phase.dominant_bound));
  out.begin_object("ops");
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    if (phase.seconds[i] == 0 && phase.flops[i] == 0 && phase.bytes[i] == 0) continue;
    out.begin_object(latency_op_name(static_cast<LatencyOp>(i)));
    out.field("seconds", phase.seconds[i]);
    out.field("flops", phase.flops[i]);
    out.field("bytes", phase.bytes[i]);
    out.field("bound", latency_bound_name(phase.bound[i]));
    out.end_object();
  }
  out.end_object();
  out.end_object();
}

// The latency block, and llm-analysis's summary names at the top level of the report (same
// conventions: decode_latency is one step with the full prompt + generated cache).
void write_latency(detail::JsonWriter& out, const InferenceEstimate& estimate, const InferenceOnGpu& on_gpu) {
  const LatencyAssumptions& assumptions = on_gpu.latency.assumptions;
  const LatencyExplanation& explanation = on_gpu.latency.explanation;
  const InferenceMemory& memory = estimate.memory;
  const LatencyEstimate& e = explanation.estimate;
  const LatencyTotals& t = e.totals;
  out.begin_object("latency");
  out.field("prompt_len", estimate.lengths.prompt_tokens);
  out.field("gen_len", estimate.lengths.generated_tokens);
  out.field("time_to_first_token_seconds", t.prefill_seconds);
  out.field("prefill_seconds", t.prefill_seconds);
  out.field("decode_step_first_seconds", t.decode_step_first_seconds);
  out.field("decode_step_last_seconds", t.decode_step_last_seconds);
  out.field("decode_total_seconds", t.decode_total_seconds);
  out.field("end_to_end_seconds", t.end_to_end_seconds);
  out.field("request_tokens_per_second", t.request_tokens_per_second);
  out.field("batch_tokens_per_second", t.batch_tokens_per_second);
  out.field("prefill_tokens_per_second", t.prefill_tokens_per_second);
  out.field("decode_tokens_per_second", t.decode_tokens_per_second);
  out.field("gpus", t.gpus);
  out.field("price_per_hour_usd", t.price_per_hour_usd);
  out.field("cost_per_million_input_tokens_usd", t.cost_per_million_input_tokens_usd);
  out.field("cost_per_million_output_tokens_usd", t.cost_per_million_output_tokens_usd);
  out.field("weight_bytes_per_gpu", e.weight_bytes_per_gpu);
  out.field("decode_weight_bytes_read_per_gpu", e.decode_weight_bytes_read_per_gpu);
  out.field("dominant_op", dominant_op_name(e.dominant_op));
  out.field("dominant_bound", latency_bound_name(e.dominant_bound));
  out.field("prefill_dominates", e.prefill_dominates);
  out.begin_object("assumptions_used");
  out.field("flops_efficiency", assumptions.flops_efficiency);
  out.field("fp8_flops_share", assumptions.fp8_flops_share);
  out.field("hbm_efficiency", assumptions.hbm_efficiency);
  out.field("interconnect_efficiency", assumptions.interconnect_efficiency);
  out.field("fp8_activations", assumptions.fp8_activations);
  out.field("moe_dispatcher", moe_dispatcher_name(assumptions.moe_dispatcher));
  out.field("matmul_dtype", compute_dtype_name(e.rates.matmul_dtype));
  out.field("matmul_flops_per_second", e.rates.matmul_flops_per_second);
  out.field("hbm_bytes_per_second", e.rates.hbm_bytes_per_second);
  out.end_object();
  out.begin_object("phases");
  write_phase(out, "prefill", e.prefill);
  write_phase(out, "decode_first", e.decode_first);
  write_phase(out, "decode_last", e.decode_last);
  write_phase(out, "decode_full", e.decode_full);
  out.end_object();
  out.begin_array("lines");
  for (const auto& line : explanation.lines) {
    out.begin_object();
    out.field("phase", line.phase);
    out.field("op", line.op);
    out.field("flops", line.flops);
    out.field("bytes", line.bytes);
    out.field("seconds", line.seconds);
    out.field("bound", line.bound);
    out.field("formula", line.formula);
    out.end_object();
  }
  out.end_array();
  out.field("summary", explanation.summary);
  out.field("notes", explanation.assumptions);
  out.end_object();
  const LlmAnalysisCompat& compat = e.llm_analysis;
  out.field("prefill_latency", compat.prefill_latency);
  out.field("decode_latency", compat.decode_latency);
  out.field("total_decode_latency", compat.total_decode_latency);
  out.field("total_latency", compat.total_latency);
  out.field("total_per_token_latency", compat.total_per_token_latency);
  out.field("prefill_tokens_per_sec", compat.prefill_tokens_per_sec);
  out.field("decode_tokens_per_sec", compat.decode_tokens_per_sec);
  out.field("total_tokens_per_sec", compat.total_tokens_per_sec);
  out.field("prefill_cost_per_1k_tokens", compat.prefill_cost_per_1k_tokens);
  out.field("decode_cost_per_1k_tokens", compat.decode_cost_per_1k_tokens);
  out.field("total_cost_per_1k_tokens", compat.total_cost_per_1k_tokens);
  out.field("kv_cache_memory_per_gpu", memory.totals.kv_cache_bytes);
  out.field("weight_memory_per_gpu", memory.totals.weight_bytes);
  out.field("prefill_max_batch_size_per_gpu", on_gpu.capacity.max_batch_size.value);
  out.field("decode_max_batch_size_per_gpu", on_gpu.capacity.decode_max_batch_size.value);
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    const std::string op = latency_op_name(static_cast<LatencyOp>(i));
    out.field("prefill_latency_" + op, compat.prefill_latency_by_op[i]);
    out.field("decode_latency_" + op, compat.decode_latency_by_op[i]);
  }
}

// Every figure of one accelerator (the catalog's, or a user-defined one in a report), as members of
// the open object.
void write_accelerator_fields(detail::JsonWriter& out, const Accelerator& gpu) {
  out.field("id", gpu.id);
  out.field("name", gpu.name);
  out.field("vendor", gpu.vendor);
  out.field("memory_bytes", gpu.memory_bytes);
  out.field("memory_convention", memory_convention_name(gpu.memory_convention));
  out.field("memory_bandwidth_bytes_per_second", gpu.memory_bandwidth_bytes_per_second);
  out.begin_object("dense_flops_per_second");
  for (std::size_t i = 0; i < kComputeDtypeCount; ++i)
    out.field(compute_dtype_name(static_cast<ComputeDtype>(i)), gpu.dense_flops_per_second[i]);
  out.end_object();
  out.field("interconnect", gpu.interconnect);
  out.field("interconnect_bytes_per_second_per_direction", gpu.interconnect_bytes_per_second_per_direction);
  out.field("gpus_per_node", gpu.gpus_per_node);
  out.field("unified_memory", gpu.unified_memory);
  // Only where a default cap applies (Apple silicon), so every other report keeps its bytes.
  if (gpu.gpu_working_set_bytes > 0) {
    out.field("gpu_working_set_bytes", gpu.gpu_working_set_bytes);
    out.field("gpu_working_set_source", kMacosGpuWorkingSetSource);
  }
  if (gpu.cuda_total_bytes > 0) out.field("cuda_total_bytes", gpu.cuda_total_bytes);  // where a log prints it
  out.field("price_per_hour_usd", gpu.price_per_hour_usd);
  out.field("price_source", gpu.price_source);
  out.field("sources", gpu.sources);
}

}  // namespace

std::string inference_report_json(const InferenceEstimate& estimate) {
  const InferenceMemory& memory = estimate.memory;
  const InferenceWorkload& w = estimate.workload;
  detail::JsonWriter out;
  out.begin_object();
  out.field("model_type", estimate.model_type);
  out.field("parameter_count_exact", estimate.parameter_count_exact);
  out.field("guessed_fields", estimate.guessed_fields);
  // "none": no engine profile, the plain roofline.
  out.field("engine", estimate.engine ? engine_kind_id(estimate.engine->kind) : "none");
  // transformers' cache_implementation, with the hf profile only.
  if (estimate.engine && estimate.engine->kind == EngineKind::hf)
    out.field("hf_cache", estimate.hf_static_cache ? "static" : "dynamic");
  out.begin_object("workload");
  out.field("weights", weight_format_info(w.weight_format).id);
  out.field("kv_dtype", kv_cache_dtype_info(w.kv_cache_dtype).id);
  out.field("batch", w.batch_size);
  out.field("context", w.context_tokens);
  out.field("prefill_chunk", w.prefill_chunk_tokens);
  out.field("kv_block", w.kv_block_tokens);
  out.field("tp", w.layout.tensor_parallel);
  out.field("pp", w.layout.pipeline_parallel);
  out.field("ep", w.layout.expert_parallel);
  out.field("gpu_memory_utilization", w.gpu_memory_utilization);
  out.field("overhead_bytes", w.framework_overhead_bytes);
  out.field("flash_attention", w.flash_attention);
  if (estimate.images > 0) {  // only requests with images
    out.field("images", estimate.images);
    out.field("image_tokens", estimate.image_tokens);
  }
  if (w.cross_attention_tokens > 0)  // Llama 3.2 Vision with images: the cross-attention layers' source
    out.field("cross_attention_tokens", w.cross_attention_tokens);
  out.end_object();
  out.field("weight_bytes", memory.totals.weight_bytes);
  if (memory.totals.encoder_weight_bytes > 0)  // multimodal checkpoints only
    out.field("encoder_weight_bytes", memory.totals.encoder_weight_bytes);
  out.field("kv_cache_bytes", memory.totals.kv_cache_bytes);
  out.field("kv_cache_bytes_per_token", memory.totals.kv_cache_bytes_per_token);
  out.field("activation_bytes", memory.totals.activation_bytes);
  out.field("logits_bytes", memory.totals.logits_bytes);
  out.field("overhead_bytes", memory.totals.overhead_bytes);
  out.field("total_bytes_per_gpu", memory.totals.total_bytes_per_gpu);
  detail::write_memory_terms(out, "terms", memory.terms);
  out.begin_object("kv_cache");
  out.field("bytes_per_token", memory.kv_cache.bytes_per_token);
  if (memory.kv_cache.state_bytes_per_sequence > 0)  // only models with state-space layers
    out.field("state_bytes_per_sequence", memory.kv_cache.state_bytes_per_sequence);
  if (memory.kv_cache.cross_bytes_per_sequence > 0)  // only cross-attention to a fixed source per sequence
    out.field("cross_bytes_per_sequence", memory.kv_cache.cross_bytes_per_sequence);
  out.field("convention", memory.kv_cache.convention);
  out.begin_array("terms");
  for (const auto& term : memory.kv_cache.terms) {
    out.begin_object();
    out.field("layer_kind", term.layer_kind);
    out.field("layers", term.layers);
    out.field("bytes_per_token_per_layer", term.bytes_per_token_per_layer);
    out.field("cached_tokens_per_sequence", term.cached_tokens_per_sequence);
    if (term.state_bytes_per_sequence_per_layer > 0)
      out.field("state_bytes_per_sequence_per_layer", term.state_bytes_per_sequence_per_layer);
    if (term.cross_bytes_per_sequence_per_layer > 0) {
      out.field("cross_source_tokens_per_sequence", term.cross_source_tokens_per_sequence);
      out.field("cross_bytes_per_sequence_per_layer", term.cross_bytes_per_sequence_per_layer);
    }
    out.field("bytes", term.bytes);
    out.field("formula", term.formula);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  out.begin_object("weights_whole_model");
  out.field("format", weight_format_info(w.weight_format).id);
  out.field("bytes", memory.weights_whole_model.total_bytes);
  out.field("effective_bits_per_weight", memory.weights_whole_model.effective_bits_per_weight);
  out.field("quantized_params", memory.weights_whole_model.quantized_params);
  out.field("high_precision_params", memory.weights_whole_model.high_precision_params);
  out.field("scale_bytes", memory.weights_whole_model.scale_bytes);
  out.field("notes", memory.weights_whole_model.notes);
  out.end_object();
  if (estimate.on_gpu) {
    const InferenceOnGpu& on_gpu = *estimate.on_gpu;
    const InferenceCapacity& capacity = on_gpu.capacity;
    out.begin_object("gpu");
    write_accelerator_fields(out, *on_gpu.gpu);  // every figure: a custom GPU's are the user's
    out.field("budget_bytes", on_gpu.verdict.budget_bytes);
    out.end_object();
    out.field("fits", on_gpu.verdict.fits);
    out.field("headroom_bytes", on_gpu.verdict.headroom_bytes);
    out.field("max_batch_size", capacity.max_batch_size.value);
    out.field("max_context_length", capacity.max_context_length.value);
    out.field("min_gpus", capacity.min_gpus.value);
    out.begin_object("capacity");
    write_capacity(out, "max_batch_size", capacity.max_batch_size);
    write_capacity(out, "max_context_length", capacity.max_context_length);
    write_capacity(out, "min_gpus", capacity.min_gpus);
    write_capacity(out, "decode_max_batch_size", capacity.decode_max_batch_size);
    out.end_object();
    // Left out when the estimate did not look for them (estimate_inference_without_fit_changes).
    if (on_gpu.fit_changes_looked_for) {
      out.begin_array("fit_changes");
      for (const FitChange& change : on_gpu.fit_changes) {
        out.begin_object();
        out.field("what", change.what);
        out.begin_object("options");
        for (const auto& [name, value] : change.options) out.field(name, value);
        out.end_object();
        out.field("summary", change.summary);
        out.field("total_bytes_per_gpu", change.total_bytes_per_gpu);
        out.field("headroom_bytes", change.headroom_bytes);
        out.end_object();
      }
      out.end_array();
    }
    if (on_gpu.engine_capacity) {
      const EngineCapacity& e = *on_gpu.engine_capacity;
      out.begin_object("engine_capacity");
      out.field("kv_capacity_tokens", e.kv_capacity_tokens);
      out.field("max_running_sequences", e.max_running_sequences);
      out.field("mean_running_sequences", e.mean_running_sequences);
      out.field("offline_output_tokens_per_second", e.offline_output_tokens_per_second);
      out.field("limited_by", e.limited_by);
      out.field("skipped", e.skipped);
      out.field("how",
                "the engine's scheduler simulated at saturation (serve-sim): max_num_seqs closed-loop requests of "
                "prompt_len + gen_len, twice over, on the KV cache its budget rule leaves");
      out.end_object();
    }
    if (on_gpu.engine_start) {
      const EngineStartCheck& e = *on_gpu.engine_start;
      out.begin_object("engine_start");
      out.field("max_model_len", e.max_model_len);
      out.field("max_model_len_from_config", e.max_model_len_from_config);
      out.field("needed_bytes", e.needed_bytes);
      out.field("available_bytes", e.available_bytes);
      out.field("starts", e.starts);
      out.field("longest_max_model_len", e.longest_max_model_len);
      out.field("rule", e.rule);
      out.end_object();
    }
    write_latency(out, estimate, on_gpu);
  }
  out.field("assumptions", estimate.assumptions);
  out.end_object();
  return out.take();
}

std::string inference_report_json(std::string_view config_json_text, const OptionList& options) {
  return inference_report_json(estimate_inference(config_json_text, options));
}

std::string inference_report_json_without_fit_changes(std::string_view config_json_text, const OptionList& options) {
  return inference_report_json(estimate_inference_without_fit_changes(config_json_text, options));
}

std::string inference_sweep_report_json(std::string_view config_json_text, const OptionList& options) {
  const InferenceSweep sweep = sweep_inference_memory(config_json_text, options);
  detail::JsonWriter out;
  out.begin_object();
  out.field("axis", sweep.axis == SweepAxis::context ? "context" : "batch");
  out.begin_array("points");
  for (const InferenceSweepPoint& point : sweep.points) {
    out.begin_object();
    out.field("value", point.value);
    out.field("total_bytes_per_gpu", point.totals.total_bytes_per_gpu);
    out.field("weight_bytes", point.totals.weight_bytes);
    out.field("kv_cache_bytes", point.totals.kv_cache_bytes);
    out.field("activation_bytes", point.totals.activation_bytes);
    out.end_object();
  }
  out.end_array();
  out.begin_array("refused");
  for (const InferenceSweepRefusal& refusal : sweep.refused) {
    out.begin_object();
    out.field("value", refusal.value);
    out.field("option", refusal.option);
    out.field("message", refusal.message);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string accelerator_catalog_json() {
  detail::JsonWriter out;
  out.begin_array();
  for (const Accelerator& gpu : accelerator_catalog()) {
    out.begin_object();
    write_accelerator_fields(out, gpu);
    out.end_object();
  }
  out.end_array();
  return out.take();
}

std::string format_catalog_json() {
  detail::JsonWriter out;
  out.begin_object();
  out.begin_array("weight_formats");
  for (const auto& format : weight_formats()) {
    out.begin_object();
    out.field("id", format.id);
    out.field("name", format.name);
    out.field("base_bits_per_weight", format.base_bits_per_weight);
    out.field("high_precision", format.high_precision);
    out.field("source", format.source);
    out.end_object();
  }
  out.end_array();
  out.begin_array("kv_cache_dtypes");
  for (auto dtype : {KvCacheDtype::bf16, KvCacheDtype::fp16, KvCacheDtype::fp32, KvCacheDtype::fp8, KvCacheDtype::int8,
                     KvCacheDtype::int4}) {
    const auto& info = kv_cache_dtype_info(dtype);
    out.begin_object();
    out.field("id", info.id);
    out.field("element_bits", info.element_bits);
    out.field("source", info.source);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace fitcheck
