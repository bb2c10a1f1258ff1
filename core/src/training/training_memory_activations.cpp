// SPDX-License-Identifier: MIT
// Activations stored for the backward pass, per layer from the model's real shapes, generalizing
// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models" §4.1:
// a GPT layer with 16-bit activations and dropout stores s·b·h·(34 + 5·a·s/h) bytes. Each term
// below is one tensor autograd keeps; the comment names its Korthikanti counterpart.
#include <algorithm>
#include <type_traits>

#include "fitcheck/training_memory.hpp"
#include "placement/sharding.hpp"

namespace fitcheck {
namespace {

using detail::checked_mul;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
using R = TensorRole;

std::string num(std::int64_t value) { return std::to_string(value); }

struct Context {
  std::int64_t tokens = 0;      // b x s/cp on this GPU
  std::int64_t key_length = 0;  // s: every local query attends all keys (eager scores)
  std::int64_t tp = 1;
  bool sequence_parallel = false;
  std::int64_t element = 2;       // activation bytes (Korthikanti: 2)
  std::int64_t matmul_input = 2;  // bytes of a GEMM input saved for the weight gradient (FP8: 1)
  const TrainingWorkload* workload = nullptr;

  bool adapted(R role) const {
    const auto& roles = workload->lora.target_roles;
    return std::find(roles.begin(), roles.end(), role) != roles.end();
  }
  // A GEMM input is kept for its weight's gradient: always in full training; under LoRA only
  // when an adapter reads it (autograd saves mm inputs only for operands that need gradients:
  // pytorch/pytorch#42371, fixed by #45777), and not at all with LoRA dropout.
  bool needed(std::initializer_list<R> consumers) const {
    if (workload->lora.rank == 0) return true;
    if (workload->lora.dropout) return false;  // adapters read their own dropped copies
    for (R role : consumers)
      if (adapted(role)) return true;
    return false;
  }
};

Context make_context(const TrainingWorkload& w) {
  Context c;
  c.workload = &w;
  c.tokens = checked_mul(w.micro_batch_size, ceil_div(w.sequence_tokens, w.context_parallel));
  c.key_length = w.sequence_tokens;
  c.tp = w.layout.tensor_parallel;
  c.sequence_parallel = w.sequence_parallel && c.tp > 1;
  c.element = precision_recipe_info(w.precision).activation_bytes_per_element;
  // Transformer Engine saves the FP8-cast input of each Linear for the weight gradient.
  c.matmul_input = w.precision == PrecisionRecipe::fp8 ? 1 : c.element;
  return c;
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

std::string times(std::int64_t width, std::int64_t bytes, const char* what) {
  return num(width) + " " + what + " x " + num(bytes) + " B";
}

// Softmax-side terms of one attention block with `heads` heads on this rank.
void add_core_attention(Terms& t, const Context& c, std::int64_t heads, std::int64_t value_width) {
  const TrainingWorkload& w = *c.workload;
  // Korthikanti §5: recompute QK^T, softmax, dropout, attention over V. With flash attention those
  // s x s tensors are never stored, so Megatron's 'selective' keeps what 'none' keeps.
  if (w.recompute == Recompute::selective && !w.flash_attention) return;
  if (w.flash_attention) {
    // FlashAttention-2 (Dao 2023, Algorithm 1) keeps one fp32 log-sum-exp per head and query
    // instead of the s x s probabilities, and regenerates dropout masks from the RNG state.
    t.split("softmax log-sum-exp (flash attention, fp32)", heads * 4, [&] { return times(heads, 4, "heads"); });
    // Its backward also reads the output O; in bf16 O is the output projection's saved input.
    if (c.matmul_input != c.element || !c.needed({R::attention_output}))
      t.split("attention output kept by flash attention", value_width * c.element,
              [&] { return times(value_width, c.element, "wide"); });
    return;
  }
  const std::int64_t scores = checked_mul(heads, c.key_length);
  const auto text = [&] { return num(heads) + " heads x " + num(c.key_length) + " keys x "; };
  t.split("softmax output (2as^2b)", checked_mul(scores, c.element), [&] { return text() + num(c.element) + " B"; });
  if (w.dropout) {
    t.split("softmax dropout mask (as^2b)", scores, [&] { return text() + "1 B"; });
    t.split("softmax dropout output (2as^2b)", checked_mul(scores, c.element),
            [&] { return text() + num(c.element) + " B"; });
  }
}

// Returns whether the block's input (the norm output) was stored.
bool add_attention(Terms& t, const Context& c, const ModelDescription& model, const AttentionShape& a) {
  const std::int64_t h = model.hidden_size;
  const std::int64_t heads = a.num_heads / c.tp;
  const std::int64_t e = c.element;
  bool input_stored = false;
  if (a.is_multi_latent()) {
    // DeepSeek-V2 §2.1: down-projections are replicated across tp, their latents kept whole.
    const R query_first = a.q_lora_rank > 0 ? R::attention_query_down : R::attention_query;
    if (c.needed({query_first, R::attention_kv_down})) {
      t.replicated("attention input (norm output)", h * c.matmul_input,
                   [&] { return times(h, c.matmul_input, "hidden"); });
      input_stored = true;
    }
    if (a.q_lora_rank > 0) {
      t.replicated("q latent norm input", a.q_lora_rank * e, [&] { return times(a.q_lora_rank, e, "q_lora_rank"); });
      if (c.needed({R::attention_query}))
        t.replicated("q up-projection input", a.q_lora_rank * c.matmul_input,
                     [&] { return times(a.q_lora_rank, c.matmul_input, "q_lora_rank"); });
    }
    t.replicated("kv latent norm input", a.kv_lora_rank * e, [&] { return times(a.kv_lora_rank, e, "kv_lora_rank"); });
    if (c.needed({R::attention_kv_up}))
      t.replicated("kv up-projection input", a.kv_lora_rank * c.matmul_input,
                   [&] { return times(a.kv_lora_rank, c.matmul_input, "kv_lora_rank"); });
    t.split("q and k (4sbh)", 2 * heads * a.head_dim * e,
            [&] { return "2 x " + num(heads) + " heads x " + num(a.head_dim) + " x " + num(e) + " B"; });
    t.split("v (2sbh)", heads * a.value_head_dim * e,
            [&] { return num(heads) + " heads x " + num(a.value_head_dim) + " x " + num(e) + " B"; });
  } else {
    if (c.needed({R::attention_query, R::attention_key, R::attention_value})) {
      t.replicated("q/k/v input (norm output, 2sbh)", h * c.matmul_input,
                   [&] { return times(h, c.matmul_input, "hidden"); });
      input_stored = true;
    }
    // Eager attention in transformers repeats grouped k/v heads (repeat_kv) before the matmuls,
    // which then save the repeated copies; flash kernels read the grouped heads directly.
    const std::int64_t kv = c.workload->flash_attention ? detail::kv_heads_per_rank(a, c.tp) : heads;
    t.split("q and k (4sbh)", (heads + kv) * a.head_dim * e, [&] {
      return num(heads + kv) + " heads (" + num(heads) + " q + " + num(kv) + " k) x " + num(a.head_dim) + " x " +
             num(e) + " B";
    });
    t.split("v (2sbh)", kv * a.value_head_dim * e,
            [&] { return num(kv) + " heads x " + num(a.value_head_dim) + " x " + num(e) + " B"; });
    if (a.query_norm_size > 0)
      t.split("q norm input", heads * a.head_dim * e, [&] { return times(heads * a.head_dim, e, "wide"); });
    if (a.key_norm_size > 0)
      t.split("k norm input", kv * a.head_dim * e, [&] { return times(kv * a.head_dim, e, "wide"); });
  }
  const std::int64_t value_width = heads * a.value_head_dim;
  add_core_attention(t, c, heads, value_width);
  if (c.needed({R::attention_output}))
    t.split("output projection input (2sbh)", value_width * c.matmul_input,
            [&] { return times(value_width, c.matmul_input, "wide"); });
  if (c.workload->dropout)
    t.replicated("attention residual dropout mask (sbh)", h, [&] { return times(h, 1, "hidden"); });
  return input_stored;
}

void add_mlp(Terms& t, const Context& c, const ModelDescription& model, const LayerShape& layer, bool input_shared) {
  const std::int64_t h = model.hidden_size;
  const std::int64_t e = c.element;
  const auto input = [&](std::initializer_list<R> consumers) {
    if (!input_shared && c.needed(consumers))
      t.replicated("MLP input (norm output, 2sbh)", h * c.matmul_input,
                   [&] { return times(h, c.matmul_input, "hidden"); });
  };
  // Gated MLPs keep gate and up outputs (the activation's inputs, as Megatron's fused SwiGLU
  // does); Korthikanti's GeLU input is the one-branch case (8sbh at 4h wide).
  const auto branch = [&](const char* what, std::int64_t width, bool gated, bool split_by_tp, std::int64_t copies,
                          std::initializer_list<R> down) {
    const std::int64_t inputs = (gated ? 2 : 1) * copies * width;
    const auto text = [&] {
      return (copies > 1 ? num(copies) + " experts x " : std::string()) + (gated ? "2 x " : "") + num(width);
    };
    const char* label = std::string_view(what) == "MLP" ? " (8sbh)" : "";  // Korthikanti's GeLU input and output at 4h
    if (split_by_tp)
      t.split([&] { return what + std::string(" activation inputs") + label; }, inputs * e,
              [&] { return text() + " x " + num(e) + " B"; });
    else
      t.replicated([&] { return what + std::string(" activation inputs"); }, inputs * e,
                   [&] { return text() + " x " + num(e) + " B"; });
    if (c.needed(down)) {
      const auto down_text = [&] {
        return (copies > 1 ? num(copies) + " x " : std::string()) + num(width) + " x " + num(c.matmul_input) + " B";
      };
      if (split_by_tp)
        t.split([&] { return what + std::string(" down-projection input") + label; }, copies * width * c.matmul_input,
                down_text);
      else
        t.replicated([&] { return what + std::string(" down-projection input"); }, copies * width * c.matmul_input,
                     down_text);
    }
  };
  if (layer.is_moe()) {
    const MoeShape& moe = layer.moe;
    const std::int64_t ep = c.workload->layout.expert_parallel;
    const std::int64_t k = moe.experts_per_token;
    input({R::router, R::shared_expert_gate, R::shared_expert_up});
    // Router probabilities in fp32 (transformers' Mixtral: softmax(..., dtype=float)).
    t.replicated("router probabilities (fp32)", moe.num_experts * 4,
                 [&] { return times(moe.num_experts, 4, "experts"); });
    if (c.needed({R::expert_gate, R::expert_up}))
      t.replicated("dispatched expert inputs", k * h * c.matmul_input,
                   [&] { return num(k) + " x " + times(h, c.matmul_input, "hidden"); });
    // With ep > 1 experts are whole on each rank (tensors_on_busiest_gpu) and sequence parallelism
    // splits their tokens; with ep == 1 they are split by tp like a dense MLP.
    const std::int64_t width = ep > 1 ? moe.expert_intermediate_size : ceil_div(moe.expert_intermediate_size, c.tp);
    branch("routed expert", width, moe.gated, ep == 1, k, {R::expert_down});
    t.replicated("expert outputs (for the weighted combine)", k * h * e,
                 [&] { return num(k) + " x " + times(h, e, "hidden"); });
    if (moe.num_shared_experts > 0)
      branch("shared expert", ceil_div(moe.num_shared_experts * moe.shared_expert_intermediate_size, c.tp), moe.gated,
             true, 1, {R::shared_expert_down});
  } else if (layer.mlp.intermediate_size > 0) {
    input({R::mlp_gate, R::mlp_up});
    branch("MLP", ceil_div(layer.mlp.intermediate_size, c.tp), layer.mlp.gated, true, 1, {R::mlp_down});
  } else {
    return;
  }
  if (c.workload->dropout) t.replicated("MLP residual dropout mask (sbh)", h, [&] { return times(h, 1, "hidden"); });
}

// Rank-r outputs A·x of every adapted matmul, kept for B's gradient. With LoRA dropout (PEFT's
// lora_dropout, default 0) each adapter also keeps its own dropped copy of the input and the mask.
void add_lora(Terms& t, const Context& c, const ModelDescription& model, const LayerShape& layer) {
  const std::int64_t r = c.workload->lora.rank;
  if (r == 0) return;
  const AttentionShape& a = layer.attention;
  const std::int64_t h = model.hidden_size;
  std::int64_t count = 0, input_width = 0;
  const auto adapter = [&](R role, std::int64_t copies, std::int64_t in_width) {
    if (!c.adapted(role)) return;
    count += copies;
    input_width += copies * in_width;
  };
  const std::int64_t blocks = a.cross_attention ? 2 : 1;
  const std::int64_t value_width = a.num_heads / c.tp * a.value_head_dim;
  if (a.is_multi_latent()) {
    if (a.q_lora_rank > 0) adapter(R::attention_query_down, 1, h);
    adapter(R::attention_query, 1, a.q_lora_rank > 0 ? a.q_lora_rank : h);
    adapter(R::attention_kv_down, 1, h);
    adapter(R::attention_kv_up, 1, a.kv_lora_rank);
  } else {
    for (R role : {R::attention_query, R::attention_key, R::attention_value}) adapter(role, blocks, h);
  }
  adapter(R::attention_output, blocks, value_width);
  if (layer.is_moe()) {
    const MoeShape& moe = layer.moe;
    const std::int64_t k = moe.experts_per_token;
    const std::int64_t width = c.workload->layout.expert_parallel > 1 ? moe.expert_intermediate_size
                                                                      : ceil_div(moe.expert_intermediate_size, c.tp);
    if (moe.gated) adapter(R::expert_gate, k, h);
    adapter(R::expert_up, k, h);
    adapter(R::expert_down, k, width);
    if (moe.num_shared_experts > 0) {
      if (moe.gated) adapter(R::shared_expert_gate, 1, h);
      adapter(R::shared_expert_up, 1, h);
      adapter(R::shared_expert_down, 1, ceil_div(moe.num_shared_experts * moe.shared_expert_intermediate_size, c.tp));
    }
  } else if (layer.mlp.intermediate_size > 0) {
    if (layer.mlp.gated) adapter(R::mlp_gate, 1, h);
    adapter(R::mlp_up, 1, h);
    adapter(R::mlp_down, 1, ceil_div(layer.mlp.intermediate_size, c.tp));
  }
  if (count == 0) return;
  t.split("LoRA A outputs", count * r * c.element,
          [&] { return num(count) + " adapted matmuls x rank " + num(r) + " x " + num(c.element) + " B"; });
  if (c.workload->lora.dropout)
    t.split("LoRA dropout (dropped inputs and masks)", input_width * (c.element + 1),
            [&] { return num(input_width) + " adapter input features x (" + num(c.element) + " B + 1 B mask)"; });
}

// torchtitan's per-op selective checkpointing (selective_ac_option 'op'): the block's input, the
// outputs of the odd-numbered matmuls in call order (the mm counter marks every second one
// PREFER_RECOMPUTE) and SDPA's output with its log-sum-exp; everything else is recomputed
// (pytorch/torchtitan 9dec370 torchtitan/parallelisms/parallelize_llama.py _save_list l.214-223,
// _custom_policy; HEAD distributed/activation_checkpoint.py SelectiveAC._wrap_block l.185-285).
void add_selective_op(Terms& t, const Context& c, const ModelDescription& model, const LayerShape& layer) {
  const std::int64_t h = model.hidden_size, e = c.element;
  const AttentionShape& a = layer.attention;
  const std::int64_t heads = a.num_heads / c.tp;
  const std::int64_t kv = a.is_multi_latent() ? heads : detail::kv_heads_per_rank(a, c.tp);
  t.replicated("block input (checkpoint)", h * e, [&] { return times(h, e, "hidden"); });
  struct Matmul {
    const char* name;
    std::int64_t width;
    bool split;  // column-parallel output (split by tp); row-parallel outputs are whole rows
  };
  std::vector<Matmul> order = {{"wq output", heads * a.head_dim, true},
                               {"wk output", kv * a.head_dim, true},
                               {"wv output", kv * a.value_head_dim, true},
                               {"wo output", h, false}};
  if (layer.is_moe()) {
    const MoeShape& moe = layer.moe;
    const std::int64_t width =
        moe.experts_per_token * moe.expert_intermediate_size / (c.workload->layout.expert_parallel > 1 ? 1 : c.tp);
    if (moe.gated) order.push_back({"expert w1 outputs", width, true});
    order.push_back({"expert w3 outputs", width, true});
    order.push_back({"expert w2 outputs", moe.experts_per_token * h, false});
  } else if (layer.mlp.intermediate_size > 0) {
    const std::int64_t width = ceil_div(layer.mlp.intermediate_size, c.tp);
    if (layer.mlp.gated) order.push_back({"w1 output", width, true});
    order.push_back({"w3 output", width, true});
    order.push_back({"w2 output", h, false});
  }
  for (std::size_t i = 0; i < order.size(); i += 2) {  // matmuls 1, 3, 5, ... are saved
    const Matmul& m = order[i];
    const auto text = [&] {
      return times(m.width, e, "wide") + " (matmul " + num(static_cast<std::int64_t>(i) + 1) + ")";
    };
    if (m.split)
      t.split(m.name, m.width * e, text);
    else
      t.replicated(m.name, m.width * e, text);
  }
  t.split("SDPA output and log-sum-exp", heads * a.value_head_dim * e + heads * 4,
          [&] { return times(heads * a.value_head_dim, e, "wide") + " + " + times(heads, 4, "heads"); });
}

// One layer's stored activations; the terms only when `terms` is given; `blocks` adds what the
// caching allocator holds for them.
std::int64_t layer_activation_bytes(const ModelDescription& model, const LayerShape& layer,
                                    const TrainingWorkload& workload, std::vector<MemoryTerm>* terms,
                                    std::int64_t* blocks = nullptr) {
  const Context c = make_context(workload);
  Terms t(c, terms);
  const std::int64_t h = model.hidden_size;
  if (workload.recompute == Recompute::full) {
    // Korthikanti Table 2, full recomputation: only the layer input (2sbh) is kept.
    t.replicated("layer input (checkpoint, 2sbh)", h * c.element, [&] { return times(h, c.element, "hidden"); });
    if (blocks) *blocks += t.blocks();
    return t.total();
  }
  if (workload.recompute == Recompute::selective_op) {
    add_selective_op(t, c, model, layer);
    if (blocks) *blocks += t.blocks();
    return t.total();
  }
  // Each norm keeps its input (Korthikanti: 2 x 2sbh). Parallel blocks feed both norms one tensor.
  const std::int64_t norms = layer.parallel_attention_mlp ? 1 : layer.hidden_norms;
  t.replicated("norm inputs (4sbh)", norms * h * c.element,
               [&] { return num(norms) + " x " + times(h, c.element, "hidden"); });
  bool input_stored = add_attention(t, c, model, layer.attention);
  if (layer.attention.cross_attention) {
    // Cross-attention approximated as a second attention block over the same sequence length.
    t.replicated("cross-attention norm input", h * c.element, [&] { return times(h, c.element, "hidden"); });
    add_attention(t, c, model, layer.attention);
  }
  const bool shared_input = layer.parallel_attention_mlp && layer.hidden_norms == 1 && input_stored;
  add_mlp(t, c, model, layer, shared_input);
  add_lora(t, c, model, layer);
  if (blocks) *blocks += t.blocks();
  return t.total();
}

}  // namespace

LayerActivations layer_activations(const ModelDescription& model, const LayerShape& layer,
                                   const TrainingWorkload& workload) {
  LayerActivations out;
  out.bytes = layer_activation_bytes(model, layer, workload, &out.terms);
  return out;
}

namespace detail {

// PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp, pytorch 001074d2): every request
// rounds up to 512 B (kMinBlockSize); a request of 10 MiB (kMinLargeAlloc) or more gets its own
// segment rounded up to 2 MiB (kRoundLarge), whose tail below 1 MiB (kSmallSize) is not split off.
// Smaller requests are carved from shared 2 MiB / 20 MiB segments, so only their 512 B rounding stays.
std::int64_t allocator_block_bytes(std::int64_t bytes) {
  constexpr std::int64_t kMinBlock = 512, kRoundLarge = 2 << 20, kMinLargeAlloc = 10 << 20;
  if (bytes <= 0) return 0;
  if (bytes >= kMinLargeAlloc) return ceil_div(bytes, kRoundLarge) * kRoundLarge;
  return ceil_div(bytes, kMinBlock) * kMinBlock;
}

std::vector<StageLayerKind> stage_layer_kinds(const ModelDescription& model, std::int64_t first_layer,
                                              std::int64_t end_layer) {
  std::vector<StageLayerKind> kinds;
  for (std::int64_t i = first_layer; i < end_layer; ++i) {
    const std::size_t kind = model.layer_kind_of_layer[static_cast<std::size_t>(i)];
    const auto at = std::lower_bound(kinds.begin(), kinds.end(), kind,
                                     [](const StageLayerKind& k, std::size_t wanted) { return k.kind < wanted; });
    if (at != kinds.end() && at->kind == kind)
      at->layers += 1;
    else
      kinds.insert(at, {kind, 1});
  }
  return kinds;
}

StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   std::int64_t first_layer, std::int64_t end_layer, std::int64_t stage) {
  return stage_activations(model, workload, stage_layer_kinds(model, first_layer, end_layer), stage, true);
}

StageActivations stage_activations(const ModelDescription& model, const TrainingWorkload& workload,
                                   const std::vector<StageLayerKind>& kinds, std::int64_t stage, bool with_text) {
  StageActivations out;
  const std::int64_t pp = workload.layout.pipeline_parallel;
  const std::int64_t v = workload.virtual_pipeline_stages;
  const std::int64_t m = workload.micro_batches_per_step;

  // Which layers keep only their input. Megatron --recompute-method uniform with num_layers k:
  // every group of k layers keeps its first input and is recomputed whole; block: the first k
  // layers of the stage recompute and the rest keep everything (transformer_config.py l.543-555).
  // torchtitan selective_ac_option N: every N-th block is wrapped in full AC (9dec370
  // parallelize_llama.py l.276-283). Other modes apply to every layer alike.
  std::int64_t stage_layers = 0;
  for (const StageLayerKind& k : kinds) stage_layers += k.layers;
  TrainingWorkload kept = workload;  // the layers that keep their activations
  std::int64_t checkpointed = 0, checkpoints = 0, recomputed_together = 1;
  if (workload.recompute == Recompute::full) {
    kept.recompute = Recompute::none;
    const std::int64_t k = std::max<std::int64_t>(1, workload.recompute_num_layers);
    if (workload.recompute_method == RecomputeMethod::block) {
      checkpointed = std::min(k, stage_layers);
      checkpoints = checkpointed;
    } else {
      checkpointed = stage_layers;
      checkpoints = ceil_div(stage_layers, k);
      recomputed_together = std::min(k, stage_layers);
    }
  } else if (workload.recompute == Recompute::selective_layer) {
    kept.recompute = Recompute::none;
    checkpointed = stage_layers / std::max<std::int64_t>(1, workload.recompute_frequency);
    checkpoints = checkpointed;
  }
  TrainingWorkload input_only = workload;
  input_only.recompute = Recompute::full;

  // Kinds ascend; the heaviest is the first of the largest.
  std::int64_t kept_bytes = 0, input_bytes = 0, heaviest_bytes = -1, kept_blocks = 0, input_blocks = 0;
  std::size_t heaviest = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const LayerShape& layer = model.layer_kinds[kinds[i].kind];
    std::int64_t blocks = 0;
    const std::int64_t bytes = layer_activation_bytes(model, layer, kept, nullptr, &blocks);
    kept_bytes += kinds[i].layers * bytes;
    kept_blocks += kinds[i].layers * blocks;
    if (checkpointed > 0) {
      std::int64_t input_block = 0;
      input_bytes += kinds[i].layers * layer_activation_bytes(model, layer, input_only, nullptr, &input_block);
      input_blocks += kinds[i].layers * input_block;
    }
    if (bytes > heaviest_bytes) {
      heaviest_bytes = bytes;
      heaviest = i;
    }
  }
  // Mixed stages: the average layer of each kind mix (kinds share the stage in proportion).
  std::int64_t layer_bytes = kept_bytes, layer_blocks = kept_blocks;
  if (checkpointed > 0 && stage_layers > 0) {
    layer_bytes = ceil_div(checked_mul(checkpoints, input_bytes), stage_layers) +
                  ceil_div(checked_mul(stage_layers - checkpointed, kept_bytes), stage_layers);
    layer_blocks = ceil_div(checked_mul(checkpoints, input_blocks), stage_layers) +
                   ceil_div(checked_mul(stage_layers - checkpointed, kept_blocks), stage_layers);
  }
  if (with_text && !kinds.empty())
    layer_activation_bytes(model, model.layer_kinds[kinds[heaviest].kind], workload, &out.heaviest_layer_terms);

