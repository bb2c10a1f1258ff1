// SPDX-License-Identifier: MIT
// One training workload, read by the training memory, the step time, the training planner and the
// report: precision recipe and optimizer, parallel layout, sharding, micro-batch and sequence,
// recomputation, LoRA, and the optimizer step's global batch. Its rules live in one validator.
// Sources and conventions: docs/training-memory.md and docs/latency.md ("Training time").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/expert_dispatch.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_framework.hpp"

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

// Activation recomputation, by the frameworks' own names. none, selective and full are Megatron-LM's
// --recompute-granularity (Korthikanti et al. 2022 §5); full is also torchtitan's mode 'full',
// DeepSpeed's checkpoint_activations and Hugging Face's gradient checkpointing (whole layers).
enum class Recompute : std::uint8_t {
  none,
  selective,        // Megatron core_attn: q.k^T, softmax, p.v (never stored with flash attention)
  full,             // whole layers: only each checkpointed layer's input is kept
  selective_op,     // torchtitan selective_ac_option 'op': keep every other matmul's output and SDPA's
  selective_layer,  // torchtitan selective_ac_option N: full recompute on every N-th layer
};

// Megatron-LM's --recompute-modules under --recompute-granularity selective (NVIDIA/Megatron-LM d98e8a64
// megatron/core/transformer/transformer_config.py recompute_modules, default ["core_attn"]): the
// submodules whose forward runs again in backward. moe_act, layernorm and mla_up_proj discard their
// outputs (CheckpointWithoutOutput); core_attn, mlp, moe and shared_experts checkpoint the module,
// keeping its input.
struct RecomputeModules {
  bool core_attn = true;        // the attention core (nothing with flash attention: it keeps no scores)
  bool moe_act = false;         // the routed experts' activation (TEGroupedMLP)
  bool layernorm = false;       // the norms that are modules of their own (not fused into a linear)
  bool mla_up_proj = false;     // MLA's q/kv up-projections and RoPE
  bool mlp = false;             // a dense layer's MLP
  bool moe = false;             // a MoE layer: router, dispatch, experts, combine
  bool shared_experts = false;  // a MoE layer's shared experts
  // Anything beyond the default attention core.
  bool beyond_core_attention() const { return moe_act || layernorm || mla_up_proj || mlp || moe || shared_experts; }
};
// The names in Megatron's order ("core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe",
// "shared_experts"); parse_recompute_modules reads them comma- or space-separated and throws
// std::invalid_argument naming an unknown one.
std::vector<std::string> recompute_module_names(const RecomputeModules& modules);
std::string recompute_module_list(const RecomputeModules& modules);  // "core_attn, moe_act"
RecomputeModules parse_recompute_modules(std::string_view names);

// Megatron-LM --recompute-method with --recompute-num-layers (transformer_config.py l.543-555).
enum class RecomputeMethod : std::uint8_t {
  uniform,  // layers in groups of num_layers; each group keeps its input and is recomputed whole
  block,    // the first num_layers layers of each pipeline stage recompute, the others keep all
};

struct PrecisionRecipeInfo {
  PrecisionRecipe recipe;
  const char* id;                             // "fp32", "bf16-mixed", "fp16-mixed", "fp8"
  std::int64_t weight_bytes_per_parameter;    // the copy forward/backward read
  std::int64_t gradient_bytes_per_parameter;  // before --fp32-gradients
  std::int64_t activation_bytes_per_element;
  const char* source;
};
const PrecisionRecipeInfo& precision_recipe_info(PrecisionRecipe recipe);
std::optional<PrecisionRecipe> find_precision_recipe(std::string_view id);

struct OptimizerInfo {
  OptimizerKind kind;
  const char* id;                   // "adamw", "adam8bit", "adafactor", "sgd", "sgd-momentum", "lion", "muon"
  const char* bytes_per_parameter;  // what one parameter costs, as text (see optimizer_state_bytes)
  const char* source;
};
const OptimizerInfo& optimizer_info(OptimizerKind kind);
std::optional<OptimizerKind> find_optimizer(std::string_view id);

