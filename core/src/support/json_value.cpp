// SPDX-License-Identifier: MIT
// The document json_reader.cpp parses (json_reader.hpp): its members by key, its numbers as the
// callers read them, and its compact text through the reports' JSON writer.
#include <algorithm>

#include "support/json_reader.hpp"
#include "support/json_writer.hpp"

namespace fitcheck::detail {
namespace {

// The first member whose key is not below `key` (members are kept in key order).
template <typename Members>
auto member_position(Members& members, std::string_view key) {
  return std::lower_bound(members.begin(), members.end(), key, [](const JsonMember& member, std::string_view k) {
    return std::string_view(member.key) < k;
  });
}

void write_value(JsonWriter& writer, const JsonValue& value, const std::string* key) {
  using Kind = JsonValue::Kind;
  switch (value.kind) {
    case Kind::null:
      key ? writer.field(*key, nullptr) : writer.element(nullptr);
      return;
    case Kind::boolean:
      key ? writer.field(*key, value.boolean) : writer.element(value.boolean);
      return;
    case Kind::signed_integer:
      key ? writer.field(*key, value.signed_integer) : writer.element(value.signed_integer);
      return;
    case Kind::unsigned_integer:
      key ? writer.field(*key, value.unsigned_integer) : writer.element(value.unsigned_integer);
      return;
    case Kind::floating:
      key ? writer.field(*key, value.floating) : writer.element(value.floating);
      return;
    case Kind::string:
      key ? writer.field(*key, std::string_view(value.text)) : writer.element(value.text);
      return;
    case Kind::array:
      key ? writer.begin_array(*key) : writer.begin_array();
      for (const JsonValue& item : value.items) write_value(writer, item, nullptr);
      writer.end_array();
      return;
    case Kind::object:
      key ? writer.begin_object(*key) : writer.begin_object();
      for (const JsonMember& member : value.members) write_value(writer, member.value, &member.key);
      writer.end_object();
      return;
  }
}

}  // namespace

double JsonValue::as_double() const {
  if (kind == Kind::signed_integer) return static_cast<double>(signed_integer);
  if (kind == Kind::unsigned_integer) return static_cast<double>(unsigned_integer);
  return floating;
}

std::int64_t JsonValue::as_int64() const {
  if (kind == Kind::signed_integer) return signed_integer;
  if (kind == Kind::unsigned_integer) return static_cast<std::int64_t>(unsigned_integer);
  return static_cast<std::int64_t>(floating);
}

const JsonValue* JsonValue::find(std::string_view key) const {
  const auto it = member_position(members, key);
  return it != members.end() && it->key == key ? &it->value : nullptr;
}

void JsonValue::set(std::string_view key, JsonValue value) {
  const auto it = member_position(members, key);
  if (it != members.end() && it->key == key)
    it->value = std::move(value);
  else
    members.insert(it, JsonMember{std::string(key), std::move(value)});
}

JsonValue JsonValue::integer(std::int64_t value) {
  JsonValue result;
  // As nlohmann stores a C++ integer assigned to it: a signed one as signed.
  result.kind = Kind::signed_integer;
  result.signed_integer = value;
  return result;
}

std::string dump_json(const JsonValue& value) {
  JsonWriter writer;
  write_value(writer, value, nullptr);
  return writer.take();
}

const char* json_type_name(const JsonValue& value) {
  switch (value.kind) {
    case JsonValue::Kind::null:
      return "null";
    case JsonValue::Kind::boolean:
      return "boolean";
    case JsonValue::Kind::string:
      return "string";
    case JsonValue::Kind::array:
      return "array";
    case JsonValue::Kind::object:
      return "object";
    default:
      return "number";
  }
}

}  // namespace fitcheck::detail
