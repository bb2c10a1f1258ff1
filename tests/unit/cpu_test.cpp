// SPDX-License-Identifier: MIT
// The CPU catalog: invariants over every entry, lookups, and peaks hand-computed from spec pages.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "fitcheck/cpu.hpp"
#include "fitcheck/report.hpp"

namespace {

using fitcheck::CpuDevice;

const CpuDevice& cpu(std::string_view id) {
  const CpuDevice* found = fitcheck::find_cpu(id);
  REQUIRE_MESSAGE(found != nullptr, "missing CPU ", std::string(id));
  return *found;
}

}  // namespace

TEST_CASE("cpu catalog: ids unique and URL-safe, every entry sourced and positive") {
  std::set<std::string> seen;
  for (const CpuDevice& c : fitcheck::cpu_catalog()) {
    const std::string id = c.id;
    CAPTURE(id);
    CHECK(seen.insert(id).second);
    for (char ch : id) CHECK(((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'));
    const std::string_view vendor = c.vendor;
    CHECK((vendor == "AMD" || vendor == "Intel"));
    CHECK(fitcheck::cpu_core_count(c) > 0);
    CHECK(c.performance.base_clock_hz > 1e9);
    CHECK(c.performance.fp32_flops_per_cycle > 0);
    CHECK(c.memory_channels > 0);
    CHECK(c.memory_transfers_per_second >= 3200e6);
    CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(c) > 50e9);
    CHECK(fitcheck::cpu_peak_fp32_flops_per_second(c) > 0);
    CHECK(fitcheck::cpu_peak_bf16_flops_per_second(c) >= 0);
    CHECK(std::string_view(c.sources).find("specifications") != std::string_view::npos);
    const std::string_view memory = c.memory_type;
    CHECK((memory.rfind("DDR5-", 0) == 0 || memory.rfind("DDR4-", 0) == 0));
    // The type names the speed the entry carries: "DDR4-3200" with 3200 MT/s.
    CHECK(memory.substr(5, 4) == std::to_string(static_cast<int>(c.memory_transfers_per_second / 1e6)));
    CHECK(fitcheck::find_cpu(c.id) == &c);
    CHECK(fitcheck::cpu_memory_as_specified(c));
    // The spec-sheet figures the entry quotes in its sources are the ones it carries.
    const std::string_view sources = c.sources;
    CHECK(sources.find(memory.substr(0, 9)) != std::string_view::npos);
    CHECK(sources.find(std::to_string(c.performance.cores) + (c.efficiency.cores > 0 ? " P-cores" : " cores")) !=
          std::string_view::npos);
    if (c.efficiency.cores > 0)
      CHECK(sources.find(std::to_string(c.efficiency.cores) + " E-cores") != std::string_view::npos);
    CHECK(sources.find(std::to_string(c.memory_channels) + " channels") != std::string_view::npos);
    CpuDevice faster = c;
    faster.memory_transfers_per_second += 400e6;
    CHECK_FALSE(fitcheck::cpu_memory_as_specified(faster));
  }
  CHECK(seen.size() >= 8);
}

TEST_CASE("cpu catalog: peak RAM bandwidth = channels x 8 B x MT/s") {
  // Ryzen 9 7950X: DDR5-5200, 2 channels: 2 x 8 x 5200e6 = 83.2 GB/s.
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(cpu("ryzen-9-7950x")) == doctest::Approx(83.2e9));
  // EPYC 9654: DDR5-4800, 12 channels: 12 x 8 x 4800e6 = 460.8 GB/s (AMD's spec page prints 460.8).
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(cpu("epyc-9654")) == doctest::Approx(460.8e9));
  // Threadripper PRO 7995WX: DDR5-5200, 8 channels: 8 x 8 x 5200e6 = 332.8 GB/s.
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(cpu("threadripper-pro-7995wx")) == doctest::Approx(332.8e9));
  // Ryzen 9 5950X (AM4): DDR4-3200, 2 channels: 2 x 8 x 3200e6 = 51.2 GB/s.
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(cpu("5950x")) == doctest::Approx(51.2e9));
  // EPYC 9755: DDR5-6000, 12 channels: 576 GB/s.
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(cpu("epyc-9755")) == doctest::Approx(576e9));
}

