// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets: how a fuzz input is cut into options and config text, what a
// refusal must look like, and what every report must satisfy. A broken rule aborts, so that
// libFuzzer keeps the input as a crash.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/options.hpp"

namespace fitcheck::fuzz {

[[noreturn]] inline void fail(const std::string& what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n%.*s\n", what.c_str(),
               static_cast<int>(std::min<std::size_t>(detail.size(), 2000)), detail.data());
  std::abort();
}

// Input layout: option lines "key=value" up to a line "%%", then the config.json text. Without a
// "%%" line the whole input is the config and there are no options, so real config.json files
// are seeds as they are.
struct Input {
  OptionList options;
  std::string_view config;
};

inline Input split_input(std::string_view text) {
  Input input;
  input.config = text;
  const std::size_t marker = text.rfind("%%\n", 0) == 0 ? 0 : text.find("\n%%\n");
  if (marker == std::string_view::npos) return input;
  const std::size_t config_start = marker == 0 ? 3 : marker + 4;
  std::string_view head = text.substr(0, marker);
  input.config = text.substr(config_start);
  while (!head.empty()) {
    const std::size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    head = end == std::string_view::npos ? std::string_view() : head.substr(end + 1);
    if (line.empty()) continue;
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos)
      input.options.emplace_back(std::string(line), "");
    else
      input.options.emplace_back(std::string(line.substr(0, equals)), std::string(line.substr(equals + 1)));
  }
  return input;
}

inline bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
    i += length;
  }
  return true;
}

// A refusal must be one readable line: not empty, valid UTF-8 (it reaches JavaScript), bounded.
// A named field or option must appear in the message, so the message alone says what to fix.
// `dotted`: a config field path, named in the message by its last component.
inline void check_refusal(std::string_view message, std::string_view field, bool dotted = true) {
  if (message.empty()) fail("empty error message");
  if (!valid_utf8(message)) fail("error message is not valid UTF-8", message);
  if (message.size() > 4000) fail("error message longer than 4000 bytes", message);
  // A field or option spelled with control or non-ASCII bytes appears escaped (\xNN) in the message.
  const bool plain = std::all_of(field.begin(), field.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
  if (!field.empty() && plain) {
    const std::size_t dot = dotted ? field.rfind('.') : std::string_view::npos;
    // (long names are shortened in messages: their first 30 bytes must appear)
    const std::string_view last = (dot == std::string_view::npos ? field : field.substr(dot + 1)).substr(0, 30);
    if (message.find(last) == std::string_view::npos)
      fail("error message does not name its field '" + std::string(field) + "'", message);
  }
}

// Refusals of the training estimate and of the planner, some of which do not yet name their option
// in the message (docs/reliability.md, "Known limits"): non-empty, not much longer than the options
// they may quote, and valid UTF-8 whenever the options were (as they are from the page). The
// training options alone are held to check_refusal (fuzz_options.cpp).
inline void check_refusal_loose(std::string_view message, const OptionList& options) {
  if (message.empty()) fail("empty error message");
  bool options_utf8 = true;
  std::size_t option_bytes = 0;  // they may quote a whole option value
  for (const auto& [key, value] : options) {
    options_utf8 = options_utf8 && valid_utf8(key) && valid_utf8(value);
    option_bytes += key.size() + value.size();
  }
  if (message.size() > 4000 + option_bytes) fail("error message longer than its input", message);
  if (options_utf8 && !valid_utf8(message)) fail("error message is not valid UTF-8", message);
}

// Keys whose value may legitimately be null in a report (an answer that needs a GPU).
inline bool null_allowed(const std::string& key) {
  return key == "max_micro_batch_size" || key == "max_sequence_tokens";
}

// JavaScript reads these reports: every number must be finite and every integer exactly
// representable as a double (|n| <= 2^53), byte and parameter figures never negative except a
// signed headroom. FLOP counts are estimates, not exact counts: they may pass 2^53.
inline bool inexact_allowed(const std::string& key) { return key.find("flops") != std::string::npos; }

inline void check_json_value(const nlohmann::json& value, const std::string& key, std::string_view report) {
  constexpr std::int64_t exact_limit = std::int64_t{1} << 53;
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      for (auto it = value.begin(); it != value.end(); ++it) check_json_value(it.value(), it.key(), report);
      break;
    case nlohmann::json::value_t::array:
      for (const auto& item : value) check_json_value(item, key, report);
      break;
    case nlohmann::json::value_t::null:
      if (!null_allowed(key)) fail("null (NaN or Infinity) in report at key '" + key + "'", report);
      break;
    case nlohmann::json::value_t::number_float:
      if (!std::isfinite(value.get<double>())) fail("non-finite number at key '" + key + "'", report);
      if (value.get<double>() < 0 && key != "headroom_bytes") fail("negative number at key '" + key + "'", report);
      break;
    case nlohmann::json::value_t::number_integer: {
      const auto n = value.get<std::int64_t>();
      if ((n > exact_limit || n < -exact_limit) && !inexact_allowed(key))
        fail("integer beyond 2^53 at key '" + key + "'", report);
      if (n < 0 && key != "headroom_bytes") fail("negative integer at key '" + key + "'", report);
      break;
    }
    case nlohmann::json::value_t::number_unsigned:
      if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(exact_limit) && !inexact_allowed(key))
        fail("integer beyond 2^53 at key '" + key + "'", report);
      break;
    case nlohmann::json::value_t::string:
      if (!valid_utf8(value.get_ref<const std::string&>()))
        fail("string is not valid UTF-8 at key '" + key + "'", report);
      break;
    default:
      break;
  }
}

