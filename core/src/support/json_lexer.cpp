// SPDX-License-Identifier: MIT
// The JSON reader's lexer (json_lexer.hpp), as nlohmann/json 3.11.2's `lexer::scan` reads.
#include "support/json_lexer.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace fitcheck::detail {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

// The abbreviations of the control characters U+0000..U+001F, as the lexer's messages name them.
constexpr const char* kControlNames[32] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT",  "LF",
                                           "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
                                           "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};

bool is_digit(int c) { return c >= '0' && c <= '9'; }

}  // namespace

const char* token_name(Token token) {
  switch (token) {
    case Token::uninitialized:
      return "<uninitialized>";
    case Token::literal_true:
      return "true literal";
    case Token::literal_false:
      return "false literal";
    case Token::literal_null:
      return "null literal";
    case Token::value_string:
      return "string literal";
    case Token::value_unsigned:
    case Token::value_integer:
    case Token::value_float:
      return "number literal";
    case Token::begin_array:
      return "'['";
    case Token::begin_object:
      return "'{'";
    case Token::end_array:
      return "']'";
    case Token::end_object:
      return "'}'";
    case Token::name_separator:
      return "':'";
    case Token::value_separator:
      return "','";
    case Token::parse_error:
      return "<parse error>";
    case Token::end_of_input:
      return "end of input";
    case Token::literal_or_value:
      return "'[', '{', or a literal";
  }
  return "unknown token";
}

std::string Lexer::token_string() const {
  const std::size_t end = std::min(read_, text_.size());
  std::string result;
  for (std::size_t i = token_start_; i < end; ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if (c <= 0x1F) {
      result += "<U+00";
      result += kHex[c >> 4];
      result += kHex[c & 0xF];
      result += '>';
    } else {
      result += static_cast<char>(c);
    }
  }
  return result;
}

int Lexer::codepoint() {
  int value = 0;
  for (const int shift : {12, 8, 4, 0}) {
    get();
    if (current_ >= '0' && current_ <= '9')
      value += (current_ - '0') << shift;
    else if (current_ >= 'A' && current_ <= 'F')
      value += (current_ - 'A' + 10) << shift;
    else if (current_ >= 'a' && current_ <= 'f')
      value += (current_ - 'a' + 10) << shift;
    else
      return -1;
  }
  return value;
}

bool Lexer::next_bytes_in_range(std::initializer_list<int> ranges) {
  add(current_);
  for (auto range = ranges.begin(); range != ranges.end(); range += 2) {
    get();
    if (current_ < range[0] || current_ > range[1]) {
      error_ = "invalid string: ill-formed UTF-8 byte";
      return false;
    }
    add(current_);
  }
  return true;
}

Token Lexer::scan_literal(std::string_view literal, Token token) {
  for (std::size_t i = 1; i < literal.size(); ++i)
    if (get() != static_cast<unsigned char>(literal[i])) return fail("invalid literal");
  return token;
}

