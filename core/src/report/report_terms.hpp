// SPDX-License-Identifier: MIT
// A memory table (name, bytes, formula per line) as a JSON array member, the same in the inference
// and the training reports.
#pragma once

#include <string_view>
#include <vector>

#include "fitcheck/inference_memory.hpp"
#include "support/json_writer.hpp"

namespace fitcheck::detail {

inline void write_memory_terms(JsonWriter& writer, std::string_view key, const std::vector<MemoryTerm>& terms) {
  writer.begin_array(key);
  for (const auto& term : terms) {
    writer.begin_object();
    writer.field("name", term.name);
    writer.field("bytes", term.bytes);
    writer.field("formula", term.formula);
    writer.end_object();
  }
  writer.end_array();
}

}  // namespace fitcheck::detail
