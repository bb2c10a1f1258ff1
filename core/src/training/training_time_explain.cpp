// SPDX-License-Identifier: MIT
// The report path of training time: each figure of estimate_training_time() with its formula.
#include <cstdio>
#include <string>

#include "fitcheck/training_time.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

std::string count(std::int64_t value) { return std::to_string(value); }

// Megatron's selective modules as the hardware FLOPs count them: " (core_attn, moe_act)".
std::string recompute_modules_text(const TrainingWorkload& w) {
  return w.recompute == Recompute::selective ? " (" + recompute_module_list(w.recompute_modules) + ")" : std::string();
}

const char* kernels_name(ElementwiseKernels kernels) {
  switch (kernels) {
    case ElementwiseKernels::compiled:
      return "compiled (TorchInductor)";
    case ElementwiseKernels::fused:
      return "fused (Transformer Engine / Megatron)";
    case ElementwiseKernels::eager:
      break;
  }
  return "eager PyTorch";
}

}  // namespace

TrainingExplanation explain_training_time(const PreparedLatencyModel& model, const TrainingWorkload& w,
                                          const Accelerator& gpu, double train_tokens,
                                          const TrainingAssumptions& assume) {
  TrainingExplanation x;
  x.time = estimate_training_time(model, w, gpu, train_tokens, assume);
  const TrainingTime& t = x.time;
  const ParallelLayout& lay = w.layout;
  const TrainingFlops& f = t.forward_flops_per_sequence;
  const double sequences = t.sequences_per_step;
  // Biased routed experts whose bias the framework adds as eager fp32 ops (the model is prepared at
  // bf16: an expert holding more than 2 B per matrix parameter has biases).
  bool eager_expert_biases = false;
  for (const LatencyLayerKind& k : model.kinds)
    eager_expert_biases = eager_expert_biases || (k.moe && k.expert.bytes > 2 * k.expert.matrix_params);
  eager_expert_biases = eager_expert_biases && training_framework(w).eager_expert_bias;
  std::string memory_parts;
  if (t.microbatch_moe_token_bytes > 0) {
    memory_parts = ", of which MoE routed tokens (router, copies into expert order and back";
    if (eager_expert_biases) memory_parts += ", eager fp32 expert biases";
    if (w.precision == PrecisionRecipe::fp8) memory_parts += "; FP8 casts of the copies counted with the casts";
    memory_parts += ") " + detail::four_significant_digits(t.microbatch_moe_token_bytes) + " B";
  }
  if (t.microbatch_dora_bytes > 0) {
    memory_parts += std::string(memory_parts.empty() ? ", of which" : ", and") +
                    " DoRA's weight norms and magnitude products " +
                    detail::four_significant_digits(t.microbatch_dora_bytes) + " B";
  }

  // The routed experts' grouped GEMMs where their bytes show (training_time.cpp).
  const std::string expert_gemms =
      t.expert_gemm_slowdown > 1.0005
          ? ", routed experts' grouped GEMMs " + detail::four_significant_digits(t.expert_gemm_slowdown) +
                " x their dense-rate time (few tokens per expert: bytes blended with FLOPs)"
          : std::string();

  x.lines.push_back("GPUs = tp " + count(lay.tensor_parallel) + " x pp " + count(lay.pipeline_parallel) + " x cp " +
                    count(w.context_parallel) + " x dp " + count(lay.data_parallel) + " = " + count(t.gpus));
  x.lines.push_back("micro-batches per step m = ceil(" + count(global_batch_tokens_or_default(w)) + " tokens / " +
                    count(w.sequence_tokens) + " / (" + count(w.micro_batch_size) + " x dp " +
                    count(lay.data_parallel) + ")) = " + count(t.micro_batches));
  x.lines.push_back("forward FLOPs per sequence = layers' products " + detail::four_significant_digits(f.layer_matmul) +
                    " + attention core " + detail::four_significant_digits(f.attention_core) +
                    (w.causal_attention_flops ? " (causal pairs)" : " (full s x s)") + " + lm_head " +
                    detail::four_significant_digits(f.lm_head) + " = " + detail::four_significant_digits(f.total()));
  x.lines.push_back(
      std::string("model FLOPs per step = ") +
      (w.lora.rank > 0 ? "(2 x products (frozen base: no weight gradients) + 3 x attention core) of " : "3 x ") +
      detail::four_significant_digits(f.total()) + " x " + detail::four_significant_digits(sequences) +
      " sequences = " + detail::four_significant_digits(t.model_flops_per_step) + "; with " +
      recompute_name(w.recompute) + " recomputation" + recompute_modules_text(w) + " = " +
      detail::four_significant_digits(t.hardware_flops_per_step));
  x.lines.push_back(
      "micro-batch on the busiest stage = compute " + detail::four_significant_digits(t.microbatch_compute_seconds) +
      " s (products " + detail::four_significant_digits(t.microbatch_matmul_seconds) + " s" + expert_gemms +
      " + attention core " + detail::four_significant_digits(t.microbatch_attention_seconds) + " s + memory-bound " +
      detail::four_significant_digits(t.microbatch_memory_seconds) +
      " s: " + detail::four_significant_digits(t.microbatch_memory_bytes) + " B through HBM" + memory_parts +
      ") + tensor parallel " +
      (w.tp_comm_overlap
           ? "(" + detail::four_significant_digits(t.tensor_parallel_seconds) + " s under the products, exposed) "
           : std::string()) +
      detail::four_significant_digits(t.microbatch_tensor_parallel_seconds) + " s + context parallel (exposed) " +
      detail::four_significant_digits(t.microbatch_context_parallel_seconds) + " s + expert " +
      (w.moe_dispatcher == MoeDispatcher::deepep ? "dispatch (DeepEP) " : "all-to-all ") +
      (w.ep_comm_overlap ? "(" + detail::four_significant_digits(t.expert_parallel_seconds) +
                               " s under another micro-batch's compute, exposed) "
                         : std::string()) +
      detail::four_significant_digits(t.microbatch_expert_parallel_seconds) + " s + pipeline sends " +
      detail::four_significant_digits(t.microbatch_pipeline_send_seconds) +
      " s = " + detail::four_significant_digits(t.microbatch_seconds) + " s");
  x.lines.push_back("pipeline = " + detail::four_significant_digits(t.microbatch_seconds) + " s x (m " +
                    count(t.micro_batches) + " + (pp - 1) / v " +
                    detail::four_significant_digits(static_cast<double>(lay.pipeline_parallel - 1) /
                                                    static_cast<double>(w.virtual_pipeline_stages)) +
                    ") = " + detail::four_significant_digits(t.pipeline_seconds) + " s; bubble " +
                    detail::four_significant_digits(t.bubble_seconds) +
                    " s = " + detail::four_significant_digits(100 * t.pipeline_bubble_fraction) + "% of it");
  x.lines.push_back("data parallel (ZeRO-" + std::to_string(training_collective_zero_stage(w)) + ") collectives " +
                    detail::four_significant_digits(t.data_parallel_seconds) + " s, exposed " +
                    detail::four_significant_digits(t.data_parallel_exposed_seconds) + " s" +
                    (w.overlap_data_parallel ? " (overlapped with compute)" : " (not overlapped)"));
  x.lines.push_back("step = " + detail::four_significant_digits(t.pipeline_seconds) + " + " +
                    detail::four_significant_digits(t.data_parallel_exposed_seconds) + " = " +
                    detail::four_significant_digits(t.step_seconds) + " s; " +
                    detail::four_significant_digits(sequences * static_cast<double>(w.sequence_tokens)) +
                    " tokens / step = " + detail::four_significant_digits(t.tokens_per_second) + " tokens/s (" +
                    detail::four_significant_digits(t.tokens_per_second_per_gpu) + " per GPU)");
  x.lines.push_back("MFU = " + detail::four_significant_digits(t.model_flops_per_step) + " / (" +
                    detail::four_significant_digits(t.step_seconds) + " s x " +
                    detail::four_significant_digits(t.peak_flops_per_second) + " FLOP/s x " + count(t.gpus) +
                    ") = " + detail::four_significant_digits(100 * t.mfu) +
                    "%; HFU = " + detail::four_significant_digits(100 * t.hfu) + "%; achieved " +
                    detail::four_significant_digits(t.achieved_flops_per_second_per_gpu) + " FLOP/s per GPU");
  x.lines.push_back("training " + detail::four_significant_digits(t.train_tokens) +
                    " tokens = " + detail::four_significant_digits(t.train_seconds) + " s (" +
                    detail::four_significant_digits(t.train_days) + " days), " +
                    detail::four_significant_digits(t.train_gpu_hours) + " GPU-hours, $" +
                    detail::four_significant_digits(t.train_cost_usd));

  const double base = training_flops_efficiency(gpu, PrecisionRecipe::bf16_mixed, assume);
  std::string efficiency_source = assume.flops_efficiency_given ? std::string(" (given)")
                                  : gpu.training_matmul_share > 0
                                      ? " (" + std::string(gpu.name) + "'s training benchmark share)"
                                      : std::string(" (default)");
  if (t.flops_efficiency != base)
    efficiency_source += ", x the chip's MAMF fp8 share " + detail::four_significant_digits(gpu.mamf_share_fp8) +
                         " / bf16 share " + detail::four_significant_digits(gpu.mamf_share_bf16) + " = " +
                         detail::four_significant_digits(t.flops_efficiency);
  x.assumptions.push_back(
      "flops efficiency " + detail::four_significant_digits(base) + efficiency_source + " of the " +
      compute_dtype_name(training_compute_dtype(w.precision)) + " dense peak for the weight products" +
      "; attention core at " + detail::four_significant_digits(t.attention_efficiency) + " of the 16-bit peak (" +
      (!w.flash_attention                ? std::string("eager attention: the products' efficiency")
       : assume.attention_efficiency > 0 ? std::string("given")
                                         : std::string(attention_efficiency_default(gpu, w).kernel)) +
      "); backward = 2 x forward for the products, 2.5 x forward for the attention core "
      "(FlashAttention's count)");
  x.assumptions.push_back(
      std::string("memory-bound kernels: ") + kernels_name(t.elementwise_kernels) + " elementwise ops" +
      (w.precision == PrecisionRecipe::fp8 ? std::string(", FP8 casts") : std::string()) + " and the loss at " +
      detail::four_significant_digits(assume.elementwise_bandwidth_efficiency) + " of " +
      detail::four_significant_digits(gpu.memory_bandwidth_bytes_per_second) +
      " B/s: " + training_framework(w).elementwise_rule);
  x.assumptions.push_back("collectives: ring model, link efficiency " +
                          detail::four_significant_digits(assume.communication.interconnect_efficiency) + ", network " +
                          detail::four_significant_digits(assume.communication.inter_node_bytes_per_second_per_gpu) +
                          " B/s per GPU across nodes; rank order tp, cp, dp, pp (Megatron-LM)");
  x.assumptions.push_back(
      std::string("not timed: optimizer step, data loading, kernel launches") +
      (w.lora.rank > 0 ? std::string(", the LoRA adapters' own products and elementwise ops") : std::string()));
  if (w.lora.dora)
    x.assumptions.push_back(
        "DoRA: each forward rebuilds every adapted matrix's weight norm from W and B(A(I)) and scales the base and "
        "adapter outputs by the magnitude, timed as memory-bound traffic beside the elementwise ops (training_kernels "
        "dora_layer_traffic); the identity products' FLOPs are not counted");
  return x;
}

}  // namespace fitcheck
