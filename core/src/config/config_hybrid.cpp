// SPDX-License-Identifier: MIT
// State-space models and hybrids: layers whose mixer is a Mamba-2 state-space block instead of
// attention, with attention and MLP layers between them.
#include <string>
#include <vector>

#include "config/config_families.hpp"
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

// Nemotron-H: huggingface/transformers@008d9e9577b0 src/transformers/models/nemotron_h/
// modeling_nemotron_h.py. NemotronHBlock: one RMSNorm, then one mixer (NemotronHMamba2Mixer,
// NemotronHAttention without biases, or NemotronHMLP: up_proj and down_proj, relu2, bias mlp_bias);
// NemotronHModel: embeddings, the blocks, norm_f; lm_head untied unless tie_word_embeddings.
void read_nemotron_h(const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  model.tie_word_embeddings = read_tie(fields, false, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;
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

}  // namespace

bool read_hybrid_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model) {
  if (model_type == "nemotron_h") {
    read_nemotron_h(fields, model);
    return true;
  }
  return false;
}

}  // namespace fitcheck::detail
