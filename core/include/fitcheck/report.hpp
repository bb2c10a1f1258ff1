// SPDX-License-Identifier: MIT
// Results as JSON text: one serializer for the CLI's --json output and the WebAssembly module, so
// both return the same document for the same input.
#pragma once

#include <string>
#include <string_view>

#include "fitcheck/inference.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_estimate.hpp"

namespace fitcheck {

// Parameter report: total_params, active_params_per_token, breakdown, assumptions, model_type,
// shapes, and the 16-bit weight bytes.
std::string parameter_report_json(const ModelDescription& model, const ParameterCount& count);

// parse_hf_config + count_parameters + parameter_report_json.
std::string parameter_report_json(std::string_view config_json_text);

// Inference report: weights, KV cache, activations, logits, overhead per GPU with formulas, and the
// verdict, capacity answers and latency when a GPU is chosen (keys: weight_bytes, kv_cache_bytes,
// kv_cache_bytes_per_token, activation_bytes, overhead_bytes, total_bytes_per_gpu, fits,
// max_batch_size, max_context_length, min_gpus, latency, assumptions, terms, ...). Writes the
// estimate only; nothing is computed here.
std::string inference_report_json(const InferenceEstimate& estimate);

// estimate_inference(config_json_text, options) as the report above.
std::string inference_report_json(std::string_view config_json_text, const OptionList& options);
// The same without the changes that fit (estimate_inference_without_fit_changes): no
// `fit_changes` key. The page's first-view module answers with this one.
std::string inference_report_json_without_fit_changes(std::string_view config_json_text, const OptionList& options);

// Memory at each value of one setting (sweep_inference_memory, inference_sweep.hpp): axis, points
// (value, total_bytes_per_gpu, weight_bytes, kv_cache_bytes, activation_bytes), refused (value,
// option, message). Options: the inference report's, with sweep and sweep_values.
std::string inference_sweep_report_json(std::string_view config_json_text, const OptionList& options);

// Training report: estimate_training()'s figures as JSON (keys: workload, parallel, total_params,
// trainable_params, weight_bytes, gradient_bytes, optimizer_bytes, activation_bytes,
// communication_bytes, overhead_bytes, total_bytes_per_gpu, max_micro_batch_size (null without a
// GPU), terms and layer_activation_terms (name, bytes, formula), assumptions; with a GPU gpu, fits,
// headroom_bytes, capacity, and time when the GPU publishes the rates).
std::string training_report_json(const TrainingEstimate& estimate);

// parse_training_options + parse_hf_config + estimate_training + training_report_json.
std::string training_report_json(std::string_view config_json_text, const OptionList& options);

// plan_inference as JSON: evaluated, feasible, best[], frontier[], notes, and the request echoed.
std::string plan_report_json(std::string_view config_json_text, const OptionList& options);

// plan_training as JSON: evaluated, feasible, best[], frontier[], notes, and the request echoed.
std::string training_plan_report_json(std::string_view config_json_text, const OptionList& options);

// transformer_mem.py's report from numbers alone (keys: its argument names with '_'), as JSON.
std::string transformer_mem_report_json(const OptionList& options);

// The accelerator catalog as JSON (id, name, memory, bandwidth, dense peaks per dtype, price, sources).
std::string accelerator_catalog_json();

// The CPU catalog as JSON (id, name, cores, memory channels and speed, the derived peak RAM
// bandwidth and FLOP/s, sources).
std::string cpu_catalog_json();

// Weight formats and KV cache dtypes fitcheck knows, as JSON (ids, names, bits, sources).
std::string format_catalog_json();

}  // namespace fitcheck
