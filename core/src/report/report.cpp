// SPDX-License-Identifier: MIT
#include "fitcheck/report.hpp"

#include "fitcheck/config.hpp"
#include "fitcheck/memory.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

const char* norm_name(NormKind norm) {
  switch (norm) {
    case NormKind::rms_norm:
      return "rms_norm";
    case NormKind::layer_norm:
      return "layer_norm";
    case NormKind::layer_norm_no_bias:
      return "layer_norm_no_bias";
  }
  return "unknown";
}

const char* position_name(PositionEncoding position) {
  switch (position) {
    case PositionEncoding::rotary:
      return "rotary";
    case PositionEncoding::learned_absolute:
      return "learned_absolute";
    case PositionEncoding::alibi:
      return "alibi";
    case PositionEncoding::relative_buckets:
      return "relative_buckets";
    case PositionEncoding::none:
      return "none";
  }
  return "unknown";
}

std::string attention_kind(const AttentionShape& attention) {
  if (attention.num_heads == 0) return "none";  // a hybrid's state-space or MLP-only layer
  if (attention.is_multi_latent()) return "MLA";
  if (attention.num_kv_heads == attention.num_heads) return "MHA";
  if (attention.num_kv_heads == 1) return "MQA";
  return "GQA";
}

void write_layer_kind(detail::JsonWriter& out, const LayerShape& layer) {
  const AttentionShape& a = layer.attention;
  out.begin_object();
  out.field("layer_count", layer.layer_count);
  out.begin_object("attention");
  out.field("kind", attention_kind(a));
  out.field("num_heads", a.num_heads);
  out.field("num_kv_heads", a.num_kv_heads);
  out.field("head_dim", a.head_dim);
  out.field("value_head_dim", a.value_head_dim);
  out.field("sliding_window", a.sliding_window);
  out.field("qkv_bias", a.qkv_bias);
  out.field("output_bias", a.output_bias);
  out.field("cross_attention", a.cross_attention);
  if (a.cross_attention) {  // encoder-decoder and Llama 3.2 Vision layers only
    out.field("self_attention", a.self_attention);
    out.field("cross_source_per_sequence", a.cross_source_per_sequence);
  }
  if (a.is_multi_latent()) {
    out.field("q_lora_rank", a.q_lora_rank);
    out.field("kv_lora_rank", a.kv_lora_rank);
    out.field("qk_nope_head_dim", a.qk_nope_head_dim);
    out.field("qk_rope_head_dim", a.qk_rope_head_dim);
  }
  if (a.has_indexer()) {
    out.field("index_heads", a.index_heads);
    out.field("index_head_dim", a.index_head_dim);
    out.field("index_topk", a.index_topk);
  }
  out.end_object();
  if (layer.is_moe()) {
    out.begin_object("moe");
    out.field("num_experts", layer.moe.num_experts);
    out.field("experts_per_token", layer.moe.experts_per_token);
    out.field("expert_intermediate_size", layer.moe.expert_intermediate_size);
    out.field("num_shared_experts", layer.moe.num_shared_experts);
    out.field("shared_expert_intermediate_size", layer.moe.shared_expert_intermediate_size);
  } else {
    out.begin_object("mlp");
    out.field("intermediate_size", layer.mlp.intermediate_size);
    out.field("gated", layer.mlp.gated);
    out.field("bias", layer.mlp.bias);
  }
  out.end_object();
  if (layer.is_ssm()) {
    const SsmShape& m = layer.ssm;
    out.begin_object("ssm");
    out.field("kind", m.mixer == RecurrentMixer::gated_delta_net       ? "gated_delta_net"
                      : m.mixer == RecurrentMixer::short_convolution   ? "short_convolution"
                      : m.mixer == RecurrentMixer::rg_lru              ? "rg_lru"
                      : m.mixer == RecurrentMixer::lightning_attention ? "lightning_attention"
                      : m.is_mamba1()                                  ? "mamba1"
                                                                       : "mamba2");
    out.field("num_heads", m.num_heads);
    out.field("head_dim", m.head_dim);
    out.field("state_size", m.state_size);
    out.field("groups", m.groups);
    out.field("conv_kernel", m.conv_kernel);
    if (m.is_mamba1()) out.field("time_step_rank", m.time_step_rank);
    out.end_object();
  }
  out.field("hidden_norms", layer.hidden_norms);
  out.field("parallel_attention_mlp", layer.parallel_attention_mlp);
  out.field("is_encoder", layer.is_encoder);
  // Zamba2: the attention and MLP above are a shared block's, counted once for all its uses.
  if (layer.shared_transformer) out.field("shared_transformer", true);
  out.end_object();
}

