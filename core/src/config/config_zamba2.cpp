// SPDX-License-Identifier: MIT
// Zamba2: Mamba-2 layers, some of which first run one of a few shared transformer blocks.
#include <string>
#include <vector>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr const char* zamba2_config = "Zamba2Config";

// Which layers are hybrid: layers_block_type ("mamba" or "hybrid", one per layer); absent, the
// 54-layer pattern Zamba2Config writes (mamba, then (5 mamba, hybrid) x 7, 4 mamba, hybrid, 3 mamba,
// hybrid, 2 mamba).
std::vector<bool> zamba2_hybrid_layers(const ConfigFields& fields, std::int64_t layers, ModelDescription& model) {
  std::vector<bool> hybrid;
  if (auto types = fields.string_list("layers_block_type")) {
    const std::string path = fields.path_of("layers_block_type");
    for (std::size_t i = 0; i < types->size(); ++i) {
      const std::string& type = (*types)[i];
      if (type != "mamba" && type != "hybrid")
        throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is '" + printable(type) +
                                    "'; expected 'mamba' or 'hybrid'");
      hybrid.push_back(type == "hybrid");
    }
  } else {
    hybrid.push_back(false);
    for (int i = 0; i < 7; ++i) hybrid.insert(hybrid.end(), {false, false, false, false, false, true});
    hybrid.insert(hybrid.end(), {false, false, false, false, true, false, false, false, true, false, false});
    model.assumptions.push_back("layers_block_type absent: Zamba2Config's 54-layer pattern (9 hybrid layers)");
  }
  // Zamba2Model reads one entry per layer, and the adapters are built for every "hybrid" entry.
  if (static_cast<std::int64_t>(hybrid.size()) != layers) {
    const std::string path = fields.path_of("layers_block_type");
    throw ConfigError(path, "field '" + path + "' describes " + std::to_string(hybrid.size()) +
                                " layers, but num_hidden_layers is " + std::to_string(layers));
  }
  return hybrid;
}

// Zamba2MambaMixer: Mamba2Mixer's tensors with intermediate_size = int(mamba_expand x hidden_size),
// n_mamba_heads heads of mamba_headdim = intermediate_size // n_mamba_heads (Zamba2Config computes it;
// config.json's mamba_headdim is not read), mamba_ngroups groups, in_proj and out_proj biases
// add_bias_linear, conv1d always biased (use_conv_bias is not read), a gated RMSNorm over the inner
// width. Zamba2Config's defaults: n_mamba_heads 8, mamba_d_state 64, mamba_d_conv 4, mamba_expand 2,
// mamba_ngroups 1, add_bias_linear false.
SsmShape read_zamba2_mixer(const ConfigFields& fields, std::int64_t hidden, ModelDescription& model) {
  SsmShape m;
  m.num_heads = count_or_class_default(fields, "n_mamba_heads", 8, max_heads, zamba2_config, model);
  m.state_size = count_or_class_default(fields, "mamba_d_state", 64, max_hidden_size, zamba2_config, model);
  m.groups = count_or_class_default(fields, "mamba_ngroups", 1, max_heads, zamba2_config, model);
  m.conv_kernel = count_or_class_default(fields, "mamba_d_conv", 4, 1024, zamba2_config, model);
  m.conv_bias = true;
  m.projection_bias = boolean_or_class_default(fields, "add_bias_linear", false, zamba2_config, model);
  const std::int64_t expand = count_or_class_default(fields, "mamba_expand", 2, 1024, zamba2_config, model);
  const std::string heads_path = fields.path_of("n_mamba_heads");
  if ((expand * hidden) % m.num_heads != 0)
    throw ConfigError(heads_path, "field '" + heads_path + "' (" + std::to_string(m.num_heads) +
                                      ") does not divide mamba_expand x hidden_size (" +
                                      std::to_string(expand * hidden) + ")");
  m.head_dim = expand * hidden / m.num_heads;
  check_inner_width(m, expand, hidden, fields.path_of("mamba_expand"), fields.path_of("mamba_ngroups"));
  return m;
}

}  // namespace

