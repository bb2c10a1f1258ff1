// SPDX-License-Identifier: MIT
// field_table as JSON: the list of config.json keys the core reads, for the programs that cut a
// config down to them (scripts/make-presets.py through the CLI, the page through WebAssembly).
#include "config/field_names.hpp"

#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {

std::string config_fields_json() {
  detail::JsonWriter out;
  out.begin_object();
  out.begin_array("fields");
  for (const detail::FieldNames& row : detail::field_table) {
    out.begin_object();
    out.field("in", detail::scope_name(row.scope));
    out.field("name", row.name);
    std::vector<std::string> aliases;
    for (const std::string_view alias : row.aliases)
      if (!alias.empty()) aliases.emplace_back(alias);
    out.field("aliases", aliases);
    if (row.holds) out.field("holds", detail::scope_name(*row.holds));
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace fitcheck
