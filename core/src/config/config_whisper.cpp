// SPDX-License-Identifier: MIT
// Whisper (model_type whisper), as huggingface/transformers@5c48f71a682f
// src/transformers/models/whisper/modeling_whisper.py builds WhisperForConditionalGeneration:
// WhisperEncoder (conv1, conv2, embed_positions of max_source_positions, encoder_layers of
// WhisperEncoderLayer, layer_norm) and WhisperDecoder (embed_tokens, WhisperPositionalEmbedding of
// max_target_positions, decoder_layers of WhisperDecoderLayer, layer_norm); proj_out is tied to
// embed_tokens. WhisperAttention: q_proj, v_proj and out_proj with biases, k_proj without. Every
// norm is a LayerNorm with a bias; fc1 and fc2 (GELU) have biases.
#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// One stack's layer: heads of hidden / heads (WhisperAttention refuses any other split), an MLP of
// `ffn_field`'s width.
LayerShape whisper_layer(const ConfigFields& fields, std::int64_t hidden, Field heads_field, Field ffn_field) {
  LayerShape layer;
  const std::int64_t heads = fields.required_count(heads_field, 1, max_heads);
  if (hidden % heads != 0)
    throw ConfigError(fields.path_of(heads_field), "d_model (" + std::to_string(hidden) + ") is not divisible by " +
                                                       fields.path_of(heads_field) + " (" + std::to_string(heads) +
                                                       "): WhisperAttention needs d_model = heads x head_dim");
  layer.attention.num_heads = layer.attention.num_kv_heads = heads;
  layer.attention.head_dim = layer.attention.value_head_dim = hidden / heads;
  layer.attention.qkv_bias = layer.attention.output_bias = true;
  layer.attention.key_without_bias = true;
  layer.mlp = {fields.required_count(ffn_field, 1, max_intermediate_size), false, true};
  return layer;
}

}  // namespace

void read_whisper(const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);  // d_model
  model.vocab_size = read_vocab_size(fields);
  model.norm = NormKind::layer_norm;
  model.tie_word_embeddings = read_tie(fields, true, model);
  model.final_norms = 2;  // encoder and decoder layer_norm
  model.position_encoding = PositionEncoding::learned_absolute;
  model.learned_position_count = fields.required_count("max_target_positions", 1, max_positions);
  model.max_position_embeddings = model.learned_position_count;

  const std::int64_t encoder_layers = fields.required_count("encoder_layers", 1, max_layers);
  const std::int64_t decoder_layers = fields.required_count("decoder_layers", 1, max_layers);
  // WhisperConfig maps num_hidden_layers to encoder_layers; a config that writes both must agree.
  if (auto written = fields.optional_count("num_hidden_layers", 1, max_layers); written && *written != encoder_layers)
    throw ConfigError(fields.path_of("num_hidden_layers"),
                      "num_hidden_layers (" + std::to_string(*written) + ") contradicts encoder_layers (" +
                          std::to_string(encoder_layers) + "): Whisper's num_hidden_layers is the encoder's depth");
  model.num_layers = encoder_layers + decoder_layers;

  AudioEncoderStem stem;
  stem.mel_bins = fields.required_count("num_mel_bins", 1, 1 << 16);
  stem.encoder_positions = fields.required_count("max_source_positions", 1, max_positions);
  model.audio_stem = stem;

  LayerShape encoder = whisper_layer(fields, model.hidden_size, "encoder_attention_heads", "encoder_ffn_dim");
  encoder.is_encoder = true;  // self_attn_layer_norm and final_layer_norm: the default two norms
  LayerShape decoder = whisper_layer(fields, model.hidden_size, "decoder_attention_heads", "decoder_ffn_dim");
  decoder.attention.cross_attention = true;  // encoder_attn, the same shape as self_attn
  // encoder_attn's keys and values are the encoder's max_source_positions frames (30 s of audio, the
  // input padded to it by WhisperFeatureExtractor), computed once per sequence.
  decoder.attention.cross_source_per_sequence = true;
  decoder.attention.cross_source_fixed_tokens = stem.encoder_positions;
  decoder.hidden_norms = 3;  // self_attn, encoder_attn and final layer norms
  for (std::int64_t i = 0; i < encoder_layers; ++i) append_layer(model, encoder);
  for (std::int64_t i = 0; i < decoder_layers; ++i) append_layer(model, decoder);
}

}  // namespace fitcheck::detail
