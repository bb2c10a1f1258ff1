// SPDX-License-Identifier: MIT
// Linear-attention hybrids: Qwen3-Next and Qwen3.5 (dense and MoE), whose Gated DeltaNet layers
// (Yang et al. 2024, arXiv 2412.06464) keep a fixed recurrent state per sequence, with gated full
// attention between them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// What sets the three configuration classes apart. Qwen3NextConfig: routed experts (default 512, top 10)
// where mlp_only_layers and decoder_sparse_step put them, a dense Qwen3NextMLP elsewhere or with
// num_experts 0. Qwen3_5TextConfig (Qwen3NextConfig with the expert fields removed): a dense MLP in
// every layer. Qwen3_5MoeTextConfig: routed experts in every layer (default 256, top 8). Their
// attention, Gated DeltaNet and norms are Qwen3-Next's; Qwen3.5 splits the DeltaNet's input
// projection into in_proj_qkv, in_proj_z, in_proj_b and in_proj_a, the same weights as in_proj_qkvz
// and in_proj_ba (huggingface/transformers@009e78d6e89f src/transformers/models/qwen3_5/
// modular_qwen3_5.py Qwen3_5GatedDeltaNet, Qwen3_5DecoderLayer; @008e57439125
// src/transformers/models/qwen3_5_moe/configuration_qwen3_5_moe.py; @0960594cbcb3 .../modular_qwen3_5_moe.py
// Qwen3_5MoeDecoderLayer: Qwen3NextSparseMoeBlock as its mlp in every layer).
enum class ExpertRule : std::uint8_t { qwen3_next, none, every_layer };
struct GatedDeltaNetFamily {
  const char* config_class;
  ExpertRule experts;
  std::int64_t default_experts = 0, default_experts_per_token = 0;
  bool qwen3_5 = false;  // writes attn_output_gate and mtp_num_hidden_layers
};
constexpr GatedDeltaNetFamily kQwen3Next{"Qwen3NextConfig", ExpertRule::qwen3_next, 512, 10};
constexpr GatedDeltaNetFamily kQwen3_5{"Qwen3_5TextConfig", ExpertRule::none, 0, 0, true};
constexpr GatedDeltaNetFamily kQwen3_5Moe{"Qwen3_5MoeTextConfig", ExpertRule::every_layer, 256, 8, true};

// Which layers are full attention: layer_types ("linear_attention" / "full_attention"), or, as
// the configuration classes build it when absent, layer i when (i + 1) is a multiple of
// full_attention_interval (default 4).
std::vector<bool> gated_delta_net_attention_layers(const ConfigFields& fields, std::int64_t layers,
                                                   const char* config_class, ModelDescription& model) {
  if (auto kinds = two_kind_layer_types(fields, layers, "linear_attention", "full_attention")) return *kinds;
  std::vector<bool> attention(static_cast<std::size_t>(layers), false);
  const std::int64_t interval =
      count_or_class_default(fields, "full_attention_interval", 4, max_layers, config_class, model);
  for (std::int64_t i = 0; i < layers; ++i) attention[static_cast<std::size_t>(i)] = (i + 1) % interval == 0;
  return attention;
}

// Qwen3NextGatedDeltaNet as an SsmShape: value heads as heads of the value head width, key heads as
// the groups that share q and k, the key head width as the state size. Its conv1d has no bias, its
// projections none either (see add_gated_delta_net in params.cpp).
SsmShape read_gated_delta_net(const ConfigFields& fields, const char* config_class, ModelDescription& model) {
  SsmShape m;
  m.mixer = RecurrentMixer::gated_delta_net;
  m.num_heads = count_or_class_default(fields, "linear_num_value_heads", 32, max_heads, config_class, model);
  m.head_dim = count_or_class_default(fields, "linear_value_head_dim", 128, max_hidden_size, config_class, model);
  m.groups = count_or_class_default(fields, "linear_num_key_heads", 16, max_heads, config_class, model);
  m.state_size = count_or_class_default(fields, "linear_key_head_dim", 128, max_hidden_size, config_class, model);
  m.conv_kernel = count_or_class_default(fields, "linear_conv_kernel_dim", 4, 1024, config_class, model);
  m.conv_bias = false;
  m.projection_bias = false;
  // fix_query_key_value_ordering splits the value heads evenly over the key heads.
  if (m.num_heads % m.groups != 0) {
    const std::string path = fields.path_of("linear_num_value_heads");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(m.num_heads) +
                                ") is not a multiple of linear_num_key_heads (" + std::to_string(m.groups) +
                                "): value heads cannot share the key heads evenly");
  }
  return m;
}

