// SPDX-License-Identifier: MIT
// The CPU catalog as JSON: each entry's factors and the peaks derived from them.
#include "fitcheck/cpu.hpp"
#include "fitcheck/report.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

void write_cluster(detail::JsonWriter& out, const char* key, const CpuCoreCluster& cluster) {
  out.begin_object(key);
  out.field("cores", cluster.cores);
  out.field("base_clock_hz", cluster.base_clock_hz);
  out.field("fp32_flops_per_cycle", cluster.fp32_flops_per_cycle);
  out.field("bf16_flops_per_cycle", cluster.bf16_flops_per_cycle);
  out.field("int8_ops_per_cycle", cluster.int8_ops_per_cycle);
  out.field("avx512", cluster.avx512);
  out.field("smt", cluster.smt);
  out.end_object();
}

}  // namespace

std::string cpu_catalog_json() {
  detail::JsonWriter out;
  out.begin_array();
  for (const CpuDevice& cpu : cpu_catalog()) {
    out.begin_object();
    out.field("id", cpu.id);
    out.field("name", cpu.name);
    out.field("vendor", cpu.vendor);
    out.field("cores", cpu_core_count(cpu));
    write_cluster(out, "performance_cores", cpu.performance);
    if (cpu.efficiency.cores > 0) write_cluster(out, "efficiency_cores", cpu.efficiency);
    out.field("memory_channels", cpu.memory_channels);
    out.field("memory_transfers_per_second", cpu.memory_transfers_per_second);
    out.field("memory_type", cpu.memory_type);
    out.field("memory_bandwidth_bytes_per_second", cpu_memory_bandwidth_bytes_per_second(cpu));
    out.field("memory_bandwidth_formula", "memory_channels x 8 B x memory_transfers_per_second");
    out.field("compute_dies", cpu.compute_dies);
    out.field("fabric_clock_hz", cpu.fabric_clock_hz);
    out.field("fabric_read_bytes_per_second", cpu_fabric_read_bytes_per_second(cpu));
    out.field("fabric_read_formula", "compute_dies x 32 B x fabric_clock_hz (0: no per-die link modelled)");
    out.field("memory_read_peak_bytes_per_second", cpu_memory_read_peak_bytes_per_second(cpu));
    out.field("memory_read_peak_formula", "min(memory_bandwidth_bytes_per_second, fabric_read_bytes_per_second)");
    out.field("simd", cpu.simd);
    out.field("peak_fp32_flops_per_second", cpu_peak_fp32_flops_per_second(cpu));
    out.field("peak_bf16_flops_per_second", cpu_peak_bf16_flops_per_second(cpu));
    out.field("peak_int8_ops_per_second", cpu_peak_int8_ops_per_second(cpu));
    // The bf16 rate ggml-cpu's kernels run at (AVX512_BF16 or widened to fp32), AMX apart.
    out.field("peak_vector_bf16_flops_per_second", cpu_peak_vector_bf16_flops_per_second(cpu));
    out.field("peak_flops_formula", "sum over core kinds: cores x flops_per_cycle x base_clock_hz");
    out.field("sources", cpu.sources);
    out.end_object();
  }
  out.end_array();
  return out.take();
}

}  // namespace fitcheck
