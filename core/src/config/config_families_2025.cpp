// SPDX-License-Identifier: MIT
// Decoder families of 2025 that read as rows of the modern-decoder table (config_families.cpp) with
// their own sliding-window defaults, projection biases, activation parameters and MoE layout: OLMo 3,
// EXAONE 4.0, Seed-OSS, Cohere 2 (Command R7B, Command A), Apertus and GLM-4.5/4.6 (glm4_moe). Each rule
// cites the transformers file it follows.
#include <optional>
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

// Whether layer i uses a sliding window when every `pattern`-th layer attends in full:
// "sliding_attention" if (i + 1) % pattern != 0, as Olmo3Config, Cohere2Config and Exaone4Config
// fill layer_types when a config has none.
std::vector<bool> every_nth_full(std::int64_t layers, std::int64_t pattern) {
  std::vector<bool> sliding(static_cast<std::size_t>(layers), false);
  for (std::int64_t i = 0; i < layers; ++i) sliding[static_cast<std::size_t>(i)] = (i + 1) % pattern != 0;
  return sliding;
}

std::int64_t window_or_default(const ConfigFields& fields, const char* family, ModelDescription& model) {
  if (auto window = fields.optional_count("sliding_window", 1, max_positions)) return *window;
  model.assumptions.push_back(std::string("sliding_window absent: windows of 4096 tokens, as ") + family);
  return 4096;
}

// Exaone4Config (huggingface/transformers@008e57439125 src/transformers/models/exaone4/modular_exaone4.py):
// sliding_window null turns sliding off; sliding_window_pattern is an int (every n-th layer global) or
// a string of 'L' (local) and 'G' (global) repeated from layer 0, the last layer always global.
std::vector<bool> exaone4_sliding_layers(const ConfigFields& fields, std::int64_t layers) {
  if (!fields.is_string("sliding_window_pattern")) {
    const std::int64_t pattern = fields.optional_count("sliding_window_pattern", 1, max_layers).value_or(4);
    return every_nth_full(layers, pattern);
  }
  const std::string pattern = *fields.string("sliding_window_pattern");
  const std::string path = fields.path_of("sliding_window_pattern");
  if (pattern.empty() || pattern.find_first_not_of("LG") != std::string::npos)
    throw ConfigError(path, "field '" + path + "' is '" + printable(pattern) +
                                "'; EXAONE 4.0 spells it with 'L' (local) and 'G' (global) layers only");
  std::vector<bool> sliding(static_cast<std::size_t>(layers), false);
  for (std::int64_t i = 0; i + 1 < layers; ++i)
    sliding[static_cast<std::size_t>(i)] = pattern[static_cast<std::size_t>(i) % pattern.size()] == 'L';
  return sliding;
}

}  // namespace

std::optional<std::vector<std::int64_t>> recent_family_windows(const std::string& type, const ConfigFields& fields,
                                                               std::int64_t layers, ModelDescription& model) {
  const bool known = type == "olmo3" || type == "cohere2" || type == "exaone4";
  // A written layer_types is read by the shared rule (sliding_windows in config_families.cpp).
  if (!known || fields.has("layer_types")) return std::nullopt;
  std::vector<bool> sliding;
  std::int64_t window = 0;
  if (type == "olmo3") {
    // Olmo3Config (huggingface/transformers@02e8340b9678 src/transformers/models/olmo3/modular_olmo3.py):
    // sliding_window 4096 and every 4th layer full when layer_types is absent.
    window = window_or_default(fields, "Olmo3Config", model);
    sliding = every_nth_full(layers, 4);
    model.assumptions.push_back("layer_types absent: every 4th layer attends in full, as Olmo3Config");
  } else if (type == "cohere2") {
    // Cohere2Config (huggingface/transformers@008e57439125 src/transformers/models/cohere2/modular_cohere2.py):
    // sliding_window_pattern (default 4) when layer_types is absent.
    window = window_or_default(fields, "Cohere2Config", model);
    const std::int64_t pattern = fields.optional_count("sliding_window_pattern", 1, max_layers).value_or(4);
    if (!fields.has("sliding_window_pattern"))
      model.assumptions.push_back("sliding_window_pattern absent: every 4th layer attends in full, as Cohere2Config");
    sliding = every_nth_full(layers, pattern);
  } else {
    const auto written = fields.optional_count("sliding_window", 1, max_positions);
    if (!written) {
      model.assumptions.push_back("sliding_window absent or null: every layer attends in full");
      return std::vector<std::int64_t>(static_cast<std::size_t>(layers), 0);
    }
    window = *written;
    sliding = exaone4_sliding_layers(fields, layers);
  }
  std::vector<std::int64_t> windows(static_cast<std::size_t>(layers), 0);
  for (std::size_t i = 0; i < sliding.size(); ++i)
    if (sliding[i]) windows[i] = window;
  return windows;
}

