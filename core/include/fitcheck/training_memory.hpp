// SPDX-License-Identifier: MIT
// Training memory per GPU: weights, gradients, optimizer states and master weights by precision
// recipe and optimizer; ZeRO / FSDP sharding over the data-parallel group; tensor, pipeline,
// expert, context and sequence parallelism; activations per layer from the model's real shapes;
// communication buffers; LoRA and QLoRA. Sources and conventions: docs/training-memory.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck {

// Activations one layer stores for one micro-batch on one GPU, after tp, sp, cp and recompute.
struct LayerActivations {
  std::int64_t bytes = 0;
  std::vector<MemoryTerm> terms;
};
LayerActivations layer_activations(const ModelDescription& model, const LayerShape& layer,
                                   const TrainingWorkload& workload);

// The figures of one pipeline stage, without terms or assumptions.
struct TrainingMemoryTotals {
  std::int64_t weight_bytes = 0;  // the weights kept on the GPU (frozen base included)
  std::int64_t gradient_bytes = 0;
  std::int64_t optimizer_bytes = 0;      // optimizer states plus master weights (ZeRO §3's K)
  std::int64_t master_weight_bytes = 0;  // the part of optimizer_bytes that is master weights
  std::int64_t activation_bytes = 0;
  std::int64_t communication_bytes = 0;
  std::int64_t overhead_bytes = 0;
  // Gradients allocated during backward as activations are freed: min(gradients, activations)
  // is not alive twice (gradients_overlap_activations); subtracted from the sum.
  std::int64_t backward_overlap_bytes = 0;
  std::int64_t total_bytes_per_gpu = 0;      // allocated_bytes_per_gpu or reserved_bytes_per_gpu (memory_statistic)
  std::int64_t allocated_bytes_per_gpu = 0;  // live tensors at the peak, plus the overhead
  std::int64_t reserved_bytes_per_gpu = 0;   // allocated plus the caching allocator's block rounding
  MemoryStatistic memory_statistic = MemoryStatistic::allocated;
  std::int64_t cpu_offload_bytes = 0;  // host memory per GPU for offloaded states
  std::int64_t busiest_stage = 0;      // pipeline stage whose total is counted
  std::int64_t micro_batches_in_flight = 1;
};

struct TrainingMemory {
  TrainingMemoryTotals totals;  // the figures of the busiest stage

  std::int64_t sharding_degree = 1;  // ranks sharding dense model states
  std::int64_t expert_sharding_degree = 1;
  std::int64_t total_parameters = 0;           // whole model
  std::int64_t trainable_parameters = 0;       // whole model: all, or the LoRA adapters
  double model_state_bytes_per_parameter = 0;  // (weights + gradients + optimizer) / parameters on the GPU

  std::vector<MemoryTerm> terms;                   // each line of the total, formula with numbers
  std::vector<MemoryTerm> layer_activation_terms;  // the heaviest layer kind on that stage
  std::vector<std::string> assumptions;
};

// Every pipeline stage is evaluated on its own tensors (the placement tensors_on_busiest_gpu
// uses) and the largest total is returned. Throws OptionError naming the option for workloads
// that cannot run, std::overflow_error past 2^63 bytes.
TrainingMemory training_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                               const TrainingWorkload& workload);

// Largest micro-batch whose total fits in gpu.memory_bytes; value 0 when 1 does not fit.
CapacityAnswer max_micro_batch_size(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                    const TrainingWorkload& workload, const Accelerator& gpu);

