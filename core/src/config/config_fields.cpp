// SPDX-License-Identifier: MIT
#include "config/config_fields.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {

struct JsonDocument {
  nlohmann::json value;
  bool has_nonfinite_literals = false;
  // Dotted paths of keys written twice in one object with different values -> "first, then second".
  std::map<std::string, std::string> duplicate_keys;
};

namespace {

using Json = nlohmann::json;

const Json& as_json(const void* pointer) { return *static_cast<const Json*>(pointer); }

bool is_nonfinite(const Json& value);

// At most `limit` bytes, never cutting a UTF-8 sequence in two.
std::string shortened(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit > 3 ? limit - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) >> 6) == 0x2) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string type_name(const Json& value) {
  if (is_nonfinite(value)) return "the non-finite literal " + value.get<std::string>().substr(11);
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number_float()) return "a number with a fraction";
  const std::string name = value.type_name();  // "string", "array", "object", "boolean", "null"
  return (name[0] == 'a' || name[0] == 'o' ? "an " : "a ") + name;
}

std::string show(const Json& value) {
  if (is_nonfinite(value)) return value.get<std::string>().substr(11);
  return printable(value.dump(), 40);
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

// Python's json module writes NaN, Infinity and -Infinity, and real configs carry them (Nemotron-H
// time_step_limit). They are not JSON; turn each into a marked string so that a field fitcheck
// never reads passes, and a field it does read fails with its name.
constexpr std::string_view nonfinite_marker = "\x01nonfinite:";

// Real configs nest a handful of levels; the limit keeps every recursive walk of the document
// (serializing a value for a message, native and WebAssembly stacks alike) far from the stack's end.
constexpr std::size_t max_nesting_depth = 64;

// One pass over the raw text before the JSON library sees it: replaces the non-finite literals,
// refuses deep nesting, and records keys an object holds twice with different values (the JSON
// library silently keeps the last one).
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
    return Json::parse("\"" + std::string(raw) + "\"").get<std::string>();
  } catch (const Json::exception&) {
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

// The refusal of a syntax error the JSON library found in the cleaned text.
ConfigError syntax_error(std::string_view text, const Prescan& scan, const Json::parse_error& error) {
  std::string what = error.what();
  // nlohmann's message is "[json.exception.parse_error.101] parse error at line 1, column 5:
  // syntax error while parsing ... - detail"; keep the part after the position.
  const auto colon = what.find(": ", what.find("parse error"));
  std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
  return ConfigError("", "config.json is not valid JSON (" +
                             line_and_column(text, original_offset(scan, error.byte > 0 ? error.byte - 1 : 0)) +
                             "): " + printable(detail, 400));
}

// Deep nesting is refused before the JSON library sees the text; but when the text before the
// offending bracket is not the start of any JSON (prose with brackets), that syntax error is the
// real problem. The prefix nests at most max_nesting_depth levels, so the library parses it safely;
// a valid prefix ends in "unexpected end of input" at its end, which is not an error before it.
void refuse_syntax_error_before(std::string_view text, const Prescan& scan, std::size_t offset) {
  try {
    const Json prefix = Json::parse(scan.cleaned.begin(), scan.cleaned.end());
    (void)prefix;
  } catch (const Json::parse_error& error) {
    if (error.byte > 0 && original_offset(scan, error.byte - 1) < offset) throw syntax_error(text, scan, error);
  } catch (const Json::exception&) {
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

bool is_nonfinite(const Json& value) {
  return value.is_string() && value.get_ref<const std::string&>().rfind(nonfinite_marker, 0) == 0;
}

}  // namespace

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
    document->value = Json::parse(scan.cleaned.begin(), scan.cleaned.end());
  } catch (const Json::parse_error& error) {
    throw syntax_error(text, scan, error);
  } catch (const Json::out_of_range& error) {
    // A number beyond a double's range (1e400): the library names the literal but not its place.
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

ConfigFields::ConfigFields(std::shared_ptr<const JsonDocument> document, const void* object, std::string path,
                           FieldScope scope)
    : document_(std::move(document)),
      object_(object),
      path_(std::move(path)),
      scope_(scope),
      notes_(std::make_shared<std::vector<std::string>>()) {}

ConfigFields ConfigFields::root(const std::shared_ptr<const JsonDocument>& document) {
  return ConfigFields(document, &document->value, "", FieldScope::model);
}

std::string ConfigFields::path_of_key(std::string_view key) const { return path_ + std::string(key); }
// The spelling the config uses when the field is there (a Qwen config's num_experts), else the
// canonical name: a refusal names what the user wrote.
std::string ConfigFields::path_of(Field field) const {
  std::string_view found_name;
  if (find(field, &found_name) != nullptr) return path_of_key(found_name);
  return path_of_key(field.names().name);
}

const void* ConfigFields::find(Field field, std::string_view* found_name) const {
  const FieldNames& names = field.names();
  if (names.scope != scope_)
    throw std::logic_error("fitcheck: field '" + std::string(names.name) + "' of " +
                           std::string(scope_name(names.scope)) + " read from " +
                           (path_.empty() ? std::string("the top level") : path_));
  const Json& object = as_json(object_);
  for (std::size_t i = 0; i <= names.aliases.size(); ++i) {
    const std::string_view name = i == 0 ? names.name : names.aliases[i - 1];
    if (name.empty()) break;
    auto it = object.find(name);
    if (it != object.end() && !it->is_null()) {
      *found_name = name;
      if (const auto duplicate = document_->duplicate_keys.find(path_of_key(name));
          duplicate != document_->duplicate_keys.end())
        throw ConfigError(path_of_key(name), "field '" + path_of_key(name) +
                                                 "' appears more than once in config.json with different values (" +
                                                 duplicate->second + "); fitcheck does not guess which one is meant");
      return &*it;
    }
  }
  *found_name = names.name;
  return nullptr;
}

bool ConfigFields::has(Field field) const {
  std::string_view name;
  return find(field, &name) != nullptr;
}

std::optional<std::int64_t> ConfigFields::integer(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (value.is_number_unsigned()) {
    const auto unsigned_value = value.get<std::uint64_t>();
    if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX))
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' is too large: " + show(value));
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 9.0e15) {
      notes_->push_back("field '" + path_of_key(name) + "' is written as " + show(value) + "; read as the integer " +
                        std::to_string(static_cast<std::int64_t>(number)));
      return static_cast<std::int64_t>(number);
    }
    if (std::isfinite(number) && number == std::floor(number))  // beyond 64 bits, or 9e15 written as a float
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' is too large: " + show(value));
    throw ConfigError(path_of_key(name),
                      "field '" + path_of_key(name) + "' must be a whole number, but it is " + show(value));
  }
  throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be a whole number, but it is " +
                                           type_name(value) + " (" + show(value) + ")");
}

