// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// fitcheck infer CONFIG.json [--weights F --kv-dtype D --batch N --context N --tp N --pp N --ep N
//   --gpu NAME --gpu-memory-utilization F ... --json]. Returns the exit status.
int run_infer(const std::vector<std::string>& args);

// fitcheck plan CONFIG.json [--gpus a,b --max-gpus N --weights f1,f2 --kv-dtypes d1,d2 --batches 1,8
//   --prompt-len N --gen-len N --ttft S --tpot S --objective O --keep N --json]
int run_plan(const std::vector<std::string>& args);

// fitcheck gpus [--json]: the accelerator catalog.
int run_gpus(const std::vector<std::string>& args);

// fitcheck cpus [--json]: CPUs and their RAM as devices for CPU inference.
int run_cpus(const std::vector<std::string>& args);

// fitcheck formats [--json]: weight formats and KV cache dtypes.
int run_formats(const std::vector<std::string>& args);

}  // namespace fitcheck::cli