Token Lexer::scan_string() {
  reset();
  while (true) {
    const int c = get();
    if (c == kEnd) return fail("invalid string: missing closing quote");
    if (c == '"') return Token::value_string;
    if (c == '\\') {
      switch (get()) {
        case '"':
          add('"');
          break;
        case '\\':
          add('\\');
          break;
        case '/':
          add('/');
          break;
        case 'b':
          add('\b');
          break;
        case 'f':
          add('\f');
          break;
        case 'n':
          add('\n');
          break;
        case 'r':
          add('\r');
          break;
        case 't':
          add('\t');
          break;
        case 'u': {
          const int first = codepoint();
          int point = first;
          if (first == -1) return fail("invalid string: '\\u' must be followed by 4 hex digits");
          if (first >= 0xD800 && first <= 0xDBFF) {
            if (get() == '\\' && get() == 'u') {
              const int second = codepoint();
              if (second == -1) return fail("invalid string: '\\u' must be followed by 4 hex digits");
              if (second < 0xDC00 || second > 0xDFFF)
                return fail("invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
              point = ((first - 0xD800) << 10) + (second - 0xDC00) + 0x10000;
            } else {
              return fail("invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
            }
          } else if (first >= 0xDC00 && first <= 0xDFFF) {
            return fail("invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF");
          }
          if (point < 0x80) {
            add(point);
          } else if (point <= 0x7FF) {
            add(0xC0 | (point >> 6));
            add(0x80 | (point & 0x3F));
          } else if (point <= 0xFFFF) {
            add(0xE0 | (point >> 12));
            add(0x80 | ((point >> 6) & 0x3F));
            add(0x80 | (point & 0x3F));
          } else {
            add(0xF0 | (point >> 18));
            add(0x80 | ((point >> 12) & 0x3F));
            add(0x80 | ((point >> 6) & 0x3F));
            add(0x80 | (point & 0x3F));
          }
          break;
        }
        default:
          return fail("invalid string: forbidden character after backslash");
      }
      continue;
    }
    if (c <= 0x1F) {
      std::string digits = "00";
      digits += kHex[c >> 4];
      digits += kHex[c & 0xF];
      std::string message = "invalid string: control character U+" + digits + " (" + kControlNames[c] +
                            ") must be escaped to \\u" + digits;
      const char* shorthand = c == 0x08   ? "b"
                              : c == 0x09 ? "t"
                              : c == 0x0A ? "n"
                              : c == 0x0C ? "f"
                              : c == 0x0D ? "r"
                                          : "";
      if (*shorthand) message += std::string(" or \\") + shorthand;
      return fail(std::move(message));
    }
    if (c <= 0x7F) {
      add(c);
      continue;
    }
    // UTF-8: the well-formed sequences of Unicode's table 3-7.
    bool well_formed = false;
    if (c >= 0xC2 && c <= 0xDF)
      well_formed = next_bytes_in_range({0x80, 0xBF});
    else if (c == 0xE0)
      well_formed = next_bytes_in_range({0xA0, 0xBF, 0x80, 0xBF});
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
      well_formed = next_bytes_in_range({0x80, 0xBF, 0x80, 0xBF});
    else if (c == 0xED)
      well_formed = next_bytes_in_range({0x80, 0x9F, 0x80, 0xBF});
    else if (c == 0xF0)
      well_formed = next_bytes_in_range({0x90, 0xBF, 0x80, 0xBF, 0x80, 0xBF});
    else if (c >= 0xF1 && c <= 0xF3)
      well_formed = next_bytes_in_range({0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF});
    else if (c == 0xF4)
      well_formed = next_bytes_in_range({0x80, 0x8F, 0x80, 0xBF, 0x80, 0xBF});
    else
      error_ = "invalid string: ill-formed UTF-8 byte";
    if (!well_formed) return Token::parse_error;
  }
}

Token Lexer::scan_number() {
  reset();
  Token type = Token::value_unsigned;
  add(current_);
  int c = current_;
  if (c == '-') {
    type = Token::value_integer;
    c = get();
    if (!is_digit(c)) return fail("invalid number; expected digit after '-'");
    add(c);
  }
  // The integer part: one 0, or digits not starting with 0.
  if (c != '0')
    while (is_digit(get())) add(current_);
  else
    get();
  if (current_ == '.') {
    type = Token::value_float;
    add('.');
    if (!is_digit(get())) return fail("invalid number; expected digit after '.'");
    add(current_);
    while (is_digit(get())) add(current_);
  }
  if (current_ == 'e' || current_ == 'E') {
    type = Token::value_float;
    add(current_);
    get();
    if (current_ == '+' || current_ == '-') {
      add(current_);
      if (!is_digit(get())) return fail("invalid number; expected digit after exponent sign");
    } else if (!is_digit(current_)) {
      return fail("invalid number; expected '+', '-', or digit after exponent");
    }
    add(current_);
    while (is_digit(get())) add(current_);
  }
  unget();
  errno = 0;
  if (type == Token::value_unsigned) {
    const unsigned long long value = std::strtoull(buffer.c_str(), nullptr, 10);
    if (errno == 0) {
      value_unsigned = value;
      return Token::value_unsigned;
    }
  } else if (type == Token::value_integer) {
    const long long value = std::strtoll(buffer.c_str(), nullptr, 10);
    if (errno == 0) {
      value_integer = value;
      return Token::value_integer;
    }
  }
  value_float = std::strtod(buffer.c_str(), nullptr);
  return Token::value_float;
}

Token Lexer::scan() {
  if (read_ == 0) {  // a byte order mark, at the very start only
    if (get() == 0xEF) {
      if (!(get() == 0xBB && get() == 0xBF)) return fail("invalid BOM; must be 0xEF 0xBB 0xBF if given");
    } else {
      unget();
    }
  }
  do get();
  while (current_ == ' ' || current_ == '\t' || current_ == '\n' || current_ == '\r');
  switch (current_) {
    case '[':
      return Token::begin_array;
    case ']':
      return Token::end_array;
    case '{':
      return Token::begin_object;
    case '}':
      return Token::end_object;
    case ':':
      return Token::name_separator;
    case ',':
      return Token::value_separator;
    case 't':
      return scan_literal("true", Token::literal_true);
    case 'f':
      return scan_literal("false", Token::literal_false);
    case 'n':
      return scan_literal("null", Token::literal_null);
    case '"':
      return scan_string();
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      return scan_number();
    case '\0':
    case kEnd:
      return Token::end_of_input;
    default:
      return fail("invalid literal");
  }
}

}  // namespace fitcheck::detail
