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
constexpr std::array<double, kComputeDtypeCount> tflops(double fp32, double tf32, double bf16, double fp16, double fp8,
                                                        double fp4, double int8, double int4) {
  return {fp32 * 1e12, tf32 * 1e12, bf16 * 1e12, fp16 * 1e12, fp8 * 1e12, fp4 * 1e12, int8 * 1e12, int4 * 1e12};
}

constexpr const char* kEstimate = "estimate, 2025: no broad public on-demand list price (editable default)";
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

// One Apple silicon configuration: the chip's top GPU bin at one unified memory size. Memory is
// Apple's "N GB", which is N GiB of LPDDR; the GPU gets macOS's default working set of it.
constexpr Accelerator apple_chip(const char* id, const char* name, int memory_gib, double bandwidth_gb_per_s,
                                 int gpu_cores, double gpu_clock_ghz, double price_per_hour_usd, const char* sources) {
  const double fp32_tflops = apple_gpu_tflops(gpu_cores, gpu_clock_ghz);
  return {.id = id,
          .name = name,
          .vendor = "Apple",
          .memory_bytes = memory_gib * kGiB,
          .memory_convention = MemoryConvention::binary_capacity,
          .memory_bandwidth_bytes_per_second = bandwidth_gb_per_s * 1e9,
          .dense_flops_per_second = tflops(fp32_tflops, 0, fp32_tflops, fp32_tflops, 0, 0, 0, 0),
          .interconnect = "none (single chip)",
          .interconnect_bytes_per_second_per_direction = 0,
          .gpus_per_node = 1,
          .unified_memory = true,
          .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(memory_gib * kGiB),
          .price_per_hour_usd = price_per_hour_usd,
          .price_source = kAppleAmortized,
          .sources = sources};
}

// GPU clocks for the derivation above, one per generation: M2 family 1.398 GHz, M3 family 1.38,
// M4 Pro/Max 1.578 (the clocks of the entries above); M1 Pro/Max/Ultra 1.27, from Apple's own
// 10.4 TFLOPS for the 32-core M1 Max (= 32 x 128 x 2 x 1.27 GHz). Apple publishes no M5 GPU clock
// or FP32 rate: M5 entries use the M4 clock, a placeholder to replace when one is published.
constexpr double kM1GpuGhz = 1.278;  // from Apple's 2.6 TFLOPS for the 8-core M1 GPU (8 x 256 x 1.278)
constexpr double kM1ProMaxGpuGhz = 1.27;
constexpr double kM2GpuGhz = 1.398;
constexpr double kM3GpuGhz = 1.38;
constexpr double kM4GpuGhz = 1.578;
constexpr double kM5GpuGhzAssumed = kM4GpuGhz;

constexpr const char* kAmdMsrp =
    "estimate: AMD launch price (USD) / (3 years x 8760 h), electricity excluded (editable default)";

