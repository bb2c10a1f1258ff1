// SPDX-License-Identifier: MIT
// The CPU catalog: CPUs people run llama.cpp on, with the factors of their peak RAM bandwidth and FLOP/s
// (cpu.cpp looks them up and derives the rates).
//
// FLOPs per core per clock: FP32 FMA lanes x 2 x FMA pipes, from the vendors' optimization guides:
//   Zen 3 (same guide: family 19h covers Zen 3 and Zen 4): two 256-bit FMA pipes, AVX2 only:
//     8 x 2 x 2 = 32 FP32; no bf16 arithmetic.
//   Zen 4 (AMD Software Optimization Guide for AMD Family 19h Processors, pub. 56665, section 2.11):
//     two 256-bit FMA pipes; AVX-512 runs as two 256-bit halves: 8 x 2 x 2 = 32 FP32.
//     AVX512_BF16 VDPBF16PS: two bf16 products into each FP32 lane: 2 x 32 = 64.
//   Zen 5 (AMD Software Optimization Guide for AMD Family 1Ah Processors, pub. 58455): two 512-bit
//     FMA pipes on desktop and EPYC parts: 16 x 2 x 2 = 64 FP32, 128 bf16.
//   Raptor Cove / Golden Cove P-core (Intel 64 and IA-32 Architectures Optimization Reference
//     Manual, ch. 2): two 256-bit FMA ports with AVX2 (32 FP32); Sapphire Rapids Xeon W with
//     AVX-512 on two 512-bit ports (64 FP32) and AMX-BF16: 1024 bf16 FLOPs per cycle per core
//     (Intel AMX overview, intel.com: 1,024 BF16 operations per cycle per core).
//   Gracemont E-core (same manual, ch. 5): two 128-bit FMA units: 4 x 2 x 2 = 16 FP32.
//   Lion Cove P-core (Arrow Lake; same manual, 2024 edition): two 256-bit FMA ports, AVX2 and AVX-VNNI, no
//     AVX-512 and no Hyper-Threading: 32 FP32. Skymont E-core: four 128-bit FMA pipes: 4 x 2 x 4 = 32 FP32.
//   Raptor Lake has no bf16 arithmetic (AVX-512 fused off, no AVX512_BF16/AMX): bf16 0.
// Clocks are the base (guaranteed all-core) frequencies of the spec pages: a conservative peak;
// boost clocks are higher and AVX-512 clocks on Intel may be lower.
//
// Core dies (AMD): each core die (CCD) reads memory through its own Infinity Fabric On-Package link,
// 32 bytes per fabric clock (FCLK) for reads (chipsandcheese.com, "Pushing AMD's Infinity Fabric to its
// Limits"). A Zen 3, Zen 4 or Zen 5 die holds at most 8 cores (one 8-core CCX; AMD pubs. 56665 and
// 58455): 6 to 8 cores are one die, 12 and 16 two, 32 four, 64 eight. Zen 3 runs the fabric 1:1 with the
// memory clock (AnandTech, "Infinity Fabric Overclocking: What the FCLK", Corsair DDR4-5000 review):
// 1.6 GHz at DDR4-3200. AM5 parts (Zen 4 and 5) decouple it; fitcheck takes 2 GHz, where an AIDA64
// FCLK sweep on DDR5-6000 peaks (Chiphell, @harukaze5719, as reported by silverflick.com, "2000MHz FCLK
// + DDR5-6000 seems optimal for Ryzen 7000 CPUs"). One die at 2 GHz reads at most 64 GB/s, below
// DDR5-5200's 83.2: single-die desktop parts cannot use their RAM's peak. The EPYC and Zen 4/5
// Threadripper entries' 8 to 16 dies read more than their DRAM delivers, so no link is modelled there.
#include "hardware/cpu_catalog.hpp"