std::optional<double> ConfigFields::number(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_number())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be a number, but it is " +
                                             type_name(value) + " (" + show(value) + ")");
  return value.get<double>();
}

std::optional<bool> ConfigFields::boolean(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_boolean())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be true or false, but it is " +
                                             type_name(value) + " (" + show(value) + ")");
  return value.get<bool>();
}

std::optional<std::string> ConfigFields::string(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_string())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be a string, but it is " +
                                             type_name(value) + " (" + show(value) + ")");
  return value.get<std::string>();
}

std::optional<std::vector<std::string>> ConfigFields::string_list(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_array())
    throw ConfigError(path_of_key(name),
                      "field '" + path_of_key(name) + "' must be a list of strings, but it is " + type_name(value));
  std::vector<std::string> items;
  items.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string())
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' item " + std::to_string(i) +
                                               " must be a string, but it is " + type_name(value[i]));
    items.push_back(value[i].get<std::string>());
  }
  return items;
}

std::optional<std::vector<std::int64_t>> ConfigFields::integer_list(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_array())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) +
                                             "' must be a list of whole numbers, but it is " + type_name(value));
  std::vector<std::int64_t> items;
  items.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_number_integer() && !value[i].is_number_unsigned())
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' item " + std::to_string(i) +
                                               " must be a whole number, but it is " + type_name(value[i]));
    items.push_back(value[i].get<std::int64_t>());
  }
  return items;
}

std::optional<ConfigFields> ConfigFields::object(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_object())
    throw ConfigError(path_of_key(name),
                      "field '" + path_of_key(name) + "' must be an object ({...}), but it is " + type_name(value));
  const auto holds = field.names().holds;
  if (!holds || *holds == FieldScope::none)
    throw std::logic_error("fitcheck: field '" + std::string(field.names().name) + "' is not read as an object");
  ConfigFields child(document_, found, path_of_key(name) + ".", *holds);
  child.notes_ = notes_;
  return child;
}

std::optional<std::int64_t> ConfigFields::optional_count(Field field, std::int64_t minimum,
                                                         std::int64_t maximum) const {
  auto value = integer(field);
  if (!value) return std::nullopt;
  if (*value < minimum || *value > maximum) {
    std::string_view name;
    find(field, &name);
    const std::string path = path_of_key(name);
    if (*value < minimum)
      throw ConfigError(path, "field '" + path + "' must be at least " + std::to_string(minimum) + ", but it is " +
                                  std::to_string(*value));
    throw ConfigError(path, "field '" + path + "' is " + std::to_string(*value) +
                                ", beyond any real model (fitcheck accepts at most " + std::to_string(maximum) + ")");
  }
  return value;
}

std::int64_t ConfigFields::required_count(Field field, std::int64_t minimum, std::int64_t maximum) const {
  auto value = optional_count(field, minimum, maximum);
  if (!value) {
    std::string message = "required field '" + path_of(field) + "' is missing";
    bool first = true;
    for (const std::string_view alias : field.names().aliases) {
      if (alias.empty()) break;
      message += first ? " (also looked for '" : ", '";
      message += path_of_key(alias) + "'";
      first = false;
    }
    if (!first) message += ")";
    throw ConfigError(path_of(field), message);
  }
  return *value;
}

}  // namespace fitcheck::detail

namespace fitcheck {

std::string config_too_large_message(std::size_t bytes) {
  return "config.json is " + std::to_string(bytes) + " bytes, more than the " + std::to_string(kMaxConfigBytes >> 20) +
         " MiB fitcheck reads (a config.json is a few KB)";
}

}  // namespace fitcheck
