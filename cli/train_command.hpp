// SPDX-License-Identifier: MIT
// `fitcheck train CONFIG.json [options] [--json]`: training memory per GPU.
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// `args` are the words after the subcommand. Fills `out` (the report, a table, or the help text)
// and `err` (one error line naming the option). Returns 0, or 2 for a bad option, value or config.
int run_train(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace fitcheck::cli
