// SPDX-License-Identifier: MIT
// CPUs and their system RAM as devices for CPU inference (llama.cpp on the host): cores, memory
// channels and speed, SIMD width and FMA units, each with the spec sheet it came from. Peak RAM
// bandwidth and peak FLOP/s are derived from those factors, never entered. docs/hardware.md, "CPUs".
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace fitcheck {

// One kind of core on the chip (hybrid Intel parts have two).
struct CpuCoreCluster {
  int cores = 0;
  double base_clock_hz = 0;  // the all-core clock the vendor guarantees; boost is not sustained
  // Per core per clock: FP32 FMA lanes x 2 (an FMA is two FLOPs) x FMA pipes.
  double fp32_flops_per_cycle = 0;
  // Per core per clock for bf16 inputs (AVX512_BF16 dot products or AMX); 0: no bf16 arithmetic.
  double bf16_flops_per_cycle = 0;
  // Per core per clock, int8 multiply-adds x 2 on the vector units: a VNNI dot product (VPDPBUSD)
  // does four per 32-bit lane where an FP32 FMA does one (4 x fp32_flops_per_cycle); AVX2 alone
  // needs two instructions (VPMADDUBSW, VPMADDWD) for the same four (2 x). AMX tiles not counted.
  double int8_ops_per_cycle = 0;
  bool avx512 = false;  // AVX-512 (F, VL, BW, VNNI): what ggml-cpu's AVX-512-only kernels need
  bool smt = true;      // two hardware threads a core (SMT, Hyper-Threading); false: one
};

struct CpuDevice {
  const char* id;  // stable lowercase key, e.g. "ryzen-9-7950x"
  const char* name;
  const char* vendor;                  // "AMD", "Intel"
  CpuCoreCluster performance;          // the only cluster on AMD parts
  CpuCoreCluster efficiency;           // Intel E-cores; cores = 0 where there are none
  int memory_channels;                 // 64-bit DDR channels (a DDR5 DIMM's two 32-bit subchannels are one)
  double memory_transfers_per_second;  // the fastest officially supported speed, e.g. 5200e6 for DDR5-5200
  const char* memory_type;             // "DDR5-5200"
  const char* simd;                    // the widest vector ISA, e.g. "AVX-512 (2 x 256-bit FMA)"
  const char* sources;                 // spec pages for each factor
  // AMD's chiplet parts: the core dies (CCDs), each reading memory through its own Infinity Fabric link
  // to the I/O die, and the fabric clock (FCLK) that link runs at. 0: no per-die link is modelled
  // (monolithic Intel parts, and server parts whose dies' links together exceed their DRAM).
  int compute_dies = 0;
  double fabric_clock_hz = 0;
};

// Every CPU, in a fixed order; immutable, lives for the program.
std::span<const CpuDevice> cpu_catalog();

// By id or alias ("7950x", "epyc-9654"); same folding as find_accelerator. nullptr when unknown.
const CpuDevice* find_cpu(std::string_view id_or_alias);

// Whether the RAM is the specification's: the catalog entry of the same id has these channels and this speed
// (false once --ram-mts or --ram-channels changed a copy, or for a CPU the catalog lacks).
bool cpu_memory_as_specified(const CpuDevice& cpu);

// Peak RAM bandwidth: channels x 8 bytes x transfers per second (DDR5-5200 dual channel: 83.2 GB/s).
double cpu_memory_bandwidth_bytes_per_second(const CpuDevice& cpu);
// An Infinity Fabric On-Package link reads 32 bytes per fabric clock (chipsandcheese.com, "Pushing AMD's
// Infinity Fabric to its Limits").
inline constexpr double kFabricLinkReadBytesPerClock = 32;
// The dies' fabric links' read peak: compute_dies x kFabricLinkReadBytesPerClock x fabric_clock_hz; 0 where
// no link is modelled.
double cpu_fabric_read_bytes_per_second(const CpuDevice& cpu);
// What the cores can read from RAM at most: the RAM's peak, or the dies' links where those are lower
// (one Zen 4 die at 2 GHz: 64 GB/s against DDR5-5200's 83.2).
double cpu_memory_read_peak_bytes_per_second(const CpuDevice& cpu);

// Peak FP32 / bf16 FLOP/s over all clusters: cores x FLOPs per cycle x base clock.
double cpu_peak_fp32_flops_per_second(const CpuDevice& cpu);
double cpu_peak_bf16_flops_per_second(const CpuDevice& cpu);
// Peak int8 multiply-add ops/s on the vector units (VNNI or AVX2), the rate ggml-cpu's quantized dot
// products run at: cores x int8_ops_per_cycle x base clock.
double cpu_peak_int8_ops_per_second(const CpuDevice& cpu);
// Peak bf16 FLOP/s on the vector units: AMX tiles excluded (ggml-cpu's BF16 kernels are AVX512_BF16
// dot products, two products per FP32 lane); without bf16 arithmetic, the FP32 peak (converted).
double cpu_peak_vector_bf16_flops_per_second(const CpuDevice& cpu);
double cpu_cluster_vector_bf16_flops_per_cycle(const CpuCoreCluster& cluster);
bool cpu_has_avx512(const CpuDevice& cpu);

int cpu_core_count(const CpuDevice& cpu);

}  // namespace fitcheck
