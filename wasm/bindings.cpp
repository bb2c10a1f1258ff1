// SPDX-License-Identifier: MIT
// embind bindings of the fitcheck core: conversion between JS values and core results only.
// Results cross as the core's JSON reports, parsed into plain JS objects here; C++ errors become
// JS Error objects carrying the message and, for config errors, the offending field.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/report.hpp"

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
  } catch (const std::exception& error) {
    throw_js_error(error.what(), nullptr);
  }
}

val parameter_report(const std::string& config_json_text) {
  return json_result([&] { return fitcheck::parameter_report_json(config_json_text); });
}

std::string core_version() { return "0.1.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(fitcheck_core) {
  emscripten::function("parameterReport", &parameter_report);
  emscripten::function("version", &core_version);
}
