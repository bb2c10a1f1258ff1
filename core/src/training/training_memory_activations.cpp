// SPDX-License-Identifier: MIT
// Activations stored for the backward pass, per layer from the model's real shapes, generalizing
// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models" §4.1:
// a GPT layer with 16-bit activations and dropout stores s·b·h·(34 + 5·a·s/h) bytes. Each term
// below is one tensor autograd keeps; the comment names its Korthikanti counterpart.
#include <algorithm>

#include "training/activation_terms.hpp"

namespace fitcheck {
namespace activations {
namespace {

// Softmax-side terms of one attention block with `heads` heads on this rank.
void add_core_attention(Terms& t, const Context& c, std::int64_t heads, std::int64_t value_width) {
  const TrainingWorkload& w = *c.workload;
  // Korthikanti §5: recompute QK^T, softmax, dropout, attention over V. With flash attention those
  // s x s tensors are never stored, so Megatron's 'selective' keeps what 'none' keeps.
  if (c.recomputes(&RecomputeModules::core_attn) && !w.flash_attention) return;
  if (w.flash_attention) {
    // FlashAttention-2 (Dao 2023, Algorithm 1) keeps one fp32 log-sum-exp per head and query
    // instead of the s x s probabilities, and regenerates dropout masks from the RNG state.
    t.split("softmax log-sum-exp (flash attention, fp32)", heads * 4, [&] { return times(heads, 4, "heads"); });
    // Its backward also reads the output O; in bf16 O is the output projection's saved input.
    // LitGPT's projection reads a reshaped copy of it (attention_output_copied): both are kept.
    if (c.matmul_input != c.element || !c.needed({R::attention_output}) || c.attention_output_copied)
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
    // Megatron's MLA layer norm is a module of its own (gpt_layer_specs.py: input_layernorm is a
    // TENorm beside the plain down-projection linears), so 'layernorm' discards its output.
    const R query_first = a.q_lora_rank > 0 ? R::attention_query_down : R::attention_query;
    if (c.needed({query_first, R::attention_kv_down}) && !c.recomputes(&RecomputeModules::layernorm)) {
      t.block_input("attention input (norm output)", h * c.matmul_input,
                    [&] { return times(h, c.matmul_input, "hidden"); });
      input_stored = true;
    }
    // 'mla_up_proj' (multi_latent_attention.py qkv_up_proj_and_rope_apply under CheckpointWithoutOutput)
    // keeps the latents and discards what the up-projections (their fused latent norms inside) and RoPE
    // make from them.
    const bool up_projections_recomputed = c.recomputes(&RecomputeModules::mla_up_proj);
    if (a.q_lora_rank > 0) {
      t.replicated("q latent norm input", a.q_lora_rank * e, [&] { return times(a.q_lora_rank, e, "q_lora_rank"); });
      if (c.needed({R::attention_query}) && !up_projections_recomputed)
        t.replicated("q up-projection input", a.q_lora_rank * c.matmul_input,
                     [&] { return times(a.q_lora_rank, c.matmul_input, "q_lora_rank"); });
    }
    t.replicated("kv latent norm input", a.kv_lora_rank * e, [&] { return times(a.kv_lora_rank, e, "kv_lora_rank"); });
    if (!up_projections_recomputed) {
      if (c.needed({R::attention_kv_up}))
        t.replicated("kv up-projection input", a.kv_lora_rank * c.matmul_input,
                     [&] { return times(a.kv_lora_rank, c.matmul_input, "kv_lora_rank"); });
      t.split("q and k (4sbh)", 2 * heads * a.head_dim * e,
              [&] { return "2 x " + num(heads) + " heads x " + num(a.head_dim) + " x " + num(e) + " B"; });
      t.split("v (2sbh)", heads * a.value_head_dim * e,
              [&] { return num(heads) + " heads x " + num(a.value_head_dim) + " x " + num(e) + " B"; });
    }
  } else {
    if (c.needed({R::attention_query, R::attention_key, R::attention_value})) {
      t.block_input("q/k/v input (norm output, 2sbh)", h * c.matmul_input,
                    [&] { return times(h, c.matmul_input, "hidden"); });
      input_stored = true;
    }
    // Eager attention in transformers repeats grouped k/v heads (repeat_kv) before the matmuls,
    // which then save the repeated copies; flash kernels read the grouped heads directly.
    // LitGPT expands them itself before SDPA (expand_kv_heads), so its flash kernel saves the copies.
    const std::int64_t kv =
        c.workload->flash_attention && !c.expand_kv_heads ? detail::kv_heads_per_rank(a, c.tp) : heads;
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
      t.block_input("MLP input (norm output, 2sbh)", h * c.matmul_input,
                    [&] { return times(h, c.matmul_input, "hidden"); });
  };
  // Gated MLPs keep gate and up outputs (the activation's inputs, as Megatron's fused SwiGLU
  // does); Korthikanti's GeLU input is the one-branch case (8sbh at 4h wide).
  // `activation_recomputed`: the activation's output (the down-projection's input) is discarded.
  const auto branch = [&](const char* what, std::int64_t width, bool gated, bool split_by_tp, std::int64_t copies,
                          std::initializer_list<R> down, bool activation_recomputed = false) {
    // Unfused gated MLPs (keep_gated_activation_output) also keep act(gate) for the product.
    const std::int64_t branches = gated ? (c.keep_gated_activation_output ? 3 : 2) : 1;
    const std::int64_t inputs = branches * copies * width;
    const auto text = [&] {
      return (copies > 1 ? num(copies) + " experts x " : std::string()) +
             (branches > 1 ? num(branches) + " x " : std::string()) + num(width);
    };
    const char* label = std::string_view(what) == "MLP" ? " (8sbh)" : "";  // Korthikanti's GeLU input and output at 4h
    if (split_by_tp)
      t.split([&] { return what + std::string(" activation inputs") + label; }, inputs * e,
              [&] { return text() + " x " + num(e) + " B"; });
    else
      t.replicated([&] { return what + std::string(" activation inputs"); }, inputs * e,
                   [&] { return text() + " x " + num(e) + " B"; });
    if (c.needed(down) && !activation_recomputed) {
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
    // Megatron: a MoE layer's pre-MLP norm is a module of its own (gpt_layer_specs.py pre_mlp_layernorm
    // TENorm when num_experts), which 'layernorm' recomputes, discarding its output (transformer_layer.py
    // recompute_pre_mlp_layernorm); 'moe' checkpoints the layer from that output (moe_layer.py
    // moe_layer_recompute), 'shared_experts' the shared experts (shared_experts.py), and 'moe_act' discards
    // the routed experts' activation output (experts.py TEGroupedMLP activation_recompute).
    if (!c.recomputes(&RecomputeModules::layernorm)) input({R::router, R::shared_expert_gate, R::shared_expert_up});
    if (!c.recomputes(&RecomputeModules::moe)) {
      // Router probabilities in fp32 (transformers' Mixtral: softmax(..., dtype=float)).
      t.replicated("router probabilities (fp32)", moe.num_experts * 4,
                   [&] { return times(moe.num_experts, 4, "experts"); });
      if (c.needed({R::expert_gate, R::expert_up}))
        t.replicated("dispatched expert inputs", k * h * c.matmul_input,
                     [&] { return num(k) + " x " + times(h, c.matmul_input, "hidden"); });
      // With ep > 1 experts are whole on each rank (tensors_on_busiest_gpu) and sequence parallelism
      // splits their tokens; with ep == 1 they are split by tp like a dense MLP.
      const std::int64_t width = ep > 1 ? moe.expert_intermediate_size : ceil_div(moe.expert_intermediate_size, c.tp);
      branch("routed expert", width, moe.gated, ep == 1, k, {R::expert_down}, c.recomputes(&RecomputeModules::moe_act));
      t.replicated("expert outputs (for the weighted combine)", k * h * e,
                   [&] { return num(k) + " x " + times(h, e, "hidden"); });
      if (moe.num_shared_experts > 0 && !c.recomputes(&RecomputeModules::shared_experts))
        branch("shared expert", ceil_div(moe.num_shared_experts * moe.shared_expert_intermediate_size, c.tp), moe.gated,
               true, 1, {R::shared_expert_down});
    }
  } else if (layer.mlp.intermediate_size > 0) {
    // Megatron's 'mlp' checkpoints a dense MLP whose norm is fused into its first linear
    // (TELayerNormColumnParallelLinear): only the layer's residual, the norm input, stays.
    if (!c.recomputes(&RecomputeModules::mlp)) {
      input({R::mlp_gate, R::mlp_up});
      branch("MLP", ceil_div(layer.mlp.intermediate_size, c.tp), layer.mlp.gated, true, 1, {R::mlp_down});
    }
  } else {
    return;
  }
  if (c.workload->dropout) t.replicated("MLP residual dropout mask (sbh)", h, [&] { return times(h, 1, "hidden"); });
}

// Rank-r outputs A·x of every adapted matmul, kept for B's gradient. With LoRA dropout (PEFT's
// lora_dropout, default 0) each adapter also keeps its own dropped copy of the input and the mask.
// DoRA multiplies the base and adapter outputs by its magnitude, so both stay alive for the
// magnitude's gradient (framework_dora_rule). The step time reads the same matmuls' widths from the
// latency model's layer kinds (dora_layer_traffic, training_kernels.cpp): a role added here goes there too.
void add_lora(Terms& t, const Context& c, const ModelDescription& model, const LayerShape& layer) {
  const std::int64_t r = c.workload->lora.rank;
  if (r == 0) return;
  const AttentionShape& a = layer.attention;
  const std::int64_t h = model.hidden_size;
  // Output widths: column-parallel outputs are split by tp; the row-parallel ones (o, down) are
  // whole hidden rows on every rank.
  std::int64_t count = 0, input_width = 0, split_output = 0, hidden_outputs = 0;
  const auto adapter = [&](R role, std::int64_t copies, std::int64_t in_width, std::int64_t out_width,
                           bool row_parallel = false) {
    if (!c.adapted(role)) return;
    count += copies;
    input_width += copies * in_width;
    (row_parallel ? hidden_outputs : split_output) += copies * out_width;
  };
  const std::int64_t blocks = a.cross_attention && a.self_attention ? 2 : 1;  // Llama 3.2 Vision's: the cross one
  const std::int64_t heads = a.num_heads / c.tp;
  const std::int64_t kv_heads = detail::kv_heads_per_rank(a, c.tp);
  const std::int64_t value_width = heads * a.value_head_dim;
  if (a.is_multi_latent()) {
    if (a.q_lora_rank > 0) adapter(R::attention_query_down, 1, h, a.q_lora_rank);
    adapter(R::attention_query, 1, a.q_lora_rank > 0 ? a.q_lora_rank : h, heads * a.head_dim);
    adapter(R::attention_kv_down, 1, h, a.kv_lora_rank + a.qk_rope_head_dim);
    adapter(R::attention_kv_up, 1, a.kv_lora_rank, heads * (a.qk_nope_head_dim + a.value_head_dim));
  } else {
    adapter(R::attention_query, blocks, h, heads * a.head_dim * (a.output_gate ? 2 : 1));
    adapter(R::attention_key, blocks, h, kv_heads * a.head_dim);
    adapter(R::attention_value, blocks, h, kv_heads * a.value_head_dim);
    // LitGPT's LoRAQKVLinear: the adapted q/k/v share one lora_A over one dropped copy of the input.
    std::int64_t qkv_adapted = 0;
    for (R role : {R::attention_query, R::attention_key, R::attention_value}) qkv_adapted += c.adapted(role) ? 1 : 0;
    if (c.fused_qkv_adapter && qkv_adapted > 1) input_width -= (qkv_adapted - 1) * blocks * h;
  }
  adapter(R::attention_output, blocks, value_width, h, true);
  if (layer.is_moe()) {
    const MoeShape& moe = layer.moe;
    const std::int64_t k = moe.experts_per_token;
    const std::int64_t width = c.workload->layout.expert_parallel > 1 ? moe.expert_intermediate_size
                                                                      : ceil_div(moe.expert_intermediate_size, c.tp);
    if (moe.gated) adapter(R::expert_gate, k, h, width);
    adapter(R::expert_up, k, h, width);
    adapter(R::expert_down, k, width, h, true);
    if (moe.num_shared_experts > 0) {
      const std::int64_t shared = ceil_div(moe.num_shared_experts * moe.shared_expert_intermediate_size, c.tp);
      if (moe.gated) adapter(R::shared_expert_gate, 1, h, shared);
      adapter(R::shared_expert_up, 1, h, shared);
      adapter(R::shared_expert_down, 1, shared, h, true);
    }
  } else if (layer.mlp.intermediate_size > 0) {
    const std::int64_t intermediate = ceil_div(layer.mlp.intermediate_size, c.tp);
    if (layer.mlp.gated) adapter(R::mlp_gate, 1, h, intermediate);
    adapter(R::mlp_up, 1, h, intermediate);
    adapter(R::mlp_down, 1, intermediate, h, true);
  }
  if (count == 0) return;
  t.split("LoRA A outputs", count * r * c.element,
          [&] { return num(count) + " adapted matmuls x rank " + num(r) + " x " + num(c.element) + " B"; });
  if (c.workload->lora.dropout)
    t.split("LoRA dropout (dropped inputs and masks)", input_width * (c.element + 1),
            [&] { return num(input_width) + " adapter input features x (" + num(c.element) + " B + 1 B mask)"; });
  if (c.workload->lora.dora) {
    const std::int64_t kept_bytes_per_output = c.element + c.adapter_element;  // the base output and the adapter's
    const auto text = [&](std::int64_t width) {
      return num(width) + " adapted output features x (base " + num(c.element) + " B + adapter " +
             num(c.adapter_element) + " B)";
    };
    t.split("DoRA base and adapter outputs", split_output * kept_bytes_per_output, [&] { return text(split_output); });
    t.replicated("DoRA base and adapter outputs (hidden-width)", hidden_outputs * kept_bytes_per_output,
                 [&] { return text(hidden_outputs); });
  }
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

}  // namespace

std::int64_t layer_activation_bytes(const ModelDescription& model, const LayerShape& layer,
                                    const TrainingWorkload& workload, std::vector<MemoryTerm>* terms,
                                    std::int64_t* blocks) {
  const Context c = make_context(workload);
  Terms t(c, terms);
  const std::int64_t h = model.hidden_size;
  if (workload.recompute == Recompute::full) {
    // Korthikanti Table 2, full recomputation: only the layer input (2sbh) is kept; DeepSpeed's
    // partition_activations and Megatron's distribute_saved_activations keep a tp-th of it per rank.
    if (workload.partition_checkpoints && c.tp > 1)
      t.replicated("layer input (checkpoint, 2sbh / tp, partitioned)", ceil_div(h * c.element, c.tp),
                   [&] { return times(h, c.element, "hidden") + " / tp " + num(c.tp); });
    else
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
  const std::int64_t norm_bytes = norm_saved_bytes(c, model);
  t.replicated(norm_bytes == c.element ? "norm inputs (4sbh)" : "norm inputs (fp32 RMSNorm)", norms * h * norm_bytes,
               [&] { return num(norms) + " x " + times(h, norm_bytes, "hidden"); });
  bool input_stored = add_attention(t, c, model, layer.attention);
  if (layer.attention.cross_attention && layer.attention.self_attention) {
    // Cross-attention approximated as a second attention block over the same sequence length (Llama 3.2
    // Vision's cross-attention layers have this one block alone).
    t.replicated("cross-attention norm input", h * c.element, [&] { return times(h, c.element, "hidden"); });
    add_attention(t, c, model, layer.attention);
  }
  const bool shared_input = layer.parallel_attention_mlp && layer.hidden_norms == 1 && input_stored;
  add_mlp(t, c, model, layer, shared_input);
  add_lora(t, c, model, layer);
  if (blocks) *blocks += t.blocks();
  return t.total();
}

}  // namespace activations

LayerActivations layer_activations(const ModelDescription& model, const LayerShape& layer,
                                   const TrainingWorkload& workload) {
  LayerActivations out;
  out.bytes = activations::layer_activation_bytes(model, layer, workload, &out.terms);
  return out;
}

}  // namespace fitcheck
