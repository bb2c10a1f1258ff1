// SPDX-License-Identifier: MIT
#include "format.hpp"

#include <cstdio>

namespace fitcheck::cli {

std::string with_thousands(std::int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string rounded_count(std::int64_t value) {
  const double v = static_cast<double>(value);
  char buffer[32];
  if (v >= 1e12) std::snprintf(buffer, sizeof buffer, "%.2f T", v / 1e12);
  else if (v >= 1e9) std::snprintf(buffer, sizeof buffer, "%.2f B", v / 1e9);
  else if (v >= 1e6) std::snprintf(buffer, sizeof buffer, "%.2f M", v / 1e6);
  else if (v >= 1e3) std::snprintf(buffer, sizeof buffer, "%.2f K", v / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
  return buffer;
}

std::string gib_and_gb(std::int64_t bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f GiB (%.2f GB)", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0),
                static_cast<double>(bytes) / 1e9);
  return buffer;
}

}  // namespace fitcheck::cli
