// SPDX-License-Identifier: MIT
// The table of every config.json key the core reads (field_table.hpp), checked and looked up by
// name at compile time. The readers name a field by its table name only
// (ConfigFields takes a `Field`, checked against this table at compile time), so a key the core
// reads cannot be missing here, and the list of read keys (config_fields_json: the CLI's
// `config-fields`, scripts/make-presets.py, the page's link compaction) is this table.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "config/field_table.hpp"

namespace fitcheck::detail {

// Each spelling at most once per scope: with a key in two rows, which field it sets would depend
// on the order of the readers' calls. The spellings of a row are its name and its aliases up to the
// first empty one; they are counted once, so the pairwise check stays within clang's constexpr step
// limit (Emscripten) as the table grows.
constexpr std::size_t spelling_count(const FieldNames& row) {
  std::size_t count = 1;
  while (count <= row.aliases.size() && !row.aliases[count - 1].empty()) ++count;
  return count;
}

constexpr std::string_view spelling(const FieldNames& row, std::size_t i) {
  return i == 0 ? row.name : row.aliases[i - 1];
}

constexpr bool spellings_are_unique() {
  std::array<std::size_t, std::size(field_table)> counts{};
  for (std::size_t a = 0; a < std::size(field_table); ++a) counts[a] = spelling_count(field_table[a]);
  for (std::size_t a = 0; a < std::size(field_table); ++a) {
    for (std::size_t b = a; b < std::size(field_table); ++b) {
      if (field_table[a].scope != field_table[b].scope) continue;
      for (std::size_t i = 0; i < counts[a]; ++i)
        for (std::size_t j = a == b ? i + 1 : 0; j < counts[b]; ++j)
          if (spelling(field_table[a], i) == spelling(field_table[b], j)) return false;
    }
  }
  return true;
}
static_assert(spellings_are_unique(), "a config.json key appears twice in one scope of field_table");

// A row of field_table, named as "name" (scope model) or "object.name" (e.g.
// "quantization_config.bits"). consteval: a name not in the table is a compile error, which is
// what keeps the table complete.
class Field {
 public:
  consteval Field(const char* qualified_name) : index_(index_of(qualified_name)) {}
  constexpr const FieldNames& names() const { return field_table[index_]; }

 private:
  static consteval std::size_t index_of(std::string_view qualified_name) {
    FieldScope scope = FieldScope::model;
    std::string_view name = qualified_name;
    if (const auto dot = qualified_name.find('.'); dot != std::string_view::npos) {
      const std::string_view object = qualified_name.substr(0, dot);
      name = qualified_name.substr(dot + 1);
      scope = object == scope_name(FieldScope::quantization_config) ? FieldScope::quantization_config
              : object == scope_name(FieldScope::attn_config)       ? FieldScope::attn_config
              : object == scope_name(FieldScope::ffn_config)        ? FieldScope::ffn_config
              : object == scope_name(FieldScope::vision_config)     ? FieldScope::vision_config
              : object == scope_name(FieldScope::audio_config)      ? FieldScope::audio_config
              : object == scope_name(FieldScope::nas_block)         ? FieldScope::nas_block
              : object == scope_name(FieldScope::nas_attention)     ? FieldScope::nas_attention
              : object == scope_name(FieldScope::nas_ffn)           ? FieldScope::nas_ffn
                                                                    : FieldScope::none;
    }
    for (std::size_t i = 0; i < std::size(field_table); ++i)
      if (field_table[i].scope == scope && field_table[i].name == name) return i;
    throw "not a field of field_table (core/src/config/field_table.hpp): add its row there";
  }

  std::size_t index_;
};

}  // namespace fitcheck::detail
