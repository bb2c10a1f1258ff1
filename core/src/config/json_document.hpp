// SPDX-License-Identifier: MIT
// The parsed config.json, shared by the parser (json_document.cpp) and the typed field access
// (config_fields.cpp): the two files that read JSON (the reports write theirs in support/).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "support/json_reader.hpp"

namespace fitcheck::detail {

using Json = JsonValue;

struct JsonDocument {
  Json value;
  bool has_nonfinite_literals = false;
  // Dotted paths of keys written twice in one object with different values -> "first, then second".
  std::map<std::string, std::string> duplicate_keys;
};

// Python's json module writes NaN, Infinity and -Infinity, and real configs carry them (Nemotron-H
// time_step_limit). They are not JSON; the parser turns each into a string with this marker so
// that a field fitcheck never reads passes, and a field it does read fails with its name.
inline constexpr std::string_view nonfinite_marker = "\x01nonfinite:";
bool is_nonfinite(const Json& value);

// For messages: "an integer", "a string", ...; and the value itself, shortened and printable.
std::string type_name(const Json& value);
std::string show(const Json& value);

}  // namespace fitcheck::detail
