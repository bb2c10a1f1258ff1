// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// fitcheck infer CONFIG.json [--weights F --kv-dtype D --batch N --context N --tp N --pp N --ep N
//   --gpu NAME --gpu-memory-utilization F ... --json]. Returns the exit status.
int run_infer(const std::vector<std::string>& args);

// fitcheck gpus [--json]: the accelerator catalog.
int run_gpus(const std::vector<std::string>& args);

// fitcheck formats [--json]: weight formats and KV cache dtypes.
int run_formats(const std::vector<std::string>& args);

}  // namespace fitcheck::cli
