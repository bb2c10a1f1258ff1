// SPDX-License-Identifier: MIT
// The reports' JSON writer: appends members and elements to one string, in the order they are
// written, through a few out-of-line calls. The reports used to build nlohmann::ordered_json trees
// and dump them; every member then cost an inlined tree insertion (most of the report code in the
// page's WebAssembly). The text is the same as nlohmann's dump(): shortest round-trip doubles with
// ".0" on whole numbers (nlohmann's own to_chars), the same escapes. A NaN or an infinity is refused
// (std::domain_error): no report carries one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace fitcheck::detail {

class JsonWriter {
 public:
  // Objects and arrays: with a key inside an object, without one inside an array or at the top.
  void begin_object();
  void begin_object(std::string_view key);
  void end_object();
  void begin_array();
  void begin_array(std::string_view key);
  void end_array();

  // One member of the open object.
  void field(std::string_view key, std::string_view text);
  void field(std::string_view key, const char* text) { field(key, std::string_view(text)); }
  void field(std::string_view key, std::nullptr_t);
  void field(std::string_view key, const std::vector<std::string>& texts);
  void field(std::string_view key, const std::vector<std::int64_t>& numbers);
  template <typename Number>
  requires std::is_arithmetic_v<Number>
  void field(std::string_view key, Number number) {
    write_key(key);
    write_number(number);
  }

  // One element of the open array (or the whole document).
  void element(std::string_view text);
  void element(const char* text) { element(std::string_view(text)); }
  void element(std::nullptr_t);
  template <typename Number>
  requires std::is_arithmetic_v<Number>
  void element(Number number) {
    separate();
    write_number(number);
  }

  // The document; the writer is empty afterwards.
  std::string take();

 private:
  template <typename Number>
  void write_number(Number number) {
    if constexpr (std::is_same_v<Number, bool>)
      write_bool(number);
    else if constexpr (std::is_floating_point_v<Number>)
      write_double(static_cast<double>(number));
    else if constexpr (std::is_signed_v<Number>)
      write_signed(static_cast<std::int64_t>(number));
    else
      write_unsigned(static_cast<std::uint64_t>(number));
  }
  void separate();
  void write_key(std::string_view key);
  void write_string(std::string_view text);
  void write_bool(bool value);
  void write_signed(std::int64_t value);
  void write_unsigned(std::uint64_t value);
  void write_double(double value);

  std::string out_;
  bool first_in_container_ = true;
};

}  // namespace fitcheck::detail
