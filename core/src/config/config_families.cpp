// SPDX-License-Identifier: MIT
// Modern decoder families (Llama and its descendants, MoE and MLA variants). Each family's
// defaults are those of its transformers configuration class and modeling code.
#include "config/config_families.hpp"
#include "config/config_moe.hpp"
#include "config/config_other_families.hpp"

#include <cstring>
#include <optional>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

enum class QkNorm : std::uint8_t { none, per_head, full_width };

// Where a family differs from Llama. Field names alone do not say this: the modeling code does.
struct DecoderTraits {
  const char* family;
  bool tie_default = false;
  bool qkv_bias_default = false;
  bool output_bias_default = false;
  NormKind norm = NormKind::rms_norm;
  bool norm_has_weight = true;
  std::int64_t hidden_norms = 2;
  QkNorm qk_norm = QkNorm::none;
  bool parallel = false;
  bool gated = true;
  bool lm_head_bias = false;
  bool mlp_bias_follows_attention = false;  // Starcoder2 use_bias, PhiMoE: one switch for all
};

// One table, one place: every modern family fitcheck reads and what sets it apart.
const DecoderTraits* find_traits(const std::string& type) {
  static const DecoderTraits table[] = {
      {"llama"},
      {"mistral"},
      {"mixtral"},
      {"ministral"},
      {"granite"},
      {"granitemoe"},
      {"granitemoeshared"},
      {"internlm2", false, true, true},  // InternLM2Config.bias defaults to true (wqkv and wo)
      {"internlm"},
      {"phi3"},
      {"qwen2", false, true, false},  // q/k/v carry biases, o_proj does not (Qwen2Attention)
      {"qwen2_moe", false, true, false},
      {"qwen2_vl", false, true, false},
      {"qwen2_5_vl", false, true, false},
      {"qwen3", false, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head},
      {"qwen3_moe", false, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head},
      {"gemma", true},
      {"gemma2", true, false, false, NormKind::rms_norm, true, 4},
      {"gemma3_text", true, false, false, NormKind::rms_norm, true, 4, QkNorm::per_head},
      {"cohere", true, false, false, NormKind::layer_norm_no_bias, true, 1, QkNorm::none, true},
      {"olmo", false, false, false, NormKind::layer_norm_no_bias, false},
      {"olmo2", false, false, false, NormKind::rms_norm, true, 2, QkNorm::full_width},
      // SmolLM3: Llama's layers (huggingface/transformers@b0fc62de0305 models/smollm3/modeling_smollm3.py,
      // SmolLM3Attention, SmolLM3MLP, SmolLM3DecoderLayer); NoPE layers have no parameters; SmolLM3Config
      // ties the embeddings by default.
      {"smollm3", true},
      // Llama 4 text model (huggingface/transformers@63210d0e3b74 src/transformers/models/llama4/modeling_llama4.py):
      // Llama4TextAttention (q/k/v/o, no biases: Llama4TextConfig sets attention_bias False whatever the
      // config says), its qk_norm a Llama4TextL2Norm without weights, two RMSNorms per layer
      // (Llama4TextDecoderLayer), untied by default (Llama4TextConfig tie_word_embeddings=False).
      {"llama4_text"},
      {"olmoe", false, false, false, NormKind::rms_norm, true, 2, QkNorm::full_width},
      {"starcoder2", true, true, true, NormKind::layer_norm, true, 2, QkNorm::none, false, false, false, true},
      {"phimoe", false, true, true, NormKind::layer_norm, true, 2, QkNorm::none, false, true, true, false},
      {"gpt_oss", false, true, true},
      {"deepseek_v2"},
      {"deepseek_v3"},
      {"deepseek_v32"},  // DeepSeek-V3.2: DeepSeek-V3 with the lightning indexer (config_families_2025.cpp)
      // 2025 families; their window defaults and bias rules are in config_families_2025.cpp.
      {"olmo3", false, false, false, NormKind::rms_norm, true, 2, QkNorm::full_width},
      {"exaone4", false, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head},
      {"seed_oss", false, true, false},
      {"cohere2", true, false, false, NormKind::layer_norm_no_bias, true, 1, QkNorm::none, true},
      {"glm4_moe"},
      {"apertus", false, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head, false, false},
      {"ernie4_5", true, false, false, NormKind::rms_norm, true, 2, QkNorm::none, false, true, false, true},
      {"ernie4_5_moe", true, false, false, NormKind::rms_norm, true, 2, QkNorm::none, false, true, false, true},
      {"hunyuan_v1_dense", true, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head},
      {"hunyuan_v1_moe", true, false, false, NormKind::rms_norm, true, 2, QkNorm::per_head},
  };
  for (const auto& traits : table)
    if (type == traits.family) return &traits;
  return nullptr;
}

