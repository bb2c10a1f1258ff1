// SPDX-License-Identifier: MIT
// What the state-space and hybrid readers share (config_hybrid.cpp) and the readers themselves
// (config_mamba.cpp: the Mamba-1 mixer; config_mamba2_hybrids.cpp: the Mamba-2 mixer). Internal to
// the core. config_linear_attention.cpp reads the Gated DeltaNet layers of Qwen3-Next and Qwen3.5,
// config_lfm2.cpp LFM2's short convolutions.
#pragma once

#include <cstdint>
#include <string>

#include "config/config_families.hpp"

namespace fitcheck::detail {

// The fields every state-space or hybrid reader starts with: hidden size, layers, vocabulary,
// tie_word_embeddings (the class's default when absent), RMSNorm, and how positions are encoded.
struct HybridPreamble {
  bool tie_default = false;
  PositionEncoding positions = PositionEncoding::rotary;
  bool reads_max_positions = true;  // false: no position limit at all (a scan is causal by construction)
};
void read_hybrid_preamble(const ConfigFields& fields, const HybridPreamble& preamble, ModelDescription& model);

// A size or switch the configuration class fills in when config.json omits it: transformers' own
// value, not a guess, and named in the assumptions.
std::int64_t count_or_class_default(const ConfigFields& fields, Field field, std::int64_t class_default,
                                    std::int64_t maximum, const char* config_class, ModelDescription& model);
bool boolean_or_class_default(const ConfigFields& fields, Field field, bool class_default, const char* config_class,
                              ModelDescription& model);
// A count that config.json may also give as "auto" (absent means "auto" too): `auto_value`, whose
// rule `auto_rule` names, then. Any other string is refused.
std::int64_t count_or_auto(const ConfigFields& fields, Field field, std::int64_t auto_value, const char* auto_rule,
                           std::int64_t maximum, const char* config_class, ModelDescription& model);

// Mamba2Mixer and its copies size in_proj, conv1d and the gated norm by intermediate_size =
// expand x hidden_size, and the scan by num_heads x head_dim: a config where the two differ has no
// consistent shape, and is refused rather than counted one way or the other.
void check_inner_width(const SsmShape& m, std::int64_t expand, std::int64_t hidden, const std::string& expand_path,
                       const std::string& heads_path);

// Rotary attention in the Llama style: q, k, v, o with one bias switch (attention_bias); head_dim
// from the config or hidden / heads (getattr(config, "head_dim", hidden_size // num_attention_heads)).
AttentionShape read_hybrid_attention(const ConfigFields& fields, ModelDescription& model);

// config_mamba.cpp
void read_mamba1(const ConfigFields& fields, const char* config_class, ModelDescription& model);
void read_jamba(const ConfigFields& fields, ModelDescription& model);

// config_mamba2_hybrids.cpp
void read_mamba2(const ConfigFields& fields, ModelDescription& model);
void read_nemotron_h(const ConfigFields& fields, ModelDescription& model);
void read_bamba(const ConfigFields& fields, ModelDescription& model);
void read_granitemoehybrid(const ConfigFields& fields, ModelDescription& model);

// config_linear_attention.cpp
void read_qwen3_next(const ConfigFields& fields, ModelDescription& model);
void read_qwen3_5_text(const ConfigFields& fields, ModelDescription& model);
void read_qwen3_5_moe_text(const ConfigFields& fields, ModelDescription& model);

// config_lfm2.cpp
void read_lfm2(const ConfigFields& fields, ModelDescription& model);
void read_lfm2_moe(const ConfigFields& fields, ModelDescription& model);

// config_falcon_h1.cpp
void read_falcon_h1(const ConfigFields& fields, ModelDescription& model);

// config_zamba2.cpp
void read_zamba2(const ConfigFields& fields, ModelDescription& model);

}  // namespace fitcheck::detail
