// SPDX-License-Identifier: MIT
// The custom accelerator keys (gpu=custom) and the GPU-name lookup every request parser shares.
#include <cmath>
#include <cstdio>
#include <string>

#include "config/config_fields.hpp"
#include "fitcheck/options.hpp"

namespace fitcheck {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr std::size_t kMaxNameBytes = 64;
// Upper bounds: about ten times the largest figure in the catalog (docs/hardware.md, "A custom
// accelerator"), so a typo of a few zeros is refused rather than planned with.
constexpr double kMaxMemoryGib = 16384;      // 16 TiB
constexpr double kMaxBandwidthGbPerS = 1e5;  // 100 TB/s
constexpr double kMaxTflops = 1e5;
constexpr double kMaxPricePerHour = 1e6;  // as price_per_gpu_hour
// Lower bound of a rate that is not 0 ("no such path"): 1 GFLOP/s (1 GOP/s), 1 MB/s for a link. Every
// figure divides work by a rate; a denormal rate (5e-324) made the times infinite. With these bounds
// the largest work the options allow stays many orders of magnitude below a double's range.
constexpr double kMinTflops = 1e-3;
constexpr double kMinInterconnectGbPerS = 1e-3;

// A rate read with `figure`: 0 (the path or link is absent) unless `required`, else at least `minimum`.
double rate_figure(OptionReader& reader, const char* key, const Accelerator* base, double base_value, double unit,
                   double minimum, double maximum, bool required);

// Reads `key` in spec-sheet units and returns base units. Not given: the base entry's figure
// untouched (no unit round trip), else an error when `required`, else 0 (no such path / no link).
double figure(OptionReader& reader, const char* key, const Accelerator* base, double base_value, double unit,
              double minimum, double maximum, bool required) {
  if (!reader.text(key)) {
    if (base) return base_value;
    if (required)
      throw OptionError(key, std::string("option '") + key + "' is needed for gpu=custom without custom_gpu_base");
    return 0.0;
  }
  return reader.number(key, 0.0, minimum, maximum) * unit;
}

double rate_figure(OptionReader& reader, const char* key, const Accelerator* base, double base_value, double unit,
                   double minimum, double maximum, bool required) {
  const double value = figure(reader, key, base, base_value, unit, 0.0, maximum, required);
  if (!reader.text(key) || (value == 0.0 && !required) || value >= minimum * unit) return value;
  char range[96];
  std::snprintf(range, sizeof range, "%s%g", required ? "at least " : "0 (none) or at least ", minimum);
  throw OptionError(
      key, std::string("option '") + key + "' must be " + range + ", got " + detail::printable(*reader.text(key)));
}

std::string checked_name(const std::string& name) {
  if (name.empty() || name.find_first_not_of(" \t") == std::string::npos)
    throw OptionError("custom_gpu_name", "option 'custom_gpu_name' must not be empty");
  if (name.size() > kMaxNameBytes || detail::printable(name, kMaxNameBytes) != name)
    throw OptionError("custom_gpu_name", "option 'custom_gpu_name' must be at most " + std::to_string(kMaxNameBytes) +
                                             " bytes of printable UTF-8, got '" + detail::printable(name) + "'");
  return name;
}

}  // namespace

bool is_custom_gpu_name(std::string_view name) {
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  return name == kCustomAcceleratorId;
}

const Accelerator* resolve_gpu_option(const char* key, std::string_view name,
                                      const std::shared_ptr<const Accelerator>& custom) {
  if (is_custom_gpu_name(name)) {
    if (!custom)
      throw OptionError(key, std::string("option '") + key + "': a custom GPU needs its custom_gpu_* figures");
    return custom.get();
  }
  const Accelerator* found = find_accelerator(name);
  if (!found)
    throw OptionError(key, std::string("option '") + key + "': unknown GPU '" + detail::printable(name) +
                               "' (see 'fitcheck gpus' for the list, or custom with the custom_gpu_* options)");
  return found;
}

