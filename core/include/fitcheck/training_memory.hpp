// SPDX-License-Identifier: MIT
// Training memory per GPU: weights, gradients, optimizer states and master weights by precision
// recipe and optimizer; ZeRO / FSDP sharding over the data-parallel group; tensor, pipeline,
// expert, context and sequence parallelism; activations per layer from the model's real shapes;
// communication buffers; LoRA and QLoRA. Sources and conventions: docs/training-memory.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_time.hpp"

namespace fitcheck {

// Which dtypes hold the weights the kernels read, the gradients and the optimizer's copy.
enum class PrecisionRecipe : std::uint8_t {
  fp32,        // everything fp32
  bf16_mixed,  // bf16 weights and activations, fp32 master weights (Micikevicius et al. 2018 §3.1)
  fp16_mixed,  // as bf16_mixed, with loss scaling (no extra memory)
  fp8,         // Transformer Engine: bf16 weights, FP8 GEMM copies, bf16 activations
};

enum class OptimizerKind : std::uint8_t { adamw, adam_8bit, adafactor, sgd, sgd_momentum, lion, muon };

// PyTorch FSDP ShardingStrategy; off means DeepSpeed ZeRO (zero_stage) or plain data parallel.
enum class FsdpMode : std::uint8_t { off, no_shard, shard_grad_op, full_shard, hybrid_shard };

// Megatron-LM --recompute-granularity (Korthikanti et al. 2022 §5).
enum class Recompute : std::uint8_t { none, selective, full };

struct PrecisionRecipeInfo {
  PrecisionRecipe recipe;
  const char* id;  // "fp32", "bf16-mixed", "fp16-mixed", "fp8"
  std::int64_t weight_bytes_per_parameter;      // the copy forward/backward read
  std::int64_t gradient_bytes_per_parameter;    // before --fp32-gradients
  std::int64_t activation_bytes_per_element;
  const char* source;
};
const PrecisionRecipeInfo& precision_recipe_info(PrecisionRecipe recipe);
std::optional<PrecisionRecipe> find_precision_recipe(std::string_view id);

struct OptimizerInfo {
  OptimizerKind kind;
  const char* id;                // "adamw", "adam8bit", "adafactor", "sgd", "sgd-momentum", "lion", "muon"
  const char* bytes_per_parameter;  // what one parameter costs, as text (see optimizer_state_bytes)
  const char* source;
};
const OptimizerInfo& optimizer_info(OptimizerKind kind);
std::optional<OptimizerKind> find_optimizer(std::string_view id);

const char* fsdp_mode_name(FsdpMode mode);  // "off", "no_shard", "shard_grad_op", "full_shard", "hybrid_shard"
std::optional<FsdpMode> find_fsdp_mode(std::string_view id);  // case-insensitive, '-' or '_'
const char* recompute_name(Recompute recompute);
std::optional<Recompute> find_recompute(std::string_view id);

// LoRA (Hu et al. 2021): each adapted matrix W (rows x columns) gains A (rank x columns) and
// B (rows x rank), trained in fp32 (PEFT's default autocast_adapter_dtype) while W stays frozen.
struct LoraSettings {
  std::int64_t rank = 0;  // 0: full training
  std::vector<TensorRole> target_roles;  // empty with rank > 0: every linear layer of the blocks
  bool qlora = false;  // frozen base in NF4 with double quantization (Dettmers et al. 2023), compute in bf16
  bool dropout = false;  // PEFT lora_dropout > 0 (its default is 0)
};
// "q,k,v,o,gate,up,down" (also "all-linear", MLA "q_down,kv_down,kv_up") to roles; gate/up/down
// include routed and shared experts. Throws std::invalid_argument naming an unknown module.
std::vector<TensorRole> lora_target_roles(std::string_view comma_separated);

struct TrainingMemoryWorkload {
  PrecisionRecipe precision = PrecisionRecipe::bf16_mixed;
  bool fp32_master_weights = true;  // false: the optimizer steps the 16-bit weights themselves
  bool fp32_gradients = false;      // Megatron --accumulate-allreduce-grads-in-fp32 style main_grad
  OptimizerKind optimizer = OptimizerKind::adamw;
  bool adafactor_first_moment = false;  // beta1 set: Adafactor keeps a full first moment too

  // tp, pp, ep and dp (the data-parallel degree); gpus = tp x pp x cp x dp.
  ParallelLayout layout{};
  std::int64_t context_parallel = 1;
  bool sequence_parallel = false;          // Korthikanti et al. 2022 §4.2.2
  std::int64_t virtual_pipeline_stages = 1;  // interleaved 1F1B model chunks per GPU
  std::int64_t micro_batches_per_step = 0;   // gradient accumulation steps; 0: at least pp

