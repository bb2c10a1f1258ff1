// SPDX-License-Identifier: MIT
// The words after a subcommand as one config path and option key/value pairs: "--kv-dtype fp8"
// and "--kv-dtype=fp8" both become {"kv_dtype", "fp8"}, so flags are the core's option keys with
// '-' for '_'.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/options.hpp"

namespace fitcheck::cli {

struct CommandArgs {
  std::string path;   // the one bare word: CONFIG.json, or - for standard input
  bool json = false;  // --json
  bool help = false;  // --help or -h
  OptionList options;
};

// `switches` are the keys that take no value (they become "true"); every other flag takes the
// next word. Throws OptionError naming the flag; a missing path is an error unless --help is given.
CommandArgs parse_command_args(const std::vector<std::string>& args, const char* command,
                               std::initializer_list<std::string_view> switches);

// "kv_dtype" -> "--kv-dtype".
std::string flag_of(const std::string& key);

// One error line for an OptionError: the flag it names, then the message.
std::string option_error_line(const OptionError& error);

// The custom GPU flags, shared by the help texts of infer, train and plan.
extern const char* const kCustomGpuHelp;

}  // namespace fitcheck::cli
