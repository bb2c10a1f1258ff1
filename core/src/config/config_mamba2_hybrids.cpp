// SPDX-License-Identifier: MIT
// The Mamba-2 mixer (Dao & Gu 2024, arXiv 2405.21060): alone (Mamba-2), between attention and MLP
// layers (Nemotron-H), or beside an MLP in the same layer (Bamba, Granite-4.0-H).
#include <algorithm>
#include <string>
#include <vector>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

enum class HybridBlock : std::uint8_t { mamba, attention, mlp };

// Nemotron-H's layer order: hybrid_override_pattern ('M' Mamba-2, '*' attention, '-' MLP, 'E' MoE)
// or, in newer configs, layers_block_type ("mamba", "attention", "mlp", "moe"); one entry per layer.
std::vector<HybridBlock> nemotron_h_blocks(const ConfigFields& fields, std::int64_t layers) {
  std::vector<HybridBlock> blocks;
  const auto refuse_moe = [&](const std::string& path) {
    throw ConfigError(
        path, "field '" + path + "' names MoE layers, whose routed experts fitcheck does not model for nemotron_h yet");
  };
  if (auto pattern = fields.string("hybrid_override_pattern")) {
    const std::string path = fields.path_of("hybrid_override_pattern");
    for (std::size_t i = 0; i < pattern->size(); ++i) {
      const char c = (*pattern)[i];
      if (c == 'M')
        blocks.push_back(HybridBlock::mamba);
      else if (c == '*')
        blocks.push_back(HybridBlock::attention);
      else if (c == '-')
        blocks.push_back(HybridBlock::mlp);
      else if (c == 'E')
        refuse_moe(path);
      else
        throw ConfigError(path, "field '" + path + "' character " + std::to_string(i) + " is '" +
                                    printable(std::string(1, c)) +
                                    "'; expected 'M' (Mamba-2), '*' (attention) or '-' (MLP)");
    }
  } else if (auto types = fields.string_list("layers_block_type")) {
    const std::string path = fields.path_of("layers_block_type");
    for (std::size_t i = 0; i < types->size(); ++i) {
      const std::string& type = (*types)[i];
      if (type == "mamba")
        blocks.push_back(HybridBlock::mamba);
      else if (type == "attention")
        blocks.push_back(HybridBlock::attention);
      else if (type == "mlp")
        blocks.push_back(HybridBlock::mlp);
      else if (type == "moe")
        refuse_moe(path);
      else
        throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is '" + printable(type) +
                                    "'; expected 'mamba', 'attention' or 'mlp'");
    }
  } else {
    throw ConfigError("hybrid_override_pattern",
                      "required field 'hybrid_override_pattern' is missing (also looked for 'layers_block_type'): "
                      "nemotron_h needs the order of its Mamba-2, attention and MLP layers");
  }
  if (static_cast<std::int64_t>(blocks.size()) != layers) {
    const std::string path = fields.has("hybrid_override_pattern") ? fields.path_of("hybrid_override_pattern")
                                                                   : fields.path_of("layers_block_type");
    throw ConfigError(path, "field '" + path + "' describes " + std::to_string(blocks.size()) +
                                " layers, but num_hidden_layers is " + std::to_string(layers));
  }
  return blocks;
}

SsmShape read_mamba2_mixer(const ConfigFields& fields) {
  SsmShape m;
  m.num_heads = fields.required_count("mamba_num_heads", 1, max_heads);
  m.head_dim = fields.required_count("mamba_head_dim", 1, max_hidden_size);
  m.state_size = fields.required_count("ssm_state_size", 1, max_hidden_size);
  m.groups = fields.required_count("n_groups", 1, max_heads);
  m.conv_kernel = fields.required_count("conv_kernel", 1, 1024);
  m.conv_bias = fields.boolean("use_conv_bias").value_or(true);  // NemotronHConfig default
  m.projection_bias = fields.boolean("use_bias").value_or(false);
  if (m.num_heads % m.groups != 0)
    throw ConfigError(fields.path_of("n_groups"), "mamba_num_heads (" + std::to_string(m.num_heads) +
                                                      ") is not a multiple of n_groups (" + std::to_string(m.groups) +
                                                      "): heads cannot share B and C evenly");
  return m;
}

