// SPDX-License-Identifier: MIT
// Results as JSON text: one serializer for the CLI's --json output and the WebAssembly module, so
// both return the same document for the same input.
#pragma once

#include <string>
#include <string_view>

#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

// Parameter report: total_params, active_params_per_token, breakdown, assumptions, model_type,
// shapes, and the 16-bit weight bytes.
std::string parameter_report_json(const ModelDescription& model, const ParameterCount& count);

// parse_hf_config + count_parameters + parameter_report_json.
std::string parameter_report_json(std::string_view config_json_text);

}  // namespace fitcheck