// The routed experts of a family's layers (num_experts 0 or ExpertRule::none: a dense MLP).
MoeShape read_routed_experts(const ConfigFields& fields, const GatedDeltaNetFamily& family, std::int64_t experts,
                             ModelDescription& model) {
  MoeShape moe;
  moe.num_experts = experts;
  moe.experts_per_token = count_or_class_default(fields, "num_experts_per_tok", family.default_experts_per_token,
                                                 max_experts, family.config_class, model);
  moe.expert_intermediate_size =
      count_or_class_default(fields, "moe_intermediate_size", 512, max_intermediate_size, family.config_class, model);
  moe.num_shared_experts = 1;
  moe.shared_expert_intermediate_size = count_or_class_default(fields, "shared_expert_intermediate_size", 512,
                                                               max_intermediate_size, family.config_class, model);
  moe.shared_expert_gate = true;
  moe.gated = true;
  return moe;
}

// Which layers hold routed experts, and how many experts each has (0: none anywhere).
std::vector<bool> sparse_layers(const ConfigFields& fields, const GatedDeltaNetFamily& family, std::int64_t layers,
                                std::int64_t& experts, ModelDescription& model) {
  // Qwen3NextConfig and Qwen3_5MoeTextConfig name it num_experts (read under num_local_experts' aliases).
  const auto name_default = [&] {
    if (!fields.has("num_local_experts"))
      model.assumptions.push_back("num_experts absent: " + std::to_string(family.default_experts) + ", as " +
                                  family.config_class + " does");
  };
  switch (family.experts) {
    case ExpertRule::qwen3_next:
      // num_experts 0: Qwen3NextMLP in every layer.
      experts = fields.optional_count("num_local_experts", 0, max_experts).value_or(family.default_experts);
      name_default();
      if (experts == 0) return std::vector<bool>(static_cast<std::size_t>(layers), false);
      return qwen_sparse_layers(fields, layers);
    case ExpertRule::none:
      // Qwen3_5TextConfig removes num_experts: a config that names experts is the MoE family's.
      if (fields.optional_count("num_local_experts", 0, max_experts).value_or(0) > 0) {
        const std::string path = fields.path_of("num_local_experts");
        throw ConfigError(path, "field '" + path + "' names routed experts, but model_type 'qwen3_5_text' is " +
                                    "Qwen3.5's dense model (Qwen3_5TextConfig has no experts): a Qwen3.5 " +
                                    "mixture of experts is 'qwen3_5_moe_text'");
      }
      experts = 0;
      return std::vector<bool>(static_cast<std::size_t>(layers), false);
    case ExpertRule::every_layer:
      // Qwen3_5MoeDecoderLayer: the sparse block in every layer (no mlp_only_layers, no decoder_sparse_step).
      experts = fields.optional_count("num_local_experts", 1, max_experts).value_or(family.default_experts);
      name_default();
      return std::vector<bool>(static_cast<std::size_t>(layers), true);
  }
  return {};
}

