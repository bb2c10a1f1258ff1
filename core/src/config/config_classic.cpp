// SPDX-License-Identifier: MIT
// Families of the GPT-2 era and other non-Llama layouts: learned or ALiBi positions, LayerNorm
// with biases, parallel blocks, fused projections, encoder-decoder. Defaults follow each
// family's transformers configuration class (or the model's own remote code where it has one).
#include <functional>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// The dense MLP width (intermediate_size or an alias: n_inner, ffn_dim, ffn_hidden_size...), or
// `multiple` x hidden when absent or null.
std::int64_t mlp_width(const ConfigFields& fields, std::int64_t hidden, std::int64_t multiple,
                       ModelDescription& model) {
  if (auto width = fields.optional_count("intermediate_size", 1, max_intermediate_size)) return *width;
  model.assumptions.push_back("MLP width absent: " + std::to_string(multiple) +
                              " x hidden_size = " + std::to_string(multiple * hidden) + ", the family default");
  return multiple * hidden;
}

void fill_layers(ModelDescription& model, const LayerShape& layer) {
  for (std::int64_t i = 0; i < model.num_layers; ++i) append_layer(model, layer);
}

// Shared start: hidden, layers, heads, vocabulary.
LayerShape begin_decoder(const ConfigFields& fields, ModelDescription& model, NormKind norm, bool tie_default) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.norm = norm;
  model.tie_word_embeddings = read_tie(fields, tie_default, model);
  LayerShape layer;
  layer.attention.num_heads = read_head_count(fields);
  layer.attention.num_kv_heads = layer.attention.num_heads;
  layer.attention.head_dim = read_head_dim(fields, model.hidden_size, layer.attention.num_heads, model);
  layer.attention.value_head_dim = layer.attention.head_dim;
  return layer;
}

void read_gpt2(const ConfigFields& fields, ModelDescription& model, bool bigcode) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, true);
  model.position_encoding = PositionEncoding::learned_absolute;
  model.learned_position_count = fields.required_count("max_position_embeddings", 1, max_positions);
  model.max_position_embeddings = model.learned_position_count;
  if (bigcode && fields.boolean("multi_query").value_or(true)) layer.attention.num_kv_heads = 1;
  layer.attention.qkv_bias = layer.attention.output_bias = true;
  layer.mlp = {mlp_width(fields, model.hidden_size, 4, model), false, true};
  fill_layers(model, layer);
}

void read_gpt_neox(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, false);
  const bool bias = read_bias_switch(fields).value_or(true);
  layer.attention.qkv_bias = layer.attention.output_bias = bias;
  layer.mlp = {fields.required_count("intermediate_size", 1, max_intermediate_size), false, true};
  layer.parallel_attention_mlp = fields.boolean("use_parallel_residual").value_or(true);
  // NeoX keeps both input_layernorm and post_attention_layernorm even in parallel mode.
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  fill_layers(model, layer);
}

void read_gptj(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, false);
  layer.hidden_norms = 1;  // GPTJBlock has ln_1 only; attention and MLP read the same normed input
  layer.parallel_attention_mlp = true;
  layer.mlp = {mlp_width(fields, model.hidden_size, 4, model), false, true};
  model.lm_head_bias = true;
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  fill_layers(model, layer);
}

void read_falcon(const std::string& type, const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, true);
  // RefinedWeb (the original Falcon-40B code) always used the new decoder architecture.
  const bool new_architecture = fields.boolean("new_decoder_architecture").value_or(type == "refinedweb");
  const bool bias = read_bias_switch(fields).value_or(false);  // Falcon's `bias`: every linear layer
  layer.attention.qkv_bias = layer.attention.output_bias = bias;
  if (new_architecture) {
    layer.attention.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    layer.hidden_norms = fields.optional_count("num_ln_in_parallel_attn", 1, 2).value_or(2);
    layer.parallel_attention_mlp = true;
  } else {
    layer.attention.num_kv_heads = fields.boolean("multi_query").value_or(true) ? 1 : layer.attention.num_heads;
    layer.parallel_attention_mlp = fields.boolean("parallel_attn").value_or(true);
    layer.hidden_norms = layer.parallel_attention_mlp ? 1 : 2;
  }
  layer.mlp = {mlp_width(fields, model.hidden_size, 4, model), false, bias};
  model.position_encoding =
      fields.boolean("alibi").value_or(false) ? PositionEncoding::alibi : PositionEncoding::rotary;
  fill_layers(model, layer);
}

