// SPDX-License-Identifier: MIT
// Bytes through HBM of a training step's non-matmul kernels, counted op by op from the code that
// runs them. A kernel reads its inputs and writes its outputs once; bf16 is 2 B, fp32 4 B, FP8 1 B.
//
// Eager PyTorch (torchtitan 9dec370 torchtitan/models/norms.py RMSNorm and models/llama/model.py;
// transformers models/llama/modeling_llama.py has the same ops), one kernel per op:
//   RMSNorm forward  x.float() 2+4, pow(2) 4+4, mean 4, x * rsqrt 4+4, type_as 4+2, * weight 2+2
//                    = 36 B per element; its backward (PyTorch's derivative formulas,
//                    tools/autograd/derivatives.yaml) * weight 4 + grad_weight (mul 6, sum 2),
//                    type_as 2+4, x * rsqrt (grad * rsqrt 8, (grad * x) 12 and its sum 4), mean 4,
//                    pow_backward (x.pow(1) 8, * 2 8, * grad 12), the two gradients of x added 12,
//                    float() 4+2 = 100 B per element;
//   LayerNorm        native_layer_norm is one kernel: 2+2 forward, 2+2+2 backward;
//   residual add     2+2+2 forward; backward adds the branch's gradient to the residual's: 6;
//   rotary           torchtitan: float() 2+4, complex multiply 4+4, type_as 4+2 = 20 B per
//                    element of q and k, the backward the same; transformers' rotate_half
//                    (q * cos 4, neg and cat of the halves 6, * sin 4, add 6) is also 20;
//   repeat_kv        expand + reshape copies keys and values to every query head before SDPA:
//                    read the kv width, write the repeated width; its backward sums them back;
//   SwiGLU           silu 2+2, product 4+2 = 10 B per intermediate element; backward: the two
//                    products' gradients 6 + 6 and silu's 6 = 18; GeLU 2+2, backward 2+2+2.
// torch.compile (TorchInductor fuses each chain of pointwise ops and reductions between extern
// kernels into one kernel: torch/_inductor/scheduler.py): residual add + norm read x and the
// branch, write the sum and the normed output (8 B per element), its backward reads the gradient,
// x and the residual gradient and writes one gradient (8); rotary reads and writes q and k once (4),
// the repeat of k and v writes the repeated copies SDPA needs; SwiGLU reads both branches and writes
// one (6), its backward reads three and writes two (10).
// Transformer Engine and Megatron's fusions (Megatron-LM d98e8a64 transformer_config.py
// bias_activation_fusion, apply_rope_fusion, bias_dropout_fusion; TE LayerNormLinear): the norm
// 2+2 (backward 2+2+2), bias-dropout-add 2+2+2 (backward 6), fused rotary 4 per element of q and k,
// fused SwiGLU 6 (backward 10); cuDNN attention takes grouped-query keys without copies.
#include "training/training_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace fitcheck::detail {
namespace {

struct Widths {
  double q = 0, k = 0, v = 0, out = 0;  // per token: queries, keys, values, attention output
  double rotary_q = 0, rotary_k = 0;    // the parts rotary embedding rotates
  double mlp = 0;                       // the activation's width (top-k routed experts + shared)
  bool grouped = false;                 // fewer key/value heads than query heads
};

Widths widths_of(const LatencyLayerKind& k, bool rotary) {
  Widths w;
  if (k.heads > 0) {
    if (k.multi_latent) {
      // MLA trains unabsorbed: every head has its keys of nope + rope dims and values of
      // v_head_dim; rotary turns the rope part of the queries and the one shared rope key.
      const double qk = k.nope_head_dim + k.rope_head_dim;
      w.q = w.k = k.heads * qk;
      w.v = w.out = k.heads * k.v_head_dim;
      if (rotary) {
        w.rotary_q = k.heads * k.rope_head_dim;
        w.rotary_k = k.rope_head_dim;
      }
    } else {
      w.q = k.heads * k.qk_head_dim;
      w.k = k.kv_heads * k.qk_head_dim;
      w.v = k.kv_heads * k.v_head_dim;
      w.out = k.heads * k.v_head_dim;
      w.grouped = k.kv_heads > 0 && k.kv_heads < k.heads;
      if (rotary) {
        w.rotary_q = w.q;
        w.rotary_k = w.k;
      }
    }
  }
  const bool dense_mlp = !k.moe && k.mlp.matrix_params > 0;
  w.mlp = dense_mlp ? k.mlp_width : k.experts_per_token * k.expert_width + k.shared_width;
  return w;
}

// Residual adds per layer: one per branch (parallel attention/MLP blocks share one).
double residual_adds(const LatencyLayerKind& k) { return k.parallel_attention_mlp ? 1 : 2; }

// Transformer Engine's and Megatron's fused forward kernels, bytes per element (the file's header): a
// norm reads and writes 2 + 2, rotary 4 per rotated element, the activation 6 per intermediate element
// of a gated MLP (both branches read, one written), 4 of a GeLU.
constexpr double kFusedNormForwardBytes = 2 + 2;
constexpr double kFusedRotaryForwardBytes = 4;
double fused_activation_forward_bytes(bool gated) { return gated ? 6 : 4; }

}  // namespace

