// SPDX-License-Identifier: MIT
// The weight-tensor inventory of a model and the exact parameter count derived from it.
#include "fitcheck/params.hpp"

#include "fitcheck/config.hpp"
#include "model/gemma3n_towers_params.hpp"
#include "model/params_gemma3n.hpp"
#include "model/params_recurrent.hpp"
#include "model/params_zamba2.hpp"
#include "model/phi4_audio_params.hpp"
#include "model/tensor_list.hpp"
#include "model/vision_params.hpp"

namespace fitcheck {
namespace {

using detail::checked_add;
using detail::TensorList;

void add_norm(TensorList& list, const ModelDescription& model, std::int32_t layer, std::int64_t width,
              std::int64_t count, ParameterGroup group = ParameterGroup::norms) {
  if (!model.norm_has_weight || count == 0) return;
  list.vector(TensorRole::norm, group, layer, width, count);
  if (model.norm == NormKind::layer_norm) list.vector(TensorRole::norm, group, layer, width, count);  // bias
}

// q, k, v, o of one attention block (self or cross) of standard multi-head/grouped attention.
void add_standard_attention(TensorList& list, const AttentionShape& a, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::attention;
  const std::int64_t query_width = a.num_heads * a.head_dim;
  const std::int64_t key_width = a.num_kv_heads * a.head_dim;
  const std::int64_t value_width = a.num_kv_heads * a.value_head_dim;
  list.add(TensorRole::attention_query, group, layer, a.output_gate ? 2 * query_width : query_width, hidden);
  list.add(TensorRole::attention_key, group, layer, key_width, hidden);
  list.add(TensorRole::attention_value, group, layer, value_width, hidden);
  list.add(TensorRole::attention_output, group, layer, hidden, a.num_heads * a.value_head_dim);
  if (a.qkv_bias) {
    list.vector(TensorRole::bias, group, layer, query_width);
    if (!a.key_without_bias) list.vector(TensorRole::bias, group, layer, key_width);
    list.vector(TensorRole::bias, group, layer, value_width);
  }
  if (a.output_bias) list.vector(TensorRole::bias, group, layer, hidden);
}

// DeepSeek-V3.2's lightning indexer: deepseek-ai/DeepSeek-V3.2-Exp@3b99a53 inference/model.py Indexer
// (and vLLM's deepseek_v2.py Indexer): wq_b from the query latent to index_heads x index_head_dim,
// wk from hidden to one key of index_head_dim, k_norm a LayerNorm (weight and bias), weights_proj
// from hidden to one weight per index head; no biases. vLLM replicates all of them on every
// tensor-parallel rank (ReplicatedLinear), so wq_b and wk take the roles of MLA's replicated
// down-projections; weights_proj is built in the 16-bit default dtype, never FP8 (quant_config
// None), so it takes the router's role, the 16-bit matrix of a quantized checkpoint.
void add_lightning_indexer(TensorList& list, const AttentionShape& a, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::attention;
  list.add(TensorRole::attention_query_down, group, layer, a.index_heads * a.index_head_dim, a.q_lora_rank);  // wq_b
  list.add(TensorRole::attention_kv_down, group, layer, a.index_head_dim, hidden);                            // wk
  list.vector(TensorRole::norm, group, layer, a.index_head_dim, 2);   // k_norm weight and bias
  list.add(TensorRole::router, group, layer, a.index_heads, hidden);  // weights_proj
}

// Multi-head latent attention, DeepSeek-V2 paper §2.1 (arXiv 2405.04434): queries through an
// optional low-rank bottleneck; keys and values decompressed from a kv_lora_rank latent plus a
// shared rotary key of qk_rope_head_dim.
void add_latent_attention(TensorList& list, const AttentionShape& a, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::attention;
  const std::int64_t query_width = a.num_heads * a.head_dim;
  if (a.q_lora_rank > 0) {
    list.add(TensorRole::attention_query_down, group, layer, a.q_lora_rank, hidden);
    list.vector(TensorRole::norm, group, layer, a.q_lora_rank);  // q_a_layernorm
    list.add(TensorRole::attention_query, group, layer, query_width, a.q_lora_rank);
  } else {
    list.add(TensorRole::attention_query, group, layer, query_width, hidden);
  }
  list.add(TensorRole::attention_kv_down, group, layer, a.kv_lora_rank + a.qk_rope_head_dim, hidden);
  list.vector(TensorRole::norm, group, layer, a.kv_lora_rank);  // kv_a_layernorm
  list.add(TensorRole::attention_kv_up, group, layer, a.num_heads * (a.qk_nope_head_dim + a.value_head_dim),
           a.kv_lora_rank);
  list.add(TensorRole::attention_output, group, layer, hidden, a.num_heads * a.value_head_dim);
  if (a.output_bias) list.vector(TensorRole::bias, group, layer, hidden);
  if (a.has_indexer()) add_lightning_indexer(list, a, layer, hidden);
}

void add_attention(TensorList& list, const AttentionShape& a, std::int32_t layer, std::int64_t hidden) {
  if (a.is_multi_latent()) {
    add_latent_attention(list, a, layer, hidden);
  } else {
    // T5 and Whisper: a self-attention block and a cross-attention block of the same shape; Llama 3.2
    // Vision's cross-attention layers: the cross block alone.
    add_standard_attention(list, a, layer, hidden);
    if (a.cross_attention && a.self_attention) add_standard_attention(list, a, layer, hidden);
  }
  const std::int64_t norm_tensors = a.qk_norm_has_bias ? 2 : 1;
  if (a.query_norm_size > 0)
    list.vector(TensorRole::norm, ParameterGroup::attention, layer, a.query_norm_size, norm_tensors);
  if (a.key_norm_size > 0)
    list.vector(TensorRole::norm, ParameterGroup::attention, layer, a.key_norm_size, norm_tensors);
  if (a.attention_sinks) list.vector(TensorRole::attention_sink, ParameterGroup::attention, layer, a.num_heads);
}

struct MlpRoles {
  TensorRole gate, up, down;
  ParameterGroup group;
};

void add_mlp(TensorList& list, const MlpRoles& roles, std::int32_t layer, std::int64_t hidden, std::int64_t width,
             bool gated, bool bias, std::int64_t copies) {
  if (gated) list.add(roles.gate, roles.group, layer, width, hidden, copies);
  list.add(roles.up, roles.group, layer, width, hidden, copies);
  list.add(roles.down, roles.group, layer, hidden, width, copies);
  if (bias) {
    if (gated) list.vector(TensorRole::bias, roles.group, layer, width, copies);
    list.vector(TensorRole::bias, roles.group, layer, width, copies);
    list.vector(TensorRole::bias, roles.group, layer, hidden, copies);
  }
}

// A Zamba2 hybrid layer's attention and MLP are a shared block's: params_zamba2.cpp adds them.
void add_layer(TensorList& list, const ModelDescription& model, const LayerShape& shape, std::int32_t layer) {
  const std::int64_t hidden = model.hidden_size;
  if (shape.has_attention() && !shape.shared_transformer) add_attention(list, shape.attention, layer, hidden);
  if (shape.is_ssm()) detail::add_recurrent_mixer(list, shape.ssm, layer, hidden);
  const bool own_mlp = !shape.shared_transformer;
  if (own_mlp && shape.is_moe()) {
    const MoeShape& moe = shape.moe;
    list.add(TensorRole::router, ParameterGroup::router, layer, moe.num_experts, hidden);
    if (moe.router_bias) list.vector(TensorRole::bias, ParameterGroup::router, layer, moe.num_experts);
    if (moe.router_correction_bias) list.vector(TensorRole::bias, ParameterGroup::router, layer, moe.num_experts);
    add_mlp(list,
            {TensorRole::expert_gate, TensorRole::expert_up, TensorRole::expert_down, ParameterGroup::routed_experts},
            layer, hidden, moe.expert_intermediate_size, moe.gated, moe.expert_bias, moe.num_experts);
    if (moe.num_shared_experts > 0) {
      add_mlp(list,
              {TensorRole::shared_expert_gate, TensorRole::shared_expert_up, TensorRole::shared_expert_down,
               ParameterGroup::shared_experts},
              layer, hidden, moe.num_shared_experts * moe.shared_expert_intermediate_size, moe.gated, moe.expert_bias,
              1);
      if (moe.shared_expert_gate) list.add(TensorRole::router, ParameterGroup::router, layer, 1, hidden);
    }
  } else if (own_mlp && shape.mlp.intermediate_size > 0) {
    add_mlp(list, {TensorRole::mlp_gate, TensorRole::mlp_up, TensorRole::mlp_down, ParameterGroup::mlp}, layer, hidden,
            shape.mlp.intermediate_size, shape.mlp.gated, shape.mlp.bias, 1);
    // Learned activation scalars, small vectors kept at full precision as biases are.
    list.vector(TensorRole::bias, ParameterGroup::mlp, layer, shape.mlp.activation_parameters);
  }
  add_norm(list, model, layer, hidden, shape.hidden_norms);
  list.vector(TensorRole::norm, ParameterGroup::norms, layer, 1, shape.scalar_gates);  // tanh gates, one value each
}

// Far above any published model (the largest are near 2^41). Figures derived from the count, at up
// to 32 bytes per parameter, stay below 2^53: exact as integers and as JavaScript numbers.
constexpr std::int64_t max_total_parameters = std::int64_t{1} << 48;

std::int64_t checked_parameters(const WeightTensor& tensor) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(tensor.rows, tensor.columns, &product) ||
      __builtin_mul_overflow(product, tensor.copies, &product))
    throw ConfigError("", "a weight tensor of this config has more than 2^63 elements; check the sizes");
  return product;
}