constexpr const Accelerator kTable[] = {
    // MI250X is two GCDs that software sees as two devices; one entry is one GCD (half the OAM
    // module's 128 GiB, 3.2768 TB/s and compute).
    {.id = "mi250x",
     .name = "AMD Instinct MI250X (one GCD of two)",
     .vendor = "AMD",
     .memory_bytes = 64 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 1.6384e12,
     // Module: FP32 matrix 95.7, FP16/BF16/INT8/INT4 383. No TF32 or FP8 on CDNA 2.
     .dense_flops_per_second = tflops(47.85, 0, 191.5, 191.5, 0, 0, 191.5, 191.5),
     // Module: 8 links x 100 GB/s (both ways). Two links per GCD to other modules is typical.
     .interconnect = "Infinity Fabric",
     .interconnect_bytes_per_second_per_direction = 100e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.60,
     .price_source = kEstimate,
     .sources = "AMD Instinct MI250X data sheet (amd.com/en/products/accelerators/instinct/mi200/"
                "mi250x.html); ROCm docs, GPU hardware specifications (VRAM 128 GiB per module)"},
    {.id = "mi300x",
     .name = "AMD Instinct MI300X 192GB",
     .vendor = "AMD",
     .memory_bytes = 205'822'885'888,  // rocm-smi VRAM total; 192 GiB physical
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 5.3e12,
     // Sheet (dense; sparse doubles): FP32 matrix 163.4, TF32 653.7, FP16/BF16 1307.4,
     // FP8/INT8 2614.9. No INT4 on CDNA 3.
     .dense_flops_per_second = tflops(163.4, 653.7, 1307.4, 1307.4, 2614.9, 0, 2614.9, 0),
     // Fully connected 8-GPU mesh: 7 links x 64 GB/s per direction (128 GB/s both ways).
     .interconnect = "Infinity Fabric (7 links, full mesh)",
     .interconnect_bytes_per_second_per_direction = 448e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.00,
     .price_source = "estimate, 2025, between public neocloud list prices (editable default)",
     .sources = "AMD Instinct MI300X data sheet (amd.com/en/products/accelerators/instinct/mi300/"
                "mi300x.html); memory: rocm-smi VRAM Total 205822885888 B",
     // MAMF "AMD MI300X" row: 668.4 of 1300 TFLOPS (ROCm 6.3, TunableOp on)
     .mamf_share_bf16 = 0.514},
    {.id = "mi325x",
     .name = "AMD Instinct MI325X 256GB",
     .vendor = "AMD",
     .memory_bytes = 256 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 6.0e12,
     .dense_flops_per_second = tflops(163.4, 653.7, 1307.4, 1307.4, 2614.9, 0, 2614.9, 0),
     .interconnect = "Infinity Fabric (7 links, full mesh)",
     .interconnect_bytes_per_second_per_direction = 448e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.50,
     .price_source = kEstimate,
     .sources = "AMD Instinct MI325X data sheet (amd.com/en/products/accelerators/instinct/mi300/"
                "mi325x.html); ROCm docs, GPU hardware specifications (VRAM 256 GiB)",
     // MAMF "AMD MI325X" row: 784.9 of 1300 TFLOPS (ROCm 6.2.4, TunableOp on, 1000 W)
     .mamf_share_bf16 = 0.604},
    // Gaudi: Intel publishes matrix-engine rates for BF16 and FP8 only.
    {.id = "gaudi2",
     .name = "Intel Gaudi 2 96GB",
     .vendor = "Intel",
     .memory_bytes = 96'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 2.46e12,
     .dense_flops_per_second = tflops(0, 0, 432, 0, 865, 0, 0, 0),
     // 24 x 100GbE RoCE on die; 21 ports form the all-to-all inside an 8-card node.
     .interconnect = "RoCE v2, 21 x 100GbE all-to-all",
     .interconnect_bytes_per_second_per_direction = 262.5e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.30,
     .price_source = "Intel Tiber AI Cloud 8x Gaudi 2 list price / 8, 2024 (editable default)",
     .sources = "Habana Gaudi2 white paper (May 2022); Intel, 'Intel Gaudi 3 AI Accelerator', "
                "Hot Chips 2024 (Gaudi 2 column: 432 TFLOPS BF16, 96 GB, 2.46 TB/s)",
     // MAMF "Intel Gaudi 2" rows: bf16 418.7 of 432, fp8 826.5 of 865 TFLOPS (PT_HPU_LAZY_MODE=1).
     .mamf_share_bf16 = 0.969,
     .mamf_share_fp8 = 0.955},
    {.id = "gaudi3",
     .name = "Intel Gaudi 3 128GB",
     .vendor = "Intel",
     .memory_bytes = 128'000'000'000,
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 3.67e12,
     .dense_flops_per_second = tflops(0, 0, 1835, 0, 1835, 0, 0, 0),
     // 24 x 200GbE RoCE on die (1200 GB/s both ways); 21 ports form the in-node all-to-all.
     .interconnect = "RoCE v2, 21 x 200GbE all-to-all",
     .interconnect_bytes_per_second_per_direction = 525e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.80,
     .price_source = kEstimate,
     .sources = "Intel Gaudi 3 AI Accelerator white paper; Intel, 'Intel Gaudi 3 AI "
                "Accelerator', Hot Chips 2024 (1835 TFLOPS BF16/FP8 matrix, 128 GB, 3.67 TB/s)"},
    // Apple: memory is the top configuration, shared with the CPU. macOS lets the GPU wire only
    // part of it by default (recommendedMaxWorkingSetSize): gpu_working_set_bytes, which fit
    // checks plan against (hardware.hpp, macos_default_gpu_working_set_bytes).
    {.id = "m2-max",
     .name = "Apple M2 Max (38-core GPU, 96GB)",
     .vendor = "Apple",
     .memory_bytes = 96 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 400e9,
     .dense_flops_per_second =
         tflops(apple_gpu_tflops(38, 1.398), 0, apple_gpu_tflops(38, 1.398), apple_gpu_tflops(38, 1.398), 0, 0, 0, 0),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(96 * kGiB),
     .price_per_hour_usd = 0.11,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple unveils MacBook Pro featuring M2 Pro and M2 Max' "
                "(Jan 2023): up to 96GB, 400GB/s, 38-core GPU; FP32 derived from GPU clock"},
    {.id = "m2-ultra",
     .name = "Apple M2 Ultra (76-core GPU, 192GB)",
     .vendor = "Apple",
     .memory_bytes = 192 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 800e9,
     .dense_flops_per_second =
         tflops(apple_gpu_tflops(76, 1.398), 0, apple_gpu_tflops(76, 1.398), apple_gpu_tflops(76, 1.398), 0, 0, 0, 0),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(192 * kGiB),
     .price_per_hour_usd = 0.25,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple introduces M2 Ultra' (Jun 2023): up to 192GB, 800GB/s, "
                "76-core GPU; FP32 derived from GPU clock"},
    {.id = "m3-max",
     .name = "Apple M3 Max (40-core GPU, 128GB)",
     .vendor = "Apple",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 400e9,  // the 30-core GPU bin has 300GB/s
     .dense_flops_per_second =
         tflops(apple_gpu_tflops(40, 1.38), 0, apple_gpu_tflops(40, 1.38), apple_gpu_tflops(40, 1.38), 0, 0, 0, 0),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(128 * kGiB),
     .price_per_hour_usd = 0.19,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple unveils M3, M3 Pro, and M3 Max' (Oct 2023): up to "
                "128GB, 400GB/s, 40-core GPU; FP32 derived from GPU clock"},
    {.id = "m3-ultra",
     .name = "Apple M3 Ultra (80-core GPU, 512GB)",
     .vendor = "Apple",
     .memory_bytes = 512 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 819e9,
     .dense_flops_per_second =
         tflops(apple_gpu_tflops(80, 1.38), 0, apple_gpu_tflops(80, 1.38), apple_gpu_tflops(80, 1.38), 0, 0, 0, 0),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(512 * kGiB),
     .price_per_hour_usd = 0.36,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple reveals M3 Ultra' (Mar 2025): up to 512GB, 819GB/s, "
                "80-core GPU; FP32 derived from GPU clock"},
    {.id = "m4-max",
     .name = "Apple M4 Max (40-core GPU, 128GB)",
     .vendor = "Apple",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 546e9,  // the 32-core GPU bin has 410GB/s
     .dense_flops_per_second =
         tflops(apple_gpu_tflops(40, 1.578), 0, apple_gpu_tflops(40, 1.578), apple_gpu_tflops(40, 1.578), 0, 0, 0, 0),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .gpu_working_set_bytes = macos_default_gpu_working_set_bytes(128 * kGiB),
     .price_per_hour_usd = 0.14,
     .price_source = kAppleAmortized,
     .sources = "Apple Newsroom, 'Apple introduces M4 Pro and M4 Max' (Oct 2024): up to 128GB, "
                "546GB/s, 40-core GPU; FP32 derived from GPU clock"},
    // Further Apple configurations, one id per chip and memory size. Bandwidth and GPU cores are
    // Apple's newsroom figures for the chip; price: the Mac that carries it (Mac Studio or mini
    // where offered, else MacBook Pro) at Apple's launch list price, over 3 years.
    // The base chips (10-core GPU from M2 on), at their largest memory.
    apple_chip("m1-16gb", "Apple M1 (8-core GPU, 16GB)", 16, 68.25, 8, kM1GpuGhz, 0.034,
               "Apple Newsroom, 'Apple unleashes M1' (Nov 2020): 8-core GPU, 2.6 teraflops, up to "
               "16GB; bandwidth: LPDDR4X-4266 on 128 bits = 68.25GB/s"),
    apple_chip("m2-24gb", "Apple M2 (10-core GPU, 24GB)", 24, 100, 10, kM2GpuGhz, 0.038,
               "Apple Newsroom, 'Apple unveils M2' (Jun 2022): up to 24GB, 100GB/s, 10-core GPU, "
               "3.6 teraflops; FP32 derived from GPU clock"),
    apple_chip("m3-24gb", "Apple M3 (10-core GPU, 24GB)", 24, 100, 10, kM3GpuGhz, 0.057,
               "Apple Newsroom, 'Apple unveils M3, M3 Pro, and M3 Max' (Oct 2023): up to 24GB, "
               "10-core GPU; MacBook Pro (M3) tech specs: 100GB/s; FP32 derived from GPU clock"),
    apple_chip("m4-32gb", "Apple M4 (10-core GPU, 32GB)", 32, 120, 10, kM4GpuGhz, 0.038,
               "Apple Newsroom, 'Apple introduces M4 chip' (May 2024): 120GB/s, 10-core GPU; Mac "
               "mini (M4) tech specs: up to 32GB; FP32 assumes the M4 Pro/Max GPU clock"),
    apple_chip("m5-32gb", "Apple M5 (10-core GPU, 32GB)", 32, 153, 10, kM5GpuGhzAssumed, 0.084,
               "Apple Newsroom, 'Apple unleashes M5' (Oct 2025): up to 32GB, 153GB/s, 10-core GPU; "
               "FP32 assumes the M4 GPU clock (no M5 figure published)"),
    apple_chip("m1-pro-32gb", "Apple M1 Pro (16-core GPU, 32GB)", 32, 200, 16, kM1ProMaxGpuGhz, 0.10,
               "Apple Newsroom, 'Introducing M1 Pro and M1 Max' (Oct 2021): up to 32GB, 200GB/s, "
               "16-core GPU; FP32 derived from GPU clock"),
    apple_chip("m1-max-64gb", "Apple M1 Max (32-core GPU, 64GB)", 64, 400, 32, kM1ProMaxGpuGhz, 0.11,
               "Apple Newsroom, 'Introducing M1 Pro and M1 Max' (Oct 2021): up to 64GB, 400GB/s, "
               "32-core GPU, 10.4 TFLOPS; FP32 derived from GPU clock"),
    apple_chip("m1-ultra-64gb", "Apple M1 Ultra (64-core GPU, 64GB)", 64, 800, 64, kM1ProMaxGpuGhz, 0.19,
               "Apple Newsroom, 'Apple unveils M1 Ultra' (Mar 2022): 64 or 128GB, 800GB/s, 64-core "
               "GPU; FP32 derived from GPU clock"),
    apple_chip("m1-ultra-128gb", "Apple M1 Ultra (64-core GPU, 128GB)", 128, 800, 64, kM1ProMaxGpuGhz, 0.22,
               "Apple Newsroom, 'Apple unveils M1 Ultra' (Mar 2022): up to 128GB, 800GB/s, 64-core "
               "GPU; FP32 derived from GPU clock"),
    apple_chip("m2-pro-32gb", "Apple M2 Pro (19-core GPU, 32GB)", 32, 200, 19, kM2GpuGhz, 0.07,
               "Apple Newsroom, 'Apple unveils M2 Pro and M2 Max' (Jan 2023): up to 32GB, 200GB/s, "
               "19-core GPU; FP32 derived from GPU clock"),
    apple_chip("m2-max-64gb", "Apple M2 Max (38-core GPU, 64GB)", 64, 400, 38, kM2GpuGhz, 0.10,
               "Apple Newsroom, 'Apple unveils M2 Pro and M2 Max' (Jan 2023): up to 96GB, 400GB/s, "
               "38-core GPU; FP32 derived from GPU clock"),
    apple_chip("m2-ultra-128gb", "Apple M2 Ultra (76-core GPU, 128GB)", 128, 800, 76, kM2GpuGhz, 0.23,
               "Apple Newsroom, 'Apple introduces M2 Ultra' (Jun 2023): up to 192GB, 800GB/s, "
               "76-core GPU; FP32 derived from GPU clock"),
    apple_chip("m3-pro-36gb", "Apple M3 Pro (18-core GPU, 36GB)", 36, 150, 18, kM3GpuGhz, 0.09,
               "Apple Newsroom, 'Apple unveils M3, M3 Pro, and M3 Max' (Oct 2023): up to 36GB, "
               "150GB/s, 18-core GPU; FP32 derived from GPU clock"),
    apple_chip("m3-max-64gb", "Apple M3 Max (40-core GPU, 64GB)", 64, 400, 40, kM3GpuGhz, 0.15,
               "Apple Newsroom, 'Apple unveils M3, M3 Pro, and M3 Max' (Oct 2023): 400GB/s with the "
               "40-core GPU; FP32 derived from GPU clock"),
    apple_chip("m3-ultra-256gb", "Apple M3 Ultra (80-core GPU, 256GB)", 256, 819, 80, kM3GpuGhz, 0.27,
               "Apple Newsroom, 'Apple reveals M3 Ultra' (Mar 2025): up to 512GB, 819GB/s, 80-core "
               "GPU; FP32 derived from GPU clock"),
    apple_chip("m4-pro-48gb", "Apple M4 Pro (20-core GPU, 48GB)", 48, 273, 20, kM4GpuGhz, 0.08,
               "Apple Newsroom, 'Apple introduces M4 Pro and M4 Max' (Oct 2024): up to 64GB, 273GB/s, "
               "20-core GPU; FP32 derived from GPU clock"),
    apple_chip("m4-pro-64gb", "Apple M4 Pro (20-core GPU, 64GB)", 64, 273, 20, kM4GpuGhz, 0.09,
               "Apple Newsroom, 'Apple introduces M4 Pro and M4 Max' (Oct 2024): up to 64GB, 273GB/s, "
               "20-core GPU; FP32 derived from GPU clock"),
    apple_chip("m4-max-64gb", "Apple M4 Max (40-core GPU, 64GB)", 64, 546, 40, kM4GpuGhz, 0.11,
               "Apple Newsroom, 'Apple introduces M4 Pro and M4 Max' (Oct 2024): 546GB/s with the "
               "40-core GPU; FP32 derived from GPU clock"),
    apple_chip("m5-pro-64gb", "Apple M5 Pro (20-core GPU, 64GB)", 64, 307, 20, kM5GpuGhzAssumed, 0.11,
               "Apple Newsroom, 'Apple introduces M5 Pro and M5 Max' (Mar 2026): up to 64GB, 307GB/s, "
               "20-core GPU; FP32 assumes the M4 GPU clock (no M5 figure published)"),
    apple_chip("m5-max-128gb", "Apple M5 Max (40-core GPU, 128GB)", 128, 614, 40, kM5GpuGhzAssumed, 0.20,
               "Apple Newsroom, 'Apple introduces M5 Pro and M5 Max' (Mar 2026): up to 128GB, "
               "614GB/s, 40-core GPU; FP32 assumes the M4 GPU clock (no M5 figure published)"),
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
    // AMD Radeon (RDNA 3 / RDNA 4) desktop cards. fp32 is AMD's "Peak Single Precision" (dual-issue
    // vector rate); 16-bit and integer figures are the WMMA matrix rates: RDNA 3 does 512 FP16/BF16
    // or INT8 ops and 1024 INT4 ops per CU per clock (AMD RDNA 3 ISA reference, WMMA), so FP16
    // equals AMD's "Peak Half Precision"; RDNA 4 doubles FP16 and adds FP8 (AMD RDNA 4 ISA
    // reference). Memory: 24/20/16 GB of 16Gb GDDR6 chips, i.e. GiB.
    {.id = "rx-7900-xtx",
     .name = "AMD Radeon RX 7900 XTX 24GB",
     .vendor = "AMD",
     .memory_bytes = 24 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 960e9,
     // 96 CUs x 2.5 GHz boost: FP32 61.4, FP16 122.8 (AMD spec page), INT4 2x.
     .dense_flops_per_second = tflops(61.4, 0, 122.8, 122.8, 0, 0, 122.8, 245.8),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = 32e9,
     .gpus_per_node = 2,
     .price_per_hour_usd = 0.038,
     .price_source = kAmdMsrp,  // $999
     .sources = "AMD Radeon RX 7900 XTX specifications (amd.com/en/products/graphics/desktops/radeon/"
                "7000-series/amd-radeon-rx-7900xtx.html): 96 CUs, 2500 MHz boost, 24GB GDDR6, 384-bit, "
                "960 GB/s, FP32 61.4 / FP16 122.8 TFLOPS; AMD RDNA 3 ISA reference (WMMA)"},
    {.id = "rx-7900-xt",
     .name = "AMD Radeon RX 7900 XT 20GB",
     .vendor = "AMD",
     .memory_bytes = 20 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 800e9,
     // 84 CUs x 2.4 GHz boost: FP32 51.6, FP16 103.2 (AMD spec page), INT4 2x.
     .dense_flops_per_second = tflops(51.6, 0, 103.2, 103.2, 0, 0, 103.2, 206.4),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = 32e9,
     .gpus_per_node = 2,
     .price_per_hour_usd = 0.034,
     .price_source = kAmdMsrp,  // $899
     .sources = "AMD Radeon RX 7900 XT specifications (amd.com/en/products/graphics/desktops/radeon/"
                "7000-series/amd-radeon-rx-7900xt.html): 84 CUs, 2400 MHz boost, 20GB GDDR6, 320-bit, "
                "800 GB/s, FP32 51.6 / FP16 103.2 TFLOPS; AMD RDNA 3 ISA reference (WMMA)"},
    {.id = "rx-9070-xt",
     .name = "AMD Radeon RX 9070 XT 16GB",
     .vendor = "AMD",
     .memory_bytes = 16 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 640e9,  // 20 Gbps x 256 bit / 8
     // 64 CUs x 2.97 GHz boost: FP32 48.7; matrix FP16/BF16 1024, FP8/INT8 2048, INT4 4096 ops per
     // CU per clock = 194.6 / 389.3 / 778.6 dense (AMD's "1557 AI TOPS" is INT4 with sparsity).
     .dense_flops_per_second = tflops(48.7, 0, 194.6, 194.6, 389.3, 0, 389.3, 778.6),
     .interconnect = "PCIe 5.0 x16",
     .interconnect_bytes_per_second_per_direction = 64e9,
     .gpus_per_node = 2,
     .price_per_hour_usd = 0.023,
     .price_source = kAmdMsrp,  // $599
     .sources = "AMD Radeon RX 9070 XT specifications (amd.com/en/products/graphics/desktops/radeon/"
                "9000-series/amd-radeon-rx-9070xt.html): 64 CUs, 2970 MHz boost, 16GB GDDR6, 256-bit, "
                "640 GB/s, FP32 48.7 TFLOPS, 1557 AI TOPS (INT4 sparse); AMD RDNA 4 ISA reference"},
    // Strix Halo: the iGPU shares 128 GB of LPDDR5X-8000 on a 256-bit bus = 8000e6 x 32 B = 256 GB/s.
    // How much of it the GPU may map is a firmware/OS setting (AMD Variable Graphics Memory up to
    // 96 GB on Windows; the TTM/GTT limit on Linux), so no default cap is modelled here.
    {.id = "strix-halo-128gb",
     .name = "AMD Ryzen AI Max+ 395 (Radeon 8060S, 128GB)",
     .vendor = "AMD",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 256e9,
     // 40 RDNA 3.5 CUs x 2.9 GHz: FP32 dual-issue 40 x 256 x 2.9 = 29.7; WMMA FP16/BF16/INT8 40 x 512 x
     // 2.9 = 59.4, INT4 118.8 (RDNA 3 rates, as above).
     .dense_flops_per_second = tflops(29.7, 0, 59.4, 59.4, 0, 0, 59.4, 118.8),
     .interconnect = "none (single chip)",
     .interconnect_bytes_per_second_per_direction = 0,
     .gpus_per_node = 1,
     .unified_memory = true,
     .price_per_hour_usd = 0.076,
     .price_source = "estimate: Framework Desktop with Ryzen AI Max+ 395 128GB list price ($1,999) / "
                     "(3 years x 8760 h), 2025 (editable default)",
     .sources = "AMD Ryzen AI Max+ 395 specifications (amd.com/en/products/processors/laptop/ryzen/"
                "ai-300-series/amd-ryzen-ai-max-plus-395.html): Radeon 8060S, 40 CUs, 2900 MHz, "
                "LPDDR5X-8000, 256-bit, up to 128GB; AMD RDNA 3.5 ISA reference (WMMA)"},
    // Intel Arc B580 (Xe2): Intel publishes INT8 233 TOPS (XMX); XMX FP16/BF16 run at half the
    // INT8 rate. FP32: 20 Xe cores x 128 lanes x 2 x 2.67 GHz = 13.7 TFLOPS.
    {.id = "arc-b580",
     .name = "Intel Arc B580 12GB",
     .vendor = "Intel",
     .memory_bytes = 12 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 456e9,
     .dense_flops_per_second = tflops(13.7, 0, 116.5, 116.5, 0, 0, 233, 0),
     .interconnect = "PCIe 4.0 x8",
     .interconnect_bytes_per_second_per_direction = 16e9,
     .gpus_per_node = 1,
     .price_per_hour_usd = 0.0095,
     .price_source = "estimate: Intel launch price ($249) / (3 years x 8760 h), electricity excluded "
                     "(editable default)",
     .sources = "Intel Arc B580 Graphics specifications (intel.com/content/www/us/en/products/sku/"
                "241598/intel-arc-b580-graphics/specifications.html): 20 Xe cores, 2670 MHz, 12GB "
                "GDDR6, 192-bit, 456 GB/s, 233 peak TOPS (INT8), PCIe 4.0 x8; Intel Xe2 architecture "
                "(XMX: FP16/BF16 at half the INT8 rate)"},
};

}  // namespace

std::span<const Accelerator> other_vendor_accelerators() { return kTable; }

}  // namespace fitcheck::detail
