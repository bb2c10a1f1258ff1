// SPDX-License-Identifier: MIT
// Number formatting for the CLI's tables.
#pragma once

#include <cstdint>
#include <string>

namespace fitcheck::cli {

std::string with_thousands(std::int64_t value);   // 8030261248 -> "8,030,261,248"
std::string rounded_count(std::int64_t value);    // 8030261248 -> "8.03 B"
std::string gib_and_gb(std::int64_t bytes);       // "14.96 GiB (16.06 GB)"

}  // namespace fitcheck::cli