// DeepSeek-V3 §2.2 (arXiv 2412.19437): each multi-token-prediction module is one more decoder
// layer (the shape of the last main layer), two RMSNorms over the hidden state and the next token's
// embedding, a 2h -> h projection, and a final norm; it shares the embedding and output head.
// Qwen3.5's module is the same: mtp.fc, pre_fc_norm_embedding, pre_fc_norm_hidden, one full-attention
// layer and mtp.norm (Qwen3.5-9B and -4B: 243,290,624 and 120,599,552 parameters published).
std::int64_t multi_token_prediction_parameters(const ModelDescription& model) {
  if (model.multi_token_prediction_layers == 0 || model.layer_kind_of_layer.empty()) return 0;
  std::vector<WeightTensor> tensors;
  TensorList list(tensors);
  const LayerShape& last = model.layer_kinds[model.layer_kind_of_layer.back()];
  const std::int64_t hidden = model.hidden_size;
  add_layer(list, model, last, 0);
  add_norm(list, model, 0, hidden, 3);  // enorm, hnorm and the shared head's norm
  list.add(TensorRole::attention_output, ParameterGroup::attention, 0, hidden, 2 * hidden);  // eh_proj
  std::int64_t per_module = 0;
  for (const auto& tensor : tensors) per_module = checked_add(per_module, checked_parameters(tensor));
  std::int64_t modules = 0;
  if (__builtin_mul_overflow(per_module, model.multi_token_prediction_layers, &modules) ||
      modules > max_total_parameters)
    throw ConfigError(model.multi_token_prediction_field,
                      std::string(model.multi_token_prediction_field) + " (" +
                          std::to_string(model.multi_token_prediction_layers) + ") modules of " +
                          std::to_string(per_module) +
                          " parameters each exceed 2^48 parameters, far beyond any real model");
  return modules;
}

