// SPDX-License-Identifier: MIT
// The MLX report as JSON (keys in docs/local.md, "MLX LM on Apple silicon"); it serializes and
// computes nothing.
#include "fitcheck/config.hpp"
#include "fitcheck/mlx.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {

std::string mlx_report_json(const MlxEstimate& e) {
  detail::JsonWriter out;
  out.begin_object();
  out.field("engine", "mlx");
  out.field("weights", e.weights);
  out.field("quantized_parameters", e.quantized_parameters);
  out.field("unquantized_parameters", e.unquantized_parameters);
  out.field("bits_per_weight", e.bits_per_weight);
  out.field("weight_bytes", e.weight_bytes);
  out.field("kv_cache_bytes", e.kv_cache_bytes);
  out.field("kv_cache_slots", e.kv_cache_slots);
  out.field("prefill_peak_bytes", e.prefill_peak_bytes);
  out.field("peak_memory_bytes", e.peak_memory_bytes);
  out.field("working_set_bytes", e.working_set_bytes);
  out.field("fits", e.fits);
  out.begin_array("terms");
  for (const MlxMemoryTerm& t : e.terms) {
    out.begin_object();
    out.field("name", t.name);
    out.field("bytes", t.bytes);
    out.field("formula", t.formula);
    out.end_object();
  }
  out.end_array();
  out.field("prompt_tokens_per_second", e.prompt_tokens_per_second);
  out.field("generation_tokens_per_second", e.generation_tokens_per_second);
  const MlxTokenTime& t = e.generation_token_time;
  out.begin_object("generation_token_time");
  out.field("weight_bytes", t.weight_bytes);
  out.field("kv_bytes", t.kv_bytes);
  out.field("bandwidth_fraction", t.bandwidth_fraction);
  out.field("bandwidth_bytes_per_second", t.bandwidth_bytes_per_second);
  out.field("kernels", t.kernels);
  out.field("seconds_per_kernel", t.seconds_per_kernel);
  out.field("seconds", t.seconds);
  out.end_object();
  const MlxPromptTime& p = e.prompt_time;
  out.begin_object("prompt_time");
  out.field("flops", p.flops);
  out.field("compute_fraction", p.compute_fraction);
  out.field("flops_per_second", p.flops_per_second);
  out.field("chunks", p.chunks);
  out.field("chunk_seconds", p.chunk_seconds);
  out.field("first_token_seconds", p.first_token_seconds);
  out.field("seconds", p.seconds);
  out.end_object();
  out.field("mlx_command", e.mlx_command);
  out.field("assumptions", e.assumptions);
  out.end_object();
  return out.take();
}

std::string mlx_report_json(std::string_view config_json_text, const OptionList& options, std::string_view model_name) {
  MlxRequest request = parse_mlx_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  // The directory mlx_lm.convert would write, named as mlx-community names its conversions.
  request.model_name = std::string(model_name) + "-" + mlx_conversion_suffix(model, request);
  return mlx_report_json(estimate_mlx(model, request));
}

std::string mlx_formats_json(std::string_view config_json_text, const OptionList& options,
                             std::string_view model_name) {
  MlxRequest request = parse_mlx_options(options);
  request.model_name = model_name;
  const std::vector<MlxFormatRow> rows = compare_mlx_formats(parse_hf_config(config_json_text), request);
  detail::JsonWriter out;
  out.begin_object();
  out.field("engine", "mlx");
  out.begin_array("formats");
  for (const MlxFormatRow& row : rows) {
    const MlxEstimate& e = row.estimate;
    out.begin_object();
    out.field("weights", row.weights);
    out.field("chosen", row.chosen);
    out.field("weight_bytes", e.weight_bytes);
    out.field("peak_memory_bytes", e.peak_memory_bytes);
    out.field("fits", e.fits);
    out.field("generation_tokens_per_second", e.generation_tokens_per_second);
    out.field("prompt_tokens_per_second", e.prompt_tokens_per_second);
    out.field("mlx_command", e.mlx_command);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace fitcheck
