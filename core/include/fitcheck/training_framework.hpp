// SPDX-License-Identifier: MIT
// Training framework profiles: the rules one framework applies that change peak memory or step
// time (its loss and logits buffers, its gradient buffer dtype, FSDP under pipeline parallelism,
// the attention kernel it runs, the memory statistic it prints). Each rule cites the framework's
// source; the notes behind them are in docs/frameworks-training.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fitcheck {

enum class TrainingFramework : std::uint8_t {
  megatron,    // Megatron-LM / Megatron-Core (and NeMo, Megatron Bridge)
  deepspeed,   // Megatron-DeepSpeed: Megatron's model code with DeepSpeed ZeRO
  torchtitan,  // PyTorch FSDP2 + torchtitan
  hf,          // Hugging Face transformers Trainer / Accelerate, PEFT, bitsandbytes
  torchtune,   // torchtune recipes (full, LoRA, QLoRA; single device and FSDP2)
  litgpt,      // LitGPT finetune scripts (Lightning Fabric)
  automodel,   // NVIDIA NeMo AutoModel (PyTorch FSDP2 with pipelining, context and expert parallelism)
};

// The attention kernel a 16-bit run uses: PyTorch's scaled_dot_product_attention flash backend
// (the FlashAttention-2 kernels PyTorch vendors), the flash-attn package (Dao-AILab
// FlashAttention-2; FlashAttention-3 on Hopper where the framework uses it), or cuDNN fused
// attention through Transformer Engine.
enum class AttentionKernel : std::uint8_t { sdpa_flash, flash_attn, cudnn };

// How a framework runs the non-matmul operations of a layer (norms, rotary embedding, the MLP
// activation, residual adds, dtype casts) and of the loss: one kernel per PyTorch op (eager), fused
// per region by TorchInductor (torch.compile), or hand-fused kernels (Transformer Engine, Apex).
// Their bytes go through HBM: docs/latency.md, "Training time".
enum class ElementwiseKernels : std::uint8_t { eager, compiled, fused };

// How an FP8 recipe scales and casts the GEMM operands: torchao's Float8Linear with dynamic
// tensorwise scaling (an amax pass and a cast kernel per operand), or Transformer Engine's delayed
// scaling (casts fused into the norm and activation kernels, cast-transpose for the rest).
enum class Fp8Casts : std::uint8_t { torchao_tensorwise, transformer_engine };

// Which torch.cuda statistic a total is: live tensors (max_memory_allocated) or segments the
// caching allocator holds (max_memory_reserved).
enum class MemoryStatistic : std::uint8_t { allocated, reserved };