const char* fsdp_mode_name(FsdpMode mode);  // "off", "no_shard", "shard_grad_op", "full_shard", "hybrid_shard"
std::optional<FsdpMode> find_fsdp_mode(std::string_view id);  // case-insensitive, '-' or '_'
// "none", "selective", "full", "selective-op", "selective-layer"; find_recompute also reads
// "gradient-checkpointing" (Hugging Face) as full.
const char* recompute_name(Recompute recompute);
std::optional<Recompute> find_recompute(std::string_view id);

// LoRA (Hu et al. 2021): each adapted matrix W (rows x columns) gains A (rank x columns) and
// B (rows x rank), trained in fp32 (PEFT's default autocast_adapter_dtype) while W stays frozen.
struct LoraSettings {
  std::int64_t rank = 0;                 // 0: full training
  std::vector<TensorRole> target_roles;  // empty with rank > 0: every linear layer of the blocks
  bool qlora = false;    // frozen base in NF4 with double quantization (Dettmers et al. 2023), compute in bf16
  bool dropout = false;  // PEFT lora_dropout > 0 (its default is 0)
  // DoRA (Liu et al. 2024, arXiv 2402.09353; PEFT use_dora): each adapted matrix also trains a
  // magnitude vector of its output width and scales the base and adapter outputs by it.
  bool dora = false;
};
// Trainable parameters LoRA adds for one adapted matrix: A and B, and DoRA's magnitude vector.
std::int64_t lora_trainable_parameters(const WeightTensor& adapted, const LoraSettings& lora);
// "q,k,v,o,gate,up,down" (also "all-linear", MLA "q_down,kv_down,kv_up") to roles; gate/up/down
// include routed and shared experts. Throws std::invalid_argument naming an unknown module.
std::vector<TensorRole> lora_target_roles(std::string_view comma_separated);

struct TrainingWorkload {
  TrainingFramework framework = kDefaultTrainingFramework;
  // The statistic total_bytes_per_gpu is; none: the one the framework prints.
  std::optional<MemoryStatistic> memory_statistic;
  PrecisionRecipe precision = PrecisionRecipe::bf16_mixed;
  bool fp32_master_weights = true;  // false: the optimizer steps the 16-bit weights themselves
  bool fp32_gradients = false;      // Megatron --accumulate-allreduce-grads-in-fp32 style main_grad
  OptimizerKind optimizer = OptimizerKind::adamw;
  bool adafactor_first_moment = false;  // beta1 set: Adafactor keeps a full first moment too

  // tp, pp, ep and dp (the data-parallel degree); gpus = tp x pp x cp x dp. Experts are carved
  // from the tp x dp x cp ranks (Megatron-Core MoE parallel folding).
  ParallelLayout layout{};
  std::int64_t context_parallel = 1;  // sequence split over cp ranks (ring attention)
  bool sequence_parallel = false;     // Korthikanti et al. 2022 §4.2.2
  // Megatron-Core's tp_comm_overlap (Transformer Engine userbuffers, needs sequence parallelism):
  // each layer's all-gathers and reduce-scatters run under its GEMMs.
  bool tp_comm_overlap = false;
  // Megatron-Core's overlap_moe_expert_parallel_comm: the expert-parallel all-to-alls of one
  // micro-batch run under another micro-batch's computation (the 1F1B phase).
  bool ep_comm_overlap = false;
  MoeDispatcher moe_dispatcher = MoeDispatcher::all_to_all;
  MoeRouting moe_routing = MoeRouting::random;
  std::int64_t virtual_pipeline_stages = 1;  // interleaved 1F1B model chunks per GPU; 1: plain 1F1B
  // Megatron-Core's account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split: the
  // embedding (the output layer and loss) takes one layer's slot of the split, so the first (last)
  // stage runs one transformer layer fewer (NVIDIA/Megatron-LM@dc137710
  // megatron/core/transformer/transformer_layer.py get_transformer_layer_offset). The Llama 3 paper's
  // schedule does both (Llama Team 2024 §3.3.2: 126 layers on 16 stages of 8 slots).
  bool pipeline_split_embedding_slot = false;
  bool pipeline_split_loss_slot = false;
  // Layer slots the pipeline split divides: the layers plus the embedding's and the loss's slots.
  std::int64_t pipeline_split_slots(std::int64_t layers) const {
    return layers + (pipeline_split_embedding_slot ? 1 : 0) + (pipeline_split_loss_slot ? 1 : 0);
  }
  // Zero-bubble ZB-H1 (Qi et al. 2024, arXiv 2401.10241 §3): backward split into input- and
  // weight-gradient passes fills the 1F1B bubble to a third, at 1F1B's activation memory.
  bool zero_bubble_schedule = false;
  std::int64_t micro_batches_per_step = 0;  // gradient accumulation steps; 0: at least pp

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

