// SPDX-License-Identifier: MIT
// Reading config.json text into a JSON document: the size and NUL limits, the byte order mark,
// one prescan (non-finite literals, nesting depth, duplicate keys) and syntax errors reported as
// line and column of the text as given.
#include <cstdio>

#include "config/config_fields.hpp"
#include "config/json_document.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// At most `limit` bytes, never cutting a UTF-8 sequence in two.
std::string shortened(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit > 3 ? limit - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) >> 6) == 0x2) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

// Reports the position of a syntax error as line and column, counted from the byte offset.
std::string line_and_column(std::string_view text, std::size_t byte_offset) {
  std::size_t line = 1, column = 1;
  // Columns count characters, as editors do: a UTF-8 continuation byte adds none.
  for (std::size_t i = 0; i < byte_offset && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, column = 1;
    else if ((static_cast<unsigned char>(text[i]) >> 6) != 0x2)
      ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Real configs nest a handful of levels; the limit keeps every recursive walk of the document
// (serializing a value for a message, native and WebAssembly stacks alike) far from the stack's end.
constexpr std::size_t max_nesting_depth = 64;

// One pass over the raw text before the JSON reader sees it: replaces the non-finite literals,
// refuses deep nesting, and records keys an object holds twice with different values (the JSON
// reader keeps the last one).
struct Prescan {
  std::string cleaned;
  bool replaced = false;
  std::vector<std::pair<std::size_t, std::size_t>> shifts;  // (offset in cleaned, bytes added before it)
  std::map<std::string, std::string> duplicate_keys;
};

struct Frame {
  bool object = false;
  std::string path;  // "" at the top, "text_config." inside, "[]." below an array
  bool expect_key = true;
  bool has_key = false;
  std::string key;
  std::size_t value_start = 0;
  std::map<std::string, std::string_view> members;  // key -> its value's text
};

std::string decoded_key(std::string_view raw) {
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  try {
    return parse_json("\"" + std::string(raw) + "\"").text;
  } catch (const JsonSyntaxError&) {
    return std::string(raw);  // the parser reports the bad escape
  }
}

void close_member(Frame& frame, std::string_view text, std::size_t end, Prescan& scan) {
  if (!frame.object || frame.expect_key || !frame.has_key) return;
  std::string_view value = text.substr(frame.value_start, end - frame.value_start);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  auto [it, inserted] = frame.members.emplace(frame.key, value);
  if (!inserted && it->second != value) {
    scan.duplicate_keys[frame.path + frame.key] = printable(it->second, 40) + ", then " + printable(value, 40);
    it->second = value;
  }
}

// The offset in the original text of an offset in the cleaned text.
std::size_t original_offset(const Prescan& scan, std::size_t cleaned_offset);

// The refusal of a syntax error the JSON reader found in the cleaned text.
ConfigError syntax_error(std::string_view text, const Prescan& scan, const JsonSyntaxError& error) {
  const std::string detail = error.what();  // "syntax error while parsing ... - detail"
  return ConfigError("", "config.json is not valid JSON (" +
                             line_and_column(text, original_offset(scan, error.byte > 0 ? error.byte - 1 : 0)) +
                             "): " + printable(detail, 400));
}

// Deep nesting is refused before the JSON reader sees the text; but when the text before the
// offending bracket is not the start of any JSON (prose with brackets), that syntax error is the
// real problem. The prefix nests at most max_nesting_depth levels, so the reader parses it safely;
// a valid prefix ends in "unexpected end of input" at its end, which is not an error before it.
void refuse_syntax_error_before(std::string_view text, const Prescan& scan, std::size_t offset) {
  try {
    const Json prefix = parse_json(scan.cleaned);
    (void)prefix;
  } catch (const JsonSyntaxError& error) {
    if (error.byte > 0 && original_offset(scan, error.byte - 1) < offset) throw syntax_error(text, scan, error);
  } catch (const JsonNumberOverflow&) {
  }
}

Prescan prescan(std::string_view text) {
  Prescan scan;
  scan.cleaned.reserve(text.size() + 16);
  std::vector<Frame> stack;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      end = std::min(end, text.size() - 1);
      scan.cleaned.append(text.substr(i, end - i + 1));
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        stack.back().key = decoded_key(text.substr(i + 1, end - i - 1));
        stack.back().has_key = true;
      }
      i = end;
      continue;
    }
    if (c == '{' || c == '[') {
      if (stack.size() >= max_nesting_depth) {
        refuse_syntax_error_before(text, scan, i);  // text that is not JSON earlier: say that instead
        throw ConfigError("", "config.json nests objects and arrays more than " + std::to_string(max_nesting_depth) +
                                  " levels deep (" + line_and_column(text, i) + "); a config.json needs a handful");
      }
      Frame frame;
      frame.object = c == '{';
      if (!stack.empty())
        frame.path = stack.back().path + (stack.back().object ? stack.back().key : std::string("[]")) + ".";
      stack.push_back(std::move(frame));
    } else if (c == ':' && !stack.empty() && stack.back().object) {
      stack.back().expect_key = false;
      stack.back().value_start = i + 1;
    } else if (c == ',' && !stack.empty() && stack.back().object) {
      close_member(stack.back(), text, i, scan);
      stack.back().expect_key = true;
      stack.back().has_key = false;
    } else if ((c == '}' || c == ']') && !stack.empty()) {
      close_member(stack.back(), text, i, scan);
      stack.pop_back();
    } else if (stack.empty() || !stack.back().object || !stack.back().expect_key) {  // never as a key
      bool matched = false;
      for (std::string_view literal :
           {std::string_view("-Infinity"), std::string_view("Infinity"), std::string_view("NaN")}) {
        if (text.substr(i, literal.size()) == literal) {
          scan.cleaned += "\"\\u0001nonfinite:";
          scan.cleaned.append(literal);
          scan.cleaned += '"';
          scan.shifts.emplace_back(scan.cleaned.size(), scan.cleaned.size() - (i + literal.size()));
          i += literal.size() - 1;
          matched = scan.replaced = true;
          break;
        }
      }
      if (matched) continue;
    }
    scan.cleaned += c;
  }
  return scan;
}

