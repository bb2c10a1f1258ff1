// SPDX-License-Identifier: MIT
// Gemma 3n's per-layer embeddings, AltUp and LAuReL, as huggingface/transformers@00aa0f5dc1cc
// src/transformers/models/gemma3n/modeling_gemma3n.py builds them. Every Linear has no bias;
// Gemma3nRMSNorm (with_scale) has one weight of its width.
#include "model/params_gemma3n.hpp"

namespace fitcheck::detail {
namespace {

void add(std::vector<WeightTensor>& tensors, TensorRole role, ParameterGroup group, std::int32_t layer,
         std::int64_t rows, std::int64_t columns, std::int64_t copies = 1) {
  if (rows > 0 && columns > 0 && copies > 0) tensors.push_back({role, group, layer, rows, columns, copies});
}

}  // namespace

// Gemma3nTextModel: embed_tokens_per_layer (vocab_size_per_layer_input x layers x
// hidden_size_per_layer_input), per_layer_model_projection Linear(hidden, layers x per-layer size),
// per_layer_projection_norm (per-layer size), and altup_num_inputs - 1 each of altup_projections and
// altup_unembed_projections, Linear(hidden, hidden).
void add_gemma3n_model_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model) {
  const Gemma3nModules& g = *model.gemma3n;
  const std::int64_t hidden = model.hidden_size;
  const std::int64_t per_layer_width = model.num_layers * g.per_layer_input_size;
  add(tensors, TensorRole::token_embedding, ParameterGroup::embedding, -1, g.per_layer_vocab_size, per_layer_width);
  add(tensors, TensorRole::mlp_up, ParameterGroup::mlp, -1, per_layer_width, hidden);
  add(tensors, TensorRole::norm, ParameterGroup::norms, -1, 1, g.per_layer_input_size);
  add(tensors, TensorRole::mlp_down, ParameterGroup::mlp, -1, hidden, hidden, 2 * (g.altup_inputs - 1));
}

// Gemma3nTextDecoderLayer: Gemma3nTextAltUp (correct_output_scale (hidden), correction_coefs
// Linear(n, n), prediction_coefs Linear(n, n^2), modality_router Linear(hidden, n), router_norm
// (hidden)); Gemma3nTextLaurelBlock (linear_left Linear(hidden, rank), linear_right Linear(rank,
// hidden), post_laurel_norm (hidden)); per_layer_input_gate Linear(hidden, per-layer size),
// per_layer_projection Linear(per-layer size, hidden) and post_per_layer_input_norm (hidden).
void add_gemma3n_layer_tensors(std::vector<WeightTensor>& tensors, const ModelDescription& model, std::int32_t layer) {
  const Gemma3nModules& g = *model.gemma3n;
  const std::int64_t hidden = model.hidden_size, n = g.altup_inputs;
  add(tensors, TensorRole::norm, ParameterGroup::norms, layer, 1, hidden);  // correct_output_scale
  add(tensors, TensorRole::router, ParameterGroup::router, layer, n, n);
  add(tensors, TensorRole::router, ParameterGroup::router, layer, n * n, n);
  add(tensors, TensorRole::router, ParameterGroup::router, layer, n, hidden);
  add(tensors, TensorRole::norm, ParameterGroup::norms, layer, 1, hidden, 3);  // router, LAuReL, per-layer norms
  add(tensors, TensorRole::mlp_up, ParameterGroup::mlp, layer, g.laurel_rank, hidden);
  add(tensors, TensorRole::mlp_down, ParameterGroup::mlp, layer, hidden, g.laurel_rank);
  add(tensors, TensorRole::mlp_gate, ParameterGroup::mlp, layer, g.per_layer_input_size, hidden);
  add(tensors, TensorRole::mlp_down, ParameterGroup::mlp, layer, hidden, g.per_layer_input_size);
}

}  // namespace fitcheck::detail