TEST_CASE("cpu catalog: each core die reads through a 32 B-a-clock fabric link; the read peak is the lower") {
  // Ryzen 5 7600X: one Zen 4 die at a 2 GHz fabric clock, 1 x 32 x 2e9 = 64 GB/s, under DDR5-5200's 83.2.
  CHECK(fitcheck::cpu_fabric_read_bytes_per_second(cpu("7600x")) == doctest::Approx(64e9));
  CHECK(fitcheck::cpu_memory_read_peak_bytes_per_second(cpu("7600x")) == doctest::Approx(64e9));
  // The same die with faster RAM reads no faster: DDR5-6000 is 96 GB/s, the link still 64.
  CpuDevice faster_ram = cpu("ryzen-7-7800x3d");
  faster_ram.memory_transfers_per_second = 6000e6;
  CHECK(fitcheck::cpu_memory_bandwidth_bytes_per_second(faster_ram) == doctest::Approx(96e9));
  CHECK(fitcheck::cpu_memory_read_peak_bytes_per_second(faster_ram) == doctest::Approx(64e9));
  // Ryzen 9 7950X: two dies, 128 GB/s of links over 83.2 GB/s of RAM: the RAM bounds it.
  CHECK(fitcheck::cpu_fabric_read_bytes_per_second(cpu("7950x")) == doctest::Approx(128e9));
  CHECK(fitcheck::cpu_memory_read_peak_bytes_per_second(cpu("7950x")) == doctest::Approx(83.2e9));
  // Zen 3 runs the fabric 1:1 with DDR4-3200's 1.6 GHz clock: Threadripper PRO 5975WX's four dies read
  // 4 x 32 x 1.6e9 = 204.8 GB/s, as much as its eight channels deliver.
  CHECK(fitcheck::cpu_fabric_read_bytes_per_second(cpu("5975wx")) == doctest::Approx(204.8e9));
  CHECK(fitcheck::cpu_memory_read_peak_bytes_per_second(cpu("5975wx")) == doctest::Approx(204.8e9));
  // Monolithic Intel parts and the many-die servers carry no link: the RAM's peak.
  CHECK(fitcheck::cpu_fabric_read_bytes_per_second(cpu("13900k")) == 0);
  CHECK(fitcheck::cpu_memory_read_peak_bytes_per_second(cpu("epyc-9654")) == doctest::Approx(460.8e9));
  // A die holds at most 8 cores, so every modelled part has at least cores / 8 dies.
  for (const CpuDevice& c : fitcheck::cpu_catalog()) {
    CAPTURE(std::string(c.id));
    if (c.compute_dies == 0) continue;
    CHECK(std::string_view(c.vendor) == "AMD");
    CHECK(c.compute_dies * 8 >= fitcheck::cpu_core_count(c));
    CHECK((c.fabric_clock_hz == 1.6e9 || c.fabric_clock_hz == 2.0e9));
  }
}

TEST_CASE("cpu catalog: peak FLOP/s = cores x FLOPs per cycle x base clock") {
  // 7950X: 16 Zen 4 cores x (2 FMA pipes x 8 FP32 lanes x 2) x 4.5 GHz = 2.304 TFLOP/s.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("7950x")) == doctest::Approx(2.304e12));
  // 9950X: 16 Zen 5 cores x (2 x 16 x 2) x 4.3 GHz = 4.4032 TFLOP/s.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("9950x")) == doctest::Approx(4.4032e12));
  // i9-13900K: 8 P x 32 x 3.0 GHz + 16 E x 16 x 2.2 GHz = 768 + 563.2 = 1331.2 GFLOP/s; no bf16.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("i9-13900k")) == doctest::Approx(1.3312e12));
  CHECK(fitcheck::cpu_peak_bf16_flops_per_second(cpu("i9-13900k")) == 0);
  // 5950X: 16 Zen 3 cores x (2 x 8 x 2) x 3.4 GHz = 1.7408 TFLOP/s; AVX2 only, no bf16.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("ryzen-9-5950x")) == doctest::Approx(1.7408e12));
  CHECK(fitcheck::cpu_peak_bf16_flops_per_second(cpu("ryzen-9-5950x")) == 0);
  // i7-14700K: 8 P x 32 x 3.4 GHz + 12 E x 16 x 2.5 GHz = 870.4 + 480 = 1350.4 GFLOP/s, 20 cores.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("14700k")) == doctest::Approx(1.3504e12));
  CHECK(fitcheck::cpu_core_count(cpu("core-i7-14700k")) == 20);
  // 9800X3D: 8 Zen 5 cores x 64 x 4.7 GHz = 2.4064 TFLOP/s.
  CHECK(fitcheck::cpu_peak_fp32_flops_per_second(cpu("9800x3d")) == doctest::Approx(2.4064e12));
  // w9-3495X: AMX-BF16 1024 FLOPs/cycle x 56 cores x 1.9 GHz = 108.9536 TFLOP/s.
  CHECK(fitcheck::cpu_peak_bf16_flops_per_second(cpu("w9-3495x")) == doctest::Approx(108.9536e12));
  CHECK(fitcheck::cpu_core_count(cpu("core-i9-14900k")) == 24);
}

