// SPDX-License-Identifier: MIT
// The WebAssembly entry point of the fitcheck core: conversion between bytes in linear memory and
// the core's calls only. wasm/api.js (linked as --post-js) gives JS its functions
// (parameterReport, inferenceReport, ...): it writes the strings in, calls fitcheck_call and turns
// the answer into a plain object or a thrown Error. No embind: plain exports keep the page's
// first-view module and its JS glue smaller (docs/performance.md).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "fitcheck/checkpoint.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/local.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/serving.hpp"
#include "fitcheck/training_memory.hpp"

namespace {

// Which report; the numbers are wasm/api.js's.
enum class Call : std::int32_t {
  parameter_report = 0,
  inference_report = 1,
  training_report = 2,
  plan_report = 3,
  training_plan_report = 4,
  transformer_mem_report = 5,
  accelerator_catalog = 6,
  format_catalog = 7,
  version = 8,
  config_fields = 9,
  max_input_bytes = 10,
  checkpoint_report = 11,
  serving_report = 12,
  local_report = 13,
  inference_sweep = 14,
  cpu_catalog = 15,
  local_gpu_catalog = 16,
  local_formats = 17,
};

// The answer's status word (wasm/api.js): the report, or an error with or without the field it names.
// family_not_in_build: a config of a family this (first-view) module leaves to the full module.
enum class Status : std::uint32_t { ok = 0, error_with_field = 1, error = 2, family_not_in_build = 3 };

// One UTF-8 string JS wrote into linear memory.
struct Text {
  const char* bytes;
  std::uint32_t length;
};

std::string_view view(const Text& text) { return {text.bytes, text.length}; }

// The answer block: [status][length 1][bytes 1][length 2][bytes 2], u32 words little-endian,
// malloc'd; JS reads it and frees it.
std::uint32_t* answer(Status status, std::string_view first, std::string_view second = {}) {
  const std::size_t size = 12 + first.size() + second.size();
  auto* block = static_cast<unsigned char*>(std::malloc(size));
  if (!block) return nullptr;
  const auto put_word = [&](std::size_t at, std::uint32_t word) { std::memcpy(block + at, &word, 4); };
  put_word(0, static_cast<std::uint32_t>(status));
  put_word(4, static_cast<std::uint32_t>(first.size()));
  std::memcpy(block + 8, first.data(), first.size());
  put_word(8 + first.size(), static_cast<std::uint32_t>(second.size()));
  std::memcpy(block + 12 + first.size(), second.data(), second.size());
  return reinterpret_cast<std::uint32_t*>(block);
}

std::string report(Call call, const Text* texts, std::uint32_t count) {
  // texts[0]: the config text; then key, value, key, value... of the options. A text over the
  // input limit comes as (nullptr, its length), not copied (wasm/api.js): refused by its length.
  for (std::uint32_t i = 0; i < count; ++i) {
    // A weight file's header (checkpoint_report) is bytes the page sliced as the parser asked, bounded
    // by the parser's own header limits (fitcheck/checkpoint.hpp), not by the config limit.
    const bool header_bytes = call == Call::checkpoint_report && i == 0;
    if ((header_bytes || texts[i].length <= fitcheck::kMaxConfigBytes) && texts[i].bytes) continue;
    const std::string message = fitcheck::config_too_large_message(texts[i].length);
    if (i == 0) throw fitcheck::ConfigError("", message);
    const std::string key =
        i % 2 == 1 || texts[i - 1].length > fitcheck::kMaxConfigBytes ? "" : std::string(view(texts[i - 1]));
    throw fitcheck::OptionError(key, "option '" + key + "' is " + std::to_string(texts[i].length) +
                                         " bytes, more than the " + std::to_string(fitcheck::kMaxConfigBytes >> 20) +
                                         " MiB fitcheck reads");
  }
  const std::string_view config = count > 0 ? view(texts[0]) : std::string_view();
  fitcheck::OptionList options;
  for (std::uint32_t i = 1; i + 1 < count; i += 2) options.emplace_back(view(texts[i]), view(texts[i + 1]));
  switch (call) {
    case Call::parameter_report:
      return fitcheck::parameter_report_json(config);
#ifdef FITCHECK_INFERENCE_ONLY
    case Call::inference_report:  // without fit_changes: the page asks the full module for them
      return fitcheck::inference_report_json_without_fit_changes(config, options);
#else
    case Call::inference_report:
      return fitcheck::inference_report_json(config, options);
#endif
    case Call::inference_sweep:
      return fitcheck::inference_sweep_report_json(config, options);
#ifndef FITCHECK_INFERENCE_ONLY  // the page's first-view module (CMakeLists.txt) leaves these out
    case Call::training_report:
      return fitcheck::training_report_json(config, options);
    case Call::plan_report:
      return fitcheck::plan_report_json(config, options);
    case Call::training_plan_report:
      return fitcheck::training_plan_report_json(config, options);
    case Call::transformer_mem_report:
      return fitcheck::transformer_mem_report_json(options);
    case Call::serving_report:
      return fitcheck::serving_report_json(config, options);
    case Call::local_report:
      return fitcheck::local_report_json(config, options);
    case Call::local_formats:  // the Local tab's weight formats table
      return fitcheck::local_formats_json(config, options);
    case Call::config_fields:
      return fitcheck::config_fields_json();
    case Call::cpu_catalog:  // the Local tab's CPU suggestions
      return fitcheck::cpu_catalog_json();
    case Call::local_gpu_catalog:  // the Local tab's GPU picker
      return fitcheck::local_gpu_catalog_json();
    case Call::checkpoint_report: {
      // texts[0]: the first bytes of a weight file (raw, not UTF-8); option file_size: its size.
      std::uint64_t file_size = 0;
      for (const auto& [key, value] : options)
        if (key == "file_size") file_size = std::strtoull(std::string(value).c_str(), nullptr, 10);
      return fitcheck::checkpoint_read_json(std::as_bytes(std::span(config.data(), config.size())), file_size);
    }
#endif
    case Call::accelerator_catalog:
      return fitcheck::accelerator_catalog_json();
    case Call::format_catalog:
      return fitcheck::format_catalog_json();
    case Call::version:
      return "0.1.0";
    case Call::max_input_bytes:
      return std::to_string(fitcheck::kMaxConfigBytes);
    default:
      break;
  }
  throw std::invalid_argument(
      "this function is not in this build of the core (the first-view module has "
      "parameters, inference and the catalogs; the full module has every function)");
}

}  // namespace

extern "C" {

// texts: `count` (pointer, length) pairs. Never throws: errors come back as an error answer.
EMSCRIPTEN_KEEPALIVE std::uint32_t* fitcheck_call(std::int32_t call, const Text* texts, std::uint32_t count) {
  try {
    return answer(Status::ok, report(static_cast<Call>(call), texts, count));
  } catch (const fitcheck::FamilyNotInBuild& error) {
    return answer(Status::family_not_in_build, error.what(), error.field());
  } catch (const fitcheck::ConfigError& error) {
    return answer(Status::error_with_field, error.what(), error.field());
  } catch (const fitcheck::OptionError& error) {
    return answer(Status::error_with_field, error.what(), error.option());
  } catch (const fitcheck::CheckpointError& error) {
    return answer(Status::error_with_field, error.what(), error.field());
  } catch (const std::exception& error) {
    return answer(Status::error, error.what());
  }
}

}  // extern "C"
