// SPDX-License-Identifier: MIT
// The complete training estimate: memory, the verdict against the GPU, the largest micro-batch and
// the step time, each computed once here so that the JSON report and the CLI only write them.
#include "fitcheck/training_estimate.hpp"

namespace fitcheck {

TrainingEstimate estimate_training(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                   const TrainingRequest& request) {
  TrainingEstimate e;
  e.model_type = model.model_type;
  const PreparedTrainingMemory prepared = prepare_training_memory(model, tensors, request.workload);
  e.workload = prepared.workload;
  e.memory = training_memory(model, prepared);
  e.gpu = request.gpu;
  e.custom_gpu = request.custom_gpu;
  e.assumptions = model.assumptions;
  e.assumptions.insert(e.assumptions.end(), e.memory.assumptions.begin(), e.memory.assumptions.end());
  if (request.recompute_from_peft_default)
    e.assumptions.push_back(
        "recompute: gradient-checkpointing (whole layers), as PEFT's prepare_model_for_kbit_training turns it on for "
        "every QLoRA run (use_gradient_checkpointing=True); give recompute none to train without it");
  if (!request.gpu) {
    e.assumptions.push_back("no GPU chosen: the largest micro-batch needs one (gpu)");
    return e;
  }
  const Accelerator& gpu = *request.gpu;
  TrainingFit& fit = e.fit.emplace();
  fit.budget_bytes = gpu_memory_limit_bytes(gpu);  // the whole device; the macOS working set on Apple silicon
  fit.fits = e.memory.totals.total_bytes_per_gpu <= fit.budget_bytes;
  fit.headroom_bytes = fit.budget_bytes - e.memory.totals.total_bytes_per_gpu;
  fit.max_micro_batch = max_micro_batch_size(model, prepared, gpu);
  fit.max_sequence_tokens = max_sequence_tokens(model, prepared, gpu);

  // A GPU without a rate for this precision (a T4 or V100 and bf16) still gets its memory figures;
  // the step time is left out with a note naming the option, never timed at another dtype's rate.
  e.missing_rate = training_time_missing_rate(gpu, training_compute_dtype(e.workload.precision));
  if (!e.missing_rate.empty()) {
    e.assumptions.push_back(e.missing_rate);
    return e;
  }
  e.workload.global_batch_tokens = global_batch_tokens_or_default(e.workload);
  const TrainingAssumptions assumptions = training_assumptions(request, gpu);
  TrainingStepTime& time = e.time.emplace();
  time.explained = explain_training_time(prepare_latency_model(model, tensors, WeightFormat::bf16), e.workload, gpu,
                                         request.train_tokens, assumptions);
  time.flops_efficiency = time.explained.time.flops_efficiency;
  return e;
}

}  // namespace fitcheck
