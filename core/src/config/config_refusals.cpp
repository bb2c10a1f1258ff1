// SPDX-License-Identifier: MIT
// What the core refuses before it reads a family: families whose layers it does not model, an
// unknown model_type whose config describes such layers, and an unknown one without the fields a
// generic decoder needs. A clear no, naming the field, rather than a wrong number.
#include <string>

#include "config/config_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {

// Families whose shapes fitcheck cannot describe yet: a clear no rather than a wrong number.
void reject_unsupported(const std::string& type) {
  struct Unsupported {
    const char* type;
    const char* why;
  };
  static const Unsupported table[] = {
      {"zamba", "its Mamba layers and shared attention blocks are not modelled"},
      {"plamo2", "its Mamba layers are not modelled"},
      {"kimi_linear", "its Kimi Delta Attention (linear attention) layers are not modelled"},
      {"xlstm", "xLSTM layers are not modelled"},
      {"rwkv", "RWKV layers are not modelled"},
      {"rwkv5", "RWKV layers are not modelled"},
      {"rwkv6", "RWKV layers are not modelled"},
      {"rwkv7", "RWKV layers are not modelled"},
  };
  for (const auto& entry : table)
    if (type == entry.type)
      throw ConfigError("model_type",
                        std::string("model_type '") + entry.type + "' is not supported yet: " + entry.why);
}

// Fields that only state-space, linear-attention or recurrent layers have (the names the hybrid
// families' configuration classes in transformers use: Mamba's state_size and ssm_state_size,
// Zamba/Falcon-H1's mamba_* fields, Qwen3-Next's linear_* heads, LFM2's conv_L_cache), and
// layer lists that name such layers.
void reject_recurrent_fields(const std::string& type, const ConfigFields& fields) {
  static const Field recurrent[] = {"state_size",           "ssm_state_size",         "mamba_d_state",
                                    "mamba_d_conv",         "mamba_expand",           "mamba_n_heads",
                                    "linear_num_key_heads", "linear_num_value_heads", "conv_L_cache",
                                    "attn_layer_period",    "layers_block_type",      "hybrid_override_pattern"};
  const auto refuse = [&](const std::string& path, const std::string& what) {
    throw ConfigError(path, "unknown model_type '" + printable(type) + "' with " + what +
                                ": its recurrent or state-space layers are not modelled, and reading it as an "
                                "all-attention decoder would be wrong");
  };
  for (const Field field : recurrent)
    if (fields.has(field)) refuse(fields.path_of(field), "field '" + fields.path_of(field) + "'");
  if (auto layer_types = fields.string_list("layer_types")) {
    for (const std::string& kind : *layer_types) {
      if (kind == "full_attention" || kind == "sliding_attention" || kind == "chunked_attention") continue;
      refuse(fields.path_of("layer_types"), "layer type '" + printable(kind) + "' in 'layer_types'");
    }
  }
}

// The fields read_modern_decoder requires, checked together so that one message names them all.
void require_generic_fields(const ConfigFields& fields) {
  const Field needs[] = {"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"};
  std::string missing;
  std::string first;
  for (const Field need : needs) {
    if (!fields.has(need)) {
      if (first.empty()) first = fields.path_of(need);
      if (!missing.empty()) missing.append(", ");
      missing.append(1, '\'').append(fields.path_of(need)).append(1, '\'');
    }
  }
  if (!missing.empty())
    throw ConfigError(first, "unknown model_type and required fields missing: " + missing +
                                 "; fitcheck cannot estimate a decoder without them");
}

}  // namespace fitcheck::detail
