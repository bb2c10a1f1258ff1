// SPDX-License-Identifier: MIT
// One row of the table of config.json keys (field_table.hpp): the object the key is read from and
// its spellings.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace fitcheck::detail {

// The object of config.json a field is read from.
enum class FieldScope : std::uint8_t {
  none,                 // (for `holds`) an object whose presence alone is read
  model,                // the top level, or the language model's text_config of a multimodal wrapper
  quantization_config,  // the checkpoint's quantization (read at the top level only)
  attn_config,          // MPT and DBRX keep attention settings here
  ffn_config,           // DBRX keeps its expert sizes here
  vision_config,        // a multimodal model's vision encoder (Gemma-3's SigLIP, Qwen2-VL's ViT)
  audio_config,         // a multimodal model's audio encoder (Gemma 3n's USM conformer)
  nas_block,            // one item of a DeciLM (nemotron-nas) config's block_configs list
  nas_attention,        // a block's attention settings
  nas_ffn,              // a block's FFN settings
};

struct FieldNames {
  // A constructor that writes every alias slot: GCC 12 rejects reading a table's value-initialized
  // string_view members in constant expressions. More than four aliases do not compile.
  constexpr FieldNames(FieldScope scope_, std::string_view name_, std::initializer_list<std::string_view> aliases_ = {},
                       std::optional<FieldScope> holds_ = std::nullopt)
      : scope(scope_), name(name_), holds(holds_) {
    std::size_t slot = 0;
    for (const std::string_view alias : aliases_) aliases[slot++] = alias;
  }

  FieldScope scope;
  std::string_view name;  // transformers' name; messages use it
  std::array<std::string_view, 4> aliases{"", "", "",
                                          ""};  // other spellings, tried in this order after `name`; "" ends
  std::optional<FieldScope> holds;              // an object: the scope of the fields read inside it
};

constexpr std::string_view scope_name(FieldScope scope) {
  switch (scope) {
    case FieldScope::none:
      return "none";
    case FieldScope::model:
      return "model";
    case FieldScope::quantization_config:
      return "quantization_config";
    case FieldScope::attn_config:
      return "attn_config";
    case FieldScope::ffn_config:
      return "ffn_config";
    case FieldScope::vision_config:
      return "vision_config";
    case FieldScope::audio_config:
      return "audio_config";
    case FieldScope::nas_block:
      return "nas_block";
    case FieldScope::nas_attention:
      return "nas_attention";
    case FieldScope::nas_ffn:
      return "nas_ffn";
  }
  return "";
}

}  // namespace fitcheck::detail
