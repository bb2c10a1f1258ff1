// SPDX-License-Identifier: MIT
// NVIDIA GDDR cards: inference parts (T4, A10, A10G, A40, L4, L40, L40S) and workstation/GeForce
// cards; and the DGX Spark's GB10, whose Blackwell GPU shares the machine's LPDDR5x. memory_bytes is nvidia-smi's total
// with the card's default ECC setting: datacenter cards ship with ECC on, which costs 1/16 of GDDR6 (A10: 23028MiB with
// ECC, 24564MiB without).
//
// GeForce tensor rates: the whitepapers list fp16 "with FP16 accumulate" and "with FP32
// accumulate"; GeForce runs the latter at half rate. Frameworks accumulate in fp32 (bf16 has no
// other mode), so the fp32-accumulate column is used for bf16, fp16 and fp8.
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* kRunPod = "RunPod on-demand list price, 2025 (editable default)";
// Cards bought for a desk rather than rented: the launch price over 3 years of hours.
constexpr const char* kMsrpAmortized =
    "estimate: NVIDIA launch price (USD, in the entry's comment) / (3 years x 8760 h), electricity "
    "excluded (editable default)";
constexpr double kHoursIn3Years = 3 * 8760.0;

// Dense rates derived from SM count x boost clock x the per-SM, per-clock rate of the
// architecture, the rate being the whitepaper column of one card divided by its SMs x boost clock
// (ComputeDtype order; GeForce tensor rates with FP32 accumulate, as above):
//   Turing GeForce (TU102 whitepaper, RTX 2080 Ti: 68 SMs x 1.545 GHz, 13.4 / 53.8 / 215.2 / 430.3):
//     FP32 128, FP16 512, INT8 2048, INT4 4096; no TF32, BF16 or FP8.
//   Ampere GeForce (GA102 whitepaper, RTX 3090: 82 SMs x 1.695 GHz, 35.6 / 71 / 284 / 568):
//     FP32 256, TF32 256, BF16/FP16 512, INT8 2048, INT4 4096.
//   Ampere workstation (full-rate FP32 accumulate; matches the A40 entry and the RTX A-series
//     datasheets' sparse tensor figures): FP32 256, TF32 512, BF16/FP16 1024, INT8 2048, INT4 4096.
//   Ada GeForce (Ada whitepaper, RTX 4090: 128 SMs x 2.52 GHz, 82.6 / 165.2 / 660.6):
//     FP32 256, TF32 256, BF16/FP16/FP8 512, INT8 2048, INT4 4096.
//   Blackwell GeForce (RTX Blackwell whitepaper, RTX 5090: 170 SMs x 2.407 GHz, 104.8 / 209.5 /
//     419 / 1676 / 838): FP32 256, TF32 256, BF16/FP16 512, FP8 1024, FP4 4096, INT8 2048.
struct PerSmRates {
  double fp32, tf32, bf16, fp16, fp8, fp4, int8, int4;  // operations per SM per clock
};
constexpr PerSmRates kTuringGeForce{128, 0, 0, 512, 0, 0, 2048, 4096};
constexpr PerSmRates kAmpereGeForce{256, 256, 512, 512, 0, 0, 2048, 4096};
constexpr PerSmRates kAmpereWorkstation{256, 512, 1024, 1024, 0, 0, 2048, 4096};
constexpr PerSmRates kAdaGeForce{256, 256, 512, 512, 512, 0, 2048, 4096};
constexpr PerSmRates kBlackwellGeForce{256, 256, 512, 512, 1024, 4096, 2048, 0};
// RTX PRO 6000 Blackwell: full-rate FP32 accumulate for FP16/BF16/FP8, as on the RTX 6000 Ada;
// FP4 at the GeForce rate, which its datasheet's 4000 AI TOPS (sparse) matches.
constexpr PerSmRates kBlackwellWorkstation{256, 512, 1024, 1024, 2048, 4096, 2048, 0};

