// SPDX-License-Identifier: MIT
// Inference memory per GPU: weights, KV cache, peak prefill activations, logits and overhead.
#include "fitcheck/inference_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "placement/sharding.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string bytes_text(std::int64_t bytes) { return std::to_string(bytes) + " B"; }

void check_workload(const InferenceWorkload& workload) {
  if (workload.batch_size < 1) throw std::invalid_argument("batch size must be at least 1");
  if (workload.context_tokens < 1) throw std::invalid_argument("context length must be at least 1 token");
  if (workload.batch_size > (std::int64_t{1} << 24))
    throw std::invalid_argument("batch size is beyond any real server");
  if (workload.context_tokens > (std::int64_t{1} << 32))
    throw std::invalid_argument("context length is beyond 2^32 tokens");
  if (workload.prefill_chunk_tokens < 0)
    throw std::invalid_argument("prefill chunk must be 0 (whole prompt) or positive");
  if (workload.kv_block_tokens < 0 || workload.kv_block_tokens > 65536)
    throw std::invalid_argument("KV block size must be 0 (exact) or a positive number of tokens up to 65536");
  if (!(workload.gpu_memory_utilization > 0.0 && workload.gpu_memory_utilization <= 1.0))
    throw std::invalid_argument("gpu memory utilization must be in (0, 1]");
  if (workload.framework_overhead_bytes < 0) throw std::invalid_argument("framework overhead cannot be negative");
  if (workload.activation_bytes_per_element < 1 || workload.activation_bytes_per_element > 8)
    throw std::invalid_argument("activation bytes per element must be between 1 and 8");
}

// Live activations of one layer during a prefill step of `tokens` tokens on one tensor-parallel
// rank: the residual stream and the normed input (2 x hidden, kept whole on every rank), plus the
// larger of the attention phase (q, k, v and the attention output, split by tp) and the MLP phase
// (gate, up and their product for gated MLPs; the tokens' top-k experts for MoE). Earlier layers'
// activations are freed in inference, so the peak is one layer's, not a sum.
struct ActivationPeak {
  std::int64_t bytes = 0;
  std::string formula;
};