std::string canonical_type(const std::string& type) {
  if (type == "kimi_k2") return "deepseek_v3";  // DeepseekV3ForCausalLM with Kimi's sizes
  if (type == "gemma3") return "gemma3_text";
  if (type == "llama4") return "llama4_text";  // a text_config without its own model_type
  // Qwen3-VL's text models are Qwen3's and Qwen3-MoE's layers (modeling_qwen3_vl.py Qwen3VLTextDecoderLayer,
  // modeling_qwen3_vl_moe.py Qwen3VLMoeTextDecoderLayer, Qwen3VLMoeTextSparseMoeBlock).
  if (type == "qwen3_vl_text" || type == "qwen3_vl") return "qwen3";
  if (type == "qwen3_vl_moe_text" || type == "qwen3_vl_moe") return "qwen3_moe";
  // Qwen3.5's wrappers whose text_config names no model_type hold their own text model.
  if (type == "qwen3_5") return "qwen3_5_text";
  if (type == "qwen3_5_moe") return "qwen3_5_moe_text";
  if (type == "mistral3" || type == "llava" || type == "llava_next") return "llama";
  // Phi4MultimodalModel's language model is Phi-4-mini's: Phi3's fused qkv_proj and gate_up_proj
  // (huggingface/transformers@00d4b3d2142c src/transformers/models/phi4_multimodal/modeling_phi4_multimodal.py).
  if (type == "phi4_multimodal") return "phi3";
  return type;
}

