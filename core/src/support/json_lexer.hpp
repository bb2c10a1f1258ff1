// SPDX-License-Identifier: MIT
// The JSON reader's lexer (json_reader.cpp's parser reads its tokens): nlohmann/json 3.11.2's
// `lexer::scan` (include/nlohmann/detail/input/lexer.hpp) with the same tokens, error texts and
// positions, and the same numbers (strtoull, strtoll, then strtod).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace fitcheck::detail {

enum class Token : std::uint8_t {
  uninitialized,
  literal_true,
  literal_false,
  literal_null,
  value_string,
  value_unsigned,
  value_integer,
  value_float,
  begin_array,
  begin_object,
  end_array,
  end_object,
  name_separator,
  value_separator,
  parse_error,
  end_of_input,
  literal_or_value
};

// The token's name in the parser's messages ("unexpected '}'; expected ...").
const char* token_name(Token token);

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Token scan();
  // The 1-based position of the last byte read (the end of input counts as one byte per read).
  std::size_t position() const { return read_; }
  // The bytes read since the current string or number began (from the start before the first),
  // control bytes written <U+001F>.
  std::string token_string() const;
  const std::string& error_message() const { return error_; }

  std::string buffer;  // the string's decoded bytes, or the number's text
  std::int64_t value_integer = 0;
  std::uint64_t value_unsigned = 0;
  double value_float = 0;

 private:
  static constexpr int kEnd = -1;  // get()'s answer past the last byte
  int get() {
    current_ = read_ < text_.size() ? static_cast<unsigned char>(text_[read_]) : kEnd;
    ++read_;
    return current_;
  }
  void unget() { --read_; }  // the next get() reads the same byte again
  void reset() {
    buffer.clear();
    token_start_ = read_ - 1;
  }
  void add(int c) { buffer.push_back(static_cast<char>(c)); }
  Token fail(std::string message) {
    error_ = std::move(message);
    return Token::parse_error;
  }
  int codepoint();
  bool next_bytes_in_range(std::initializer_list<int> ranges);
  Token scan_literal(std::string_view literal, Token token);
  Token scan_string();
  Token scan_number();

  std::string_view text_;
  std::size_t read_ = 0;
  std::size_t token_start_ = 0;
  int current_ = kEnd;
  std::string error_;
};

}  // namespace fitcheck::detail