constexpr std::array<double, kComputeDtypeCount> per_sm(const PerSmRates& r, int sms, double boost_ghz) {
  const double clocks = sms * boost_ghz * 1e9;
  return {r.fp32 * clocks, r.tf32 * clocks, r.bf16 * clocks, r.fp16 * clocks,
          r.fp8 * clocks,  r.fp4 * clocks,  r.int8 * clocks, r.int4 * clocks};
}

constexpr double kPcie4x8 = 16e9;  // RTX 4060 / 4060 Ti: eight lanes
constexpr double kPcie5x8 = 32e9;  // RTX 5060 Ti: eight lanes
// A desktop card with GDDR6/GDDR6X/GDDR7 of whole 1 GiB or 2 GiB chips ("N GB" is N GiB; no ECC).
constexpr Accelerator desktop_card(const char* id, const char* name, int memory_gib, double bandwidth_gb_per_s,
                                   std::array<double, kComputeDtypeCount> dense, const char* interconnect,
                                   double interconnect_per_direction, int gpus_per_node, double launch_price_usd,
                                   const char* sources) {
  return {.id = id,
          .name = name,
          .vendor = "NVIDIA",
          .memory_bytes = memory_gib * kGiB,
          .memory_convention = MemoryConvention::binary_capacity,
          .memory_bandwidth_bytes_per_second = bandwidth_gb_per_s * 1e9,
          .dense_flops_per_second = dense,
          .interconnect = interconnect,
          .interconnect_bytes_per_second_per_direction = interconnect_per_direction,
          .gpus_per_node = gpus_per_node,
          .price_per_hour_usd = launch_price_usd / kHoursIn3Years,
          .price_source = kMsrpAmortized,
          .sources = sources};
}

// PCIe per-direction: the sheets' "PCIe Gen4: 64 GB/s" counts both directions.
constexpr double kPcie3 = 16e9;
constexpr double kPcie4 = 32e9;
constexpr double kPcie5 = 64e9;

