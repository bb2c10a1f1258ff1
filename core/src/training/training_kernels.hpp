// SPDX-License-Identifier: MIT
// The memory traffic of a training step's non-matmul kernels: the layers' elementwise operations
// (norms, residual adds, rotary embedding, grouped-query repeats, the MLP activation) as eager
// PyTorch, TorchInductor or Transformer Engine run them, the FP8 recipes' amax and cast kernels, and
// the loss. Each is memory-bound: its bytes go through HBM at the elementwise bandwidth. Every count
// is per token (or per weight element) and names the code it reads; docs/latency.md, "Training time".
#pragma once

#include <vector>

#include "fitcheck/latency.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_framework.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck::detail {

// Bytes one token moves through HBM in one layer, split into the hidden-width tensors (norms,
// residual adds: each tensor-parallel rank holds all of them unless sequence parallelism splits the
// sequence) and the tensors tensor parallelism splits (queries, keys, values, the MLP intermediate).
struct TokenTraffic {
  double hidden = 0;
  double split = 0;
  double per_rank(double tp, bool sequence_parallel) const {
    return hidden / (sequence_parallel ? tp : 1.0) + split / tp;
  }
};

struct LayerTraffic {
  TokenTraffic forward;
  TokenTraffic backward;
};

// The elementwise operations of one layer of `kind` (per token, one forward and one backward).
LayerTraffic layer_elementwise_traffic(const LatencyLayerKind& kind, double hidden, bool rms_norm, bool rotary,
                                       ElementwiseKernels kernels);

// Bytes one FP8 recipe moves to cast one element of a GEMM operand: an input (forward), a
// gradient (backward), a weight (per micro-batch, forward and backward casts together).
struct Fp8CastBytes {
  double input = 0;
  double gradient = 0;
  double weight = 0;
};
Fp8CastBytes fp8_cast_bytes_per_element(Fp8Casts casts, ElementwiseKernels kernels);

// The FP8 recipe's casts of one layer's GEMM operands: per token the activations cast in forward
// and the gradients cast in backward; per micro-batch the weights (bytes per weight element).
struct Fp8CastTraffic {
  LayerTraffic tokens;
  double weight_bytes_per_parameter = 0;
};
Fp8CastTraffic layer_fp8_cast_traffic(const LatencyLayerKind& kind, double hidden, Fp8Casts casts,
                                      ElementwiseKernels kernels);

// The routed tokens of one MoE layer, per token of a rank (hidden-width tensors, which sequence
// parallelism splits over tp): the router's scores, the token copies gathered into expert order and
// summed back, and the experts' output bias where the framework adds it as eager fp32 ops.
struct MoeTokenTrafficOptions {
  bool sort_by_local_expert = false;  // an all-to-all dispatch to a rank that holds more than one expert
  bool eager_expert_bias = false;     // biased experts, their output bias added by eager fp32 ops
};
LayerTraffic moe_token_traffic(const LatencyLayerKind& kind, double hidden, const MoeTokenTrafficOptions& options);

// The forward elementwise bytes per token Megatron's selective modules beyond the attention core run
// again in backward (Transformer Engine's fused kernels): 'layernorm' the norms that are modules of their
// own, 'moe_act' the routed experts' activation, 'mlp' a dense MLP's fused norm and activation, 'moe' the
// MoE layer's routed tokens and activations, 'shared_experts' theirs, 'mla_up_proj' the fused RoPE.
TokenTraffic megatron_module_recompute_traffic(const LatencyLayerKind& kind, double hidden, bool rotary,
                                               const RecomputeModules& modules, const MoeTokenTrafficOptions& options);

// DoRA's work beyond LoRA's in one layer on one rank (framework_dora_rule): each forward rebuilds
// the weight norm of every adapted matrix (weight_norm_bytes, per micro-batch) and scales the base
// and adapter outputs by the magnitude (per token, forward and backward). activation_bytes: the
// base output's element; adapter_bytes: the adapters' (PEFT: 4; torchtune: 2).
struct DoraTraffic {
  double weight_norm_bytes = 0;
  double forward_bytes_per_token = 0, backward_bytes_per_token = 0;
};
DoraTraffic dora_layer_traffic(const LatencyLayerKind& kind, double hidden, double tp, double ep,
                               const std::vector<TensorRole>& adapted, double activation_bytes, double adapter_bytes);

// The loss's bytes per logit element (vocabulary entry of one token), forward and backward.
double loss_traffic_bytes_per_logit(ElementwiseKernels kernels);

// PyTorch's context_parallel ring over cp ranks, per token of one rank and one attention layer:
// the bytes of one forward (run again by recomputation) and of one backward, on the rank whose
// steps all take full blocks. Widths per token: queries, keys and values as SDPA receives them
// (keys and values repeated to every query head) and the output.
struct RingAttentionTraffic {
  double forward = 0, backward = 0;
};
RingAttentionTraffic torch_ring_attention_traffic(double cp, double query_width, double key_width, double value_width,
                                                  double output_width);

// One rank's routed experts as one grouped GEMM (Megatron's TEGroupedMLP, DeepGEMM's contiguous
// layout): every local expert multiplies its tokens_per_expert tokens by its first matrix (hidden to
// the expert width, twice it when gated) and its second (back to hidden), the expert width split
// over tp. Per pass (forward, input gradient, weight gradient) each GEMM moves the same three
// matrices, tokens x in, in x out and tokens x out, once through HBM.
struct ExpertGemmShape {
  double tokens_per_expert = 0;
  double hidden = 0;
  double expert_width = 0;  // one expert's intermediate size
  bool gated = false;
  double tensor_parallel = 1;
  double operand_bytes = 2;  // inputs and weights: 1 under FP8
  double output_bytes = 2;
};
// The experts' GEMM time over their time at the dense matmul rate: each GEMM takes
// sqrt(compute^2 + memory^2), its FLOPs at the dense rate and its bytes at the HBM bandwidth.
double grouped_expert_gemm_slowdown(const ExpertGemmShape& shape, double matmul_flops_per_second,
                                    double hbm_bytes_per_second);

}  // namespace fitcheck::detail
