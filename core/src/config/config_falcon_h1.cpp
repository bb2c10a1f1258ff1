// SPDX-License-Identifier: MIT
// Falcon-H1: attention and a Mamba-2 mixer side by side in every layer, then a gated MLP.
#include <string>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* falcon_h1_config = "FalconH1Config";

// FalconH1Mixer (huggingface/transformers@001f85b38fb4 src/transformers/models/falcon_h1/
// modeling_falcon_h1.py): Mamba2Mixer's tensors with intermediate_size = mamba_d_ssm, in_proj's
// bias mamba_proj_bias, conv1d's mamba_conv_bias, out_proj's projectors_bias, and the gated RMSNorm
// (FalconH1RMSNormGated over mamba_d_ssm) only when mamba_rms_norm; without it the scan output is
// gated by silu alone. Its mup_vector is a non-persistent buffer, not a parameter. FalconH1Config
// (huggingface/transformers@020a37d2264e configuration_falcon_h1.py) fills in mamba_n_heads 128,
// mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4, mamba_conv_bias true, mamba_proj_bias
// false, mamba_rms_norm false, projectors_bias false; mamba_d_head "auto" is mamba_d_ssm /
// mamba_n_heads, and mamba_d_head x mamba_n_heads must equal mamba_d_ssm.
SsmShape read_falcon_h1_mixer(const ConfigFields& fields, ModelDescription& model) {
  SsmShape m;
  // FalconH1Config takes 1024 when mamba_d_ssm is absent but mamba_expand x hidden_size when it is
  // null; config.json's null and absence read alike here, so neither is guessed.
  const auto inner = fields.optional_count("mamba_d_ssm", 1, max_intermediate_size);
  if (!inner) {
    const std::string path = fields.path_of("mamba_d_ssm");
    throw ConfigError(path, "required field '" + path +
                                "' is missing or null: falcon_h1 sizes its Mamba-2 mixer by it (FalconH1Config "
                                "takes 1024 when absent, mamba_expand x hidden_size when null)");
  }
  m.num_heads = count_or_class_default(fields, "mamba_n_heads", 128, max_heads, falcon_h1_config, model);
  m.state_size = count_or_class_default(fields, "mamba_d_state", 256, max_hidden_size, falcon_h1_config, model);
  m.groups = count_or_class_default(fields, "mamba_n_groups", 1, max_heads, falcon_h1_config, model);
  m.conv_kernel = count_or_class_default(fields, "mamba_d_conv", 4, 1024, falcon_h1_config, model);
  m.conv_bias = boolean_or_class_default(fields, "mamba_conv_bias", true, falcon_h1_config, model);
  m.projection_bias = boolean_or_class_default(fields, "mamba_proj_bias", false, falcon_h1_config, model);
  m.out_projection_bias = boolean_or_class_default(fields, "projectors_bias", false, falcon_h1_config, model);
  m.gated_norm = boolean_or_class_default(fields, "mamba_rms_norm", false, falcon_h1_config, model);
  const std::string heads_path = fields.path_of("mamba_n_heads");
  if (*inner % m.num_heads != 0)
    throw ConfigError(heads_path, "field '" + heads_path + "' (" + std::to_string(m.num_heads) +
                                      ") does not divide mamba_d_ssm (" + std::to_string(*inner) + ")");
  m.head_dim = count_or_auto(fields, "mamba_d_head", *inner / m.num_heads, "mamba_d_ssm / mamba_n_heads",
                             max_hidden_size, falcon_h1_config, model);
  if (m.inner() != *inner) {
    const std::string path = fields.path_of("mamba_d_head");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(m.head_dim) + ") x mamba_n_heads (" +
                                std::to_string(m.num_heads) + ") differs from mamba_d_ssm (" + std::to_string(*inner) +
                                "): the Mamba-2 mixer would have no consistent shape");
  }
  if (m.num_heads % m.groups != 0)
    throw ConfigError(fields.path_of("mamba_n_groups"),
                      "mamba_n_heads (" + std::to_string(m.num_heads) + ") is not a multiple of mamba_n_groups (" +
                          std::to_string(m.groups) + "): heads cannot share B and C evenly");
  return m;
}

}  // namespace

// Falcon-H1: huggingface/transformers@001f85b38fb4 src/transformers/models/falcon_h1/modeling_falcon_h1.py.
// FalconH1DecoderLayer: input_layernorm, then FalconH1Mixer and FalconH1Attention (q, k, v, o with
// bias attention_bias, head_dim from the config or hidden / heads) on the same normed input, their
// outputs added; pre_ff_layernorm and FalconH1MLP (gate, up, down; bias mlp_bias). Every layer keeps
// a KV cache and a Mamba state (FalconHybridMambaAttentionDynamicCache). The muP multipliers
// (embedding, lm_head, key, attention in/out, ssm in/out, mlp and ssm vectors) are plain floats.
// FalconH1Model: embed_tokens, the layers, final_layernorm; lm_head untied unless tie_word_embeddings.
void read_falcon_h1(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {}, model);
  LayerShape layer;
  layer.hidden_norms = 2;
  layer.attention = read_hybrid_attention(fields, model);
  layer.ssm = read_falcon_h1_mixer(fields, model);
  layer.mlp.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
  layer.mlp.gated = true;
  layer.mlp.bias = fields.boolean("mlp_bias").value_or(false);
  for (std::int64_t i = 0; i < model.num_layers; ++i) append_layer(model, layer);
}

}  // namespace fitcheck::detail
