// SPDX-License-Identifier: MIT
// The ops of llama.cpp's graph per layer, counted from the layer's tensors (local_graph_ops.hpp).
#include "local/local_graph_ops.hpp"

namespace fitcheck {

void count_config_tensor(LayerOpCount& c, const WeightTensor& t) {
  switch (t.role) {
    case TensorRole::norm:
      c.norm_tensors += t.copies;
      return;
    case TensorRole::bias:
      // One ADD per bias; the routed experts' biases (one per expert) are one ADD_ID each
      // (src/llama-graph.cpp build_moe_ffn: ggml_add_id(up, up_exps_b, selected_experts)).
      c.tensor_ops += 1;
      return;
    case TensorRole::attention_sink:
    case TensorRole::relative_position_bias:
    case TensorRole::ssm_parameter:
      return;  // read inside another op's kernel
    case TensorRole::router:
      c.tensor_ops += t.is_matrix() ? 1 : 3 * t.copies;  // a [1, n_embd] shared-expert gate: MUL_MAT, SIGMOID, MUL
      return;
    case TensorRole::attention_query:
    case TensorRole::attention_kv_down:
      c.attention = true;
      break;
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
      c.dense_ffn = true;
      break;
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down:
      c.routed = true;
      if (t.is_matrix() || t.copies > 1) c.expert_matrices += 1;
      break;
    case TensorRole::shared_expert_gate:
    case TensorRole::shared_expert_up:
      c.shared = true;
      break;
    default:
      break;
  }
  if (t.is_matrix() || t.copies > 1) c.tensor_ops += 1;
}

void count_gguf_tensor(LayerOpCount& c, std::string_view name, std::size_t rank) {
  const std::size_t dot = name.find('.', name.find('.') + 1);
  const std::string_view rest = dot == std::string_view::npos ? name : name.substr(dot + 1);
  const std::string_view base = rest.substr(0, rest.find('.'));
  const bool bias = rest.ends_with(".bias");
  const auto ends = [&](std::string_view suffix) { return base.ends_with(suffix); };
  if (bias) {
    c.tensor_ops += 1;
    if (ends("_norm")) c.gguf_norm_bias = true;
  } else if (rank < 2) {
    c.tensor_ops += ends("_norm") ? 2 : base == "ffn_gate_inp_shexp" ? 3 : ends("_sinks") ? 0 : 1;
    if (ends("_norm")) c.gguf_norms += 1;
  } else {
    c.tensor_ops += 1;
    if (base.starts_with("attn_q") || base.starts_with("attn_kv_a")) c.attention = true;
    if (base == "ffn_up" || base == "ffn_gate") c.dense_ffn = true;
    if (ends("_exps")) {
      c.routed = true;
      c.expert_matrices += 1;
    }
    if (base == "ffn_up_shexp" || base == "ffn_gate_shexp") c.shared = true;
  }
}

}  // namespace fitcheck
