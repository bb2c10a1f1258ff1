// SPDX-License-Identifier: MIT
// The local inference report as JSON (keys in docs/local.md); it serializes and computes nothing.
#include "config/config_fields.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/local.hpp"
#include "fitcheck/mlx.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {

namespace {

// The weights a config.json's report takes: the weights option, else the config's own format.
NativeWeightFormat report_weight_format(const LocalOptions& parsed, const ModelDescription& description) {
  if (!parsed.weights) return native_weight_format(description);
  NativeWeightFormat given;
  given.format = *parsed.weights;
  given.options = parsed.weight_options;
  return given;
}

}  // namespace

std::string local_gpu_catalog_json() {
  detail::JsonWriter out;
  out.begin_array();
  for (const Accelerator& gpu : accelerator_catalog()) {
    const auto backend = default_local_backend(gpu);
    if (!backend) continue;
    out.begin_object();
    out.field("id", gpu.id);
    out.field("name", gpu.name);
    out.field("vendor", gpu.vendor);
    out.field("backend", local_backend_name(*backend));
    out.end_object();
  }
  out.end_array();
  return out.take();
}

std::string local_report_json(const LocalModel& model, const LocalEstimate& e) {
  const LocalPlacement& p = e.placement;
  detail::JsonWriter out;
  out.begin_object();
  out.field("weights", model.weights);
  out.field("backend", local_backend_name(e.backend));
  out.field("n_gpu_layers", p.n_gpu_layers);
  out.field("n_layers", p.n_layers);
  out.field("n_cpu_moe", p.n_cpu_moe);
  out.field("fitted", p.fitted);
  out.field("mmap", e.mmap);
  out.field("kv_size", p.kv_size);
  out.field("recurrent_cells", p.recurrent_cells);
  out.field("recurrent_state_bytes", p.recurrent_state_bytes());
  out.field("fits", p.fits);
  const LocalVerdict& v = e.verdict;
  const auto device_name = [&p](int d) { return d < 0 ? std::string() : p.devices[static_cast<std::size_t>(d)].name; };
  out.begin_object("verdict");
  out.field("runs_on", local_runs_on_name(v.runs_on));
  out.field("layers_on_gpus", v.layers_on_gpus);
  out.field("layers_in_ram", v.layers_in_ram);
  out.field("output_in_ram", v.output_in_ram);
  out.field("expert_layers_in_ram", v.expert_layers_in_ram);
  out.field("generation_bound_device", device_name(v.generation_bound_device));
  out.field("generation_bound_share", v.generation_bound_share);
  out.field("short_device", device_name(v.short_device));
  out.field("shortfall_bytes", v.shortfall_bytes);
  out.end_object();
  const LocalDeviceUse* mmproj_holder =
      p.mmproj_device < 0 ? nullptr : &p.devices[static_cast<std::size_t>(p.mmproj_device)];
  out.begin_object("mmproj");
  out.field("type", local_mmproj_type_name(p.mmproj));
  out.field("encoder_parameters", model.encoder_parameters);
  out.field("device", mmproj_holder ? mmproj_holder->name : std::string());
  out.field("bytes", mmproj_holder ? mmproj_holder->mmproj_buffer_bytes : std::int64_t{0});
  out.end_object();
  out.begin_array("devices");
  for (std::size_t d = 0; d < p.devices.size(); ++d) {
    const LocalDeviceUse& use = p.devices[d];
    out.begin_object();
    out.field("name", use.name);
    out.field("gpu", use.gpu_id);
    out.field("model_buffer_bytes", use.model_buffer_bytes);
    if (use.gpu_id.empty()) out.field("mapped_model_buffer_bytes", use.mapped_model_buffer_bytes);
    out.field("kv_buffer_bytes", use.kv_buffer_bytes);
    out.field("compute_buffer_bytes", use.compute_buffer_bytes);
    out.field("mmproj_buffer_bytes", use.mmproj_buffer_bytes);
    out.field("recurrent_state_buffer_bytes", use.recurrent_state_buffer_bytes);
    out.field("total_bytes", use.total_bytes());
    out.field("limit_bytes", use.limit_bytes);
    out.field("fits", use.fits());
    out.field("layers", use.layers);
    out.field("holds_output_layer", use.holds_output);
    out.field("prompt_time_share", e.speed.prompt_time_share[d]);
    const LocalPromptTime& prompt = e.speed.prompt_time[d];
    out.begin_object("prompt_time");
    out.field("multiply_seconds", prompt.multiply_seconds);
    out.field("weight_read_seconds", prompt.weight_read_seconds);
    out.field("offload_copy_seconds", prompt.offload_copy_seconds);
    out.field("offloaded", prompt.offloaded());
    out.field("offload_device",
              prompt.offloaded() ? p.devices[static_cast<std::size_t>(prompt.offload_gpu)].name : std::string());
    out.field("expert_combine_seconds", prompt.expert_combine_seconds);
    out.field("scores_seconds", prompt.scores_seconds);
    out.field("crossing_seconds", prompt.crossing_seconds);
    out.field("handoff_seconds", prompt.handoff_seconds);
    out.field("seconds", prompt.seconds);
    out.end_object();
    out.field("generation_time_share", e.speed.generation_time_share[d]);
    const LocalTokenTime& t = e.speed.generation_token_time[d];
    out.begin_object("generation_token_time");
    out.field("bytes", t.bytes);
    out.field("bandwidth_fraction", t.bandwidth_fraction);
    out.field("bandwidth_bytes_per_second", t.bandwidth_bytes_per_second);
    out.field("graph_ops", t.graph_ops);
    out.field("seconds_per_op", t.seconds_per_op);
    out.field("crossing_seconds", t.crossing_seconds);
    out.field("handoffs", t.handoffs);
    out.field("handoff_seconds", t.handoff_seconds);
    out.field("compute_seconds", t.compute_seconds);
    out.field("seconds", t.seconds);
    out.end_object();
    out.end_object();
  }
  out.end_array();
  out.field("prompt_tokens_per_second", e.speed.prompt_tokens_per_second);
  out.field("prompt_tokens", e.speed.prompt_tokens);
  out.field("prompt_ubatches", e.speed.prompt_ubatches);
  out.field("prompt_pipelined", e.speed.prompt_pipelined);
  out.field("prompt_pipeline_speedup", e.speed.prompt_pipeline_speedup);
  out.field("prompt_scores_time_share", e.speed.prompt_scores_time_share);
  out.field("prompt_expert_combine_time_share", e.speed.prompt_expert_combine_time_share);
  out.field("generation_tokens_per_second", e.speed.generation_tokens_per_second);
  out.field("generation_tokens_per_second_empty_context", e.speed.generation_tokens_per_second_empty);
  out.field("generation_tokens_per_second_full_context", e.speed.generation_tokens_per_second_full);
  out.field("llama_cpp_command", e.llama_cpp_command);
  out.begin_object("ollama_parameters");
  out.field("num_gpu", e.ollama_num_gpu);
  out.field("num_ctx", e.ollama_num_ctx);
  // Ollama's api.Options use_mmap: written only when the request turns mapping off (absent, its runner decides).
  if (!e.mmap) out.field("use_mmap", false);
  out.field("environment", e.ollama_environment);
  out.end_object();
  out.field("assumptions", e.assumptions);
  out.end_object();
  return out.take();
}

