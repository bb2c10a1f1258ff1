// SPDX-License-Identifier: MIT
// Typed, path-aware access to the fields of a parsed config.json. Internal to the core: the only
// place that knows the JSON reader. Every error names the field (dotted path) and the problem.
// Fields are named by their row of field_table (field_names.hpp); each read tries all its spellings.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/field_names.hpp"

namespace fitcheck::detail {

struct JsonDocument;  // owns the parsed JSON (config/json_document.hpp)

// Text from the user for an error message (which reaches terminals and JavaScript): invalid UTF-8
// and control bytes written as \xNN, at most about `limit` bytes.
std::string printable(std::string_view text, std::size_t limit = 80);

// Parses `text`; throws ConfigError with line and column on a syntax error.
std::shared_ptr<const JsonDocument> parse_json_document(std::string_view text);
// True when the text held NaN/Infinity literals (Python's JSON extension), kept as marked strings.
bool has_nonfinite_literals(const JsonDocument& document);

class ConfigFields {
 public:
  ConfigFields(std::shared_ptr<const JsonDocument> document, const void* object, std::string path, FieldScope scope);
  static ConfigFields root(const std::shared_ptr<const JsonDocument>& document);

  // The first spelling of `field` present and not null, or nothing. A field of another scope than
  // this object's is a programming error (std::logic_error).
  bool has(Field field) const;
  // Present and a string (a field that is either a count or a word such as "auto").
  bool is_string(Field field) const;
  // Present and a list (a field that is either one value or several: vision_feature_layer, or one
  // count per layer such as Gemma 3n's intermediate_size).
  bool is_list(Field field) const;
  std::optional<std::int64_t> integer(Field field) const;
  std::optional<double> number(Field field) const;
  std::optional<bool> boolean(Field field) const;
  std::optional<std::string> string(Field field) const;
  std::optional<std::vector<std::string>> string_list(Field field) const;
  std::optional<std::vector<std::int64_t>> integer_list(Field field) const;
  // A list of [a, b] pairs of whole numbers (LLaVA-NeXT's image_grid_pinpoints).
  std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> integer_pair_list(Field field) const;
  std::optional<ConfigFields> object(Field field) const;
  // A list of objects (DeciLM's block_configs): each item read as `field`'s `holds` scope, its
  // path "name[i].".
  std::optional<std::vector<ConfigFields>> object_list(Field field) const;

  // A count: an integer in [minimum, maximum]. Missing: ConfigError naming the field and its aliases.
  std::int64_t required_count(Field field, std::int64_t minimum, std::int64_t maximum) const;
  std::optional<std::int64_t> optional_count(Field field, std::int64_t minimum, std::int64_t maximum) const;

  // A copy of this object in which each field none of whose spellings is a key takes its default, as
  // a configuration class completes a nested config (a wrapper's text_config); "path = value" of each
  // default taken goes to `taken`.
  struct Default {
    Field field;
    std::int64_t value;
  };
  ConfigFields with_defaults(const std::vector<Default>& defaults, std::vector<std::string>& taken) const;

  // Dotted path of a field of this object (its table name), for messages.
  std::string path_of(Field field) const;
  // Integral floats read as counts (e.g. 4096.0), reported as assumptions by the caller.
  const std::vector<std::string>& notes() const { return *notes_; }

 private:
  // The value of the first spelling present, with that spelling in *found_name (the table name
  // when none is present).
  const void* find(Field field, std::string_view* found_name) const;
  std::string path_of_key(std::string_view key) const;

  std::shared_ptr<const JsonDocument> document_;
  const void* object_;  // const JsonValue*, an object
  std::string path_;    // "" or "text_config."
  FieldScope scope_;    // which rows of field_table this object holds
  std::shared_ptr<std::vector<std::string>> notes_;
};

}  // namespace fitcheck::detail
