// SPDX-License-Identifier: MIT
// The benchmark entry points for WebAssembly (Node): the same bench_core.cpp as the native bench.
#include <emscripten/bind.h>

#include "bench_core.hpp"

namespace {

emscripten::val result(const fitcheck::bench::BenchResult& r) {
  emscripten::val out = emscripten::val::object();
  out.set("count", static_cast<double>(r.count));
  out.set("seconds", r.seconds);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(fitcheck_bench) {
  emscripten::function(
      "fullEstimates", +[](const std::string& text, double n) {
        return result(fitcheck::bench::full_estimates(text, static_cast<std::int64_t>(n)));
      });
  emscripten::function(
      "inferenceEstimates", +[](const std::string& text, double n) {
        return result(fitcheck::bench::inference_estimates(text, static_cast<std::int64_t>(n)));
      });
  emscripten::function(
      "plannerSweep", +[](const std::string& text, double n) {
        return result(fitcheck::bench::planner_sweep(text, static_cast<std::int64_t>(n)));
      });
  emscripten::function(
      "trainingPlan", +[](const std::string& text) { return result(fitcheck::bench::training_plan(text)); });
  emscripten::function(
      "localFormats", +[](const std::string& text, double n) {
        return result(fitcheck::bench::local_formats(text, static_cast<std::int64_t>(n)));
      });
  emscripten::function(
      "serveSim", +[](const std::string& text, double n) {
        return result(fitcheck::bench::serve_sim(text, static_cast<std::int64_t>(n)));
      });
}