// Llama 4's chunked attention (huggingface/transformers@63210d0e3b74 src/transformers/models/llama4/
// configuration_llama4.py, Llama4TextConfig: no_rope_layers defaults to int((i + 1) % no_rope_layer_interval
// != 0), 1 marking a RoPE layer; layer_types defaults to "chunked_attention" on the RoPE layers and
// "full_attention" on the NoPE layers; modeling_llama4.py Llama4TextDecoderLayer reads layer_types, and
// Llama4TextModel masks chunked layers with create_chunked_causal_mask). A chunked layer attends only
// within its attention_chunk_size block; engines keep at most that many tokens of its KV cache (vLLM
// runs it as local attention of attention_chunk_size), so fitcheck gives it a window of that size.
// NoPE layers change the positions, not the parameters.
std::vector<std::int64_t> llama4_chunk_windows(const ConfigFields& fields, std::int64_t layers,
                                               ModelDescription& model) {
  std::vector<bool> chunked(static_cast<std::size_t>(layers), false);
  const auto wrong_length = [&](Field field, std::size_t listed) {
    const std::string path = fields.path_of(field);
    return ConfigError(path, "field '" + path + "' lists " + std::to_string(listed) + " layers, but the model has " +
                                 std::to_string(layers));
  };
  if (auto layer_types = fields.string_list("layer_types")) {
    if (static_cast<std::int64_t>(layer_types->size()) != layers)
      throw wrong_length("layer_types", layer_types->size());
    for (std::size_t i = 0; i < layer_types->size(); ++i) {
      const std::string& kind = (*layer_types)[i];
      if (kind != "chunked_attention" && kind != "full_attention")
        throw ConfigError(fields.path_of("layer_types"),
                          "field '" + fields.path_of("layer_types") + "' item " + std::to_string(i) + " is '" +
                              printable(kind) + "'; Llama 4 layers are 'chunked_attention' or 'full_attention'");
      chunked[i] = kind == "chunked_attention";
    }
  } else if (auto rope = fields.integer_list("no_rope_layers"); rope && !rope->empty()) {
    // An empty list means the default, as Llama4TextConfig reads it ("no_rope_layers if no_rope_layers else ...").
    if (static_cast<std::int64_t>(rope->size()) != layers) throw wrong_length("no_rope_layers", rope->size());
    for (std::size_t i = 0; i < rope->size(); ++i) chunked[i] = (*rope)[i] != 0;
  } else {
    const std::int64_t interval = fields.optional_count("no_rope_layer_interval", 1, max_layers).value_or(4);
    if (!fields.has("no_rope_layer_interval"))
      model.assumptions.push_back(
          "no_rope_layers and no_rope_layer_interval absent: every 4th layer is a NoPE layer with full attention "
          "and the others use chunked attention, as Llama4TextConfig");
    for (std::int64_t i = 0; i < layers; ++i) chunked[static_cast<std::size_t>(i)] = (i + 1) % interval != 0;
  }
  std::vector<std::int64_t> windows(static_cast<std::size_t>(layers), 0);
  bool any_chunked = false;
  for (const bool c : chunked) any_chunked = any_chunked || c;
  if (!any_chunked) return windows;
  const std::int64_t chunk = fields.optional_count("attention_chunk_size", 1, max_positions).value_or(8192);
  if (!fields.has("attention_chunk_size"))
    model.assumptions.push_back("attention_chunk_size absent: chunks of 8192 tokens, as Llama4TextConfig");
  for (std::size_t i = 0; i < chunked.size(); ++i)
    if (chunked[i]) windows[i] = chunk;
  return windows;
}

// Which layers use a sliding window, by the family's rule. Returns the window per layer (0: full).
std::vector<std::int64_t> sliding_windows(const std::string& type, const ConfigFields& fields, std::int64_t layers,
                                          ModelDescription& model) {
  if (type == "llama4_text") return llama4_chunk_windows(fields, layers, model);
  if (auto windows = recent_family_windows(type, fields, layers, model)) return *windows;
  std::vector<std::int64_t> windows(static_cast<std::size_t>(layers), 0);
  const std::int64_t window = fields.optional_count("sliding_window", 1, max_positions).value_or(0);
  if (auto layer_types = fields.string_list("layer_types")) {
    if (static_cast<std::int64_t>(layer_types->size()) != layers)
      throw ConfigError(fields.path_of("layer_types"), "field '" + fields.path_of("layer_types") + "' lists " +
                                                           std::to_string(layer_types->size()) +
                                                           " layers, but the model has " + std::to_string(layers));
    for (std::size_t i = 0; i < layer_types->size(); ++i) {
      const std::string& kind = (*layer_types)[i];
      if (kind == "sliding_attention" || kind == "chunked_attention") {
        if (window == 0)
          throw ConfigError(fields.path_of("sliding_window"),
                            "layer_types names sliding layers but 'sliding_window' is missing");
        windows[i] = window;
      } else if (kind != "full_attention") {
        throw ConfigError(fields.path_of("layer_types"), "layer_types item " + std::to_string(i) + " is '" + kind +
                                                             "'; expected 'full_attention' or 'sliding_attention'");
      }
    }
    return windows;
  }
  if (window == 0) return windows;
  if (type == "gemma2") {
    for (std::int64_t i = 0; i < layers; i += 2)
      windows[static_cast<std::size_t>(i)] = window;  // even layers are local
  } else if (type == "gemma3_text") {
    const std::int64_t pattern = fields.optional_count("sliding_window_pattern", 1, max_layers).value_or(6);
    if (!fields.has("sliding_window_pattern"))
      model.assumptions.push_back("sliding_window_pattern absent: every 6th layer is global, as Gemma3TextConfig");
    for (std::int64_t i = 0; i < layers; ++i)
      if ((i + 1) % pattern != 0) windows[static_cast<std::size_t>(i)] = window;
  } else if (type.rfind("qwen", 0) == 0) {
    // Qwen2/3: the window applies only with use_sliding_window, to layers from max_window_layers on.
    if (fields.boolean("use_sliding_window").value_or(false)) {
      const std::int64_t first = fields.optional_count("max_window_layers", 0, max_layers).value_or(layers);
      for (std::int64_t i = first; i < layers; ++i) windows[static_cast<std::size_t>(i)] = window;
    }
  } else if (type == "mistral" || type == "mixtral" || type == "phi3" || type == "phimoe" || type == "starcoder2" ||
             type == "ministral") {
    for (auto& w : windows) w = window;
  } else {
    model.assumptions.push_back("sliding_window " + std::to_string(window) +
                                " given without layer_types: applied to every layer");
    for (auto& w : windows) w = window;
  }
  return windows;
}

