// SPDX-License-Identifier: MIT
// The CLI's output layer: number formatting for its tables, and the one escaping rule every byte it
// prints goes through (reports, JSON, help and error messages alike).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace fitcheck::cli {

std::string with_thousands(std::int64_t value);  // 8030261248 -> "8,030,261,248"
std::string rounded_count(std::int64_t value);   // 8030261248 -> "8.03 B"
std::string gib_and_gb(std::int64_t bytes);      // "14.96 GiB (16.06 GB)"
double gibibytes(std::int64_t bytes);            // bytes / 2^30

// The escaping rule for terminal output: text from a config, a path or an option can carry
// terminal escape sequences (ESC [2J, OSC 52 clipboard writes). Kept: printable UTF-8, newline,
// tab. Written escaped: other C0 control bytes and DEL as \xNN, each byte of invalid UTF-8 as
// \xNN, C1 controls (U+0080-U+009F) and the bidirectional overrides and isolates (U+202A-U+202E,
// U+2066-U+2069) as \uNNNN. Inside a JSON string a \uNNNN escape is the same character, so the
// --json documents stay equal, as JSON, to the core's.
std::string terminal_safe(std::string_view text);

// printf and fputs through terminal_safe: the only ways the CLI writes to stdout and stderr.
void print_c(const char* format, ...) __attribute__((format(printf, 1, 2)));
void print_to_c(std::FILE* stream, const char* format, ...) __attribute__((format(printf, 2, 3)));
void put(std::string_view text, std::FILE* stream);

namespace output {
// A std::string argument is escaped whole before printf sees it, so a NUL inside (a config's
// "llama\u0000evil") is shown as \x00 rather than ending the text; other arguments pass as they are.
inline std::string shown(const std::string& text) { return terminal_safe(text); }
template <typename T>
const T& shown(const T& value) {
  return value;
}
inline const char* raw(const std::string& text) { return text.c_str(); }
template <typename T>
const T& raw(const T& value) {
  return value;
}
}  // namespace output

// printf-like; strings are passed as std::string (not c_str()), numbers and literals as they are.
template <typename... Args>
void print(const char* format, const Args&... args) {
  print_c(format, output::raw(output::shown(args))...);
}
template <typename... Args>
void print_to(std::FILE* stream, const char* format, const Args&... args) {
  print_to_c(stream, format, output::raw(output::shown(args))...);
}

}  // namespace fitcheck::cli