LayerTraffic layer_elementwise_traffic(const LatencyLayerKind& k, double h, bool rms_norm, bool rotary,
                                       ElementwiseKernels kernels) {
  const Widths w = widths_of(k, rotary);
  const double norms = k.hidden_norms, adds = residual_adds(k);
  LayerTraffic t;
  switch (kernels) {
    case ElementwiseKernels::eager: {
      t.forward.hidden = norms * (rms_norm ? 36 : 4) * h + adds * 6 * h;
      t.backward.hidden = norms * (rms_norm ? 100 : 6) * h + adds * 6 * h;
      const double rope = 20 * (w.rotary_q + w.rotary_k);
      const double repeat = w.grouped ? 2 * (w.k + w.q + w.v + w.out) : 0;
      t.forward.split = rope + repeat + (k.gated_mlp ? 10 : 4) * w.mlp;
      t.backward.split = rope + repeat + (k.gated_mlp ? 18 : 6) * w.mlp;
      break;
    }
    case ElementwiseKernels::compiled: {
      t.forward.hidden = t.backward.hidden = norms * 8 * h;
      // Rotary of q; rotary of k fused with its repeat; the repeat of v.
      const double keys_written = w.grouped ? w.q : (w.rotary_k > 0 ? w.k : 0);
      const double values_written = w.grouped ? w.out : 0;
      const double attention = 4 * w.rotary_q + (keys_written > 0 ? 2 * w.k + 2 * keys_written : 0) +
                               (values_written > 0 ? 2 * w.v + 2 * values_written : 0);
      t.forward.split = attention + (k.gated_mlp ? 6 : 4) * w.mlp;
      t.backward.split = attention + (k.gated_mlp ? 10 : 6) * w.mlp;
      break;
    }
    case ElementwiseKernels::fused: {
      t.forward.hidden = norms * kFusedNormForwardBytes * h + adds * 6 * h;
      t.backward.hidden = norms * 6 * h + adds * 6 * h;
      const double rope = kFusedRotaryForwardBytes * (w.rotary_q + w.rotary_k);
      t.forward.split = rope + fused_activation_forward_bytes(k.gated_mlp) * w.mlp;
      t.backward.split = rope + (k.gated_mlp ? 10 : 6) * w.mlp;
      break;
    }
  }
  return t;
}

// torchao's tensorwise Float8Linear (pytorch/ao 36027d82 torchao/testing/training/roofline_utils.py
// get_tensor_memory_traffic_ovhd_s, the framework's own model of its casts): an input or a
// gradient costs an amax pass (read 2 B, none when fused into the op that produced it) and a cast
// that reads 2 B and writes the row- and column-major FP8 copies (2 x 1 B); a weight costs an amax
// pass (2 B) and two casts (2 + 1 B each) per micro-batch. Under torch.compile the amax fuses into
// the producer and the linear layers reading one tensor (q/k/v, gate/up) share its cast; eager runs
// each linear's casts apart.
// Transformer Engine (DelayedScaling, scales from the amax history): the norm and the activation
// kernels write FP8 themselves; the attention output and every gradient go through a
// cast-transpose kernel (read 2 B, write the two FP8 copies); the weights are cast once per step
// (or kept in FP8 with --fp8-param-gather), not per micro-batch.
Fp8CastBytes fp8_cast_bytes_per_element(Fp8Casts casts, ElementwiseKernels kernels) {
  if (casts == Fp8Casts::transformer_engine) return {4, 4, 0};  // cast-transpose: 2 + 1 + 1
  // amax 2 (fused away under compile) + cast 2 + 1 + 1; a weight: amax 2 + two casts of 2 + 1.
  const double amax = kernels == ElementwiseKernels::eager ? 2 : 0;
  return {amax + 4, amax + 4, 2 + 2 * (2 + 1)};
}