// The offset in the original text of an offset in the cleaned text.
std::size_t original_offset(const Prescan& scan, std::size_t cleaned_offset) {
  std::size_t added = 0;
  for (const auto& [position, shift] : scan.shifts) {
    if (position > cleaned_offset) break;
    added = shift;
  }
  return cleaned_offset >= added ? cleaned_offset - added : 0;
}

}  // namespace

bool is_nonfinite(const Json& value) { return value.is_string() && value.text.rfind(nonfinite_marker, 0) == 0; }

std::string type_name(const Json& value) {
  if (is_nonfinite(value)) return "the non-finite literal " + value.text.substr(11);
  if (value.is_whole()) return "an integer";
  if (value.kind == Json::Kind::floating) return "a number with a fraction";
  const std::string name = json_type_name(value);  // "string", "array", "object", "boolean", "null"
  return (name[0] == 'a' || name[0] == 'o' ? "an " : "a ") + name;
}

std::string show(const Json& value) {
  if (is_nonfinite(value)) return value.text.substr(11);
  return printable(dump_json(value), 40);
}

std::string printable(std::string_view text, std::size_t limit) {
  const std::string excerpt = shortened(text, limit);
  std::string out;
  for (std::size_t i = 0; i < excerpt.size();) {
    const auto c = static_cast<unsigned char>(excerpt[i]);
    std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    for (std::size_t k = 1; length > 1 && k < length; ++k)
      if (i + k >= excerpt.size() || (static_cast<unsigned char>(excerpt[i + k]) >> 6) != 0x2) length = 0;
    if (length == 0 || c < 0x20 || c == 0x7F) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
      out += escaped;
      length = 1;
    } else {
      out.append(excerpt, i, length);
    }
    i += length;
  }
  return out;
}

std::shared_ptr<const JsonDocument> parse_json_document(std::string_view text) {
  if (text.size() > kMaxConfigBytes) throw ConfigError("", config_too_large_message(text.size()));
  // The text comes with its length everywhere: a NUL byte is refused, never an end of the input.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw ConfigError("", "config.json is not valid JSON (" + line_and_column(text, nul) +
                              "): a NUL byte (\\x00), which JSON text never holds");
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
      static_cast<unsigned char>(text[2]) == 0xBF) {
    text.remove_prefix(3);  // a UTF-8 byte order mark is harmless; editors on Windows add it
  } else if (!text.empty() && static_cast<unsigned char>(text[0]) == 0xEF) {
    // The JSON library reads a leading 0xEF as a broken byte order mark ("invalid BOM"); it is a
    // character (a fullwidth brace U+FF5B) that no JSON text starts with.
    std::size_t length = 1;
    while (length < 3 && length < text.size() && (static_cast<unsigned char>(text[length]) >> 6) == 0x2) ++length;
    throw ConfigError("", "config.json is not valid JSON (line 1, column 1): it starts with '" +
                              printable(text.substr(0, length)) + "', not '{'");
  }
  auto document = std::make_shared<JsonDocument>();
  const Prescan scan = prescan(text);
  try {
    document->value = parse_json(scan.cleaned);
  } catch (const JsonSyntaxError& error) {
    throw syntax_error(text, scan, error);
  } catch (const JsonNumberOverflow& error) {
    // A number beyond a double's range (1e400): the reader names the literal but not its place.
    const std::string what = error.what();
    const auto open = what.find('\'');
    const std::string literal = open == std::string::npos ? "" : what.substr(open + 1, what.rfind('\'') - open - 1);
    const std::size_t at = literal.empty() ? std::string_view::npos : text.find(literal);
    throw ConfigError("", "config.json is not valid JSON" +
                              (at == std::string_view::npos ? std::string() : " (" + line_and_column(text, at) + ")") +
                              ": the number " + printable(literal, 40) + " is beyond the range of a 64-bit float");
  }
  if (!document->value.is_object()) {
    throw ConfigError("", "config.json must be a JSON object ({...}), but it is " + type_name(document->value));
  }
  document->has_nonfinite_literals = scan.replaced;
  document->duplicate_keys = scan.duplicate_keys;
  return document;
}

bool has_nonfinite_literals(const JsonDocument& document) { return document.has_nonfinite_literals; }

}  // namespace fitcheck::detail

namespace fitcheck {

std::string config_too_large_message(std::size_t bytes) {
  return "config.json is " + std::to_string(bytes) + " bytes, more than the " + std::to_string(kMaxConfigBytes >> 20) +
         " MiB fitcheck reads (a config.json is a few KB)";
}

}  // namespace fitcheck
