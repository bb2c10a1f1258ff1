// SPDX-License-Identifier: MIT
// DeciLM / Llama-Nemotron (model_type nemotron-nas: Llama-3.3-Nemotron-Super-49B, Llama-3.1-Nemotron-
// Ultra-253B, Llama-3.1-Nemotron-51B): Llama layers found by neural architecture search, each with its
// own attention and FFN settings in block_configs. Rules of the checkpoints' modeling_decilm.py as
// vLLM re-implements them (vllm-project/vllm vllm/model_executor/models/nemotron_nas.py,
// DeciLMDecoderLayer and _ffn_mult_to_intermediate_size; the same in SGLang's and TensorRT-LLM's ports).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// _ffn_mult_to_intermediate_size: int(2 * ffn_mult * hidden / 3) in Python's float arithmetic (left
// to right), rounded up to a multiple of 256.
std::int64_t nas_intermediate_size(double ffn_mult, std::int64_t hidden_size) {
  const auto width = static_cast<std::int64_t>(2.0 * ffn_mult * static_cast<double>(hidden_size) / 3.0);
  return width % 256 == 0 ? width : width + 256 - width % 256;
}

// A block setting fitcheck does not model is refused with its path: a linear layer in place of
// attention or the FFN, sliding-window or sink-token attention, sparsified weights.
void refuse_unmodelled(const ConfigFields& part, bool attention) {
  if (part.boolean(attention ? Field("nas_attention.replace_with_linear") : Field("nas_ffn.replace_with_linear"))
          .value_or(false)) {
    const std::string path =
        part.path_of(attention ? Field("nas_attention.replace_with_linear") : Field("nas_ffn.replace_with_linear"));
    throw ConfigError(path, "field '" + path + "' is true: a linear layer in place of the " +
                                (attention ? "attention" : "FFN") + " is not modelled");
  }
  const Field sparsify = attention ? Field("nas_attention.sparsify") : Field("nas_ffn.sparsify");
  if (part.has(sparsify))
    throw ConfigError(part.path_of(sparsify),
                      "field '" + part.path_of(sparsify) + "' is set: sparsified weights are not modelled");
  if (!attention) return;
  for (const Field field : {Field("nas_attention.window_length"), Field("nas_attention.num_sink_tokens")})
    if (part.has(field))
      throw ConfigError(part.path_of(field),
                        "field '" + part.path_of(field) +
                            "' is set: sliding-window and sink-token attention blocks are not modelled");
}

}  // namespace

bool read_nas_family(const std::string& type, const ConfigFields& fields, ModelDescription& model) {
  if (type != "nemotron-nas") return false;
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  model.tie_word_embeddings = read_tie(fields, false, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;
  const std::int64_t heads = read_head_count(fields);
  const std::int64_t head_dim = read_head_dim(fields, model.hidden_size, heads, model);
  const bool attention_bias = fields.boolean("attention_bias").value_or(false);
  const bool mlp_bias = fields.boolean("mlp_bias").value_or(false);

  const auto blocks = fields.object_list("block_configs");
  if (!blocks)
    throw ConfigError("block_configs",
                      "required field 'block_configs' is missing: nemotron-nas gives each layer its attention and FFN");
  if (static_cast<std::int64_t>(blocks->size()) != model.num_layers)
    throw ConfigError(fields.path_of("block_configs"), "field 'block_configs' lists " + std::to_string(blocks->size()) +
                                                           " blocks for " + std::to_string(model.num_layers) +
                                                           " layers (num_hidden_layers)");
  for (const ConfigFields& block : *blocks) {
    const auto attention = block.object("nas_block.attention");
    const auto ffn = block.object("nas_block.ffn");
    if (!attention || !ffn) {
      const std::string path = block.path_of(attention ? Field("nas_block.ffn") : Field("nas_block.attention"));
      throw ConfigError(path, "required field '" + path + "' is missing");
    }
    refuse_unmodelled(*attention, true);
    refuse_unmodelled(*ffn, false);
    // DeciLMDecoderLayer: input_layernorm and self_attn unless attention.no_op; post_attention_layernorm
    // and a LlamaMLP (gate, up, down) unless ffn.no_op.
    LayerShape layer;
    layer.hidden_norms = 0;
    if (!attention->boolean("nas_attention.no_op").value_or(false)) {
      const std::int64_t group = attention->required_count("nas_attention.n_heads_in_group", 1, heads);
      if (heads % group != 0)
        throw ConfigError(attention->path_of("nas_attention.n_heads_in_group"),
                          "field '" + attention->path_of("nas_attention.n_heads_in_group") + "' (" +
                              std::to_string(group) + ") does not divide num_attention_heads (" +
                              std::to_string(heads) + ")");
      layer.attention.num_heads = heads;
      layer.attention.num_kv_heads = heads / group;
      layer.attention.head_dim = head_dim;
      layer.attention.value_head_dim = head_dim;
      layer.attention.qkv_bias = attention_bias;
      layer.attention.output_bias = attention_bias;
      ++layer.hidden_norms;
    }
    if (!ffn->boolean("nas_ffn.no_op").value_or(false)) {
      const auto mult = ffn->number("nas_ffn.ffn_mult");
      const std::string path = ffn->path_of("nas_ffn.ffn_mult");
      if (!mult) throw ConfigError(path, "required field '" + path + "' is missing");
      if (!(*mult > 0) || *mult > 1024)
        throw ConfigError(path, "field '" + path + "' must be a positive multiple of the hidden size (at most 1024)");
      layer.mlp.intermediate_size = nas_intermediate_size(*mult, model.hidden_size);
      layer.mlp.gated = true;
      layer.mlp.bias = mlp_bias;
      ++layer.hidden_norms;
    }
    if (layer.hidden_norms == 0) {
      const std::string path = block.path_of("nas_block.attention");
      throw ConfigError(path, "the block at '" + path + "' has neither attention nor an FFN (both no_op)");
    }
    append_layer(model, layer);
  }
  return true;
}

}  // namespace fitcheck::detail
