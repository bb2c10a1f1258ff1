// SPDX-License-Identifier: MIT
#include "fitcheck/report.hpp"

#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/memory.hpp"

namespace fitcheck {
namespace {

using Json = nlohmann::ordered_json;

const char* norm_name(NormKind norm) {
  switch (norm) {
    case NormKind::rms_norm: return "rms_norm";
    case NormKind::layer_norm: return "layer_norm";
    case NormKind::layer_norm_no_bias: return "layer_norm_no_bias";
  }
  return "unknown";
}

const char* position_name(PositionEncoding position) {
  switch (position) {
    case PositionEncoding::rotary: return "rotary";
    case PositionEncoding::learned_absolute: return "learned_absolute";
    case PositionEncoding::alibi: return "alibi";
    case PositionEncoding::relative_buckets: return "relative_buckets";
    case PositionEncoding::none: return "none";
  }
  return "unknown";
}

std::string attention_kind(const AttentionShape& attention) {
  if (attention.is_multi_latent()) return "MLA";
  if (attention.num_kv_heads == attention.num_heads) return "MHA";
  if (attention.num_kv_heads == 1) return "MQA";
  return "GQA";
}

Json layer_kind_json(const LayerShape& layer) {
  const AttentionShape& a = layer.attention;
  Json attention = {{"kind", attention_kind(a)},
                    {"num_heads", a.num_heads},
                    {"num_kv_heads", a.num_kv_heads},
                    {"head_dim", a.head_dim},
                    {"value_head_dim", a.value_head_dim},
                    {"sliding_window", a.sliding_window},
                    {"qkv_bias", a.qkv_bias},
                    {"output_bias", a.output_bias},
                    {"cross_attention", a.cross_attention}};
  if (a.is_multi_latent()) {
    attention["q_lora_rank"] = a.q_lora_rank;
    attention["kv_lora_rank"] = a.kv_lora_rank;
    attention["qk_nope_head_dim"] = a.qk_nope_head_dim;
    attention["qk_rope_head_dim"] = a.qk_rope_head_dim;
  }
  Json kind = {{"layer_count", layer.layer_count}, {"attention", attention}};
  if (layer.is_moe()) {
    kind["moe"] = {{"num_experts", layer.moe.num_experts},
                   {"experts_per_token", layer.moe.experts_per_token},
                   {"expert_intermediate_size", layer.moe.expert_intermediate_size},
                   {"num_shared_experts", layer.moe.num_shared_experts},
                   {"shared_expert_intermediate_size", layer.moe.shared_expert_intermediate_size}};
  } else {
    kind["mlp"] = {{"intermediate_size", layer.mlp.intermediate_size}, {"gated", layer.mlp.gated}, {"bias", layer.mlp.bias}};
  }
  kind["hidden_norms"] = layer.hidden_norms;
  kind["parallel_attention_mlp"] = layer.parallel_attention_mlp;
  kind["is_encoder"] = layer.is_encoder;
  return kind;
}

// Why a published checkpoint's tensor count can differ from total_params.
std::vector<std::string> checkpoint_notes(const ModelDescription& model, const ParameterCount& count) {
  std::vector<std::string> notes;
  if (count.multi_token_prediction > 0)
    notes.push_back("the checkpoint also holds " + std::to_string(model.multi_token_prediction_layers) +
                    " multi-token-prediction module(s): " + std::to_string(count.multi_token_prediction) +
                    " parameters not in total_params (plus copies of the shared embedding and head)");
  if (count.tied_output_head > 0)
    notes.push_back("embeddings are tied: total_params counts the " + std::to_string(count.tied_output_head) +
                    "-parameter matrix once; some checkpoints store lm_head.weight anyway, and then list " +
                    std::to_string(count.total + count.tied_output_head) + " parameters");
  for (const auto& line : model.not_counted) notes.push_back(line);
  notes.push_back("non-parameter buffers some checkpoints carry (rotary inv_freq, attention masks, fp8 scales) are not parameters");
  return notes;
}

}  // namespace

std::string parameter_report_json(const ModelDescription& model, const ParameterCount& count) {
  Json breakdown = {{"embedding", count.breakdown.embedding},
                    {"attention", count.breakdown.attention},
                    {"mlp", count.breakdown.mlp},
                    {"routed_experts", count.breakdown.routed_experts},
                    {"shared_experts", count.breakdown.shared_experts},
                    {"router", count.breakdown.router},
                    {"norms", count.breakdown.norms},
                    {"lm_head", count.breakdown.lm_head}};
  Json layer_kinds = Json::array();
  for (const auto& kind : model.layer_kinds) layer_kinds.push_back(layer_kind_json(kind));
  const WeightMemoryFigure weights = weight_bytes_at_uniform_width(count, 2);
  Json report = {
      {"model_type", model.model_type},
      {"architecture", model.architecture},
      {"total_params", count.total},
      {"active_params_per_token", count.active_per_token},
      {"active_params_convention", count.active_convention},
      {"non_embedding_params", count.non_embedding},
      {"multi_token_prediction_params", count.multi_token_prediction},
      {"tied_output_head_params", count.tied_output_head},
      {"checkpoint_notes", checkpoint_notes(model, count)},
      {"breakdown", breakdown},
      {"weights_16bit", {{"bytes", weights.bytes}, {"bytes_per_parameter", weights.bytes_per_parameter},
                         {"formula", weights.formula}}},
      {"shape",
       {{"hidden_size", model.hidden_size},
        {"num_layers", model.num_layers},
        {"vocab_size", model.vocab_size},
        {"max_position_embeddings", model.max_position_embeddings},
        {"tie_word_embeddings", model.tie_word_embeddings},
        {"norm", norm_name(model.norm)},
        {"position_encoding", position_name(model.position_encoding)},
        {"layer_kinds", layer_kinds}}},
      {"assumptions", model.assumptions},
      {"not_counted", model.not_counted},
  };
  return report.dump();
}

std::string parameter_report_json(std::string_view config_json_text) {
  const ModelDescription model = parse_hf_config(config_json_text);
  return parameter_report_json(model, count_parameters(model));
}

}  // namespace fitcheck