inline nlohmann::json check_report(const std::string& report) {
  if (!valid_utf8(report)) fail("report is not valid UTF-8", report);
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(report);
  } catch (const std::exception& error) {
    fail(std::string("report is not JSON: ") + error.what(), report);
  }
  if (!parsed.is_object()) fail("report is not a JSON object", report);
  check_json_value(parsed, "", report);
  return parsed;
}

// The checked report of `compute()`, or nothing when it refused readably: a config error naming its
// field, an option refusal (naming its option when `strict_options`, as the inference and serving
// options do; else under the loose rule of the training options), a workload beyond 64 bits. Any
// other exception aborts, naming `entry_point`.
template <typename Compute>
std::optional<nlohmann::json> report_unless_refused(const char* entry_point, Compute&& compute, const Input& input,
                                                    std::string_view text, bool strict_options = false) {
  std::string report;
  try {
    report = compute();
  } catch (const ConfigError& error) {
    check_refusal(error.what(), error.field());
    return std::nullopt;
  } catch (const OptionError& error) {
    if (strict_options)
      check_refusal(error.what(), error.option(), false);
    else
      check_refusal_loose(error.what(), input.options);  // see docs/reliability.md, "Known limits"
    return std::nullopt;
  } catch (const std::overflow_error& error) {
    check_refusal(error.what(), "");
    return std::nullopt;
  } catch (const std::exception& error) {
    fail(std::string(entry_point) + " threw an unnamed error: " + error.what(), text);
  }
  return check_report(report);
}

// True when a JSON array holds one value twice (list options keep each item once).
inline bool has_duplicates(const nlohmann::json& array) {
  if (!array.is_array()) return false;
  for (std::size_t i = 0; i < array.size(); ++i)
    for (std::size_t k = i + 1; k < array.size(); ++k)
      if (array[i] == array[k]) return true;
  return false;
}

// Sum of the "bytes" of report["terms"] must be the total (the table adds up).
inline void check_terms_add_up(const nlohmann::json& report, const char* total_key, std::string_view text) {
  if (!report.contains("terms") || !report.contains(total_key)) return;
  std::int64_t sum = 0;
  for (const auto& term : report["terms"]) sum += term["bytes"].get<std::int64_t>();
  if (sum != report[total_key].get<std::int64_t>()) fail(std::string("terms do not add up to ") + total_key, text);
}

}  // namespace fitcheck::fuzz
