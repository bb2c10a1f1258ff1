// SPDX-License-Identifier: MIT
// The mixture-of-experts fields of the modern decoder families (config_moe.hpp). Each family's rule
// cites its modeling code.
#include "config/config_moe.hpp"

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

void refuse_zero_experts(const std::string& type, const ConfigFields& fields) {
  const bool moe_family = is_moe_family(type);
  const auto top_k = fields.optional_count("num_experts_per_tok", 0, max_experts).value_or(0);
  if (!moe_family && top_k == 0) return;
  const std::string path = fields.path_of("num_local_experts");
  throw ConfigError(
      path, "field '" + path + "' is 0, but " +
                (top_k > 0 ? "num_experts_per_tok is " + std::to_string(top_k)
                           : "model_type '" + detail::printable(type) + "' is a mixture of experts") +
                ": the number of routed experts must be at least 1 (or the MoE fields absent for a dense model)");
}

// MoE fields that contradict the family are refused, naming the field: an always-MoE family
// without its expert count (transformers would fall back to its configuration class's default, a
// guess here), or a dense family (Llama, Qwen2/3, Gemma...) that names experts. The generic reading
// of an unknown model_type takes the fields as they come.
void refuse_contradicting_moe_fields(const std::string& type, const ConfigFields& fields, bool generic) {
  if (generic) return;
  const auto experts = fields.optional_count("num_local_experts", 0, max_experts);
  const std::string name = printable(type);
  if (is_moe_family(type)) {
    if (!experts) {
      const std::string path = fields.path_of("num_local_experts");
      throw ConfigError(path, "required field '" + path +
                                  "' (also looked for 'num_experts', 'n_routed_experts') is "
                                  "missing: model_type '" +
                                  name +
                                  "' is a mixture of experts and fitcheck does not guess "
                                  "how many experts it routes");
    }
    return;
  }
  if (experts && *experts > 0) {
    const std::string path = fields.path_of("num_local_experts");
    throw ConfigError(path, "field '" + path + "' is " + std::to_string(*experts) + ", but model_type '" + name +
                                "' has a dense MLP in every layer: fix the model_type (e.g. a MoE family) or remove "
                                "the field");
  }
  if (const auto top_k = fields.optional_count("num_experts_per_tok", 0, max_experts); top_k && *top_k > 0) {
    const std::string path = fields.path_of("num_experts_per_tok");
    throw ConfigError(path, "field '" + path + "' is " + std::to_string(*top_k) + ", but model_type '" + name +
                                "' has a dense MLP in every layer and no experts to route to");
  }
}

}  // namespace

// DeepSeek-V2, V3 and V3.2: multi-head latent attention and DeepSeekMoE's layer layout.
bool is_deepseek_mla(const std::string& type) {
  return type == "deepseek_v2" || type == "deepseek_v3" || type == "deepseek_v32";
}

// Families whose modeling code always routes experts (Mixtral, Qwen-MoE, OLMoE, Granite-MoE,
// PhiMoE, DeepSeek-V2/V3, gpt-oss); every other family of the traits table is dense.
bool is_moe_family(const std::string& type) {
  return type.find("moe") != std::string::npos || type == "mixtral" || type == "deepseek_v2" || type == "deepseek_v3" ||
         type == "deepseek_v32" || type == "gpt_oss" || type == "dbrx" || type == "jamba" || type == "llama4_text";
}