// The Mamba-2 mixer of Bamba and Granite-4.0-H, spelled mamba_*. BambaConfig and
// GraniteMoeHybridConfig share the defaults (mamba_n_heads 128, mamba_n_groups 1, mamba_d_state
// 256, mamba_d_conv 4, mamba_expand 2, mamba_conv_bias true, mamba_proj_bias false) and the rule
// for mamba_d_head "auto" (or absent): mamba_expand x hidden_size / mamba_n_heads, which must divide
// (huggingface/transformers@001f85b38fb4 src/transformers/models/bamba/configuration_bamba.py,
// huggingface/transformers@008f5c8c29be
// src/transformers/models/granitemoehybrid/configuration_granitemoehybrid.py). The mixer itself
// (BambaMixer, huggingface/transformers@00511f5df3b6 src/transformers/models/bamba/modeling_bamba.py,
// copied as GraniteMoeHybridMambaLayer) has Mamba2Mixer's tensors, with mamba_proj_bias on in_proj
// and out_proj and mamba_conv_bias on conv1d.
SsmShape read_prefixed_mamba2_mixer(const ConfigFields& fields, std::int64_t hidden, const char* config_class,
                                    ModelDescription& model) {
  SsmShape m;
  m.num_heads = count_or_class_default(fields, "mamba_n_heads", 128, max_heads, config_class, model);
  m.state_size = count_or_class_default(fields, "mamba_d_state", 256, max_hidden_size, config_class, model);
  m.groups = count_or_class_default(fields, "mamba_n_groups", 1, max_heads, config_class, model);
  m.conv_kernel = count_or_class_default(fields, "mamba_d_conv", 4, 1024, config_class, model);
  m.conv_bias = boolean_or_class_default(fields, "mamba_conv_bias", true, config_class, model);
  m.projection_bias = boolean_or_class_default(fields, "mamba_proj_bias", false, config_class, model);
  const std::int64_t expand = count_or_class_default(fields, "mamba_expand", 2, 1024, config_class, model);
  const std::string heads_path = fields.path_of("mamba_n_heads");
  if ((expand * hidden) % m.num_heads != 0)
    throw ConfigError(heads_path, "field '" + heads_path + "' (" + std::to_string(m.num_heads) +
                                      ") does not divide mamba_expand x hidden_size (" +
                                      std::to_string(expand * hidden) + ")");
  m.head_dim = count_or_auto(fields, "mamba_d_head", expand * hidden / m.num_heads,
                             "mamba_expand x hidden_size / mamba_n_heads", max_hidden_size, config_class, model);
  check_inner_width(m, expand, hidden, fields.path_of("mamba_expand"), heads_path);
  return m;
}

// Which layers of num_hidden_layers are attention: Bamba's attn_layer_indices (the rest Mamba-2).
std::vector<bool> bamba_attention_layers(const ConfigFields& fields, std::int64_t layers) {
  std::vector<bool> attention(static_cast<std::size_t>(layers), false);
  if (auto indices = fields.integer_list("attn_layer_indices")) {
    const std::string path = fields.path_of("attn_layer_indices");
    for (const std::int64_t index : *indices) {
      if (index < 0 || index >= layers)
        throw ConfigError(path, "field '" + path + "' names layer " + std::to_string(index) +
                                    ", but num_hidden_layers is " + std::to_string(layers));
      attention[static_cast<std::size_t>(index)] = true;
    }
  }
  return attention;
}

}  // namespace