Fp8CastTraffic layer_fp8_cast_traffic(const LatencyLayerKind& k, double h, Fp8Casts casts, ElementwiseKernels kernels) {
  const Widths w = widths_of(k, false);
  const double up = k.gated_mlp ? 2 * w.mlp : w.mlp;  // the gate and up projections' outputs
  const Fp8CastBytes b = fp8_cast_bytes_per_element(casts, kernels);
  // A MoE layer's routed experts take each token copy as their input and give one output per copy
  // (top-k of them), beside the shared experts' one; a dense layer's MLP gives one.
  const double routed_copies = k.moe ? k.experts_per_token * h : 0;
  const double down_outputs = k.moe ? routed_copies + (k.shared_width > 0 ? h : 0) : h;
  Fp8CastTraffic t;
  // Gradients of every projection's output: q, k, v, gate/up (split by tp); output and down (hidden).
  t.tokens.backward.hidden = b.gradient * (h + down_outputs);
  t.tokens.backward.split = b.gradient * (w.q + w.k + w.v + up);
  t.weight_bytes_per_parameter = b.weight;
  if (casts == Fp8Casts::transformer_engine) {
    // The norms and the activation write FP8 themselves; a routed copy (gathered after the norm)
    // is cast by the grouped linear layer.
    t.tokens.forward.split = b.input * w.out;
    t.tokens.forward.hidden = b.input * routed_copies;
    return t;
  }
  // Inputs: eager casts each linear's input apart (q, k, v read the attention norm's output; gate
  // and up the MLP norm's); compiled, the linears reading one tensor share its cast.
  const double linears_on_hidden = kernels == ElementwiseKernels::eager ? 3 + (k.gated_mlp ? 2 : 1) : 2;
  t.tokens.forward.hidden = b.input * (linears_on_hidden * h + routed_copies);
  t.tokens.forward.split = b.input * (w.out + w.mlp);
  return t;
}

// Megatron-Core's MoE layer (NVIDIA/Megatron-LM d98e8a64 megatron/core/transformer/moe/), its
// fused kernels (moe_permute_fusion, moe_router_fusion: Transformer Engine's permutation and
// top-k kernels), per token of k routed copies of the hidden width h, bf16 (2 B):
//   router     router.py TopKRouter: the gating GEMM writes fp32 logits (moe_router_dtype fp32,
//              counted with the products); fused_topk_with_score_function reads them (4 B per
//              expert) and writes the fp32 probabilities and the bool routing map (4 + 1 B); its
//              backward reads the probabilities' gradient and the saved probabilities and writes
//              the logits' gradient (3 x 4 B);
//   permute    moe_utils.py permute: each copy reads its token's row and writes it in expert order
//              (2 + 2 B per copy and element); token_dispatcher.py MoEAlltoAllTokenDispatcher runs it
//              before the all-to-all, DeepEP and HybridEP (MoEFlexTokenDispatcher's
//              get_permuted_hidden_states_by_experts, HybridEP's permute unless
//              moe_permute_fusion_into_hybridep) after the dispatch;
//   sort       the all-to-all dispatcher sorts the received chunks by local expert when a rank holds
//              more than one (dispatch_postprocess sort_chunks_by_idxs) and unsorts the experts'
//              output (combine_preprocess): 2 + 2 B per copy each;
//   unpermute  moe_utils.py unpermute reads every copy and writes one sum per token (2 B per copy
//              + 2 B per token; the probabilities are applied in the activation, weighted_bias_swiglu).
// Backward runs the same kernels on the gradients: unpermute's backward is a permute, permute's
// backward an unpermute, each sort's backward a sort: the same bytes.
// Experts with biases (gpt-oss): TEGroupedMLP._apply_packed_bias (experts.py) adds fc2's bias
// scaled by the token's probability as eager fp32 ops on every copy: output.float() 2 + 4, the
// bias rows repeated per token (repeat_interleave) 4, times the probabilities 4 + 4, the sum
// 4 + 4 + 4, .to(bf16) 4 + 2: 36 B per element; backward: the cast back 2 + 4, the bias rows'
// gradient (times the probabilities) 4 + 4, the probabilities' gradient (times the bias rows, then
// summed over the hidden width) 4 + 4 + 4 + 4, the repeat's sum 4, the upcast's gradient 4 + 2: 40 B.
LayerTraffic moe_token_traffic(const LatencyLayerKind& k, double h, const MoeTokenTrafficOptions& o) {
  LayerTraffic t;
  if (!k.moe || k.experts <= 0 || k.experts_per_token <= 0) return t;
  const double copies = k.experts_per_token;
  const double router_forward = (4 + 4 + 1) * k.experts, router_backward = 3 * 4 * k.experts;
  // permute 4 per copy, unpermute 2 per copy and 2 per token; sort and unsort 4 per copy each.
  const double rearrange = (copies * (4 + 2 + (o.sort_by_local_expert ? 2 * 4 : 0)) + 2) * h;
  const double bias_forward = o.eager_expert_bias ? 36 * copies * h : 0;
  const double bias_backward = o.eager_expert_bias ? 40 * copies * h : 0;
  t.forward.hidden = router_forward + rearrange + bias_forward;
  t.backward.hidden = router_backward + rearrange + bias_backward;
  return t;
}

