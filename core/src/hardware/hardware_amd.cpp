// SPDX-License-Identifier: MIT
// AMD: Instinct accelerators (one entry per device software sees), Radeon desktop cards and the
// Strix Halo APU.
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* kEstimate = "estimate, 2025: no broad public on-demand list price (editable default)";

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
};

}  // namespace

std::span<const Accelerator> amd_accelerators() { return kTable; }

}  // namespace fitcheck::detail
