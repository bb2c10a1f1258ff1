// SPDX-License-Identifier: MIT
// The tensors of the fixed-state mixers (params_recurrent.hpp): Mamba-1 and Mamba-2, Gated DeltaNet,
// LFM2's short convolution, Griffin's RG-LRU and MiniMax's lightning attention, each as its
// transformers modeling file builds it.
#include "model/params_recurrent.hpp"

namespace fitcheck::detail {
namespace {

// Mamba-1 mixer: huggingface/transformers@1160c0f31870 src/transformers/models/mamba/modeling_mamba.py
// MambaMixer (and FalconMambaMixer, whose B/C/dt RMS weights are non-persistent buffers, not
// parameters): in_proj hidden -> 2 x inner (x and gate z), conv1d depthwise over inner, x_proj inner
// -> time_step_rank + 2 x state (no bias), dt_proj time_step_rank -> inner with bias, A_log inner x
// state, D inner, out_proj inner -> hidden; in_proj and out_proj biases with use_bias.
void add_mamba1(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::ssm;
  const std::int64_t inner = m.inner();
  list.add(TensorRole::ssm_in_projection, group, layer, 2 * inner, hidden);
  if (m.projection_bias) list.vector(TensorRole::bias, group, layer, 2 * inner);
  list.add(TensorRole::ssm_convolution, group, layer, inner, m.conv_kernel);
  if (m.conv_bias) list.vector(TensorRole::bias, group, layer, inner);
  list.add(TensorRole::ssm_in_projection, group, layer, m.time_step_rank + 2 * m.state_size, inner);  // x_proj
  list.add(TensorRole::ssm_in_projection, group, layer, inner, m.time_step_rank);                     // dt_proj
  list.vector(TensorRole::bias, group, layer, inner);                                                 // dt_proj bias
  list.add(TensorRole::ssm_parameter, group, layer, inner, m.state_size);                             // A_log
  list.vector(TensorRole::ssm_parameter, group, layer, inner);                                        // D
  list.add(TensorRole::ssm_output, group, layer, hidden, inner);
  if (m.projection_bias) list.vector(TensorRole::bias, group, layer, hidden);
  // JambaMambaMixer (huggingface/transformers@97bb61d07880 src/transformers/models/jamba/modeling_jamba.py):
  // dt_layernorm (time_step_rank), b_layernorm and c_layernorm (state_size), RMSNorms with weights.
  if (m.time_step_norms) {
    list.vector(TensorRole::norm, group, layer, m.time_step_rank);
    list.vector(TensorRole::norm, group, layer, m.state_size, 2);
  }
}

// Gated DeltaNet: huggingface/transformers@7515843b6175 src/transformers/models/qwen3_next/
// modeling_qwen3_next.py Qwen3NextGatedDeltaNet: in_proj_qkvz hidden -> 2 x keys + 2 x values and
// in_proj_ba hidden -> 2 x value heads (no biases), conv1d depthwise over q, k, v without bias,
// dt_bias and A_log per value head, a gated RMSNorm of one value head's width, out_proj values ->
// hidden.
void add_gated_delta_net(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::ssm;
  list.add(TensorRole::ssm_in_projection, group, layer, m.conv_channels() + m.inner(), hidden);  // in_proj_qkvz
  list.add(TensorRole::ssm_in_projection, group, layer, 2 * m.num_heads, hidden);                // in_proj_ba
  list.add(TensorRole::ssm_convolution, group, layer, m.conv_channels(), m.conv_kernel);
  if (m.conv_bias) list.vector(TensorRole::bias, group, layer, m.conv_channels());
  list.vector(TensorRole::ssm_parameter, group, layer, m.num_heads, 2);  // dt_bias, A_log
  list.vector(TensorRole::norm, group, layer, m.head_dim);               // gated RMSNorm weight
  list.add(TensorRole::ssm_output, group, layer, hidden, m.inner());
}

// LFM2's short convolution: huggingface/transformers@1d6b6ca61a8b src/transformers/models/lfm2/
// modeling_lfm2.py Lfm2ShortConv: in_proj hidden -> 3 x hidden (B, C, x), conv depthwise over
// hidden with kernel conv_L_cache, out_proj hidden -> hidden; every bias conv_bias.
void add_short_convolution(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::ssm;
  list.add(TensorRole::ssm_in_projection, group, layer, 3 * m.inner(), hidden);
  list.add(TensorRole::ssm_convolution, group, layer, m.inner(), m.conv_kernel);
  list.add(TensorRole::ssm_output, group, layer, hidden, m.inner());
  if (m.conv_bias) {
    list.vector(TensorRole::bias, group, layer, 3 * m.inner());
    list.vector(TensorRole::bias, group, layer, m.inner());
    list.vector(TensorRole::bias, group, layer, hidden);
  }
}

// RG-LRU recurrent block: huggingface/transformers@0233e509531a
// src/transformers/models/recurrent_gemma/modeling_recurrent_gemma.py RecurrentGemmaRecurrentBlock:
// linear_y and linear_x hidden -> lru_width and linear_out back (nn.Linear, biases on), conv_1d
// depthwise over lru_width with a bias; RecurrentGemmaRglru: recurrent_param (lru_width) and the
// input and recurrent gates, each a block-diagonal weight (heads x block x block) and a bias.
void add_rg_lru(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::ssm;
  const std::int64_t width = m.inner();
  list.add(TensorRole::ssm_in_projection, group, layer, width, hidden, 2);  // linear_y, linear_x
  if (m.projection_bias) list.vector(TensorRole::bias, group, layer, width, 2);
  list.add(TensorRole::ssm_convolution, group, layer, width, m.conv_kernel);
  if (m.conv_bias) list.vector(TensorRole::bias, group, layer, width);
  list.vector(TensorRole::ssm_parameter, group, layer, width);                                 // recurrent_param
  list.add(TensorRole::ssm_parameter, group, layer, m.num_heads * m.head_dim, m.head_dim, 2);  // gate weights
  list.vector(TensorRole::ssm_parameter, group, layer, width, 2);                              // gate biases
  list.add(TensorRole::ssm_output, group, layer, hidden, width);
  if (m.projection_bias) list.vector(TensorRole::bias, group, layer, hidden);
}

// Lightning attention: transformers models/minimax/modeling_minimax.py MiniMaxLightningAttention:
// qkv_proj hidden -> 3 x heads x head_dim, output_gate hidden -> heads x head_dim, an RMSNorm of
// heads x head_dim, out_proj back to hidden; no biases. Its decay rates are buffers.
void add_lightning_attention(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  constexpr auto group = ParameterGroup::ssm;
  list.add(TensorRole::ssm_in_projection, group, layer, 4 * m.inner(), hidden);  // qkv_proj and output_gate
  list.vector(TensorRole::norm, group, layer, m.inner());
  list.add(TensorRole::ssm_output, group, layer, hidden, m.inner());
}

}  // namespace

// Each mixer's tensors; the Mamba-2 mixer here: transformers models/mamba2/modeling_mamba2.py Mamba2Mixer (and its
// copies in NemotronHMamba2Mixer, BambaMixer): in_proj hidden -> inner (z) + conv channels (x, B, C) + heads (dt);
// conv1d depthwise over the conv channels; dt_bias, A_log and D per head; a gated RMSNorm of the inner width; out_proj
// inner -> hidden. FalconH1Mixer (huggingface/transformers@001f85b38fb4
// src/transformers/models/falcon_h1/modeling_falcon_h1.py) has the norm only with mamba_rms_norm and
// gives out_proj the bias projectors_bias; Zamba2MambaMixer is Mamba2Mixer's tensors.
void add_recurrent_mixer(TensorList& list, const SsmShape& m, std::int32_t layer, std::int64_t hidden) {
  switch (m.mixer) {
    case RecurrentMixer::gated_delta_net:
      add_gated_delta_net(list, m, layer, hidden);
      return;
    case RecurrentMixer::short_convolution:
      add_short_convolution(list, m, layer, hidden);
      return;
    case RecurrentMixer::rg_lru:
      add_rg_lru(list, m, layer, hidden);
      return;
    case RecurrentMixer::lightning_attention:
      add_lightning_attention(list, m, layer, hidden);
      return;
    case RecurrentMixer::mamba:
      break;
  }
  if (m.is_mamba1()) {
    add_mamba1(list, m, layer, hidden);
    return;
  }
  constexpr auto group = ParameterGroup::ssm;
  const std::int64_t projection = m.inner() + m.conv_channels() + m.num_heads;
  list.add(TensorRole::ssm_in_projection, group, layer, projection, hidden);
  if (m.projection_bias) list.vector(TensorRole::bias, group, layer, projection);
  list.add(TensorRole::ssm_convolution, group, layer, m.conv_channels(), m.conv_kernel);
  if (m.conv_bias) list.vector(TensorRole::bias, group, layer, m.conv_channels());
  list.vector(TensorRole::ssm_parameter, group, layer, m.num_heads, 3);      // dt_bias, A_log, D
  if (m.gated_norm) list.vector(TensorRole::norm, group, layer, m.inner());  // gated RMSNorm weight
  list.add(TensorRole::ssm_output, group, layer, hidden, m.inner());
  if (m.out_projection_bias.value_or(m.projection_bias)) list.vector(TensorRole::bias, group, layer, hidden);
}

}  // namespace fitcheck::detail
