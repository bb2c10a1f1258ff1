// SPDX-License-Identifier: MIT
// What the activation terms of one layer (training_memory_activations.cpp) and of one pipeline
// stage (training_memory_stage.cpp) share: the tokens and widths of this GPU's slice, and the
// term list that sums bytes, the caching allocator's blocks and, when asked, formula text.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "fitcheck/training_memory.hpp"
#include "placement/sharding.hpp"

namespace fitcheck::activations {

using detail::checked_mul;

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
using R = TensorRole;

inline std::string num(std::int64_t value) { return std::to_string(value); }

struct Context {
  std::int64_t tokens = 0;      // b x s/cp on this GPU
  std::int64_t key_length = 0;  // s: every local query attends all keys (eager scores)
  std::int64_t tp = 1;
  bool sequence_parallel = false;
  std::int64_t element = 2;       // activation bytes (Korthikanti: 2)
  std::int64_t matmul_input = 2;  // bytes of a GEMM input saved for the weight gradient (FP8: 1)
  const TrainingWorkload* workload = nullptr;
  // QLoRA where the quantized matmul keeps its input whether or not the weight needs a gradient
  // (bitsandbytes MatMul4Bit under the framework's profile: qlora_saves_base_inputs).
  bool base_inputs_saved = false;
  // The framework's model code (training_framework_profile: fp32_rms_norm_saves, expands_kv_heads,
  // keeps_gated_activation_output).
  bool fp32_rms_norm = false;
  bool expand_kv_heads = false;
  bool keep_gated_activation_output = false;
  bool attention_output_copied = false;
  bool fused_qkv_adapter = false;
  std::int64_t adapter_element = 4;  // bytes of an adapter's output (the framework's adapter dtype)
  // The column-parallel matmuls keep their all-gathered input (sequence_parallel_saves_gathered_inputs).
  bool gathered_matmul_inputs = false;

