// SPDX-License-Identifier: MIT
// Typed, path-aware reads of a parsed config.json's fields (config_fields.hpp); every refusal
// names the field as the config spells it.
#include "config/config_fields.hpp"

#include <cmath>

#include "config/json_document.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

const Json& as_json(const void* pointer) { return *static_cast<const Json*>(pointer); }

}  // namespace

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
    const Json* it = object.find(name);
    if (it != nullptr && !it->is_null()) {
      *found_name = name;
      if (const auto duplicate = document_->duplicate_keys.find(path_of_key(name));
          duplicate != document_->duplicate_keys.end())
        throw ConfigError(path_of_key(name), "field '" + path_of_key(name) +
                                                 "' appears more than once in config.json with different values (" +
                                                 duplicate->second + "); fitcheck does not guess which one is meant");
      return it;
    }
  }
  *found_name = names.name;
  return nullptr;
}

bool ConfigFields::has(Field field) const {
  std::string_view name;
  return find(field, &name) != nullptr;
}

bool ConfigFields::is_string(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  return found != nullptr && as_json(found).is_string();
}

bool ConfigFields::is_list(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  return found != nullptr && as_json(found).is_array();
}

ConfigFields ConfigFields::with_defaults(const std::vector<Default>& defaults, std::vector<std::string>& taken) const {
  auto document = std::make_shared<JsonDocument>();
  document->value = as_json(object_);
  document->has_nonfinite_literals = document_->has_nonfinite_literals;
  document->duplicate_keys = document_->duplicate_keys;
  for (const Default& entry : defaults) {
    const FieldNames& names = entry.field.names();
    bool written = false;  // a key present, even null, is the config's own value
    for (std::size_t i = 0; i <= names.aliases.size() && !written; ++i) {
      const std::string_view name = i == 0 ? names.name : names.aliases[i - 1];
      written = !name.empty() && document->value.contains(name);
    }
    if (written) continue;
    document->value.set(names.name, Json::integer(entry.value));
    taken.push_back(path_of_key(names.name) + " = " + std::to_string(entry.value));
  }
  ConfigFields copy(document, &document->value, path_, scope_);
  copy.notes_ = notes_;
  return copy;
}

std::optional<std::int64_t> ConfigFields::integer(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (value.kind == Json::Kind::unsigned_integer) {
    const std::uint64_t unsigned_value = value.unsigned_integer;
    if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX))
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' is too large: " + show(value));
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value.kind == Json::Kind::signed_integer) return value.signed_integer;
  if (value.kind == Json::Kind::floating) {
    const double number = value.floating;
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
  return value.as_double();
}

std::optional<bool> ConfigFields::boolean(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_boolean())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be true or false, but it is " +
                                             type_name(value) + " (" + show(value) + ")");
  return value.boolean;
}

std::optional<std::string> ConfigFields::string(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_string())
    throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' must be a string, but it is " +
                                             type_name(value) + " (" + show(value) + ")");
  return value.text;
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
  items.reserve(value.items.size());
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    if (!value.items[i].is_string())
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' item " + std::to_string(i) +
                                               " must be a string, but it is " + type_name(value.items[i]));
    items.push_back(value.items[i].text);
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
  items.reserve(value.items.size());
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    if (!value.items[i].is_whole())
      throw ConfigError(path_of_key(name), "field '" + path_of_key(name) + "' item " + std::to_string(i) +
                                               " must be a whole number, but it is " + type_name(value.items[i]));
    items.push_back(value.items[i].as_int64());
  }
  return items;
}

std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> ConfigFields::integer_pair_list(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  const std::string path = path_of_key(name);
  if (!value.is_array())
    throw ConfigError(path, "field '" + path + "' must be a list of [a, b] pairs, but it is " + type_name(value));
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    const Json& item = value.items[i];
    if (!item.is_array() || item.items.size() != 2 || !item.items[0].is_whole() || !item.items[1].is_whole())
      throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) +
                                  " must be a pair of whole numbers [a, b], but it is " + show(item));
    pairs.emplace_back(item.items[0].as_int64(), item.items[1].as_int64());
  }
  return pairs;
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

std::optional<std::vector<ConfigFields>> ConfigFields::object_list(Field field) const {
  std::string_view name;
  const void* found = find(field, &name);
  if (!found) return std::nullopt;
  const Json& value = as_json(found);
  if (!value.is_array())
    throw ConfigError(
        path_of_key(name),
        "field '" + path_of_key(name) + "' must be a list of objects ([{...}, ...]), but it is " + type_name(value));
  const auto holds = field.names().holds;
  if (!holds || *holds == FieldScope::none)
    throw std::logic_error("fitcheck: field '" + std::string(field.names().name) +
                           "' is not read as a list of objects");
  std::vector<ConfigFields> items;
  items.reserve(value.items.size());
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    const std::string item_path = path_of_key(name) + "[" + std::to_string(i) + "]";
    if (!value.items[i].is_object())
      throw ConfigError(path_of_key(name),
                        "field '" + item_path + "' must be an object ({...}), but it is " + type_name(value.items[i]));
    ConfigFields child(document_, &value.items[i], item_path + ".", *holds);
    child.notes_ = notes_;
    items.push_back(std::move(child));
  }
  return items;
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
