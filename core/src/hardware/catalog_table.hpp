// SPDX-License-Identifier: MIT
// What the catalog's per-vendor tables share: the dense-rate helper, byte units and the tables'
// accessors, which hardware.cpp joins into accelerator_catalog() in this order.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "fitcheck/hardware.hpp"

namespace fitcheck::detail {

inline constexpr std::int64_t kMiB = std::int64_t{1} << 20;
inline constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// Dense TFLOP/s (TOP/s for integers) in ComputeDtype order, scaled to FLOP/s.
constexpr std::array<double, kComputeDtypeCount> tflops(double fp32, double tf32, double bf16, double fp16, double fp8,
                                                        double fp4, double int8, double int4) {
  return {fp32 * 1e12, tf32 * 1e12, bf16 * 1e12, fp16 * 1e12, fp8 * 1e12, fp4 * 1e12, int8 * 1e12, int4 * 1e12};
}

std::span<const Accelerator> nvidia_hbm_accelerators();   // hardware_nvidia_hbm.cpp
std::span<const Accelerator> nvidia_gddr_accelerators();  // hardware_nvidia_gddr.cpp
std::span<const Accelerator> amd_accelerators();          // hardware_amd.cpp
std::span<const Accelerator> intel_accelerators();        // hardware_intel.cpp
std::span<const Accelerator> apple_accelerators();        // hardware_apple.cpp
std::span<const Accelerator> google_accelerators();       // hardware_google.cpp

}  // namespace fitcheck::detail