// Megatron's selective modules (transformer_config.py recompute_modules; transformer_layer.py,
// moe_layer.py, experts.py, shared_experts.py, multi_latent_attention.py at d98e8a64) with Transformer
// Engine's fused kernels, as layer_elementwise_traffic counts them (kFusedNormForwardBytes, ...). 'layernorm'
// recomputes the norms that are modules of their own: a MoE layer's pre-MLP norm and MLA's input norm (the other norms
// are inside a LayerNormLinear); 'mlp' a dense MLP, its fused norm with it.
TokenTraffic megatron_module_recompute_traffic(const LatencyLayerKind& k, double h, bool rotary,
                                               const RecomputeModules& modules, const MoeTokenTrafficOptions& options) {
  TokenTraffic t;
  const double activation_bytes = fused_activation_forward_bytes(k.gated_mlp);
  if (modules.layernorm) t.hidden += kFusedNormForwardBytes * h * ((k.moe ? 1 : 0) + (k.multi_latent ? 1 : 0));
  if (k.moe) {
    const double routed = k.experts_per_token * k.expert_width;
    if (modules.moe) {
      t.hidden += moe_token_traffic(k, h, options).forward.hidden;
      t.split += activation_bytes * (routed + k.shared_width);
    } else {
      if (modules.moe_act) t.split += activation_bytes * routed;
      if (modules.shared_experts) t.split += activation_bytes * k.shared_width;
    }
  } else if (modules.mlp && k.mlp_width > 0) {
    t.hidden += kFusedNormForwardBytes * h;
    t.split += activation_bytes * k.mlp_width;
  }
  if (modules.mla_up_proj && k.multi_latent && rotary) {
    const Widths w = widths_of(k, rotary);  // MLA: every head's rope part of q, the one shared rope key
    t.split += kFusedRotaryForwardBytes * (w.rotary_q + w.rotary_k);
  }
  return t;
}