// The config field that most likely makes `tensor` large, for the message.
const char* size_field(const WeightTensor& tensor) {
  switch (tensor.role) {
    case TensorRole::token_embedding:
    case TensorRole::lm_head:
      return "vocab_size";
    case TensorRole::position_embedding:
      return "max_position_embeddings";
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down:
      return "num_experts";
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
    case TensorRole::mlp_down:
      return "intermediate_size";
    default:
      return "hidden_size";
  }
}

// Every consumer of the inventory (weight bytes per format, shards, capacity) multiplies these
// counts by small factors without overflow checks; the cap keeps them all exact.
void check_model_size(const std::vector<WeightTensor>& tensors) {
  std::int64_t total = 0;
  const WeightTensor* largest = nullptr;
  std::int64_t largest_parameters = 0;
  for (const WeightTensor& tensor : tensors) {
    std::int64_t parameters = 0;
    const bool overflow = __builtin_mul_overflow(tensor.rows, tensor.columns, &parameters) ||
                          __builtin_mul_overflow(parameters, tensor.copies, &parameters) ||
                          __builtin_add_overflow(total, parameters, &total);
    if (overflow || parameters > largest_parameters) {
      largest = &tensor;
      largest_parameters = parameters;
    }
    if (overflow || total > max_total_parameters) {
      const char* field = size_field(*largest);
      throw ConfigError(
          field, std::string("this config describes more than 2^48 parameters, far beyond any real model; its largest "
                             "tensor is ") +
                     tensor_role_name(largest->role) + " (" + std::to_string(largest->rows) + " x " +
                     std::to_string(largest->columns) + " x " + std::to_string(largest->copies) + "): check " + field +
                     ", hidden_size and num_hidden_layers");
    }
  }
}

}  // namespace