void read_gated_delta_net_family(const ConfigFields& fields, const GatedDeltaNetFamily& family,
                                 ModelDescription& model) {
  read_hybrid_preamble(fields, {}, model);
  const std::vector<bool> is_attention =
      gated_delta_net_attention_layers(fields, model.num_layers, family.config_class, model);

  LayerShape base;
  base.hidden_norms = 2;
  std::int64_t experts = 0;
  const std::vector<bool> is_sparse = sparse_layers(fields, family, model.num_layers, experts, model);
  const MoeShape moe = experts > 0 ? read_routed_experts(fields, family, experts, model) : MoeShape{};
  MlpShape dense;
  dense.gated = true;
  bool any_dense = false;
  for (const bool sparse : is_sparse) any_dense = any_dense || !sparse;
  if (any_dense) dense.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);

  AttentionShape attention;
  bool any_attention = false;
  for (const bool layer_is_attention : is_attention) any_attention = any_attention || layer_is_attention;
  if (any_attention) {
    attention.num_heads = read_head_count(fields);
    attention.num_kv_heads = fields.required_count("num_key_value_heads", 1, max_heads);
    attention.head_dim = count_or_class_default(fields, "head_dim", 256, max_hidden_size, family.config_class, model);
    attention.value_head_dim = attention.head_dim;
    attention.qkv_bias = attention.output_bias = fields.boolean("attention_bias").value_or(false);
    attention.query_norm_size = attention.key_norm_size = attention.head_dim;
    attention.output_gate = true;
  }
  if (family.qwen3_5) {
    // Qwen3.5's configs write attn_output_gate true; Qwen3_5Attention (Qwen3NextAttention) builds the
    // gated q_proj whatever it says, so a false one describes weights transformers cannot load.
    if (fields.boolean("attn_output_gate") == std::optional<bool>(false)) {
      const std::string path = fields.path_of("attn_output_gate");
      throw ConfigError(path, "field '" + path + "' is false, but Qwen3.5's attention always has its sigmoid " +
                                  "output gate (Qwen3_5Attention builds q_proj twice as wide)");
    }
  }
  bool any_linear = false;
  for (const bool layer_is_attention : is_attention) any_linear = any_linear || !layer_is_attention;
  const SsmShape mixer = any_linear ? read_gated_delta_net(fields, family.config_class, model) : SsmShape{};

  if (family.qwen3_5) {
    // The recurrent state's dtype the configs ask engines for (vLLM takes it for mamba_ssm_cache_dtype "auto";
    // transformers' own cache ignores it).
    if (const auto dtype = fields.string("mamba_ssm_dtype")) {
      if (*dtype == "float32" || *dtype == "fp32")
        model.recurrent_state_bytes_per_element = 4;
      else if (*dtype == "bfloat16" || *dtype == "bf16" || *dtype == "float16" || *dtype == "fp16")
        model.recurrent_state_bytes_per_element = 2;
      else {
        const std::string path = fields.path_of("mamba_ssm_dtype");
        throw ConfigError(path, "field '" + path + "' is '" + printable(*dtype) +
                                    "'; a recurrent state's dtype is float32, bfloat16 or float16");
      }
    }
    // The checkpoints store mtp_num_hidden_layers multi-token-prediction modules that transformers skips on
    // load (Qwen3_5ForCausalLM._keys_to_ignore_on_load_unexpected = ["^mtp.*", ...]): mtp.fc (2h -> h), two
    // pre-fc norms, one full-attention layer and a norm, sharing the embedding and head
    // (mtp_use_dedicated_embeddings false): DeepSeek-V3's module shape when the last layer attends.
    const std::int64_t mtp = fields.optional_count("mtp_num_hidden_layers", 0, max_layers).value_or(0);
    if (mtp > 0 && !is_attention.empty() && is_attention.back() &&
        !fields.boolean("mtp_use_dedicated_embeddings").value_or(false)) {
      model.multi_token_prediction_layers = mtp;
      model.multi_token_prediction_repeats_embeddings = false;
      model.multi_token_prediction_field = "mtp_num_hidden_layers";
    } else if (mtp > 0) {
      model.not_counted.push_back("mtp_num_hidden_layers " + std::to_string(mtp) +
                                  ": the checkpoint's multi-token-prediction module (mtp.*) is not counted");
    }
  }
  for (std::size_t i = 0; i < is_attention.size(); ++i) {
    LayerShape layer = base;
    if (is_attention[i])
      layer.attention = attention;
    else
      layer.ssm = mixer;
    if (is_sparse[i])
      layer.moe = moe;
    else
      layer.mlp = dense;
    append_layer(model, layer);
  }
}

}  // namespace

// Qwen3-Next: huggingface/transformers@249ef8164cfb src/transformers/models/qwen3_next/
// configuration_qwen3_next.py (Qwen3NextConfig: head_dim 256, num_experts 512, num_experts_per_tok
// 10, moe_intermediate_size 512, shared_expert_intermediate_size 512, tie_word_embeddings false)
// and @7515843b6175 .../qwen3_next/modeling_qwen3_next.py. Qwen3NextDecoderLayer: input_layernorm,
// Qwen3NextGatedDeltaNet or Qwen3NextAttention (q_proj hidden -> 2 x heads x head_dim, the second
// half a sigmoid output gate; k_proj, v_proj, o_proj with bias attention_bias; q_norm and k_norm of
// head_dim), post_attention_layernorm, then Qwen3NextSparseMoeBlock (gate Linear(hidden, experts)
// without bias, gated experts of moe_intermediate_size, one shared expert of
// shared_expert_intermediate_size and shared_expert_gate Linear(hidden, 1)) where qwen_sparse_layers
// says so, else Qwen3NextMLP of intermediate_size. Qwen3NextRMSNorm scales by (1 + weight): one
// weight each. Qwen3NextModel: embed_tokens, the layers, norm; lm_head untied unless
// tie_word_embeddings. The checkpoints' mtp.* tensors are not loaded (_keys_to_ignore_on_load_unexpected).
void read_qwen3_next(const ConfigFields& fields, ModelDescription& model) {
  read_gated_delta_net_family(fields, kQwen3Next, model);
}

// Qwen3.5's language models (qwen3_5_text: a dense MLP in every layer; qwen3_5_moe_text: Qwen3-Next's
// sparse block in every layer), the text_config of the qwen3_5 and qwen3_5_moe wrappers whose vision
// tower config_vision_qwen3.cpp reads.
void read_qwen3_5_text(const ConfigFields& fields, ModelDescription& model) {
  read_gated_delta_net_family(fields, kQwen3_5, model);
}
void read_qwen3_5_moe_text(const ConfigFields& fields, ModelDescription& model) {
  read_gated_delta_net_family(fields, kQwen3_5Moe, model);
}

}  // namespace fitcheck::detail