TEST_CASE("find_cpu: ids, aliases, case and unknowns") {
  CHECK(std::string_view(cpu("EPYC-9654").id) == "epyc-9654");
  CHECK(std::string_view(cpu("AMD Ryzen 9 7950X").id) == "ryzen-9-7950x");
  CHECK(std::string_view(cpu(" 14900K ").id) == "core-i9-14900k");
  CHECK(std::string_view(cpu("7995wx").id) == "threadripper-pro-7995wx");
  CHECK(fitcheck::find_cpu("") == nullptr);
  CHECK(fitcheck::find_cpu("ryzen-9-7950x3d") == nullptr);
}

TEST_CASE("cpu_catalog_json carries the derived figures") {
  const auto catalog = nlohmann::json::parse(fitcheck::cpu_catalog_json());
  REQUIRE(catalog.is_array());
  CHECK(catalog.size() == fitcheck::cpu_catalog().size());
  const auto& first = catalog.at(0);
  CHECK(first["id"] == "ryzen-9-7950x");
  CHECK(first["memory_bandwidth_bytes_per_second"].get<double>() == doctest::Approx(83.2e9));
  CHECK(first["peak_fp32_flops_per_second"].get<double>() == doctest::Approx(2.304e12));
  CHECK(first["compute_dies"] == 2);
  CHECK(first["fabric_read_bytes_per_second"].get<double>() == doctest::Approx(128e9));
  CHECK(first["memory_read_peak_bytes_per_second"].get<double>() == doctest::Approx(83.2e9));
  CHECK(first.contains("sources"));
}

TEST_CASE("cpu catalog: int8 and vector bf16 peaks, by hand") {
  // Ryzen 9 7950X (Zen 4, AVX512_VNNI): 16 cores x 4.5 GHz x 128 int8 ops (4 x its 32 FP32 FLOPs).
  CHECK(fitcheck::cpu_peak_int8_ops_per_second(cpu("ryzen-9-7950x")) == doctest::Approx(9.216e12));
  // Ryzen 9 5950X (Zen 3, AVX2 without VNNI): 16 x 3.4 GHz x 64 (2 x 32).
  CHECK(fitcheck::cpu_peak_int8_ops_per_second(cpu("ryzen-9-5950x")) == doctest::Approx(16 * 3.4e9 * 64));
  // Core i5-13600K (AVX-VNNI): 6 P-cores x 3.5 GHz x 128 + 8 E-cores x 2.6 GHz x 64.
  CHECK(fitcheck::cpu_peak_int8_ops_per_second(cpu("core-i5-13600k")) ==
        doctest::Approx(6 * 3.5e9 * 128 + 8 * 2.6e9 * 64));
  // Xeon w9-3495X: the catalog's bf16 peak counts AMX (1024 a cycle); ggml-cpu's BF16 kernels use
  // AVX512_BF16 dot products, 2 x its 64 FP32 FLOPs: 56 x 1.9 GHz x 128.
  CHECK(fitcheck::cpu_peak_vector_bf16_flops_per_second(cpu("xeon-w9-3495x")) == doctest::Approx(56 * 1.9e9 * 128));
  // Without bf16 arithmetic the values are widened to FP32.
  CHECK(fitcheck::cpu_peak_vector_bf16_flops_per_second(cpu("core-i5-13600k")) ==
        doctest::Approx(fitcheck::cpu_peak_fp32_flops_per_second(cpu("core-i5-13600k"))));
  CHECK(fitcheck::cpu_has_avx512(cpu("ryzen-9-7950x")));
  CHECK_FALSE(fitcheck::cpu_has_avx512(cpu("core-i9-14900k")));
  for (const CpuDevice& c : fitcheck::cpu_catalog()) {
    CAPTURE(std::string(c.id));
    const double ratio = c.performance.int8_ops_per_cycle / c.performance.fp32_flops_per_cycle;
    CHECK((ratio == 2.0 || ratio == 4.0));  // AVX2 pairs or a VNNI dot product
  }
}
