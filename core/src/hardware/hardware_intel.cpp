// SPDX-License-Identifier: MIT
// Intel: Gaudi accelerators and the Arc B580.
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* kEstimate = "estimate, 2025: no broad public on-demand list price (editable default)";

constexpr const Accelerator kTable[] = {
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

std::span<const Accelerator> intel_accelerators() { return kTable; }

}  // namespace fitcheck::detail
