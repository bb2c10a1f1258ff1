// SPDX-License-Identifier: MIT
// Gemma 3n's towers as Gemma3nConfig reads them (huggingface/transformers@00aa0f5dc1cc
// src/transformers/models/gemma3n/configuration_gemma3n.py: Gemma3nVisionConfig, Gemma3nAudioConfig),
// each field absent taking its configuration class's default, reported as an assumption.
#include "config/config_gemma3n_towers.hpp"

#include <utility>
#include <vector>

#include "fitcheck/config.hpp"

namespace fitcheck::detail {

std::int64_t count_or_default(const ConfigFields& fields, Field field, std::int64_t maximum, std::int64_t fallback,
                              const char* config_class, ModelDescription& model) {
  if (const auto value = fields.optional_count(field, 1, maximum)) return *value;
  model.assumptions.push_back(fields.path_of(field) + " absent: " + std::to_string(fallback) + ", as " + config_class);
  return fallback;
}

namespace {

using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;

constexpr std::int64_t max_width = 1 << 16;

void require_model_type(const ConfigFields& fields, Field field, const std::string& expected) {
  const std::string type = fields.string(field).value_or(expected);
  if (type != expected)
    throw ConfigError(fields.path_of(field), "field '" + fields.path_of(field) + "' is '" + printable(type) +
                                                 "'; Gemma 3n's tower here is a '" + expected + "'");
}

// The two convolutions of Gemma3nAudioSubSampleConvProjection (it builds exactly two): one list entry
// each, every size at least 1, and a frequency axis (padded by 1 on each side) the kernels fit.
void check_subsample(const ConfigFields& audio, const AudioTower& a) {
  const auto refuse = [&](Field field, const std::string& why) {
    throw ConfigError(audio.path_of(field), "field '" + audio.path_of(field) + "' " + why);
  };
  if (a.subsample_channels.size() != 2) refuse("audio_config.sscp_conv_channel_size", "must list 2 channel counts");
  if (a.subsample_kernels.size() != 2)
    refuse("audio_config.sscp_conv_kernel_size", "must list 2 [time, frequency] kernels");
  if (a.subsample_strides.size() != 2)
    refuse("audio_config.sscp_conv_stride_size", "must list 2 [time, frequency] strides");
  std::int64_t frequencies = a.input_features;
  for (std::size_t i = 0; i < 2; ++i) {
    if (a.subsample_channels[i] < 1 || a.subsample_channels[i] > max_width)
      refuse("audio_config.sscp_conv_channel_size", "item " + std::to_string(i) + " must be between 1 and 65536");
    const auto [kernel_time, kernel_frequency] = a.subsample_kernels[i];
    if (kernel_time < 1 || kernel_frequency < 1 || kernel_time > 64 || kernel_frequency > frequencies + 2)
      refuse("audio_config.sscp_conv_kernel_size",
             "item " + std::to_string(i) + " must be between 1 and 64 in time and fit the " +
                 std::to_string(frequencies) + " frequency bins (padded by 2) in frequency");
    if (a.subsample_strides[i].first < 1 || a.subsample_strides[i].second < 1)
      refuse("audio_config.sscp_conv_stride_size", "item " + std::to_string(i) + " must be at least 1 on both axes");
    frequencies = (frequencies + 2 - kernel_frequency) / a.subsample_strides[i].second + 1;
  }
}

}  // namespace

// Gemma3nModel: vision_tower = AutoModel.from_config(vision_config), a TimmWrapperModel that builds
// timm.create_model(architecture, **model_args); embed_vision = Gemma3nMultimodalEmbedder. fitcheck
// counts the one architecture whose block list it holds (model/mobilenetv5_params.cpp).
VisionTower read_gemma3n_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  require_model_type(vision, "vision_config.model_type", "gemma3n_vision");
  const std::string architecture = vision.string("vision_config.architecture").value_or("mobilenetv5_300m_enc");
  if (!vision.has("vision_config.architecture"))
    model.assumptions.push_back("vision_config.architecture absent: 'mobilenetv5_300m_enc', as Gemma3nVisionConfig");
  if (architecture != "mobilenetv5_300m_enc")
    throw ConfigError(vision.path_of("vision_config.architecture"),
                      "field '" + vision.path_of("vision_config.architecture") + "' is '" + printable(architecture) +
                          "'; fitcheck counts timm's 'mobilenetv5_300m_enc' only, the vision tower of the "
                          "published Gemma 3n checkpoints");
  if (vision.has("vision_config.model_args"))
    throw ConfigError(vision.path_of("vision_config.model_args"),
                      "field '" + vision.path_of("vision_config.model_args") +
                          "' passes keyword arguments to timm.create_model, which can change the tower; fitcheck "
                          "counts mobilenetv5_300m_enc as timm defines it");
  VisionTower v;
  v.kind = "mobilenetv5";
  // MobileNetV5Encoder's fusion adapter always gives 2048 channels (num_features), which embed_vision
  // reads as vision_config.hidden_size wide.
  v.hidden_size = count_or_default(vision, "vision_config.hidden_size", max_width, 2048, "Gemma3nVisionConfig", model);
  if (v.hidden_size != 2048)
    throw ConfigError(vision.path_of("vision_config.hidden_size"),
                      "field '" + vision.path_of("vision_config.hidden_size") + "' is " +
                          std::to_string(v.hidden_size) +
                          ", but mobilenetv5_300m_enc's features are 2048 wide (MobileNetV5Encoder.num_features)");
  v.embedder_vocab = count_or_default(vision, "vision_config.vocab_size", 1 << 20, 128, "Gemma3nVisionConfig", model);
  v.projector_output = model.hidden_size;
  v.tokens_per_image = count_or_default(root, "vision_soft_tokens_per_image", 1 << 20, 256, "Gemma3nConfig", model);
  model.assumptions.push_back(
      "the vision tower and its embedder are counted (total_params_with_vision), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute is not included (image tokens enter inference "
      "with the images option)");
  return v;
}

