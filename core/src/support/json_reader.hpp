// SPDX-License-Identifier: MIT
// The core's JSON reader: parses text (config.json, safetensors headers and their index) into a
// document of plain structs. It reads as nlohmann::json 3.11's `json::parse` read these inputs
// before it, so that every report and refusal stays the same: integers kept as unsigned or signed
// 64-bit values where they fit (else a double, as strtod reads the literal), object members in
// byte order of their keys with the last of a repeated key kept, and a syntax error described with
// the same words and at the same byte. Only the text a caller gives is read: no comments, no
// NaN/Infinity (config.json's reader replaces those first, config/json_document.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fitcheck::detail {

struct JsonMember;

struct JsonValue {
  enum class Kind : std::uint8_t { null, boolean, signed_integer, unsigned_integer, floating, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::int64_t signed_integer = 0;     // a negative literal that fits (or -0)
  std::uint64_t unsigned_integer = 0;  // a literal without '-' that fits
  double floating = 0;                 // a literal with a fraction or exponent, or too large for 64 bits
  std::string text;                    // a string, its escapes decoded
  std::vector<JsonValue> items;        // an array
  std::vector<JsonMember> members;     // an object: sorted by key (bytes), each key once

  bool is_null() const { return kind == Kind::null; }
  bool is_boolean() const { return kind == Kind::boolean; }
  bool is_string() const { return kind == Kind::string; }
  bool is_array() const { return kind == Kind::array; }
  bool is_object() const { return kind == Kind::object; }
  bool is_number() const {
    return kind == Kind::signed_integer || kind == Kind::unsigned_integer || kind == Kind::floating;
  }
  // A literal without fraction and exponent that fits in 64 bits (signed or unsigned).
  bool is_whole() const { return kind == Kind::signed_integer || kind == Kind::unsigned_integer; }
  // The number as a double (as nlohmann's get<double>()), and as a signed 64-bit integer (the
  // unsigned value's bits for one above INT64_MAX, as get<std::int64_t>()).
  double as_double() const;
  std::int64_t as_int64() const;

  // The member `key` of an object, or nullptr.
  const JsonValue* find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  // Sets the member `key` of an object (added in key order, or replaced).
  void set(std::string_view key, JsonValue value);

  static JsonValue integer(std::int64_t value);
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

// A syntax error: `byte` is the 1-based position of the last byte read (0 before any), `what` the
// description without a position ("syntax error while parsing value - invalid literal; last read:
// 'tru'", as nlohmann's parse_error.101 after its "at line, column: ").
struct JsonSyntaxError : std::runtime_error {
  JsonSyntaxError(std::size_t at_byte, const std::string& description)
      : std::runtime_error(description), byte(at_byte) {}
  std::size_t byte;
};
// A number literal beyond a double's range (1e400): "number overflow parsing '1e400'".
struct JsonNumberOverflow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole text as one value; anything after it but whitespace is a syntax error. The callers
// bound the nesting before (the reader's own stack is a vector, not the call stack).
JsonValue parse_json(std::string_view text);

// The offset of the first '{' or '[' (outside strings) that opens a level deeper than `max_depth`,
// or std::string_view::npos: the bound callers check before parse_json.
std::size_t json_nesting_excess(std::string_view text, std::size_t max_depth);

// The compact text of a value, as nlohmann's dump(): keys in order, shortest round-trip doubles
// ("12.0", "1e+20").
std::string dump_json(const JsonValue& value);

// "string", "number", "array", "object", "boolean", "null" (nlohmann's type_name()).
const char* json_type_name(const JsonValue& value);

}  // namespace fitcheck::detail
