// SPDX-License-Identifier: MIT
// A workload trace for the serving simulation: the lengths of real requests, read from a benchmark's
// result JSON or from plain lines of two numbers, so a simulation replays a measured request mix
// (its long tail included) instead of drawing lengths from a distribution.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <string_view>
#include <tuple>

#include "fitcheck/serving.hpp"
#include "support/json_reader.hpp"

namespace fitcheck {
namespace {

constexpr const char* kOption = "request_lengths";
// A single request's prompt or output: far beyond any context window, well inside the simulation's bounds.
constexpr std::int64_t kMaxLength = std::int64_t{1} << 24;
// A benchmark result nests its arrays two levels deep (itls: a list per request); the JSON reader
// needs the depth bounded before it runs.
constexpr std::size_t kMaxNesting = 16;

[[noreturn]] void refuse(const std::string& message) {
  throw OptionError(kOption, "option 'request_lengths': " + message);
}

void check_length(std::int64_t value, const std::string& where, const char* what) {
  if (value < 1 || value > kMaxLength)
    refuse(where + ": " + what + " tokens must be between 1 and " + std::to_string(kMaxLength) + ", got " +
           std::to_string(value));
}

const detail::JsonValue& length_array(const detail::JsonValue& root, const char* key) {
  const detail::JsonValue* array = root.find(key);
  if (!array) refuse(std::string("the JSON has no \"") + key + "\" array (a benchmark result saved with its details)");
  if (!array->is_array())
    refuse(std::string("\"") + key + "\" must be an array, got " + detail::json_type_name(*array));
  return *array;
}

std::vector<RequestLengths> from_benchmark_json(std::string_view text) {
  if (detail::json_nesting_excess(text, kMaxNesting) != std::string_view::npos)
    refuse("the JSON nests objects and arrays more than " + std::to_string(kMaxNesting) + " levels");
  detail::JsonValue root;
  try {
    root = detail::parse_json(text);
  } catch (const detail::JsonSyntaxError& error) {
    refuse("JSON " + std::string(error.what()) + " at byte " + std::to_string(error.byte));
  } catch (const detail::JsonNumberOverflow& error) {
    refuse(std::string("JSON ") + error.what());
  }
  if (!root.is_object()) refuse(std::string("the JSON must be an object, got ") + detail::json_type_name(root));
  const detail::JsonValue& inputs = length_array(root, "input_lens");
  const detail::JsonValue& outputs = length_array(root, "output_lens");
  if (inputs.items.size() != outputs.items.size())
    refuse("\"input_lens\" has " + std::to_string(inputs.items.size()) + " entries and \"output_lens\" " +
           std::to_string(outputs.items.size()));
  std::vector<RequestLengths> trace;
  trace.reserve(inputs.items.size());
  for (std::size_t i = 0; i < inputs.items.size(); ++i) {
    RequestLengths lengths;
    for (const auto& [array, key, value] :
         {std::tuple{&inputs, "input_lens", &lengths.prompt}, std::tuple{&outputs, "output_lens", &lengths.output}}) {
      const detail::JsonValue& item = array->items[i];
      const std::string where = std::string("\"") + key + "\"[" + std::to_string(i) + "]";
      if (!item.is_whole()) refuse(where + " must be a whole number, got " + detail::json_type_name(item));
      *value = item.as_int64();
    }
    const std::string where = "request " + std::to_string(i);
    // A benchmark records 0 output tokens for a request that failed (and leaves it out of its figures).
    if (lengths.output == 0)
      refuse(where + ": \"output_lens\" is 0, a request that failed; remove the failed requests from the trace");
    check_length(lengths.prompt, where, "prompt");
    check_length(lengths.output, where, "output");
    trace.push_back(lengths);
  }
  return trace;
}

bool parse_whole(std::string_view word, std::int64_t& value) {
  const char* end = word.data() + word.size();
  const auto [at, error] = std::from_chars(word.data(), end, value);
  return error == std::errc() && at == end;
}

std::vector<RequestLengths> from_lines(std::string_view text) {
  std::vector<RequestLengths> trace;
  std::size_t line_number = 0;
  bool seen_data = false;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> words;
    std::size_t start = std::string_view::npos;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      const bool separator = i == line.size() || line[i] == ',' || line[i] == '\t' || line[i] == ' ' || line[i] == '\r';
      if (!separator && start == std::string_view::npos) start = i;
      if (separator && start != std::string_view::npos) {
        words.push_back(line.substr(start, i - start));
        start = std::string_view::npos;
      }
    }
    if (words.empty()) continue;
    const std::string where = "line " + std::to_string(line_number);
    // A header ("prompt,output") before the first numbers.
    if (!seen_data && std::isalpha(static_cast<unsigned char>(words.front().front()))) continue;
    RequestLengths lengths;
    if (words.size() != 2 || !parse_whole(words[0], lengths.prompt) || !parse_whole(words[1], lengths.output))
      refuse(where + ": expected two whole numbers, prompt and output tokens, got '" + std::string(line) + "'");
    check_length(lengths.prompt, where, "prompt");
    check_length(lengths.output, where, "output");
    seen_data = true;
    trace.push_back(lengths);
  }
  return trace;
}

}  // namespace

std::vector<RequestLengths> parse_request_lengths(std::string_view text) {
  std::size_t first = 0;
  while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
  std::vector<RequestLengths> trace =
      first < text.size() && text[first] == '{' ? from_benchmark_json(text) : from_lines(text);
  if (trace.empty()) refuse("no requests in the trace");
  if (trace.size() > static_cast<std::size_t>(kMaxServingRequests))
    refuse("more than " + std::to_string(kMaxServingRequests) + " requests");
  return trace;
}

}  // namespace fitcheck
