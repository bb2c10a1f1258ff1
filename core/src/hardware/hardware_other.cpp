// SPDX-License-Identifier: MIT
// AMD Instinct, Intel Gaudi, Apple silicon and Google Cloud TPU.
#include <array>
#include <cstdint>
#include <span>

#include "fitcheck/hardware.hpp"

namespace fitcheck::detail {
namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// Dense TFLOP/s (TOP/s for integers) in ComputeDtype order, scaled to FLOP/s.
constexpr std::array<double, kComputeDtypeCount> tflops(double fp32, double tf32, double bf16,
                                                        double fp16, double fp8, double fp4,
                                                        double int8, double int4) {
  return {fp32 * 1e12, tf32 * 1e12, bf16 * 1e12, fp16 * 1e12,
          fp8 * 1e12,  fp4 * 1e12,  int8 * 1e12, int4 * 1e12};
}

constexpr const char* kEstimate =
    "estimate, 2025: no broad public on-demand list price (editable default)";
constexpr const char* kGoogleTpu =
    "Google Cloud TPU on-demand price per chip-hour, us-central1, 2025 (editable default)";
// Apple hardware is bought, not rented: list price of the configuration over 3 years of hours.
constexpr const char* kAppleAmortized =
    "estimate: Apple list price of this configuration / (3 years x 8760 h), 2025 "
    "(electricity excluded; editable default)";

// Apple publishes no GPU FLOP/s for M2 and later. Derived: GPU cores x 128 FP32 lanes x 2 (FMA)
// x GPU clock. fp16/bf16 run at the same ALU rate; no matrix-engine rate is published.
constexpr double apple_gpu_tflops(int gpu_cores, double clock_ghz) {
  return gpu_cores * 128.0 * 2.0 * clock_ghz / 1000.0;
}

constexpr const Accelerator kTable[] = {
    // MI250X is two GCDs that software sees as two devices; one entry is one GCD (half the OAM
    // module's 128 GiB, 3.2768 TB/s and compute).
    {.id = "mi250x", .name = "AMD Instinct MI250X (one GCD of two)", .vendor = "AMD",
     .memory_bytes = 64 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 1.6384e12,
     // Module: FP32 matrix 95.7, FP16/BF16/INT8/INT4 383. No TF32 or FP8 on CDNA 2.
     .dense_flops_per_second = tflops(47.85, 0, 191.5, 191.5, 0, 0, 191.5, 191.5),
     // Module: 8 links x 100 GB/s (both ways). Two links per GCD to other modules is typical.
     .interconnect = "Infinity Fabric", .interconnect_bytes_per_second_per_direction = 100e9,
     .gpus_per_node = 8, .price_per_hour_usd = 0.60, .price_source = kEstimate,
     .sources = "AMD Instinct MI250X data sheet (amd.com/en/products/accelerators/instinct/mi200/"
                "mi250x.html); ROCm docs, GPU hardware specifications (VRAM 128 GiB per module)"},
    {.id = "mi300x", .name = "AMD Instinct MI300X 192GB", .vendor = "AMD",
     .memory_bytes = 205'822'885'888,  // rocm-smi VRAM total; 192 GiB physical
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 5.3e12,
     // Sheet (dense; sparse doubles): FP32 matrix 163.4, TF32 653.7, FP16/BF16 1307.4,
     // FP8/INT8 2614.9. No INT4 on CDNA 3.
     .dense_flops_per_second = tflops(163.4, 653.7, 1307.4, 1307.4, 2614.9, 0, 2614.9, 0),
     // Fully connected 8-GPU mesh: 7 links x 64 GB/s per direction (128 GB/s both ways).
     .interconnect = "Infinity Fabric (7 links, full mesh)",
     .interconnect_bytes_per_second_per_direction = 448e9,
     .gpus_per_node = 8, .price_per_hour_usd = 2.00,
     .price_source = "estimate, 2025, between public neocloud list prices (editable default)",
     .sources = "AMD Instinct MI300X data sheet (amd.com/en/products/accelerators/instinct/mi300/"
                "mi300x.html); memory: rocm-smi VRAM Total 205822885888 B"},
    {.id = "mi325x", .name = "AMD Instinct MI325X 256GB", .vendor = "AMD",
     .memory_bytes = 256 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 6.0e12,
     .dense_flops_per_second = tflops(163.4, 653.7, 1307.4, 1307.4, 2614.9, 0, 2614.9, 0),
     .interconnect = "Infinity Fabric (7 links, full mesh)",
     .interconnect_bytes_per_second_per_direction = 448e9,
     .gpus_per_node = 8, .price_per_hour_usd = 2.50, .price_source = kEstimate,
     .sources = "AMD Instinct MI325X data sheet (amd.com/en/products/accelerators/instinct/mi300/"
                "mi325x.html); ROCm docs, GPU hardware specifications (VRAM 256 GiB)"},
    // Gaudi: Intel publishes matrix-engine rates for BF16 and FP8 only.
    {.id = "gaudi2", .name = "Intel Gaudi 2 96GB", .vendor = "Intel",
     .memory_bytes = 96'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 2.46e12,
     .dense_flops_per_second = tflops(0, 0, 432, 0, 865, 0, 0, 0),
     // 24 x 100GbE RoCE on die; 21 ports form the all-to-all inside an 8-card node.
     .interconnect = "RoCE v2, 21 x 100GbE all-to-all",
     .interconnect_bytes_per_second_per_direction = 262.5e9,
     .gpus_per_node = 8, .price_per_hour_usd = 1.30,
     .price_source = "Intel Tiber AI Cloud 8x Gaudi 2 list price / 8, 2024 (editable default)",
     .sources = "Habana Gaudi2 white paper (May 2022); Intel, 'Intel Gaudi 3 AI Accelerator', "
                "Hot Chips 2024 (Gaudi 2 column: 432 TFLOPS BF16, 96 GB, 2.46 TB/s)"},
    {.id = "gaudi3", .name = "Intel Gaudi 3 128GB", .vendor = "Intel",
     .memory_bytes = 128'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 3.67e12,
     .dense_flops_per_second = tflops(0, 0, 1835, 0, 1835, 0, 0, 0),
     // 24 x 200GbE RoCE on die (1200 GB/s both ways); 21 ports form the in-node all-to-all.
     .interconnect = "RoCE v2, 21 x 200GbE all-to-all",
     .interconnect_bytes_per_second_per_direction = 525e9,
     .gpus_per_node = 8, .price_per_hour_usd = 1.80, .price_source = kEstimate,
     .sources = "Intel Gaudi 3 AI Accelerator white paper; Intel, 'Intel Gaudi 3 AI "
                "Accelerator', Hot Chips 2024 (1835 TFLOPS BF16/FP8 matrix, 128 GB, 3.67 TB/s)"},
    // Apple: memory is the top configuration, shared with the CPU. macOS lets the GPU wire only
    // part of it by default (recommendedMaxWorkingSetSize, about 2/3 to 3/4).
    {.id = "m2-max", .name = "Apple M2 Max (38-core GPU, 96GB)", .vendor = "Apple",
     .memory_bytes = 96 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 400e9,
     .dense_flops_per_second = tflops(apple_gpu_tflops(38, 1.398), 0, apple_gpu_tflops(38, 1.398),
                                      apple_gpu_tflops(38, 1.398), 0, 0, 0, 0),
     .interconnect = "none (single chip)", .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1, .unified_memory = true, .price_per_hour_usd = 0.11,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple unveils MacBook Pro featuring M2 Pro and M2 Max' "
                "(Jan 2023): up to 96GB, 400GB/s, 38-core GPU; FP32 derived from GPU clock"},
    {.id = "m2-ultra", .name = "Apple M2 Ultra (76-core GPU, 192GB)", .vendor = "Apple",
     .memory_bytes = 192 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 800e9,
     .dense_flops_per_second = tflops(apple_gpu_tflops(76, 1.398), 0, apple_gpu_tflops(76, 1.398),
                                      apple_gpu_tflops(76, 1.398), 0, 0, 0, 0),
     .interconnect = "none (single chip)", .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1, .unified_memory = true, .price_per_hour_usd = 0.25,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple introduces M2 Ultra' (Jun 2023): up to 192GB, 800GB/s, "
                "76-core GPU; FP32 derived from GPU clock"},
    {.id = "m3-max", .name = "Apple M3 Max (40-core GPU, 128GB)", .vendor = "Apple",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 400e9,  // the 30-core GPU bin has 300GB/s
     .dense_flops_per_second = tflops(apple_gpu_tflops(40, 1.38), 0, apple_gpu_tflops(40, 1.38),
                                      apple_gpu_tflops(40, 1.38), 0, 0, 0, 0),
     .interconnect = "none (single chip)", .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1, .unified_memory = true, .price_per_hour_usd = 0.19,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple unveils M3, M3 Pro, and M3 Max' (Oct 2023): up to "
                "128GB, 400GB/s, 40-core GPU; FP32 derived from GPU clock"},
    {.id = "m3-ultra", .name = "Apple M3 Ultra (80-core GPU, 512GB)", .vendor = "Apple",
     .memory_bytes = 512 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 819e9,
     .dense_flops_per_second = tflops(apple_gpu_tflops(80, 1.38), 0, apple_gpu_tflops(80, 1.38),
                                      apple_gpu_tflops(80, 1.38), 0, 0, 0, 0),
     .interconnect = "none (single chip)", .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1, .unified_memory = true, .price_per_hour_usd = 0.36,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple reveals M3 Ultra' (Mar 2025): up to 512GB, 819GB/s, "
                "80-core GPU; FP32 derived from GPU clock"},
    {.id = "m4-max", .name = "Apple M4 Max (40-core GPU, 128GB)", .vendor = "Apple",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 546e9,  // the 32-core GPU bin has 410GB/s
     .dense_flops_per_second = tflops(apple_gpu_tflops(40, 1.578), 0, apple_gpu_tflops(40, 1.578),
                                      apple_gpu_tflops(40, 1.578), 0, 0, 0, 0),
     .interconnect = "none (single chip)", .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1, .unified_memory = true, .price_per_hour_usd = 0.14,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple introduces M4 Pro and M4 Max' (Oct 2024): up to 128GB, "
                "546GB/s, 40-core GPU; FP32 derived from GPU clock"},
    // TPU: the MXUs take bf16 (fp32 matmuls are multi-pass bf16) and int8; Google publishes those.
    // ICI per direction: half the docs' bidirectional per-chip figure.
    {.id = "tpu-v5e", .name = "Google Cloud TPU v5e", .vendor = "Google",
     .memory_bytes = 16'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 819e9,
     .dense_flops_per_second = tflops(0, 0, 197, 0, 0, 0, 393, 0),
     .interconnect = "ICI, 2D torus (4 ports)",
     .interconnect_bytes_per_second_per_direction = 200e9,  // 400 GB/s bidirectional
     .gpus_per_node = 8, .price_per_hour_usd = 1.20, .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v5e' (cloud.google.com/tpu/docs/v5e)"},
    {.id = "tpu-v5p", .name = "Google Cloud TPU v5p", .vendor = "Google",
     .memory_bytes = 95'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 2765e9,
     .dense_flops_per_second = tflops(0, 0, 459, 0, 0, 0, 918, 0),
     // Docs: 4800 Gbps per chip, the same per-direction basis as v5e's 1600 Gbps = 200 GB/s.
     .interconnect = "ICI, 3D torus (6 ports)",
     .interconnect_bytes_per_second_per_direction = 600e9,
     .gpus_per_node = 4, .price_per_hour_usd = 4.20, .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v5p' (cloud.google.com/tpu/docs/v5p); Google Cloud "
                "blog, 'Introducing Cloud TPU v5p' (Dec 2023): 918 TOPS int8"},
    {.id = "tpu-v6e", .name = "Google Cloud TPU v6e (Trillium)", .vendor = "Google",
     .memory_bytes = 32'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 1638e9,
     .dense_flops_per_second = tflops(0, 0, 918, 0, 0, 0, 1836, 0),
     .interconnect = "ICI, 2D torus (4 ports)",
     .interconnect_bytes_per_second_per_direction = 400e9,  // 800 GB/s bidirectional
     .gpus_per_node = 8, .price_per_hour_usd = 2.70, .price_source = kGoogleTpu,
     .sources = "Google Cloud TPU docs, 'TPU v6e' (cloud.google.com/tpu/docs/v6e)"},
};

}  // namespace

std::span<const Accelerator> other_vendor_accelerators() { return kTable; }

}  // namespace fitcheck::detail
