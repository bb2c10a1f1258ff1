// SPDX-License-Identifier: MIT
// Phi-4-multimodal's audio tower as Phi4MultimodalAudioConfig reads it (huggingface/transformers@00d4b3d2142c
// src/transformers/models/phi4_multimodal/configuration_phi4_multimodal.py), each field absent taking the
// class's default, reported as an assumption; the shapes are those modeling_phi4_multimodal.py builds.
#include "config/config_phi4_audio.hpp"

#include <string>

#include "config/config_gemma3n_towers.hpp"
#include "config/config_hybrid.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

constexpr std::int64_t max_width = 1 << 16;
constexpr const char* config_class = "Phi4MultimodalAudioConfig";

[[noreturn]] void refuse(const ConfigFields& audio, Field field, const std::string& why) {
  throw ConfigError(audio.path_of(field), "field '" + audio.path_of(field) + "' " + why);
}

// Phi4MultimodalAudioConvModule feeds the GLU's ext_pw_out_channel outputs to the depthwise convolution
// (built over hidden_size channels), the pointwise convolution's depthwise_separable_out_channel outputs
// to ext_pw_conv_1d (built over hidden_size), and adds ext_pw_conv_1d's ext_pw_out_channel outputs to the
// residual stream: both widths must be hidden_size for the module to run.
void check_conv_module_widths(const ConfigFields& audio, const AudioTower& a, ModelDescription& model) {
  for (const Field field :
       {Field("audio_config.ext_pw_out_channel"), Field("audio_config.depthwise_separable_out_channel")}) {
    const std::int64_t width = count_or_default(audio, field, max_width, 1024, config_class, model);
    if (width != a.hidden_size)
      refuse(audio, field,
             "is " + std::to_string(width) +
                 ", but Phi4MultimodalAudioConvModule passes it where audio_config."
                 "hidden_size (" +
                 std::to_string(a.hidden_size) + ") channels are expected");
  }
}

}  // namespace

// Phi4MultimodalAudioEmbedding: encoder = Phi4MultimodalAudioModel(audio_config), then the speech and
// the vision-speech projector pairs (up_proj_for_speech / down_proj_for_speech and their
// _for_vision_speech twins).
AudioTower read_phi4_multimodal_audio(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields audio = *root.object("audio_config");
  const std::string type = audio.string("audio_config.model_type").value_or("phi4_multimodal_audio");
  if (type != "phi4_multimodal_audio")
    refuse(audio, "audio_config.model_type",
           "is '" + printable(type) + "'; Phi-4-multimodal's audio tower is a 'phi4_multimodal_audio'");
  AudioTower a;
  a.kind = "phi4_multimodal_conformer";
  a.hidden_size = count_or_default(audio, "audio_config.hidden_size", max_width, 1024, config_class, model);
  a.intermediate_size = count_or_default(audio, "audio_config.intermediate_size", 1 << 20, 1536, config_class, model);
  a.layers = count_or_default(audio, "audio_config.num_blocks", 1024, 24, config_class, model);
  a.heads = count_or_default(audio, "audio_config.num_attention_heads", max_width, 16, config_class, model);
  if (a.hidden_size % a.heads != 0)
    refuse(audio, "audio_config.num_attention_heads",
           "(" + std::to_string(a.heads) + ") does not divide audio_config.hidden_size (" +
               std::to_string(a.hidden_size) + "); fitcheck does not count such a Phi-4-multimodal audio tower");
  a.conv_kernel_size = count_or_default(audio, "audio_config.kernel_size", 1024, 3, config_class, model);
  a.depthwise_multiplier = count_or_default(audio, "audio_config.depthwise_multiplier", 64, 1, config_class, model);
  check_conv_module_widths(audio, a, model);
  a.input_features = count_or_default(audio, "audio_config.input_size", max_width, 80, config_class, model);
  a.time_reduction = count_or_default(audio, "audio_config.time_reduction", 1 << 10, 8, config_class, model);
  // Phi4MultimodalAudioNemoConvSubsampling builds log2(time_reduction) stride-2 convolutions; the
  // configuration class refuses an odd time_reduction, fitcheck any that is not a power of two.
  if (a.time_reduction < 2 || (a.time_reduction & (a.time_reduction - 1)) != 0)
    refuse(audio, "audio_config.time_reduction",
           "is " + std::to_string(a.time_reduction) +
               "; the NeMo subsampling halves time log2(time_reduction) "
               "times, so fitcheck counts a power of two of at least 2");
  a.subsample_channels = {
      count_or_default(audio, "audio_config.nemo_conv_channels", max_width, 1024, config_class, model)};
  const std::int64_t max_distance =
      count_or_default(audio, "audio_config.bias_max_distance", 1 << 20, 1000, config_class, model);
  const bool symmetric = boolean_or_class_default(audio, "audio_config.bias_symmetric", false, config_class, model);
  a.relative_bias_buckets = symmetric ? max_distance : 2 * max_distance;  // Phi4MultimodalAudioRelativeAttentionBias
  a.projector_input =
      a.hidden_size * count_or_default(audio, "audio_config.downsample_rate", 64, 1, config_class, model);
  a.projector_output = model.hidden_size;
  model.assumptions.push_back(
      "the audio tower and its projectors are counted (total_params_with_audio), their weights are in the inference "
      "memory (unquantized, with the language model); time and training estimates cover the language model: the "
      "tower's compute and audio tokens (one per time_reduction feature frames) are not included");
  return a;
}

}  // namespace fitcheck::detail