void read_multi_latent_attention(const ConfigFields& fields, AttentionShape& attention) {
  attention.q_lora_rank = fields.optional_count("q_lora_rank", 1, max_hidden_size).value_or(0);
  attention.kv_lora_rank = fields.required_count("kv_lora_rank", 1, max_hidden_size);
  attention.qk_nope_head_dim = fields.required_count("qk_nope_head_dim", 1, max_hidden_size);
  attention.qk_rope_head_dim = fields.required_count("qk_rope_head_dim", 1, max_hidden_size);
  attention.value_head_dim = fields.required_count("v_head_dim", 1, max_hidden_size);
  attention.head_dim = attention.qk_nope_head_dim + attention.qk_rope_head_dim;
  attention.num_kv_heads = attention.num_heads;  // every head has its own decompressed key and value
}

void read_modern_decoder(const std::string& type, const DecoderTraits& traits, const ConfigFields& fields,
                         ModelDescription& model, bool generic = false) {
  model.hidden_size = read_hidden_size(fields);
  model.num_layers = read_layer_count(fields);
  model.vocab_size = read_vocab_size(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(0);
  model.tie_word_embeddings = read_tie(fields, traits.tie_default, model);
  model.norm = traits.norm;
  model.norm_has_weight = traits.norm_has_weight;
  model.lm_head_bias = traits.lm_head_bias;
  model.position_encoding = PositionEncoding::rotary;
  model.multi_token_prediction_layers = fields.optional_count("num_nextn_predict_layers", 0, max_layers).value_or(0);

  LayerShape base;
  base.hidden_norms = traits.hidden_norms;
  base.parallel_attention_mlp = traits.parallel;
  AttentionShape& attention = base.attention;
  attention.num_heads = read_head_count(fields);
  if (is_deepseek_mla(type)) {
    read_multi_latent_attention(fields, attention);
    if (type == "deepseek_v32") read_lightning_indexer(fields, attention, model);
  } else {
    attention.num_kv_heads = fields.optional_count("num_key_value_heads", 1, max_heads).value_or(attention.num_heads);
    if (!fields.has("num_key_value_heads"))
      model.assumptions.push_back(
          "num_key_value_heads absent: every query head has its own key/value head (MHA), as transformers does");
    attention.head_dim = read_head_dim(fields, model.hidden_size, attention.num_heads, model);
    attention.value_head_dim = attention.head_dim;
  }
  // One switch for all projection biases where the family has it (Llama attention_bias,
  // InternLM2 bias); Qwen2 hard-wires q/k/v biases.
  const auto bias_switch = read_bias_switch(fields);
  attention.qkv_bias = bias_switch.value_or(traits.qkv_bias_default);
  attention.output_bias = bias_switch.value_or(traits.output_bias_default);
  if (type.rfind("qwen2", 0) == 0) {
    attention.qkv_bias = true;
    attention.output_bias = false;
  }
  if (type == "llama4_text") attention.qkv_bias = attention.output_bias = false;  // Llama4TextConfig hard-wires it
  if (traits.qk_norm == QkNorm::per_head || (type == "cohere" && fields.boolean("use_qk_norm").value_or(false))) {
    attention.query_norm_size = type == "cohere" ? attention.num_heads * attention.head_dim : attention.head_dim;
    attention.key_norm_size = type == "cohere" ? attention.num_kv_heads * attention.head_dim : attention.head_dim;
  } else if (traits.qk_norm == QkNorm::full_width) {
    attention.query_norm_size = attention.num_heads * attention.head_dim;
    attention.key_norm_size = attention.num_kv_heads * attention.head_dim;
  }
  attention.attention_sinks = type == "gpt_oss";

  base.mlp.intermediate_size = fields.required_count("intermediate_size", 1, max_intermediate_size);
  base.mlp.gated = traits.gated;
  base.mlp.bias =
      traits.mlp_bias_follows_attention ? attention.output_bias : fields.boolean("mlp_bias").value_or(false);
  apply_recent_family_layer_rules(type, fields, base);

  const auto windows = sliding_windows(type, fields, model.num_layers, model);
  const auto moe = read_moe(type, fields, model.num_layers, base.mlp.intermediate_size, generic, model);
  if (type == "llama4_text" && moe) {
    // Llama 4's dense layers are Llama4TextMLP(config, intermediate_size=config.intermediate_size_mlp).
    bool any_dense = false;
    for (const bool sparse : moe->is_sparse) any_dense = any_dense || !sparse;
    if (any_dense) {
      base.mlp.intermediate_size =
          fields.optional_count("intermediate_size_mlp", 1, max_intermediate_size).value_or(16384);
      if (!fields.has("intermediate_size_mlp"))
        model.assumptions.push_back("intermediate_size_mlp absent: dense layers 16384 wide, as Llama4TextConfig");
    }
  }
  for (std::int64_t i = 0; i < model.num_layers; ++i) {
    LayerShape layer = base;
    layer.attention.sliding_window = windows[static_cast<std::size_t>(i)];
    if (moe && moe->is_sparse[static_cast<std::size_t>(i)]) {
      layer.moe = moe->shape;
      layer.mlp = MlpShape{};
    }
    append_layer(model, layer);
  }
}

}  // namespace