void read_opt(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, true);
  const bool bias = fields.boolean("enable_bias").value_or(true);
  layer.attention.qkv_bias = layer.attention.output_bias = bias;
  layer.mlp = {fields.required_count("intermediate_size", 1, max_intermediate_size), false, bias};
  model.position_encoding = PositionEncoding::learned_absolute;
  model.max_position_embeddings = fields.required_count("max_position_embeddings", 1, max_positions);
  model.learned_position_count = model.max_position_embeddings + 2;  // OPTLearnedPositionalEmbedding offset of 2
  const std::int64_t projection =
      fields.optional_count("word_embed_proj_dim", 1, max_hidden_size).value_or(model.hidden_size);
  if (projection != model.hidden_size) model.word_embedding_dim = projection;
  // OPT-350m applies LayerNorm after each block and has no final norm.
  if (!fields.boolean("do_layer_norm_before").value_or(true)) model.final_norms = 0;
  fill_layers(model, layer);
}

void read_bloom(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, true);
  layer.attention.qkv_bias = layer.attention.output_bias = true;
  layer.mlp = {4 * model.hidden_size, false, true};  // BloomMLP: dense_h_to_4h is fixed at 4 x hidden
  model.position_encoding = PositionEncoding::alibi;
  model.embedding_norms = 1;  // word_embeddings_layernorm
  fill_layers(model, layer);
}

void read_mpt(const ConfigFields& fields, ModelDescription& model) {
  const bool no_bias = fields.boolean("no_bias").value_or(true);
  LayerShape layer = begin_decoder(fields, model, no_bias ? NormKind::layer_norm_no_bias : NormKind::layer_norm, true);
  model.tie_word_embeddings = true;  // MptForCausalLM always reuses wte as the output layer
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(2048);
  bool alibi = false;
  if (auto attention = fields.object("attn_config")) {
    alibi = attention->boolean("attn_config.alibi").value_or(false);
    if (auto kv_heads = attention->optional_count("attn_config.kv_n_heads", 1, max_heads);
        kv_heads && attention->string("attn_config.attn_type").value_or("") != "multihead_attention")
      layer.attention.num_kv_heads = *kv_heads;
    if (attention->boolean("attn_config.qk_ln").value_or(false)) {
      layer.attention.query_norm_size = model.hidden_size;
      layer.attention.key_norm_size = layer.attention.num_kv_heads * layer.attention.head_dim;
      layer.attention.qk_norm_has_bias = !no_bias;
    }
  }
  if (alibi) {
    model.position_encoding = PositionEncoding::alibi;
  } else if (fields.boolean("learned_pos_emb").value_or(true)) {
    model.position_encoding = PositionEncoding::learned_absolute;
    model.learned_position_count = model.max_position_embeddings;
  }
  layer.attention.qkv_bias = layer.attention.output_bias = !no_bias;
  const std::int64_t ratio = fields.optional_count("expansion_ratio", 1, 1024).value_or(4);
  layer.mlp = {ratio * model.hidden_size, false, !no_bias};
  fill_layers(model, layer);
}

void read_phi(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm, false);
  layer.attention.num_kv_heads =
      fields.optional_count("num_key_value_heads", 1, max_heads).value_or(layer.attention.num_heads);
  layer.attention.qkv_bias = layer.attention.output_bias = true;
  if (fields.boolean("qk_layernorm").value_or(false)) {
    layer.attention.query_norm_size = layer.attention.key_norm_size = layer.attention.head_dim;
    layer.attention.qk_norm_has_bias = true;
  }
  layer.hidden_norms = 1;  // PhiDecoderLayer: input_layernorm feeds attention and MLP in parallel
  layer.parallel_attention_mlp = true;
  // The Dec-2023 "mixformer-sequential" revision of Phi names the width n_inner (null: 4 x hidden);
  // its head LayerNorm is the final norm of the transformers layout, so the counts agree.
  layer.mlp = {mlp_width(fields, model.hidden_size, 4, model), false, true};
  model.lm_head_bias = true;
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  fill_layers(model, layer);
}