constexpr const Accelerator kTable[] = {
    {.id = "t4",
     .name = "NVIDIA T4 16GB",
     .vendor = "NVIDIA",
     .memory_bytes = 15360 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 320e9,
     // Turing: fp16 tensor cores with int8/int4; no bf16 or tf32.
     .dense_flops_per_second = tflops(8.1, 0, 0, 65, 0, 0, 130, 260),
     .interconnect = "PCIe 3.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie3,
     .gpus_per_node = 4,
     .price_per_hour_usd = 0.35,
     .price_source = "Google Cloud GPU price for T4 attached to N1, 2025 (editable default)",
     .sources = "NVIDIA T4 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/tesla-t4); "
                "memory: nvidia-smi 15360MiB"},
    {.id = "a10",
     .name = "NVIDIA A10 24GB",
     .vendor = "NVIDIA",
     .memory_bytes = 23028 * kMiB,  // a 24 GB card (not 28 GB), ECC on
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 600e9,
     // Sheet: TF32 125*, BF16/FP16 250*, INT8 500*, INT4 1000* (sparse).
     .dense_flops_per_second = tflops(31.2, 62.5, 125, 125, 0, 0, 250, 500),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 4,
     .price_per_hour_usd = 0.75,
     .price_source = "Lambda Cloud on-demand list price, 2025 (editable default)",
     .sources = "NVIDIA A10 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/products/a10-gpu); "
                "memory: nvidia-smi 23028MiB"},
    {.id = "a10g",
     .name = "NVIDIA A10G 24GB (AWS)",
     .vendor = "NVIDIA",
     .memory_bytes = 23028 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 600e9,
     // AWS-only part without an NVIDIA datasheet: more CUDA cores than A10, half-rate tensor
     // cores. No published integer rates.
     .dense_flops_per_second = tflops(35, 35, 70, 70, 0, 0, 0, 0),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.006,
     .price_source = "AWS g5.xlarge on-demand, us-east-1, 2025 (includes host; editable default)",
     .sources = "AWS EC2 G5 instance page (aws.amazon.com/ec2/instance-types/g5): 24 GB, "
                "600 GB/s; compute as tabulated in Baseten, 'NVIDIA A10 vs A10G for ML model "
                "inference'; memory: nvidia-smi 23028MiB"},
    {.id = "a40",
     .name = "NVIDIA A40 48GB",
     .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 696e9,
     // Sheet: TF32 149.6*, BF16/FP16 299.4*, INT8 598.6*, INT4 1197.4* (sparse).
     .dense_flops_per_second = tflops(37.4, 74.8, 149.7, 149.7, 0, 0, 299.3, 598.7),
     // NVLink bridges (112.5 GB/s) join pairs only.
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.40,
     .price_source = kRunPod,
     .sources = "NVIDIA A40 datasheet (nvidia.com/en-us/data-center/a40); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "l4",
     .name = "NVIDIA L4 24GB",
     .vendor = "NVIDIA",
     .memory_bytes = 23034 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 300e9,
     // Sheet lists sparse only: TF32 120*, BF16/FP16 242*, FP8/INT8 485*.
     .dense_flops_per_second = tflops(30.3, 60, 121, 121, 242.5, 0, 242.5, 0),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.39,
     .price_source = kRunPod,
     .sources = "NVIDIA L4 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/l4); "
                "memory: nvidia-smi 23034MiB"},
    {.id = "l40",
     .name = "NVIDIA L40 48GB",
     .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 864e9,
     // Half the L40S tensor rate on the same die. Sheet: BF16 362.1*, FP8 724*, INT4 1448*.
     .dense_flops_per_second = tflops(90.5, 90.5, 181.05, 181.05, 362, 0, 362, 724),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.99,
     .price_source = kRunPod,
     .sources = "NVIDIA L40 datasheet (nvidia.com/en-us/data-center/l40); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "l40s",
     .name = "NVIDIA L40S 48GB",
     .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 864e9,
     // Sheet: TF32 366*, BF16/FP16 733*, FP8 1466* (sparse); no INT4 figure on the sheet.
     .dense_flops_per_second = tflops(91.6, 183, 362.05, 362.05, 733, 0, 733, 0),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.86,
     .price_source = kRunPod,
     .sources = "NVIDIA L40S datasheet (nvidia.com/en-us/data-center/l40s); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "rtx-3090",
     .name = "NVIDIA GeForce RTX 3090 24GB",
     .vendor = "NVIDIA",
     .memory_bytes = 24576 * kMiB,  // no ECC on GeForce
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 936e9,
     // Whitepaper: FP16 (FP32 acc.) 71/142*, BF16 71/142*, TF32 35.6/71*, INT8 284/568*.
     .dense_flops_per_second = tflops(35.6, 35.6, 71, 71, 0, 0, 284, 568),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.46,
     .price_source = kRunPod,
     .sources = "NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A, GeForce RTX 3090 "
                "column; memory: nvidia-smi 24576MiB"},
    {.id = "rtx-4090",
     .name = "NVIDIA GeForce RTX 4090 24GB",
     .vendor = "NVIDIA",
     .memory_bytes = 24564 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1008e9,
     // Whitepaper: FP16/BF16/FP8 (FP32 acc.) 165.2/330.4*, TF32 82.6/165.2*, INT8 660.6/1321.2*.
     .dense_flops_per_second = tflops(82.6, 82.6, 165.2, 165.2, 165.2, 0, 660.6, 1321.2),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.59,
     .price_source = kRunPod,
     .sources = "NVIDIA Ada GPU Architecture whitepaper, Appendix A, GeForce RTX 4090 column; "
                "memory: nvidia-smi 24564MiB"},
    {.id = "rtx-5090",
     .name = "NVIDIA GeForce RTX 5090 32GB",
     .vendor = "NVIDIA",
     .memory_bytes = 32607 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1792e9,
     // Whitepaper (FP32 acc.): FP16/BF16 209.5/419*, FP8 419/838*, FP4 1676/3352* ("AI TOPS").
     // No INT4 tensor rate is listed for Blackwell GeForce.
     .dense_flops_per_second = tflops(104.8, 104.8, 209.5, 209.5, 419, 1676, 838, 0),
     .interconnect = "PCIe 5.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie5,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.89,
     .price_source = kRunPod,
     .sources = "NVIDIA RTX Blackwell GPU Architecture whitepaper, Appendix, GeForce RTX 5090 "
                "column; memory: nvidia-smi 32607MiB"},
    {.id = "rtx-6000-ada",
     .name = "NVIDIA RTX 6000 Ada Generation 48GB",
     .vendor = "NVIDIA",
     .memory_bytes = 49140 * kMiB,  // ECC off by default on workstation cards
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 960e9,
     // Sheet headline "Tensor 1,457 TFLOPS" is FP8 with sparsity; full-rate FP32 accumulate
     // (142 SMs, like L40S).
     .dense_flops_per_second = tflops(91.1, 182.1, 364.2, 364.2, 728.5, 0, 728.5, 1457),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.77,
     .price_source = kRunPod,
     .sources = "NVIDIA RTX 6000 Ada Generation datasheet "
                "(nvidia.com/en-us/design-visualization/rtx-6000); NVIDIA Ada GPU Architecture "
                "whitepaper; memory: nvidia-smi 49140MiB"},
    // Desktop and workstation cards people run models on locally (issue #16). Rates per the
    // PerSmRates table above; memory as the chips hold it (ECC off: the workstation default);
    // gpus_per_node: a desktop's two x16 slots, four in a workstation.
    desktop_card("rtx-2060-12gb", "NVIDIA GeForce RTX 2060 12GB", 12, 360, per_sm(kTuringGeForce, 34, 1.65),
                 "PCIe 3.0 x16", kPcie3, 2, 299,  // none announced: an estimate
                 "NVIDIA GeForce RTX 2060 12GB specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/rtx-2060): 2176 CUDA cores (34 SMs), 1650 MHz "
                 "boost, 12GB GDDR6, 192-bit, 15 Gbps; rates: Turing whitepaper per-SM (launch price: "
                 "none announced, $299 taken)"),
    desktop_card("rtx-2070", "NVIDIA GeForce RTX 2070 8GB", 8, 448, per_sm(kTuringGeForce, 36, 1.62), "PCIe 3.0 x16",
                 kPcie3, 2, 499,  // launch price, USD
                 "NVIDIA Turing GPU Architecture whitepaper, Appendix A, GeForce RTX 2070 reference "
                 "column: 36 SMs, 1620 MHz boost, 8GB GDDR6, 448 GB/s, FP32 7.5, FP16 tensor (FP32 acc.) "
                 "29.9 TFLOPS"),
    desktop_card("rtx-2080", "NVIDIA GeForce RTX 2080 8GB", 8, 448, per_sm(kTuringGeForce, 46, 1.71), "PCIe 3.0 x16",
                 kPcie3, 2, 699,  // launch price, USD
                 "NVIDIA Turing GPU Architecture whitepaper, Appendix A, GeForce RTX 2080 reference "
                 "column: 46 SMs, 1710 MHz boost, 8GB GDDR6, 448 GB/s, FP32 10.1, FP16 tensor (FP32 "
                 "acc.) 40.3 TFLOPS"),
    desktop_card("rtx-2080-ti", "NVIDIA GeForce RTX 2080 Ti 11GB", 11, 616, per_sm(kTuringGeForce, 68, 1.545),
                 "PCIe 3.0 x16", kPcie3, 2, 999,  // launch price, USD
                 "NVIDIA Turing GPU Architecture whitepaper, Appendix A, GeForce RTX 2080 Ti reference "
                 "column: 68 SMs, 1545 MHz boost, 11GB GDDR6, 616 GB/s, FP32 13.4, FP16 tensor (FP32 "
                 "acc.) 53.8, INT8 215.2 TOPS"),
    desktop_card("rtx-3060-12gb", "NVIDIA GeForce RTX 3060 12GB", 12, 360, per_sm(kAmpereGeForce, 28, 1.777),
                 "PCIe 4.0 x16", kPcie4, 2, 329,  // launch price, USD
                 "NVIDIA GeForce RTX 3060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti): 3584 CUDA cores "
                 "(28 SMs), 1777 MHz boost, 12GB GDDR6, 192-bit, 360 GB/s; rates: GA102 whitepaper "
                 "per-SM"),
    desktop_card("rtx-3060-ti", "NVIDIA GeForce RTX 3060 Ti 8GB", 8, 448, per_sm(kAmpereGeForce, 38, 1.665),
                 "PCIe 4.0 x16", kPcie4, 2, 399,  // launch price, USD
                 "NVIDIA GeForce RTX 3060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti): 4864 CUDA cores "
                 "(38 SMs), 1665 MHz boost, 8GB GDDR6, 256-bit, 448 GB/s; rates: GA102 whitepaper per-SM"),
    desktop_card("rtx-3070", "NVIDIA GeForce RTX 3070 8GB", 8, 448, per_sm(kAmpereGeForce, 46, 1.725), "PCIe 4.0 x16",
                 kPcie4, 2, 499,  // launch price, USD
                 "NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A, GeForce RTX 3070 column: "
                 "46 SMs, 1725 MHz boost, 8GB GDDR6, 448 GB/s, FP32 20.3, FP16 tensor (FP32 acc.) 40.6 "
                 "TFLOPS"),
    desktop_card("rtx-3080-10gb", "NVIDIA GeForce RTX 3080 10GB", 10, 760, per_sm(kAmpereGeForce, 68, 1.71),
                 "PCIe 4.0 x16", kPcie4, 2, 699,  // launch price, USD
                 "NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A, GeForce RTX 3080 column: "
                 "68 SMs, 1710 MHz boost, 10GB GDDR6X, 760 GB/s, FP32 29.8, FP16 tensor (FP32 acc.) 59.5 "
                 "TFLOPS"),
    desktop_card("rtx-3080-12gb", "NVIDIA GeForce RTX 3080 12GB", 12, 912, per_sm(kAmpereGeForce, 70, 1.71),
                 "PCIe 4.0 x16", kPcie4, 2, 799,  // none announced: an estimate
                 "NVIDIA GeForce RTX 3080 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3080-3080ti): 8960 CUDA cores "
                 "(70 SMs), 1710 MHz boost, 12GB GDDR6X, 384-bit, 912 GB/s; rates: GA102 whitepaper "
                 "per-SM (launch price: none announced, $799 taken)"),
    desktop_card("rtx-3080-ti", "NVIDIA GeForce RTX 3080 Ti 12GB", 12, 912, per_sm(kAmpereGeForce, 80, 1.665),
                 "PCIe 4.0 x16", kPcie4, 2, 1199,  // launch price, USD
                 "NVIDIA GeForce RTX 3080 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3080-3080ti): 10240 CUDA cores "
                 "(80 SMs), 1665 MHz boost, 12GB GDDR6X, 384-bit, 912 GB/s; rates: GA102 whitepaper "
                 "per-SM"),
    desktop_card("rtx-3090-ti", "NVIDIA GeForce RTX 3090 Ti 24GB", 24, 1008, per_sm(kAmpereGeForce, 84, 1.86),
                 "PCIe 4.0 x16", kPcie4, 2, 1999,  // launch price, USD
                 "NVIDIA GeForce RTX 3090 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti): 10752 CUDA cores "
                 "(84 SMs), 1860 MHz boost, 24GB GDDR6X, 384-bit, 1008 GB/s; rates: GA102 whitepaper "
                 "per-SM"),
    desktop_card("rtx-4060", "NVIDIA GeForce RTX 4060 8GB", 8, 272, per_sm(kAdaGeForce, 24, 2.46), "PCIe 4.0 x8",
                 kPcie4x8, 2, 299,  // launch price, USD
                 "NVIDIA GeForce RTX 4060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti): 3072 CUDA cores "
                 "(24 SMs), 2460 MHz boost, 8GB GDDR6, 128-bit, 272 GB/s, PCIe 4.0 x8; rates: Ada "
                 "whitepaper per-SM"),
    desktop_card("rtx-4060-ti-8gb", "NVIDIA GeForce RTX 4060 Ti 8GB", 8, 288, per_sm(kAdaGeForce, 34, 2.535),
                 "PCIe 4.0 x8", kPcie4x8, 2, 399,  // launch price, USD
                 "NVIDIA GeForce RTX 4060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti): 4352 CUDA cores "
                 "(34 SMs), 2535 MHz boost, 8GB GDDR6, 128-bit, 288 GB/s, PCIe 4.0 x8; rates: Ada "
                 "whitepaper per-SM"),
    desktop_card("rtx-4060-ti-16gb", "NVIDIA GeForce RTX 4060 Ti 16GB", 16, 288, per_sm(kAdaGeForce, 34, 2.535),
                 "PCIe 4.0 x8", kPcie4x8, 2, 499,  // launch price, USD
                 "NVIDIA GeForce RTX 4060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti): 4352 CUDA cores "
                 "(34 SMs), 2535 MHz boost, 16GB GDDR6, 128-bit, 288 GB/s, PCIe 4.0 x8; rates: Ada "
                 "whitepaper per-SM"),
    desktop_card("rtx-4070", "NVIDIA GeForce RTX 4070 12GB", 12, 504, per_sm(kAdaGeForce, 46, 2.475), "PCIe 4.0 x16",
                 kPcie4, 2, 599,  // launch price, USD
                 "NVIDIA GeForce RTX 4070 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family): 5888 CUDA cores "
                 "(46 SMs), 2475 MHz boost, 12GB GDDR6X, 192-bit, 504 GB/s; rates: Ada whitepaper per-SM"),
    desktop_card("rtx-4070-super", "NVIDIA GeForce RTX 4070 SUPER 12GB", 12, 504, per_sm(kAdaGeForce, 56, 2.475),
                 "PCIe 4.0 x16", kPcie4, 2, 599,  // launch price, USD
                 "NVIDIA GeForce RTX 4070 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family): 7168 CUDA cores "
                 "(56 SMs), 2475 MHz boost, 12GB GDDR6X, 192-bit, 504 GB/s; rates: Ada whitepaper per-SM"),
    desktop_card("rtx-4070-ti", "NVIDIA GeForce RTX 4070 Ti 12GB", 12, 504, per_sm(kAdaGeForce, 60, 2.61),
                 "PCIe 4.0 x16", kPcie4, 2, 799,  // launch price, USD
                 "NVIDIA Ada GPU Architecture whitepaper, Appendix A, GeForce RTX 4080 12GB column "
                 "(launched as RTX 4070 Ti): 60 SMs, 2610 MHz boost, 12GB GDDR6X, 504 GB/s, FP32 40.1 "
                 "TFLOPS"),
    desktop_card("rtx-4070-ti-super", "NVIDIA GeForce RTX 4070 Ti SUPER 16GB", 16, 672, per_sm(kAdaGeForce, 66, 2.61),
                 "PCIe 4.0 x16", kPcie4, 2, 799,  // launch price, USD
                 "NVIDIA GeForce RTX 4070 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family): 8448 CUDA cores "
                 "(66 SMs), 2610 MHz boost, 16GB GDDR6X, 256-bit, 672 GB/s; rates: Ada whitepaper per-SM"),
    desktop_card("rtx-4080", "NVIDIA GeForce RTX 4080 16GB", 16, 716.8, per_sm(kAdaGeForce, 76, 2.505), "PCIe 4.0 x16",
                 kPcie4, 2, 1199,  // launch price, USD
                 "NVIDIA Ada GPU Architecture whitepaper, Appendix A, GeForce RTX 4080 16GB column: 76 "
                 "SMs, 2505 MHz boost, 16GB GDDR6X, 716.8 GB/s, FP32 48.7, FP16 tensor (FP32 acc.) 97.5 "
                 "TFLOPS"),
    desktop_card("rtx-4080-super", "NVIDIA GeForce RTX 4080 SUPER 16GB", 16, 736, per_sm(kAdaGeForce, 80, 2.55),
                 "PCIe 4.0 x16", kPcie4, 2, 999,  // launch price, USD
                 "NVIDIA GeForce RTX 4080 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family): 10240 CUDA cores "
                 "(80 SMs), 2550 MHz boost, 16GB GDDR6X, 256-bit, 23 Gbps = 736 GB/s; rates: Ada "
                 "whitepaper per-SM"),
    desktop_card("rtx-5060-ti-16gb", "NVIDIA GeForce RTX 5060 Ti 16GB", 16, 448, per_sm(kBlackwellGeForce, 36, 2.572),
                 "PCIe 5.0 x8", kPcie5x8, 2, 429,  // launch price, USD
                 "NVIDIA GeForce RTX 5060 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5060-family): 4608 CUDA cores "
                 "(36 SMs), 2572 MHz boost, 16GB GDDR7, 128-bit, 448 GB/s, PCIe 5.0 x8, 759 AI TOPS (FP4 "
                 "sparse); rates: RTX Blackwell whitepaper per-SM"),
    desktop_card("rtx-5070", "NVIDIA GeForce RTX 5070 12GB", 12, 672, per_sm(kBlackwellGeForce, 48, 2.512),
                 "PCIe 5.0 x16", kPcie5, 2, 549,  // launch price, USD
                 "NVIDIA GeForce RTX 5070 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070-family): 6144 CUDA cores "
                 "(48 SMs), 2512 MHz boost, 12GB GDDR7, 192-bit, 672 GB/s, 988 AI TOPS (FP4 sparse); "
                 "rates: RTX Blackwell whitepaper per-SM"),
    desktop_card("rtx-5070-ti", "NVIDIA GeForce RTX 5070 Ti 16GB", 16, 896, per_sm(kBlackwellGeForce, 70, 2.452),
                 "PCIe 5.0 x16", kPcie5, 2, 749,  // launch price, USD
                 "NVIDIA GeForce RTX 5070 family specifications "
                 "(nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070-family): 8960 CUDA cores "
                 "(70 SMs), 2452 MHz boost, 16GB GDDR7, 256-bit, 896 GB/s, 1406 AI TOPS (FP4 sparse); "
                 "rates: RTX Blackwell whitepaper per-SM"),
    desktop_card("rtx-5080", "NVIDIA GeForce RTX 5080 16GB", 16, 960, per_sm(kBlackwellGeForce, 84, 2.617),
                 "PCIe 5.0 x16", kPcie5, 2, 999,  // launch price, USD
                 "NVIDIA RTX Blackwell GPU Architecture whitepaper, Appendix, GeForce RTX 5080 column: "
                 "84 SMs, 2617 MHz boost, 16GB GDDR7, 960 GB/s, 1801 AI TOPS (FP4 sparse)"),
    desktop_card("rtx-a4000", "NVIDIA RTX A4000 16GB", 16, 448, per_sm(kAmpereWorkstation, 48, 1.56), "PCIe 4.0 x16",
                 kPcie4, 4, 1000,  // launch price, USD
                 "NVIDIA RTX A4000 datasheet (nvidia.com/en-us/design-visualization/rtx-a4000): 6144 "
                 "CUDA cores (48 SMs), 16GB GDDR6 with ECC, 448 GB/s, FP32 19.2, Tensor 153.4 TFLOPS "
                 "(sparse)"),
    desktop_card("rtx-a4500", "NVIDIA RTX A4500 20GB", 20, 640, per_sm(kAmpereWorkstation, 56, 1.65), "PCIe 4.0 x16",
                 kPcie4, 4, 2250,  // street price, USD: an estimate
                 "NVIDIA RTX A4500 datasheet (nvidia.com/en-us/design-visualization/rtx-a4500): 7168 "
                 "CUDA cores (56 SMs), 20GB GDDR6 with ECC, 640 GB/s, FP32 23.7, Tensor 189.2 TFLOPS "
                 "(sparse)"),
    desktop_card("rtx-a5000", "NVIDIA RTX A5000 24GB", 24, 768, per_sm(kAmpereWorkstation, 64, 1.695), "PCIe 4.0 x16",
                 kPcie4, 4, 2250,  // street price, USD: an estimate
                 "NVIDIA RTX A5000 datasheet (nvidia.com/en-us/design-visualization/rtx-a5000): 8192 "
                 "CUDA cores (64 SMs), 24GB GDDR6 with ECC, 768 GB/s, FP32 27.8, Tensor 222.2 TFLOPS "
                 "(sparse)"),
    desktop_card("rtx-a6000", "NVIDIA RTX A6000 48GB", 48, 768, per_sm(kAmpereWorkstation, 84, 1.8), "PCIe 4.0 x16",
                 kPcie4, 4, 4650,  // launch price, USD
                 "NVIDIA RTX A6000 datasheet (nvidia.com/en-us/design-visualization/rtx-a6000): 10752 "
                 "CUDA cores (84 SMs), 48GB GDDR6 with ECC, 768 GB/s, FP32 38.7, Tensor 309.7 TFLOPS "
                 "(sparse)"),
    desktop_card("rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell 96GB", 96, 1792,
                 per_sm(kBlackwellWorkstation, 188, 2.617), "PCIe 5.0 x16", kPcie5, 4,
                 8565,  // street price, USD: an estimate
                 "NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet "
                 "(nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000): 24064 "
                 "CUDA cores (188 SMs), 96GB GDDR7 with ECC, 512-bit, 1792 GB/s, FP32 125 TFLOPS, 4000 "
                 "AI TOPS (FP4 sparse), PCIe 5.0 x16"),
    // DGX Spark: one GB10 superchip, a 20-core Arm CPU and a Blackwell GPU of 48 SMs (compute capability
    // 12.1) sharing 128 GB of LPDDR5x. NVIDIA publishes only "1 PFLOP FP4 with sparsity"; the dense rates
    // are the RTX PRO 6000 Blackwell's per SM and clock (full-rate FP32 accumulate) at 48 SMs x 2.418 GHz,
    // whose FP32 (256 x 48 x 2.418 = 29.71 TFLOPS) is the GB10 figure TechPowerUp lists and whose FP4
    // sparse (2 x 475) rounds to NVIDIA's petaflop. ConnectX-7 joins two Sparks at 200 Gb/s.
    {.id = "dgx-spark",
     .name = "NVIDIA DGX Spark (GB10, 128GB)",
     .vendor = "NVIDIA",
     .memory_bytes = 128 * kGiB,
     .memory_convention = MemoryConvention::binary_capacity,
     .memory_bandwidth_bytes_per_second = 273e9,
     .dense_flops_per_second = per_sm(kBlackwellWorkstation, 48, 2.418),
     .interconnect = "ConnectX-7 200 Gb/s (two Sparks)",
     .interconnect_bytes_per_second_per_direction = 25e9,
     .gpus_per_node = 1,
     .unified_memory = true,
     .price_per_hour_usd = 3999 / kHoursIn3Years,  // launch price, USD
     .price_source = kMsrpAmortized,
     .sources = "NVIDIA DGX Spark specifications (nvidia.com/en-us/products/workstations/dgx-spark): GB10 Grace "
                "Blackwell superchip, 1 PFLOP FP4 AI performance with sparsity, 128 GB LPDDR5x coherent unified "
                "memory, 256-bit, 273 GB/s, ConnectX-7 200 Gb/s; GB10 GPU 6,144 CUDA cores (48 SMs), 2418 MHz "
                "boost, FP32 29.71 TFLOPS (TechPowerUp GPU database, as cited by huggingface/huggingface.js#1861)"},
};

}  // namespace

std::span<const Accelerator> nvidia_gddr_accelerators() { return kTable; }

}  // namespace fitcheck::detail
