// SPDX-License-Identifier: MIT
// The ops of llama.cpp's graph per layer, counted from the layer's tensors (local_graph_ops.hpp).
#include "local/local_graph_ops.hpp"

namespace fitcheck {

void count_config_tensor(LayerOpCount& c, const WeightTensor& t) {
  switch (t.role) {
    case TensorRole::norm:
      c.norm_tensors += t.copies;
      if (t.group == ParameterGroup::attention) c.attention_norms += 1;
      return;
    case TensorRole::bias:
      // One ADD per bias; the routed experts' biases (one per expert) are one ADD_ID each
      // (src/llama-graph.cpp build_moe_ffn: ggml_add_id(up, up_exps_b, selected_experts)).
      c.tensor_ops += 1;
      if (t.group == ParameterGroup::attention) c.attention_biases += 1;
      if (t.group == ParameterGroup::routed_experts) c.expert_biases += 1;
      return;
    case TensorRole::attention_sink:
    case TensorRole::relative_position_bias:
    case TensorRole::ssm_parameter:
      return;  // read inside another op's kernel
    case TensorRole::router:
      c.tensor_ops += t.is_matrix() ? 1 : 3 * t.copies;  // a [1, n_embd] shared-expert gate: MUL_MAT, SIGMOID, MUL
      return;
    case TensorRole::attention_query:
      c.attention = true;
      c.attention_qkv += 1;
      break;
    case TensorRole::attention_key:
    case TensorRole::attention_value:
      c.attention_qkv += 1;
      break;
    case TensorRole::attention_query_down:
      c.query_down = true;
      c.attention_down += 1;
      break;
    case TensorRole::attention_kv_down:
      c.attention = true;
      c.attention_down += 1;
      break;
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
      c.dense_ffn = true;
      (t.role == TensorRole::mlp_gate ? c.mlp_gate : c.mlp_up) = true;
      break;
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down:
      c.routed = true;
      if (t.is_matrix() || t.copies > 1) c.expert_matrices += 1;
      if (t.role == TensorRole::expert_gate) c.expert_gate = true;
      if (t.role == TensorRole::expert_up) c.expert_up = true;
      break;
    case TensorRole::shared_expert_gate:
    case TensorRole::shared_expert_up:
      c.shared = true;
      (t.role == TensorRole::shared_expert_gate ? c.shared_gate : c.shared_up) = true;
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
  // llama.cpp's tensor names (src/llama-arch.cpp LLM_TENSOR_NAMES): attn_q, attn_k, attn_v (attn_qkv when
  // fused), MLA's attn_q_a, attn_q_b and attn_kv_a_mqa, attn_q_norm and attn_k_norm (MLA: attn_q_a_norm,
  // attn_kv_a_norm), ffn_gate/ffn_up, their _exps (routed) and _shexp (shared) forms.
  const bool attention_qkv = base == "attn_q" || base == "attn_k" || base == "attn_v" || base == "attn_q_b";
  if (bias) {
    c.tensor_ops += 1;
    if (ends("_norm")) c.gguf_norm_bias = true;
    if (attention_qkv || base == "attn_qkv" || base == "attn_output") c.attention_biases += 1;
    if (base == "ffn_gate_exps" || base == "ffn_up_exps" || base == "ffn_down_exps") c.expert_biases += 1;
  } else if (rank < 2) {
    c.tensor_ops += ends("_norm") ? 2 : base == "ffn_gate_inp_shexp" ? 3 : ends("_sinks") ? 0 : 1;
    if (ends("_norm")) c.gguf_norms += 1;
    if (ends("_norm") && base.starts_with("attn_") && base != "attn_norm" && base != "attn_post_norm")
      c.attention_norms += 1;
  } else {
    c.tensor_ops += 1;
    if (base.starts_with("attn_q") || base.starts_with("attn_kv_a")) c.attention = true;
    if (attention_qkv || base == "attn_qkv") c.attention_qkv += 1;
    if (base == "attn_q_a") c.query_down = true;
    if (base == "attn_q_a" || base == "attn_kv_a_mqa") c.attention_down += 1;
    if (base == "ffn_up" || base == "ffn_gate") c.dense_ffn = true;
    if (base == "ffn_gate") c.mlp_gate = true;
    if (base == "ffn_up") c.mlp_up = true;
    if (ends("_exps")) {
      c.routed = true;
      c.expert_matrices += 1;
    }
    if (base == "ffn_gate_exps") c.expert_gate = true;
    if (base == "ffn_up_exps") c.expert_up = true;
    if (base == "ffn_up_shexp" || base == "ffn_gate_shexp") c.shared = true;
    if (base == "ffn_gate_shexp") c.shared_gate = true;
    if (base == "ffn_up_shexp") c.shared_up = true;
  }
}

}  // namespace fitcheck
