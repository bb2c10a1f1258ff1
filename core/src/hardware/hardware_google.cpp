// SPDX-License-Identifier: MIT
// Google Cloud TPU (one chip per entry).
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* kGoogleTpu =
    "Google Cloud TPU on-demand price per chip-hour, us-central1, 2025 (editable default)";

constexpr const Accelerator kTable[] = {
    // TPU: the MXUs take bf16 (fp32 matmuls are multi-pass bf16) and int8; Google publishes those.
    // ICI per direction: half the docs' bidirectional per-chip figure.
    {.id = "tpu-v5e",
     .name = "Google Cloud TPU v5e",
     .vendor = "Google",
     .memory_bytes = 16'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 819e9,
     .dense_flops_per_second = tflops(0, 0, 197, 0, 0, 0, 393, 0),
     .interconnect = "ICI, 2D torus (4 ports)",
     .interconnect_bytes_per_second_per_direction = 200e9,  // 400 GB/s bidirectional
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.20,
     .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v5e' (cloud.google.com/tpu/docs/v5e)"},
    {.id = "tpu-v5p",
     .name = "Google Cloud TPU v5p",
     .vendor = "Google",
     .memory_bytes = 95'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 2765e9,
     .dense_flops_per_second = tflops(0, 0, 459, 0, 0, 0, 918, 0),
     // Docs: 4800 Gbps per chip, the same per-direction basis as v5e's 1600 Gbps = 200 GB/s.
     .interconnect = "ICI, 3D torus (6 ports)",
     .interconnect_bytes_per_second_per_direction = 600e9,
     .gpus_per_node = 4,
     .price_per_hour_usd = 4.20,
     .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v5p' (cloud.google.com/tpu/docs/v5p); Google Cloud "
                "blog, 'Introducing Cloud TPU v5p' (Dec 2023): 918 TOPS int8"},
    {.id = "tpu-v6e",
     .name = "Google Cloud TPU v6e (Trillium)",
     .vendor = "Google",
     .memory_bytes = 32'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 1638e9,
     .dense_flops_per_second = tflops(0, 0, 918, 0, 0, 0, 1836, 0),
     .interconnect = "ICI, 2D torus (4 ports)",
     .interconnect_bytes_per_second_per_direction = 400e9,  // 800 GB/s bidirectional
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.70,
     .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v6e' (cloud.google.com/tpu/docs/v6e)"},
};

}  // namespace

std::span<const Accelerator> google_accelerators() { return kTable; }

}  // namespace fitcheck::detail