  // 1F1B (Narayanan et al. 2021 §2.2): stage s holds pp - s micro-batches in flight. Interleaved
  // with v chunks, Megatron-LM's schedule warms up 2(pp - s - 1) + (v - 1)pp chunks, so the first
  // stage holds L(1 + (pp - 1)/(pp v)) layers of activations (Korthikanti et al. 2022 §4.2.3).
  const auto per_layer_text = [&] {
    if (checkpointed > 0)
      return num(checkpoints) + " checkpointed layer inputs (" +
             num(input_bytes / std::max<std::int64_t>(1, stage_layers)) + " B each on average) + " +
             num(stage_layers - checkpointed) + " layers keeping everything (" +
             num(kept_bytes / std::max<std::int64_t>(1, stage_layers)) + " B each on average)";
    std::string text;
    for (const StageLayerKind& k : kinds)
      text += (text.empty() ? "" : " + ") + num(k.layers) + " layers x " +
              num(layer_activation_bytes(model, model.layer_kinds[k.kind], workload, nullptr)) + " B";
    return text;
  };
  std::int64_t bytes = 0, blocks = 0;
  std::int64_t chunks = 0;
  if (v == 1) {
    out.in_flight = pp - stage;
    if (m > 0) out.in_flight = std::min(out.in_flight, m);
    bytes = checked_mul(out.in_flight, layer_bytes);
    blocks = checked_mul(out.in_flight, layer_blocks);
  } else {
    chunks = 2 * (pp - stage - 1) + (v - 1) * pp + 1;
    if (m > 0) chunks = std::min(chunks, m * v);
    out.in_flight = ceil_div(chunks, v);
    bytes = ceil_div(checked_mul(chunks, layer_bytes), v);
    blocks = ceil_div(checked_mul(chunks, layer_blocks), v);
  }
  if (with_text) {
    const std::string formula =
        v == 1 ? num(out.in_flight) + (out.in_flight == 1 ? " micro-batch" : " micro-batches") + " in flight x (" +
                     per_layer_text() + ")"
               : num(chunks) + " model chunks in flight x (" + per_layer_text() + ") / " + num(v) + " chunks per stage";
    out.terms.push_back({"layer activations", bytes, formula + " = " + num(bytes) + " B"});
  }
  out.bytes += bytes;
  out.allocator_blocks += blocks;

