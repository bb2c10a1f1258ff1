// SPDX-License-Identifier: MIT
// Looking up the CPU catalog (cpu_catalog.cpp) and the rates a CPU's entry gives: RAM bandwidth, the core
// dies' fabric reads, FLOP/s by unit.
#include "fitcheck/cpu.hpp"

#include <algorithm>
#include <span>
#include <string_view>

#include "fitcheck/hardware.hpp"
#include "hardware/cpu_catalog.hpp"

namespace fitcheck {
namespace {

const CpuDevice* find_cpu_by_id(std::string_view query) {
  for (const CpuDevice& cpu : detail::cpu_table())
    if (detail::matches_folded_key(query, cpu.id)) return &cpu;
  return nullptr;
}

double cluster_flops_per_second(const CpuCoreCluster& cluster, double flops_per_cycle) {
  return cluster.cores * flops_per_cycle * cluster.base_clock_hz;
}

}  // namespace

std::span<const CpuDevice> cpu_catalog() { return detail::cpu_table(); }

const CpuDevice* find_cpu(std::string_view id_or_alias) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!id_or_alias.empty() && blank(id_or_alias.front())) id_or_alias.remove_prefix(1);
  while (!id_or_alias.empty() && blank(id_or_alias.back())) id_or_alias.remove_suffix(1);
  if (id_or_alias.empty()) return nullptr;
  if (const CpuDevice* direct = find_cpu_by_id(id_or_alias)) return direct;
  for (const detail::CpuAlias& alias : detail::cpu_aliases())
    if (detail::matches_folded_key(id_or_alias, alias.alias)) return find_cpu_by_id(alias.id);
  return nullptr;
}

bool cpu_memory_as_specified(const CpuDevice& cpu) {
  const CpuDevice* specified = find_cpu_by_id(cpu.id);
  return specified && specified->memory_channels == cpu.memory_channels &&
         specified->memory_transfers_per_second == cpu.memory_transfers_per_second;
}

double cpu_memory_bandwidth_bytes_per_second(const CpuDevice& cpu) {
  constexpr double kBytesPerTransferPerChannel = 8;  // a 64-bit channel
  return cpu.memory_channels * kBytesPerTransferPerChannel * cpu.memory_transfers_per_second;
}

double cpu_fabric_read_bytes_per_second(const CpuDevice& cpu) {
  return cpu.compute_dies > 0 && cpu.fabric_clock_hz > 0
             ? cpu.compute_dies * kFabricLinkReadBytesPerClock * cpu.fabric_clock_hz
             : 0.0;
}

double cpu_memory_read_peak_bytes_per_second(const CpuDevice& cpu) {
  const double ram = cpu_memory_bandwidth_bytes_per_second(cpu);
  const double fabric = cpu_fabric_read_bytes_per_second(cpu);
  return fabric > 0 ? std::min(ram, fabric) : ram;
}

double cpu_peak_fp32_flops_per_second(const CpuDevice& cpu) {
  return cluster_flops_per_second(cpu.performance, cpu.performance.fp32_flops_per_cycle) +
         cluster_flops_per_second(cpu.efficiency, cpu.efficiency.fp32_flops_per_cycle);
}

double cpu_peak_bf16_flops_per_second(const CpuDevice& cpu) {
  return cluster_flops_per_second(cpu.performance, cpu.performance.bf16_flops_per_cycle) +
         cluster_flops_per_second(cpu.efficiency, cpu.efficiency.bf16_flops_per_cycle);
}

double cpu_peak_int8_ops_per_second(const CpuDevice& cpu) {
  return cluster_flops_per_second(cpu.performance, cpu.performance.int8_ops_per_cycle) +
         cluster_flops_per_second(cpu.efficiency, cpu.efficiency.int8_ops_per_cycle);
}

double cpu_cluster_vector_bf16_flops_per_cycle(const CpuCoreCluster& c) {
  return c.bf16_flops_per_cycle > 0 ? std::min(c.bf16_flops_per_cycle, 2 * c.fp32_flops_per_cycle)
                                    : c.fp32_flops_per_cycle;
}

double cpu_peak_vector_bf16_flops_per_second(const CpuDevice& cpu) {
  return cluster_flops_per_second(cpu.performance, cpu_cluster_vector_bf16_flops_per_cycle(cpu.performance)) +
         cluster_flops_per_second(cpu.efficiency, cpu_cluster_vector_bf16_flops_per_cycle(cpu.efficiency));
}

bool cpu_has_avx512(const CpuDevice& cpu) { return cpu.performance.avx512; }

int cpu_core_count(const CpuDevice& cpu) { return cpu.performance.cores + cpu.efficiency.cores; }

}  // namespace fitcheck
