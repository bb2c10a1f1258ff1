// SPDX-License-Identifier: MIT
// Gemma 3n's audio encoder and the multimodal embedders, as huggingface/transformers@00aa0f5dc1cc
// src/transformers/models/gemma3n/modeling_gemma3n.py builds them. Every Linear and convolution of
// the encoder has no bias; Gemma3nRMSNorm and Gemma3nAudioCumulativeGroupNorm have one weight of
// their width.
#include "model/gemma3n_towers_params.hpp"
#include "model/vision_params.hpp"

namespace fitcheck::detail {
namespace {

// Gemma3nAudioSubSampleConvProjection: two Gemma3nAudioSSCPConvBlocks (Conv2d from 1, then from the
// previous block's channels, over (time, frequency) kernels; a cumulative group norm of the output
// channels), the frequency axis padded by 1 on each side before each convolution, then
// input_proj_linear Linear(last channels x last frequency width, hidden).
std::int64_t subsample_params(const AudioTower& a) {
  std::int64_t params = 0, in_channels = 1, frequencies = a.input_features;
  for (std::size_t i = 0; i < a.subsample_channels.size(); ++i) {
    const std::int64_t out_channels = a.subsample_channels[i];
    const auto [kernel_time, kernel_frequency] = a.subsample_kernels[i];
    params += in_channels * out_channels * kernel_time * kernel_frequency + out_channels;
    frequencies = (frequencies + 2 - kernel_frequency) / a.subsample_strides[i].second + 1;
    in_channels = out_channels;
  }
  return params + in_channels * frequencies * a.hidden_size;
}

// Gemma3nAudioConformerBlock, with h = hidden and head_dim = h / heads:
//   ffw_layer_start and ffw_layer_end (Gemma3nAudioConformerFeedForward): pre and post norms (h each),
//   ffw_layer_1 Linear(h, 4h) and ffw_layer_2 Linear(4h, h);
//   attention (Gemma3nAudioConformerAttention): pre_attn_norm and post_norm (h each), post Linear(h, h),
//   and Gemma3nAudioAttention's q/k/v_proj Linear(h, h), per_dim_scale (head_dim) and the relative
//   position embedding's pos_proj Linear(h, h);
//   lconv1d (Gemma3nAudioConformerLightConv1d): pre_layer_norm and conv_norm (h each), linear_start
//   Linear(h, 2h), depthwise_conv1d (h x conf_conv_kernel_size), linear_end Linear(h, h);
//   norm (h).
std::int64_t conformer_block_params(const AudioTower& a) {
  const std::int64_t h = a.hidden_size;
  const std::int64_t feed_forward = 2 * h + 2 * h * 4 * h;
  const std::int64_t attention = 2 * h + 5 * h * h + h / a.heads;
  const std::int64_t light_conv = 2 * h + h * 2 * h + h * a.conv_kernel_size + h * h;
  return 2 * feed_forward + attention + light_conv + h;
}

}  // namespace

std::int64_t gemma3n_embedder_params(std::int64_t vocab, std::int64_t width, std::int64_t text_hidden) {
  return vocab * width + 2 * width + width * text_hidden;
}

// Gemma3nAudioEncoder: subsample_conv_projection, then conf_num_hidden_layers conformer blocks.
void count_gemma3n_audio(const AudioTower& a, ParameterCount& count) {
  // Bounded by the config reader (hidden <= 2^16, layers <= 1024): below 2^47.
  count.audio_tower = checked_add(subsample_params(a), conformer_block_params(a) * a.layers);
  count.audio_projector = gemma3n_embedder_params(a.embedder_vocab, a.hidden_size, a.projector_output);
}

}  // namespace fitcheck::detail
