// SPDX-License-Identifier: MIT
// NVIDIA GDDR cards: inference parts (T4, A10, A10G, A40, L4, L40, L40S) and workstation/GeForce
// cards. memory_bytes is nvidia-smi's total with the card's default ECC setting: datacenter cards
// ship with ECC on, which costs 1/16 of GDDR6 (A10: 23028MiB with ECC, 24564MiB without).
//
// GeForce tensor rates: the whitepapers list fp16 "with FP16 accumulate" and "with FP32
// accumulate"; GeForce runs the latter at half rate. Frameworks accumulate in fp32 (bf16 has no
// other mode), so the fp32-accumulate column is used for bf16, fp16 and fp8.
#include <array>
#include <cstdint>
#include <span>

#include "fitcheck/hardware.hpp"

namespace fitcheck::detail {
namespace {

constexpr std::int64_t kMiB = std::int64_t{1} << 20;

// Dense TFLOP/s (TOP/s for integers) in ComputeDtype order, scaled to FLOP/s.
constexpr std::array<double, kComputeDtypeCount> tflops(double fp32, double tf32, double bf16,
                                                        double fp16, double fp8, double fp4,
                                                        double int8, double int4) {
  return {fp32 * 1e12, tf32 * 1e12, bf16 * 1e12, fp16 * 1e12,
          fp8 * 1e12,  fp4 * 1e12,  int8 * 1e12, int4 * 1e12};
}

constexpr const char* kRunPod = "RunPod on-demand list price, 2025 (editable default)";

// PCIe per-direction: the sheets' "PCIe Gen4: 64 GB/s" counts both directions.
constexpr double kPcie3 = 16e9;
constexpr double kPcie4 = 32e9;
constexpr double kPcie5 = 64e9;

constexpr const Accelerator kTable[] = {
    {.id = "t4", .name = "NVIDIA T4 16GB", .vendor = "NVIDIA",
     .memory_bytes = 15360 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 320e9,
     // Turing: fp16 tensor cores with int8/int4; no bf16 or tf32.
     .dense_flops_per_second = tflops(8.1, 0, 0, 65, 0, 0, 130, 260),
     .interconnect = "PCIe 3.0 x16", .interconnect_bytes_per_second_per_direction = kPcie3,
     .gpus_per_node = 4, .price_per_hour_usd = 0.35,
     .price_source = "Google Cloud GPU price for T4 attached to N1, 2025 (editable default)",
     .sources = "NVIDIA T4 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/tesla-t4); "
                "memory: nvidia-smi 15360MiB"},
    {.id = "a10", .name = "NVIDIA A10 24GB", .vendor = "NVIDIA",
     .memory_bytes = 23028 * kMiB,  // a 24 GB card (not 28 GB), ECC on
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 600e9,
     // Sheet: TF32 125*, BF16/FP16 250*, INT8 500*, INT4 1000* (sparse).
     .dense_flops_per_second = tflops(31.2, 62.5, 125, 125, 0, 0, 250, 500),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 4, .price_per_hour_usd = 0.75,
     .price_source = "Lambda Cloud on-demand list price, 2025 (editable default)",
     .sources = "NVIDIA A10 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/products/a10-gpu); "
                "memory: nvidia-smi 23028MiB"},
    {.id = "a10g", .name = "NVIDIA A10G 24GB (AWS)", .vendor = "NVIDIA",
     .memory_bytes = 23028 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 600e9,
     // AWS-only part without an NVIDIA datasheet: more CUDA cores than A10, half-rate tensor
     // cores. No published integer rates.
     .dense_flops_per_second = tflops(35, 35, 70, 70, 0, 0, 0, 0),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 1.006,
     .price_source = "AWS g5.xlarge on-demand, us-east-1, 2025 (includes host; editable default)",
     .sources = "AWS EC2 G5 instance page (aws.amazon.com/ec2/instance-types/g5): 24 GB, "
                "600 GB/s; compute as tabulated in Baseten, 'NVIDIA A10 vs A10G for ML model "
                "inference'; memory: nvidia-smi 23028MiB"},
    {.id = "a40", .name = "NVIDIA A40 48GB", .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 696e9,
     // Sheet: TF32 149.6*, BF16/FP16 299.4*, INT8 598.6*, INT4 1197.4* (sparse).
     .dense_flops_per_second = tflops(37.4, 74.8, 149.7, 149.7, 0, 0, 299.3, 598.7),
     // NVLink bridges (112.5 GB/s) join pairs only.
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.40, .price_source = kRunPod,
     .sources = "NVIDIA A40 datasheet (nvidia.com/en-us/data-center/a40); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "l4", .name = "NVIDIA L4 24GB", .vendor = "NVIDIA",
     .memory_bytes = 23034 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 300e9,
     // Sheet lists sparse only: TF32 120*, BF16/FP16 242*, FP8/INT8 485*.
     .dense_flops_per_second = tflops(30.3, 60, 121, 121, 242.5, 0, 242.5, 0),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.39, .price_source = kRunPod,
     .sources = "NVIDIA L4 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/l4); "
                "memory: nvidia-smi 23034MiB"},
    {.id = "l40", .name = "NVIDIA L40 48GB", .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 864e9,
     // Half the L40S tensor rate on the same die. Sheet: BF16 362.1*, FP8 724*, INT4 1448*.
     .dense_flops_per_second = tflops(90.5, 90.5, 181.05, 181.05, 362, 0, 362, 724),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.99, .price_source = kRunPod,
     .sources = "NVIDIA L40 datasheet (nvidia.com/en-us/data-center/l40); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "l40s", .name = "NVIDIA L40S 48GB", .vendor = "NVIDIA",
     .memory_bytes = 46068 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 864e9,
     // Sheet: TF32 366*, BF16/FP16 733*, FP8 1466* (sparse); no INT4 figure on the sheet.
     .dense_flops_per_second = tflops(91.6, 183, 362.05, 362.05, 733, 0, 733, 0),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.86, .price_source = kRunPod,
     .sources = "NVIDIA L40S datasheet (nvidia.com/en-us/data-center/l40s); "
                "memory: nvidia-smi 46068MiB"},
    {.id = "rtx-3090", .name = "NVIDIA GeForce RTX 3090 24GB", .vendor = "NVIDIA",
     .memory_bytes = 24576 * kMiB,  // no ECC on GeForce
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 936e9,
     // Whitepaper: FP16 (FP32 acc.) 71/142*, BF16 71/142*, TF32 35.6/71*, INT8 284/568*.
     .dense_flops_per_second = tflops(35.6, 35.6, 71, 71, 0, 0, 284, 568),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.46, .price_source = kRunPod,
     .sources = "NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A, GeForce RTX 3090 "
                "column; memory: nvidia-smi 24576MiB"},
    {.id = "rtx-4090", .name = "NVIDIA GeForce RTX 4090 24GB", .vendor = "NVIDIA",
     .memory_bytes = 24564 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1008e9,
     // Whitepaper: FP16/BF16/FP8 (FP32 acc.) 165.2/330.4*, TF32 82.6/165.2*, INT8 660.6/1321.2*.
     .dense_flops_per_second = tflops(82.6, 82.6, 165.2, 165.2, 165.2, 0, 660.6, 1321.2),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.59, .price_source = kRunPod,
     .sources = "NVIDIA Ada GPU Architecture whitepaper, Appendix A, GeForce RTX 4090 column; "
                "memory: nvidia-smi 24564MiB"},
    {.id = "rtx-5090", .name = "NVIDIA GeForce RTX 5090 32GB", .vendor = "NVIDIA",
     .memory_bytes = 32607 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1792e9,
     // Whitepaper (FP32 acc.): FP16/BF16 209.5/419*, FP8 419/838*, FP4 1676/3352* ("AI TOPS").
     // No INT4 tensor rate is listed for Blackwell GeForce.
     .dense_flops_per_second = tflops(104.8, 104.8, 209.5, 209.5, 419, 1676, 838, 0),
     .interconnect = "PCIe 5.0 x16", .interconnect_bytes_per_second_per_direction = kPcie5,
     .gpus_per_node = 8, .price_per_hour_usd = 0.89, .price_source = kRunPod,
     .sources = "NVIDIA RTX Blackwell GPU Architecture whitepaper, Appendix, GeForce RTX 5090 "
                "column; memory: nvidia-smi 32607MiB"},
    {.id = "rtx-6000-ada", .name = "NVIDIA RTX 6000 Ada Generation 48GB", .vendor = "NVIDIA",
     .memory_bytes = 49140 * kMiB,  // ECC off by default on workstation cards
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 960e9,
     // Sheet headline "Tensor 1,457 TFLOPS" is FP8 with sparsity; full-rate FP32 accumulate
     // (142 SMs, like L40S).
     .dense_flops_per_second = tflops(91.1, 182.1, 364.2, 364.2, 728.5, 0, 728.5, 1457),
     .interconnect = "PCIe 4.0 x16", .interconnect_bytes_per_second_per_direction = kPcie4,
     .gpus_per_node = 8, .price_per_hour_usd = 0.77, .price_source = kRunPod,
     .sources = "NVIDIA RTX 6000 Ada Generation datasheet "
                "(nvidia.com/en-us/design-visualization/rtx-6000); NVIDIA Ada GPU Architecture "
                "whitepaper; memory: nvidia-smi 49140MiB"},
};

}  // namespace

std::span<const Accelerator> nvidia_gddr_accelerators() { return kTable; }

}  // namespace fitcheck::detail