void apply_recent_family_layer_rules(const std::string& type, const ConfigFields& fields, LayerShape& layer) {
  if (type == "seed_oss") {
    // SeedOssAttention (huggingface/transformers@052b1dcdbe75 src/transformers/models/seed_oss/
    // modular_seed_oss.py): q/k/v biases with attention_bias (SeedOssConfig default true), o_proj's with
    // attention_out_bias (default false); SeedOssMLP's with mlp_bias.
    layer.attention.qkv_bias = fields.boolean("attention_bias").value_or(true);
    layer.attention.output_bias = fields.boolean("attention_out_bias").value_or(false);
  } else if (type == "cohere2") {
    // Cohere2DecoderLayer's mlp is CohereMLP (huggingface/transformers models/cohere/modeling_cohere.py),
    // gate/up/down with bias=False whatever mlp_bias says.
    layer.mlp.bias = false;
  } else if (type == "exaone4" || type == "olmo3") {
    // Exaone4Attention hard-wires bias=False on q/k/v/o; Exaone4MLP and Olmo3's MLP are Olmo2MLP, whose
    // gate/up/down have no biases (modular_exaone4.py, modular_olmo3.py at the commits above).
    if (type == "exaone4") layer.attention.qkv_bias = layer.attention.output_bias = false;
    layer.mlp.bias = false;
  } else if (type == "apertus") {
    // ApertusMLP (huggingface/transformers@008e57439125 src/transformers/models/apertus/modular_apertus.py):
    // up_proj and down_proj without biases, no gate; with hidden_act "xielu" (ApertusConfig's default) the
    // activation is an XIELUActivation whose alpha_p and alpha_n are parameters of one element each (its
    // beta and eps are buffers). ApertusAttention is Llama's (attention_bias) with per-head q/k norms.
    layer.mlp.bias = false;
    const std::string act = fields.string("hidden_act").value_or("xielu");
    layer.mlp.activation_parameters = act == "xielu" ? 2 : 0;
  } else if (type == "hunyuan_v1_dense" || type == "hunyuan_v1_moe") {
    // HunYuanDenseV1MLP (huggingface/transformers@0233e509531a src/transformers/models/hunyuan_v1_dense/
    // modular_hunyuan_v1_dense.py) and HunYuanMoEV1MLP (modular_hunyuan_v1_moe.py, below) hard-wire
    // bias=False; the attention is Llama's (attention_bias) with query_layernorm and key_layernorm,
    // RMSNorms of head_dim (the table's per-head q/k norms).
    layer.mlp.bias = false;
  } else if (type == "glm4_moe") {
    // Glm4MoeAttention (huggingface/transformers@a0699c971daf src/transformers/models/glm4_moe/
    // modeling_glm4_moe.py): q/k/v biases with attention_bias, o_proj never; q_norm and k_norm, RMSNorms
    // of head_dim, with use_qk_norm. Glm4MoeMLP has no biases.
    layer.attention.qkv_bias = fields.boolean("attention_bias").value_or(false);
    layer.attention.output_bias = false;
    if (fields.boolean("use_qk_norm").value_or(false))
      layer.attention.query_norm_size = layer.attention.key_norm_size = layer.attention.head_dim;
    layer.mlp.bias = false;
  }
}

