// SPDX-License-Identifier: MIT
// `fitcheck params FILE` for model weight files: GGUF, safetensors, model.safetensors.index.json.
#pragma once

#include <optional>
#include <string>

#include "fitcheck/checkpoint.hpp"

namespace fitcheck::cli {

// The weight-file format of `path`, judged by its first bytes (GGUF magic, safetensors length and
// '{'), or for an index by a "weight_map" member near the start; std::nullopt for anything else
// (a config.json, standard input).
std::optional<CheckpointFormat> checkpoint_format_of(const std::string& path);

// Reads the header of the file (growing reads until the parser has all of it, never the weights),
// and prints the summary as a table or, with `json`, as checkpoint_report_json. Returns the exit
// status; throws CheckpointError or std::runtime_error on a bad file.
// The header of a GGUF or safetensors file (growing reads, never the weights); throws as above.
CheckpointSummary read_checkpoint_header(const std::string& path, CheckpointFormat format);

int run_params_checkpoint(const std::string& path, CheckpointFormat format, bool json);

}  // namespace fitcheck::cli
