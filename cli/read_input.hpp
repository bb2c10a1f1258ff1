// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace fitcheck::cli {

// Reads a whole file, or standard input when path is "-". Throws std::runtime_error naming the path.
std::string read_input(const std::string& path);

}  // namespace fitcheck::cli
