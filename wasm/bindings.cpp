// SPDX-License-Identifier: MIT
// embind bindings of the fitcheck core: conversion between JS values and core results only.
// Results cross as the core's JSON reports, parsed into plain JS objects here; C++ errors become
// JS Error objects carrying the message and, for config errors, the offending field.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_memory.hpp"

namespace {

using emscripten::val;

[[noreturn]] void throw_js_error(const std::string& message, const std::string* field) {
  val error = val::global("Error").new_(message);
  if (field) error.set("field", *field);
  error.throw_();
  __builtin_unreachable();
}

// Runs `compute` (returning JSON text) and hands JS the parsed object, or throws a JS Error.
template <typename Compute>
val json_result(Compute&& compute) {
  try {
    return val::global("JSON").call<val>("parse", compute());
  } catch (const fitcheck::ConfigError& error) {
    throw_js_error(error.what(), &error.field());
  } catch (const fitcheck::OptionError& error) {
    throw_js_error(error.what(), &error.option());
  } catch (const std::exception& error) {
    throw_js_error(error.what(), nullptr);
  }
}

val parameter_report(const std::string& config_json_text) {
  return json_result([&] { return fitcheck::parameter_report_json(config_json_text); });
}

// A plain JS object of options ({batch: 8, kv_dtype: "fp8"}) as the core's text key/value list.
fitcheck::OptionList option_list(const val& options) {
  fitcheck::OptionList list;
  if (options.isUndefined() || options.isNull()) return list;
  const val entries = val::global("Object").call<val>("entries", options);
  const auto count = entries["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    const val entry = entries[i];
    const val value = entry[1];
    if (value.isUndefined() || value.isNull()) continue;
    list.emplace_back(entry[0].as<std::string>(), val::global("String")(value).as<std::string>());
  }
  return list;
}

val inference_report(const std::string& config_json_text, const val& options) {
  return json_result([&] { return fitcheck::inference_report_json(config_json_text, option_list(options)); });
}

val training_report(const std::string& config_json_text, const val& options) {
  return json_result([&] { return fitcheck::training_report_json(config_json_text, option_list(options)); });
}

val plan_report(const std::string& config_json_text, const val& options) {
  return json_result([&] { return fitcheck::plan_report_json(config_json_text, option_list(options)); });
}

val training_plan_report(const std::string& config_json_text, const val& options) {
  return json_result([&] { return fitcheck::training_plan_report_json(config_json_text, option_list(options)); });
}

val transformer_mem_report(const val& options) {
  return json_result([&] { return fitcheck::transformer_mem_report_json(option_list(options)); });
}

val accelerator_catalog() {
  return json_result([] { return fitcheck::accelerator_catalog_json(); });
}

val format_catalog() {
  return json_result([] { return fitcheck::format_catalog_json(); });
}

std::string core_version() { return "0.1.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(fitcheck_core) {
  emscripten::function("parameterReport", &parameter_report);
  emscripten::function("inferenceReport", &inference_report);
#ifndef FITCHECK_INFERENCE_ONLY  // the page's first-view module (CMakeLists.txt) leaves these out
  emscripten::function("trainingReport", &training_report);
  emscripten::function("planReport", &plan_report);
  emscripten::function("trainingPlanReport", &training_plan_report);
  emscripten::function("transformerMemReport", &transformer_mem_report);
#endif
  emscripten::function("acceleratorCatalog", &accelerator_catalog);
  emscripten::function("formatCatalog", &format_catalog);
  emscripten::function("version", &core_version);
}
