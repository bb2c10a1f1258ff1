// SPDX-License-Identifier: MIT
// Numbers in formula text, one spelling each: every formula of the reports prints a measured or
// derived quantity with four significant digits ("%.4g") and a share or factor with two decimals
// ("%.2f"); a figure given as input keeps its own spelling ("%g"). Byte counts are printed as exact integers
// (std::to_string) and never pass through here.
#pragma once

#include <cstdio>
#include <string>

namespace fitcheck::detail {

inline std::string four_significant_digits(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// Engine settings in rule text (a memory share, a GiB figure): "%.3g".
inline std::string three_significant_digits(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

// A figure the user gave or a catalog holds, as short as it reads ("%g": 6000, 89.6, 0.75).
inline std::string as_given(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

inline std::string two_decimals(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

}  // namespace fitcheck::detail
