// SPDX-License-Identifier: MIT
#include "format.hpp"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace fitcheck::cli {

std::string with_thousands(std::int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string rounded_count(std::int64_t value) {
  const double v = static_cast<double>(value);
  char buffer[32];
  if (v >= 1e12)
    std::snprintf(buffer, sizeof buffer, "%.2f T", v / 1e12);
  else if (v >= 1e9)
    std::snprintf(buffer, sizeof buffer, "%.2f B", v / 1e9);
  else if (v >= 1e6)
    std::snprintf(buffer, sizeof buffer, "%.2f M", v / 1e6);
  else if (v >= 1e3)
    std::snprintf(buffer, sizeof buffer, "%.2f K", v / 1e3);
  else
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
  return buffer;
}

double gibibytes(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(std::int64_t{1} << 30); }

std::string gib_and_gb(std::int64_t bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f GiB (%.2f GB)", gibibytes(bytes), static_cast<double>(bytes) / 1e9);
  return buffer;
}

namespace {

// The length of the well-formed UTF-8 sequence at `at` (overlongs, surrogates and values past
// U+10FFFF are ill-formed), or 0.
std::size_t sequence_length(std::string_view text, std::size_t at, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char c = byte(0);
  std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  code = length == 1 ? c : length == 2 ? (c & 0x1F) : length == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) >> 6) != 0x2) return 0;
    code = (code << 6) | (byte(k) & 0x3F);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

void write(std::FILE* stream, std::string_view text) {
  const std::string safe = terminal_safe(text);
  std::fwrite(safe.data(), 1, safe.size(), stream);
}

std::string formatted(const char* format, std::va_list arguments) {
  std::va_list copy;
  va_copy(copy, arguments);
  const int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (size <= 0) return {};
  std::vector<char> buffer(static_cast<std::size_t>(size) + 1);
  std::vsnprintf(buffer.data(), buffer.size(), format, arguments);
  return std::string(buffer.data(), static_cast<std::size_t>(size));
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char escaped[16];
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    const std::size_t length = sequence_length(text, i, code);
    if (length == 0 || (code < 0x20 && code != '\n' && code != '\t') || code == 0x7F) {
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += escaped;
      i += 1;
      continue;
    }
    if ((code >= 0x80 && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069)) {
      std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(code));
      out += escaped;
    } else {
      out.append(text, i, length);
    }
    i += length;
  }
  return out;
}

void print_c(const char* format, ...) {
  std::va_list arguments;
  va_start(arguments, format);
  write(stdout, formatted(format, arguments));
  va_end(arguments);
}

void print_to_c(std::FILE* stream, const char* format, ...) {
  std::va_list arguments;
  va_start(arguments, format);
  write(stream, formatted(format, arguments));
  va_end(arguments);
}

void put(std::string_view text, std::FILE* stream) { write(stream, text); }

}  // namespace fitcheck::cli