// Zamba2: huggingface/transformers@00511f5df3b6 src/transformers/models/zamba2/modeling_zamba2.py and
// configuration_zamba2.py @02f58079962e. A "mamba" layer is Zamba2MambaDecoderLayer (input_layernorm
// and the mixer). A "hybrid" layer is Zamba2HybridLayer: the next of num_mem_blocks shared
// Zamba2AttentionDecoderLayer blocks (taken in turn) over [hidden, embeddings] (attention_hidden_size
// 2 x hidden; num_attention_heads heads of attention_head_dim 2 x hidden // heads, num_key_value_heads
// of them for keys and values; rotary when use_mem_rope), its own linear and its own Mamba decoder
// layer. Each hybrid layer caches its own keys and values (Zamba2HybridDynamicCache indexes them by
// layer), and every layer keeps a Mamba state. Zamba2Model: embed_tokens, the layers,
// final_layernorm; lm_head tied unless tie_word_embeddings is false (PretrainedConfig's default).
void read_zamba2(const ConfigFields& fields, ModelDescription& model) {
  const bool rotary = boolean_or_class_default(fields, "use_mem_rope", false, zamba2_config, model);
  read_hybrid_preamble(
      fields, {.tie_default = true, .positions = rotary ? PositionEncoding::rotary : PositionEncoding::none}, model);
  const std::int64_t hidden = model.hidden_size;
  const std::vector<bool> hybrid = zamba2_hybrid_layers(fields, model.num_layers, model);

  LayerShape mamba;
  mamba.hidden_norms = 1;
  mamba.ssm = read_zamba2_mixer(fields, hidden, model);

  LayerShape shared = mamba;
  shared.shared_transformer = true;
  AttentionShape& a = shared.attention;
  a.num_heads = count_or_class_default(fields, "num_attention_heads", 32, max_heads, zamba2_config, model);
  a.num_kv_heads = fields.optional_count("num_key_value_heads", 1, max_heads).value_or(a.num_heads);
  a.head_dim = 2 * hidden / a.num_heads;
  a.value_head_dim = a.head_dim;
  if (a.head_dim < 1 || a.num_heads % a.num_kv_heads != 0) {
    const std::string path =
        a.head_dim < 1 ? fields.path_of("num_attention_heads") : fields.path_of("num_key_value_heads");
    throw ConfigError(path, "field '" + path + "': " + std::to_string(a.num_heads) + " attention heads of 2 x " +
                                std::to_string(hidden) + " // heads with " + std::to_string(a.num_kv_heads) +
                                " key/value heads have no consistent shape");
  }
  if (auto width = fields.optional_count("intermediate_size", 1, max_intermediate_size)) {
    shared.mlp.intermediate_size = *width;
  } else {
    shared.mlp.intermediate_size = 4 * hidden;
    model.assumptions.push_back("intermediate_size absent: 4 x hidden_size, as Zamba2Config does");
  }
  shared.mlp.gated = true;
  shared.mlp.bias = shared.ssm.projection_bias;  // add_bias_linear

  SharedTransformerBlocks blocks;
  blocks.count = count_or_class_default(fields, "num_mem_blocks", 1, max_heads, zamba2_config, model);
  blocks.input_width = 2 * hidden;
  blocks.adapter_rank = count_or_class_default(fields, "adapter_rank", 128, max_hidden_size, zamba2_config, model);
  blocks.attention_adapters =
      boolean_or_class_default(fields, "use_shared_attention_adapter", false, zamba2_config, model);
  blocks.mlp_bias = shared.mlp.bias;
  model.shared_blocks = blocks;
  for (const bool is_hybrid : hybrid) append_layer(model, is_hybrid ? shared : mamba);
}

}  // namespace fitcheck::detail