std::optional<std::vector<bool>> two_kind_layer_types(const ConfigFields& fields, std::int64_t layers,
                                                      const char* other, const char* marked) {
  const auto types = fields.string_list("layer_types");
  if (!types) return std::nullopt;
  const std::string path = fields.path_of("layer_types");
  if (static_cast<std::int64_t>(types->size()) != layers)
    throw ConfigError(path, "field '" + path + "' describes " + std::to_string(types->size()) +
                                " layers, but num_hidden_layers is " + std::to_string(layers));
  std::vector<bool> is_marked;
  for (std::size_t i = 0; i < types->size(); ++i) {
    const std::string& kind = (*types)[i];
    if (kind != other && kind != marked)
      throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " is '" + printable(kind) +
                                  "'; expected '" + other + "' or '" + marked + "'");
    is_marked.push_back(kind == marked);
  }
  return is_marked;
}

void append_layer(ModelDescription& model, const LayerShape& layer) {
  for (std::size_t kind = 0; kind < model.layer_kinds.size(); ++kind) {
    if (model.layer_kinds[kind] == layer) {
      model.layer_kind_of_layer.push_back(static_cast<std::uint16_t>(kind));
      return;
    }
  }
  model.layer_kinds.push_back(layer);
  model.layer_kind_of_layer.push_back(static_cast<std::uint16_t>(model.layer_kinds.size() - 1));
}