ActivationPeak layer_activation_peak(const ModelDescription& model, const LayerShape& layer, std::int64_t tokens,
                                     const InferenceWorkload& workload, std::int64_t sequences, bool with_text) {
  const std::int64_t tp = workload.layout.tensor_parallel;
  const std::int64_t element = workload.activation_bytes_per_element;
  const AttentionShape& a = layer.attention;
  const std::int64_t heads = a.num_heads / tp;
  const std::int64_t kv_heads = a.is_multi_latent() ? heads : detail::kv_heads_per_rank(a, tp);
  std::int64_t attention_width =
      layer.has_attention() ? heads * a.head_dim + kv_heads * (a.head_dim + a.value_head_dim) + heads * a.value_head_dim
                            : 0;
  // Mamba-2: in_proj's output (z, x, B, C, dt) and the scan's; Mamba-1 (heads of 1, no groups): x and z, dt,
  // and the scan's output.
  if (layer.is_ssm()) {
    const SsmShape& m = layer.ssm;
    attention_width += (m.inner() + m.conv_channels() + m.num_heads) / tp + m.inner() / tp;
  }
  using detail::checked_product;
  constexpr const char* what = "the activations of this prefill step";
  std::int64_t attention_bytes = checked_product(checked_product(tokens, attention_width, what), element, what);
  std::string attention_formula;
  if (with_text)
    attention_formula = std::to_string(tokens) + " tokens x " + std::to_string(attention_width) +
                        (layer.is_ssm() ? " (Mamba in_proj and scan outputs)" : " (q,k,v,out)");
  if (!workload.flash_attention) {
    // Eager attention materializes scores and softmax probabilities, heads x s x s per sequence.
    const std::int64_t per_sequence = ceil_div(tokens, sequences);
    const std::int64_t attended = a.sliding_window > 0 ? std::min(per_sequence, a.sliding_window) : per_sequence;
    const std::int64_t scores =
        checked_product(checked_product(2 * sequences * heads, per_sequence, what), attended, what);
    attention_bytes = detail::checked_sum(attention_bytes, checked_product(scores, element, what), what);
    if (with_text)
      attention_formula += " + 2 x " + std::to_string(sequences) + " x " + std::to_string(heads) + " heads x " +
                           std::to_string(per_sequence) + " x " + std::to_string(attended) + " (eager scores)";
  }
  std::int64_t mlp_width = 0;
  std::string mlp_formula;
  if (layer.is_moe()) {
    const MoeShape& moe = layer.moe;
    const std::int64_t per_expert =
        (moe.gated ? 3 : 2) * moe.expert_intermediate_size / (workload.layout.expert_parallel > 1 ? 1 : tp);
    const std::int64_t shared =
        (moe.gated ? 3 : 2) * ceil_div(moe.num_shared_experts * moe.shared_expert_intermediate_size, tp);
    mlp_width = moe.experts_per_token * per_expert + shared;
    if (with_text)
      mlp_formula = std::to_string(tokens) + " tokens x (top-" + std::to_string(moe.experts_per_token) + " x " +
                    std::to_string(per_expert) + " + " + std::to_string(shared) + " shared)";
  } else if (layer.mlp.intermediate_size > 0) {
    mlp_width = (layer.mlp.gated ? 3 : 2) * ceil_div(layer.mlp.intermediate_size, tp);
    if (with_text)
      mlp_formula = std::to_string(tokens) + " tokens x " + std::to_string(mlp_width) +
                    (layer.mlp.gated ? " (gate, up, product)" : " (up, activation)");
  }
  const std::int64_t mlp_bytes = checked_product(checked_product(tokens, mlp_width, what), element, what);
  const std::int64_t residual_bytes =
      checked_product(checked_product(tokens, 2 * model.hidden_size, what), element, what);
  ActivationPeak peak;
  peak.bytes = residual_bytes + std::max(attention_bytes, mlp_bytes);
  if (!with_text) return peak;
  peak.formula = "(" + std::to_string(tokens) + " tokens x 2 x " + std::to_string(model.hidden_size) +
                 " residual + max(" + attention_formula + ", " + (mlp_formula.empty() ? "0" : mlp_formula) + ")) x " +
                 std::to_string(element) + " B";
  return peak;
}

}  // namespace

std::vector<WeightTensor> tensors_on_busiest_gpu(const ModelDescription& model,
                                                 const std::vector<WeightTensor>& tensors,
                                                 const ParallelLayout& layout) {
  const detail::StagePlan plan = detail::plan_stages(model, layout);
  return detail::tensors_on_stage(model, tensors, layout, plan,
                                  detail::busiest_weight_stage(model, tensors, layout, plan));
}

LayoutWeights layout_weights(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                             const InferenceWorkload& workload) {
  LayoutWeights weights;
  weights.format = workload.weight_format;
  weights.layout = workload.layout;
  weights.on_gpu = weight_bytes(tensors_on_busiest_gpu(model, tensors, workload.layout), workload.weight_format,
                                workload.weight_options);
  weights.whole_model = weight_bytes(tensors, workload.weight_format, workload.weight_options);
  weights.kv_stage_layers_of_kind = detail::plan_stages(model, workload.layout).busiest_kv_stage_layers_of_kind;
  // Engines load a multimodal checkpoint's towers with the language model, and quantized checkpoints
  // leave them unquantized (AutoAWQ/GPTQ modules_to_not_convert, compressed-tensors ignore lists name
  // the vision tower); vLLM shards its vision encoders over the tensor-parallel ranks (e.g.
  // vllm/model_executor/models/qwen2_5_vl.py Qwen2_5_VisionAttention's QKVParallelLinear).
  weights.encoder_parameters = encoder_parameters(model);
  if (weights.encoder_parameters > 0) {
    const std::int64_t bytes =
        detail::checked_product(weights.encoder_parameters, workload.activation_bytes_per_element, "the encoders");
    weights.encoder_bytes_on_gpu = ceil_div(bytes, workload.layout.tensor_parallel);
  }
  return weights;
}