namespace detail {
// The block PyTorch's caching allocator holds for one request of `bytes`.
std::int64_t allocator_block_bytes(std::int64_t bytes);
// Bytes of optimizer state for one tensor (all its copies) when states are `state_bytes` wide.
std::int64_t optimizer_state_bytes(const WeightTensor& tensor, const TrainingWorkload& workload,
                                   std::int64_t state_bytes);

// Where one kind of model state sits on a rank: its bytes before sharding, divided over
// `divided_by` ranks (1: whole on every rank), on the GPU or in CPU memory.
struct StatePlacement {
  std::int64_t bytes = 0;
  std::int64_t divided_by = 1;
  std::int64_t bytes_per_rank = 0;  // ceil(bytes / divided_by)
  bool in_cpu_memory = false;
  std::int64_t gpu_bytes() const { return in_cpu_memory ? 0 : bytes_per_rank; }
  std::int64_t cpu_bytes() const { return in_cpu_memory ? bytes_per_rank : 0; }
};

// Model states of one sharding group (dense tensors, or routed experts) on one GPU.
struct GroupStates {
  std::int64_t params = 0;               // trainable parameters before sharding; 0: no such group
  std::int64_t whole_params = 0;         // ZeRO-3: in tensors under the persistence threshold, kept whole
  std::int64_t gathered_copy_bytes = 0;  // FSDP: the 16-bit copy kept from forward to backward
  std::int64_t fp8_copy_params = 0;      // FP8 GEMM weights with row-wise and transposed FP8 copies
  StatePlacement weights;                // the trainable weights (LoRA: the adapters)
  StatePlacement gradients, master, states;
};

// Model states and communication buffers of the tensors one GPU holds on one pipeline stage:
// figures only; stage_state_terms() and communication_term() write their formulas.
struct StageStates {
  std::int64_t weight_bytes = 0, gradient_bytes = 0, optimizer_bytes = 0, master_bytes = 0;
  std::int64_t communication_bytes = 0, cpu_bytes = 0;
  std::int64_t local_parameters = 0, trainable_local_parameters = 0;
  GroupStates dense, expert;
  std::int64_t fp8_copy_bytes = 0;  // part of weight_bytes
  // LoRA / QLoRA: the frozen base, the adapters on the GPU and the dequantized-weight workspace.
  std::int64_t base_params = 0;
  StatePlacement base;
  std::int64_t adapter_bytes = 0;
  std::int64_t dequantized_params = 0;  // QLoRA: the largest quantized matrix, in bf16 during its matmul
  // What the communication buffers are sized by.
  std::int64_t root_params = 0, largest_layer_params = 0, largest_tensor_params = 0;
  // The largest trainable matrix (optimizer_in_backward: the one gradient alive) and its group.
  std::int64_t largest_trainable_params = 0;
  int largest_trainable_group = 0;            // 0 dense, 1 routed experts
  std::int64_t unsharded_gradient_bytes = 0;  // FSDP: one layer's gradients before reduce-scatter
  std::int64_t allgather_bucket_bytes = 0;    // ZeRO-1/2: after the optimizer step, not in the peak
};
StageStates stage_states(const std::vector<WeightTensor>& local, const TrainingWorkload& workload,
                         std::int64_t dense_degree, std::int64_t expert_degree);
// The formulas of `states` (computed for `workload`): weights, gradients, master weights and
// optimizer states, then the communication buffers.
std::vector<MemoryTerm> stage_state_terms(const StageStates& states, const TrainingWorkload& workload);
MemoryTerm communication_term(const StageStates& states, const TrainingWorkload& workload);

// Activations of one pipeline stage: its layers times the micro-batches in flight, plus the
// embedding (first stage) and the final norm, logits and loss (last stage).
struct StageActivations {
  std::int64_t bytes = 0;
  std::int64_t cpu_offload_bytes = 0;  // activations offloaded to CPU memory (offload_activations), per micro-batch
  std::int64_t allocator_blocks = 0;   // what the caching allocator holds for them (allocator_block_bytes)
  std::int64_t in_flight = 1;
  std::vector<MemoryTerm> terms;
  std::vector<MemoryTerm> heaviest_layer_terms;
};
StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   std::int64_t first_layer, std::int64_t end_layer, std::int64_t stage);
// Layers of each kind on one stage, kinds ascending.
struct StageLayerKind {
  std::size_t kind = 0;
  std::int64_t layers = 0;
};
std::vector<StageLayerKind> stage_layer_kinds(const ModelDescription& model, std::int64_t first_layer,
                                              std::int64_t end_layer);
// The same figures from prepared layer counts; terms only when with_text (else no allocation).
StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   const std::vector<StageLayerKind>& kinds, std::int64_t stage, bool with_text);
}  // namespace detail

// The fast path, for sweeps: prepare once per model and workload (tensor placement, model states
// of every pipeline stage, layers of each kind per stage), then evaluate any micro-batch size and
// sequence length with arithmetic only (no allocation, no strings). training_memory() runs the
// same two steps and adds the formulas, so both give the same figures.
struct PreparedTrainingMemory {
  struct Stage {
    std::int64_t first_layer = 0, end_layer = 0;
    std::vector<detail::StageLayerKind> kinds;
    detail::StageStates states;
  };
  TrainingWorkload workload;                         // with_training_defaults() applied
  std::int64_t dense_degree = 1, expert_degree = 1;  // ranks sharding dense and routed-expert states
  std::vector<Stage> stages;
  std::int64_t total_parameters = 0, trainable_parameters = 0;
  bool has_experts = false;
};
// Throws as training_memory() does for the workload's fixed parts.
// Throws ConfigError when the model has layers whose training memory is not modelled (state-space
// Mamba-2 layers): a clear no, before any layout is tried.
void check_trainable(const ModelDescription& model);

PreparedTrainingMemory prepare_training_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                               const TrainingWorkload& workload);

// The full estimate (training_memory) and the largest micro-batch from a prepared workload.
TrainingMemory training_memory(const ModelDescription& model, const PreparedTrainingMemory& prepared);
CapacityAnswer max_micro_batch_size(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                    const Accelerator& gpu);
// The longest sequence (a multiple of cp tokens) whose peak fits at the workload's micro-batch:
// how much context a fine-tune can train on this GPU, at most the config's max_position_embeddings.
CapacityAnswer max_sequence_tokens(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                   const Accelerator& gpu);

// Throws OptionError naming micro_batch, seq_len or cp for sizes that cannot run,
// std::overflow_error past 2^63 bytes.
TrainingMemoryTotals training_memory_totals(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                            std::int64_t micro_batch_size, std::int64_t sequence_tokens);

}  // namespace fitcheck