void read_family(const std::string& model_type, const std::string& outer_model_type, const ConfigFields& fields,
                 ModelDescription& model) {
  (void)outer_model_type;
  reject_unsupported(model_type);
  const std::string type = canonical_type(model_type);
  if (const DecoderTraits* traits = find_traits(type)) {
    read_modern_decoder(type, *traits, fields, model);
    return;
  }
  if (read_classic_family(type, fields, model)) return;
  if (is_other_family(type)) return read_other_family(type, fields, model);

  // Unknown family: read it as the most common shape today, and say so where the count shows:
  // the count is an estimate, and guessed_fields names what was guessed. Not when the config
  // describes recurrent or state-space layers: a decoder read as all attention would give those
  // layers a KV cache that grows with the context and miss their fixed state, so it is refused.
  reject_recurrent_fields(model_type, fields);
  require_generic_fields(fields);
  const std::string name = printable(model_type);
  model.assumptions.push_back(
      "model_type '" + name +
      "' is not one fitcheck knows; read as a generic Llama-style decoder: RMSNorm, two norms per "
      "layer, gated (SwiGLU) MLP, rotary positions, biases only where attention_bias/mlp_bias/bias "
      "say so");
  model.guessed_fields = {
      "model_type: unknown model_type '" + name + "', read as a generic Llama-style decoder",
      "layer layout: two RMSNorms, attention then MLP, in every layer",
      "mlp: gated (SwiGLU: gate, up and down projections)",
      "biases: only where attention_bias/mlp_bias say so",
      "other modules (vision or audio towers, adapters, extra norms) the config may describe: not counted",
  };
  read_modern_decoder("llama", *find_traits("llama"), fields, model, true);
}

std::vector<bool> qwen_sparse_layers(const ConfigFields& fields, std::int64_t layers) {
  const std::int64_t step = fields.optional_count("decoder_sparse_step", 1, max_layers).value_or(1);
  const auto dense_layers = fields.integer_list("mlp_only_layers").value_or(std::vector<std::int64_t>{});
  std::vector<bool> sparse(static_cast<std::size_t>(layers), false);
  for (std::int64_t i = 0; i < layers; ++i) {
    bool is_sparse = (i + 1) % step == 0;
    for (auto dense : dense_layers) is_sparse = is_sparse && dense != i;
    sparse[static_cast<std::size_t>(i)] = is_sparse;
  }
  return sparse;
}

std::optional<bool> read_bias_switch(const ConfigFields& fields) {
  if (auto bias = fields.boolean("attention_bias")) return bias;
  return fields.boolean("use_bias");
}

std::int64_t read_hidden_size(const ConfigFields& fields) {
  return fields.required_count("hidden_size", 1, max_hidden_size);
}
std::int64_t read_layer_count(const ConfigFields& fields) {
  return fields.required_count("num_hidden_layers", 1, max_layers);
}
std::int64_t read_head_count(const ConfigFields& fields) {
  return fields.required_count("num_attention_heads", 1, max_heads);
}
std::int64_t read_vocab_size(const ConfigFields& fields) {
  return fields.required_count("vocab_size", 1, max_vocab_size);
}

std::int64_t read_head_dim(const ConfigFields& fields, std::int64_t hidden_size, std::int64_t num_heads,
                           ModelDescription& model) {
  if (auto head_dim = fields.optional_count("head_dim", 1, max_hidden_size)) return *head_dim;
  if (hidden_size % num_heads != 0) {
    // Named as the config spells them (T5's d_model and num_heads).
    const std::string heads = fields.path_of("num_attention_heads");
    throw ConfigError(heads, fields.path_of("hidden_size") + " (" + std::to_string(hidden_size) +
                                 ") is not divisible by " + heads + " (" + std::to_string(num_heads) +
                                 ") and no head_dim is given");
  }
  (void)model;
  return hidden_size / num_heads;
}

bool read_tie(const ConfigFields& fields, bool family_default, ModelDescription& model) {
  if (auto tie = fields.boolean("tie_word_embeddings")) return *tie;
  model.assumptions.push_back(std::string("tie_word_embeddings absent: ") +
                              (family_default ? "input and output embeddings tied" : "separate lm_head") +
                              ", the default of this family's configuration class");
  return family_default;
}

}  // namespace fitcheck::detail
