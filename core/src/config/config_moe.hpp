// SPDX-License-Identifier: MIT
// The mixture-of-experts fields of the modern decoder families: how many routed and shared experts,
// which layers are sparse, and the MoE fields that contradict a family (refused, naming the field).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// DeepSeek-V2, V3 and V3.2: multi-head latent attention and DeepSeekMoE's layer layout.
bool is_deepseek_mla(const std::string& type);
// Families whose modeling code always routes experts (Mixtral, Qwen-MoE, OLMoE, Granite-MoE,
// PhiMoE, DeepSeek-V2/V3, gpt-oss); every other family of the traits table is dense.
bool is_moe_family(const std::string& type);

struct MoeRule {
  MoeShape shape;
  std::vector<bool> is_sparse;  // per layer
};

// Reads routed/shared experts and which layers are sparse, for every MoE spelling (nullopt: dense).
// `generic`: the generic reading of an unknown model_type, which takes MoE fields as they come.
std::optional<MoeRule> read_moe(const std::string& type, const ConfigFields& fields, std::int64_t layers,
                                std::int64_t dense_width, bool generic, ModelDescription& model);

}  // namespace fitcheck::detail
