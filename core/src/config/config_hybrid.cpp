// SPDX-License-Identifier: MIT
// State-space models and hybrids: what their readers share, and which reader a model_type takes.
// The readers are in config_mamba.cpp (the Mamba-1 mixer: Mamba, Falcon-Mamba, Jamba) and
// config_mamba2_hybrids.cpp (the Mamba-2 mixer: Mamba-2, Nemotron-H, Bamba, Granite-4.0-H) and
// config_linear_attention.cpp (Qwen3-Next's Gated DeltaNet), config_lfm2.cpp (LFM2's short
// convolutions), config_falcon_h1.cpp (Falcon-H1's attention and Mamba-2 side by side) and
// config_zamba2.cpp (Zamba2's Mamba-2 layers and shared transformer blocks).
#include "config/config_hybrid.hpp"

#include <string>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {

void read_hybrid_preamble(const ConfigFields& fields, const HybridPreamble& preamble, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings =
      preamble.reads_max_positions ? fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0) : 0;
  model.tie_word_embeddings = read_tie(fields, preamble.tie_default, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = preamble.positions;
}

std::int64_t count_or_class_default(const ConfigFields& fields, Field field, std::int64_t class_default,
                                    std::int64_t maximum, const char* config_class, ModelDescription& model) {
  if (auto value = fields.optional_count(field, 1, maximum)) return *value;
  model.assumptions.push_back(std::string(field.names().name) + " absent: " + std::to_string(class_default) + ", as " +
                              config_class + " does");
  return class_default;
}

bool boolean_or_class_default(const ConfigFields& fields, Field field, bool class_default, const char* config_class,
                              ModelDescription& model) {
  if (auto value = fields.boolean(field)) return *value;
  model.assumptions.push_back(std::string(field.names().name) + " absent: " + (class_default ? "true" : "false") +
                              ", as " + config_class + " does");
  return class_default;
}

std::int64_t count_or_auto(const ConfigFields& fields, Field field, std::int64_t auto_value, const char* auto_rule,
                           std::int64_t maximum, const char* config_class, ModelDescription& model) {
  if (!fields.has(field)) {
    model.assumptions.push_back(std::string(field.names().name) + " absent: \"auto\", " + auto_rule + " = " +
                                std::to_string(auto_value) + ", as " + config_class + " does");
    return auto_value;
  }
  if (fields.is_string(field)) {
    const std::string value = *fields.string(field);
    if (value == "auto") return auto_value;
    const std::string path = fields.path_of(field);
    throw ConfigError(path, "field '" + path + "' is '" + printable(value) + "'; expected a count or \"auto\"");
  }
  return fields.required_count(field, 1, maximum);
}

void check_inner_width(const SsmShape& m, std::int64_t expand, std::int64_t hidden, const std::string& expand_path,
                       const std::string& heads_path) {
  if (m.groups < 1 || m.num_heads % m.groups != 0)
    throw ConfigError(heads_path, "field '" + heads_path + "' (" + std::to_string(m.num_heads) +
                                      ") is not a multiple of the number of groups (" + std::to_string(m.groups) +
                                      "): heads cannot share B and C evenly");
  if (expand * hidden != m.inner())
    throw ConfigError(expand_path, "field '" + expand_path + "' (" + std::to_string(expand) + ") x hidden_size (" +
                                       std::to_string(hidden) + ") = " + std::to_string(expand * hidden) +
                                       " differs from the heads' width " + std::to_string(m.num_heads) + " x " +
                                       std::to_string(m.head_dim) + " = " + std::to_string(m.inner()) +
                                       ": the Mamba-2 mixer would have no consistent shape");
}

AttentionShape read_hybrid_attention(const ConfigFields& fields, ModelDescription& model) {
  AttentionShape a;
  a.num_heads = read_head_count(fields);
  a.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
  a.head_dim = read_head_dim(fields, model.hidden_size, a.num_heads, model);
  a.value_head_dim = a.head_dim;
  a.qkv_bias = a.output_bias = fields.boolean("attention_bias").value_or(false);
  return a;
}

bool read_hybrid_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model) {
  if (model_type == "mamba")
    read_mamba1(fields, "MambaConfig", model);
  else if (model_type == "falcon_mamba")
    read_mamba1(fields, "FalconMambaConfig", model);
  else if (model_type == "jamba")
    read_jamba(fields, model);
  else if (model_type == "mamba2")
    read_mamba2(fields, model);
  else if (model_type == "nemotron_h")
    read_nemotron_h(fields, model);
  else if (model_type == "bamba")
    read_bamba(fields, model);
  else if (model_type == "granitemoehybrid")
    read_granitemoehybrid(fields, model);
  else if (model_type == "qwen3_next")
    read_qwen3_next(fields, model);
  else if (model_type == "qwen3_5_text")
    read_qwen3_5_text(fields, model);
  else if (model_type == "qwen3_5_moe_text")
    read_qwen3_5_moe_text(fields, model);
  else if (model_type == "lfm2")
    read_lfm2(fields, model);
  else if (model_type == "lfm2_moe")
    read_lfm2_moe(fields, model);
  else if (model_type == "falcon_h1")
    read_falcon_h1(fields, model);
  else if (model_type == "zamba2")
    read_zamba2(fields, model);
  else
    return false;
  return true;
}

}  // namespace fitcheck::detail
