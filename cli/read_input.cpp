// SPDX-License-Identifier: MIT
#include "read_input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace fitcheck::cli {

namespace {
// Far above any config.json (the largest real ones are a few hundred KB); keeps a mistaken path
// to a weights file from filling memory.
constexpr std::size_t max_input_bytes = 64u << 20;
}  // namespace

std::string read_input(const std::string& path) {
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, read);
    if (text.size() > max_input_bytes) {
      if (file != stdin) std::fclose(file);
      throw std::runtime_error("'" + path + "' is larger than 64 MiB; a config.json is a few KB");
    }
  }
  const bool failed = std::ferror(file) != 0;
  if (file != stdin) std::fclose(file);
  if (failed) throw std::runtime_error("cannot read '" + path + "'");
  return text;
}

}  // namespace fitcheck::cli