  // Megatron's selective recompute of this submodule (--recompute-modules; the default: core_attn).
  bool recomputes(bool RecomputeModules::*module) const {
    return workload->recompute == Recompute::selective && workload->recompute_modules.*module;
  }
  bool adapted(R role) const {
    const auto& roles = workload->lora.target_roles;
    return std::find(roles.begin(), roles.end(), role) != roles.end();
  }
  // A GEMM input is kept for its weight's gradient: always in full training; under LoRA only
  // when an adapter reads it (autograd saves mm inputs only for operands that need gradients:
  // pytorch/pytorch#42371, fixed by #45777), and not at all with LoRA dropout.
  bool needed(std::initializer_list<R> consumers) const {
    if (workload->lora.rank == 0 || base_inputs_saved) return true;
    if (workload->lora.dropout) return false;  // adapters read their own dropped copies
    for (R role : consumers)
      if (adapted(role)) return true;
    return false;
  }
};

inline Context make_context(const TrainingWorkload& w) {
  Context c;
  c.workload = &w;
  c.tokens = checked_mul(w.micro_batch_size, ceil_div(w.sequence_tokens, w.context_parallel));
  c.key_length = w.sequence_tokens;
  c.tp = w.layout.tensor_parallel;
  c.sequence_parallel = w.sequence_parallel && c.tp > 1;
  c.element = precision_recipe_info(w.precision).activation_bytes_per_element;
  // Transformer Engine saves the FP8-cast input of each Linear for the weight gradient.
  c.matmul_input = w.precision == PrecisionRecipe::fp8 ? 1 : c.element;
  const TrainingFrameworkProfile& framework = training_framework(w);
  c.base_inputs_saved = w.lora.rank > 0 && w.lora.qlora && framework.qlora_saves_base_inputs;
  c.fp32_rms_norm = framework.fp32_rms_norm_saves;
  c.expand_kv_heads = framework.expands_kv_heads;
  c.keep_gated_activation_output = framework.keeps_gated_activation_output;
  c.attention_output_copied = framework.attention_output_copied;
  c.fused_qkv_adapter = framework.fused_qkv_adapter;
  c.adapter_element = framework.adapter_bytes;
  c.gathered_matmul_inputs = c.sequence_parallel && framework.sequence_parallel_saves_gathered_inputs;
  return c;
}

// Bytes per element one hidden-size norm keeps: its input in the activation dtype, or (an RMSNorm
// that upcasts, as LitGPT's) the fp32 input, plus the fp32 normalized output when the norm weight
// trains (full fine-tuning).
inline std::int64_t norm_saved_bytes(const Context& c, const ModelDescription& model) {
  if (!c.fp32_rms_norm || model.norm != NormKind::rms_norm) return c.element;
  return c.workload->lora.rank == 0 ? 8 : 4;
}

// Text arguments are strings or callables returning one; callables run only when formulas are
// wanted, so the numbers-only path (sweeps, capacity searches) builds no strings.
template <class Text>
std::string text_of(const Text& text) {
  if constexpr (std::is_invocable_v<Text>)
    return text();
  else
    return std::string(text);
}

class Terms {
 public:
  Terms(const Context& c, std::vector<MemoryTerm>* out) : c_(c), out_(out) {}
  // Whole on every tensor-parallel rank; split by tp along the sequence under sequence parallelism.
  template <class Name, class Text>
  void replicated(const Name& name, std::int64_t per_token, const Text& per_token_text) {
    std::int64_t bytes = checked_mul(c_.tokens, per_token);
    if (c_.sequence_parallel) bytes = ceil_div(bytes, c_.tp);
    push(name, bytes, [&] {
      return num(c_.tokens) + " tokens x " + text_of(per_token_text) +
             (c_.sequence_parallel ? " / tp " + num(c_.tp) + " (sequence parallel)" : std::string());
    });
  }
  // A column-parallel block's input: split by tp under sequence parallelism, unless the framework
  // keeps the all-gathered whole (Context::gathered_matmul_inputs).
  template <class Name, class Text>
  void block_input(const Name& name, std::int64_t per_token, const Text& per_token_text) {
    if (!c_.gathered_matmul_inputs) return replicated(name, per_token, per_token_text);
    push(name, checked_mul(c_.tokens, per_token), [&] {
      return num(c_.tokens) + " tokens x " + text_of(per_token_text) + " (all-gathered by sequence parallelism)";
    });
  }
  // Already the width one tensor-parallel rank holds.
  template <class Name, class Text>
  void split(const Name& name, std::int64_t per_token, const Text& per_token_text) {
    push(name, checked_mul(c_.tokens, per_token),
         [&] { return num(c_.tokens) + " tokens x " + text_of(per_token_text); });
  }
  std::int64_t total() const { return total_; }
  // What the caching allocator holds for these tensors (detail::allocator_block_bytes each).
  std::int64_t blocks() const { return blocks_; }
  bool with_text() const { return out_ != nullptr; }

 private:
  template <class Name, class Formula>
  void push(const Name& name, std::int64_t bytes, const Formula& formula) {
    if (bytes == 0) return;
    if (out_) out_->push_back({text_of(name), bytes, formula() + " = " + num(bytes) + " B"});
    total_ += bytes;
    blocks_ += detail::allocator_block_bytes(bytes);
  }
  const Context& c_;
  std::vector<MemoryTerm>* out_;  // null: numbers only
  std::int64_t total_ = 0;
  std::int64_t blocks_ = 0;
};

inline std::string times(std::int64_t width, std::int64_t bytes, const char* what) {
  return num(width) + " " + what + " x " + num(bytes) + " B";
}

// One layer's stored activations; the terms only when `terms` is given; `blocks` adds what the
// caching allocator holds for them.
std::int64_t layer_activation_bytes(const ModelDescription& model, const LayerShape& layer,
                                    const TrainingWorkload& workload, std::vector<MemoryTerm>* terms,
                                    std::int64_t* blocks = nullptr);

}  // namespace fitcheck::activations
