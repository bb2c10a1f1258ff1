// SPDX-License-Identifier: MIT
// `fitcheck local MODEL`: llama.cpp / Ollama placement, buffers per device and speed (docs/local.md).
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

int run_local(const std::vector<std::string>& args);

}  // namespace fitcheck::cli