// Glm4MoeDecoderLayer (modeling_glm4_moe.py at the commit above): layers from first_k_dense_replace on
// hold Glm4MoeMoE, n_routed_experts gated experts of moe_intermediate_size, Glm4MoeTopkRouter (a
// weight of n_routed_experts x hidden and the e_score_correction_bias buffer the checkpoint stores)
// and one shared Glm4MoeMLP of moe_intermediate_size x n_shared_experts; the layers before hold a dense
// Glm4MoeMLP of intermediate_size. The three sizes are required: Glm4MoeConfig's defaults (1, 1, 1408)
// are GLM-4.5-Air's, not a rule, and fitcheck does not guess them.
void read_glm4_moe_layers(const ConfigFields& fields, std::int64_t layers, MoeShape& moe,
                          std::vector<bool>& is_sparse) {
  const std::int64_t first_moe = fields.required_count("first_k_dense_replace", 0, layers);
  moe.expert_intermediate_size = fields.required_count("moe_intermediate_size", 1, max_intermediate_size);
  moe.num_shared_experts = fields.required_count("n_shared_experts", 0, max_experts);
  moe.shared_expert_intermediate_size = moe.expert_intermediate_size;
  moe.router_correction_bias = true;
  for (std::int64_t i = 0; i < layers; ++i) is_sparse[static_cast<std::size_t>(i)] = i >= first_moe;
}

// Ernie4_5_MoeDecoderLayer (huggingface/transformers@01187e21cda1 src/transformers/models/ernie4_5_moe/
// modular_ernie4_5_moe.py): layer i holds Ernie4_5_MoeSparseMoeBlock when (i + 1) % moe_layer_interval
// == 0 and moe_layer_start_index <= i <= moe_layer_end_index (-1: the last layer, as
// Ernie4_5_MoeConfig), else a dense Ernie4_5_MoeMLP of intermediate_size. The block: a router without
// bias, moe_statics' e_score_correction_bias (one row of moe_num_experts), moe_num_experts experts of
// moe_intermediate_size and one shared MLP of moe_intermediate_size x moe_num_shared_experts, every MLP
// with biases when use_bias (as q/k/v/o and, in Ernie4_5_MoeForCausalLM, lm_head). The expert sizes are
// required: Ernie4_5_MoeConfig's defaults are ERNIE-4.5-21B-A3B's, not a rule.
void read_ernie4_5_moe_layers(const ConfigFields& fields, std::int64_t layers, MoeShape& moe,
                              std::vector<bool>& is_sparse, ModelDescription& model) {
  moe.expert_intermediate_size = fields.required_count("moe_intermediate_size", 1, max_intermediate_size);
  moe.num_shared_experts = fields.required_count("moe_num_shared_experts", 0, max_experts);
  moe.shared_expert_intermediate_size = moe.expert_intermediate_size;
  moe.router_correction_bias = true;
  moe.expert_bias = fields.boolean("use_bias").value_or(false);
  model.lm_head_bias = moe.expert_bias;
  const std::int64_t start = fields.optional_count("moe_layer_start_index", 0, layers - 1).value_or(1);
  const std::int64_t step = fields.optional_count("moe_layer_interval", 1, max_layers).value_or(1);
  std::int64_t end = layers - 1;
  if (const auto written = fields.integer("moe_layer_end_index"); written && *written != -1) {
    if (*written < 0 || *written >= layers)
      throw ConfigError(fields.path_of("moe_layer_end_index"),
                        "field '" + fields.path_of("moe_layer_end_index") + "' is " + std::to_string(*written) +
                            "; ERNIE 4.5 takes -1 (the last layer) or a layer from 0 to " + std::to_string(layers - 1));
    end = *written;
  }
  if (!fields.has("moe_layer_start_index") || !fields.has("moe_layer_interval") || !fields.has("moe_layer_end_index"))
    model.assumptions.push_back(
        "moe_layer_start_index, moe_layer_interval or moe_layer_end_index absent: 1, 1 and the last layer, as "
        "Ernie4_5_MoeConfig");
  for (std::int64_t i = 0; i < layers; ++i)
    is_sparse[static_cast<std::size_t>(i)] = (i + 1) % step == 0 && i >= start && i <= end;
  if (model.multi_token_prediction_layers > 0) {
    model.assumptions.push_back(
        "num_nextn_predict_layers: ERNIE 4.5's MTP weights are not counted (Ernie4_5_MoeForCausalLM skips them)");
    model.multi_token_prediction_layers = 0;
  }
}