// Gemma3nModel: audio_tower = Gemma3nAudioEncoder(audio_config); embed_audio = Gemma3nMultimodalEmbedder.
AudioTower read_gemma3n_audio(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields audio = *root.object("audio_config");
  require_model_type(audio, "audio_config.model_type", "gemma3n_audio");
  const char* config_class = "Gemma3nAudioConfig";
  AudioTower a;
  a.kind = "gemma3n_usm";
  a.hidden_size = count_or_default(audio, "audio_config.hidden_size", max_width, 1536, config_class, model);
  a.layers = count_or_default(audio, "audio_config.conf_num_hidden_layers", 1024, 12, config_class, model);
  a.heads = count_or_default(audio, "audio_config.conf_num_attention_heads", max_width, 8, config_class, model);
  if (a.hidden_size % a.heads != 0)
    throw ConfigError(audio.path_of("audio_config.conf_num_attention_heads"),
                      "audio_config.hidden_size (" + std::to_string(a.hidden_size) +
                          ") is not a multiple of audio_config.conf_num_attention_heads (" + std::to_string(a.heads) +
                          "); fitcheck does not count such a Gemma 3n audio tower");
  a.input_features = count_or_default(audio, "audio_config.input_feat_size", max_width, 128, config_class, model);
  a.conv_kernel_size = count_or_default(audio, "audio_config.conf_conv_kernel_size", 1024, 5, config_class, model);
  const auto list_or_default = [&](Field field, auto read, auto fallback, const char* shown) {
    if (auto value = (audio.*read)(field)) return *value;
    model.assumptions.push_back(audio.path_of(field) + " absent: " + shown + ", as " + config_class);
    return fallback;
  };
  a.subsample_channels = list_or_default("audio_config.sscp_conv_channel_size", &ConfigFields::integer_list,
                                         std::vector<std::int64_t>{128, 32}, "[128, 32]");
  a.subsample_kernels = list_or_default("audio_config.sscp_conv_kernel_size", &ConfigFields::integer_pair_list,
                                        Pairs{{3, 3}, {3, 3}}, "[[3, 3], [3, 3]]");
  a.subsample_strides = list_or_default("audio_config.sscp_conv_stride_size", &ConfigFields::integer_pair_list,
                                        Pairs{{2, 2}, {2, 2}}, "[[2, 2], [2, 2]]");
  check_subsample(audio, a);
  a.embedder_vocab = count_or_default(audio, "audio_config.vocab_size", 1 << 20, 128, config_class, model);
  a.projector_output = model.hidden_size;
  a.tokens_per_clip = count_or_default(root, "audio_soft_tokens_per_image", 1 << 20, 188, "Gemma3nConfig", model);
  model.assumptions.push_back(
      "the audio tower and its embedder are counted (total_params_with_audio), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute and audio tokens are not included");
  return a;
}

}  // namespace fitcheck::detail
