// SPDX-License-Identifier: MIT
// The Mamba-1 mixer (Gu & Dao 2023, arXiv 2312.00752): alone (Mamba, Falcon-Mamba) or between
// attention layers with MLPs and routed experts (Jamba).
#include <string>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {

// Mamba-1 and Falcon-Mamba: huggingface/transformers@17fbf389f87f
// src/transformers/models/mamba/configuration_mamba.py (MambaConfig: state_size 16, expand 2,
// conv_kernel 4, use_bias false, use_conv_bias true, time_step_rank "auto" = ceil(hidden_size / 16);
// intermediate_size = int(expand x hidden_size), unless config.json gives intermediate_size, which
// PretrainedConfig.__init__ sets after it from the remaining keys; no tie_word_embeddings of its own,
// so PretrainedConfig's true) and @8f578db559ac .../falcon_mamba/configuration_falcon_mamba.py (the
// same fields). MambaBlock / FalconMambaBlock: one RMSNorm and the mixer (huggingface/transformers@
// 1160c0f31870 .../mamba/modeling_mamba.py MambaMixer, @11065c9bcada
// .../falcon_mamba/modeling_falcon_mamba.py FalconMambaMixer: the same tensors, its B/C/dt RMS norms
// weightless buffers); MambaModel: embeddings, the blocks, norm_f; MambaForCausalLM: lm_head.
void read_mamba1(const ConfigFields& fields, const char* config_class, ModelDescription& model) {
  read_hybrid_preamble(fields, {.tie_default = true, .positions = PositionEncoding::none, .reads_max_positions = false},
                       model);

  LayerShape layer;
  layer.hidden_norms = 1;
  SsmShape& m = layer.ssm;
  std::int64_t inner = 0;
  if (auto given = fields.optional_count("intermediate_size", 1, max_intermediate_size)) {
    inner = *given;
  } else {
    const std::int64_t expand = count_or_class_default(fields, "expand", 2, 1024, config_class, model);
    inner = expand * model.hidden_size;
    model.assumptions.push_back("intermediate_size absent: expand x hidden_size = " + std::to_string(inner) + ", as " +
                                config_class + " does");
  }
  m.num_heads = inner;  // one channel per "head": Mamba-1 scans every inner channel on its own
  m.head_dim = 1;
  m.groups = 0;  // no B/C groups: B and C come from x_proj, not from the conv
  m.state_size = count_or_class_default(fields, "state_size", 16, max_hidden_size, config_class, model);
  m.conv_kernel = count_or_class_default(fields, "conv_kernel", 4, 1024, config_class, model);
  m.conv_bias = boolean_or_class_default(fields, "use_conv_bias", true, config_class, model);
  m.projection_bias = boolean_or_class_default(fields, "use_bias", false, config_class, model);
  m.time_step_rank = count_or_auto(fields, "time_step_rank", (model.hidden_size + 15) / 16, "ceil(hidden_size / 16)",
                                   max_hidden_size, config_class, model);
  for (std::int64_t i = 0; i < model.num_layers; ++i) append_layer(model, layer);
}

