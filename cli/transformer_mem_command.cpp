// SPDX-License-Identifier: MIT
// `fitcheck transformer-mem`. The command line is read with the rules of Python 3.11's argparse
// (the classic script's parser), so every spelling it accepts works here and every one it
// rejects fails with its message: exact option strings, `--opt=value`, unique prefixes of long
// options, single-dash prefixes (`-t` for `-tp`), a value glued to a one-letter option (`-p5`),
// `-5` read as a value, `--` ending the options, and int() rules for numbers ("1_000", " 7 ").
#include "transformer_mem_command.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "fitcheck/transformer_mem.hpp"

namespace fitcheck::cli {
namespace {

enum class Kind { help, flag, integer };

struct Option {
  const char* dest;
  const char* strings[2];  // in the script's order; the second may be null
  Kind kind;
  const char* default_repr;  // how the script's report prints the default
  const char* help;
};

// The script's flags in declaration order: argparse lists ambiguous matches in this order.
// The defaults of the bucket and live-params flags are floats in the script (5e8, 1e9), so its
// report shows them with ".0" until an integer is given.
constexpr Option kOptions[] = {
    {"help", {"-h", "--help"}, Kind::help, "", "print this help and exit"},
    {"params", {"--params", "-p"}, Kind::integer, "20000000000", "parameter count"},
    {"num_gpus", {"--num-gpus", nullptr}, Kind::integer, "1", "GPUs in the job"},
    {"tensor_parallel_size", {"--tensor-parallel-size", "-tp"}, Kind::integer, "1", "tensor-parallel degree"},
    {"pipeline_parallel_size", {"--pipeline-parallel-size", "-pp"}, Kind::integer, "1", "pipeline-parallel degree"},
    {"partition_activations",
     {"--partition-activations", "-pa"},
     Kind::flag,
     "False",
     "ZeRO-R: split activations across the tensor-parallel group"},
    {"zero_stage", {"--zero-stage", "-z"}, Kind::integer, "1", "ZeRO stage"},
    {"checkpoint_activations",
     {"--checkpoint-activations", "-ca"},
     Kind::flag,
     "False",
     "Megatron-style activation recomputation"},
    {"batch_size_per_gpu", {"--batch-size-per-gpu", "-b"}, Kind::integer, "1", "micro-batch size per GPU"},
    {"hidden_size", {"--hidden-size", "-hs"}, Kind::integer, "6144", "hidden size"},
    {"num_attention_heads", {"--num-attention-heads", "-a"}, Kind::integer, "64", "attention heads"},
    {"sequence_length", {"--sequence-length", "-s"}, Kind::integer, "2048", "sequence length in tokens"},
    {"num_layers", {"--num-layers", "-l"}, Kind::integer, "44", "transformer layers"},
    {"fp32_model", {"--fp32-model", nullptr}, Kind::flag, "False", "weights in fp32 instead of 16-bit"},
    {"fp32_grads", {"--fp32-grads", nullptr}, Kind::flag, "False", "gradients in fp32 instead of 16-bit"},
    {"zero_allgather_bucket_size",
     {"--zero-allgather-bucket-size", "-zbs"},
     Kind::integer,
     "500000000.0",
     "ZeRO allgather bucket, in elements"},
    {"zero3_max_live_params",
     {"--zero3-max-live-params", "-zmlp"},
     Kind::integer,
     "1000000000.0",
     "parameters ZeRO-3 keeps resident"},
    {"misc_mem_gb", {"--misc-mem-gb", nullptr}, Kind::integer, "0", "fixed framework overhead in GiB"},
    {"infer", {"--infer", nullptr}, Kind::flag, "False", "report inference memory instead of training"},
};
constexpr int kOptionCount = static_cast<int>(sizeof kOptions / sizeof kOptions[0]);

// The script prints these before it parses anything, so also before help and errors.
constexpr const char* kExamples =
    "\nExample with pythia 6.9B: python transformer_mem.py --num-layers=32 --sequence-length=2048 "
    "--num-attention-heads=32 --hidden-size=4096 --batch-size-per-gpu=8 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=2 "
    "--num-gpus=128 --params=6900000000\n"
    "Example with pythia 12B: python transformer_mem.py --num-layers=36 --sequence-length=2048 "
    "--num-attention-heads=40 --hidden-size=5120 --batch-size-per-gpu=8 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=4 "
    "--num-gpus=256 --params=11849420800\n"
    "Example with default 20B: python transformer_mem.py --num-layers=44 --sequence-length=2048 "
    "--num-attention-heads=64 --hidden-size=6144 --batch-size-per-gpu=1 --checkpoint-activations "
    "--zero-stage=1 --partition-activations --pipeline-parallel-size=1 --tensor-parallel-size=1 "
    "--num-gpus=1 --params=20000000000\n\n";

constexpr const char* kProg = "fitcheck transformer-mem";

struct ParseError {
  std::string message;
};

std::string action_name(int option) {
  const Option& o = kOptions[option];
  return o.strings[1] ? std::string(o.strings[0]) + "/" + o.strings[1] : o.strings[0];
}

// The option with this exact option string ("-tp") or dest ("tensor_parallel_size"), or -1.
int find_option(const std::string& name) {
  for (int i = 0; i < kOptionCount; ++i) {
    if (name == kOptions[i].dest) return i;
    for (const char* s : kOptions[i].strings) {
      if (s && name == s) return i;
    }
  }
  return -1;
}

// Python's repr() of a str: single quotes unless the text holds ' and no ".
std::string py_repr(const std::string& text) {
  const char quote = text.find('\'') != std::string::npos && text.find('"') == std::string::npos ? '"' : '\'';
  std::string result(1, quote);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    char escaped[8] = {};
    if (c == quote || c == '\\')
      std::snprintf(escaped, sizeof escaped, "\\%c", c);
    else if (c == '\n')
      std::snprintf(escaped, sizeof escaped, "\\n");
    else if (c == '\r')
      std::snprintf(escaped, sizeof escaped, "\\r");
    else if (c == '\t')
      std::snprintf(escaped, sizeof escaped, "\\t");
    else if (byte < 0x20 || byte == 0x7f)
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
    result += escaped[0] ? std::string(escaped) : std::string(1, c);
  }
  return result + quote;
}

// Python's int(text): surrounding whitespace, a sign, decimal digits with single underscores
// between them. `digits` is the value's repr; `fits` is false past int64 (Python's ints are
// unbounded, so such a value is only refused once parsing has finished).
struct PyInt {
  std::int64_t value = 0;
  bool fits = true;
  std::string digits;
};

PyInt parse_python_int(const std::string& text, int option) {
  const auto is_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  const ParseError invalid{"argument " + action_name(option) + ": invalid int value: " + py_repr(text)};
  const bool negative = begin < end && text[begin] == '-';
  if (begin < end && (text[begin] == '+' || text[begin] == '-')) ++begin;
  PyInt result;
  for (std::size_t i = begin; i < end; ++i) {
    const bool separator = text[i] == '_' && i > begin && is_digit(text[i - 1]) && i + 1 < end && is_digit(text[i + 1]);
    if (is_digit(text[i])) {
      result.digits = result.digits == "0" ? std::string(1, text[i]) : result.digits + text[i];
    } else if (!separator) {
      throw invalid;
    }
  }
  if (result.digits.empty()) throw invalid;
  if (negative && result.digits != "0") result.digits.insert(0, "-");
  const char* first = result.digits.data();
  result.fits = std::from_chars(first, first + result.digits.size(), result.value).ec == std::errc();
  return result;
}

// How argparse classifies one word: an option ('O'), a value ('A') or the first "--".
struct Token {
  bool is_option = false;
  bool is_end_marker = false;
  int option = -1;  // -1 with is_option: an unknown option, which ends up unrecognized
  std::string option_string;
  std::optional<std::string> explicit_value;
};

Token classify(const std::string& word) {
  if (word.empty() || word[0] != '-') return {};
  if (const int exact = find_option(word); exact >= 0) return {true, false, exact, word, std::nullopt};
  if (word.size() == 1) return {};
  const std::size_t eq = word.find('=');
  if (eq != std::string::npos) {
    if (const int exact = find_option(word.substr(0, eq)); exact >= 0) {
      return {true, false, exact, word.substr(0, eq), word.substr(eq + 1)};
    }
  }
  // Long words match option prefixes (value after '='); short words match an option by their
  // first two characters (the rest is the value) or are a prefix of a short option.
  const bool is_long = word[1] == '-';
  const std::string prefix = is_long ? word.substr(0, eq) : word;
  std::vector<Token> matches;
  for (int i = 0; i < kOptionCount; ++i) {
    for (const char* s : kOptions[i].strings) {
      if (!s) continue;
      if (!is_long && word.compare(0, 2, s) == 0) {
        matches.push_back({true, false, i, s, word.substr(2)});
      } else if (std::string(s).rfind(prefix, 0) == 0) {
        std::optional<std::string> value;
        if (is_long && eq != std::string::npos) value = word.substr(eq + 1);
        matches.push_back({true, false, i, s, value});
      }
    }
  }
  if (matches.size() > 1) {
    std::string names;
    for (const Token& m : matches) names += (names.empty() ? "" : ", ") + m.option_string;
    throw ParseError{"ambiguous option: " + word + " could match " + names};
  }
  if (matches.size() == 1) return matches[0];
  // Python's `$` also matches before a final newline.
  static const std::regex negative_number("-[0-9]+\n?|-[0-9]*\\.[0-9]+\n?");
  if (std::regex_match(word, negative_number) || word.find(' ') != std::string::npos) return {};
  return {true, false, -1, word, std::nullopt};
}

struct Parsed {
  std::int64_t ints[kOptionCount] = {};
  bool given[kOptionCount] = {};
  bool help = false;
  std::string out_of_range;  // the first value beyond int64, reported after parsing
};

void take_action(Parsed& parsed, int option, const std::optional<std::string>& value) {
  parsed.given[option] = true;
  if (kOptions[option].kind == Kind::help) parsed.help = true;
  if (kOptions[option].kind != Kind::integer) return;
  const PyInt number = parse_python_int(*value, option);
  if (option == find_option("zero_stage") && (!number.fits || number.value < 0 || number.value > 3)) {
    throw ParseError{"argument " + action_name(option) + ": invalid choice: " + number.digits +
                     " (choose from 0, 1, 2, 3)"};
  }
  if (!number.fits && parsed.out_of_range.empty()) {
    parsed.out_of_range = "argument " + action_name(option) + ": int value out of range: " + py_repr(*value);
  }
  parsed.ints[option] = number.value;
}

// One option word and, if it takes one, its value. Returns the next index, or -1 once help has
// been taken (argparse prints it and exits on the spot).
int consume_option(const std::vector<std::string>& args, const std::vector<Token>& tokens, int index, Parsed& parsed,
                   std::vector<std::string>& extras) {
  int option = tokens[index].option;
  std::string option_string = tokens[index].option_string;
  std::optional<std::string> value = tokens[index].explicit_value;
  if (option < 0) {
    extras.push_back(args[index]);
    return index + 1;
  }
  std::vector<std::pair<int, std::optional<std::string>>> actions;
  int stop = index + 1;
  while (true) {
    const bool takes_value = kOptions[option].kind == Kind::integer;
    if (value && takes_value) {
      actions.emplace_back(option, value);
      break;
    }
    if (value && (option_string[1] == '-' || value->empty())) {
      throw ParseError{"argument " + action_name(option) + ": ignored explicit argument " + py_repr(*value)};
    }
    if (value) {  // `-pa=p5`: a single-dash flag, then more single-dash options in the value
      actions.emplace_back(option, std::nullopt);
      const std::string next_string = std::string("-") + (*value)[0];
      const int next = find_option(next_string);
      if (next < 0) {
        throw ParseError{"argument " + action_name(option) + ": ignored explicit argument " + py_repr(*value)};
      }
      option = next;
      option_string = next_string;
      value = value->size() > 1 ? std::optional<std::string>(value->substr(1)) : std::nullopt;
      continue;
    }
    if (takes_value) {
      const std::size_t next = static_cast<std::size_t>(index) + 1;
      if (next >= tokens.size() || tokens[next].is_option || tokens[next].is_end_marker) {
        throw ParseError{"argument " + action_name(option) + ": expected one argument"};
      }
      actions.emplace_back(option, args[next]);
      stop = index + 2;
    } else {
      actions.emplace_back(option, std::nullopt);
    }
    break;
  }
  for (const auto& [action, action_value] : actions) {
    take_action(parsed, action, action_value);
    if (parsed.help) return -1;
  }
  return stop;
}

// Left to right as argparse does: ambiguity is found while classifying every word, value
// errors as each option is taken, unrecognized words only at the end.
Parsed parse(const std::vector<std::string>& args) {
  std::vector<Token> tokens;
  bool after_marker = false;
  for (const std::string& word : args) {
    if (after_marker) {
      tokens.emplace_back();
    } else if (word == "--") {
      after_marker = true;
      tokens.push_back({false, true, -1, word, std::nullopt});
    } else {
      tokens.push_back(classify(word));
    }
  }
  Parsed parsed;
  std::vector<std::string> extras;
  for (int i = 0; i < static_cast<int>(args.size());) {
    if (!tokens[i].is_option) {
      extras.push_back(args[i++]);
      continue;
    }
    i = consume_option(args, tokens, i, parsed, extras);
    if (i < 0) return parsed;
  }
  if (!extras.empty()) {
    std::string joined;
    for (const std::string& e : extras) joined += (joined.empty() ? "" : " ") + e;
    throw ParseError{"unrecognized arguments: " + joined};
  }
  if (!parsed.out_of_range.empty()) throw ParseError{parsed.out_of_range};
  return parsed;
}

std::string help_text() {
  std::string text = std::string("usage: ") + kProg +
                     " [options]\n\nPer-GPU memory of transformer training or inference, computed as the classic\n"
                     "transformer_mem.py calculator does. Sizes are in GiB (printed as \"GB\").\n\noptions:\n";
  for (int i = 0; i < kOptionCount; ++i) {
    const Option& o = kOptions[i];
    const std::string metavar = o.kind != Kind::integer ? "" : i == find_option("zero_stage") ? " {0,1,2,3}" : " N";
    std::string names = std::string("  ") + o.strings[0] + metavar;
    if (o.strings[1]) names += std::string(", ") + o.strings[1] + metavar;
    std::string help = o.help;
    if (o.kind == Kind::integer) help += std::string(" (default ") + o.default_repr + ")";
    text += names.size() <= 22 ? names + std::string(24 - names.size(), ' ') : names + "\n" + std::string(24, ' ');
    text += help + "\n";
  }
  return text;
}

// The script's convert_params(): floor(log_1000(n)) picks the suffix, then repr(round(x, 2)).
std::string convert_params(std::int64_t params) {
  static const char* const kSuffixes[] = {"", "K", "M", "B", "T", "P", "E", "Z", "Y"};
  const auto n = static_cast<double>(params);
  int exponent = static_cast<int>(std::floor(std::log(n) / std::log(1000.0)));
  exponent = exponent < 0 ? 0 : (exponent > 8 ? 8 : exponent);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", n / std::pow(1000.0, exponent));
  const double rounded = std::strtod(buffer, nullptr);  // correctly rounded, half-even: as round()
  // repr(): the fewest decimals (at least one) that read back as the same double.
  for (int decimals = 1; decimals <= 17; ++decimals) {
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rounded);
    if (std::strtod(buffer, nullptr) == rounded) break;
  }
  const std::string text = buffer;
  return text + " " + kSuffixes[exponent];
}

