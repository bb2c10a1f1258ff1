// SPDX-License-Identifier: MIT
// `fitcheck transformer-mem`: the classic transformer_mem.py calculator, same flags (parsed the
// way Python's argparse parses them) and the same report, line for line.
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// `args` are the words after the subcommand. Fills `out` (the report, or the help text) and
// `err` (one error line). Returns the exit status: 0 on success and for --help, 2 for a bad
// flag or a nonsensical value.
int run_transformer_mem(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace fitcheck::cli
