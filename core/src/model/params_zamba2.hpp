// SPDX-License-Identifier: MIT
// Zamba2's shared transformer blocks and the per-use tensors of its hybrid layers. Internal to the core.
#pragma once

#include <cstdint>
#include <vector>

#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck::detail {

// The tensors of the `use`-th hybrid layer (0-based among them), at index `layer`: its linear and
// adapters, and, at the first use of each shared block, that block's own weights (a block used by no
// layer is no module of the model, so it has none).
void add_shared_transformer_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model,
                                    const LayerShape& shape, std::int32_t layer, std::int64_t use);

}  // namespace fitcheck::detail
