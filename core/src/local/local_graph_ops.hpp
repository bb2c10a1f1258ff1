// SPDX-License-Identifier: MIT
// The ops of llama.cpp's graph per layer, counted from a layer's tensors (local_graph_ops.cpp): a config's
// tensor inventory or a GGUF header's tensor names. local_model.cpp fills LocalLayer::graph_ops from them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fitcheck/local.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

// The ops llama.cpp's graph runs for one layer at one token (src/llama-graph.cpp; each op is a kernel
// launch on a GPU backend), counted from the layer's tensors: one MUL_MAT (MUL_MAT_ID for routed
// experts) per weight matrix; build_norm's norm op and MUL per norm weight; an ADD per bias; build_attn's
// ROPE of Q and K and the two writes of K and V into the cache (the attention core is added by the speed
// model, as it depends on flash attention); build_ffn's fused activation; build_moe_ffn's SOFT_MAX,
// ARGSORT (top-k), GET_ROWS of the expert weights, SUM_ROWS, CLAMP and DIV normalizing them, the
// activation, the MUL by the weights and n_expert_used - 1 ADDs summing the experts' outputs; a shared
// expert's activation and its ADD to the routed output, and a shared-expert gate vector's MUL_MAT,
// SIGMOID and MUL (Qwen2-MoE); and the layer's two residual ADDs.
struct LayerOpCount {
  std::int64_t tensor_ops = 0;
  std::int64_t expert_matrices = 0;  // routed experts' weight matrices: one MUL_MAT_ID each
  std::int64_t norm_tensors = 0;     // config path: norm weights, and LayerNorm biases listed as norms too
  bool layer_norm = false;           // LayerNorm: its weight and bias tensors are one norm, MUL and ADD (3 ops)
  bool attention = false, dense_ffn = false, routed = false, shared = false;

  std::int64_t gguf_norms = 0;  // GGUF path: norm weights (their biases make them LayerNorms)
  bool gguf_norm_bias = false;

  // What ggml-metal's concurrent encoder runs side by side (concurrent_kernels): the attention's
  // matrices that read the layer's normed input (Q, K and V, or MLA's two down-projections), Q, K and
  // V's biases, the norms inside attention (Q/K norms, MLA's latent norms), and the gate and up
  // matrices of the dense FFN, the routed experts (and their biases) and the shared experts.
  std::int64_t attention_qkv = 0;   // Q, K and V matrices (MLA: Q, or Q's up-projection)
  std::int64_t attention_down = 0;  // MLA's down-projections (the query's and the latent KV's)
  bool query_down = false;          // MLA with a query latent: Q reads it, not the layer's input
  std::int64_t attention_biases = 0;
  std::int64_t attention_norms = 0;
  bool mlp_gate = false, mlp_up = false, expert_gate = false, expert_up = false;
  std::int64_t expert_biases = 0;
  bool shared_gate = false, shared_up = false;

  std::int64_t norm_ops() const { return layer_norm ? 3 * (norm_tensors / 2) : 2 * norm_tensors; }
  std::int64_t norms() const { return gguf_norms > 0 ? gguf_norms : layer_norm ? norm_tensors / 2 : norm_tensors; }
  bool layer_norms() const { return gguf_norms > 0 ? gguf_norm_bias : layer_norm; }
  std::int64_t expert_sum_adds(std::int64_t experts_per_token) const {
    return routed ? std::max<std::int64_t>(0, experts_per_token - 1) : 0;
  }
  // The layer's kernel facts the speed model reads: its ops at one token, what Metal fuses of them, its
  // MUL_MAT_IDs and whether it attends.
  void describe_kernels(LocalLayer& layer, std::int64_t experts_per_token) const {
    layer.graph_ops = total(experts_per_token);
    (layer_norms() ? layer.layer_norms : layer.rms_norms) = norms();
    layer.expert_sum_adds = expert_sum_adds(experts_per_token);
    layer.expert_matrices = expert_matrices;
    layer.attention = attention;
    layer.concurrent_kernels = concurrent_kernels();
  }
  // Of the layer's kernels at one token, those ggml-metal's concurrent encoder issues with no memory
  // barrier after the kernel before them (ggml-metal-ops.cpp ggml_metal_op_concurrency_check: a node
  // that reads no output of the kernels since the last barrier and writes nothing they touch; the
  // graph optimizer, ggml-metal-common.cpp ggml_graph_optimize, first moves such nodes together): the
  // siblings that read one input, as ggml-org/llama.cpp#15929's own trace of a layer shows (MUL_MAT
  // Q, K, V; their three bias ADDs; ROPE of Q and K; the K and V cache writes; then the FFN's up and
  // gate). One barrier group pays one kernel's fixed time. The attention's cache writes and ROPEs
  // (the four ops an attention layer adds) pair up in two groups; MLA writes one latent.
  std::int64_t concurrent_kernels() const {
    const auto siblings = [](std::int64_t n) { return std::max<std::int64_t>(0, n - 1); };
    std::int64_t c = 0;
    if (attention) {
      const bool latent = attention_down > 0;
      c += siblings(attention_down + (query_down ? 0 : attention_qkv)) +
           siblings(std::min(attention_biases, latent ? 0 : attention_qkv)) + siblings(attention_norms) +
           (latent ? 1 : 2);
    }
    if (mlp_gate && mlp_up) c += 1;
    if (expert_gate && expert_up) c += 1 + (expert_biases >= 2 ? 1 : 0);
    if (shared_gate && shared_up) c += 1;
    return c;
  }
  std::int64_t total(std::int64_t experts_per_token) const {
    return tensor_ops + norm_ops() + 2 + (attention ? 4 : 0) + (dense_ffn ? 1 : 0) + (shared ? 2 : 0) +
           (routed ? 8 + expert_sum_adds(experts_per_token) : 0);
  }
};

// Counts one tensor of a config's inventory into its layer's ops.
void count_config_tensor(LayerOpCount& c, const WeightTensor& t);
// The same from a GGUF tensor's name (blk.N.<name>.weight|bias) and rank.
void count_gguf_tensor(LayerOpCount& c, std::string_view name, std::size_t rank);

}  // namespace fitcheck
