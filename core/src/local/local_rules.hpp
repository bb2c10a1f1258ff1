// SPDX-License-Identifier: MIT
// The rules local_estimate.cpp, local_placement.cpp and local_speed.cpp share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/local.hpp"

namespace fitcheck {

std::int64_t local_gpu_reserve_bytes(LocalBackend backend);
std::int64_t local_kv_size(const LocalRequest& request);
std::int64_t local_layer_cells(const LocalLayer& layer, const LocalRequest& request, std::int64_t kv_size);
std::int64_t local_layer_kv_bytes(const LocalLayer& layer, LocalKvType type, std::int64_t cells);
// Prompt and generation tokens/s of a placement (local_speed.cpp); appends what it assumed.
LocalSpeed local_speed(const LocalModel& model, const LocalRequest& request, const LocalPlacement& placement,
                       std::vector<std::string>& assumptions);

}  // namespace fitcheck