std::string local_formats_json(std::string_view config_json_text, const OptionList& options,
                               std::string_view model_name) {
  OptionList llama_options;
  for (const auto& [key, value] : options) {
    if (key == "engine") {
      if (value == "mlx") return mlx_formats_json(config_json_text, options, model_name);
      if (value == "llamacpp" || value == "llama.cpp" || value == "ollama") continue;
      throw OptionError("engine", "option 'engine' must be llamacpp or mlx, got '" + detail::printable(value) + "'");
    }
    llama_options.emplace_back(key, value);
  }
  LocalOptions parsed = parse_local_options(llama_options);
  parsed.request.model_name = model_name;
  const ModelDescription description = parse_hf_config(config_json_text);
  // Every common type is compared; the one the request's own report takes is marked.
  const std::vector<LocalFormatRow> rows =
      compare_local_formats(description, parsed.request, report_weight_format(parsed, description).format);
  detail::JsonWriter out;
  out.begin_object();
  out.begin_array("formats");
  for (const LocalFormatRow& row : rows) {
    const LocalEstimate& e = row.estimate;
    out.begin_object();
    out.field("weights", weight_format_info(row.format).id);
    out.field("model_buffer_bytes", row.model_buffer_bytes);
    out.field("n_gpu_layers", e.placement.n_gpu_layers);
    out.field("n_layers", e.placement.n_layers);
    out.field("n_cpu_moe", e.placement.n_cpu_moe);
    out.field("fits", e.placement.fits);
    out.field("runs_on", local_runs_on_name(e.verdict.runs_on));
    out.field("generation_tokens_per_second", e.speed.generation_tokens_per_second);
    out.field("prompt_tokens_per_second", e.speed.prompt_tokens_per_second);
    out.field("llama_cpp_command", e.llama_cpp_command);
    out.field("chosen", row.chosen);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string local_report_json(std::string_view config_json_text, const OptionList& options,
                              std::string_view model_name) {
  // --engine: llamacpp (the default) or mlx, whose report is its own (mlx_report_json).
  OptionList llama_options;
  for (const auto& [key, value] : options) {
    if (key != "engine") {
      llama_options.emplace_back(key, value);
      continue;
    }
    if (value == "mlx") return mlx_report_json(config_json_text, options, model_name);
    if (value != "llamacpp" && value != "llama.cpp" && value != "ollama")
      throw OptionError("engine", "option 'engine' must be llamacpp or mlx, got '" + detail::printable(value) + "'");
  }
  LocalOptions parsed = parse_local_options(llama_options);
  const ModelDescription description = parse_hf_config(config_json_text);
  const NativeWeightFormat weights = report_weight_format(parsed, description);
  const LocalModel model = local_model_from_config(description, weights.format, weights.options);
  parsed.request.model_path = std::string(model_name) + "-" + weight_format_info(weights.format).id + ".gguf";
  parsed.request.model_name = model_name;
  return local_report_json(model, estimate_local(model, parsed.request));
}

}  // namespace fitcheck
