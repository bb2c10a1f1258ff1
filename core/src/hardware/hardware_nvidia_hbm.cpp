// SPDX-License-Identifier: MIT
// NVIDIA HBM parts (V100 through GB200). Compute is the datasheet's dense column: NVIDIA marks
// sparse figures with "*", and dense is half of those. memory_bytes is nvidia-smi's total memory
// (recent drivers, ECC on); the CUDA context and the framework's allocator come out of it.
#include <cstdint>
#include <span>

#include "catalog_table.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* kRunPod = "RunPod on-demand list price, 2025 (editable default)";
constexpr const char* kLambda = "Lambda Cloud on-demand list price, 2025 (editable default)";
constexpr const char* kEstimate = "estimate, 2025: no broad public on-demand list price (editable default)";

// NVLink per-direction figures are half the datasheet's "GB/s" (which counts both directions).
constexpr const Accelerator kTable[] = {
    {.id = "v100-sxm2-16gb",
     .name = "NVIDIA V100 SXM2 16GB",
     .vendor = "NVIDIA",
     .memory_bytes = 16384 * kMiB,  // 16 GiB: the 16 GB part, not the 32 GB one
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 900e9,
     // No bf16, tf32 or int8 tensor path on Volta: fp16 tensor cores only.
     .dense_flops_per_second = tflops(15.7, 0, 0, 125, 0, 0, 0, 0),
     .interconnect = "NVLink 2 (hybrid cube mesh)",
     .interconnect_bytes_per_second_per_direction = 150e9,  // 300 GB/s total
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.55,
     .price_source = "estimate, 2025, after Lambda's 8x V100 16GB list price (editable default)",
     .sources = "NVIDIA Tesla V100 datasheet, SXM2 column (nvidia.com/en-us/data-center/v100); "
                "memory: nvidia-smi 16384MiB"},
    {.id = "v100-sxm2-32gb",
     .name = "NVIDIA V100 SXM2 32GB",
     .vendor = "NVIDIA",
     .memory_bytes = 32768 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 900e9,
     .dense_flops_per_second = tflops(15.7, 0, 0, 125, 0, 0, 0, 0),
     .interconnect = "NVLink 2 (hybrid cube mesh)",
     .interconnect_bytes_per_second_per_direction = 150e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 0.65,
     .price_source = kEstimate,
     .sources = "NVIDIA Tesla V100 datasheet, SXM2 column (nvidia.com/en-us/data-center/v100); "
                "memory: nvidia-smi 32768MiB"},
    {.id = "a100-sxm-40gb",
     .name = "NVIDIA A100 SXM4 40GB",
     .vendor = "NVIDIA",
     .memory_bytes = 40960 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1555e9,
     // Sheet: TF32 312*, BF16/FP16 624*, INT8 1248*, INT4 2496* (sparse).
     .dense_flops_per_second = tflops(19.5, 156, 312, 312, 0, 0, 624, 1248),
     .interconnect = "NVLink 3 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 300e9,  // 600 GB/s total
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.29,
     .price_source = kLambda,
     .sources = "NVIDIA A100 Tensor Core GPU datasheet, 40GB SXM column "
                "(nvidia.com/en-us/data-center/a100); memory: nvidia-smi 40960MiB",
     // MAMF: the table's "NVIDIA A100 SXM" row, 271.2 of 312 TFLOPS (torch 2.6.0+cu126).
     .mamf_share_bf16 = 0.869,
     // Training: the share that reproduces FlashAttention's GPT-3 1.3B and 2.7B training
     // throughput on 8 x A100 80GB SXM4 400 W (169k and 85k tokens/s; Dao-AILab/flash-attention
     // training/README.md, "Training speed", 88173a1a) with the step time's own attention and
     // memory-bound terms (tests/unit/training_time_test.cpp).
     .training_matmul_share = 0.62},
    {.id = "a100-sxm-80gb",
     .name = "NVIDIA A100 SXM4 80GB",
     .vendor = "NVIDIA",
     .memory_bytes = 81920 * kMiB,  // 80 GiB = 85,899,345,920 bytes
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 2039e9,
     .dense_flops_per_second = tflops(19.5, 156, 312, 312, 0, 0, 624, 1248),
     .interconnect = "NVLink 3 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 300e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.49,
     .price_source = kRunPod,
     .sources = "NVIDIA A100 Tensor Core GPU datasheet, 80GB SXM column "
                "(nvidia.com/en-us/data-center/a100); memory: nvidia-smi 81920MiB",
     // MAMF: the table's "NVIDIA A100 SXM" row, 271.2 of 312 TFLOPS (torch 2.6.0+cu126).
     .mamf_share_bf16 = 0.869,
     // Training: the share that reproduces FlashAttention's GPT-3 1.3B and 2.7B training
     // throughput on 8 x A100 80GB SXM4 400 W (169k and 85k tokens/s; Dao-AILab/flash-attention
     // training/README.md, "Training speed", 88173a1a) with the step time's own attention and
     // memory-bound terms (tests/unit/training_time_test.cpp).
     .training_matmul_share = 0.62},
    {.id = "a100-pcie-40gb",
     .name = "NVIDIA A100 PCIe 40GB",
     .vendor = "NVIDIA",
     .memory_bytes = 40960 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1555e9,
     .dense_flops_per_second = tflops(19.5, 156, 312, 312, 0, 0, 624, 1248),
     // Optional NVLink bridges join pairs only; the node-wide path is PCIe.
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = 32e9,  // sheet: 64 GB/s both ways
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.10,
     .price_source = kEstimate,
     .sources = "NVIDIA A100 Tensor Core GPU datasheet, 40GB PCIe column "
                "(nvidia.com/en-us/data-center/a100); memory: nvidia-smi 40960MiB",
     // MAMF "NVIDIA A100 PCIe" row: 252.9 of 312 TFLOPS (torch 2.5.1+cu124)
     .mamf_share_bf16 = 0.811},
    {.id = "a100-pcie-80gb",
     .name = "NVIDIA A100 PCIe 80GB",
     .vendor = "NVIDIA",
     .memory_bytes = 81920 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 1935e9,
     .dense_flops_per_second = tflops(19.5, 156, 312, 312, 0, 0, 624, 1248),
     .interconnect = "PCIe 4.0 x16",
     .interconnect_bytes_per_second_per_direction = 32e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.39,
     .price_source = kRunPod,
     .sources = "NVIDIA A100 Tensor Core GPU datasheet, 80GB PCIe column "
                "(nvidia.com/en-us/data-center/a100); memory: nvidia-smi 81920MiB",
     // MAMF "NVIDIA A100 PCIe" row: 252.9 of 312 TFLOPS (torch 2.5.1+cu124)
     .mamf_share_bf16 = 0.811},
    {.id = "h100-sxm-80gb",
     .name = "NVIDIA H100 SXM5 80GB",
     .vendor = "NVIDIA",
     .memory_bytes = 81559 * kMiB,  // less than 80 GiB: the driver reserves part of the HBM
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 3.35e12,
     // Sheet: TF32 989*, BF16/FP16 1979*, FP8/INT8 3958* (sparse).
     .dense_flops_per_second = tflops(67, 494.7, 989.4, 989.4, 1978.9, 0, 1978.9, 0),
     .interconnect = "NVLink 4 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 450e9,  // 900 GB/s total
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.69,
     .price_source = kRunPod,
     .sources = "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column "
                "(nvidia.com/en-us/data-center/h100); memory: nvidia-smi 81559MiB; CUDA's total 79.18 GiB "
                "(vLLM 0.11.0 logs, llm-d/llm-d-benchmark 4f4d4494)",
     // MAMF "NVIDIA H100 SXM" rows: bf16 794.5 of 989, fp8 1402.6 of 1979 TFLOPS (torch 2.7.0+cu126).
     .mamf_share_bf16 = 0.803,
     .mamf_share_fp8 = 0.709,
     .cuda_total_bytes = 81080 * kMiB},  // 79.18 GiB
    {.id = "h100-sxm-96gb-500w",
     .name = "NVIDIA H100 SXM 96GB HBM2e (500 W, Grand Teton)",
     .vendor = "NVIDIA",
     .memory_bytes = 96LL * 1000 * 1000 * 1000,  // "96GB HBM2e"; no nvidia-smi figure published
     .memory_convention = MemoryConvention::vendor_decimal,
     .memory_bandwidth_bytes_per_second = 2.4e12,
     // Peak at 500 W is "between SXM and NVL" and not published: the SXM sheet's figures, which is
     // also what torchtitan divides by for its MFU, so step times are optimistic for this part.
     .dense_flops_per_second = tflops(67, 494.7, 989.4, 989.4, 1978.9, 0, 1978.9, 0),
     .interconnect = "NVLink 4 (8 GPUs fully connected)",
     .interconnect_bytes_per_second_per_direction = 450e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.69,
     .price_source = "RunPod's H100 SXM5 80GB price (this part is not rented publicly), 2025 (editable default)",
     .sources = "pytorch/torchtitan 31a17bfd benchmarks/llama3_h100_202412_torchtitan.md, Hardware: 96GB HBM2e, "
                "2.4 TB/s, NVLink within 8-GPU hosts, 400 Gb/s RDMA per GPU, 500W default power limit; footnote 2: "
                "peak between SXM and NVL",
     // The H100 SXM die: its MAMF rows (measured at the SXM's 700 W).
     .mamf_share_bf16 = 0.803,
     .mamf_share_fp8 = 0.709},
    {.id = "h100-pcie-80gb",
     .name = "NVIDIA H100 PCIe 80GB",
     .vendor = "NVIDIA",
     .memory_bytes = 81559 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 2.0e12,
     // Sheet: TF32 756*, BF16/FP16 1513*, FP8/INT8 3026* (sparse).
     .dense_flops_per_second = tflops(51, 378, 756.5, 756.5, 1513, 0, 1513, 0),
     .interconnect = "PCIe 5.0 x16",
     .interconnect_bytes_per_second_per_direction = 64e9,  // 128 GB/s both ways
     .gpus_per_node = 8,
     .price_per_hour_usd = 2.39,
     .price_source = kRunPod,
     .sources = "NVIDIA H100 Tensor Core GPU datasheet, H100 PCIe column "
                "(nvidia.com/en-us/data-center/h100); memory: nvidia-smi 81559MiB"},
    {.id = "h100-nvl-94gb",
     .name = "NVIDIA H100 NVL 94GB",
     .vendor = "NVIDIA",
     .memory_bytes = 95830 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 3.9e12,
     // Per card (an early sheet listed the bridged pair). Sheet: TF32 835*, BF16 1671*, FP8 3341*.
     .dense_flops_per_second = tflops(60, 417.5, 835.5, 835.5, 1670.5, 0, 1670.5, 0),
     // NVLink bridges (600 GB/s) join pairs only; the node-wide path is PCIe.
     .interconnect = "PCIe 5.0 x16",
     .interconnect_bytes_per_second_per_direction = 64e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 3.07,
     .price_source = kRunPod,
     .sources = "NVIDIA H100 Tensor Core GPU datasheet, H100 NVL column "
                "(nvidia.com/en-us/data-center/h100); memory: nvidia-smi 95830MiB"},
    {.id = "h200",
     .name = "NVIDIA H200 SXM 141GB",
     .vendor = "NVIDIA",
     .memory_bytes = 143771 * kMiB,  // marketed as 141 GB
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 4.8e12,
     // Same compute as H100 SXM. Sheet: TF32 989*, BF16 1979*, FP8/INT8 3958*.
     .dense_flops_per_second = tflops(67, 494.7, 989.4, 989.4, 1978.9, 0, 1978.9, 0),
     .interconnect = "NVLink 4 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 450e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 3.59,
     .price_source = kRunPod,
     .sources = "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column "
                "(nvidia.com/en-us/data-center/h200); memory: nvidia-smi 143771MiB",
     // MAMF: bf16 "H200 is the same" as the H100 SXM row (794.5 of 989); fp8 "NVIDIA H200 SXM" 1453.4 of 1979.
     .mamf_share_bf16 = 0.803,
     .mamf_share_fp8 = 0.734},
    {.id = "h200-nvl",
     .name = "NVIDIA H200 NVL 141GB",
     .vendor = "NVIDIA",
     .memory_bytes = 143771 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 4.8e12,
     // Sheet: TF32 835*, BF16 1671*, FP8/INT8 3341* (sparse).
     .dense_flops_per_second = tflops(60, 417.5, 835.5, 835.5, 1670.5, 0, 1670.5, 0),
     // 2- or 4-way NVLink bridges (900 GB/s) join groups only; the node-wide path is PCIe.
     .interconnect = "PCIe 5.0 x16",
     .interconnect_bytes_per_second_per_direction = 64e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 3.29,
     .price_source = kEstimate,
     .sources = "NVIDIA H200 Tensor Core GPU datasheet, H200 NVL column "
                "(nvidia.com/en-us/data-center/h200); memory: nvidia-smi 143771MiB"},
    {.id = "h20",
     .name = "NVIDIA H20 96GB",
     .vendor = "NVIDIA",
     .memory_bytes = 97871 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 4.0e12,
     // China-market part; NVIDIA publishes no public datasheet. Widely reported dense figures.
     .dense_flops_per_second = tflops(44, 74, 148, 148, 296, 0, 296, 0),
     .interconnect = "NVLink 4 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 450e9,
     .gpus_per_node = 8,
     .price_per_hour_usd = 1.20,
     .price_source = kEstimate,
     .sources = "No public NVIDIA datasheet: H20 figures as reported from the partner spec sheet "
                "(96 GB HBM3, 4.0 TB/s, FP16 148 / FP8 296 TFLOPS dense, NVLink 900 GB/s); "
                "memory: nvidia-smi 97871MiB"},
    {.id = "gh200",
     .name = "NVIDIA GH200 Grace Hopper (96GB HBM3)",
     .vendor = "NVIDIA",
     // GPU HBM only. The Grace LPDDR5X (up to 480 GB) is reachable over NVLink-C2C but is slower.
     .memory_bytes = 97871 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 4.0e12,
     .dense_flops_per_second = tflops(67, 494, 990, 990, 1979, 0, 1979, 0),
     .interconnect = "NVLink 4",
     .interconnect_bytes_per_second_per_direction = 450e9,
     .gpus_per_node = 1,
     .price_per_hour_usd = 1.49,
     .price_source = kLambda,
     .sources = "NVIDIA GH200 Grace Hopper Superchip datasheet, 96GB HBM3 variant "
                "(nvidia.com/en-us/data-center/grace-hopper-superchip); "
                "memory: nvidia-smi 97871MiB (GH200 480GB)",
     // MAMF "NVIDIA GH200 SXM" rows (900 W 141 GiB version): bf16 828.6 of 989, fp8 1535.0 of 1979.
     .mamf_share_bf16 = 0.838,
     .mamf_share_fp8 = 0.776},
    {.id = "b200",
     .name = "NVIDIA B200 (HGX, 180GB)",
     .vendor = "NVIDIA",
     .memory_bytes = 183359 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 7.7e12,
     // Per-GPU sheet: FP4 18*, FP8/INT8 9*, BF16 4.5*, TF32 2.2* PFLOPS (sparse). No INT4.
     .dense_flops_per_second = tflops(75, 1100, 2250, 2250, 4500, 9000, 4500, 0),
     .interconnect = "NVLink 5 (NVSwitch)",
     .interconnect_bytes_per_second_per_direction = 900e9,  // 1.8 TB/s total
     .gpus_per_node = 8,
     .price_per_hour_usd = 4.99,
     .price_source = kRunPod,
     .sources = "NVIDIA HGX B200 specifications, per-GPU column (nvidia.com/en-us/data-center/hgx); "
                "memory: nvidia-smi 183359MiB",
     // MAMF "NVIDIA B200 SXM" rows: bf16 1745.0 of 2250, fp8 3432.5 of 4500 (torch 2.7.1+cu128).
     .mamf_share_bf16 = 0.776,
     .mamf_share_fp8 = 0.763},
    {.id = "gb200",
     .name = "NVIDIA GB200 (per Blackwell GPU, 186GB)",
     .vendor = "NVIDIA",
     .memory_bytes = 189471 * kMiB,
     .memory_convention = MemoryConvention::driver_reported,
     .memory_bandwidth_bytes_per_second = 8.0e12,
     // Per-GPU sheet: FP4 20*, FP8/INT8 10*, BF16 5*, TF32 2.5* PFLOPS (sparse).
     .dense_flops_per_second = tflops(80, 1250, 2500, 2500, 5000, 10000, 5000, 0),
     // A compute tray (one OS node) holds 4 GPUs; the NVLink domain spans the 72-GPU rack.
     .interconnect = "NVLink 5 (NVL72 switch tray)",
     .interconnect_bytes_per_second_per_direction = 900e9,
     .gpus_per_node = 4,
     .price_per_hour_usd = 6.00,
     .price_source = kEstimate,
     .sources = "NVIDIA GB200 NVL72 specifications, per-GPU figures "
                "(nvidia.com/en-us/data-center/gb200-nvl72); memory: nvidia-smi 189471MiB",
     // MAMF "NVIDIA GB200 SXM" rows: bf16 1822.0 of 2500, fp8 3615.6 of 5000 (torch 2.10 dev, cu130).
     .mamf_share_bf16 = 0.729,
     .mamf_share_fp8 = 0.723,
     .nvlink_domain_gpus = 72},
};

}  // namespace

std::span<const Accelerator> nvidia_hbm_accelerators() { return kTable; }

}  // namespace fitcheck::detail