// PEFT's DoraLinearLayer (huggingface/peft 5d602fdb src/peft/tuners/lora/dora.py, with the variant
// in lora/variants.py and the input cast in lora/layer.py l.1061), e the base output's bytes and f
// the adapters'. Per weight element of an adapted matrix, each forward: W cast to the input's dtype
// when the adapters' differs (e + f; torchtune's DoRALinear runs in bf16 and does not cast),
// B(A(I)) written (f), scaled (2f), added to W (3f) and read by the norm (f); per input feature
// squared the identity matrix written and read (2f). Per output feature of a token, beyond LoRA's
// own ops: forward (m - 1) * base reads e and writes f, m * lora 2f, their sum 3f (e + 6f);
// backward the gradients of both products with respect to the outputs and to m (2f + 2f, f + e
// read and f + e written for the base branch), and the base output's two gradients summed (3e):
// 5e + 8f.
// The adapted matmuls' widths mirror add_lora's (training_memory_activations.cpp), read from the latency
// model's kinds; they have no Qwen3-Next output gate, so its q_proj counts its query width alone.
DoraTraffic dora_layer_traffic(const LatencyLayerKind& k, double h, double tp, double ep,
                               const std::vector<TensorRole>& adapted, double e, double f) {
  DoraTraffic t;
  double weights = 0, identity = 0, outputs = 0;
  const auto matmul = [&](TensorRole role, double matrices, double per_token, double in, double out) {
    if (std::find(adapted.begin(), adapted.end(), role) == adapted.end() || in <= 0 || out <= 0) return;
    weights += matrices * in * out;
    identity += matrices * in * in;
    outputs += per_token * out;
  };
  using R = TensorRole;
  const double heads = k.heads / tp, kv_heads = std::max(1.0, k.kv_heads / tp);
  if (k.heads > 0) {
    const double blocks = k.cross_attention && k.self_attention ? 2 : 1;
    if (k.multi_latent) {
      const double query_in = k.q_lora_rank > 0 ? k.q_lora_rank : h;
      if (k.q_lora_rank > 0) matmul(R::attention_query_down, 1, 1, h, k.q_lora_rank);
      matmul(R::attention_query, 1, 1, query_in, heads * (k.nope_head_dim + k.rope_head_dim));
      matmul(R::attention_kv_down, 1, 1, h, k.kv_lora_rank + k.rope_head_dim);
      matmul(R::attention_kv_up, 1, 1, k.kv_lora_rank, heads * (k.nope_head_dim + k.v_head_dim));
    } else {
      matmul(R::attention_query, blocks, blocks, h, heads * k.qk_head_dim);
      matmul(R::attention_key, blocks, blocks, h, kv_heads * k.qk_head_dim);
      matmul(R::attention_value, blocks, blocks, h, kv_heads * k.v_head_dim);
    }
    matmul(R::attention_output, blocks, blocks, heads * k.v_head_dim, h);
  }
  const double branches = k.gated_mlp ? 1 : 0;
  if (k.moe) {
    const double width = ep > 1 ? k.expert_width : k.expert_width / tp;
    const double local = k.experts / std::max(1.0, ep), per_token = k.experts_per_token;
    if (branches > 0) matmul(R::expert_gate, local, per_token, h, width);
    matmul(R::expert_up, local, per_token, h, width);
    matmul(R::expert_down, local, per_token, width, h);
    if (k.shared_width > 0) {
      const double shared = k.shared_width / tp;
      if (branches > 0) matmul(R::shared_expert_gate, 1, 1, h, shared);
      matmul(R::shared_expert_up, 1, 1, h, shared);
      matmul(R::shared_expert_down, 1, 1, shared, h);
    }
  } else if (k.mlp_width > 0) {
    const double width = k.mlp_width / tp;
    if (branches > 0) matmul(R::mlp_gate, 1, 1, h, width);
    matmul(R::mlp_up, 1, 1, h, width);
    matmul(R::mlp_down, 1, 1, width, h);
  }
  const double cast = f != e ? e + f : 0;
  t.weight_norm_bytes = weights * (cast + 7 * f) + identity * 2 * f;
  t.forward_bytes_per_token = outputs * (e + 6 * f);
  t.backward_bytes_per_token = outputs * (5 * e + 8 * f);
  return t;
}

// Eager cross-entropy on upcast logits (torchtitan's loss_fn, transformers' ForCausalLMLoss):
// float() 2+4, log_softmax 4+4+4 (the max and sum passes read the row twice), nll_loss's backward
// writes a float32 gradient 4, log_softmax's backward reads two and writes one (12), the cast back
// to bf16 4+2: 40 B per logit. A fused or compiled loss reads the bf16 logits twice and writes the
// bf16 gradient: 6, and 8 with the float32 statistics and the read-back of the gradient.
double loss_traffic_bytes_per_logit(ElementwiseKernels kernels) {
  return kernels == ElementwiseKernels::eager ? 40 : 8;
}

