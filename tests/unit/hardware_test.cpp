// SPDX-License-Identifier: MIT
// The accelerator catalog: invariants over every entry, then spot checks against spec sheets.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "fitcheck/hardware.hpp"

namespace {

using fitcheck::Accelerator;
using fitcheck::ComputeDtype;

constexpr double kGB = 1e9;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kTera = 1e12;

constexpr ComputeDtype kAllDtypes[] = {ComputeDtype::fp32, ComputeDtype::tf32, ComputeDtype::bf16, ComputeDtype::fp16,
                                       ComputeDtype::fp8,  ComputeDtype::fp4,  ComputeDtype::int8, ComputeDtype::int4};

const Accelerator& get(std::string_view id) {
  const Accelerator* accelerator = fitcheck::find_accelerator(id);
  REQUIRE_MESSAGE(accelerator != nullptr, "missing accelerator ", std::string(id));
  return *accelerator;
}

double peak(std::string_view id, ComputeDtype dtype) { return fitcheck::peak_flops_per_second(get(id), dtype); }

bool near(double actual, double expected, double relative_tolerance) {
  return std::fabs(actual - expected) <= relative_tolerance * std::fabs(expected);
}

}  // namespace

TEST_CASE("catalog: size and required parts") {
  const auto catalog = fitcheck::accelerator_catalog();
  CHECK(catalog.size() >= 30);
  for (std::string_view id :
       {"v100-sxm2-16gb", "v100-sxm2-32gb", "a10",          "a10g",     "a40",    "a100-sxm-40gb", "a100-sxm-80gb",
        "a100-pcie-40gb", "a100-pcie-80gb", "l4",           "l40",      "l40s",   "h100-sxm-80gb", "h100-pcie-80gb",
        "h100-nvl-94gb",  "h200",           "h20",          "gh200",    "b200",   "gb200",         "rtx-3090",
        "rtx-4090",       "rtx-5090",       "rtx-6000-ada", "t4",       "mi250x", "mi300x",        "mi325x",
        "gaudi2",         "gaudi3",         "m2-max",       "m2-ultra", "m3-max", "m3-ultra",      "m4-max",
        "tpu-v5e",        "tpu-v5p",        "tpu-v6e"}) {
    const std::string id_text(id);
    CAPTURE(id_text);
    const Accelerator* accelerator = fitcheck::find_accelerator(id);
    REQUIRE(accelerator != nullptr);
    CHECK(std::string_view(accelerator->id) == id);
  }
}

TEST_CASE("catalog: ids are unique, lowercase and URL-safe") {
  std::set<std::string> seen;
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id = a.id;
    CAPTURE(id);
    CHECK(seen.insert(id).second);
    REQUIRE_FALSE(id.empty());
    CHECK(id.front() != '-');
    CHECK(id.back() != '-');
    for (char c : id) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'));
  }
}

TEST_CASE("catalog: every entry is complete and plausible") {
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id_text = a.id;
    CAPTURE(id_text);
    CHECK(std::string_view(a.name).size() > 0);
    const std::string_view vendor = a.vendor;
    CHECK((vendor == "NVIDIA" || vendor == "AMD" || vendor == "Intel" || vendor == "Apple" || vendor == "Google"));
    CHECK(a.memory_bytes > 0);
    CHECK(a.memory_bytes >= std::int64_t{8'000'000'000});  // nothing here is under 8 GB
    CHECK(a.memory_bytes <= std::int64_t{1} << 40);        // nor over 1 TiB per device
    CHECK(a.memory_bandwidth_bytes_per_second > 50e9);     // the slowest: Apple M1, 68.25 GB/s
    CHECK(a.memory_bandwidth_bytes_per_second < 20e12);
    CHECK(std::string_view(fitcheck::memory_convention_name(a.memory_convention)) != "unknown");
    CHECK(a.gpus_per_node >= 1);
    CHECK(a.interconnect_bytes_per_second_per_direction >= 0);
    if (a.gpus_per_node > 1) CHECK(a.interconnect_bytes_per_second_per_direction > 0);
    CHECK(std::string_view(a.interconnect).size() > 0);
    CHECK(a.price_per_hour_usd > 0);
    CHECK(a.price_per_hour_usd < 20);
    CHECK(std::string_view(a.price_source).find("editable default") != std::string_view::npos);
    CHECK(std::string_view(a.sources).size() > 20);
    // Apple silicon and AMD Strix Halo share memory with the CPU; only Apple has a default cap.
    if (vendor == "Apple") CHECK(a.unified_memory);
    if (!a.unified_memory) CHECK(a.gpu_working_set_bytes == 0);
    CHECK(a.gpu_working_set_bytes >= 0);
    CHECK(a.gpu_working_set_bytes <= a.memory_bytes);
  }
}

TEST_CASE("catalog: dense peaks are ordered sensibly") {
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id_text = a.id;
    CAPTURE(id_text);
    const double fp32 = fitcheck::peak_flops_per_second(a, ComputeDtype::fp32);
    const double bf16 = fitcheck::peak_flops_per_second(a, ComputeDtype::bf16);
    const double fp16 = fitcheck::peak_flops_per_second(a, ComputeDtype::fp16);
    const double fp8 = fitcheck::peak_flops_per_second(a, ComputeDtype::fp8);
    const double fp4 = fitcheck::peak_flops_per_second(a, ComputeDtype::fp4);
    const double int8 = fitcheck::peak_flops_per_second(a, ComputeDtype::int8);
    const double int4 = fitcheck::peak_flops_per_second(a, ComputeDtype::int4);
    for (ComputeDtype dtype : kAllDtypes) {
      const std::string dtype_text = fitcheck::compute_dtype_name(dtype);
      CAPTURE(dtype_text);
      const double value = fitcheck::peak_flops_per_second(a, dtype);
      CHECK(value >= 0);
      // The largest dense figure in the catalog is GB200 fp4, 10 PFLOP/s (20 with sparsity).
      CHECK(value <= 10.0e15);
    }
    CHECK(std::max(bf16, fp16) > 0);  // every part has some 16-bit path
    if (bf16 > 0 && fp32 > 0) CHECK(bf16 >= fp32);
    if (fp8 > 0 && bf16 > 0) CHECK(fp8 >= bf16);
    if (fp4 > 0 && fp8 > 0) CHECK(fp4 >= fp8);
    if (int4 > 0 && int8 > 0) CHECK(int4 >= int8);
    // A part with matrix units runs bf16 well above its fp32 rate: an fp32 figure copied into
    // bf16 would fail here. Apple GPUs have no matrix rate, so bf16 equals fp32 there.
    if (!a.unified_memory && bf16 > 0 && fp32 > 0) CHECK(bf16 >= 1.5 * fp32);
  }
}