  int zero_stage = 0;  // DeepSpeed ZeRO 0..3 (1 also covers Megatron's distributed optimizer)
  FsdpMode fsdp = FsdpMode::off;
  std::int64_t fsdp_shard_group = 8;  // HYBRID_SHARD: ranks that shard (one 8-GPU node by default)
  bool offload_optimizer = false;     // ZeRO-Offload (Ren et al. 2021)
  bool offload_params = false;        // ZeRO-Infinity offload_param / FSDP CPUOffload
  // DeepSpeed defaults, deepspeedai/DeepSpeed@1b88ac36:deepspeed/runtime/zero/config.py.
  std::int64_t reduce_bucket_elements = 500'000'000;
  std::int64_t allgather_bucket_elements = 500'000'000;
  std::int64_t zero3_prefetch_bucket_elements = 50'000'000;
  std::int64_t zero3_param_persistence_threshold = 100'000;

  std::int64_t micro_batch_size = 1;
  std::int64_t sequence_tokens = 4096;
  Recompute recompute = Recompute::none;
  bool flash_attention = true;  // false: eager attention keeps heads x s x s softmax terms
  bool dropout = false;         // attention/hidden dropout masks (off in Llama-style configs)

  LoraSettings lora;
  std::int64_t framework_overhead_bytes = InferenceWorkload{}.framework_overhead_bytes;

  std::int64_t gpus() const {
    return layout.tensor_parallel * layout.pipeline_parallel * context_parallel * layout.data_parallel;
  }
};

// Activations one layer stores for one micro-batch on one GPU, after tp, sp, cp and recompute.
struct LayerActivations {
  std::int64_t bytes = 0;
  std::vector<MemoryTerm> terms;
};
LayerActivations layer_activations(const ModelDescription& model, const LayerShape& layer,
                                   const TrainingMemoryWorkload& workload);

struct TrainingMemory {
  std::int64_t weight_bytes = 0;         // the weights kept on the GPU (frozen base included)
  std::int64_t gradient_bytes = 0;
  std::int64_t optimizer_bytes = 0;      // optimizer states plus master weights (ZeRO §3's K)
  std::int64_t master_weight_bytes = 0;  // the part of optimizer_bytes that is master weights
  std::int64_t activation_bytes = 0;
  std::int64_t communication_bytes = 0;
  std::int64_t overhead_bytes = 0;
  std::int64_t total_bytes_per_gpu = 0;
  std::int64_t cpu_offload_bytes = 0;    // host memory per GPU for offloaded states

  std::int64_t busiest_stage = 0;        // pipeline stage whose total is counted
  std::int64_t sharding_degree = 1;      // ranks sharding dense model states
  std::int64_t expert_sharding_degree = 1;
  std::int64_t micro_batches_in_flight = 1;
  std::int64_t total_parameters = 0;       // whole model
  std::int64_t trainable_parameters = 0;   // whole model: all, or the LoRA adapters
  double model_state_bytes_per_parameter = 0;  // (weights + gradients + optimizer) / parameters on the GPU

  std::vector<MemoryTerm> terms;              // each line of the total, formula with numbers
  std::vector<MemoryTerm> layer_activation_terms;  // the heaviest layer kind on that stage
  std::vector<std::string> assumptions;
};

// Every pipeline stage is evaluated on its own tensors (the placement tensors_on_busiest_gpu
// uses) and the largest total is returned. Throws OptionError naming the option for workloads
// that cannot run, std::overflow_error past 2^63 bytes.
TrainingMemory training_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                               const TrainingMemoryWorkload& workload);

// Largest micro-batch whose total fits in gpu.memory_bytes; value 0 when 1 does not fit.
CapacityAnswer max_micro_batch_size(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                    const TrainingMemoryWorkload& workload, const Accelerator& gpu);

struct TrainingRequest {
  TrainingMemoryWorkload workload;
  const Accelerator* gpu = nullptr;
  std::shared_ptr<const Accelerator> custom_gpu;  // owns *gpu when gpu=custom
  // Step time (with a GPU): tokens per optimizer step (0: dp x micro-batch x sequence x the
  // micro-batches per step), tokens to train, the training FLOP efficiency, DP overlap, price.
  std::int64_t global_batch_tokens = 0;
  double train_tokens = 1e12;
  double flops_efficiency = -1;  // < 0: TrainingAssumptions' default
  bool overlap_data_parallel = true;
  double price_per_gpu_hour_usd = -1;  // < 0: the GPU's catalog default
};
// Keys (the CLI's flags with '_' for '-'): gpu, gpus, tp, pp, dp, ep, cp, sequence_parallel,
// virtual_stages, micro_batches, zero, fsdp, fsdp_shard_group, offload_optimizer, offload_params,
// reduce_bucket, allgather_bucket, precision, master_weights, fp32_gradients, optimizer,
// adafactor_first_moment, micro_batch, seq_len, recompute, eager_attention, dropout, lora_rank,
// lora_modules, qlora, lora_dropout, overhead_gib; for step time global_batch_tokens, train_tokens,
// flops_efficiency, overlap, price_per_gpu_hour. Throws OptionError.
TrainingRequest parse_training_options(const OptionList& options);

