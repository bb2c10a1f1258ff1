// SPDX-License-Identifier: MIT
// Catalog assembly, id/alias lookup and per-dtype peak queries. The figures live in a table per
// vendor (catalog_table.hpp lists them).
#include "fitcheck/hardware.hpp"
#include <algorithm>

#include "catalog_table.hpp"

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace fitcheck {
namespace {

// Bare family names resolve to the part most often rented; driver names (nvidia-smi, torch)
// resolve to the exact part so a detected GPU maps without a table of its own.
constexpr AcceleratorAlias kAliases[] = {
    {"v100", "v100-sxm2-16gb"},
    {"v100-16gb", "v100-sxm2-16gb"},
    {"v100-32gb", "v100-sxm2-32gb"},
    {"tesla-v100-sxm2-16gb", "v100-sxm2-16gb"},
    {"tesla-v100-sxm2-32gb", "v100-sxm2-32gb"},
    {"tesla-t4", "t4"},
    {"nvidia-a10", "a10"},
    {"nvidia-a10g", "a10g"},
    {"nvidia-a40", "a40"},
    {"a100", "a100-sxm-80gb"},
    {"a100-80gb", "a100-sxm-80gb"},
    {"a100-40gb", "a100-sxm-40gb"},
    {"a100-sxm", "a100-sxm-80gb"},
    {"a100-pcie", "a100-pcie-80gb"},
    {"nvidia-a100-sxm4-80gb", "a100-sxm-80gb"},
    {"nvidia-a100-sxm4-40gb", "a100-sxm-40gb"},
    {"nvidia-a100-80gb-pcie", "a100-pcie-80gb"},
    {"nvidia-a100-pcie-40gb", "a100-pcie-40gb"},
    {"nvidia-l4", "l4"},
    {"nvidia-l40", "l40"},
    {"nvidia-l40s", "l40s"},
    {"h100", "h100-sxm-80gb"},
    {"h100-sxm", "h100-sxm-80gb"},
    {"h100-pcie", "h100-pcie-80gb"},
    {"h100-nvl", "h100-nvl-94gb"},
    {"nvidia-h100-80gb-hbm3", "h100-sxm-80gb"},
    {"nvidia-h100-pcie", "h100-pcie-80gb"},
    {"nvidia-h100-nvl", "h100-nvl-94gb"},
    {"h200-sxm", "h200"},
    {"h200-141gb", "h200"},
    {"nvidia-h200", "h200"},
    {"nvidia-h200-nvl", "h200-nvl"},
    {"nvidia-h20", "h20"},
    {"gh200-96gb", "gh200"},
    {"nvidia-gh200-480gb", "gh200"},
    {"nvidia-b200", "b200"},
    {"nvidia-gb200", "gb200"},
    {"3090", "rtx-3090"},
    {"4090", "rtx-4090"},
    {"5090", "rtx-5090"},
    {"nvidia-geforce-rtx-3090", "rtx-3090"},
    {"nvidia-geforce-rtx-4090", "rtx-4090"},
    {"nvidia-geforce-rtx-5090", "rtx-5090"},
    {"rtx6000-ada", "rtx-6000-ada"},
    {"nvidia-rtx-6000-ada-generation", "rtx-6000-ada"},
    {"mi300", "mi300x"},
    {"amd-instinct-mi300x", "mi300x"},
    {"mi325", "mi325x"},
    {"gaudi-2", "gaudi2"},
    {"gaudi-3", "gaudi3"},
    {"v5e", "tpu-v5e"},
    {"v5litepod", "tpu-v5e"},
    {"v5p", "tpu-v5p"},
    {"v6e", "tpu-v6e"},
    {"trillium", "tpu-v6e"},
    {"apple-m2-max", "m2-max"},
    {"apple-m2-ultra", "m2-ultra"},
    {"apple-m3-max", "m3-max"},
    {"apple-m3-ultra", "m3-ultra"},
    {"apple-m4-max", "m4-max"},
    // Local devices (issue #16). A driver name shared by two memory sizes resolves to the smaller.
    {"2080-ti", "rtx-2080-ti"},
    {"3060", "rtx-3060-12gb"},
    {"rtx-3060", "rtx-3060-12gb"},
    {"rtx-3080", "rtx-3080-10gb"},
    {"rtx-4060-ti", "rtx-4060-ti-8gb"},
    {"rtx-5060-ti", "rtx-5060-ti-16gb"},
    {"3080", "rtx-3080-10gb"},
    {"3080-ti", "rtx-3080-ti"},
    {"3090-ti", "rtx-3090-ti"},
    {"4060-ti", "rtx-4060-ti-8gb"},
    {"4070-ti-super", "rtx-4070-ti-super"},
    {"4080", "rtx-4080"},
    {"5060-ti", "rtx-5060-ti-16gb"},
    {"5070-ti", "rtx-5070-ti"},
    {"5080", "rtx-5080"},
    {"nvidia-geforce-rtx-2060", "rtx-2060-12gb"},
    {"nvidia-geforce-rtx-2070", "rtx-2070"},
    {"nvidia-geforce-rtx-2080", "rtx-2080"},
    {"nvidia-geforce-rtx-2080-ti", "rtx-2080-ti"},
    {"nvidia-geforce-rtx-3060", "rtx-3060-12gb"},
    {"nvidia-geforce-rtx-3060-ti", "rtx-3060-ti"},
    {"nvidia-geforce-rtx-3070", "rtx-3070"},
    {"nvidia-geforce-rtx-3080", "rtx-3080-10gb"},
    {"nvidia-geforce-rtx-3080-ti", "rtx-3080-ti"},
    {"nvidia-geforce-rtx-3090-ti", "rtx-3090-ti"},
    {"nvidia-geforce-rtx-4060", "rtx-4060"},
    {"nvidia-geforce-rtx-4060-ti", "rtx-4060-ti-8gb"},
    {"nvidia-geforce-rtx-4070", "rtx-4070"},
    {"nvidia-geforce-rtx-4070-super", "rtx-4070-super"},
    {"nvidia-geforce-rtx-4070-ti", "rtx-4070-ti"},
    {"nvidia-geforce-rtx-4070-ti-super", "rtx-4070-ti-super"},
    {"nvidia-geforce-rtx-4080", "rtx-4080"},
    {"nvidia-geforce-rtx-4080-super", "rtx-4080-super"},
    {"nvidia-geforce-rtx-5060-ti", "rtx-5060-ti-16gb"},
    {"nvidia-geforce-rtx-5070", "rtx-5070"},
    {"nvidia-geforce-rtx-5070-ti", "rtx-5070-ti"},
    {"nvidia-geforce-rtx-5080", "rtx-5080"},
    {"nvidia-rtx-a4000", "rtx-a4000"},
    {"nvidia-rtx-a4500", "rtx-a4500"},
    {"nvidia-rtx-a5000", "rtx-a5000"},
    {"nvidia-rtx-a6000", "rtx-a6000"},
    {"a6000", "rtx-a6000"},
    {"rtx-pro-6000", "rtx-pro-6000-blackwell"},
    {"nvidia-rtx-pro-6000-blackwell-workstation-edition", "rtx-pro-6000-blackwell"},
    {"7900-xtx", "rx-7900-xtx"},
    {"7900-xt", "rx-7900-xt"},
    {"9070-xt", "rx-9070-xt"},
    {"amd-radeon-rx-7900-xtx", "rx-7900-xtx"},
    {"amd-radeon-rx-7900-xt", "rx-7900-xt"},
    {"amd-radeon-rx-9070-xt", "rx-9070-xt"},
    {"b580", "arc-b580"},
    {"intel-arc-b580", "arc-b580"},
    {"gb10", "dgx-spark"},
    {"nvidia-dgx-spark", "dgx-spark"},
    {"dgx-spark-128gb", "dgx-spark"},
    {"strix-halo", "strix-halo-128gb"},
    {"ryzen-ai-max-395", "strix-halo-128gb"},
    {"ryzen-ai-max-plus-395", "strix-halo-128gb"},
    {"m2-max-96gb", "m2-max"},
    {"m2-ultra-192gb", "m2-ultra"},
    {"m3-max-128gb", "m3-max"},
    {"m3-ultra-512gb", "m3-ultra"},
    {"m4-max-128gb", "m4-max"},
    {"apple-m1", "m1-16gb"},
    {"apple-m2", "m2-24gb"},
    {"apple-m3", "m3-24gb"},
    {"apple-m4", "m4-32gb"},
    {"apple-m5", "m5-32gb"},
    {"apple-m1-pro", "m1-pro-32gb"},
    {"apple-m1-max", "m1-max-64gb"},
    {"apple-m1-ultra", "m1-ultra-128gb"},
    {"apple-m2-pro", "m2-pro-32gb"},
    {"apple-m3-pro", "m3-pro-36gb"},
    {"apple-m4-pro", "m4-pro-48gb"},
    {"apple-m5-pro", "m5-pro-64gb"},
    {"apple-m5-max", "m5-max-128gb"},
};

// ASCII-only folding: ids are ASCII, and locale-dependent tolower would make lookup vary by host.
char fold(char c) {
  if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
  if (c == ' ' || c == '_') return '-';
  return c;
}

bool matches(std::string_view query, std::string_view key) { return detail::matches_folded_key(query, key); }

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

const Accelerator* find_by_id(std::string_view query) {
  for (const Accelerator& accelerator : accelerator_catalog()) {
    if (matches(query, accelerator.id)) return &accelerator;
  }
  return nullptr;
}

}  // namespace

namespace detail {
// key is stored folded already; the query is folded on the fly.
bool matches_folded_key(std::string_view query, std::string_view key) {
  if (query.size() != key.size()) return false;
  for (std::size_t i = 0; i < query.size(); ++i) {
    if (fold(query[i]) != key[i]) return false;
  }
  return true;
}
}  // namespace detail

std::span<const Accelerator> accelerator_catalog() {
  // Built once, then read-only for the life of the program (thread-safe static init).
  static const std::vector<Accelerator> catalog = [] {
    std::vector<Accelerator> all;
    for (auto table :
         {detail::nvidia_hbm_accelerators(), detail::nvidia_gddr_accelerators(), detail::amd_accelerators(),
          detail::intel_accelerators(), detail::apple_accelerators(), detail::google_accelerators()}) {
      all.insert(all.end(), table.begin(), table.end());
    }
    return all;
  }();
  return catalog;
}

std::span<const AcceleratorAlias> accelerator_aliases() { return kAliases; }

bool is_nvidia_hbm_part(const Accelerator& accelerator) {
  for (const Accelerator& a : detail::nvidia_hbm_accelerators())
    if (std::string_view(a.id) == accelerator.id) return true;
  return false;
}

const Accelerator* find_accelerator(std::string_view id_or_alias) {
  const std::string_view query = trim(id_or_alias);
  if (query.empty()) return nullptr;
  if (const Accelerator* direct = find_by_id(query)) return direct;
  for (const AcceleratorAlias& alias : kAliases) {
    if (matches(query, alias.alias)) return find_by_id(alias.id);
  }
  return nullptr;
}

std::int64_t memory_budget_bytes(const Accelerator& accelerator, double usable_fraction) {
  return static_cast<std::int64_t>(usable_fraction * static_cast<double>(gpu_memory_limit_bytes(accelerator)));
}

double price_per_gpu_hour_usd(const Accelerator& accelerator, double given_price_usd) {
  return given_price_usd >= 0 ? given_price_usd : accelerator.price_per_hour_usd;
}

double peak_flops_per_second(const Accelerator& accelerator, ComputeDtype dtype) {
  const auto index = static_cast<std::size_t>(dtype);
  if (index >= kComputeDtypeCount) return 0.0;
  return accelerator.dense_flops_per_second[index];
}

double fp16_accumulate_flops_per_second(const Accelerator& accelerator) {
  const double int8 = peak_flops_per_second(accelerator, ComputeDtype::int8);
  if (std::string_view(accelerator.vendor) == "NVIDIA" && int8 > 0) return int8 / 2;
  return peak_flops_per_second(accelerator, ComputeDtype::fp16);
}

GpuGeneration gpu_generation(const Accelerator& gpu) {
  if (peak_flops_per_second(gpu, ComputeDtype::fp4) > 0) return GpuGeneration::blackwell;
  // Ada (L4, L40S, RTX 40) has fp8 tensor cores on GDDR at up to ~1 TB/s; Hopper's HBM starts at 2 TB/s.
  if (peak_flops_per_second(gpu, ComputeDtype::fp8) > 0)
    return gpu.memory_bandwidth_bytes_per_second >= 1.5e12 ? GpuGeneration::hopper : GpuGeneration::ada;
  if (peak_flops_per_second(gpu, ComputeDtype::bf16) > 0) return GpuGeneration::ampere;
  return GpuGeneration::older;
}

const char* gpu_generation_name(GpuGeneration generation) {
  switch (generation) {
    case GpuGeneration::older:
      return "pre-Ampere";
    case GpuGeneration::ampere:
      return "Ampere";
    case GpuGeneration::ada:
      return "Ada";
    case GpuGeneration::hopper:
      return "Hopper";
    case GpuGeneration::blackwell:
      return "Blackwell";
  }
  return "pre-Ampere";
}

std::int64_t gpu_memory_limit_bytes(const Accelerator& accelerator) {
  const std::int64_t working_set = accelerator.gpu_working_set_bytes;
  return working_set > 0 && working_set < accelerator.memory_bytes ? working_set : accelerator.memory_bytes;
}

int nvlink_fabric_gpus(const Accelerator& accelerator) {
  return std::max({1, accelerator.gpus_per_node, accelerator.nvlink_domain_gpus});
}

const char* compute_dtype_name(ComputeDtype dtype) {
  switch (dtype) {
    case ComputeDtype::fp32:
      return "fp32";
    case ComputeDtype::tf32:
      return "tf32";
    case ComputeDtype::bf16:
      return "bf16";
    case ComputeDtype::fp16:
      return "fp16";
    case ComputeDtype::fp8:
      return "fp8";
    case ComputeDtype::fp4:
      return "fp4";
    case ComputeDtype::int8:
      return "int8";
    case ComputeDtype::int4:
      return "int4";
  }
  return "unknown";
}

const char* memory_convention_name(MemoryConvention convention) {
  switch (convention) {
    case MemoryConvention::driver_reported:
      return "driver_reported";
    case MemoryConvention::binary_capacity:
      return "binary_capacity";
    case MemoryConvention::vendor_decimal:
      return "vendor_decimal";
  }
  return "unknown";
}

}  // namespace fitcheck
