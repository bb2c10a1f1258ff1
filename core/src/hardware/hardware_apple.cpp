// SPDX-License-Identifier: MIT
// Apple silicon: the M1 to M5 chips at their unified memory sizes.
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

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

constexpr const Accelerator kTable[] = {
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
};

}  // namespace

std::span<const Accelerator> apple_accelerators() { return kTable; }

}  // namespace fitcheck::detail
