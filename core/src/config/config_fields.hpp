// SPDX-License-Identifier: MIT
// Typed, path-aware access to the fields of a parsed config.json. Internal to the core: the only
// place that knows the JSON library. Every error names the field (dotted path) and the problem.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitcheck::detail {

struct JsonDocument;  // owns the parsed JSON (pimpl, so only one TU includes the JSON library)

// Text from the user for an error message (which reaches terminals and JavaScript): invalid UTF-8
// and control bytes written as \xNN, at most about `limit` bytes.
std::string printable(std::string_view text, std::size_t limit = 80);

// Parses `text`; throws ConfigError with line and column on a syntax error.
std::shared_ptr<const JsonDocument> parse_json_document(std::string_view text);
// True when the text held NaN/Infinity literals (Python's JSON extension), kept as marked strings.
bool has_nonfinite_literals(const JsonDocument& document);

class ConfigFields {
 public:
  using Names = std::initializer_list<const char*>;

  ConfigFields(std::shared_ptr<const JsonDocument> document, const void* object, std::string path);
  static ConfigFields root(const std::shared_ptr<const JsonDocument>& document);

  // The first of `names` present and not null, or nothing.
  bool has(Names names) const;
  std::optional<std::int64_t> integer(Names names) const;
  std::optional<double> number(Names names) const;
  std::optional<bool> boolean(Names names) const;
  std::optional<std::string> string(Names names) const;
  std::optional<std::vector<std::string>> string_list(Names names) const;
  std::optional<std::vector<std::int64_t>> integer_list(Names names) const;
  std::optional<ConfigFields> object(Names names) const;

  // A count: an integer in [minimum, maximum]. Missing: ConfigError naming the first alias.
  std::int64_t required_count(Names names, std::int64_t minimum, std::int64_t maximum) const;
  std::optional<std::int64_t> optional_count(Names names, std::int64_t minimum, std::int64_t maximum) const;

  // Dotted path of a field of this object, for messages.
  std::string path_of(const char* name) const;
  // Integral floats read as counts (e.g. 4096.0), reported as assumptions by the caller.
  const std::vector<std::string>& notes() const { return *notes_; }

 private:
  const void* find(Names names, const char** found_name) const;

  std::shared_ptr<const JsonDocument> document_;
  const void* object_;  // const nlohmann::json*, an object
  std::string path_;    // "" or "text_config."
  std::shared_ptr<std::vector<std::string>> notes_;
};

}  // namespace fitcheck::detail