const char* parameter_group_name(ParameterGroup group) {
  switch (group) {
    case ParameterGroup::embedding:
      return "embedding";
    case ParameterGroup::attention:
      return "attention";
    case ParameterGroup::mlp:
      return "mlp";
    case ParameterGroup::routed_experts:
      return "routed_experts";
    case ParameterGroup::shared_experts:
      return "shared_experts";
    case ParameterGroup::router:
      return "router";
    case ParameterGroup::norms:
      return "norms";
    case ParameterGroup::lm_head:
      return "lm_head";
    case ParameterGroup::ssm:
      return "ssm";
    case ParameterGroup::count_:
      break;
  }
  return "unknown";
}

std::vector<WeightTensor> weight_tensors(const ModelDescription& model) {
  std::vector<WeightTensor> tensors;
  tensors.reserve(static_cast<std::size_t>(model.num_layers) * 16 + 8);
  TensorList list(tensors);
  const std::int64_t hidden = model.hidden_size;
  const std::int64_t embedding_width = model.word_embedding_dim > 0 ? model.word_embedding_dim : hidden;

  list.add(TensorRole::token_embedding, ParameterGroup::embedding, -1, model.vocab_size + model.extra_embedding_rows,
           embedding_width);
  if (embedding_width != hidden) {  // OPT project_in / project_out
    list.add(TensorRole::token_embedding, ParameterGroup::embedding, -1, hidden, embedding_width);
    list.add(TensorRole::token_embedding, ParameterGroup::embedding, -1, embedding_width, hidden);
  }
  if (model.position_encoding == PositionEncoding::learned_absolute)
    list.add(TensorRole::position_embedding, ParameterGroup::embedding, -1, model.learned_position_count, hidden);
  add_norm(list, model, -1, hidden, model.embedding_norms);
  if (model.audio_stem) {  // WhisperEncoder conv1, conv2 (weights and biases) and embed_positions
    const AudioEncoderStem& stem = *model.audio_stem;
    list.add(TensorRole::token_embedding, ParameterGroup::embedding, -1, hidden, stem.mel_bins * stem.conv_kernel);
    list.add(TensorRole::token_embedding, ParameterGroup::embedding, -1, hidden, hidden * stem.conv_kernel);
    list.vector(TensorRole::bias, ParameterGroup::embedding, -1, hidden, 2);
    list.add(TensorRole::position_embedding, ParameterGroup::embedding, -1, stem.encoder_positions, hidden);
  }
  if (model.gemma3n) detail::add_gemma3n_model_tensors(tensors, model);

  bool first_encoder = true, first_decoder = true;
  std::int64_t shared_block_uses = 0;
  for (std::size_t i = 0; i < model.layer_kind_of_layer.size(); ++i) {
    const LayerShape& shape = model.layer_kinds[model.layer_kind_of_layer[i]];
    const auto layer = static_cast<std::int32_t>(i);
    // T5 keeps its relative-position bias table in the first layer of each stack.
    bool& first = shape.is_encoder ? first_encoder : first_decoder;
    if (model.position_encoding == PositionEncoding::relative_buckets && first)
      list.add(TensorRole::relative_position_bias, ParameterGroup::attention, layer,
               model.relative_attention_num_buckets, shape.attention.num_heads);
    first = false;
    add_layer(list, model, shape, layer);
    if (model.gemma3n) detail::add_gemma3n_layer_tensors(tensors, model, layer);
    if (model.shared_blocks && shape.shared_transformer)
      detail::add_shared_transformer_tensors(tensors, model, shape, layer, shared_block_uses++);
  }
  add_norm(list, model, -1, hidden, model.final_norms);
  if (!model.tie_word_embeddings)
    list.add(TensorRole::lm_head, ParameterGroup::lm_head, -1, model.vocab_size, embedding_width);
  if (model.lm_head_bias) list.vector(TensorRole::bias, ParameterGroup::lm_head, -1, model.vocab_size);
  check_model_size(tensors);
  return tensors;
}

namespace {

// The vision and audio towers and their projectors, counted apart from the language model.
void count_towers(const ModelDescription& model, ParameterCount& count) {
  if (model.vision) detail::count_vision(*model.vision, count);
  if (model.audio && model.audio->kind == "phi4_multimodal_conformer")
    detail::count_phi4_multimodal_audio(*model.audio, count);
  else if (model.audio)
    detail::count_gemma3n_audio(*model.audio, count);
}

}  // namespace

