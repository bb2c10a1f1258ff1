// SPDX-License-Identifier: MIT
// The complete training estimate of one request: memory per GPU with its formulas, the verdict
// against the chosen GPU, the largest micro-batch that fits, and the step time, MFU and time to
// train when the GPU publishes the rates. Computed here once; the report and the CLI only write it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_request.hpp"
#include "fitcheck/training_time.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck {

// The memory against one GPU's memory.
struct TrainingFit {
  std::int64_t budget_bytes = 0;       // the GPU's memory
  bool fits = false;                   // total_bytes_per_gpu <= budget_bytes
  std::int64_t headroom_bytes = 0;     // budget - total; negative when it does not fit
  CapacityAnswer max_micro_batch;      // largest micro-batch that fits (value 0 when 1 does not)
  CapacityAnswer max_sequence_tokens;  // longest sequence at the micro-batch (value 0 when cp tokens do not fit)
};

// The step time with the inputs it was computed from.
struct TrainingStepTime {
  TrainingExplanation explained;  // figures, formulas and the clock's assumptions
  double flops_efficiency = 0;    // applied: the request's, or TrainingAssumptions' default
};

struct TrainingEstimate {
  std::string model_type;
  // As estimated: LoRA target modules filled in when the request left them out, and with a step
  // time the global batch it used (global_batch_tokens_or_default).
  TrainingWorkload workload;
  TrainingMemory memory;
  const Accelerator* gpu = nullptr;               // none: no verdict, no step time
  std::shared_ptr<const Accelerator> custom_gpu;  // owns *gpu when gpu=custom
  std::optional<TrainingFit> fit;                 // with a GPU
  // With a GPU that publishes no rate for the precision: why there is no step time (names option
  // 'precision'); empty otherwise.
  std::string missing_rate;
  std::optional<TrainingStepTime> time;  // with a GPU that publishes the rates
  // The model's, the memory's, then the notes on what is missing (no GPU; no rate).
  std::vector<std::string> assumptions;
};

// Throws OptionError naming the option for workloads that cannot run (the memory's refusals first,
// then the step time's), std::overflow_error past 2^63 bytes.
TrainingEstimate estimate_training(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                   const TrainingRequest& request);

}  // namespace fitcheck
