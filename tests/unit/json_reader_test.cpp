// SPDX-License-Identifier: MIT
// The core's JSON reader (support/json_reader.hpp): values, escapes, numbers and syntax errors
// written out by hand from RFC 8259 and from nlohmann/json 3.11.2's lexer and parser, which read
// config.json before it; then the same texts, every bundled config and thousands of damaged copies
// of them read by both, which must give the same document or the same error at the same byte.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "config/config_fields.hpp"
#include "config/json_document.hpp"
#include "fitcheck/config.hpp"
#include "support/json_reader.hpp"

using fitcheck::detail::dump_json;
using fitcheck::detail::JsonNumberOverflow;
using fitcheck::detail::JsonSyntaxError;
using fitcheck::detail::JsonValue;
using fitcheck::detail::parse_json;
using Kind = JsonValue::Kind;

namespace {

// "ok: <dump>", "error at <byte>: <description>" or "overflow: <description>".
std::string read_with_core(std::string_view text) {
  try {
    return "ok: " + dump_json(parse_json(text));
  } catch (const JsonSyntaxError& error) {
    return "error at " + std::to_string(error.byte) + ": " + error.what();
  } catch (const JsonNumberOverflow& error) {
    return std::string("overflow: ") + error.what();
  }
}

std::string read_with_nlohmann(std::string_view text) {
  try {
    return "ok: " + nlohmann::json::parse(text).dump();
  } catch (const nlohmann::json::parse_error& error) {
    const std::string what = error.what();
    return "error at " + std::to_string(error.byte) + ": " + what.substr(what.find(": ", what.find("parse error")) + 2);
  } catch (const nlohmann::json::out_of_range& error) {
    const std::string what = error.what();
    return "overflow: " + what.substr(what.find("] ") + 2);
  }
}

std::string syntax_error(std::string_view text) {
  try {
    parse_json(text);
  } catch (const JsonSyntaxError& error) {
    return std::to_string(error.byte) + ": " + error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("JSON reader: scalars, arrays and objects") {
  const JsonValue value = parse_json(R"( {"b": [true, false, null], "a": "x", "c": {}} )");
  REQUIRE(value.is_object());
  REQUIRE(value.members.size() == 3);
  CHECK(value.members[0].key == "a");  // members in key order, as nlohmann::json's std::map
  CHECK(value.members[1].key == "b");
  CHECK(value.members[2].key == "c");
  CHECK(value.find("a")->text == "x");
  const JsonValue& list = *value.find("b");
  REQUIRE(list.items.size() == 3);
  CHECK(list.items[0].kind == Kind::boolean);
  CHECK(list.items[0].boolean);
  CHECK_FALSE(list.items[1].boolean);
  CHECK(list.items[2].is_null());
  CHECK(value.find("c")->is_object());
  CHECK(value.find("d") == nullptr);
  CHECK(dump_json(value) == R"({"a":"x","b":[true,false,null],"c":{}})");
}

TEST_CASE("JSON reader: a key written twice keeps its last value, in key order") {
  const JsonValue value = parse_json(R"({"b": 1, "a": 2, "b": {"x": 3}})");
  REQUIRE(value.members.size() == 2);
  CHECK(dump_json(value) == R"({"a":2,"b":{"x":3}})");
}

TEST_CASE("JSON reader: numbers") {
  const auto number = [](const char* text) { return parse_json(text); };
  // The largest 64-bit unsigned integer, and one more (read as a double, as strtod does).
  CHECK(number("18446744073709551615").kind == Kind::unsigned_integer);
  CHECK(number("18446744073709551615").unsigned_integer == 18446744073709551615ull);
  CHECK(number("18446744073709551616").kind == Kind::floating);
  CHECK(number("18446744073709551616").floating == 18446744073709551616.0);
  // 2^53 + 1 is kept exactly (a double would round it to 2^53).
  CHECK(number("9007199254740993").unsigned_integer == 9007199254740993ull);
  CHECK(number("-9223372036854775808").kind == Kind::signed_integer);
  CHECK(number("-9223372036854775808").signed_integer == INT64_MIN);
  CHECK(number("-9223372036854775809").kind == Kind::floating);
  CHECK(number("-0").kind == Kind::signed_integer);
  CHECK(number("-0").signed_integer == 0);
  CHECK(std::signbit(number("-0.0").floating));
  CHECK(number("1.5e3").floating == 1500.0);
  CHECK(number("1E-2").floating == 0.01);
  CHECK(number("2.5E+2").floating == 250.0);
  CHECK(number("4096.0").kind == Kind::floating);
  CHECK(dump_json(number("4096.0")) == "4096.0");
  CHECK(dump_json(number("1e20")) == "1e+20");
  CHECK(dump_json(number("100000000000000000000")) == "1e+20");
  CHECK_THROWS_WITH_AS(parse_json("[1e400]"), "number overflow parsing '1e400'", JsonNumberOverflow);
  CHECK_THROWS_WITH_AS(parse_json("-1E999"), "number overflow parsing '-1E999'", JsonNumberOverflow);
}

TEST_CASE("JSON reader: escapes and UTF-8") {
  CHECK(parse_json(R"("a\"b\\c\/d\b\f\n\r\t")").text == "a\"b\\c/d\b\f\n\r\t");
  CHECK(parse_json(R"("\u00e9\u20AC")").text == "\xC3\xA9\xE2\x82\xAC");  // U+00E9, U+20AC
  CHECK(parse_json(R"("\ud83d\ude00")").text == "\xF0\x9F\x98\x80");      // U+1F600 from its surrogate pair
  CHECK(parse_json(R"("\u0000")").text == std::string(1, '\0'));
  CHECK(parse_json("\"\xF0\x9F\x98\x80\"").text == "\xF0\x9F\x98\x80");
}

TEST_CASE("JSON reader: syntax errors name the byte and what was read") {
  // The byte counts the end of the input once read (after "tru" the reader looked for the 'e').
  CHECK(syntax_error("tru") == "4: syntax error while parsing value - invalid literal; last read: 'tru'");
  CHECK(syntax_error("[1,]") ==
        "4: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
  CHECK(syntax_error(R"({"a" 1})") ==
        "6: syntax error while parsing object separator - unexpected number literal; expected ':'");
  CHECK(syntax_error(R"({"a":1,})") ==
        "8: syntax error while parsing object key - unexpected '}'; expected string literal");
  CHECK(syntax_error("[1 2]") == "4: syntax error while parsing array - unexpected number literal; expected ']'");
  CHECK(syntax_error(R"({"a":1 "b":2})") ==
        "10: syntax error while parsing object - unexpected string literal; expected '}'");
  // What was read is counted from the start of the last string or number (here: the text's start).
  CHECK(syntax_error("{} x") ==
        "4: syntax error while parsing value - invalid literal; last read: '{} x'; expected end of input");
  CHECK(syntax_error("{} []") == "4: syntax error while parsing value - unexpected '['; expected end of input");
  CHECK(syntax_error("") ==
        "1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
  CHECK(syntax_error("-x") ==
        "2: syntax error while parsing value - invalid number; expected digit after '-'; last read: '-x'");
  CHECK(syntax_error("1.") ==
        "3: syntax error while parsing value - invalid number; expected digit after '.'; last read: '1.'");
  CHECK(syntax_error("1e") ==
        "3: syntax error while parsing value - invalid number; expected '+', '-', or digit after exponent; last read: "
        "'1e'");
  CHECK(syntax_error("1e+") ==
        "4: syntax error while parsing value - invalid number; expected digit after exponent sign; last read: '1e+'");
  CHECK(syntax_error(R"("\ud83d")") ==
        "8: syntax error while parsing value - invalid string: surrogate U+D800..U+DBFF must be followed by "
        "U+DC00..U+DFFF; last read: '\"\\ud83d\"'");
  CHECK(syntax_error(R"("\ude00")") ==
        "7: syntax error while parsing value - invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF; "
        "last read: '\"\\ude00'");
  CHECK(syntax_error(R"("\u12")") ==
        "6: syntax error while parsing value - invalid string: '\\u' must be followed by 4 hex digits; last read: "
        "'\"\\u12\"'");
  CHECK(syntax_error(R"("\q")") ==
        "3: syntax error while parsing value - invalid string: forbidden character after backslash; last read: "
        "'\"\\q'");
  CHECK(syntax_error("\"a\tb\"") ==
        "3: syntax error while parsing value - invalid string: control character U+0009 (HT) must be escaped to "
        "\\u0009 or \\t; last read: '\"a<U+0009>'");
  CHECK(syntax_error("\"a\x01") ==
        "3: syntax error while parsing value - invalid string: control character U+0001 (SOH) must be escaped to "
        "\\u0001; last read: '\"a<U+0001>'");
  CHECK(syntax_error("\"a\xFF\"") ==
        "3: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"a\xFF'");
  CHECK(syntax_error("\"\xED\xA0\x80\"") ==  // an encoded surrogate: E0..9F only after ED
        "3: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"\xED\xA0'");
  CHECK(syntax_error("\"abc") ==
        "5: syntax error while parsing value - invalid string: missing closing quote; last read: '\"abc'");
  CHECK(syntax_error("NaN") == "1: syntax error while parsing value - invalid literal; last read: 'N'");
  CHECK(syntax_error("\xEF\xBB{}") ==
        "3: syntax error while parsing value - invalid BOM; must be 0xEF 0xBB 0xBF if given; last read: '\xEF\xBB{'");
  CHECK(dump_json(parse_json("\xEF\xBB\xBF{}")) == "{}");  // a byte order mark is skipped
}

TEST_CASE("JSON reader: config.json's literals, nesting limit and positions") {
  using fitcheck::detail::parse_json_document;
  // NaN and Infinity (Python's json module writes them) become marked strings, not numbers.
  const auto document = parse_json_document(R"({"a": NaN, "b": -Infinity, "c": "NaN"})");
  CHECK(fitcheck::detail::has_nonfinite_literals(*document));
  CHECK(fitcheck::detail::is_nonfinite(*document->value.find("a")));
  CHECK(fitcheck::detail::type_name(*document->value.find("b")) == "the non-finite literal -Infinity");
  CHECK_FALSE(fitcheck::detail::is_nonfinite(*document->value.find("c")));
  // 64 levels are read (the outer object and 63 arrays); the 65th is refused at its bracket.
  const std::string deep = "{\"a\":" + std::string(63, '[') + std::string(63, ']') + "}";
  CHECK(parse_json_document(deep)->value.is_object());
  const std::string deeper = "{\"a\":" + std::string(64, '[') + std::string(64, ']') + "}";
  CHECK_THROWS_WITH_AS(parse_json_document(deeper),
                       "config.json nests objects and arrays more than 64 levels deep (line 1, column 69); a "
                       "config.json needs a handful",
                       fitcheck::ConfigError);
  // Line and column of the original text, NaN's replacement before it not counted.
  CHECK_THROWS_WITH_AS(parse_json_document("{\"a\": NaN,\n \"b\": tru}"),
                       "config.json is not valid JSON (line 2, column 10): syntax error while parsing value - "
                       "invalid literal; last read: '\"b\": tru}'",
                       fitcheck::ConfigError);
  CHECK_THROWS_WITH_AS(parse_json_document(R"({"a": 1e400})"),
                       "config.json is not valid JSON (line 1, column 7): the number 1e400 is beyond the range of a "
                       "64-bit float",
                       fitcheck::ConfigError);
}

TEST_CASE("JSON reader: the same documents and errors as nlohmann::json on configs and damaged copies") {
  std::vector<std::string> texts = {"",
                                    " ",
                                    "{}",
                                    "[]",
                                    "[1,2,3]",
                                    "{\"a\":[{\"b\":null}]}",
                                    "\"\\u00e9\"",
                                    "0",
                                    "-0",
                                    "01",
                                    "-",
                                    "1.5e-7",
                                    "1e",
                                    "[1,]",
                                    "{,}",
                                    "{\"a\"}",
                                    "nul",
                                    "\0",
                                    "{} \0 x"};
  texts.back() = std::string("{} \0 x", 6);
  for (const auto& entry : std::filesystem::directory_iterator(FITCHECK_FIXTURE_CONFIGS_DIR)) {
    std::ifstream file(entry.path(), std::ios::binary);
    std::stringstream contents;
    contents << file.rdbuf();
    texts.push_back(contents.str());
  }
  REQUIRE(texts.size() > 50);
  std::mt19937_64 engine(20261202);
  const std::string bytes = "{}[]:,\"\\ -+.eE0123456789tfnulaNI\t\n\x01\x7F\xC3\xA9\xED\xF0\xFF";
  const std::size_t configs = texts.size();
  for (std::size_t copy = 0; copy < 4000; ++copy) {
    std::string text = texts[engine() % configs];
    if (text.empty()) continue;
    for (int edit = 0, edits = 1 + static_cast<int>(engine() % 3); edit < edits; ++edit) {
      const std::size_t at = engine() % text.size();
      switch (engine() % 4) {
        case 0:
          text.erase(at, 1 + engine() % 4);
          break;
        case 1:
          text.insert(at, 1, bytes[engine() % bytes.size()]);
          break;
        case 2:
          text[at] = bytes[engine() % bytes.size()];
          break;
        default:
          text.resize(at);
          break;
      }
      if (text.empty()) break;
    }
    texts.push_back(text);
  }
  std::size_t differing = 0;
  for (const std::string& text : texts) {
    const std::string ours = read_with_core(text);
    const std::string theirs = read_with_nlohmann(text);
    if (ours != theirs && ++differing <= 5) CHECK(ours == theirs);
  }
  CHECK(differing == 0);
}