// HunYuanMoEV1DecoderLayer (huggingface/transformers@05bf8f6478e9 src/transformers/models/hunyuan_v1_moe/
// modular_hunyuan_v1_moe.py): every layer holds HunYuanMoE: num_experts experts and one shared_mlp, all
// HunYuanMoEV1MLP(config), gated and of intermediate_size, without biases, and HunYuanTopKGate's wg,
// Linear(hidden, num_experts) without bias; moe_topk experts per token.
void read_hunyuan_moe_layers(std::int64_t intermediate_size, MoeShape& moe) {
  moe.expert_intermediate_size = intermediate_size;
  moe.num_shared_experts = 1;
  moe.shared_expert_intermediate_size = intermediate_size;
}

// DeepSeek-V3.2 (deepseek_v32): DeepSeek-V3's layers, and in every layer's attention the lightning
// indexer of deepseek-ai/DeepSeek-V3.2-Exp@3b99a53 inference/model.py (Indexer: wq_b from the query
// latent, so q_lora_rank must be set; its head splits into a rotary part of qk_rope_head_dim and the
// rest). Each query attends to the index_topk tokens the indexer picks: latency reads at most
// index_topk latent entries per query and costs the indexer's scores over every cached key
// (latency_ops.hpp sparse_indexer); training counts the sparse pairs but not the indexer's scores.
void read_lightning_indexer(const ConfigFields& fields, AttentionShape& attention, ModelDescription& model) {
  attention.index_heads = fields.required_count("index_n_heads", 1, max_heads);
  attention.index_head_dim = fields.required_count("index_head_dim", 1, max_hidden_size);
  attention.index_topk = fields.required_count("index_topk", 1, max_positions);
  if (attention.q_lora_rank == 0) {
    const std::string path = fields.path_of("q_lora_rank");
    throw ConfigError(path, "field '" + path +
                                "' is missing or 0, but the lightning indexer's wq_b reads the query latent "
                                "(index_n_heads is set): DeepSeek-V3.2 needs a q_lora_rank");
  }
  if (attention.index_head_dim < attention.qk_rope_head_dim) {
    const std::string path = fields.path_of("index_head_dim");
    throw ConfigError(path, "field '" + path + "' (" + std::to_string(attention.index_head_dim) +
                                ") is smaller than qk_rope_head_dim (" + std::to_string(attention.qk_rope_head_dim) +
                                "), the rotary part of every index head");
  }
  model.assumptions.push_back(
      "DeepSeek-V3.2 sparse attention: each query attends to at most index_topk (" +
      std::to_string(attention.index_topk) +
      ") tokens, so attention time stops growing there, while the lightning indexer scores every cached token "
      "in FP8 (timed as the sparse_indexer operation); its key cache is in the KV cache; training time counts "
      "the sparse attention but not the indexer's scores");
}

}  // namespace fitcheck::detail