  std::int64_t micro_batch_size = 1;  // sequences per micro-batch
  std::int64_t sequence_tokens = 4096;
  Recompute recompute = Recompute::none;
  RecomputeMethod recompute_method = RecomputeMethod::uniform;
  std::int64_t recompute_num_layers = 1;  // full: layers per uniform group, or block layers per stage
  std::int64_t recompute_frequency = 2;   // selective-layer: every N-th layer (torchtitan's example '2')
  RecomputeModules recompute_modules;     // selective under Megatron: --recompute-modules
  bool flash_attention = true;            // false: eager attention keeps heads x s x s softmax terms
  // The fused attention kernel; none: the framework's (TrainingFrameworkProfile::attention_kernel).
  std::optional<AttentionKernel> attention_kernel;
  bool dropout = false;  // attention/hidden dropout masks (off in Llama-style configs)
  // torchtune's optimizer_in_bwd: each parameter is stepped and its gradient freed as soon as the
  // gradient is ready, so one parameter's gradient is alive at a time.
  bool optimizer_in_backward = false;
  // torchtune's enable_activation_offloading (needs whole-layer recompute): the checkpointed layer
  // inputs go to CPU memory during forward and come back during backward.
  bool offload_activations = false;
  // Full recompute with each checkpointed layer input split over the tensor-parallel ranks, gathered
  // again in backward: DeepSpeed's partition_activations (Megatron-DeepSpeed --partition-activations,
  // deepspeed/runtime/activation_checkpointing/checkpointing.py partition_activations) and Megatron's
  // --distribute-saved-activations (tensor_parallel/random.py CheckpointFunction).
  bool partition_checkpoints = false;
  // Megatron's --cpu-offloading --cpu-offloading-num-layers N (model_parallel_config.py cpu_offloading,
  // Transformer Engine's get_cpu_offload_context): the activations of N layers go to CPU memory after
  // their forward and come back for their backward. 0: none.
  std::int64_t cpu_offloaded_layers = 0;
  // bitsandbytes paged optimizers (PagedAdamW, PagedAdamW8bit, PagedLion): the states live in CUDA
  // managed memory outside PyTorch's caching allocator, paged to the CPU under memory pressure.
  bool paged_optimizer = false;
  // torch.compile as the framework applies it (torchtune's compile: True; torchtitan's
  // training.compile): fused elementwise kernels in the step time, and the compiled loss where the
  // framework compiles it.
  bool compile = false;
  // With compile, the loss stays eager: torchtitan before pytorch/torchtitan bbb1b616e (2025-04-02),
  // which compiled the blocks only; torchtune with compile_loss off.
  bool eager_loss = false;

  LoraSettings lora;
  std::int64_t framework_overhead_bytes = InferenceWorkload{}.framework_overhead_bytes;

  // The step time's side.
  std::int64_t global_batch_tokens = 0;  // tokens per optimizer step; 0: global_batch_tokens_or_default
  bool overlap_data_parallel = true;     // gradient and parameter collectives hidden behind compute
  // true: attention counts the attended query/key pairs of a causal mask (what FlashAttention
  // computes); false: the full s x s square, as Narayanan et al. 2021 Eq. 3 and PaLM's MFU count.
  bool causal_attention_flops = true;

