// SPDX-License-Identifier: MIT
// The training workload's rules (one validator for the memory and the step time) and the figures
// both read from it.
#include "fitcheck/training_workload.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "fitcheck/options.hpp"
#include "support/checked_math.hpp"

namespace fitcheck {
namespace {

std::string num(std::int64_t value) { return std::to_string(value); }

[[noreturn]] void refuse(const char* option, const std::string& message) { throw OptionError(option, message); }

// The step time's refusals start with the option, as the option parser's do.
void check(bool ok, const char* option, const std::string& message) {
  if (!ok) throw OptionError(option, "option '" + std::string(option) + "': " + message);
}

}  // namespace

void check_lora_settings(const TrainingWorkload& w) {
  if (w.lora.qlora && w.lora.rank == 0) refuse("qlora", "QLoRA trains LoRA adapters: give --lora-rank too");
  if (w.lora.rank < 0) refuse("lora_rank", "LoRA rank cannot be negative");
  if (w.lora.dropout && w.lora.rank == 0)
    refuse("lora_dropout", "LoRA dropout needs LoRA adapters: give --lora-rank too");
  if (w.lora.dora && w.lora.rank == 0) refuse("dora", "DoRA trains LoRA adapters: give --lora-rank too");
  if (w.lora.dora && framework_dora_rule(w.framework) == nullptr)
    refuse("dora", std::string("DoRA is modelled as PEFT (--framework hf) and torchtune run it; ") +
                       training_framework(w).name + " has no DoRA rule here");
}

void check_training_workload(const TrainingWorkload& w, std::int64_t num_layers, bool step_time) {
  const ParallelLayout& l = w.layout;
  if (l.tensor_parallel < 1) refuse("tp", "tensor parallel size must be at least 1");
  if (l.pipeline_parallel < 1) refuse("pp", "pipeline parallel size must be at least 1");
  if (l.expert_parallel < 1) refuse("ep", "expert parallel size must be at least 1");
  if (l.data_parallel < 1) refuse("dp", "data parallel size must be at least 1");
  if (w.context_parallel < 1) refuse("cp", "context parallel size must be at least 1");
  if (w.micro_batch_size < 1) refuse("micro_batch", "micro-batch size must be at least 1");
  if (w.sequence_tokens < 1) refuse("seq_len", "sequence length must be at least 1 token");
  if (w.context_parallel > w.sequence_tokens) refuse("cp", "context parallel size is larger than the sequence");
  if (w.micro_batches_per_step < 0)
    refuse("micro_batches", "micro-batches per step must be 0 (at least pp) or positive");
  if (w.zero_stage < 0 || w.zero_stage > 3) refuse("zero", "ZeRO stage must be 0, 1, 2 or 3");
  if (w.fsdp != FsdpMode::off && w.zero_stage != 0)
    refuse("fsdp", "FSDP and DeepSpeed ZeRO shard the same states: choose --fsdp or --zero, not both");
  const std::int64_t replicas = l.data_parallel * w.context_parallel;
  if (w.fsdp == FsdpMode::hybrid_shard &&
      (w.fsdp_shard_group < 1 || replicas % std::min(w.fsdp_shard_group, replicas) != 0))
    refuse("fsdp_shard_group", "HYBRID_SHARD group size must divide the " + num(replicas) + " data-parallel ranks");
  if (w.offload_params && w.fsdp == FsdpMode::off && w.zero_stage != 3)
    refuse("offload_params",
           "parameter offload needs ZeRO-3 (DeepSpeed offload_param is valid only with stage 3) or FSDP");
  if (w.offload_optimizer && w.fsdp != FsdpMode::off)
    refuse("offload_optimizer", "FSDP offloads optimizer states only together with parameters: use --offload-params");
  if (w.offload_optimizer && w.zero_stage < 1)
    refuse("offload_optimizer", "optimizer offload needs ZeRO stage 1, 2 or 3 (ZeRO-Offload)");
  if (w.reduce_bucket_elements < 0 || w.allgather_bucket_elements < 0)
    refuse("reduce_bucket", "bucket sizes cannot be negative");
  if (l.expert_parallel > 1 && (l.tensor_parallel * replicas) % l.expert_parallel != 0)
    refuse("ep", "expert parallel size " + num(l.expert_parallel) + " must divide tp x dp x cp = " +
                     num(l.tensor_parallel * replicas) + " (Megatron-Core MoE parallel folding)");
  if (l.expert_parallel > 1 && l.tensor_parallel > 1 && !w.sequence_parallel)
    refuse("sequence_parallel",
           "expert parallelism with tensor parallelism needs sequence parallelism (Megatron-LM MoE README)");
  if (w.tp_comm_overlap && !w.sequence_parallel)
    refuse("tp_comm_overlap",
           "tensor-parallel communication overlap needs sequence parallelism (Megatron-LM arguments.py: "
           "\"Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled\")");
  if (w.ep_comm_overlap && l.expert_parallel < 2)
    refuse("ep_comm_overlap", "expert-parallel communication overlap needs expert parallelism (ep of at least 2)");
  if (w.virtual_pipeline_stages < 1) refuse("virtual_stages", "virtual pipeline stages must be at least 1");
  if (w.zero_bubble_schedule && w.virtual_pipeline_stages > 1)
    refuse("pipeline_schedule",
           "the zero-bubble schedule modelled (ZB-H1) runs one model chunk per GPU: drop --virtual-stages");
  const bool slot_split = w.pipeline_split_embedding_slot || w.pipeline_split_loss_slot;
  const char* slot_option = w.pipeline_split_embedding_slot ? "account_for_embedding_in_pipeline_split"
                                                            : "account_for_loss_in_pipeline_split";
  const std::int64_t slots = w.pipeline_split_slots(num_layers);
  if (slot_split) {
    if (l.pipeline_parallel < 2)
      refuse(slot_option, "the embedding's or loss's slot in the pipeline split needs pp of at least 2");
    // Megatron-Core divides the slots evenly (TransformerConfig: num_layers plus the embedding and loss
    // slots divisible by pp, and each stage's by the virtual stages).
    if (slots % (l.pipeline_parallel * w.virtual_pipeline_stages) != 0)
      refuse(slot_option, "pp x virtual stages = " + num(l.pipeline_parallel * w.virtual_pipeline_stages) +
                              " must divide the " + num(slots) + " slots of the split (" + num(num_layers) +
                              " layers with the embedding's and loss's slots)");
  }
  if (w.virtual_pipeline_stages > 1) {
    if (l.pipeline_parallel < 2) refuse("virtual_stages", "interleaved pipeline stages need pp of at least 2");
    // torchtitan splits the layers unevenly when they do not divide (9dec370
    // torchtitan/parallelisms/pipelining_utils.py generate_split_points: the middle stages take the
    // extra layers); Megatron-LM needs pp x virtual stages to divide them.
    if (!slot_split && !training_framework(w).uneven_pipeline_stages &&
        num_layers % (l.pipeline_parallel * w.virtual_pipeline_stages) != 0)
      refuse("virtual_stages", "pp x virtual stages = " + num(l.pipeline_parallel * w.virtual_pipeline_stages) +
                                   " must divide the " + num(num_layers) + " layers");
  }
  check_lora_settings(w);
  if (w.recompute_num_layers < 1) refuse("recompute_num_layers", "recompute layers must be at least 1");
  if (w.recompute_frequency < 1) refuse("recompute_frequency", "the selective-layer frequency must be at least 1");
  if (w.framework_overhead_bytes < 0) refuse("overhead_gib", "framework overhead cannot be negative");
  if (w.cpu_offloaded_layers < 0) refuse("cpu_offloading_num_layers", "offloaded layers cannot be negative");
  if (w.cpu_offloaded_layers > 0 && w.layout.pipeline_parallel > 1)
    refuse("cpu_offloading_num_layers",
           "Megatron's CPU offloading has no support for pipeline parallelism (transformer_config.py): use pp 1");
  if (w.cpu_offloaded_layers > 0 && w.cpu_offloaded_layers >= num_layers)
    refuse("cpu_offloading_num_layers", "Megatron offloads fewer layers than the model's " + num(num_layers) +
                                            " (transformer_config.py: \"CPU offloading can be done only for layers "
                                            "less than num_layers\")");
  if (w.offload_activations && w.recompute != Recompute::full)
    refuse("offload_activations",
           "activation offloading moves the checkpointed layer inputs to the CPU: it needs --recompute full "
           "(torchtune refuses enable_activation_offloading without enable_activation_checkpointing)");
  if (w.paged_optimizer && w.optimizer != OptimizerKind::adamw && w.optimizer != OptimizerKind::adam_8bit &&
      w.optimizer != OptimizerKind::lion)
    refuse("paged_optimizer", "bitsandbytes has paged AdamW, AdamW8bit and Lion only");
  if (w.optimizer_in_backward && w.layout.pipeline_parallel > 1)
    refuse("optimizer_in_backward", "the optimizer step in backward is modelled without pipeline parallelism");
  if (!step_time) return;

  // The memory places pp stages with plan_stages, which refuses more stages than layers itself.
  check(l.pipeline_parallel * w.virtual_pipeline_stages <= slots, "pp",
        "pp " + num(l.pipeline_parallel) + " x virtual stages " + num(w.virtual_pipeline_stages) +
            " is more stages than the " + num(num_layers) + " layers" +
            (slot_split ? std::string(" and the embedding's and loss's slots") : std::string()));
  check(w.sequence_tokens % w.context_parallel == 0, "cp",
        "context parallel size " + num(w.context_parallel) + " does not divide the sequence length " +
            num(w.sequence_tokens));
  check(w.global_batch_tokens >= 0, "global_batch_tokens", "the global batch cannot be negative");
  const std::int64_t global_batch = global_batch_tokens_or_default(w);
  const std::int64_t global_sequences = global_batch / w.sequence_tokens;
  check(global_sequences >= w.micro_batch_size * l.data_parallel, "global_batch_tokens",
        "the global batch of " + num(global_batch) + " tokens holds " + num(global_sequences) + " sequences of " +
            num(w.sequence_tokens) + ", fewer than one micro-batch of " + num(w.micro_batch_size) +
            " per data-parallel rank (dp " + num(l.data_parallel) + ")");
  // The interleaved schedule runs the micro-batches in groups of pp and refuses a last group smaller
  // than pp (NVIDIA/Megatron-LM@d98e8a64 megatron/core/pipeline_parallel/schedules.py
  // forward_backward_pipelining_with_interleaving; microbatch_group_size_per_vp_stage defaults to pp,
  // model_parallel_config.py l.567); PyTorch's ScheduleInterleaved1F1B asks for a multiple of the
  // pipeline ranks too. The planner proposes only such layouts (planner_training.cpp runs_chunks).
  if (w.virtual_pipeline_stages > 1) {
    const std::int64_t micro_batches = step_micro_batches(w);
    check(micro_batches % l.pipeline_parallel == 0, "virtual_stages",
          "the interleaved schedule runs the micro-batches in groups of pp " + num(l.pipeline_parallel) + ": " +
              num(micro_batches) + " micro-batches per step (" + num(global_sequences) + " sequences / (micro-batch " +
              num(w.micro_batch_size) + " x dp " + num(l.data_parallel) +
              ")) is not a multiple of it; change --global-batch-tokens or drop --virtual-stages");
  }
}

TrainingWorkload with_training_defaults(const TrainingWorkload& workload) {
  TrainingWorkload w = workload;
  if (w.lora.rank > 0 && w.lora.target_roles.empty()) w.lora.target_roles = lora_target_roles("all-linear");
  return w;
}

std::int64_t lora_trainable_parameters(const WeightTensor& adapted, const LoraSettings& lora) {
  const std::int64_t magnitude = lora.dora ? adapted.rows : 0;
  return (lora.rank * (adapted.rows + adapted.columns) + magnitude) * adapted.copies;
}

const TrainingFrameworkProfile& training_framework(const TrainingWorkload& w) {
  return training_framework_profile(w.framework);
}

std::string framework_parallelism_gap(const TrainingWorkload& w) {
  const FrameworkParallelism& can = framework_parallelism(w.framework);
  const ParallelLayout& l = w.layout;
  std::vector<std::string> beyond;
  const auto degree = [](const char* name, std::int64_t value) {
    return std::string(name) + " " + std::to_string(value);
  };
  if (l.tensor_parallel > 1 && !(w.lora.rank > 0 ? can.tensor_with_lora : can.tensor))
    beyond.push_back(degree("tp", l.tensor_parallel) + (can.tensor ? " with LoRA" : ""));
  if (l.pipeline_parallel > 1 && !can.pipeline) beyond.push_back(degree("pp", l.pipeline_parallel));
  if (w.context_parallel > 1 && !can.context) beyond.push_back(degree("cp", w.context_parallel));
  if (l.expert_parallel > 1 && !can.expert) beyond.push_back(degree("ep", l.expert_parallel));
  if (l.pipeline_parallel > 1 && can.pipeline && w.zero_stage > can.max_zero_stage_with_pipeline)
    beyond.push_back(degree("ZeRO", w.zero_stage) + " with " + degree("pp", l.pipeline_parallel));
  // A framework that shards with FSDP has no ZeRO stages (the nearest: --fsdp shard_grad_op for 2,
  // full_shard for 3; none for 1).
  if (can.shards_with_fsdp && w.zero_stage > 0)
    beyond.push_back(degree("ZeRO", w.zero_stage) + " (it shards with --fsdp)");
  if (can.shards_with_fsdp && !can.hybrid_shard && w.fsdp == FsdpMode::hybrid_shard)
    beyond.push_back("FSDP HYBRID_SHARD");
  if (beyond.empty()) return {};
  std::string listed;
  for (const std::string& item : beyond) listed += (listed.empty() ? "" : ", ") + item;
  return std::string(training_framework(w).name) + " does not run " + listed + " (" + can.rule + ")";
}

TrainingLoss training_loss(const TrainingWorkload& w) {
  const TrainingFrameworkProfile& f = training_framework(w);
  TrainingLoss loss{f.loss_bytes_per_logit, f.loss_chunks, f.loss_chunk_bytes_per_logit, f.loss_rule};
  if (w.lora.rank > 0 && f.lora_loss_bytes_per_logit > 0) loss.bytes_per_logit = f.lora_loss_bytes_per_logit;
  if (w.layout.tensor_parallel > 1 && f.loss_parallel_bytes_per_logit > 0) {
    loss.bytes_per_logit = f.loss_parallel_bytes_per_logit;
    loss.rule = f.loss_parallel_rule;
  }
  if (w.compile && !w.eager_loss && f.compiled_loss_bytes_per_logit > 0) {
    loss.bytes_per_logit = f.compiled_loss_bytes_per_logit;
    loss.chunk_bytes_per_logit = f.compiled_loss_chunk_bytes_per_logit;
    loss.rule = f.compiled_loss_rule;
  }
  return loss;
}

bool gradients_overlap_activations(const TrainingWorkload& w) {
  if (!training_framework(w).gradients_allocated_in_backward) return false;
  if (w.layout.pipeline_parallel > 1 || w.micro_batches_per_step > 1) return false;
  // With the optimizer step in backward the one gradient counted is the output layer's (or the
  // tied embedding's), made at the start of backward while every activation is still alive.
  if (w.optimizer_in_backward) return false;
  // Gradient accumulation keeps the earlier micro-batches' gradients through the next forward.
  const std::int64_t per_micro_step = w.layout.data_parallel * w.micro_batch_size * w.sequence_tokens;
  return global_batch_tokens_or_default(w) <= per_micro_step;
}

AttentionKernel training_attention_kernel(const TrainingWorkload& w) {
  return w.attention_kernel ? *w.attention_kernel : training_framework(w).attention_kernel;
}

MemoryStatistic training_memory_statistic(const TrainingWorkload& w) {
  return w.memory_statistic ? *w.memory_statistic : training_framework(w).printed_statistic;
}

bool fsdp_unsharded_for_step(const TrainingWorkload& w) {
  return training_framework(w).fsdp_unsharded_under_pipeline && w.layout.pipeline_parallel > 1 &&
         (w.fsdp == FsdpMode::full_shard || w.fsdp == FsdpMode::hybrid_shard);
}

ComputeDtype training_compute_dtype(PrecisionRecipe recipe) {
  switch (recipe) {
    case PrecisionRecipe::fp32:
      return ComputeDtype::fp32;
    case PrecisionRecipe::fp16_mixed:
      return ComputeDtype::fp16;
    case PrecisionRecipe::fp8:
      return ComputeDtype::fp8;
    case PrecisionRecipe::bf16_mixed:
      return ComputeDtype::bf16;
  }
  return ComputeDtype::bf16;
}

std::int64_t training_gradient_bytes_per_parameter(const TrainingWorkload& w) {
  return w.fp32_gradients ? 4 : precision_recipe_info(w.precision).gradient_bytes_per_parameter;
}

int training_collective_zero_stage(const TrainingWorkload& w) {
  switch (w.fsdp) {
    case FsdpMode::full_shard:
    case FsdpMode::hybrid_shard:
      return 3;
    case FsdpMode::shard_grad_op:
      return 2;
    case FsdpMode::off:
    case FsdpMode::no_shard:
      break;
  }
  return w.zero_stage;
}

std::int64_t global_batch_tokens_or_default(const TrainingWorkload& w) {
  if (w.global_batch_tokens > 0) return w.global_batch_tokens;
  const std::int64_t micro_batches = std::max<std::int64_t>(w.micro_batches_per_step, w.layout.pipeline_parallel);
  const std::int64_t minimum_step = detail::checked_mul(detail::checked_mul(w.layout.data_parallel, w.micro_batch_size),
                                                        detail::checked_mul(w.sequence_tokens, micro_batches));
  return std::max<std::int64_t>(minimum_step, std::int64_t{4} << 20);
}

std::int64_t step_micro_batches(const TrainingWorkload& w) {
  const std::int64_t global_sequences = global_batch_tokens_or_default(w) / w.sequence_tokens;
  const std::int64_t per_rank = detail::checked_mul(w.micro_batch_size, w.layout.data_parallel);
  return (global_sequences + per_rank - 1) / per_rank;
}

}  // namespace fitcheck