namespace fitcheck::detail {
namespace {

constexpr CpuCoreCluster kNone{};
// int8: Zen 3 has no VNNI (2 x fp32); Zen 4 and Zen 5 AVX512_VNNI, Raptor Cove and Gracemont AVX-VNNI,
// Sapphire Rapids AVX512_VNNI (4 x fp32 each, on the FMA units' width).
constexpr CpuCoreCluster zen3(int cores, double base_ghz) { return {cores, base_ghz * 1e9, 32, 0, 64, false}; }
constexpr CpuCoreCluster zen4(int cores, double base_ghz) { return {cores, base_ghz * 1e9, 32, 64, 128, true}; }
constexpr CpuCoreCluster zen5(int cores, double base_ghz) { return {cores, base_ghz * 1e9, 64, 128, 256, true}; }
constexpr CpuCoreCluster raptor_cove(int cores, double base_ghz) { return {cores, base_ghz * 1e9, 32, 0, 128, false}; }
constexpr CpuCoreCluster gracemont(int cores, double base_ghz) { return {cores, base_ghz * 1e9, 16, 0, 64, false}; }
constexpr CpuCoreCluster lion_cove(int cores, double base_ghz) {
  return {cores, base_ghz * 1e9, 32, 0, 128, false, false};
}
constexpr CpuCoreCluster skymont(int cores, double base_ghz) {
  return {cores, base_ghz * 1e9, 32, 0, 128, false, false};
}
constexpr CpuCoreCluster golden_cove_amx(int cores, double base_ghz) {
  return {cores, base_ghz * 1e9, 64, 1024, 256, true};
}

constexpr const CpuDevice kCpus[] = {
    {.id = "ryzen-9-7950x",
     .name = "AMD Ryzen 9 7950X",
     .vendor = "AMD",
     .performance = zen4(16, 4.5),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 9 7950X specifications (amd.com/en/products/processors/desktops/ryzen/7000-series/"
                "amd-ryzen-9-7950x.html): 16 cores, 4.5 GHz base, DDR5-5200, 2 channels; AMD pub. 56665",
     .compute_dies = 2,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-9-9950x",
     .name = "AMD Ryzen 9 9950X",
     .vendor = "AMD",
     .performance = zen5(16, 4.3),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX-512 (2 x 512-bit FMA)",
     .sources = "AMD Ryzen 9 9950X specifications (amd.com/en/products/processors/desktops/ryzen/9000-series/"
                "amd-ryzen-9-9950x.html): 16 cores, 4.3 GHz base, DDR5-5600, 2 channels; AMD pub. 58455",
     .compute_dies = 2,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-7-7800x3d",
     .name = "AMD Ryzen 7 7800X3D",
     .vendor = "AMD",
     .performance = zen4(8, 4.2),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 7 7800X3D specifications (amd.com/en/products/processors/desktops/ryzen/7000-series/"
                "amd-ryzen-7-7800x3d.html): 8 cores, 4.2 GHz base, DDR5-5200, 2 channels; AMD pub. 56665",
     .compute_dies = 1,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-5-7600x",
     .name = "AMD Ryzen 5 7600X",
     .vendor = "AMD",
     .performance = zen4(6, 4.7),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 5 7600X specifications (amd.com/en/products/processors/desktops/ryzen/7000-series/"
                "amd-ryzen-5-7600x.html): 6 cores, 4.7 GHz base, DDR5-5200, 2 channels; AMD pub. 56665",
     .compute_dies = 1,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-9-7900x",
     .name = "AMD Ryzen 9 7900X",
     .vendor = "AMD",
     .performance = zen4(12, 4.7),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 9 7900X specifications (amd.com/en/products/processors/desktops/ryzen/7000-series/"
                "amd-ryzen-9-7900x.html): 12 cores, 4.7 GHz base, DDR5-5200, 2 channels; AMD pub. 56665",
     .compute_dies = 2,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-9-7900",
     .name = "AMD Ryzen 9 7900",
     .vendor = "AMD",
     .performance = zen4(12, 3.7),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 9 7900 specifications (amd.com/en/products/processors/desktops/ryzen/7000-series/"
                "amd-ryzen-9-7900.html): 12 cores, 3.7 GHz base, DDR5-5200, 2 channels; AMD pub. 56665",
     .compute_dies = 2,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-7-9800x3d",
     .name = "AMD Ryzen 7 9800X3D",
     .vendor = "AMD",
     .performance = zen5(8, 4.7),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX-512 (2 x 512-bit FMA)",
     .sources = "AMD Ryzen 7 9800X3D specifications (amd.com/en/products/processors/desktops/ryzen/9000-series/"
                "amd-ryzen-7-9800x3d.html): 8 cores, 4.7 GHz base, DDR5-5600, 2 channels; AMD pub. 58455",
     .compute_dies = 1,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-9-9900x",
     .name = "AMD Ryzen 9 9900X",
     .vendor = "AMD",
     .performance = zen5(12, 4.4),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX-512 (2 x 512-bit FMA)",
     .sources = "AMD Ryzen 9 9900X specifications (amd.com/en/products/processors/desktops/ryzen/9000-series/"
                "amd-ryzen-9-9900x.html): 12 cores, 4.4 GHz base, DDR5-5600, 2 channels; AMD pub. 58455",
     .compute_dies = 2,
     .fabric_clock_hz = 2.0e9},
    {.id = "ryzen-9-5950x",
     .name = "AMD Ryzen 9 5950X",
     .vendor = "AMD",
     .performance = zen3(16, 3.4),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 3200e6,
     .memory_type = "DDR4-3200",
     .simd = "AVX2 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 9 5950X specifications (amd.com/en/products/processors/desktops/ryzen/5000-series/"
                "amd-ryzen-9-5950x.html): 16 cores, 3.4 GHz base, DDR4-3200, 2 channels; AMD pub. 56665",
     .compute_dies = 2,
     .fabric_clock_hz = 1.6e9},
    {.id = "ryzen-9-5900x",
     .name = "AMD Ryzen 9 5900X",
     .vendor = "AMD",
     .performance = zen3(12, 3.7),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 3200e6,
     .memory_type = "DDR4-3200",
     .simd = "AVX2 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 9 5900X specifications (amd.com/en/products/processors/desktops/ryzen/5000-series/"
                "amd-ryzen-9-5900x.html): 12 cores, 3.7 GHz base, DDR4-3200, 2 channels; AMD pub. 56665",
     .compute_dies = 2,
     .fabric_clock_hz = 1.6e9},
    {.id = "ryzen-7-5800x3d",
     .name = "AMD Ryzen 7 5800X3D",
     .vendor = "AMD",
     .performance = zen3(8, 3.4),
     .efficiency = kNone,
     .memory_channels = 2,
     .memory_transfers_per_second = 3200e6,
     .memory_type = "DDR4-3200",
     .simd = "AVX2 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen 7 5800X3D specifications (amd.com/en/products/processors/desktops/ryzen/5000-series/"
                "amd-ryzen-7-5800x3d.html): 8 cores, 3.4 GHz base, DDR4-3200, 2 channels; AMD pub. 56665",
     .compute_dies = 1,
     .fabric_clock_hz = 1.6e9},
    {.id = "threadripper-pro-7995wx",
     .name = "AMD Ryzen Threadripper PRO 7995WX",
     .vendor = "AMD",
     .performance = zen4(96, 2.5),
     .efficiency = kNone,
     .memory_channels = 8,
     .memory_transfers_per_second = 5200e6,
     .memory_type = "DDR5-5200 RDIMM",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen Threadripper PRO 7995WX specifications (amd.com/en/products/processors/workstations/"
                "ryzen-threadripper/7000-wx-series/amd-ryzen-threadripper-pro-7995wx.html): 96 cores, "
                "2.5 GHz base, DDR5-5200, 8 channels; AMD pub. 56665"},
    {.id = "threadripper-pro-5975wx",
     .name = "AMD Ryzen Threadripper PRO 5975WX",
     .vendor = "AMD",
     .performance = zen3(32, 3.6),
     .efficiency = kNone,
     .memory_channels = 8,
     .memory_transfers_per_second = 3200e6,
     .memory_type = "DDR4-3200 RDIMM",
     .simd = "AVX2 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen Threadripper PRO 5975WX specifications (amd.com/en/products/processors/workstations/"
                "ryzen-threadripper/5000-wx-series/amd-ryzen-threadripper-pro-5975wx.html): 32 cores, "
                "3.6 GHz base, DDR4-3200, 8 channels; AMD pub. 56665",
     .compute_dies = 4,
     .fabric_clock_hz = 1.6e9},
    {.id = "threadripper-pro-5995wx",
     .name = "AMD Ryzen Threadripper PRO 5995WX",
     .vendor = "AMD",
     .performance = zen3(64, 2.7),
     .efficiency = kNone,
     .memory_channels = 8,
     .memory_transfers_per_second = 3200e6,
     .memory_type = "DDR4-3200 RDIMM",
     .simd = "AVX2 (2 x 256-bit FMA)",
     .sources = "AMD Ryzen Threadripper PRO 5995WX specifications (amd.com/en/products/processors/workstations/"
                "ryzen-threadripper/5000-wx-series/amd-ryzen-threadripper-pro-5995wx.html): 64 cores, "
                "2.7 GHz base, DDR4-3200, 8 channels; AMD pub. 56665",
     .compute_dies = 8,
     .fabric_clock_hz = 1.6e9},
    {.id = "epyc-9654",
     .name = "AMD EPYC 9654",
     .vendor = "AMD",
     .performance = zen4(96, 2.4),
     .efficiency = kNone,
     .memory_channels = 12,
     .memory_transfers_per_second = 4800e6,
     .memory_type = "DDR5-4800 RDIMM",
     .simd = "AVX-512 (2 x 256-bit FMA)",
     .sources = "AMD EPYC 9654 specifications (amd.com/en/products/processors/server/epyc/4th-generation-9004-"
                "and-8004-series/amd-epyc-9654.html): 96 cores, 2.4 GHz base, DDR5-4800, 12 channels, "
                "460.8 GB/s per socket; AMD pub. 56665"},
    {.id = "epyc-9755",
     .name = "AMD EPYC 9755",
     .vendor = "AMD",
     .performance = zen5(128, 2.7),
     .efficiency = kNone,
     .memory_channels = 12,
     .memory_transfers_per_second = 6000e6,
     .memory_type = "DDR5-6000 RDIMM",
     .simd = "AVX-512 (2 x 512-bit FMA)",
     .sources = "AMD EPYC 9755 specifications (amd.com/en/products/processors/server/epyc/9005-series/"
                "amd-epyc-9755.html): 128 cores, 2.7 GHz base, DDR5-6000, 12 channels; AMD pub. 58455"},
    {.id = "core-i5-13600k",
     .name = "Intel Core i5-13600K",
     .vendor = "Intel",
     .performance = raptor_cove(6, 3.5),
     .efficiency = gracemont(8, 2.6),
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 2 x 128-bit FMA)",
     .sources = "Intel Core i5-13600K specifications (intel.com/content/www/us/en/products/sku/230493/"
                "intel-core-i513600k-processor-24m-cache-up-to-5-10-ghz/specifications.html): 6 P-cores 3.5 GHz base, "
                "8 E-cores 2.6 GHz base, "
                "DDR5-5600, 2 channels; Intel Optimization Reference Manual"},
    {.id = "core-i7-13700k",
     .name = "Intel Core i7-13700K",
     .vendor = "Intel",
     .performance = raptor_cove(8, 3.4),
     .efficiency = gracemont(8, 2.5),
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 2 x 128-bit FMA)",
     .sources = "Intel Core i7-13700K specifications (intel.com/content/www/us/en/products/sku/230500/"
                "intel-core-i713700k-processor-30m-cache-up-to-5-40-ghz/specifications.html): 8 P-cores 3.4 GHz base, "
                "8 E-cores 2.5 GHz base, "
                "DDR5-5600, 2 channels; Intel Optimization Reference Manual"},
    {.id = "core-i7-14700k",
     .name = "Intel Core i7-14700K",
     .vendor = "Intel",
     .performance = raptor_cove(8, 3.4),
     .efficiency = gracemont(12, 2.5),
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 2 x 128-bit FMA)",
     .sources = "Intel Core i7-14700K specifications (intel.com/content/www/us/en/products/sku/236783/"
                "intel-core-i7-processor-14700k-33m-cache-up-to-5-60-ghz/specifications.html): 8 P-cores 3.4 GHz base, "
                "12 E-cores 2.5 GHz base, "
                "DDR5-5600, 2 channels; Intel Optimization Reference Manual"},
    {.id = "core-i9-13900k",
     .name = "Intel Core i9-13900K",
     .vendor = "Intel",
     .performance = raptor_cove(8, 3.0),
     .efficiency = gracemont(16, 2.2),
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 2 x 128-bit FMA)",
     .sources = "Intel Core i9-13900K specifications (intel.com/content/www/us/en/products/sku/230496/"
                "intel-core-i913900k-processor-36m-cache-up-to-5-80-ghz/specifications.html): 8 P-cores "
                "3.0 GHz base, 16 E-cores 2.2 GHz base, DDR5-5600, 2 channels; Intel Optimization "
                "Reference Manual"},
    {.id = "core-i9-14900k",
     .name = "Intel Core i9-14900K",
     .vendor = "Intel",
     .performance = raptor_cove(8, 3.2),
     .efficiency = gracemont(16, 2.4),
     .memory_channels = 2,
     .memory_transfers_per_second = 5600e6,
     .memory_type = "DDR5-5600",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 2 x 128-bit FMA)",
     .sources = "Intel Core i9-14900K specifications (intel.com/content/www/us/en/products/sku/236773/"
                "intel-core-i9-processor-14900k-36m-cache-up-to-6-00-ghz/specifications.html): 8 P-cores "
                "3.2 GHz base, 16 E-cores 2.4 GHz base, DDR5-5600, 2 channels; Intel Optimization "
                "Reference Manual"},
    {.id = "core-ultra-9-285k",
     .name = "Intel Core Ultra 9 285K",
     .vendor = "Intel",
     .performance = lion_cove(8, 3.7),
     .efficiency = skymont(16, 3.2),
     .memory_channels = 2,
     .memory_transfers_per_second = 6400e6,
     .memory_type = "DDR5-6400",
     .simd = "AVX2 (P: 2 x 256-bit FMA, E: 4 x 128-bit FMA)",
     .sources = "Intel Core Ultra 9 Processor 285K specifications (intel.com, ark): 8 P-cores 3.7 GHz base, "
                "16 E-cores 3.2 GHz base, no Hyper-Threading, up to DDR5-6400, 2 channels; Intel Optimization "
                "Reference Manual"},
    {.id = "xeon-w9-3495x",
     .name = "Intel Xeon w9-3495X",
     .vendor = "Intel",
     .performance = golden_cove_amx(56, 1.9),
     .efficiency = kNone,
     .memory_channels = 8,
     .memory_transfers_per_second = 4800e6,
     .memory_type = "DDR5-4800 RDIMM",
     .simd = "AVX-512 (2 x 512-bit FMA) and AMX-BF16",
     .sources = "Intel Xeon w9-3495X specifications (intel.com/content/www/us/en/products/sku/233419/"
                "intel-xeon-w93495x-processor-105m-cache-1-90-ghz/specifications.html): 56 cores, "
                "1.9 GHz base, DDR5-4800, 8 channels; Intel Optimization Reference Manual; Intel AMX "
                "overview"},
};

constexpr CpuAlias kCpuAliases[] = {
    {"7950x", "ryzen-9-7950x"},
    {"amd-ryzen-9-7950x", "ryzen-9-7950x"},
    {"9950x", "ryzen-9-9950x"},
    {"amd-ryzen-9-9950x", "ryzen-9-9950x"},
    {"7995wx", "threadripper-pro-7995wx"},
    {"5975wx", "threadripper-pro-5975wx"},
    {"5995wx", "threadripper-pro-5995wx"},
    {"amd-ryzen-threadripper-pro-7995wx", "threadripper-pro-7995wx"},
    {"9654", "epyc-9654"},
    {"amd-epyc-9654", "epyc-9654"},
    {"9755", "epyc-9755"},
    {"amd-epyc-9755", "epyc-9755"},
    {"13900k", "core-i9-13900k"},
    {"i9-13900k", "core-i9-13900k"},
    {"14900k", "core-i9-14900k"},
    {"i9-14900k", "core-i9-14900k"},
    {"w9-3495x", "xeon-w9-3495x"},
    {"7800x3d", "ryzen-7-7800x3d"},
    {"7600x", "ryzen-5-7600x"},
    {"7900x", "ryzen-9-7900x"},
    {"9800x3d", "ryzen-7-9800x3d"},
    {"9900x", "ryzen-9-9900x"},
    {"5950x", "ryzen-9-5950x"},
    {"5900x", "ryzen-9-5900x"},
    {"5800x3d", "ryzen-7-5800x3d"},
    {"13600k", "core-i5-13600k"},
    {"i5-13600k", "core-i5-13600k"},
    {"13700k", "core-i7-13700k"},
    {"i7-13700k", "core-i7-13700k"},
    {"14700k", "core-i7-14700k"},
    {"i7-14700k", "core-i7-14700k"},
    {"285k", "core-ultra-9-285k"},
    {"ultra-9-285k", "core-ultra-9-285k"},
    {"intel-core-ultra-9-285k", "core-ultra-9-285k"},
    {"amd-ryzen-9-7900", "ryzen-9-7900"},
};

}  // namespace

std::span<const CpuDevice> cpu_table() { return kCpus; }

std::span<const CpuAlias> cpu_aliases() { return kCpuAliases; }

}  // namespace fitcheck::detail