struct TrainingFrameworkProfile {
  TrainingFramework framework;
  const char* id;    // "megatron", "deepspeed", "torchtitan", "hf", "torchtune", "litgpt", "automodel"
  const char* name;  // in words
  // Bytes per logit element (tokens x vocabulary / tp) alive at the loss's peak: logits, their
  // fp32 copy, what cross-entropy saves and the gradient it writes.
  std::int64_t loss_bytes_per_logit;
  const char* loss_rule;  // how those bytes arise, with the source
  // 16-bit recipes accumulate and reduce gradients in an fp32 buffer by default.
  bool fp32_gradient_buffer;
  const char* gradient_rule;
  // FSDP under pipeline parallelism keeps each stage's 16-bit parameters unsharded for the whole
  // step and accumulates unsharded gradients in the reduce dtype (fp32) across micro-batches.
  bool fsdp_unsharded_under_pipeline;
  // The attention kernel a 16-bit run uses by default (--attention-kernel overrides it).
  AttentionKernel attention_kernel;
  const char* attention_rule;
  // The MFU numerator counts the attention core over the full s x s square (PaLM, torchtitan's
  // get_num_flop_per_token, llm-foundry) rather than the causal half (Megatron since 2025-03).
  bool mfu_attention_full_square;
  const char* mfu_rule;
  MemoryStatistic printed_statistic;  // the figure the framework's own log line prints
  const char* statistic_rule;
  // A chunked loss: loss_bytes_per_logit stays alive for every token; while one chunk of the
  // tokens (tokens / loss_chunks) is computed it adds loss_chunk_bytes_per_logit. 0: not chunked.
  std::int64_t loss_chunks = 0;
  std::int64_t loss_chunk_bytes_per_logit = 0;
  // The training loop frees gradients after each optimizer step (zero_grad(set_to_none=True)), so
  // with one micro-batch per step they are allocated during backward as activations are freed:
  // the peak is the larger of the two, not their sum.
  bool gradients_allocated_in_backward = false;
  const char* gradient_lifetime_rule = "";
  // LoRA adapters: bytes per adapter parameter for the weight, its gradient and each optimizer
  // state (PEFT keeps them in fp32; torchtune and LitGPT in the model's dtype).
  std::int64_t adapter_bytes = 4;
  const char* adapter_rule = "PEFT's autocast_adapter_dtype keeps adapters in fp32";
  // The loss under LoRA when the framework computes it differently there; 0: loss_bytes_per_logit.
  std::int64_t lora_loss_bytes_per_logit = 0;
  // The loss when the framework compiles it (--compile); 0: as without compile.
  std::int64_t compiled_loss_bytes_per_logit = 0;
  std::int64_t compiled_loss_chunk_bytes_per_logit = 0;
  const char* compiled_loss_rule = "";
  // The step time's kernels: how the layers' elementwise operations run without --compile, and
  // whether --compile fuses them (TorchInductor) and the loss.
  ElementwiseKernels elementwise_kernels = ElementwiseKernels::eager;
  const char* elementwise_rule = "";
  bool compile_covers_loss = false;
  Fp8Casts fp8_casts = Fp8Casts::torchao_tensorwise;
  const char* fp8_cast_rule = "";
  // The interleaved pipeline schedule sends activations and gradients while the next chunk computes.
  bool overlaps_interleaved_pipeline_sends = false;
  // Pipeline stages may hold unequal layer counts (pp x virtual stages need not divide the layers).
  bool uneven_pipeline_stages = false;
  // Context parallelism through PyTorch's experimental context_parallel ring: keys and values
  // repeated to every query head, eager fp32 merges of each step's output, fp32 gradient
  // accumulation and a concatenated copy for every exchange (their bytes go through HBM).
  bool torch_ring_attention = false;
  // The loss runs as eager PyTorch ops although the layers' kernels are fused.
  bool eager_loss = false;
  // Biased routed experts get their output bias as eager fp32 ops on every token copy
  // (Megatron-Core's TEGroupedMLP._apply_packed_bias; docs/frameworks-training.md §7).
  bool eager_expert_bias = false;
  // The model keeps its own output head even where the checkpoint ties it to the token embedding:
  // a second vocabulary x hidden matrix on the GPU (trained in full fine-tuning).
  bool untied_output_head = false;
  const char* output_head_rule = "";
  // QLoRA as this framework quantizes and runs the frozen base with bitsandbytes. Whether the
  // output head is quantized too, whether the absmax statistics are quantized again (double
  // quantization), whether every quantized matmul keeps its input for backward (bitsandbytes'
  // MatMul4Bit does so whenever the input needs a gradient), and the bytes per parameter of the
  // dequantized copies of the largest quantized matrix alive during its matmul.
  bool qlora_quantizes_output_head = false;
  bool qlora_double_quant = true;
  bool qlora_saves_base_inputs = false;
  std::int64_t qlora_dequantized_bytes_per_param = 2;
  const char* qlora_rule = "";
  // Tensors the framework's own eager model code saves beyond the generic count: an RMSNorm that
  // upcasts its input keeps it in fp32 (4 B; 8 B when the norm weight trains and the fp32
  // normalized output is kept for its gradient); grouped k/v heads expanded to every query head
  // before attention; a gated MLP whose activation and product run as separate ops keeps
  // act(gate) beside gate and up.
  bool fp32_rms_norm_saves = false;
  bool expands_kv_heads = false;
  bool keeps_gated_activation_output = false;
  // The output projection reads a reshaped copy of the attention kernel's transposed output, so
  // where the projection keeps its input both tensors stay alive.
  bool attention_output_copied = false;
  // LoRA on q, k and v runs as one adapter over the fused projection: one dropped copy of the
  // input whatever the number of adapted heads' groups.
  bool fused_qkv_adapter = false;
  const char* model_code_rule = "";
  // The loss under tensor parallelism where the framework runs PyTorch's loss_parallel (cross-entropy
  // over vocabulary-sharded DTensor logits) and the loss is not compiled; 0: loss_bytes_per_logit.
  std::int64_t loss_parallel_bytes_per_logit = 0;
  const char* loss_parallel_rule = "";
  // Pipeline parallelism through torch.distributed.pipelining: the last stage keeps the output (the
  // logits) of every micro-batch of the step until the next step starts.
  bool pipeline_keeps_outputs = false;
  const char* pipeline_outputs_rule = "";
  // Layers that do not divide over the pipeline stages: the middle stages take one more each
  // (torchtitan); otherwise the first stages do.
  bool middle_stages_take_extra_layers = false;
  // Sequence parallelism as DTensor runs it: the attention and MLP blocks all-gather their
  // sequence-sharded input before the column-parallel matmuls, which then save the gathered,
  // whole-sequence tensor for their weight gradients. Megatron saves the shard and gathers it
  // again in backward (Korthikanti et al. 2022 §4.2.2), so its saved inputs are split by tp.
  bool sequence_parallel_saves_gathered_inputs = false;
  const char* sequence_parallel_rule = "";
};

