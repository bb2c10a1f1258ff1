// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// fitcheck plan CONFIG.json [--mode inference|training] [options] [--json]: the training planner
// with --mode training, else run_plan (the serving planner). Returns the exit status.
int run_plan_modes(const std::vector<std::string>& args);

}  // namespace fitcheck::cli