// Jamba: huggingface/transformers@161d2bed0075 src/transformers/models/jamba/configuration_jamba.py
// (JambaConfig: attention in layer i when i % attn_layer_period == attn_layer_offset (defaults 8, 4),
// routed experts when i % expert_layer_period == expert_layer_offset (defaults 2, 1) and num_experts >
// 1; mamba_d_state 16, mamba_d_conv 4, mamba_expand 2, mamba_dt_rank "auto" = ceil(hidden_size / 16),
// mamba_conv_bias true, mamba_proj_bias false, tie_word_embeddings false) and @97bb61d07880
// .../jamba/modeling_jamba.py (JambaAttentionDecoderLayer / JambaMambaDecoderLayer: input_layernorm,
// attention without biases or JambaMambaMixer, pre_ff_layernorm, then JambaSparseMoeBlock (router
// Linear(hidden, num_experts) without bias, experts gated MLPs) or JambaMLP (gate, up, down, no bias);
// JambaModel: embed_tokens, the layers, final_layernorm; lm_head untied unless tie_word_embeddings).
void read_jamba(const ConfigFields& fields, ModelDescription& model) {
  constexpr const char* config_class = "JambaConfig";
  // Jamba's attention has no positional encoding.
  read_hybrid_preamble(fields, {.tie_default = false, .positions = PositionEncoding::none}, model);

  const std::int64_t attn_period =
      count_or_class_default(fields, "attn_layer_period", 8, max_layers, config_class, model);
  const std::int64_t attn_offset = fields.optional_count("attn_layer_offset", 0, max_layers).value_or(4);
  const std::int64_t expert_period =
      count_or_class_default(fields, "expert_layer_period", 2, max_layers, config_class, model);
  const std::int64_t expert_offset = fields.optional_count("expert_layer_offset", 0, max_layers).value_or(1);
  if (!fields.has("attn_layer_offset")) model.assumptions.push_back("attn_layer_offset absent: 4, as JambaConfig does");
  if (!fields.has("expert_layer_offset"))
    model.assumptions.push_back("expert_layer_offset absent: 1, as JambaConfig does");
  const auto experts = fields.optional_count("num_local_experts", 1, max_experts);
  if (!experts) {
    const std::string path = fields.path_of("num_local_experts");
    throw ConfigError(path, "required field '" + path +
                                "' (also looked for 'num_experts') is missing: fitcheck does not guess how many "
                                "experts jamba routes");
  }

  LayerShape base;
  base.hidden_norms = 2;
  const std::int64_t width = fields.required_count("intermediate_size", 1, max_intermediate_size);
  MlpShape dense;
  dense.intermediate_size = width;
  dense.gated = true;
  MoeShape routed;
  if (*experts > 1) {
    routed.num_experts = *experts;
    routed.experts_per_token = fields.required_count("num_experts_per_tok", 1, max_experts);
    routed.expert_intermediate_size = width;
    routed.gated = true;
  }

  SsmShape mixer;
  mixer.state_size = count_or_class_default(fields, "mamba_d_state", 16, max_hidden_size, config_class, model);
  mixer.conv_kernel = count_or_class_default(fields, "mamba_d_conv", 4, 1024, config_class, model);
  mixer.conv_bias = boolean_or_class_default(fields, "mamba_conv_bias", true, config_class, model);
  mixer.projection_bias = boolean_or_class_default(fields, "mamba_proj_bias", false, config_class, model);
  const std::int64_t expand = count_or_class_default(fields, "mamba_expand", 2, 1024, config_class, model);
  mixer.num_heads = expand * model.hidden_size;  // Mamba-1: one "head" of width 1 per inner channel
  mixer.head_dim = 1;
  mixer.groups = 0;
  mixer.time_step_norms = true;
  mixer.time_step_rank = count_or_auto(fields, "mamba_dt_rank", (model.hidden_size + 15) / 16, "ceil(hidden_size / 16)",
                                       max_hidden_size, config_class, model);

  AttentionShape attention;
  bool any_attention = false;
  for (std::int64_t i = 0; i < model.num_layers; ++i) any_attention = any_attention || i % attn_period == attn_offset;
  if (any_attention) {
    attention.num_heads = read_head_count(fields);
    attention.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    attention.head_dim = read_head_dim(fields, model.hidden_size, attention.num_heads, model);
    attention.value_head_dim = attention.head_dim;
  }
  for (std::int64_t i = 0; i < model.num_layers; ++i) {
    LayerShape layer = base;
    if (i % attn_period == attn_offset)
      layer.attention = attention;
    else
      layer.ssm = mixer;
    if (routed.num_experts > 0 && i % expert_period == expert_offset)
      layer.moe = routed;
    else
      layer.mlp = dense;
    append_layer(model, layer);
  }
}

}  // namespace fitcheck::detail
