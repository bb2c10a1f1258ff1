// SPDX-License-Identifier: MIT
// Gemma 3n's weight tensors beside attention, MLP and the four layer norms. Internal to the core.
#pragma once

#include <cstdint>
#include <vector>

#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck::detail {

// Gemma3nTextModel's own tensors: embed_tokens_per_layer, per_layer_model_projection,
// per_layer_projection_norm, altup_projections and altup_unembed_projections.
void add_gemma3n_model_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model);
// One Gemma3nTextDecoderLayer's AltUp, LAuReL and per-layer-input tensors.
void add_gemma3n_layer_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model, std::int32_t layer);

}  // namespace fitcheck::detail
