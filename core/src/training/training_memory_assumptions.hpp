// SPDX-License-Identifier: MIT
// The assumption lines of a training memory report (training_memory_assumptions.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/training_memory.hpp"

namespace fitcheck::detail {

// For the busiest stage's figures `m` of a run with `stages` pipeline stages.
std::vector<std::string> training_memory_assumptions(const TrainingWorkload& w, const TrainingMemory& m,
                                                     std::int64_t stages, bool has_experts);

}  // namespace fitcheck::detail