  const bool rebuilds = workload.recompute == Recompute::full || workload.recompute == Recompute::selective_op ||
                        (workload.recompute == Recompute::selective_layer && checkpointed > 0);
  if (rebuilds && !kinds.empty()) {
    // Recomputing rebuilds a layer's (a uniform group's) full activations for one micro-batch
    // (Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost); per-op selective
    // checkpointing rebuilds what it did not save.
    TrainingWorkload single = workload;
    single.recompute = Recompute::none;
    std::int64_t working = 0;
    for (const StageLayerKind& k : kinds) {
      const LayerShape& layer = model.layer_kinds[k.kind];
      std::int64_t rebuilt = layer_activation_bytes(model, layer, single, nullptr);
      if (workload.recompute == Recompute::selective_op)
        rebuilt = std::max<std::int64_t>(0, rebuilt - layer_activation_bytes(model, layer, workload, nullptr));
      working = std::max(working, rebuilt);
    }
    working = checked_mul(working, recomputed_together);
    if (with_text)
      out.terms.push_back({"recomputed layer", working,
                           (recomputed_together > 1 ? num(recomputed_together) + " layers' (one uniform group's)"
                                                    : std::string("one layer's")) +
                               " activations rebuilt during backward = " + num(working) + " B"});
    out.bytes += working;
    out.allocator_blocks += detail::allocator_block_bytes(working);
  }

