// SPDX-License-Identifier: MIT
// The core's JSON reader (json_reader.hpp): the parser over json_lexer.hpp's tokens. Its states
// follow nlohmann/json 3.11.2 (include/nlohmann/detail/input/parser.hpp,
// `parser::sax_parse_internal`), which read these inputs before: the same error texts at the same
// byte, objects and arrays nested as there.
#include "support/json_reader.hpp"

#include <algorithm>
#include <cmath>

#include "support/json_lexer.hpp"

namespace fitcheck::detail {
namespace {

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

std::size_t json_nesting_excess(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return i;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace fitcheck::detail
