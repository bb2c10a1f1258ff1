// SPDX-License-Identifier: MIT
// Which llama.cpp backend runs on an accelerator, apart from the estimator: the serving engine
// profiles (engine_profile.cpp) ask it too, and the first-view module links them without the
// local estimate.
#include <string>
#include <string_view>

#include "fitcheck/local.hpp"

namespace fitcheck {

std::optional<LocalBackend> default_local_backend(const Accelerator& gpu) {
  const std::string vendor = gpu.vendor;
  // ggml's backends (ggml/src: ggml-cuda, ggml-metal, ggml-vulkan, ggml-hip, ggml-sycl, ggml-cpu and others)
  // include none for a TPU or for Gaudi's HPUs; SYCL runs on Intel's GPUs.
  if (vendor == "Google" || std::string_view(gpu.id).starts_with("gaudi")) return std::nullopt;
  if (vendor == "Apple") return LocalBackend::metal;
  if (vendor == "AMD") return LocalBackend::rocm;
  if (vendor == "Intel") return LocalBackend::sycl;
  return LocalBackend::cuda;
}

const char* llama_cpp_devices_text() { return "NVIDIA, AMD, Intel Arc and Apple GPUs, and on the CPU"; }

bool local_backend_runs_on(LocalBackend backend, const Accelerator& gpu) {
  const std::string_view vendor = gpu.vendor;
  if (vendor == "user-defined") return true;
  if (!default_local_backend(gpu)) return false;
  // ggml/src/ggml-cuda (NVIDIA), ggml-metal (Apple), ggml-hip (AMD through ROCm), ggml-sycl (docs/backend/
  // SYCL.md: Intel GPUs, and NVIDIA and AMD GPUs through oneAPI's plugins), ggml-vulkan (any Vulkan GPU,
  // Apple's through MoltenVK).
  switch (backend) {
    case LocalBackend::cuda:
      return vendor == "NVIDIA";
    case LocalBackend::metal:
      return vendor == "Apple";
    case LocalBackend::rocm:
      return vendor == "AMD";
    case LocalBackend::sycl:
      return vendor == "Intel" || vendor == "NVIDIA" || vendor == "AMD";
    case LocalBackend::vulkan:
    case LocalBackend::cpu:
      return true;
  }
  return false;
}

}  // namespace fitcheck