std::int64_t encoder_parameters(const ModelDescription& model) {
  ParameterCount towers;
  count_towers(model, towers);
  return detail::checked_add(detail::checked_add(towers.vision_tower, towers.multimodal_projector),
                             detail::checked_add(towers.audio_tower, towers.audio_projector));
}

bool is_encoder_weights_note(std::string_view assumption) {
  return assumption.find("(total_params_with_") != std::string_view::npos;
}

ParameterCount count_parameters(const ModelDescription& model) {
  ParameterCount count;
  std::int64_t inactive_routed = 0;
  std::int64_t group_totals[static_cast<int>(ParameterGroup::count_)] = {};
  for (const WeightTensor& tensor : weight_tensors(model)) {
    const std::int64_t parameters = checked_parameters(tensor);
    count.total = checked_add(count.total, parameters);
    auto& group_total = group_totals[static_cast<int>(tensor.group)];
    group_total = checked_add(group_total, parameters);
    if (tensor.group == ParameterGroup::routed_experts) {
      const MoeShape& moe = model.layer_kinds[model.layer_kind_of_layer[static_cast<std::size_t>(tensor.layer)]].moe;
      // Each routed tensor holds num_experts copies; a token uses experts_per_token of them.
      inactive_routed += parameters / moe.num_experts * (moe.num_experts - moe.experts_per_token);
    }
  }
  auto group = [&](ParameterGroup g) { return group_totals[static_cast<int>(g)]; };
  count.breakdown = {
      group(ParameterGroup::embedding),      group(ParameterGroup::attention),      group(ParameterGroup::mlp),
      group(ParameterGroup::routed_experts), group(ParameterGroup::shared_experts), group(ParameterGroup::router),
      group(ParameterGroup::norms),          group(ParameterGroup::lm_head),        group(ParameterGroup::ssm)};
  count.active_per_token = count.total - inactive_routed;
  count.active_convention =
      inactive_routed > 0 ? "all non-expert parameters (embeddings and lm_head included) plus top-k routed experts "
                            "and any shared experts"
                          : "dense model: every parameter is used for every token";
  count.non_embedding = count.total - count.breakdown.embedding - count.breakdown.lm_head;
  count.multi_token_prediction = multi_token_prediction_parameters(model);
  count_towers(model, count);
  if (model.tie_word_embeddings)
    count.tied_output_head =
        model.vocab_size * (model.word_embedding_dim > 0 ? model.word_embedding_dim : model.hidden_size);
  return count;
}

}  // namespace fitcheck

namespace fitcheck {

const char* tensor_role_name(TensorRole role) {
  switch (role) {
    case TensorRole::token_embedding:
      return "token_embedding";
    case TensorRole::position_embedding:
      return "position_embedding";
    case TensorRole::lm_head:
      return "lm_head";
    case TensorRole::attention_query:
      return "attention_query";
    case TensorRole::attention_query_down:
      return "attention_query_down";
    case TensorRole::attention_key:
      return "attention_key";
    case TensorRole::attention_value:
      return "attention_value";
    case TensorRole::attention_kv_down:
      return "attention_kv_down";
    case TensorRole::attention_kv_up:
      return "attention_kv_up";
    case TensorRole::attention_output:
      return "attention_output";
    case TensorRole::mlp_gate:
      return "mlp_gate";
    case TensorRole::mlp_up:
      return "mlp_up";
    case TensorRole::mlp_down:
      return "mlp_down";
    case TensorRole::expert_gate:
      return "expert_gate";
    case TensorRole::expert_up:
      return "expert_up";
    case TensorRole::expert_down:
      return "expert_down";
    case TensorRole::shared_expert_gate:
      return "shared_expert_gate";
    case TensorRole::shared_expert_up:
      return "shared_expert_up";
    case TensorRole::shared_expert_down:
      return "shared_expert_down";
    case TensorRole::router:
      return "router";
    case TensorRole::norm:
      return "norm";
    case TensorRole::bias:
      return "bias";
    case TensorRole::attention_sink:
      return "attention_sink";
    case TensorRole::relative_position_bias:
      return "relative_position_bias";
    case TensorRole::ssm_in_projection:
      return "ssm_in_projection";
    case TensorRole::ssm_convolution:
      return "ssm_convolution";
    case TensorRole::ssm_output:
      return "ssm_output";
    case TensorRole::ssm_parameter:
      return "ssm_parameter";
  }
  return "unknown";
}

}  // namespace fitcheck