// PyTorch's ring attention (pytorch/pytorch 0123248a torch/distributed/tensor/experimental/
// _attention.py, _templated_ring_attention and its backward; the same _SDPAMerger and
// _partial_update in earlier versions), convert_to_f32 and round-robin load balancing on (their
// defaults). Each op below is one kernel reading its inputs and writing its output once. The
// last rank takes full blocks at every step (the others take some half-size, partial ones).
// Forward: key.contiguous() and value.contiguous() (2 + 2 B each); every step but the last
// concatenates keys and values for the exchange (4 B each); _SDPAMerger.step turns the block's
// output to fp32 (2 + 4) and from the second step merges it: out - block_out (4 + 4 + 4),
// sigmoid(lse) * that (4 + 4), out - that (4 + 4 + 4): 38 B per output element; results() casts
// back (4 + 2). Backward: the contiguous copies again; zeros_like fp32 gradients of q, k, v (4);
// per step the key/value concatenation, the block's key/value gradients added in fp32 (first step
// 4 + 2 + 4, later steps half a chunk added and the whole re-concatenated by _partial_update:
// 5 + 8), their fp32 concatenation for the exchange (4 + 4), the query gradient added (4 + 2 + 4);
// at the end the gradients cast back to bf16 (4 + 2).
RingAttentionTraffic torch_ring_attention_traffic(double cp, double query_width, double key_width, double value_width,
                                                  double output_width) {
  RingAttentionTraffic t;
  if (cp <= 1) return t;
  const double kv = key_width + value_width;
  t.forward = 4 * kv + 4 * kv * (cp - 1) + 6 * output_width + 38 * output_width * (cp - 1) + 6 * output_width;
  t.backward = 4 * kv + 4 * (query_width + kv) + 4 * kv * (cp - 1) + 10 * kv + 13 * kv * (cp - 1) + 8 * kv * cp +
               10 * query_width * cp + 6 * query_width + 6 * kv;
  return t;
}

// Small per-expert token counts make a grouped GEMM read each expert's weights for few tokens, so
// its bytes stop hiding under its FLOPs. The blend sqrt(compute^2 + memory^2) of the GEMM's own
// FLOPs (at the dense rate of the same N and K) and bytes (FP8 operands, bf16 output, at the HBM
// bandwidth) against DeepGEMM's published FP8 GEMMs on H800 (deepseek-ai/DeepGEMM a6d97a1c README.md,
// 2025-02-25, tables "Normal GEMMs for dense models" and "Grouped GEMMs for MoE models"), from the
// dense rates at M 4096 (1304 TFLOP/s at N 4096 K 7168, 1025 at N 7168 K 2048) and 3.35 TB/s:
// masked layout, groups x tokens 1 x 1024, 2 x 512, 4 x 256: 1252, 1175, 988 TFLOP/s at N 4096
// K 7168 (published 1233, 1040, 932) and 976, 928, 813 at N 7168 K 2048 (published 925, 916,
// 815); contiguous layout 4 x 8192 and 8 x 4096: 1294, 1290 (published 1297, 1288) and 1007, 1004
// (published 1099, 1093). Thousands of tokens per expert run at the dense rate.
double grouped_expert_gemm_slowdown(const ExpertGemmShape& shape, double matmul_flops_per_second,
                                    double hbm_bytes_per_second) {
  const double m = shape.tokens_per_expert;
  if (m <= 0 || matmul_flops_per_second <= 0 || hbm_bytes_per_second <= 0) return 1;
  const double width = shape.expert_width / shape.tensor_parallel;
  const double first = (shape.gated ? 2 : 1) * width;
  // (N, K) of the two GEMMs: hidden to the (gated) expert width, then back to hidden.
  const double gemms[2][2] = {{first, shape.hidden}, {shape.hidden, width}};
  double compute = 0, blended = 0;
  for (const auto& gemm : gemms) {
    const double n = gemm[0], k = gemm[1];
    const double seconds_compute = 2 * m * n * k / matmul_flops_per_second;
    const double bytes = (m * k + n * k) * shape.operand_bytes + m * n * shape.output_bytes;
    compute += seconds_compute;
    // sqrt of the sum of squares rather than std::hypot: sqrt is correctly rounded everywhere, while
    // glibc's and Emscripten's hypot differ in the last bit (the CLI and the page must agree).
    const double seconds_memory = bytes / hbm_bytes_per_second;
    blended += std::sqrt(seconds_compute * seconds_compute + seconds_memory * seconds_memory);
  }
  return blended / compute;
}

}  // namespace fitcheck::detail
