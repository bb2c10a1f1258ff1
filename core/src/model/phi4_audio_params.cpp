// SPDX-License-Identifier: MIT
// Phi-4-multimodal's audio encoder and its projectors, as huggingface/transformers@00d4b3d2142c
// src/transformers/models/phi4_multimodal/modeling_phi4_multimodal.py builds them. Every Linear and
// convolution there has a bias; every LayerNorm has a weight and a bias.
#include "model/phi4_audio_params.hpp"

#include "model/vision_params.hpp"

namespace fitcheck::detail {
namespace {

std::int64_t linear(std::int64_t in, std::int64_t out) { return in * out + out; }

// Phi4MultimodalAudioNemoConvSubsampling, with C = nemo_conv_channels and n = log2(time_reduction):
// Conv2d(1, C, 3), then n - 1 times a depthwise Conv2d(C, C, 3, groups=C) and a pointwise Conv2d(C, C, 1);
// out Linear(C x nemo_final_size, hidden), nemo_final_size being input_size halved n times
// (floor((length - 1) / 2 + 1), Phi4MultimodalAudioConfig).
std::int64_t subsampling_params(const AudioTower& a) {
  const std::int64_t channels = a.subsample_channels.front();
  std::int64_t params = 9 * channels + channels, frequencies = a.input_features;
  for (std::int64_t factor = a.time_reduction; factor > 1; factor /= 2) {
    if (factor < a.time_reduction) params += 9 * channels + channels + linear(channels, channels);
    frequencies = (frequencies - 1) / 2 + 1;
  }
  return params + linear(channels * frequencies, a.hidden_size);
}

// Phi4MultimodalAudioConformerEncoderLayer, with h = hidden, m = depthwise_multiplier:
//   feed_forward_in and feed_forward_out (Phi4MultimodalAudioMLP): layer_norm (2h), gate_up_proj
//   Linear(h, 2 x intermediate), down_proj Linear(intermediate, h);
//   self_attn (Phi4MultimodalAudioAttention): q/k/v/o_proj Linear(h, h) (heads x head_dim = h);
//   conv (Phi4MultimodalAudioConvModule): layer_norm (2h); glu: ext_pw_conv_1d Conv1d(h, 2h, 1) and b1,
//   b2 (h each); dw_sep_conv_1d: dw_conv Conv1d(h, h m, kernel, groups=h), pw_conv Conv1d(h m, h, 1);
//   ext_pw_conv_1d Conv1d(h, h, 1) (the reader holds ext_pw_out_channel and
//   depthwise_separable_out_channel to h);
//   layer_norm_att and layer_norm (2h each).
std::int64_t encoder_layer_params(const AudioTower& a) {
  const std::int64_t h = a.hidden_size, m = a.depthwise_multiplier;
  const std::int64_t feed_forward = 2 * h + linear(h, 2 * a.intermediate_size) + linear(a.intermediate_size, h);
  const std::int64_t attention = 4 * linear(h, h);
  const std::int64_t conv =
      2 * h + linear(h, 2 * h) + 2 * h + (h * m * a.conv_kernel_size + h * m) + linear(h * m, h) + linear(h, h);
  return 2 * feed_forward + attention + conv + 4 * h;
}

}  // namespace

// Phi4MultimodalAudioModel: encoder_embedding holds buffers only (global_mean, global_invstd), then embed,
// relative_attention_bias_layer (bias_values Embedding(buckets, heads)) and num_blocks encoder layers.
// Phi4MultimodalAudioEmbedding: two projector pairs, up Linear(hidden x downsample_rate, text hidden)
// and down Linear(text hidden, text hidden), one for speech and one for vision-speech.
void count_phi4_multimodal_audio(const AudioTower& a, ParameterCount& count) {
  // Bounded by the config reader (widths <= 2^16, intermediate <= 2^20, layers <= 1024): below 2^52.
  count.audio_tower =
      checked_add(subsampling_params(a) + a.relative_bias_buckets * a.heads, encoder_layer_params(a) * a.layers);
  count.audio_projector =
      2 * (linear(a.projector_input, a.projector_output) + linear(a.projector_output, a.projector_output));
}

}  // namespace fitcheck::detail