std::string gib_line(const char* label, double bytes) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%s: %.2f GB\n", label, bytes / kTransformerMemBytesPerGib);
  return buffer;
}

TransformerMemInputs to_inputs(const Parsed& parsed) {
  TransformerMemInputs in;
  const auto value = [&](const char* dest, std::int64_t fallback) {
    const int i = find_option(dest);
    return parsed.given[i] ? parsed.ints[i] : fallback;
  };
  const auto flag = [&](const char* dest) { return parsed.given[find_option(dest)]; };
  in.params = static_cast<double>(value("params", 20'000'000'000));
  in.num_gpus = value("num_gpus", in.num_gpus);
  in.tensor_parallel_size = value("tensor_parallel_size", in.tensor_parallel_size);
  in.pipeline_parallel_size = value("pipeline_parallel_size", in.pipeline_parallel_size);
  in.partition_activations = flag("partition_activations");
  in.zero_stage = static_cast<int>(value("zero_stage", in.zero_stage));
  in.checkpoint_activations = flag("checkpoint_activations");
  in.batch_size_per_gpu = value("batch_size_per_gpu", in.batch_size_per_gpu);
  in.hidden_size = value("hidden_size", in.hidden_size);
  in.num_attention_heads = value("num_attention_heads", in.num_attention_heads);
  in.sequence_length = value("sequence_length", in.sequence_length);
  in.num_layers = value("num_layers", in.num_layers);
  in.fp32_model = flag("fp32_model");
  in.fp32_grads = flag("fp32_grads");
  in.zero_allgather_bucket_size = static_cast<double>(value("zero_allgather_bucket_size", 500'000'000));
  in.zero3_max_live_params = static_cast<double>(value("zero3_max_live_params", 1'000'000'000));
  in.misc_mem_gb = static_cast<double>(value("misc_mem_gb", 0));
  in.infer = flag("infer");
  return in;
}

// The script prints vars(args): a Python dict repr in declaration order.
std::string config_repr(const Parsed& parsed) {
  std::string text;
  for (int i = 1; i < kOptionCount; ++i) {
    const Option& o = kOptions[i];
    text += std::string(i > 1 ? ", " : "") + "'" + o.dest + "': ";
    if (!parsed.given[i])
      text += o.default_repr;
    else
      text += o.kind == Kind::flag ? "True" : std::to_string(parsed.ints[i]);
  }
  return "{" + text + "}";
}

}  // namespace

int run_transformer_mem(const std::vector<std::string>& args, std::string& out, std::string& err) {
  out = kExamples;
  err.clear();
  Parsed parsed;
  TransformerMemReport report;
  try {
    parsed = parse(args);
    if (parsed.help) {
      out += help_text();
      return 0;
    }
    report = transformer_mem_report(to_inputs(parsed));
  } catch (const ParseError& e) {
    err = std::string(kProg) + ": error: " + e.message + "\n";
    return 2;
  } catch (const TransformerMemInputError& e) {
    std::string message = e.what();
    if (message.rfind(e.field() + " ", 0) == 0) message.erase(0, e.field().size() + 1);
    err = std::string(kProg) + ": error: argument " + action_name(find_option(e.field())) + ": " + message + "\n";
    return 2;
  }
  const int params = find_option("params");
  out += "Calculating memory with training configuration: " + config_repr(parsed) + "\n\n";
  out += "Number of Parameters: " + convert_params(parsed.given[params] ? parsed.ints[params] : 20'000'000'000) + "\n";
  out += gib_line("Model Memory", report.model.bytes);
  if (report.infer) {
    out += gib_line("KV Cache Memory", report.kv_cache.bytes);
  } else {
    out += gib_line("Gradient Memory", report.gradients.bytes);
    out += gib_line("Activation Memory", report.activations.bytes);
    out += gib_line("Optimizer Memory", report.optimizer.bytes);
    out += gib_line("Communication Memory", report.communication.bytes);
  }
  out += gib_line("Miscellaneous Memory", report.miscellaneous.bytes);
  out += gib_line(report.infer ? "Total Memory Required for Inference" : "Total Memory Required for Training",
                  report.total.bytes);
  return 0;
}

}  // namespace fitcheck::cli
