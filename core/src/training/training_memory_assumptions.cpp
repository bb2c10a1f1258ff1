// SPDX-License-Identifier: MIT
// The assumptions a training memory report lists: what the activation count leaves out, the framework
// profile's rules that shaped the figures, and the options in force, each with its source.
#include "training/training_memory_assumptions.hpp"

#include <string>
#include <vector>

#include "fitcheck/training_memory.hpp"

namespace fitcheck::detail {
namespace {

std::string num(std::int64_t value) { return std::to_string(value); }

// What each of Megatron's selective modules discards and rebuilds (--recompute-modules).
std::string recompute_modules_rule(const RecomputeModules& modules) {
  std::string rule = "recompute: Megatron's selective modules " + recompute_module_list(modules) +
                     " (transformer_config.py recompute_modules):";
  const auto add = [&](bool on, const char* what) {
    if (on) rule += std::string(" ") + what + ";";
  };
  add(modules.core_attn, "core_attn keeps what flash attention keeps (no scores to drop)");
  add(modules.moe_act, "moe_act drops the routed experts' activation output (their down-projection input)");
  add(modules.layernorm,
      "layernorm drops the outputs of the norms that are modules of their own (a MoE layer's pre-MLP norm, MLA's "
      "input norm; the others are inside a LayerNormLinear)");
  add(modules.mla_up_proj, "mla_up_proj drops the q/kv up-projections' outputs and inputs (RoPE'd q, k, v)");
  add(modules.mlp, "mlp keeps a dense layer's MLP nothing but its residual");
  add(modules.moe, "moe keeps a MoE layer nothing but its input (the pre-MLP norm's output)");
  add(modules.shared_experts, "shared_experts drops the shared experts' activations");
  rule.back() = ';';
  return rule +
         " each is rebuilt during backward, one layer at a time (the recomputed layer term), and its forward "
         "products, elementwise kernels and, for moe, its dispatch and combine run again in the step time (FP8 "
         "casts of the recomputed linears' inputs are not counted)";
}

}  // namespace

std::vector<std::string> training_memory_assumptions(const TrainingWorkload& w, const TrainingMemory& m,
                                                     std::int64_t stages, bool has_experts) {
  std::vector<std::string> a;
  a.push_back(
      "activations are the tensors autograd keeps for backward, counted as in Korthikanti et al. 2022 §4.1; "
      "norm statistics, RNG states and allocator fragmentation are not counted");
  if (!w.dropout) a.push_back("no dropout (Llama-style configs set it to 0); --dropout adds Korthikanti's masks");
  a.push_back(w.flash_attention ? "flash attention: no s x s scores are kept"
                                : "eager attention: softmax probabilities of heads x s x s are kept per layer");
  const TrainingFrameworkProfile& framework = training_framework(w);
  if (framework.keeps_gated_activation_output)
    a.push_back(std::string("model code: ") + framework.model_code_rule);
  else
    a.push_back(
        "gated MLPs keep gate and up outputs as Megatron's fused SwiGLU does; unfused code also keeps silu(gate)");
  if (w.recompute == Recompute::selective && w.recompute_modules.beyond_core_attention())
    a.push_back(recompute_modules_rule(w.recompute_modules));
  a.push_back(std::string("framework: ") + framework.name + " (--framework " + framework.id + ")");
  if (w.sequence_parallel && w.layout.tensor_parallel > 1 && framework.sequence_parallel_saves_gathered_inputs)
    a.push_back(std::string("saved block inputs: ") + framework.sequence_parallel_rule);
  if (const std::string gap = framework_parallelism_gap(w); !gap.empty())
    a.push_back("layout: " + gap + "; the figures apply the profile's rules to the layout as given");
  const TrainingLoss loss = training_loss(w);
  a.push_back(std::string("loss: ") + std::to_string(loss.bytes_per_logit) + " B per logit element at the loss's peak" +
              (loss.chunks > 0 && loss.chunk_bytes_per_logit > 0
                   ? " + " + std::to_string(loss.chunk_bytes_per_logit) + " B over one of " +
                         std::to_string(loss.chunks) + " chunks of the tokens"
                   : std::string()) +
              ": " + loss.rule);
  if (m.totals.backward_overlap_bytes > 0)
    a.push_back(std::string("gradients and activations: ") + framework.gradient_lifetime_rule +
                "; the total counts the larger of the two (gradient accumulation or pipelining would keep both)");
  if (w.optimizer_in_backward)
    a.push_back(
        "optimizer step in backward (torchtune optimizer_in_bwd): each parameter is stepped and its gradient freed "
        "as soon as it is ready; the largest gradient is counted");
  if (w.cpu_offloaded_layers > 0)
    a.push_back("CPU offloading (Megatron --cpu-offloading --cpu-offloading-num-layers " +
                std::to_string(w.cpu_offloaded_layers) +
                ", Transformer Engine get_cpu_offload_context): those layers' activations live in CPU memory "
                "(cpu_offload_bytes), one layer's on the GPU in transit; the copies are taken to run under the "
                "compute (not in the step time)");
  if (w.partition_checkpoints)
    a.push_back(std::string("checkpointed layer inputs split over the tensor-parallel ranks (") +
                (w.framework == TrainingFramework::megatron
                     ? "Megatron --distribute-saved-activations, megatron/core/tensor_parallel/random.py "
                       "CheckpointFunction split_tensor_into_1d_equal_chunks"
                     : "DeepSpeed partition_activations, deepspeed/runtime/activation_checkpointing/checkpointing.py "
                       "partition_activations") +
                "); each recomputed layer all-gathers its input again in backward (in the step time's tensor-parallel "
                "collectives)");
  if (w.offload_activations)
    a.push_back(
        w.framework == TrainingFramework::deepspeed
            ? "activation offloading (DeepSpeed cpu_checkpointing, Megatron-DeepSpeed --checkpoint-in-cpu: "
              "deepspeed/runtime/activation_checkpointing/checkpointing.py CheckpointFunction copies each checkpointed "
              "input to the CPU): the checkpointed layer inputs live in CPU memory (cpu_offload_bytes)"
            : "activation offloading (torchtune enable_activation_offloading): the checkpointed layer inputs live in "
              "CPU memory (cpu_offload_bytes); the copies in flight (up to 5 tensors stashed on the GPU) are not "
              "counted");
  if (w.compile && framework.compiled_loss_bytes_per_logit == 0)
    a.push_back(std::string("--compile changes no memory in the ") + framework.id +
                " profile: compile is modelled only where it changes a cited loss (torchtune, torchtitan)");
  if (w.compile && w.eager_loss && framework.compiled_loss_bytes_per_logit > 0)
    a.push_back("--eager-loss: the loss stays eager under --compile (torchtitan before bbb1b616e, 2025-04-02)");
  if (w.framework == TrainingFramework::hf)
    a.push_back(
        "the Hugging Face loss figure is a measurement (20 B per element, Liger-Kernel benchmarks), not a count of "
        "tensors; transformers 4.46 and later upcast once and may hold less");
  const MemoryStatistic statistic = training_memory_statistic(w);
  a.push_back(std::string("the total is the ") + memory_statistic_name(statistic) + " peak (torch.cuda.max_memory_" +
              memory_statistic_name(statistic) + "); " + framework.id + " prints " +
              memory_statistic_name(framework.printed_statistic) + ": " + framework.statistic_rule);
  if (statistic == MemoryStatistic::reserved)
    a.push_back(
        "reserved adds the caching allocator's block rounding of activation tensors; fragmentation between phases "
        "is not modelled");
  if (fsdp_unsharded_for_step(w))
    a.push_back(
        "FSDP2 under pipeline parallelism (torchtitan): reshard_after_forward=False keeps the stage's bf16 "
        "parameters unsharded for the whole step, and gradients of the micro-batches accumulate unsharded in fp32 "
        "(torch pipelining turns off gradient sync until the last backward; FSDPParam.to_accumulated_grad_if_needed)");
  if (stages > 1)
    a.push_back("every pipeline stage is evaluated (its own tensors, layers and micro-batches in flight); stage " +
                num(m.totals.busiest_stage) + " has the largest total");
  if (w.layout.pipeline_parallel > 1 && !fsdp_unsharded_for_step(w) &&
      (w.zero_stage >= 2 || (w.fsdp != FsdpMode::off && w.fsdp != FsdpMode::no_shard)))
    a.push_back(
        "DeepSpeed's pipeline engine accepts ZeRO-1 only; ZeRO-2/3 and FSDP are computed here as if the framework "
        "combined them with pipeline parallelism");
  if (w.zero_stage > 0 || w.fsdp != FsdpMode::off)
    a.push_back("sharding over the " + num(m.sharding_degree) + " ranks that hold the same weights (dp x cp" +
                std::string(w.fsdp == FsdpMode::hybrid_shard ? ", limited to the HYBRID_SHARD group" : "") + ")" +
                (has_experts ? "; routed experts over " + num(m.expert_sharding_degree) +
                                   " ranks (tp x dp x cp / ep when ep > 1)"
                             : std::string()));
  if (w.fsdp != FsdpMode::off && w.precision != PrecisionRecipe::fp32 && w.lora.rank == 0)
    a.push_back(
        "FSDP mixed precision: sharded parameters are fp32 and serve as master weights; gradients come back in fp32");
  if (w.offload_optimizer)
    a.push_back("ZeRO-Offload: 16-bit parameters stay on the GPU; master weights, optimizer states" +
                std::string(w.zero_stage >= 2 ? " and gradient partitions" : "") + " live in CPU memory");
  if (w.offload_params)
    a.push_back(
        "parameter offload: parameters live in CPU memory; the GPU holds the gathered ones and tensors under the "
        "ZeRO-3 persistence threshold");
  if (has_experts) a.push_back("MoE: balanced routing, no dropped tokens; each GPU processes top-k x its tokens");
  if (w.context_parallel > 1)
    a.push_back(
        "context parallel: each GPU keeps s/cp tokens; ring attention's in-flight key/value chunks are not counted");
  if (w.precision == PrecisionRecipe::fp8)
    a.push_back(
        "FP8: GEMM inputs saved in FP8 (1 B); two FP8 weight copies (row-wise and transposed, Hopper); Blackwell needs "
        "one");
  if (w.optimizer == OptimizerKind::muon)
    a.push_back("Muon's Newton-Schulz temporaries (a few matrices the size of the largest weight) are not counted");
  const bool qlora_keeps_inputs = w.lora.rank > 0 && w.lora.qlora && framework.qlora_saves_base_inputs;
  if (w.lora.rank > 0)
    a.push_back(std::string("LoRA: adapters, their gradients and optimizer states in ") +
                (framework.adapter_bytes == 4 ? "fp32" : "bf16") + " (" + framework.adapter_rule +
                "); the frozen base keeps no gradients; " +
                (qlora_keeps_inputs ? "every quantized matmul keeps its input for backward"
                                    : "only inputs of adapted matmuls are saved (autograd skips inputs of frozen "
                                      "weights)"));
  if (w.lora.dora)
    a.push_back(std::string("DoRA: a trained magnitude per output feature of each adapted matrix; ") +
                framework_dora_rule(w.framework) +
                "; the weight norm's temporaries (a few copies of one weight matrix, during its forward) are not "
                "counted");
  if (w.lora.rank > 0 && w.lora.qlora && *framework.qlora_rule != '\0')
    a.push_back(std::string("QLoRA as ") + framework.id + " runs it: " + framework.qlora_rule);
  if (framework.untied_output_head)
    a.push_back(std::string("output head: ") + framework.output_head_rule +
                "; a checkpoint with tied embeddings gets a second vocabulary x hidden matrix");
  a.push_back(
      "framework overhead (CUDA context, cuBLAS/NCCL workspaces, allocator reserve) is a default you can change");
  return a;
}

}  // namespace fitcheck::detail