TEST_CASE("peak_flops_per_second reads its own dtype and never substitutes another") {
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id_text = a.id;
    CAPTURE(id_text);
    for (ComputeDtype dtype : kAllDtypes) {
      CHECK(fitcheck::peak_flops_per_second(a, dtype) == a.dense_flops_per_second[static_cast<std::size_t>(dtype)]);
    }
  }
  // Volta and Turing have no bf16: 0, not the fp32 rate.
  CHECK(peak("v100-sxm2-16gb", ComputeDtype::bf16) == 0);
  CHECK(peak("v100-sxm2-32gb", ComputeDtype::bf16) == 0);
  CHECK(peak("t4", ComputeDtype::bf16) == 0);
  CHECK(peak("t4", ComputeDtype::fp32) > 0);
  // Nothing before Hopper/Ada has fp8; nothing before Blackwell has fp4.
  CHECK(peak("a100-sxm-80gb", ComputeDtype::fp8) == 0);
  CHECK(peak("h100-sxm-80gb", ComputeDtype::fp4) == 0);
  CHECK(peak("b200", ComputeDtype::fp4) > peak("b200", ComputeDtype::fp8));
}

// Each pair: the dense figure in the catalog and the sheet's sparse ("*") figure, which must be
// twice it. A sparse figure entered as dense would be off by 2x; 2% absorbs the sheets' own
// rounding (the L40S sheet prints BF16 as 362.05 dense and 733 sparse).
TEST_CASE("dense figures are half the datasheets' sparsity figures") {
  struct SparseFigure {
    const char* id;
    ComputeDtype dtype;
    double sparse_tflops;
  };
  constexpr SparseFigure kSparse[] = {
      {"a100-sxm-80gb", ComputeDtype::bf16, 624},  // NVIDIA A100 datasheet
      {"a100-sxm-80gb", ComputeDtype::tf32, 312},
      {"a100-sxm-80gb", ComputeDtype::int8, 1248},
      {"a10", ComputeDtype::bf16, 250},    // NVIDIA A10 datasheet
      {"a40", ComputeDtype::bf16, 299.4},  // NVIDIA A40 datasheet
      {"l4", ComputeDtype::fp8, 485},      // NVIDIA L4 datasheet
      {"l40s", ComputeDtype::bf16, 733},   // NVIDIA L40S datasheet
      {"l40s", ComputeDtype::fp8, 1466},
      {"h100-sxm-80gb", ComputeDtype::bf16, 1979},  // NVIDIA H100 datasheet, SXM
      {"h100-sxm-80gb", ComputeDtype::fp8, 3958},
      {"h100-sxm-80gb", ComputeDtype::tf32, 989},
      {"h100-pcie-80gb", ComputeDtype::bf16, 1513},  // NVIDIA H100 datasheet, PCIe
      {"h100-nvl-94gb", ComputeDtype::bf16, 1671},   // NVIDIA H100 datasheet, NVL
      {"h200", ComputeDtype::fp8, 3958},             // NVIDIA H200 datasheet, SXM
      {"b200", ComputeDtype::fp4, 18000},            // HGX B200 per-GPU specifications
      {"b200", ComputeDtype::bf16, 4500},
      {"gb200", ComputeDtype::fp4, 20000},      // GB200 NVL72 per-GPU specifications
      {"rtx-4090", ComputeDtype::bf16, 330.4},  // Ada whitepaper, Appendix A
      {"rtx-3090", ComputeDtype::bf16, 142},    // GA102 whitepaper, Appendix A
      {"mi300x", ComputeDtype::bf16, 2614.9},   // AMD MI300X data sheet
      {"mi300x", ComputeDtype::fp8, 5229.8},
  };
  for (const SparseFigure& figure : kSparse) {
    const std::string id_text = figure.id;
    const std::string dtype_text = fitcheck::compute_dtype_name(figure.dtype);
    CAPTURE(id_text);
    CAPTURE(dtype_text);
    CHECK(near(2 * peak(figure.id, figure.dtype), figure.sparse_tflops * kTera, 0.02));
  }
}

