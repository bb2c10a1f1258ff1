// SPDX-License-Identifier: MIT
#include "fitcheck/memory.hpp"

namespace fitcheck {

WeightMemoryFigure weight_bytes_at_uniform_width(const ParameterCount& count, std::int64_t bytes_per_parameter) {
  WeightMemoryFigure figure;
  figure.bytes_per_parameter = bytes_per_parameter;
  figure.bytes = count.total * bytes_per_parameter;
  figure.formula = std::to_string(count.total) + " parameters x " + std::to_string(bytes_per_parameter) +
                   " bytes = " + std::to_string(figure.bytes) + " bytes";
  return figure;
}

}  // namespace fitcheck