  const Context c = make_context(workload);
  const std::int64_t h = model.hidden_size;
  std::vector<MemoryTerm> lines;
  std::vector<MemoryTerm>* text_lines = with_text ? &lines : nullptr;
  if (stage == 0 && workload.dropout) {
    // Korthikanti §4.3: the input embedding's dropout mask, per micro-batch in flight. The
    // embedding output itself is the first layer's input, counted with that layer.
    Terms t(c, text_lines);
    t.replicated("embedding", h, [&] { return times(h, 1, "hidden") + " dropout mask"; });
    const std::int64_t emb = checked_mul(t.total(), out.in_flight);
    out.allocator_blocks += checked_mul(t.blocks(), out.in_flight);
    if (with_text)
      out.terms.push_back({"embedding dropout mask", emb, num(out.in_flight) + " x (" + lines.front().formula + ")"});
    out.bytes += emb;
    lines.clear();
  }
  if (stage == pp - 1) {
    // Korthikanti §4.3: final norm (2sbh), output projection input (2sbh), and the logits and
    // cross-entropy buffers as the framework's loss holds them (vocabulary split by tp).
    Terms t(c, text_lines);
    const std::int64_t norms = std::max<std::int64_t>(1, model.final_norms);
    t.replicated("final norm input", norms * h * c.element,
                 [&] { return num(norms) + " x " + times(h, c.element, "hidden"); });
    const bool head_trainable = workload.lora.rank == 0;
    if (head_trainable)
      t.replicated("lm_head input", h * c.matmul_input, [&] { return times(h, c.matmul_input, "hidden"); });
    const std::int64_t vocab = ceil_div(model.vocab_size, c.tp);
    // The framework's loss: what its logits, their fp32 copy, the saved softmax and the gradient
    // hold per logit element at the loss's peak (training_framework_profile, with sources).
    const TrainingFrameworkProfile& framework = training_framework(workload);
    const std::int64_t per_logit = framework.loss_bytes_per_logit;
    t.split([&] { return std::string("logits and cross-entropy (") + framework.id + " loss)"; }, vocab * per_logit,
            [&] {
              return num(vocab) + " vocab entries x " + num(per_logit) + " B" +
                     (c.tp > 1 ? " (vocabulary split by tp)" : "") + ": " + framework.loss_rule;
            });
    out.bytes += t.total();
    out.allocator_blocks += t.blocks();
    for (auto& line : lines) out.terms.push_back(std::move(line));
  }
  return out;
}

}  // namespace detail
}  // namespace fitcheck