std::shared_ptr<const Accelerator> read_custom_gpu_options(OptionReader& reader, bool wanted) {
  if (!wanted) {
    for (const char* key : kCustomGpuKeys)
      if (reader.text(key))
        throw OptionError(
            key, std::string("option '") + key + "' describes a custom GPU: choose gpu=custom (plan: custom in gpus)");
    return nullptr;
  }
  const Accelerator* base = nullptr;
  if (auto id = reader.text("custom_gpu_base")) {
    if (is_custom_gpu_name(*id))
      throw OptionError("custom_gpu_base", "option 'custom_gpu_base' must be a catalog GPU, not custom");
    base = find_accelerator(*id);
    if (!base)
      throw OptionError("custom_gpu_base", "option 'custom_gpu_base': unknown GPU '" + detail::printable(*id) +
                                               "' (see 'fitcheck gpus' for the list)");
  }
  Accelerator figures = base ? *base : Accelerator{};
  if (!base) figures.gpus_per_node = 1;  // no link given: a single-GPU node
  const auto given = [&](const char* key) { return reader.text(key).has_value(); };
  if (given("custom_gpu_memory_gib")) figures.memory_convention = MemoryConvention::binary_capacity;
  const double memory_gib_bytes = figure(reader, "custom_gpu_memory_gib", base,
                                         static_cast<double>(figures.memory_bytes), kGiB, 0.01, kMaxMemoryGib, true);
  figures.memory_bytes = std::llround(memory_gib_bytes);
  // An Apple base keeps macOS's cap, taken of the memory given (hardware.hpp).
  if (figures.gpu_working_set_bytes > 0)
    figures.gpu_working_set_bytes = macos_default_gpu_working_set_bytes(figures.memory_bytes);
  figures.memory_bandwidth_bytes_per_second =
      figure(reader, "custom_gpu_bandwidth_gb_per_s", base, figures.memory_bandwidth_bytes_per_second, 1e9, 1.0,
             kMaxBandwidthGbPerS, true);
  auto& peaks = figures.dense_flops_per_second;
  const auto rate = [&](const char* key, ComputeDtype dtype, bool required) {
    double& peak = peaks[static_cast<std::size_t>(dtype)];
    peak = rate_figure(reader, key, base, peak, 1e12, kMinTflops, kMaxTflops, required);
  };
  rate("custom_gpu_bf16_tflops", ComputeDtype::bf16, true);
  rate("custom_gpu_fp16_tflops", ComputeDtype::fp16, false);
  rate("custom_gpu_fp8_tflops", ComputeDtype::fp8, false);
  rate("custom_gpu_int8_tops", ComputeDtype::int8, false);
  rate("custom_gpu_fp32_tflops", ComputeDtype::fp32, false);
  figures.interconnect_bytes_per_second_per_direction =
      rate_figure(reader, "custom_gpu_interconnect_gb_per_s", base, figures.interconnect_bytes_per_second_per_direction,
                  1e9, kMinInterconnectGbPerS, kMaxBandwidthGbPerS, false);
  figures.gpus_per_node = static_cast<int>(reader.count("custom_gpu_gpus_per_node", figures.gpus_per_node, 1, 4096));
  figures.price_per_hour_usd =
      reader.number("custom_gpu_price_per_hour", base ? base->price_per_hour_usd : 0.0, 0.0, kMaxPricePerHour);
  std::string name = base ? std::string(base->name) + " (custom)" : "Custom GPU";
  if (auto text = reader.text("custom_gpu_name")) name = checked_name(*text);
  // The link's kind sets the NCCL hop latency (latency_rates.cpp): the base's, else a direct link.
  std::string interconnect = base ? base->interconnect : "user-defined link";
  return make_custom_accelerator(figures, std::move(name), std::move(interconnect), base);
}

}  // namespace fitcheck
