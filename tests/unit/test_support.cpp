// SPDX-License-Identifier: MIT
#include "test_support.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "fitcheck/hardware.hpp"

namespace fitcheck::test {

ConfigError config_error(const std::string& config_text) {
  try {
    parse_hf_config(config_text);
  } catch (const ConfigError& error) {
    return error;
  }
  FAIL("no ConfigError for " << config_text);
  return ConfigError("", "");
}

std::string config_error_field(const std::string& config_text) {
  try {
    parse_hf_config(config_text);
  } catch (const ConfigError& error) {
    return error.field();
  }
  return "(no error)";
}

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open test data " + path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

std::vector<ManifestRow> read_manifest(const std::string& directory) {
  std::istringstream lines(read_file(directory + "/MANIFEST.tsv"));
  std::string line;
  std::getline(lines, line);
  std::vector<std::string> header;
  {
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, '\t')) header.push_back(cell);
  }
  std::vector<ManifestRow> rows;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream cells(line);
    std::string cell;
    ManifestRow row;
    for (std::size_t column = 0; std::getline(cells, cell, '\t'); ++column) {
      if (column >= header.size()) break;
      if (header[column] == "file")
        row.file = cell;
      else if (header[column] == "model_type")
        row.model_type = cell;
      else if (header[column] == "total_params")
        row.total_params = cell;
      else if (header[column] == "active_params_per_token")
        row.active_params_per_token = cell;
    }
    rows.push_back(row);
  }
  return rows;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

std::string fixture_configs_dir() { return FITCHECK_FIXTURE_CONFIGS_DIR; }

ModelDescription fixture_model(const std::string& file) {
  return parse_hf_config(read_file(fixture_configs_dir() + "/" + file));
}

CommandResult run_cli(const std::string& arguments, const std::string& stdin_text) {
  char stdin_path[] = "/tmp/fitcheck-test-in-XXXXXX";
  char stderr_path[] = "/tmp/fitcheck-test-err-XXXXXX";
  const int in_fd = mkstemp(stdin_path);
  const int err_fd = mkstemp(stderr_path);
  if (in_fd < 0 || err_fd < 0) throw std::runtime_error("mkstemp failed");
  {
    std::ofstream in(stdin_path, std::ios::binary);
    in << stdin_text;
  }
  const std::string command =
      std::string(FITCHECK_CLI_PATH) + " " + arguments + " <" + stdin_path + " 2>" + stderr_path;
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed");
  char buffer[4096];
  std::size_t read = 0;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, read);
  const int status = pclose(pipe);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.err = read_file(stderr_path);
  std::remove(stdin_path);
  std::remove(stderr_path);
  return result;
}

nlohmann::json cli_json(const std::string& arguments) {
  const CommandResult run = run_cli(arguments);
  REQUIRE(run.exit_status == 0);
  return nlohmann::json::parse(run.out);
}

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(std::int64_t{1} << 20); }

LocalRequest local_request_on(const char* gpu_id, std::int64_t ram_gib) {
  const Accelerator* gpu = find_accelerator(gpu_id);
  REQUIRE_MESSAGE(gpu != nullptr, "no catalog GPU " << gpu_id);
  LocalRequest r;
  r.gpus.push_back(*gpu);
  r.backend = LocalBackend::cuda;
  r.ram_bytes = ram_gib << 30;
  return r;
}

}  // namespace fitcheck::test
