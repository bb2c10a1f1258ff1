// SPDX-License-Identifier: MIT
// The tensors of a layer's fixed-state mixer (SsmShape.mixer), added to the parameter inventory.
#pragma once

#include <cstdint>

#include "fitcheck/model.hpp"
#include "model/tensor_list.hpp"

namespace fitcheck::detail {

void add_recurrent_mixer(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden);

}  // namespace fitcheck::detail
