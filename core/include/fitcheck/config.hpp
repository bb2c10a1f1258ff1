// SPDX-License-Identifier: MIT
// Reading a Hugging Face config.json into a ModelDescription. Text in, struct out: no I/O.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fitcheck/model.hpp"

namespace fitcheck {

// A config that cannot be read. `field` names the offending key (dotted path, e.g.
// "text_config.num_attention_heads"), or is empty for a JSON syntax error.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, const std::string& message) : std::runtime_error(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// A config of a family this build of the core leaves out: the page's first-view WebAssembly module
// reads the common families and leaves the others to the full module (docs/performance.md, "The
// first view reads the common families"). The CLI and the full module read every family. A
// ConfigError naming model_type, so a caller unaware of the split still shows a clear refusal.
class FamilyNotInBuild : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// The largest config.json text fitcheck reads, in bytes: one limit for the CLI (files and standard
// input), WebAssembly (wasm/api.js, every text handed in) and the page (pastes and files, checked
// before anything parses them). The largest real configs are a few hundred KB.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{8} << 20;  // 8 MiB
// The refusal of a text of `bytes` bytes above kMaxConfigBytes, as every front end words it.
std::string config_too_large_message(std::size_t bytes);

// Parses config.json text. Throws ConfigError on malformed JSON, a wrong type, a missing or
// contradictory field. Defaults applied are listed in ModelDescription::assumptions.
ModelDescription parse_hf_config(std::string_view json_text);

// Every config.json key parse_hf_config reads, as JSON: {"fields": [{"in": "model", "name":
// "hidden_size", "aliases": ["n_embd", "n_embed", "d_model"]}, ...]}. "in" is the object the key is
// read from: "model" (the top level, or text_config), "quantization_config", "attn_config" or
// "ffn_config"; an object's row adds "holds", the "in" of the keys read inside it ("none": only its
// presence is read). A config cut down to these keys gives the same reports: the CLI prints the list
// (`fitcheck config-fields`), scripts/make-presets.py and the page's links keep exactly these keys.
std::string config_fields_json();

}  // namespace fitcheck
