// SPDX-License-Identifier: MIT
#include "config_fields.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {

struct JsonDocument {
  nlohmann::json value;
  bool has_nonfinite_literals = false;
};

namespace {

using Json = nlohmann::json;

const Json& as_json(const void* pointer) { return *static_cast<const Json*>(pointer); }

bool is_nonfinite(const Json& value);

std::string type_name(const Json& value) {
  if (is_nonfinite(value)) return "the non-finite literal " + value.get<std::string>().substr(11);
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number_float()) return "a number with a fraction";
  return std::string("a ") + value.type_name();
}

std::string show(const Json& value) {
  if (is_nonfinite(value)) return value.get<std::string>().substr(11);
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// Reports the position of a syntax error as line and column, counted from the byte offset.
std::string line_and_column(std::string_view text, std::size_t byte_offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < byte_offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Python's json module writes NaN, Infinity and -Infinity, and real configs carry them (Nemotron-H
// time_step_limit). They are not JSON; turn each into a marked string so that a field fitcheck
// never reads passes, and a field it does read fails with its name.
constexpr std::string_view nonfinite_marker = "\x01nonfinite:";

std::string replace_nonfinite_literals(std::string_view text, bool& replaced) {
  std::string out;
  out.reserve(text.size() + 16);
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool matched = false;
    for (std::string_view literal : {std::string_view("-Infinity"), std::string_view("Infinity"), std::string_view("NaN")}) {
      if (text.substr(i, literal.size()) == literal) {
        out += '"';
        out += "\\u0001nonfinite:";
        out += literal;
        out += '"';
        i += literal.size() - 1;
        matched = replaced = true;
        break;
      }
    }
    if (!matched) out += c;
  }
  return out;
}

bool is_nonfinite(const Json& value) {
  return value.is_string() && value.get_ref<const std::string&>().rfind(nonfinite_marker, 0) == 0;
}

}  // namespace

std::shared_ptr<const JsonDocument> parse_json_document(std::string_view text) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    text.remove_prefix(3);  // a UTF-8 byte order mark is harmless; editors on Windows add it
  }
  auto document = std::make_shared<JsonDocument>();
  bool replaced = false;
  const std::string cleaned = replace_nonfinite_literals(text, replaced);
  try {
    document->value = Json::parse(cleaned.begin(), cleaned.end());
  } catch (const Json::parse_error& error) {
    std::string what = error.what();
    // nlohmann's message is "[json.exception.parse_error.101] parse error at line 1, column 5:
    // syntax error while parsing ... - detail"; keep the part after the position.
    const auto colon = what.find(": ", what.find("parse error"));
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    throw ConfigError("", "config.json is not valid JSON (" + line_and_column(cleaned, error.byte > 0 ? error.byte - 1 : 0) +
                              "): " + detail);
  }
  if (!document->value.is_object()) {
    throw ConfigError("", "config.json must be a JSON object ({...}), but it is " + type_name(document->value));
  }
  document->has_nonfinite_literals = replaced;
  return document;
}

bool has_nonfinite_literals(const JsonDocument& document) { return document.has_nonfinite_literals; }

ConfigFields::ConfigFields(std::shared_ptr<const JsonDocument> document, const void* object, std::string path)
    : document_(std::move(document)), object_(object), path_(std::move(path)),
      notes_(std::make_shared<std::vector<std::string>>()) {}

ConfigFields ConfigFields::root(const std::shared_ptr<const JsonDocument>& document) {
  return ConfigFields(document, &document->value, "");
}

std::string ConfigFields::path_of(const char* name) const { return path_ + name; }

const void* ConfigFields::find(Names names, const char** found_name) const {
  const Json& object = as_json(object_);
  for (const char* name : names) {
    auto it = object.find(name);
    if (it != object.end() && !it->is_null()) {
      *found_name = name;
      return &*it;
    }
  }
  *found_name = *names.begin();
  return nullptr;
}

