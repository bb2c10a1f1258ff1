// SPDX-License-Identifier: MIT
// The headline of a local placement: where its layers are, which device a generated token waits on
// most, and the device furthest over its limit. It reads the placement and the speed; it models nothing.
#include <cstddef>

#include "fitcheck/local.hpp"

namespace fitcheck {

const char* local_runs_on_name(LocalRunsOn runs_on) {
  switch (runs_on) {
    case LocalRunsOn::gpus:
      return "gpus";
    case LocalRunsOn::gpus_and_ram:
      return "gpus_and_ram";
    case LocalRunsOn::cpu:
      return "cpu";
    case LocalRunsOn::does_not_fit:
      return "does_not_fit";
  }
  return "gpus";
}

LocalVerdict local_verdict(const LocalPlacement& placement, const LocalSpeed& speed) {
  LocalVerdict verdict;
  for (int device : placement.layer_device) (device >= 0 ? verdict.layers_on_gpus : verdict.layers_in_ram) += 1;
  verdict.output_in_ram = placement.output_device < 0;
  verdict.expert_layers_in_ram = placement.n_cpu_moe;
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    const LocalDeviceUse& use = placement.devices[d];
    const std::int64_t over = use.limit_bytes > 0 ? use.total_bytes() - use.limit_bytes : 0;
    if (over > verdict.shortfall_bytes) {
      verdict.shortfall_bytes = over;
      verdict.short_device = static_cast<int>(d);
    }
  }
  for (std::size_t d = 0; d < speed.generation_time_share.size(); ++d)
    if (verdict.generation_bound_device < 0 || speed.generation_time_share[d] > verdict.generation_bound_share) {
      verdict.generation_bound_device = static_cast<int>(d);
      verdict.generation_bound_share = speed.generation_time_share[d];
    }
  // The token embedding stays in RAM whatever -ngl says (llama.cpp keeps the input layer on the CPU), so only
  // repeating layers, the output layer and routed experts count as the model's work left to the CPU.
  if (!placement.fits)
    verdict.runs_on = LocalRunsOn::does_not_fit;
  else if (verdict.layers_on_gpus == 0 && verdict.output_in_ram)
    verdict.runs_on = LocalRunsOn::cpu;
  else if (verdict.layers_in_ram > 0 || verdict.output_in_ram || verdict.expert_layers_in_ram > 0)
    verdict.runs_on = LocalRunsOn::gpus_and_ram;
  else
    verdict.runs_on = LocalRunsOn::gpus;
  return verdict;
}

}  // namespace fitcheck