const TrainingFrameworkProfile& training_framework_profile(TrainingFramework framework);

// The model-parallel degrees a framework's training runs offer beside data parallelism and its
// sharding (ZeRO / FSDP), with the source: the training planner searches only these, and a layout
// beyond them is named in the report.
struct FrameworkParallelism {
  bool tensor = true;
  bool tensor_with_lora = true;
  bool pipeline = true;
  bool context = true;
  bool expert = true;
  int max_zero_stage_with_pipeline = 3;
  // Data-parallel sharding is PyTorch FSDP's (a fully_shard per block; reshard_after_forward=False
  // keeps the parameters gathered until backward, as SHARD_GRAD_OP), not DeepSpeed's ZeRO stages.
  bool shards_with_fsdp = false;
  // HYBRID_SHARD (HSDP): FSDP shards within a group of data-parallel ranks and replicates across
  // the groups, a 2-D (dp_replicate, dp_shard) device mesh.
  bool hybrid_shard = false;
  const char* rule = "";
};
const FrameworkParallelism& framework_parallelism(TrainingFramework framework);
// How the framework's DoRA layer runs, with its source; nullptr where fitcheck has no DoRA rule for
// it (its LoRA is not PEFT's or torchtune's).
const char* framework_dora_rule(TrainingFramework framework);
std::optional<TrainingFramework> find_training_framework(std::string_view id);  // case-insensitive
const char* memory_statistic_name(MemoryStatistic statistic);                   // "allocated", "reserved"
const char* elementwise_kernels_name(ElementwiseKernels kernels);               // "eager", "compiled", "fused"
const char* attention_kernel_name(AttentionKernel kernel);                      // "sdpa", "flash-attn", "cudnn"
std::optional<AttentionKernel> find_attention_kernel(std::string_view id);
std::optional<MemoryStatistic> find_memory_statistic(std::string_view id);

// The framework a workload gets when none is named: Hugging Face, the framework most people who
// train or fine-tune a model use (docs/training-memory.md, "Framework profiles").
constexpr TrainingFramework kDefaultTrainingFramework = TrainingFramework::hf;

}  // namespace fitcheck
