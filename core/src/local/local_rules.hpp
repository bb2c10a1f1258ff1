// SPDX-License-Identifier: MIT
// The placement rules local_estimate.cpp shares with local_placement.cpp.
#pragma once

#include <cstdint>

#include "fitcheck/local.hpp"

namespace fitcheck {

std::int64_t local_gpu_reserve_bytes(LocalBackend backend);
std::int64_t local_kv_size(const LocalRequest& request);
std::int64_t local_layer_cells(const LocalLayer& layer, const LocalRequest& request, std::int64_t kv_size);
std::int64_t local_layer_kv_bytes(const LocalLayer& layer, LocalKvType type, std::int64_t cells);

}  // namespace fitcheck
