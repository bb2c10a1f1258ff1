// SPDX-License-Identifier: MIT
// Memory figures. Every figure is an integer number of bytes with the formula that produced it.
#pragma once

#include <cstdint>
#include <string>

#include "fitcheck/params.hpp"

namespace fitcheck {

struct WeightMemoryFigure {
  std::int64_t bytes = 0;
  std::int64_t bytes_per_parameter = 0;
  std::string formula;  // with the numbers substituted
};

// Weights stored at one width for every parameter (fp32: 4, bf16/fp16: 2).
WeightMemoryFigure weight_bytes_at_uniform_width(const ParameterCount& count, std::int64_t bytes_per_parameter);

}  // namespace fitcheck
