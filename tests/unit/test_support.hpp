// SPDX-License-Identifier: MIT
// Helpers shared by the unit tests: reading test data and running the CLI.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/local.hpp"

namespace fitcheck::test {

// The ConfigError parse_hf_config throws for `config_text` (a test failure when it throws none).
ConfigError config_error(const std::string& config_text);
// The field that error names, or "(no error)" when the config is read.
std::string config_error_field(const std::string& config_text);

std::string read_file(const std::string& path);

// Whether any of `lines` (a report's assumptions) contains `text`.
bool mentions(const std::vector<std::string>& lines, const std::string& text);

// One row of tests/fixtures/configs/MANIFEST.tsv.
struct ManifestRow {
  std::string file;
  std::string model_type;
  std::string total_params;             // empty: no trusted count
  std::string active_params_per_token;  // empty: dense or unknown
};
std::vector<ManifestRow> read_manifest(const std::string& directory);

std::string fixture_configs_dir();
// The config tests/fixtures/configs/`file` holds, parsed.
ModelDescription fixture_model(const std::string& file);

// Bytes in MiB, as llama.cpp's load logs print buffer sizes.
double mib(std::int64_t bytes);

// A llama.cpp request on the catalog GPU `gpu_id` (CUDA) beside `ram_gib` GiB of RAM, other options at defaults.
LocalRequest local_request_on(const char* gpu_id, std::int64_t ram_gib);

struct CommandResult {
  int exit_status = -1;
  std::string out;
  std::string err;
};
// Runs the fitcheck CLI with `arguments` (shell-quoted by the caller) and optional stdin text.
CommandResult run_cli(const std::string& arguments, const std::string& stdin_text = "");
// A CLI run that must succeed, its JSON output parsed.
nlohmann::json cli_json(const std::string& arguments);

}  // namespace fitcheck::test