// Mamba-2: huggingface/transformers@f2a39d495c8c src/transformers/models/mamba2/configuration_mamba2.py
// (Mamba2Config: num_heads 128, head_dim 64, state_size 128, n_groups 8, conv_kernel 4, expand 2,
// use_bias false, use_conv_bias true, tie_word_embeddings false when absent) and
// huggingface/transformers@4711664e1c9d src/transformers/models/mamba2/modeling_mamba2.py
// (Mamba2Mixer: intermediate_size = expand x hidden_size, conv_dim = intermediate_size + 2 x
// n_groups x state_size, in_proj hidden -> intermediate_size + conv_dim + num_heads with bias
// use_bias, conv1d depthwise with bias use_conv_bias, dt_bias, A_log and D per head,
// MambaRMSNormGated(intermediate_size), out_proj with bias use_bias; Mamba2Block: one RMSNorm and
// the mixer, no MLP; Mamba2Model: embeddings, the blocks, norm_f; Mamba2ForCausalLM: lm_head).
void read_mamba2(const ConfigFields& fields, ModelDescription& model) {
  constexpr const char* config_class = "Mamba2Config";
  read_hybrid_preamble(fields, {.positions = PositionEncoding::none, .reads_max_positions = false}, model);

  LayerShape layer;
  layer.hidden_norms = 1;
  SsmShape& m = layer.ssm;
  // Mamba2Config's num_heads is one of the spellings of the num_attention_heads row.
  if (auto heads = fields.optional_count("num_attention_heads", 1, max_heads)) {
    m.num_heads = *heads;
  } else {
    m.num_heads = 128;
    model.assumptions.push_back("num_heads absent: 128, as Mamba2Config does");
  }
  m.head_dim = count_or_class_default(fields, "head_dim", 64, max_hidden_size, config_class, model);
  m.state_size = count_or_class_default(fields, "state_size", 128, max_hidden_size, config_class, model);
  m.groups = count_or_class_default(fields, "n_groups", 8, max_heads, config_class, model);
  m.conv_kernel = count_or_class_default(fields, "conv_kernel", 4, 1024, config_class, model);
  m.conv_bias = boolean_or_class_default(fields, "use_conv_bias", true, config_class, model);
  m.projection_bias = boolean_or_class_default(fields, "use_bias", false, config_class, model);
  const std::int64_t expand = count_or_class_default(fields, "expand", 2, 1024, config_class, model);
  check_inner_width(m, expand, model.hidden_size, fields.path_of("expand"), fields.path_of("num_attention_heads"));
  for (std::int64_t i = 0; i < model.num_layers; ++i) append_layer(model, layer);
}

// Nemotron-H: huggingface/transformers@008d9e9577b0 src/transformers/models/nemotron_h/
// modeling_nemotron_h.py. NemotronHBlock: one RMSNorm, then one mixer (NemotronHMamba2Mixer,
// NemotronHAttention without biases, or NemotronHMLP: up_proj and down_proj, relu2, bias mlp_bias);
// NemotronHModel: embeddings, the blocks, norm_f; lm_head untied unless tie_word_embeddings.
void read_nemotron_h(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {}, model);
  const std::vector<HybridBlock> blocks = nemotron_h_blocks(fields, model.num_layers);

  LayerShape mamba;
  mamba.hidden_norms = 1;
  mamba.ssm = read_mamba2_mixer(fields);

  LayerShape attention;
  attention.hidden_norms = 1;
  bool any_attention = false;
  for (const HybridBlock block : blocks) any_attention = any_attention || block == HybridBlock::attention;
  if (any_attention) {
    AttentionShape& a = attention.attention;
    a.num_heads = read_head_count(fields);
    a.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    a.head_dim = read_head_dim(fields, model.hidden_size, a.num_heads, model);
    a.value_head_dim = a.head_dim;
  }

  LayerShape mlp;
  mlp.hidden_norms = 1;
  mlp.mlp.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
  mlp.mlp.gated = false;
  mlp.mlp.bias = fields.boolean("mlp_bias").value_or(false);

  for (const HybridBlock block : blocks)
    append_layer(model, block == HybridBlock::mamba ? mamba : block == HybridBlock::attention ? attention : mlp);
}

// Bamba: huggingface/transformers@00511f5df3b6 src/transformers/models/bamba/modeling_bamba.py.
// BambaDecoderLayer: input_layernorm, then BambaMixer (a Mamba-2 mixer) or BambaAttention (q, k, v,
// o; bias attention_bias, which BambaConfig sets false unless the config says otherwise), then
// pre_ff_layernorm and BambaMLP (gate, up, down; bias mlp_bias, false likewise) in every layer.
// layers_block_type: "attention" for the layers in attn_layer_indices, "mamba" for the others.
// BambaModel: embed_tokens, the layers, final_layernorm; lm_head untied unless tie_word_embeddings.
void read_bamba(const ConfigFields& fields, ModelDescription& model) {
  read_hybrid_preamble(fields, {}, model);
  const std::vector<bool> is_attention = bamba_attention_layers(fields, model.num_layers);

  LayerShape base;
  base.hidden_norms = 2;
  base.mlp.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
  base.mlp.gated = true;
  base.mlp.bias = fields.boolean("mlp_bias").value_or(false);
  LayerShape mamba = base;
  mamba.ssm = read_prefixed_mamba2_mixer(fields, model.hidden_size, "BambaConfig", model);
  LayerShape attention = base;
  if (std::find(is_attention.begin(), is_attention.end(), true) != is_attention.end())
    attention.attention = read_hybrid_attention(fields, model);
  for (const bool layer_is_attention : is_attention) append_layer(model, layer_is_attention ? attention : mamba);
}

