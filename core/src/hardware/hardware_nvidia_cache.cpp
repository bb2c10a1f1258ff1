// SPDX-License-Identifier: MIT
// NVIDIA GPUs' streaming multiprocessors and L2 cache, from the architecture whitepapers: llama.cpp's
// MMQ keeps one weight tile per SM in flight, so whether a multiply's tiles stay in L2 depends on both
// (docs/local.md, "MMQ's tile traffic"). GPUs whose figures were not found in a source stay out.
#include <array>
#include <string_view>

#include "fitcheck/hardware.hpp"
#include "hardware/catalog_table.hpp"

namespace fitcheck {
namespace {

struct CacheEntry {
  std::string_view id;
  int streaming_multiprocessors;
  std::int64_t l2_kib;
};

// NVIDIA Tesla V100 GPU Architecture (2017), table 1; NVIDIA A100 Tensor Core GPU Architecture
// (2020), table 3; NVIDIA H100 Tensor Core GPU Architecture (2022), table 3 (H200, H100 NVL and GH200
// carry the SXM5 part's 132 SMs and 50 MB); NVIDIA Turing GPU Architecture (2018), tables 1-4 and
// appendix A (T4); NVIDIA Ampere GA102 GPU Architecture (2020), tables 1-3 and appendix (A10, A40,
// RTX A-series); NVIDIA Ada GPU Architecture (2022), tables 1-3 and appendix (L4, L40, L40S, RTX 6000
// Ada, the RTX 40 SUPER cards from their product pages' GPU); NVIDIA RTX Blackwell GPU Architecture
// (2025), tables 1-2 (RTX 5090, 5080, RTX PRO 6000); GB10 (DGX Spark): Hot Chips 2025, "NVIDIA GB10
// SoC", 48 SMs and a 24 MB L2. The SM counts agree with the dense rates' per_sm() arguments.
constexpr std::array kCaches = {
    CacheEntry{"v100-sxm2-16gb", 80, 6144},
    CacheEntry{"v100-sxm2-32gb", 80, 6144},
    CacheEntry{"a100-sxm-40gb", 108, 40960},
    CacheEntry{"a100-sxm-80gb", 108, 40960},
    CacheEntry{"a100-pcie-40gb", 108, 40960},
    CacheEntry{"a100-pcie-80gb", 108, 40960},
    CacheEntry{"h100-sxm-80gb", 132, 51200},
    CacheEntry{"h100-pcie-80gb", 114, 51200},
    CacheEntry{"h100-nvl-94gb", 132, 51200},
    CacheEntry{"h200", 132, 51200},
    CacheEntry{"h200-nvl", 132, 51200},
    CacheEntry{"gh200", 132, 51200},
    CacheEntry{"t4", 40, 4096},
    CacheEntry{"a10", 72, 6144},
    CacheEntry{"a10g", 80, 6144},
    CacheEntry{"a40", 84, 6144},
    CacheEntry{"l4", 58, 49152},
    CacheEntry{"l40", 142, 98304},
    CacheEntry{"l40s", 142, 98304},
    CacheEntry{"rtx-6000-ada", 142, 98304},
    CacheEntry{"rtx-2060-12gb", 34, 3072},
    CacheEntry{"rtx-2070", 36, 4096},
    CacheEntry{"rtx-2080", 46, 4096},
    CacheEntry{"rtx-2080-ti", 68, 5632},
    CacheEntry{"rtx-3060-12gb", 28, 3072},
    CacheEntry{"rtx-3060-ti", 38, 4096},
    CacheEntry{"rtx-3070", 46, 4096},
    CacheEntry{"rtx-3080-10gb", 68, 5120},
    CacheEntry{"rtx-3080-12gb", 70, 6144},
    CacheEntry{"rtx-3080-ti", 80, 6144},
    CacheEntry{"rtx-3090", 82, 6144},
    CacheEntry{"rtx-3090-ti", 84, 6144},
    CacheEntry{"rtx-a4000", 48, 4096},
    CacheEntry{"rtx-a4500", 56, 5120},
    CacheEntry{"rtx-a5000", 64, 6144},
    CacheEntry{"rtx-a6000", 84, 6144},
    CacheEntry{"rtx-4060", 24, 24576},
    CacheEntry{"rtx-4060-ti-8gb", 34, 32768},
    CacheEntry{"rtx-4060-ti-16gb", 34, 32768},
    CacheEntry{"rtx-4070", 46, 36864},
    CacheEntry{"rtx-4070-super", 56, 49152},
    CacheEntry{"rtx-4070-ti", 60, 49152},
    CacheEntry{"rtx-4070-ti-super", 66, 49152},
    CacheEntry{"rtx-4080", 76, 65536},
    CacheEntry{"rtx-4080-super", 80, 65536},
    CacheEntry{"rtx-4090", 128, 73728},
    CacheEntry{"rtx-5080", 84, 65536},
    CacheEntry{"rtx-5090", 170, 98304},
    CacheEntry{"rtx-pro-6000-blackwell", 188, 131072},
    CacheEntry{"dgx-spark", 48, 24576},
};

}  // namespace

GpuOnChipCache gpu_on_chip_cache(const Accelerator& accelerator) {
  for (const CacheEntry& entry : kCaches)
    if (entry.id == accelerator.id) return {entry.streaming_multiprocessors, entry.l2_kib * 1024};
  return {};
}

}  // namespace fitcheck
