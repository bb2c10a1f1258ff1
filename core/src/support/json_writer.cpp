// SPDX-License-Identifier: MIT
#include "support/json_writer.hpp"

#include <stdexcept>

#include <array>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace fitcheck::detail {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[at], or 0 (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  return length;
}

}  // namespace

void JsonWriter::separate() {
  if (!first_in_container_) out_ += ',';
  first_in_container_ = false;
}

void JsonWriter::write_key(std::string_view key) {
  separate();
  write_string(key);
  out_ += ':';
}

void JsonWriter::begin_object() {
  separate();
  out_ += '{';
  first_in_container_ = true;
}

void JsonWriter::begin_object(std::string_view key) {
  write_key(key);
  out_ += '{';
  first_in_container_ = true;
}

void JsonWriter::end_object() {
  out_ += '}';
  first_in_container_ = false;
}

void JsonWriter::begin_array() {
  separate();
  out_ += '[';
  first_in_container_ = true;
}

void JsonWriter::begin_array(std::string_view key) {
  write_key(key);
  out_ += '[';
  first_in_container_ = true;
}

void JsonWriter::end_array() {
  out_ += ']';
  first_in_container_ = false;
}

void JsonWriter::field(std::string_view key, std::string_view text) {
  write_key(key);
  write_string(text);
}

void JsonWriter::field(std::string_view key, std::nullptr_t) {
  write_key(key);
  out_ += "null";
}

void JsonWriter::field(std::string_view key, const std::vector<std::string>& texts) {
  begin_array(key);
  for (const auto& text : texts) element(text);
  end_array();
}

void JsonWriter::field(std::string_view key, const std::vector<std::int64_t>& numbers) {
  begin_array(key);
  for (const auto number : numbers) element(number);
  end_array();
}

void JsonWriter::element(std::nullptr_t) {
  separate();
  out_ += "null";
}

void JsonWriter::element(std::string_view text) {
  separate();
  write_string(text);
}

std::string JsonWriter::take() {
  first_in_container_ = true;
  return std::move(out_);
}

// RFC 8259 escapes, as nlohmann's dump() writes them (short forms where JSON has one, lowercase
// \u00xx for other control characters, UTF-8 passed through). A byte that starts no well-formed
// UTF-8 sequence becomes U+FFFD instead of failing the whole report.
void JsonWriter::write_string(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out_ += '"';
  for (std::size_t at = 0; at < text.size();) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, at);
      if (length == 0) {
        out_ += "\xEF\xBF\xBD";
        ++at;
      } else {
        out_.append(text, at, length);
        at += length;
      }
      continue;
    }
    switch (byte) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\b':
        out_ += "\\b";
        break;
      case '\f':
        out_ += "\\f";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\r':
        out_ += "\\r";
        break;
      case '\t':
        out_ += "\\t";
        break;
      default:
        if (byte < 0x20) {
          out_ += "\\u00";
          out_ += kHex[byte >> 4];
          out_ += kHex[byte & 0xF];
        } else {
          out_ += static_cast<char>(byte);
        }
    }
    ++at;
  }
  out_ += '"';
}

void JsonWriter::write_bool(bool value) { out_ += value ? "true" : "false"; }

void JsonWriter::write_signed(std::int64_t value) {
  std::array<char, 24> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  out_.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

void JsonWriter::write_unsigned(std::uint64_t value) {
  std::array<char, 24> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  out_.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

// Every figure a report gives is finite (docs/reliability.md): the option parsers bound what could
// make one infinite, and this refuses the report rather than writing NaN or an infinity as null.
void JsonWriter::write_double(double value) {
  if (!std::isfinite(value))
    throw std::domain_error(
        "fitcheck computed a figure that is not a finite number from these inputs; "
        "this is a bug in fitcheck, please report the config and options");
  std::array<char, 64> buffer{};
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out_.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

}  // namespace fitcheck::detail
