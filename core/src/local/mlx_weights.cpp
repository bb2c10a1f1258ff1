// SPDX-License-Identifier: MIT
// The weights of a model as mlx_lm.convert stores them, and what a token and a prompt chunk read of
// them. Source: ml-explore/mlx-lm d78bf58e (0.32.0) and ml-explore/mlx 846d1762.
#include <algorithm>

#include "fitcheck/params.hpp"
#include "local/mlx_rules.hpp"

namespace fitcheck {
namespace {

bool quantizable_role(TensorRole role) {
  switch (role) {
    case TensorRole::norm:
    case TensorRole::bias:
    case TensorRole::attention_sink:
    case TensorRole::relative_position_bias:
    case TensorRole::ssm_convolution:
    case TensorRole::ssm_parameter:
      return false;
    default:
      return true;
  }
}

}  // namespace

// Weights: each module with to_quantized (Linear, Embedding, SwitchLinear) whose input width is a
// multiple of the group size (utils.py quantize_model l.867-879) holds bits per weight packed in
// uint32 plus a scale and a bias per group in the model's dtype (mlx ops.cpp l.5089-5097); norms,
// biases and the other parameters keep the dtype. MoE routers are kept at 8 bits (the quant_predicate
// of qwen3_moe.py, gpt_oss.py and most MoE families).
MlxWeights mlx_weights(const ModelDescription& model, const MlxQuantization& q, std::int64_t dtype_bytes) {
  MlxWeights w;
  for (const WeightTensor& t : weight_tensors(model)) {
    const bool quantize = q.bits > 0 && t.is_matrix() && quantizable_role(t.role) && t.columns % q.group_size == 0;
    const int bits = t.role == TensorRole::router ? 8 : q.bits;
    std::int64_t tensor_bytes = t.parameters() * dtype_bytes;
    if (quantize) {
      tensor_bytes = t.rows * t.copies * (t.columns * bits / 8 + 2 * (t.columns / q.group_size) * dtype_bytes);
      w.quantized_parameters += t.parameters();
    } else {
      w.unquantized_parameters += t.parameters();
    }
    w.bytes += tensor_bytes;
    if (t.role == TensorRole::token_embedding || t.role == TensorRole::position_embedding) {
      // A gather reads one row a token; a tied head reads the whole embedding as the output layer.
      if (t.role == TensorRole::token_embedding && model.tie_word_embeddings)
        w.decode_weight_bytes += static_cast<double>(tensor_bytes);
      continue;
    }
    if (t.role == TensorRole::lm_head) {
      w.decode_weight_bytes += static_cast<double>(tensor_bytes);
      continue;
    }
    w.layer_weight_bytes += static_cast<double>(tensor_bytes);
    // A token runs its top-k routed experts: k of each expert matrix's copies.
    double share = 1;
    if (is_routed_expert(t.role)) {
      const LayerShape& shape =
          model.layer_kinds[model.layer_kind_of_layer[static_cast<std::size_t>(std::max(0, t.layer))]];
      share = static_cast<double>(shape.moe.experts_per_token) / static_cast<double>(t.copies);
    }
    w.decode_weight_bytes += static_cast<double>(tensor_bytes) * share;
    if (t.is_matrix()) {
      const double active = static_cast<double>(t.parameters()) * share;
      w.matrix_parameters_per_token += active;
      if (quantize) w.quantized_matrix_parameters += active;
    }
  }
  return w;
}

}  // namespace fitcheck