// Granite-4.0-H: huggingface/transformers@00511f5df3b6
// src/transformers/models/granitemoehybrid/modeling_granitemoehybrid.py.
// GraniteMoeHybridDecoderLayer: input_layernorm and post_attention_layernorm; a Mamba-2 mixer
// (GraniteMoeHybridMambaLayer) or GraniteMoeHybridAttention (q, k, v, o, bias attention_bias) as
// layer_types says (absent: every layer Mamba-2); shared_mlp in every layer (GraniteMoeHybridMLP:
// input_linear hidden -> 2 x shared_intermediate_size, output_linear back, no biases); and, when
// num_local_experts > 0, block_sparse_moe (router Linear(hidden, experts) without bias, and per
// expert input_linear hidden -> 2 x intermediate_size and output_linear back). The embedding,
// attention, residual and logits multipliers scale activations only. GraniteMoeHybridModel:
// embed_tokens, the layers, norm; lm_head tied when tie_word_embeddings.
void read_granitemoehybrid(const ConfigFields& fields, ModelDescription& model) {
  // GraniteMoeHybridModel applies rotary embeddings only when position_embedding_type is "rope".
  const bool rotary = fields.string("position_embedding_type").value_or("") == "rope";
  read_hybrid_preamble(fields, {.positions = rotary ? PositionEncoding::rotary : PositionEncoding::none}, model);

  std::vector<bool> is_attention(static_cast<std::size_t>(model.num_layers), false);
  if (auto types = fields.string_list("layer_types")) {
    const std::string path = fields.path_of("layer_types");
    if (static_cast<std::int64_t>(types->size()) != model.num_layers)
      throw ConfigError(path, "field '" + path + "' describes " + std::to_string(types->size()) +
                                  " layers, but num_hidden_layers is " + std::to_string(model.num_layers));
    for (std::size_t i = 0; i < types->size(); ++i) {
      const std::string& type = (*types)[i];
      if (type != "mamba" && type != "attention")
        throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is '" + printable(type) +
                                    "'; expected 'mamba' or 'attention'");
      is_attention[i] = type == "attention";
    }
  } else {
    model.assumptions.push_back("layer_types absent: every layer is Mamba-2, as GraniteMoeHybridConfig does");
  }

  LayerShape base;
  base.hidden_norms = 2;
  const std::int64_t shared_width = count_or_class_default(fields, "shared_intermediate_size", 1024,
                                                           max_intermediate_size, "GraniteMoeHybridConfig", model);
  const auto experts = fields.optional_count("num_local_experts", 0, max_experts);
  if (!experts) {
    const std::string path = fields.path_of("num_local_experts");
    throw ConfigError(path, "required field '" + path +
                                "' is missing: granitemoehybrid has routed experts unless it is 0, and fitcheck "
                                "does not guess how many");
  }
  if (*experts > 0) {
    MoeShape& moe = base.moe;
    moe.num_experts = *experts;
    moe.experts_per_token = fields.required_count("num_experts_per_tok", 1, max_experts);
    moe.expert_intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
    moe.num_shared_experts = 1;
    moe.shared_expert_intermediate_size = shared_width;
    moe.gated = true;
  } else {
    base.mlp.intermediate_size = shared_width;  // shared_mlp alone
    base.mlp.gated = true;
  }
  LayerShape mamba = base;
  mamba.ssm = read_prefixed_mamba2_mixer(fields, model.hidden_size, "GraniteMoeHybridConfig", model);
  LayerShape attention = base;
  if (std::find(is_attention.begin(), is_attention.end(), true) != is_attention.end()) {
    attention.attention = read_hybrid_attention(fields, model);
  }
  for (const bool layer_is_attention : is_attention) append_layer(model, layer_is_attention ? attention : mamba);
}

}  // namespace fitcheck::detail