// The request's memory workload seen from the clock's side (FSDP modes as their ZeRO stage, the
// precision recipe as its matrix dtype), for estimate_training_time. global_batch_tokens is left
// to the caller: the report defaults it, the planner fixes it.
TrainingWorkload step_time_workload(const TrainingRequest& request);

// Keys include weight_bytes, gradient_bytes, optimizer_bytes, activation_bytes,
// communication_bytes, overhead_bytes, total_bytes_per_gpu, max_micro_batch_size (null without
// a GPU), assumptions and terms (name, bytes, formula).
std::string training_report_json(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const TrainingMemoryWorkload& workload, const Accelerator* gpu);
std::string training_report_json(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const TrainingRequest& request);
std::string training_report_json(std::string_view config_json_text, const OptionList& options);

namespace detail {
// Bytes of optimizer state for one tensor (all its copies) when states are `state_bytes` wide.
std::int64_t optimizer_state_bytes(const WeightTensor& tensor, const TrainingMemoryWorkload& workload,
                                   std::int64_t state_bytes);

// Model states of the tensors one GPU holds on one pipeline stage.
struct StageStates {
  std::int64_t weight_bytes = 0, gradient_bytes = 0, optimizer_bytes = 0, master_bytes = 0;
  std::int64_t communication_bytes = 0, cpu_bytes = 0;
  std::int64_t local_parameters = 0, trainable_local_parameters = 0;
  std::vector<MemoryTerm> terms;  // weights, gradients, master weights, optimizer states
  MemoryTerm communication;
};
StageStates stage_states(const std::vector<WeightTensor>& local, const TrainingMemoryWorkload& workload,
                         std::int64_t dense_degree, std::int64_t expert_degree);

// Activations of one pipeline stage: its layers times the micro-batches in flight, plus the
// embedding (first stage) and the final norm, logits and loss (last stage).
struct StageActivations {
  std::int64_t bytes = 0;
  std::int64_t in_flight = 1;
  std::vector<MemoryTerm> terms;
  std::vector<MemoryTerm> heaviest_layer_terms;
};
StageActivations stage_activations(const ModelDescription& model, const TrainingMemoryWorkload& workload,
                                   std::int64_t first_layer, std::int64_t end_layer, std::int64_t stage);
// Layers of each kind on one stage, kinds ascending.
struct StageLayerKind {
  std::size_t kind = 0;
  std::int64_t layers = 0;
};
std::vector<StageLayerKind> stage_layer_kinds(const ModelDescription& model, std::int64_t first_layer, std::int64_t end_layer);
// The same figures from prepared layer counts; terms only when with_text (else no allocation).
StageActivations stage_activations(const ModelDescription& model, const TrainingMemoryWorkload& workload,
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
  TrainingMemoryWorkload workload;  // with defaults filled in (LoRA target modules)
  std::int64_t dense_degree = 1, expert_degree = 1;  // ranks sharding dense and routed-expert states
  std::vector<Stage> stages;
  std::int64_t total_parameters = 0, trainable_parameters = 0;
  bool has_experts = false;
};
// Throws as training_memory() does for the workload's fixed parts.
PreparedTrainingMemory prepare_training_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                               const TrainingMemoryWorkload& workload);

// TrainingMemory's figures without terms or assumptions.
struct TrainingMemoryTotals {
  std::int64_t weight_bytes = 0, gradient_bytes = 0, optimizer_bytes = 0, master_weight_bytes = 0;
  std::int64_t activation_bytes = 0, communication_bytes = 0, overhead_bytes = 0, total_bytes_per_gpu = 0;
  std::int64_t cpu_offload_bytes = 0;
  std::int64_t busiest_stage = 0;
  std::int64_t micro_batches_in_flight = 1;
};
// Throws OptionError naming micro_batch, seq_len or cp for sizes that cannot run,
// std::overflow_error past 2^63 bytes.
TrainingMemoryTotals training_memory_totals(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                            std::int64_t micro_batch_size, std::int64_t sequence_tokens);

}  // namespace fitcheck
