// SPDX-License-Identifier: MIT
#include "read_input.hpp"

#include "fitcheck/config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace fitcheck::cli {

namespace {
// The core's one input limit (fitcheck/config.hpp), the page's and WebAssembly's too; keeps a
// mistaken path to a weights file from filling memory. Reading stops one chunk past it.
constexpr std::size_t max_input_bytes = kMaxConfigBytes;
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
      throw std::runtime_error("'" + path +
                               "': " + config_too_large_message(text.size()).replace(0, 14, "it is at least"));
    }
  }
  const bool failed = std::ferror(file) != 0;
  if (file != stdin) std::fclose(file);
  if (failed) throw std::runtime_error("cannot read '" + path + "'");
  return text;
}

}  // namespace fitcheck::cli