InferenceMemory inference_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                 const InferenceWorkload& workload) {
  check_workload(workload);
  return inference_memory(model, layout_weights(model, tensors, workload), workload);
}

namespace {

// Every figure of inference_memory(); the terms, formulas and assumptions only when `memory` is given.
InferenceMemoryTotals evaluate(const ModelDescription& model, const LayoutWeights& weights,
                               const InferenceWorkload& workload, InferenceMemory* memory) {
  check_workload(workload);
  const ParallelLayout& layout = workload.layout;
  if (weights.format != workload.weight_format || weights.layout.tensor_parallel != layout.tensor_parallel ||
      weights.layout.pipeline_parallel != layout.pipeline_parallel ||
      weights.layout.expert_parallel != layout.expert_parallel)
    throw std::invalid_argument("layout weights were computed for another format or layout");
  InferenceMemoryTotals totals;
  const bool with_text = memory != nullptr;
  const WeightBytes& local_weights = weights.on_gpu;
  totals.weight_bytes = detail::checked_sum(local_weights.total_bytes, weights.encoder_bytes_on_gpu, "the weights");
  totals.encoder_weight_bytes = weights.encoder_bytes_on_gpu;

  const KvCacheFigure kv =
      weights.kv_stage_layers_of_kind.size() == model.layer_kinds.size()
          ? detail::kv_cache_figure(model, workload, weights.kv_stage_layers_of_kind, with_text)
          : detail::kv_cache_figure(model, workload, detail::plan_stages(model, layout).busiest_kv_stage_layers_of_kind,
                                    with_text);
  totals.kv_cache_bytes = kv.bytes;
  totals.kv_cache_bytes_per_token = kv.bytes_per_token;

  const std::int64_t prefill_tokens =
      workload.prefill_chunk_tokens > 0
          ? std::min(workload.prefill_chunk_tokens, workload.batch_size * workload.context_tokens)
          : workload.batch_size * workload.context_tokens;
  const std::int64_t sequences_in_step =
      std::min(workload.batch_size, ceil_div(prefill_tokens, workload.context_tokens));
  ActivationPeak peak;
  std::size_t peak_kind = model.layer_kinds.size();
  for (std::size_t kind = 0; kind < model.layer_kinds.size(); ++kind) {
    const ActivationPeak candidate = layer_activation_peak(model, model.layer_kinds[kind], prefill_tokens, workload,
                                                           std::max<std::int64_t>(1, sequences_in_step), false);
    if (candidate.bytes > peak.bytes) {
      peak = candidate;
      peak_kind = kind;
    }
  }
  totals.activation_bytes = peak.bytes;

  // Logits are upcast to fp32 before sampling (vLLM's sampler, transformers' generate).
  const std::int64_t vocab_per_rank = ceil_div(model.vocab_size, layout.tensor_parallel);
  const std::int64_t logit_rows = workload.logits_all_positions ? prefill_tokens : workload.batch_size;
  totals.logits_bytes =
      detail::checked_product(detail::checked_product(logit_rows, vocab_per_rank, "the logits"), 4, "the logits");
  totals.overhead_bytes = workload.framework_overhead_bytes;
  totals.total_bytes_per_gpu = 0;
  for (const std::int64_t bytes : {totals.weight_bytes, totals.kv_cache_bytes, totals.activation_bytes,
                                   totals.logits_bytes, totals.overhead_bytes})
    totals.total_bytes_per_gpu = detail::checked_sum(totals.total_bytes_per_gpu, bytes, "the memory per GPU");
  // JavaScript numbers hold integers exactly up to 2^53; beyond, the page would show rounded bytes.
  if (totals.total_bytes_per_gpu > (std::int64_t{1} << 53))
    throw std::overflow_error(
        "the memory per GPU (" + std::to_string(totals.total_bytes_per_gpu) +
        " B) exceeds 2^53 bytes (8 PiB), beyond any machine: reduce batch, context or the model's sizes");
  if (!with_text) return totals;

  InferenceMemory& m = *memory;
  m.totals = totals;
  m.weights_whole_model = weights.whole_model;
  m.kv_cache = kv;
  const auto& format = weight_format_info(workload.weight_format);
  std::string weight_formula =
      std::string(format.id) + ": " + std::to_string(m.weights_whole_model.total_bytes) + " B for the whole model";
  if (layout.tensor_parallel > 1 || layout.pipeline_parallel > 1 || layout.expert_parallel > 1)
    weight_formula += "; this GPU holds its shard of the busiest stage (tp " + std::to_string(layout.tensor_parallel) +
                      ", pp " + std::to_string(layout.pipeline_parallel) + ", ep " +
                      std::to_string(layout.expert_parallel) + ") = " + bytes_text(totals.weight_bytes);
  weight_formula += "; " + detail::two_decimals(local_weights.effective_bits_per_weight) + " bits per weight";
  if (weights.encoder_bytes_on_gpu > 0)
    weight_formula += "; plus the vision/audio encoders and projectors, " + std::to_string(weights.encoder_parameters) +
                      " params x " + std::to_string(workload.activation_bytes_per_element) + " B unquantized" +
                      (layout.tensor_parallel > 1 ? " / tp " + std::to_string(layout.tensor_parallel) : std::string()) +
                      " = " + bytes_text(weights.encoder_bytes_on_gpu);
  std::string kv_formula;
  for (const auto& term : m.kv_cache.terms) kv_formula += (kv_formula.empty() ? "" : " + ") + term.formula;
  // The formula of the peak layer, from the same function that sized it.
  if (peak_kind < model.layer_kinds.size())
    peak = layer_activation_peak(model, model.layer_kinds[peak_kind], prefill_tokens, workload,
                                 std::max<std::int64_t>(1, sequences_in_step), true);

  m.terms = {
      {"weights", totals.weight_bytes, weight_formula},
      {"kv_cache", totals.kv_cache_bytes, kv_formula.empty() ? "no cached layers" : kv_formula},
      {"activations", totals.activation_bytes, "peak of one layer during a prefill step: " + peak.formula},
      {"logits", totals.logits_bytes,
       std::to_string(logit_rows) + (workload.logits_all_positions ? " positions" : " sequences (last position)") +
           " x " + std::to_string(vocab_per_rank) + " vocab entries x 4 B (fp32)"},
      {"overhead", totals.overhead_bytes,
       "framework overhead (CUDA context, library workspaces, allocator reserve): a default you can change"},
  };
  m.assumptions = local_weights.notes;
  if (weights.encoder_bytes_on_gpu > 0)
    m.assumptions.push_back(
        "the checkpoint's vision/audio encoders and projectors are loaded with the language model, unquantized (the "
        "activation dtype) and split over the tensor-parallel ranks as vLLM shards them; with pipeline parallelism "
        "they are counted on the busiest stage (an upper bound); their activations and compute are not included");
  if (layout.pipeline_parallel > 1)
    m.assumptions.push_back(
        "pipeline parallel: weights are those of the stage with the most parameters and the KV cache "
        "that of the stage with the most cached values; together an upper bound");
  if (workload.prefill_chunk_tokens == 0 && workload.batch_size > 1)
    m.assumptions.push_back(
        "activations assume the whole batch is prefilled in one step; serving engines bound the "
        "tokens per step (set a prefill chunk)");
  return totals;
}

}  // namespace

InferenceMemoryTotals inference_memory_totals(const ModelDescription& model, const LayoutWeights& weights,
                                              const InferenceWorkload& workload) {
  return evaluate(model, weights, workload, nullptr);
}

InferenceMemory inference_memory(const ModelDescription& model, const LayoutWeights& weights,
                                 const InferenceWorkload& workload) {
  InferenceMemory memory;
  evaluate(model, weights, workload, &memory);
  return memory;
}

}  // namespace fitcheck
