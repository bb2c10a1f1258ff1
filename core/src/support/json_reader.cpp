// SPDX-License-Identifier: MIT
// The core's JSON reader (json_reader.hpp). The lexer and the parser's states follow nlohmann/json
// 3.11.2 (include/nlohmann/detail/input/lexer.hpp and parser.hpp, `lexer::scan` and
// `parser::sax_parse_internal`), which read these inputs before: the same tokens, the same error
// texts, the same byte of the error, the same numbers (strtoull, strtoll, then strtod).
#include "support/json_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace fitcheck::detail {
namespace {

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

constexpr int kEnd = -1;
constexpr char kHex[] = "0123456789ABCDEF";

// The abbreviations of the control characters U+0000..U+001F, as the lexer's messages name them.
constexpr const char* kControlNames[32] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT",  "LF",
                                           "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
                                           "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};

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

bool is_digit(int c) { return c >= '0' && c <= '9'; }

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

// Members in key order, the last of a repeated key kept (as std::map's operator[] assigned them).
void order_members(std::vector<JsonMember>& members) {
  std::stable_sort(members.begin(), members.end(),
                   [](const JsonMember& a, const JsonMember& b) { return a.key < b.key; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i + 1 < members.size() && members[i + 1].key == members[i].key) continue;
    if (kept != i) members[kept] = std::move(members[i]);
    ++kept;
  }
  members.resize(kept);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text) { next(); }
  JsonValue parse();

 private:
  Token next() { return last_ = lexer_.scan(); }
  [[noreturn]] void fail(Token expected, const char* context) const;
  // Puts a value where the parser is: the top, an array's next item, or the member just named.
  JsonValue* place(JsonValue value);
  void name_member() {
    JsonValue& object = *open_.back();
    object.members.push_back(JsonMember{std::move(lexer_.buffer), JsonValue()});
    lexer_.buffer.clear();
  }
  void close() {
    if (open_.back()->is_object()) order_members(open_.back()->members);
    open_.pop_back();
  }

  Lexer lexer_;
  Token last_ = Token::uninitialized;
  JsonValue root_;
  std::vector<JsonValue*> open_;  // the arrays and objects being read, innermost last
};

void Parser::fail(Token expected, const char* context) const {
  std::string message = "syntax error while parsing ";
  message += context;
  message += " - ";
  if (last_ == Token::parse_error)
    message += lexer_.error_message() + "; last read: '" + lexer_.token_string() + "'";
  else
    message += std::string("unexpected ") + token_name(last_);
  if (expected != Token::uninitialized) message += std::string("; expected ") + token_name(expected);
  throw JsonSyntaxError(lexer_.position(), message);
}

JsonValue* Parser::place(JsonValue value) {
  if (open_.empty()) {
    root_ = std::move(value);
    return &root_;
  }
  JsonValue& parent = *open_.back();
  if (parent.is_array()) {
    parent.items.push_back(std::move(value));
    return &parent.items.back();
  }
  parent.members.back().value = std::move(value);
  return &parent.members.back().value;
}

JsonValue Parser::parse() {
  std::vector<bool> in_array;  // per open container: an array (true) or an object
  bool closed = false;         // a container just ended: go on with its parent
  while (true) {
    if (!closed) {
      JsonValue value;
      switch (last_) {
        case Token::begin_object: {
          value.kind = JsonValue::Kind::object;
          open_.push_back(place(std::move(value)));
          if (next() == Token::end_object) {
            close();
            break;
          }
          if (last_ != Token::value_string) fail(Token::value_string, "object key");
          name_member();
          if (next() != Token::name_separator) fail(Token::name_separator, "object separator");
          in_array.push_back(false);
          next();
          continue;
        }
        case Token::begin_array: {
          value.kind = JsonValue::Kind::array;
          open_.push_back(place(std::move(value)));
          if (next() == Token::end_array) {
            close();
            break;
          }
          in_array.push_back(true);
          continue;
        }
        case Token::value_float:
          if (!std::isfinite(lexer_.value_float))
            throw JsonNumberOverflow("number overflow parsing '" + lexer_.token_string() + "'");
          value.kind = JsonValue::Kind::floating;
          value.floating = lexer_.value_float;
          place(std::move(value));
          break;
        case Token::literal_false:
        case Token::literal_true:
          value.kind = JsonValue::Kind::boolean;
          value.boolean = last_ == Token::literal_true;
          place(std::move(value));
          break;
        case Token::literal_null:
          place(std::move(value));
          break;
        case Token::value_integer:
          value.kind = JsonValue::Kind::signed_integer;
          value.signed_integer = lexer_.value_integer;
          place(std::move(value));
          break;
        case Token::value_unsigned:
          value.kind = JsonValue::Kind::unsigned_integer;
          value.unsigned_integer = lexer_.value_unsigned;
          place(std::move(value));
          break;
        case Token::value_string:
          value.kind = JsonValue::Kind::string;
          value.text = std::move(lexer_.buffer);
          lexer_.buffer.clear();
          place(std::move(value));
          break;
        case Token::parse_error:
          fail(Token::uninitialized, "value");
        default:
          fail(Token::literal_or_value, "value");
      }
    } else {
      closed = false;
    }
    if (in_array.empty()) break;
    if (in_array.back()) {
      if (next() == Token::value_separator) {
        next();
        continue;
      }
      if (last_ != Token::end_array) fail(Token::end_array, "array");
    } else {
      if (next() == Token::value_separator) {
        if (next() != Token::value_string) fail(Token::value_string, "object key");
        name_member();
        if (next() != Token::name_separator) fail(Token::name_separator, "object separator");
        next();
        continue;
      }
      if (last_ != Token::end_object) fail(Token::end_object, "object");
    }
    close();
    in_array.pop_back();
    closed = true;
  }
  if (next() != Token::end_of_input) fail(Token::end_of_input, "value");
  return std::move(root_);
}

}  // namespace

JsonValue parse_json(std::string_view text) { return Parser(text).parse(); }

}  // namespace fitcheck::detail