// Why a published checkpoint's tensor count can differ from total_params.
std::vector<std::string> checkpoint_notes(const ModelDescription& model, const ParameterCount& count) {
  std::vector<std::string> notes;
  if (count.multi_token_prediction > 0)
    notes.push_back(
        "the checkpoint also holds " + std::to_string(model.multi_token_prediction_layers) +
        " multi-token-prediction module(s): " + std::to_string(count.multi_token_prediction) +
        " parameters not in total_params" +
        (model.multi_token_prediction_repeats_embeddings ? " (plus copies of the shared embedding and head)" : ""));
  if (count.tied_output_head > 0)
    notes.push_back("embeddings are tied: total_params counts the " + std::to_string(count.tied_output_head) +
                    "-parameter matrix once; some checkpoints store lm_head.weight anyway, and then list " +
                    std::to_string(count.total + count.tied_output_head) + " parameters");
  if (model.vision)
    notes.push_back("the checkpoint also holds the " + model.vision->kind + " vision tower (" +
                    std::to_string(count.vision_tower) + ") and the multimodal projector (" +
                    std::to_string(count.multimodal_projector) + "): " + std::to_string(count.total_with_vision()) +
                    (model.audio ? " parameters with the language model" : " parameters in all") +
                    " (total_params_with_vision)");
  if (model.audio)
    notes.push_back("the checkpoint also holds the " + model.audio->kind + " audio tower (" +
                    std::to_string(count.audio_tower) + ") and its projector (" +
                    std::to_string(count.audio_projector) + "): " + std::to_string(count.total_with_audio()) +
                    " parameters in all (total_params_with_audio)");
  for (const auto& line : model.not_counted) notes.push_back(line);
  notes.push_back(
      "non-parameter buffers some checkpoints carry (rotary inv_freq, attention masks, fp8 scales) are not parameters");
  return notes;
}

}  // namespace

std::string parameter_report_json(const ModelDescription& model, const ParameterCount& count) {
  const WeightMemoryFigure weights = weight_bytes_at_uniform_width(count, 2);
  detail::JsonWriter out;
  out.begin_object();
  out.field("model_type", model.model_type);
  out.field("architecture", model.architecture);
  out.field("total_params", count.total);
  // false when the count rests on guesses (an unknown model_type read as a generic decoder).
  out.field("parameter_count_exact", model.parameter_count_exact());
  out.field("guessed_fields", model.guessed_fields);
  out.field("active_params_per_token", count.active_per_token);
  out.field("active_params_convention", count.active_convention);
  out.field("non_embedding_params", count.non_embedding);
  out.field("multi_token_prediction_params", count.multi_token_prediction);
  out.field("tied_output_head_params", count.tied_output_head);
  if (model.vision) {  // only multimodal models whose vision tower is counted
    out.field("vision_tower_kind", model.vision->kind);
    out.field("vision_tower_params", count.vision_tower);
    out.field("multimodal_projector_params", count.multimodal_projector);
    out.field("total_params_with_vision", count.total_with_vision());
    // At the default image size where the count follows the size (Qwen2-VL).
    out.field("image_tokens_per_image", image_tokens(*model.vision, kDefaultImageSidePixels, kDefaultImageSidePixels));
  }
  if (model.audio) {  // only multimodal models whose audio tower is counted (Gemma 3n, Phi-4-multimodal)
    out.field("audio_tower_kind", model.audio->kind);
    out.field("audio_tower_params", count.audio_tower);
    out.field("audio_projector_params", count.audio_projector);
    out.field("total_params_with_audio", count.total_with_audio());
    // Gemma 3n's fixed soft tokens; Phi-4-multimodal's follow the clip's length.
    if (model.audio->tokens_per_clip > 0) out.field("audio_tokens_per_clip", model.audio->tokens_per_clip);
  }
  out.field("checkpoint_notes", checkpoint_notes(model, count));
  out.begin_object("breakdown");
  out.field("embedding", count.breakdown.embedding);
  out.field("attention", count.breakdown.attention);
  out.field("mlp", count.breakdown.mlp);
  out.field("routed_experts", count.breakdown.routed_experts);
  out.field("shared_experts", count.breakdown.shared_experts);
  out.field("router", count.breakdown.router);
  out.field("norms", count.breakdown.norms);
  out.field("lm_head", count.breakdown.lm_head);
  if (count.breakdown.ssm > 0) out.field("ssm", count.breakdown.ssm);  // only models with state-space layers
  out.end_object();
  out.begin_object("weights_16bit");
  out.field("bytes", weights.bytes);
  out.field("bytes_per_parameter", weights.bytes_per_parameter);
  out.field("formula", weights.formula);
  out.end_object();
  out.begin_object("shape");
  out.field("hidden_size", model.hidden_size);
  out.field("num_layers", model.num_layers);
  out.field("vocab_size", model.vocab_size);
  out.field("max_position_embeddings", model.max_position_embeddings);
  out.field("tie_word_embeddings", model.tie_word_embeddings);
  out.field("norm", norm_name(model.norm));
  out.field("position_encoding", position_name(model.position_encoding));
  out.begin_array("layer_kinds");
  for (const auto& kind : model.layer_kinds) write_layer_kind(out, kind);
  out.end_array();
  out.end_object();
  out.field("assumptions", model.assumptions);
  out.field("not_counted", model.not_counted);
  out.end_object();
  return out.take();
}

std::string parameter_report_json(std::string_view config_json_text) {
  const ModelDescription model = parse_hf_config(config_json_text);
  return parameter_report_json(model, count_parameters(model));
}

}  // namespace fitcheck