// 0 routed experts reads as a dense model only where nothing else says MoE: a family that is
// always MoE (Mixtral, Qwen-MoE, DeepSeek-V2/V3, gpt-oss...) or a top-k above 0 contradicts it, and
// the count is refused, naming the field, rather than silently counted as dense.
std::optional<MoeRule> read_moe(const std::string& type, const ConfigFields& fields, std::int64_t layers,
                                std::int64_t dense_width, bool generic, ModelDescription& model) {
  const auto experts = fields.optional_count("num_local_experts", 0, max_experts);
  if (experts && *experts == 0) refuse_zero_experts(type, fields);
  refuse_contradicting_moe_fields(type, fields, generic);
  if (!experts || *experts == 0) return std::nullopt;
  MoeRule rule;
  MoeShape& moe = rule.shape;
  moe.num_experts = *experts;
  moe.experts_per_token = fields.required_count("num_experts_per_tok", 1, max_experts);
  moe.expert_intermediate_size =
      fields.optional_count("moe_intermediate_size", 1, max_intermediate_size).value_or(dense_width);
  rule.is_sparse.assign(static_cast<std::size_t>(layers), true);
  if (type == "qwen2_moe" || type == "qwen3_moe") {
    rule.is_sparse = qwen_sparse_layers(fields, layers);
    if (auto shared = fields.optional_count("shared_expert_intermediate_size", 0, max_intermediate_size);
        shared && *shared > 0) {
      moe.num_shared_experts = 1;
      moe.shared_expert_intermediate_size = *shared;
      moe.shared_expert_gate = true;  // Qwen2MoeSparseMoeBlock.shared_expert_gate: Linear(hidden, 1)
    }
  } else if (is_deepseek_mla(type)) {
    const std::int64_t first_dense = fields.optional_count("first_k_dense_replace", 0, max_layers).value_or(0);
    const std::int64_t frequency = fields.optional_count("moe_layer_freq", 1, max_layers).value_or(1);
    for (std::int64_t i = 0; i < layers; ++i)
      rule.is_sparse[static_cast<std::size_t>(i)] = i >= first_dense && i % frequency == 0;
    if (auto shared = fields.optional_count("n_shared_experts", 0, max_experts); shared && *shared > 0) {
      moe.num_shared_experts = *shared;
      moe.shared_expert_intermediate_size = moe.expert_intermediate_size;
    }
    // DeepSeek-V3's noaux_tc routing keeps a learned per-expert score correction bias.
    moe.router_correction_bias = fields.string("topk_method").value_or("") == "noaux_tc";
  } else if (type == "granitemoeshared") {
    if (auto shared = fields.optional_count("shared_intermediate_size", 0, max_intermediate_size);
        shared && *shared > 0) {
      moe.num_shared_experts = 1;
      moe.shared_expert_intermediate_size = *shared;
    }
  } else if (type == "llama4_text") {
    // Llama4TextConfig (huggingface/transformers@63210d0e3b74 src/transformers/models/llama4/
    // configuration_llama4.py): moe_layers, or range(interleave_moe_layer_step - 1, layers, step);
    // modeling_llama4.py Llama4TextDecoderLayer: a layer in moe_layers holds Llama4TextMoe, every other
    // layer a dense Llama4TextMLP of intermediate_size_mlp. Llama4TextMoe: Llama4TextExperts
    // (gate_up_proj num_experts x hidden x 2 intermediate_size, down_proj num_experts x intermediate_size
    // x hidden), Llama4Router (Linear(hidden, num_experts), no bias; top-k with sigmoid scores) and one
    // shared_expert, a gated Llama4TextMLP of intermediate_size that every token uses.
    moe.expert_intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
    moe.num_shared_experts = 1;
    moe.shared_expert_intermediate_size = moe.expert_intermediate_size;
    if (auto listed = fields.integer_list("moe_layers")) {
      rule.is_sparse.assign(static_cast<std::size_t>(layers), false);
      for (const std::int64_t index : *listed) {
        if (index < 0 || index >= layers)
          throw ConfigError(fields.path_of("moe_layers"),
                            "field '" + fields.path_of("moe_layers") + "' names layer " + std::to_string(index) +
                                ", but the model has layers 0 to " + std::to_string(layers - 1));
        rule.is_sparse[static_cast<std::size_t>(index)] = true;
      }
    } else {
      const std::int64_t step = fields.optional_count("interleave_moe_layer_step", 1, max_layers).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) rule.is_sparse[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
    }
  } else if (type == "glm4_moe") {
    read_glm4_moe_layers(fields, layers, moe, rule.is_sparse);
  } else if (type == "hunyuan_v1_moe") {
    read_hunyuan_moe_layers(dense_width, moe);
  } else if (type == "ernie4_5_moe") {
    read_ernie4_5_moe_layers(fields, layers, moe, rule.is_sparse, model);
  } else if (type == "gpt_oss") {
    moe.router_bias = true;  // GptOssTopKRouter has a bias
    moe.expert_bias = true;  // gate_up_proj_bias and down_proj_bias per expert
  }
  return rule;
}

}  // namespace fitcheck::detail