bool ConfigFields::has(Names names) const {
  const char* name = nullptr;
  return find(names, &name) != nullptr;
}

std::optional<std::int64_t> ConfigFields::integer(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (value.is_number_unsigned()) {
    const auto unsigned_value = value.get<std::uint64_t>();
    if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX))
      throw ConfigError(path_of(name), "field '" + path_of(name) + "' is too large: " + show(value));
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 9.0e15) {
      notes_->push_back("field '" + path_of(name) + "' is written as " + show(value) + "; read as the integer " +
                        std::to_string(static_cast<std::int64_t>(number)));
      return static_cast<std::int64_t>(number);
    }
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a whole number, but it is " + show(value));
  }
  throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a whole number, but it is " +
                                       type_name(value) + " (" + show(value) + ")");
}

std::optional<double> ConfigFields::number(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_number())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a number, but it is " + type_name(value) +
                                         " (" + show(value) + ")");
  return value.get<double>();
}

std::optional<bool> ConfigFields::boolean(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_boolean())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be true or false, but it is " +
                                         type_name(value) + " (" + show(value) + ")");
  return value.get<bool>();
}

std::optional<std::string> ConfigFields::string(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_string())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a string, but it is " + type_name(value) +
                                         " (" + show(value) + ")");
  return value.get<std::string>();
}

std::optional<std::vector<std::string>> ConfigFields::string_list(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_array())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a list of strings, but it is " +
                                         type_name(value));
  std::vector<std::string> items;
  items.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string())
      throw ConfigError(path_of(name), "field '" + path_of(name) + "' item " + std::to_string(i) +
                                           " must be a string, but it is " + type_name(value[i]));
    items.push_back(value[i].get<std::string>());
  }
  return items;
}

std::optional<std::vector<std::int64_t>> ConfigFields::integer_list(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_array())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be a list of whole numbers, but it is " +
                                         type_name(value));
  std::vector<std::int64_t> items;
  items.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_number_integer() && !value[i].is_number_unsigned())
      throw ConfigError(path_of(name), "field '" + path_of(name) + "' item " + std::to_string(i) +
                                           " must be a whole number, but it is " + type_name(value[i]));
    items.push_back(value[i].get<std::int64_t>());
  }
  return items;
}

std::optional<ConfigFields> ConfigFields::object(Names names) const {
  const char* name = nullptr;
  const void* found = find(names, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_object())
    throw ConfigError(path_of(name), "field '" + path_of(name) + "' must be an object ({...}), but it is " +
                                         type_name(value));
  ConfigFields child(document_, found, path_ + name + ".");
  child.notes_ = notes_;
  return child;
}

std::optional<std::int64_t> ConfigFields::optional_count(Names names, std::int64_t minimum,
                                                         std::int64_t maximum) const {
  auto value = integer(names);
  if (!value) return std::nullopt;
  if (*value < minimum || *value > maximum) {
    const char* name = nullptr;
    find(names, &name);
    const std::string field = path_of(name);
    if (*value < minimum)
      throw ConfigError(field, "field '" + field + "' must be at least " + std::to_string(minimum) + ", but it is " +
                                   std::to_string(*value));
    throw ConfigError(field, "field '" + field + "' is " + std::to_string(*value) +
                                 ", beyond any real model (fitcheck accepts at most " + std::to_string(maximum) + ")");
  }
  return value;
}

std::int64_t ConfigFields::required_count(Names names, std::int64_t minimum, std::int64_t maximum) const {
  auto value = optional_count(names, minimum, maximum);
  if (!value) {
    std::string message = "required field '" + path_of(*names.begin()) + "' is missing";
    if (names.size() > 1) {
      message += " (also looked for";
      bool first = true;
      for (auto it = names.begin() + 1; it != names.end(); ++it) {
        message += first ? " '" : ", '";
        message += path_of(*it) + "'";
        first = false;
      }
      message += ")";
    }
    throw ConfigError(path_of(*names.begin()), message);
  }
  return *value;
}

}  // namespace fitcheck::detail
