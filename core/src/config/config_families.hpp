// SPDX-License-Identifier: MIT
// Family readers: how each Hugging Face model_type spells its shapes. Internal to the core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config_fields.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck::detail {

// Upper bounds far above any published model; they keep products of shapes inside 64 bits and
// turn a typo such as an extra zero run into a clear error instead of a silly answer.
inline constexpr std::int64_t max_hidden_size = 1 << 20;
inline constexpr std::int64_t max_layers = 4096;
inline constexpr std::int64_t max_heads = 1 << 16;
inline constexpr std::int64_t max_vocab_size = 1 << 24;
inline constexpr std::int64_t max_intermediate_size = 1 << 22;
inline constexpr std::int64_t max_experts = 1 << 16;
inline constexpr std::int64_t max_positions = std::int64_t{1} << 32;

// Fills `model` from `fields` by the rules of `model_type` (lowercase). Unknown types are read as
// a generic pre-norm decoder, with every assumption listed.
void read_family(const std::string& model_type, const std::string& outer_model_type, const ConfigFields& fields,
                 ModelDescription& model);

// The families of the GPT-2 / NeoX / Falcon / OPT / BLOOM / MPT / Phi / T5 era (config_classic.cpp).
// Each returns false when `model_type` is not one of its own.
bool read_classic_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model);
// config_whisper.cpp: Whisper's audio encoder stem, encoder and decoder stacks.
void read_whisper(const ConfigFields& fields, ModelDescription& model);
// config_mllama.cpp: Llama 3.2 Vision's language model (mllama_text_model, or mllama without a text_config
// model_type): self-attention layers and the cross-attention layers cross_attention_layers lists.
void read_mllama_text(const ConfigFields& fields, ModelDescription& model);

// Appends one layer, reusing an identical existing kind.
void append_layer(ModelDescription& model, const LayerShape& layer);

// A layer_types list of a hybrid's two layer kinds: true for each `marked` layer, false for each
// `other` one; nullopt when the config has none. Any other kind or a list of the wrong length is
// refused, naming the field.
std::optional<std::vector<bool>> two_kind_layer_types(const ConfigFields& fields, std::int64_t layers,
                                                      const char* other, const char* marked);

// config_refusals.cpp: a ConfigError (field named) for a family whose layers are not modelled, for an
// unknown model_type with state-space or linear-attention fields, and for an unknown model_type
// without the fields a generic decoder needs.
void reject_unsupported(const std::string& type);
void reject_recurrent_fields(const std::string& type, const ConfigFields& fields);
void require_generic_fields(const ConfigFields& fields);

// State-space models and hybrids (config_hybrid.cpp and the readers it names): Mamba, Falcon-Mamba, Mamba-2, Jamba,
// Nemotron-H, Bamba, Granite-4.0-H, Qwen3-Next, LFM2.
// False when `model_type` is not one of them.
bool read_hybrid_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model);
// config_recurrent_gemma.cpp: RecurrentGemma's RG-LRU and local-attention blocks.
void read_recurrent_gemma(const ConfigFields& fields, ModelDescription& model);
// config_minimax.cpp: MiniMax-Text-01 and MiniMax-M1 (minimax, minimax_m1, minimax_text_01).
void read_minimax(const std::string& type, const ConfigFields& fields, ModelDescription& model);

// DeciLM / Llama-Nemotron (config_nemotron_nas.cpp): per-layer block_configs. False for other types.
bool read_nas_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model);

// Gemma 3n's language model (config_gemma3n.cpp). False when `model_type` is not gemma3n(_text).
bool read_gemma3n_family(const std::string& model_type, const ConfigFields& fields, ModelDescription& model);

// config_families_2025.cpp: OLMo 3, EXAONE 4.0 and Cohere 2's sliding layers when layer_types is
// absent (nothing for other families, or when layer_types is written); Seed-OSS, EXAONE 4.0, OLMo 3
// and GLM-4.5's projection biases and q/k norms, applied to the layer the table's traits describe;
// GLM-4.5's MoE layers (dense first_k_dense_replace layers, shared experts, correction bias).
std::optional<std::vector<std::int64_t>> recent_family_windows(const std::string& type, const ConfigFields& fields,
                                                               std::int64_t layers, ModelDescription& model);
void apply_recent_family_layer_rules(const std::string& type, const ConfigFields& fields, LayerShape& layer);
// DeepSeek-V3.2's lightning indexer (index_n_heads, index_head_dim, index_topk), added to its MLA.
void read_lightning_indexer(const ConfigFields& fields, AttentionShape& attention, ModelDescription& model);
// ERNIE 4.5 MoE's layers (moe_layer_start_index..end, every moe_layer_interval-th), shared experts,
// expert and lm_head biases with use_bias; its MTP weights are not counted.
void read_ernie4_5_moe_layers(const ConfigFields& fields, std::int64_t layers, MoeShape& moe,
                              std::vector<bool>& is_sparse, ModelDescription& model);
// HunYuan MoE: experts and the one shared MLP all of intermediate_size, every layer.
void read_hunyuan_moe_layers(std::int64_t intermediate_size, MoeShape& moe);
void read_glm4_moe_layers(const ConfigFields& fields, std::int64_t layers, MoeShape& moe, std::vector<bool>& is_sparse);

// Shared readers.
// Qwen2-MoE, Qwen3-MoE and Qwen3-Next: a layer holds routed experts when (i + 1) is a multiple of
// decoder_sparse_step (default 1) and i is not in mlp_only_layers.
std::vector<bool> qwen_sparse_layers(const ConfigFields& fields, std::int64_t layers);
// The one bias switch of a family: attention_bias (or bias), else use_bias.
std::optional<bool> read_bias_switch(const ConfigFields& fields);
std::int64_t read_hidden_size(const ConfigFields& fields);
std::int64_t read_layer_count(const ConfigFields& fields);
std::int64_t read_head_count(const ConfigFields& fields);
std::int64_t read_vocab_size(const ConfigFields& fields);
// head_dim if given, else hidden / heads (which must divide).
std::int64_t read_head_dim(const ConfigFields& fields, std::int64_t hidden_size, std::int64_t num_heads,
                           ModelDescription& model);
// tie_word_embeddings, or the family default (reported as an assumption when absent).
bool read_tie(const ConfigFields& fields, bool family_default, ModelDescription& model);

}  // namespace fitcheck::detail
