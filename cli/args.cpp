// SPDX-License-Identifier: MIT
#include "args.hpp"

#include <algorithm>

namespace fitcheck::cli {

const char* const kCustomGpuHelp =
    "custom GPU (--gpu custom; plan: custom in --gpus), figures as spec sheets print them:\n"
    "  --custom-gpu-base NAME  catalog GPU whose figures the flags below override (else memory,\n"
    "                          bandwidth and bf16 are needed and the rest default to 0 / 1 GPU per node)\n"
    "  --custom-gpu-name TEXT  display name\n"
    "  --custom-gpu-memory-gib X --custom-gpu-bandwidth-gb-per-s X (memory GB/s, decimal)\n"
    "  --custom-gpu-bf16-tflops X --custom-gpu-fp16-tflops X --custom-gpu-fp8-tflops X\n"
    "  --custom-gpu-int8-tops X --custom-gpu-fp32-tflops X   dense peaks; 0: no such path\n"
    "  --custom-gpu-interconnect-gb-per-s X  per GPU, one direction --custom-gpu-gpus-per-node N\n"
    "  --custom-gpu-price-per-hour X  USD per GPU-hour\n";

std::string flag_of(const std::string& key) {
  std::string flag = "--" + key;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

std::string option_error_line(const OptionError& error) {
  const std::string& option = error.option();
  const std::string name = option.rfind("-", 0) == 0 || option == "config" ? option : flag_of(option);
  return "fitcheck: error: " + name + ": " + error.what() + "\n";
}

CommandArgs parse_command_args(const std::vector<std::string>& args, const char* command,
                               std::initializer_list<std::string_view> switches) {
  const auto is_switch = [&](const std::string& key) {
    return std::find(switches.begin(), switches.end(), key) != switches.end();
  };
  CommandArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      if (arg != "-" && arg.rfind("-", 0) == 0) throw OptionError(arg, "unknown option '" + arg + "'");
      if (!parsed.path.empty())
        throw OptionError(arg,
                          std::string(command) + " takes one CONFIG.json, got '" + parsed.path + "' and '" + arg + "'");
      parsed.path = arg;
      continue;
    }
    std::string key = arg.substr(2);
    std::string value;
    const auto equals = key.find('=');
    const bool has_value = equals != std::string::npos;
    if (has_value) {
      value = key.substr(equals + 1);
      key = key.substr(0, equals);
    }
    std::replace(key.begin(), key.end(), '-', '_');
    if (key == "json") {
      parsed.json = true;
      continue;
    }
    if (!has_value && !is_switch(key)) {
      if (i + 1 >= args.size()) throw OptionError(key, "option '" + flag_of(key) + "' needs a value");
      value = args[++i];
      // "--batch --context 5": the next word is an option, not --batch's value.
      if (value.rfind("--", 0) == 0 && value.size() > 2)
        throw OptionError(
            key, "option '" + flag_of(key) + "' needs a value, but the next word is the option '" + value + "'");
    }
    parsed.options.emplace_back(key, has_value || !is_switch(key) ? value : "true");
  }
  if (!parsed.help && parsed.path.empty())
    throw OptionError("config", std::string(command) + " needs a CONFIG.json path (or - for standard input)");
  return parsed;
}

}  // namespace fitcheck::cli