TEST_CASE("memory: GB versus GiB slips") {
  // NVIDIA Tesla V100 datasheet: 16 GB or 32 GB HBM2. The 16 GB part is not 32 GB.
  const double v100_16 = static_cast<double>(get("v100-sxm2-16gb").memory_bytes);
  CHECK(v100_16 >= 16 * kGB);
  CHECK(v100_16 <= 16 * kGiB);
  CHECK(get("v100-sxm2-32gb").memory_bytes == std::int64_t{32} << 30);
  // NVIDIA A10 datasheet: 24 GB GDDR6 (not 28). nvidia-smi with ECC on: 23028 MiB.
  const double a10 = static_cast<double>(get("a10").memory_bytes);
  CHECK(a10 > 22 * kGB);
  CHECK(a10 <= 24 * kGiB);
  CHECK(get("a10").memory_bytes == std::int64_t{23028} << 20);
  // A100 80GB: nvidia-smi reports 81920 MiB, i.e. 80 GiB = 85,899,345,920 bytes.
  CHECK(get("a100-sxm-80gb").memory_bytes == 85'899'345'920);
  CHECK(get("a100-pcie-80gb").memory_bytes == 85'899'345'920);
  CHECK(get("a100-sxm-40gb").memory_bytes == std::int64_t{40} << 30);
  // NVIDIA H200 datasheet: 141 GB HBM3e; nvidia-smi 143771 MiB (144 GiB stacks, part reserved).
  const double h200 = static_cast<double>(get("h200").memory_bytes);
  CHECK(h200 >= 141 * kGB);
  CHECK(h200 <= 144 * kGiB);
  // AMD MI300X data sheet: 192 GB HBM3; rocm-smi VRAM total 205,822,885,888 B (< 192 GiB).
  const double mi300x = static_cast<double>(get("mi300x").memory_bytes);
  CHECK(mi300x >= 192 * kGB);
  CHECK(mi300x <= 192 * kGiB);
  // The declared convention matches the number: whole GiB, or whole decimal GB.
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id_text = a.id;
    CAPTURE(id_text);
    if (a.memory_convention == fitcheck::MemoryConvention::binary_capacity) {
      CHECK(a.memory_bytes % (std::int64_t{1} << 30) == 0);
    }
    if (a.memory_convention == fitcheck::MemoryConvention::vendor_decimal) {
      CHECK(a.memory_bytes % 1'000'000'000 == 0);
    }
  }
}

TEST_CASE("spot checks against spec sheets") {
  // NVIDIA H100 datasheet, SXM: 3.35 TB/s; BF16 1,979 TFLOPS with sparsity = 989.4 dense.
  CHECK(near(peak("h100-sxm-80gb", ComputeDtype::bf16), 989.4 * kTera, 0.005));
  CHECK(get("h100-sxm-80gb").memory_bandwidth_bytes_per_second == doctest::Approx(3.35e12));
  CHECK(get("h100-sxm-80gb").interconnect_bytes_per_second_per_direction == 450e9);
  // NVIDIA A100 datasheet: BF16 312 TFLOPS dense, the same on SXM and PCIe; 2,039 GB/s (80GB SXM).
  for (const char* id : {"a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb"}) {
    const std::string id_text = id;
    CAPTURE(id_text);
    CHECK(peak(id, ComputeDtype::bf16) == doctest::Approx(312 * kTera));
    CHECK(peak(id, ComputeDtype::fp32) == doctest::Approx(19.5 * kTera));
  }
  CHECK(get("a100-sxm-80gb").memory_bandwidth_bytes_per_second == doctest::Approx(2039e9));
  CHECK(get("a100-sxm-80gb").interconnect_bytes_per_second_per_direction == 300e9);
  // AMD MI300X data sheet: 5.3 TB/s, BF16 1307.4 TFLOPS dense.
  CHECK(get("mi300x").memory_bandwidth_bytes_per_second == doctest::Approx(5.3e12));
  CHECK(peak("mi300x", ComputeDtype::bf16) == doctest::Approx(1307.4 * kTera));
  // NVIDIA H200 datasheet: 4.8 TB/s; compute as H100 SXM.
  CHECK(get("h200").memory_bandwidth_bytes_per_second == doctest::Approx(4.8e12));
  CHECK(peak("h200", ComputeDtype::bf16) == peak("h100-sxm-80gb", ComputeDtype::bf16));
  // NVIDIA T4 datasheet: 65 TFLOPS mixed precision, 320 GB/s.
  CHECK(peak("t4", ComputeDtype::fp16) == doctest::Approx(65 * kTera));
  // Google Cloud TPU docs: v5e 197 TFLOPS bf16, 819 GB/s; v6e 918 TFLOPS bf16.
  CHECK(peak("tpu-v5e", ComputeDtype::bf16) == doctest::Approx(197 * kTera));
  CHECK(get("tpu-v5e").memory_bandwidth_bytes_per_second == doctest::Approx(819e9));
  CHECK(peak("tpu-v6e", ComputeDtype::bf16) == doctest::Approx(918 * kTera));
  // Apple M2 Ultra: up to 192GB unified memory at 800GB/s, shared with the CPU.
  CHECK(get("m2-ultra").unified_memory);
  CHECK(get("m2-ultra").memory_bytes == std::int64_t{192} << 30);
  CHECK(get("m2-ultra").memory_bandwidth_bytes_per_second == doctest::Approx(800e9));
  // MI250X entries are one GCD: half the module's 128 GiB.
  CHECK(get("mi250x").memory_bytes == std::int64_t{64} << 30);
}

TEST_CASE("find_accelerator: ids, aliases, case and unknowns") {
  CHECK(std::string_view(get("h100-sxm-80gb").id) == "h100-sxm-80gb");
  CHECK(std::string_view(get("H100-SXM-80GB").id) == "h100-sxm-80gb");
  CHECK(std::string_view(get("h100").id) == "h100-sxm-80gb");
  CHECK(std::string_view(get("a100").id) == "a100-sxm-80gb");
  CHECK(std::string_view(get("v100").id) == "v100-sxm2-16gb");
  CHECK(std::string_view(get("4090").id) == "rtx-4090");
  CHECK(std::string_view(get("RTX_4090").id) == "rtx-4090");
  CHECK(std::string_view(get("  tpu-v5e ").id) == "tpu-v5e");
  CHECK(std::string_view(get("Trillium").id) == "tpu-v6e");
  // Driver names as nvidia-smi and torch.cuda.get_device_name print them.
  CHECK(std::string_view(get("NVIDIA H100 80GB HBM3").id) == "h100-sxm-80gb");
  CHECK(std::string_view(get("NVIDIA A100-SXM4-40GB").id) == "a100-sxm-40gb");
  CHECK(std::string_view(get("Tesla T4").id) == "t4");
  CHECK(std::string_view(get("NVIDIA GeForce RTX 4090").id) == "rtx-4090");

  CHECK(fitcheck::find_accelerator("h900") == nullptr);
  CHECK(fitcheck::find_accelerator("") == nullptr);
  CHECK(fitcheck::find_accelerator("   ") == nullptr);
  CHECK(fitcheck::find_accelerator("h100-sxm-80gb-extra") == nullptr);
}

TEST_CASE("aliases are folded, resolve, and never shadow an id") {
  std::set<std::string> ids;
  for (const Accelerator& a : fitcheck::accelerator_catalog()) ids.insert(a.id);
  std::set<std::string> aliases;
  for (const fitcheck::AcceleratorAlias& alias : fitcheck::accelerator_aliases()) {
    const std::string text = alias.alias;
    CAPTURE(text);
    CHECK(aliases.insert(text).second);
    CHECK(ids.count(text) == 0);
    CHECK(ids.count(alias.id) == 1);
    for (char c : text) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'));
    const Accelerator* resolved = fitcheck::find_accelerator(text);
    REQUIRE(resolved != nullptr);
    CHECK(std::string_view(resolved->id) == alias.id);
  }
}

TEST_CASE("dtype and convention names") {
  const char* expected[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8", "int4"};
  for (std::size_t i = 0; i < fitcheck::kComputeDtypeCount; ++i) {
    CHECK(std::string_view(fitcheck::compute_dtype_name(kAllDtypes[i])) == expected[i]);
  }
  CHECK(std::string_view(fitcheck::memory_convention_name(fitcheck::MemoryConvention::driver_reported)) ==
        "driver_reported");
  CHECK(std::string_view(fitcheck::memory_convention_name(fitcheck::MemoryConvention::binary_capacity)) ==
        "binary_capacity");
  CHECK(std::string_view(fitcheck::memory_convention_name(fitcheck::MemoryConvention::vendor_decimal)) ==
        "vendor_decimal");
}

// Issue #16: devices people run models on locally.
constexpr const char* kLocalDeviceIds[] = {"rtx-2060-12gb",
                                           "rtx-2070",
                                           "rtx-2080",
                                           "rtx-2080-ti",
                                           "rtx-3060-12gb",
                                           "rtx-3060-ti",
                                           "rtx-3070",
                                           "rtx-3080-10gb",
                                           "rtx-3080-12gb",
                                           "rtx-3080-ti",
                                           "rtx-3090-ti",
                                           "rtx-4060",
                                           "rtx-4060-ti-8gb",
                                           "rtx-4060-ti-16gb",
                                           "rtx-4070",
                                           "rtx-4070-super",
                                           "rtx-4070-ti",
                                           "rtx-4070-ti-super",
                                           "rtx-4080",
                                           "rtx-4080-super",
                                           "rtx-5060-ti-16gb",
                                           "rtx-5070",
                                           "rtx-5070-ti",
                                           "rtx-5080",
                                           "rtx-a4000",
                                           "rtx-a4500",
                                           "rtx-a5000",
                                           "rtx-a6000",
                                           "rtx-pro-6000-blackwell",
                                           "dgx-spark",
                                           "rx-7900-xtx",
                                           "rx-7900-xt",
                                           "rx-9070-xt",
                                           "strix-halo-128gb",
                                           "arc-b580",
                                           "m1-16gb",
                                           "m2-24gb",
                                           "m3-24gb",
                                           "m4-32gb",
                                           "m5-32gb",
                                           "m1-pro-32gb",
                                           "m1-max-64gb",
                                           "m1-ultra-64gb",
                                           "m1-ultra-128gb",
                                           "m2-pro-32gb",
                                           "m2-max-64gb",
                                           "m2-ultra-128gb",
                                           "m3-pro-36gb",
                                           "m3-max-64gb",
                                           "m3-ultra-256gb",
                                           "m4-pro-48gb",
                                           "m4-pro-64gb",
                                           "m4-max-64gb",
                                           "m5-pro-64gb",
                                           "m5-max-128gb"};

TEST_CASE("local devices: present by id, sourced, with positive figures") {
  for (const char* id : kLocalDeviceIds) {
    const std::string id_text = id;
    CAPTURE(id_text);
    const Accelerator* a = fitcheck::find_accelerator(id);
    REQUIRE(a != nullptr);
    CHECK(std::string_view(a->id) == id);
    CHECK(a->memory_bytes > 0);
    CHECK(a->memory_bandwidth_bytes_per_second > 0);
    CHECK(fitcheck::peak_flops_per_second(*a, ComputeDtype::fp32) > 0);
    CHECK(std::max(fitcheck::peak_flops_per_second(*a, ComputeDtype::bf16),
                   fitcheck::peak_flops_per_second(*a, ComputeDtype::fp16)) > 0);
    CHECK(a->price_per_hour_usd > 0);
    const std::string_view sources = a->sources;
    // Every entry names the vendor document its figures came from.
    CHECK((sources.find("specifications") != std::string_view::npos ||
           sources.find("whitepaper") != std::string_view::npos ||
           sources.find("datasheet") != std::string_view::npos ||
           sources.find("Apple Newsroom") != std::string_view::npos));
  }
}

TEST_CASE("local devices: derived rates match the published figures") {
  // Each: the catalog's dense rate and the figure the whitepaper or spec page prints (dense, or
  // half of a sparse "*" figure). 1% absorbs the sheets' rounding of clock x units.
  struct Published {
    const char* id;
    ComputeDtype dtype;
    double tflops;
  };
  constexpr Published kPublished[] = {
      {"rtx-2080-ti", ComputeDtype::fp32, 13.4},  // Turing whitepaper, RTX 2080 Ti reference
      {"rtx-2080-ti", ComputeDtype::fp16, 53.8},  // FP16 tensor with FP32 accumulate
      {"rtx-2080-ti", ComputeDtype::int8, 215.2},
      {"rtx-2080", ComputeDtype::fp16, 40.3},
      {"rtx-2070", ComputeDtype::fp16, 29.9},
      {"rtx-3080-10gb", ComputeDtype::fp32, 29.8},  // GA102 whitepaper, RTX 3080
      {"rtx-3080-10gb", ComputeDtype::bf16, 59.5},
      {"rtx-3070", ComputeDtype::fp32, 20.3},  // GA102 whitepaper, RTX 3070
      {"rtx-4080", ComputeDtype::fp32, 48.7},  // Ada whitepaper, RTX 4080 16GB
      {"rtx-4080", ComputeDtype::bf16, 97.5},
      {"rtx-4070-ti", ComputeDtype::fp32, 40.1},    // Ada whitepaper, RTX 4080 12GB
      {"rtx-5080", ComputeDtype::fp4, 1801.0 / 2},  // RTX 5080: 1801 AI TOPS (FP4, sparse)
      {"rtx-5070-ti", ComputeDtype::fp4, 1406.0 / 2},
      {"rtx-5070", ComputeDtype::fp4, 988.0 / 2},
      {"rtx-5060-ti-16gb", ComputeDtype::fp4, 759.0 / 2},
      {"rtx-a6000", ComputeDtype::fp32, 38.7},       // RTX A6000 datasheet
      {"rtx-a6000", ComputeDtype::bf16, 309.7 / 2},  // Tensor 309.7 (sparse)
      {"rtx-a5000", ComputeDtype::bf16, 222.2 / 2},
      {"rtx-a4500", ComputeDtype::bf16, 189.2 / 2},
      {"rtx-a4000", ComputeDtype::bf16, 153.4 / 2},
      {"rtx-a4000", ComputeDtype::fp32, 19.2},
      {"rtx-pro-6000-blackwell", ComputeDtype::fp32, 125},        // datasheet: 125 TFLOPS
      {"rtx-pro-6000-blackwell", ComputeDtype::fp4, 4000.0 / 2},  // 4000 AI TOPS (sparse)
      {"rx-7900-xtx", ComputeDtype::fp16, 122.8},                 // AMD spec page, Peak Half Precision
      {"rx-9070-xt", ComputeDtype::int4, 1557.0 / 2},             // 1557 AI TOPS (INT4, sparse)
      {"arc-b580", ComputeDtype::int8, 233},                      // Intel spec page, peak TOPS (INT8)
      {"m1-max-64gb", ComputeDtype::fp32, 10.4},                  // Apple, M1 Max 32-core GPU
      {"m1-16gb", ComputeDtype::fp32, 2.6},                       // Apple, M1 8-core GPU
      {"m2-24gb", ComputeDtype::fp32, 3.6},                       // Apple, M2 10-core GPU
  };
  for (const Published& figure : kPublished) {
    const std::string id_text = figure.id;
    const std::string dtype_text = fitcheck::compute_dtype_name(figure.dtype);
    CAPTURE(id_text);
    CAPTURE(dtype_text);
    CHECK(near(peak(figure.id, figure.dtype), figure.tflops * kTera, 0.01));
  }
  // Existing entries and the per-SM derivation agree: the RTX 3090 and 4090 whitepaper columns.
  CHECK(near(peak("rtx-3090-ti", ComputeDtype::bf16) / peak("rtx-3090", ComputeDtype::bf16), (84 * 1.86) / (82 * 1.695),
             0.01));
  // Turing has no bf16 (0, not a substitute).
  CHECK(peak("rtx-2080-ti", ComputeDtype::bf16) == 0);
}

TEST_CASE("local devices: memory and bandwidth against spec pages") {
  CHECK(get("rtx-3060-12gb").memory_bytes == std::int64_t{12} << 30);
  CHECK(get("rtx-4060-ti-16gb").memory_bytes == std::int64_t{16} << 30);
  CHECK(get("rtx-4060-ti-8gb").memory_bytes == std::int64_t{8} << 30);
  CHECK(get("rtx-2080-ti").memory_bytes == std::int64_t{11} << 30);
  // 192-bit x 15 Gbps / 8 = 360 GB/s; 128-bit x 18 Gbps / 8 = 288 GB/s; 512-bit x 28 Gbps / 8 = 1792.
  CHECK(get("rtx-3060-12gb").memory_bandwidth_bytes_per_second == doctest::Approx(360e9));
  CHECK(get("rtx-4060-ti-16gb").memory_bandwidth_bytes_per_second == doctest::Approx(288e9));
  CHECK(get("rtx-pro-6000-blackwell").memory_bandwidth_bytes_per_second == doctest::Approx(1792e9));
  // Strix Halo: LPDDR5X-8000 on 256 bits = 8000e6 x 32 B = 256 GB/s, 128 GiB shared.
  CHECK(get("strix-halo-128gb").memory_bandwidth_bytes_per_second == doctest::Approx(256e9));
  CHECK(get("strix-halo-128gb").unified_memory);
  CHECK(get("strix-halo-128gb").memory_bytes == std::int64_t{128} << 30);
  // DGX Spark: 273 GB/s LPDDR5x shared by the GB10's CPU and GPU; 48 SMs x 2.418 GHz at the RTX PRO 6000
  // Blackwell's rates per SM and clock: FP32 256 x 48 x 2.418 GHz = 29.71 TFLOPS, FP16/BF16 1024 x ... =
  // 118.8, FP8 and INT8 2048 x ... = 237.7, FP4 4096 x ... = 475.4 (x 2 sparse: NVIDIA's "1 PFLOP").
  CHECK(get("dgx-spark").memory_bandwidth_bytes_per_second == doctest::Approx(273e9));
  CHECK(get("dgx-spark").unified_memory);
  CHECK(get("dgx-spark").memory_bytes == std::int64_t{128} << 30);
  CHECK(peak("dgx-spark", ComputeDtype::fp32) == doctest::Approx(29.71e12).epsilon(1e-3));
  CHECK(peak("dgx-spark", ComputeDtype::bf16) == doctest::Approx(118.8e12).epsilon(1e-3));
  CHECK(peak("dgx-spark", ComputeDtype::int8) == doctest::Approx(237.7e12).epsilon(1e-3));
  CHECK(2 * peak("dgx-spark", ComputeDtype::fp4) == doctest::Approx(0.951e15).epsilon(1e-3));
  CHECK(std::string_view(get("GB10").id) == "dgx-spark");
  // PCIe lanes: the 4060 Ti and 5060 Ti are x8 cards.
  CHECK(get("rtx-4060-ti-16gb").interconnect_bytes_per_second_per_direction == 16e9);
  CHECK(get("rtx-5060-ti-16gb").interconnect_bytes_per_second_per_direction == 32e9);
  // Apple newsroom bandwidths.
  CHECK(get("m4-pro-48gb").memory_bandwidth_bytes_per_second == doctest::Approx(273e9));
  CHECK(get("m5-max-128gb").memory_bandwidth_bytes_per_second == doctest::Approx(614e9));
  CHECK(get("m3-pro-36gb").memory_bandwidth_bytes_per_second == doctest::Approx(150e9));
}

TEST_CASE("Apple GPU working set: macOS's default cap, hand-computed") {
  // M2 Ultra 192 GB: above 32 GiB the cap is 3/4: 192 GiB x 3/4 = 144 GiB = 154,618,822,656 B
  // (ggml-metal prints recommendedMaxWorkingSetSize = 147456.00 MB, i.e. MiB, on these machines).
  CHECK(get("m2-ultra").gpu_working_set_bytes == 154'618'822'656);
  CHECK(fitcheck::gpu_memory_limit_bytes(get("m2-ultra")) == 154'618'822'656);
  // M1 Pro 32 GB: at 32 GiB and below the cap is 2/3: 34,359,738,368 x 2 / 3 = 22,906,492,245 B
  // = 21845.33 MiB (llama.cpp #2011 logs 21845.34 MB on a 32 GB M1 Max).
  CHECK(get("m1-pro-32gb").gpu_working_set_bytes == 22'906'492'245);
  // M2 Max 96 GB: 96 GiB x 3/4 = 72 GiB = 73728 MiB, as llama.cpp #3213 logs (73728,00 MB).
  CHECK(get("m2-max").gpu_working_set_bytes == std::int64_t{73728} << 20);
  CHECK(fitcheck::macos_default_gpu_working_set_bytes(std::int64_t{16} << 30) == 11'453'246'122);  // 10922.67 MiB
  for (const Accelerator& a : fitcheck::accelerator_catalog()) {
    const std::string id_text = a.id;
    CAPTURE(id_text);
    if (std::string_view(a.vendor) == "Apple") {
      CHECK(a.gpu_working_set_bytes == fitcheck::macos_default_gpu_working_set_bytes(a.memory_bytes));
      CHECK(fitcheck::gpu_memory_limit_bytes(a) < a.memory_bytes);
    } else {
      CHECK(fitcheck::gpu_memory_limit_bytes(a) == a.memory_bytes);  // every other budget unchanged
    }
  }
}

TEST_CASE("local devices: aliases and driver names") {
  CHECK(std::string_view(get("NVIDIA GeForce RTX 3060").id) == "rtx-3060-12gb");
  CHECK(std::string_view(get("NVIDIA GeForce RTX 4060 Ti").id) == "rtx-4060-ti-8gb");  // the smaller
  CHECK(std::string_view(get("NVIDIA GeForce RTX 3080").id) == "rtx-3080-10gb");
  CHECK(std::string_view(get("NVIDIA RTX A6000").id) == "rtx-a6000");
  CHECK(std::string_view(get("7900 XTX").id) == "rx-7900-xtx");
  CHECK(std::string_view(get("AMD Radeon RX 7900 XT").id) == "rx-7900-xt");
  CHECK(std::string_view(get("Strix Halo").id) == "strix-halo-128gb");
  CHECK(std::string_view(get("B580").id) == "arc-b580");
  CHECK(std::string_view(get("m4-max-128gb").id) == "m4-max");
  CHECK(std::string_view(get("M3_Ultra_512GB").id) == "m3-ultra");
  CHECK(std::string_view(get("m2-ultra-192gb").id) == "m2-ultra");
  CHECK(std::string_view(get("Apple M1 Max").id) == "m1-max-64gb");
  CHECK(std::string_view(get("rtx-4060-ti").id) == "rtx-4060-ti-8gb");  // without the memory: the smaller
  CHECK(std::string_view(get("rtx-3080").id) == "rtx-3080-10gb");
}

TEST_CASE("memory_budget_bytes: the usable share of a device, truncated to whole bytes") {
  const Accelerator& h100 = *fitcheck::find_accelerator("h100-sxm-80gb");
  REQUIRE(h100.memory_bytes == 85'520'809'984);  // 81,559 MiB x 1,048,576
  // 0.9 x 85,520,809,984 = 76,968,728,985.6 -> 76,968,728,985 (vLLM's default utilization).
  CHECK(fitcheck::memory_budget_bytes(h100, 0.9) == 76'968'728'985);
  // 1 - 0.05 headroom: 0.95 x 85,520,809,984 = 81,244,769,484.8 -> 81,244,769,484.
  CHECK(fitcheck::memory_budget_bytes(h100, 1.0 - 0.05) == 81'244'769'484);
  CHECK(fitcheck::memory_budget_bytes(h100, 1.0) == h100.memory_bytes);
  // Apple: the share of the macOS working set, not of the whole unified memory. M2 Ultra 192 GiB:
  // 3/4 -> 154,618,822,656 B; 0.9 of it = 139,156,940,390.4 -> 139,156,940,390.
  const Accelerator& m2_ultra = *fitcheck::find_accelerator("m2-ultra");
  REQUIRE(m2_ultra.memory_bytes == 206'158'430'208);
  CHECK(fitcheck::memory_budget_bytes(m2_ultra, 0.9) == 139'156'940'390);
}

TEST_CASE("price_per_gpu_hour_usd: a given price wins, else the catalog's default") {
  const Accelerator& h100 = *fitcheck::find_accelerator("h100-sxm-80gb");
  CHECK(fitcheck::price_per_gpu_hour_usd(h100, -1) == h100.price_per_hour_usd);
  CHECK(fitcheck::price_per_gpu_hour_usd(h100, 1.25) == 1.25);
  CHECK(fitcheck::price_per_gpu_hour_usd(h100, 0) == 0);  // a free GPU is a price, not a missing one
}

TEST_CASE("GPU generations from the catalog's rates") {
  using fitcheck::find_accelerator;
  using fitcheck::gpu_generation;
  using fitcheck::GpuGeneration;
  CHECK(gpu_generation(*find_accelerator("a100")) == GpuGeneration::ampere);
  CHECK(gpu_generation(*find_accelerator("l40s")) == GpuGeneration::ada);
  CHECK(gpu_generation(*find_accelerator("h100")) == GpuGeneration::hopper);
  CHECK(gpu_generation(*find_accelerator("h100-pcie-80gb")) == GpuGeneration::hopper);
  CHECK(gpu_generation(*find_accelerator("rtx-4090")) == GpuGeneration::ada);
  CHECK(gpu_generation(*find_accelerator("b200")) == GpuGeneration::blackwell);
}

TEST_CASE("an NVLink fabric joins a node's GPUs, or GB200 NVL72's 72") {
  CHECK(fitcheck::nvlink_fabric_gpus(get("h100-sxm-80gb")) == 8);
  CHECK(fitcheck::nvlink_fabric_gpus(get("gb200")) == 72);
  const Accelerator lone{};
  CHECK(fitcheck::nvlink_fabric_gpus(lone) == 1);
}

TEST_CASE("SMs and L2 of NVIDIA GPUs, as the whitepapers print them") {
  // Every row of the table names a catalog entry (a misspelt id would match nothing): 50 GPUs have both.
  std::size_t known = 0;
  for (const fitcheck::Accelerator& a : fitcheck::accelerator_catalog()) {
    const fitcheck::GpuOnChipCache cache = fitcheck::gpu_on_chip_cache(a);
    CHECK((cache.streaming_multiprocessors > 0) == (cache.l2_cache_bytes > 0));
    if (cache.streaming_multiprocessors > 0) {
      CHECK(std::string_view(a.vendor) == "NVIDIA");
      ++known;
    }
  }
  CHECK(known == 50);
  const auto cache_of = [](const char* id) { return fitcheck::gpu_on_chip_cache(*fitcheck::find_accelerator(id)); };
  // Ada whitepaper: the RTX 4090's 128 SMs and 72 MB; A100: 108 SMs, 40 MB; GB10 (Hot Chips 2025): 48, 24 MB.
  CHECK(cache_of("rtx-4090").streaming_multiprocessors == 128);
  CHECK(cache_of("rtx-4090").l2_cache_bytes == std::int64_t{72} << 20);
  CHECK(cache_of("a100-sxm-80gb").l2_cache_bytes == std::int64_t{40} << 20);
  CHECK(cache_of("dgx-spark").streaming_multiprocessors == 48);
  CHECK(cache_of("dgx-spark").l2_cache_bytes == std::int64_t{24} << 20);
  // Not found in a whitepaper: unknown, not guessed.
  CHECK(cache_of("b200").l2_cache_bytes == 0);
  CHECK(cache_of("rx-7900-xtx").streaming_multiprocessors == 0);
}