// Qwen (v1) remote code: fused c_attn with bias, and intermediate_size counts both MLP branches.
void read_qwen_v1(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::rms_norm, false);
  layer.attention.qkv_bias = true;
  layer.attention.output_bias = false;
  const std::int64_t both_branches = fields.required_count("intermediate_size", 2, max_intermediate_size);
  layer.mlp = {both_branches / 2, true, false};
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  fill_layers(model, layer);
}

void read_dbrx(const ConfigFields& fields, ModelDescription& model) {
  LayerShape layer = begin_decoder(fields, model, NormKind::layer_norm_no_bias, false);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  if (auto attention = fields.object("attn_config"))
    layer.attention.num_kv_heads = attention->optional_count("attn_config.kv_n_heads", 1, max_heads).value_or(1);
  const auto ffn = fields.object("ffn_config");
  if (!ffn)
    throw ConfigError(fields.path_of("ffn_config"),
                      "required field 'ffn_config' is missing: DBRX keeps its expert sizes there");
  layer.moe.num_experts = ffn->required_count("ffn_config.moe_num_experts", 1, max_experts);
  layer.moe.experts_per_token = ffn->required_count("ffn_config.moe_top_k", 1, max_experts);
  layer.moe.expert_intermediate_size = ffn->required_count("ffn_config.ffn_hidden_size", 1, max_intermediate_size);
  fill_layers(model, layer);
}

void read_t5(const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.vocab_size = read_vocab_size(fields);
  model.norm = NormKind::rms_norm;  // T5LayerNorm: scale only, no mean subtraction
  model.tie_word_embeddings = read_tie(fields, true, model);
  model.position_encoding = PositionEncoding::relative_buckets;
  model.relative_attention_num_buckets =
      fields.optional_count("relative_attention_num_buckets", 1, 1 << 16).value_or(32);
  model.final_norms = 2;                                         // encoder and decoder final_layer_norm
  const std::int64_t encoder_layers = read_layer_count(fields);  // T5 num_layers: the encoder's
  const std::int64_t decoder_layers =
      fields.optional_count("num_decoder_layers", 1, max_layers).value_or(encoder_layers);
  model.num_layers = encoder_layers + decoder_layers;

  const std::string projection = fields.string("feed_forward_proj").value_or("relu");
  LayerShape encoder;
  encoder.is_encoder = true;
  encoder.attention.num_heads = encoder.attention.num_kv_heads = read_head_count(fields);
  encoder.attention.head_dim = encoder.attention.value_head_dim = fields.required_count("head_dim", 1, max_hidden_size);
  encoder.mlp = {fields.required_count("intermediate_size", 1, max_intermediate_size),
                 projection.rfind("gated-", 0) == 0, false};
  LayerShape decoder = encoder;
  decoder.is_encoder = false;
  decoder.attention.cross_attention = true;
  decoder.hidden_norms = 3;  // self-attention, cross-attention and feed-forward each have a norm
  for (std::int64_t i = 0; i < encoder_layers; ++i) append_layer(model, encoder);
  for (std::int64_t i = 0; i < decoder_layers; ++i) append_layer(model, decoder);
}

}  // namespace

bool read_classic_family(const std::string& type, const ConfigFields& fields, ModelDescription& model) {
  if (type == "gpt2")
    read_gpt2(fields, model, false);
  else if (type == "gpt_bigcode")
    read_gpt2(fields, model, true);
  else if (type == "gpt_neox")
    read_gpt_neox(fields, model);
  else if (type == "gptj")
    read_gptj(fields, model);
  else if (type == "falcon" || type == "refinedweb" || type == "refinedwebmodel")
    read_falcon(type, fields, model);
  else if (type == "opt")
    read_opt(fields, model);
  else if (type == "bloom")
    read_bloom(fields, model);
  else if (type == "mpt")
    read_mpt(fields, model);
  else if (type == "phi" || type == "mixformer-sequential")
    read_phi(fields, model);
  else if (type == "qwen")
    read_qwen_v1(fields, model);
  else if (type == "dbrx")
    read_dbrx(fields, model);
  else if (type == "t5" || type == "mt5" || type == "umt5")
    read_t5(fields, model);
  else
    return false;
  return true;
}

}  // namespace fitcheck::detail