  std::int64_t gpus() const {
    return layout.tensor_parallel * layout.pipeline_parallel * context_parallel * layout.data_parallel;
  }
};

// Throws OptionError naming the option that sets a field no estimate can run with (the memory's
// rules, in its wording). With step_time, also what the step time needs (messages starting
// "option '<key>': "): cp dividing the sequence, pp x virtual stages at most num_layers, and a
// global batch of at least one micro-batch per data-parallel rank.
void check_training_workload(const TrainingWorkload& workload, std::int64_t num_layers, bool step_time);
// The LoRA options alone (adapters for QLoRA, dropout and DoRA; a DoRA rule for the framework),
// which no layout changes: the training planner checks them once, before its search.
void check_lora_settings(const TrainingWorkload& workload);

// The workload with the defaults the estimates fill in: with LoRA and no target modules, every
// linear layer of the blocks (QLoRA, Dettmers et al. 2023 §4, adapts them all to match full
// finetuning). The global batch is left as given: global_batch_tokens_or_default() reads it.
TrainingWorkload with_training_defaults(const TrainingWorkload& workload);

// The framework's profile, and the memory statistic the total is (given, or the framework's).
const TrainingFrameworkProfile& training_framework(const TrainingWorkload& workload);
// What the workload's layout asks beyond the framework's parallelisms (framework_parallelism), in
// words with the source; empty when the framework runs it.
std::string framework_parallelism_gap(const TrainingWorkload& workload);
MemoryStatistic training_memory_statistic(const TrainingWorkload& workload);
// The loss as the framework holds it for this workload (LoRA, compile), per logit element.
struct TrainingLoss {
  std::int64_t bytes_per_logit = 0;        // alive for every token at the loss's peak
  std::int64_t chunks = 0;                 // 0: not chunked
  std::int64_t chunk_bytes_per_logit = 0;  // added over tokens / chunks while one chunk is computed
  const char* rule = "";
};
TrainingLoss training_loss(const TrainingWorkload& workload);
// Gradients allocated during backward as activations are freed (the framework frees them after
// each step), with one micro-batch per optimizer step and no pipeline: the peak holds the larger
// of gradients and activations rather than both.
bool gradients_overlap_activations(const TrainingWorkload& workload);
// The fused attention kernel: the workload's, else the framework's.
AttentionKernel training_attention_kernel(const TrainingWorkload& workload);
// FSDP that keeps each stage's 16-bit parameters unsharded across the step (torchtitan under pp).
bool fsdp_unsharded_for_step(const TrainingWorkload& workload);

// The dtype of the weight products: the recipe's (fp8 recipes multiply in FP8, mixed recipes in
// their 16-bit type).
ComputeDtype training_compute_dtype(PrecisionRecipe recipe);
// Gradient bytes per parameter: fp32 with fp32_gradients, else the recipe's.
std::int64_t training_gradient_bytes_per_parameter(const TrainingWorkload& workload);
// The ZeRO stage whose collectives the step runs: FSDP FULL_SHARD and HYBRID_SHARD gather
// parameters as ZeRO-3 does, SHARD_GRAD_OP reduce-scatters gradients as ZeRO-2.
int training_collective_zero_stage(const TrainingWorkload& workload);
// global_batch_tokens when positive, else max(4 x 2^20 tokens (Llama-2/3 pretraining batches),
// dp x micro_batch_size x sequence_tokens x max(micro_batches_per_step, pp)).
std::int64_t global_batch_tokens_or_default(const TrainingWorkload& workload);
// Micro-batches each data-parallel rank runs per step: the global batch's whole sequences over
// micro_batch_size x dp, rounded up (a partial micro-batch costs a whole one).
std::int64_t step_micro_batches(const TrainingWorkload& workload);

}  // namespace fitcheck
