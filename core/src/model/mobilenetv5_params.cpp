// SPDX-License-Identifier: MIT
// Gemma 3n's vision tower: timm's MobileNetV5Encoder for 'mobilenetv5_300m_enc', which
// Gemma3nModel builds through TimmWrapperModel (huggingface/transformers@00aa0f5dc1cc
// modeling_gemma3n.py), and its Gemma3nMultimodalEmbedder. The block list is timm's data,
// huggingface/pytorch-image-models@7452176180553b7bd9f4c999f74de3f529a51964 timm/models/mobilenetv5.py
// _gen_mobilenet_v5 (arch_def of every variant but mobilenetv5_base), decoded as
// timm/models/_efficientnet_builder.py decode_arch_def does, with the blocks of
// timm/models/_efficientnet_blocks.py. Every norm is RmsNorm2d (one weight per channel); every
// convolution but the stem's has no bias.
#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "model/gemma3n_towers_params.hpp"

namespace fitcheck::detail {
namespace {

// Stage 0: 128x128 in.
constexpr std::string_view kStage0[] = {"er_r1_k3_s2_e4_c128", "er_r1_k3_s1_e4_c128", "er_r1_k3_s1_e4_c128"};
// Stage 1: 256x256 in.
constexpr std::string_view kStage1[] = {"uir_r1_a3_k5_s2_e6_c256", "uir_r1_a5_k0_s1_e4_c256", "uir_r1_a3_k0_s1_e4_c256",
                                        "uir_r1_a5_k0_s1_e4_c256", "uir_r1_a3_k0_s1_e4_c256"};
// Stage 2: 640x640 in.
constexpr std::string_view kStage2[] = {
    "uir_r1_a5_k5_s2_e6_c640",      "uir_r1_a5_k0_s1_e4_c640",      "uir_r1_a5_k0_s1_e4_c640",
    "uir_r1_a5_k0_s1_e4_c640",      "uir_r1_a5_k0_s1_e4_c640",      "uir_r1_a5_k0_s1_e4_c640",
    "uir_r1_a5_k0_s1_e4_c640",      "uir_r1_a5_k0_s1_e4_c640",      "uir_r1_a0_k0_s1_e1_c640",
    "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640",
    "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",
    "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640",
    "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",
    "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640",
    "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",
    "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640",
    "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",
    "mqa_r1_k3_h12_v2_s1_d64_c640", "uir_r1_a0_k0_s1_e2_c640",      "mqa_r1_k3_h12_v2_s1_d64_c640",
    "uir_r1_a0_k0_s1_e2_c640"};
// Stage 3: 1280x1280 in.
constexpr std::string_view kStage3[] = {
    "uir_r1_a5_k5_s2_e6_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280",
    "uir_r1_a0_k0_s1_e2_c1280", "mqa_r1_k3_h16_s1_d96_c1280", "uir_r1_a0_k0_s1_e2_c1280"};

constexpr std::array<std::pair<const std::string_view*, std::size_t>, 4> kStages = {{{kStage0, std::size(kStage0)},
                                                                                     {kStage1, std::size(kStage1)},
                                                                                     {kStage2, std::size(kStage2)},
                                                                                     {kStage3, std::size(kStage3)}}};

// MobileNetV5Encoder: stem_size 64, ConvNormAct with bias (stem_bias); MultiScaleFusionAdapter over
// the last two stages (msfa_indices -2, -1), with expansion_ratio 2.
constexpr std::int64_t kStemChannels = 64;
constexpr std::int64_t kStemKernel = 3;
constexpr std::int64_t kImageChannels = 3;
constexpr std::int64_t kFusionExpansion = 2;

// One block string: "type_r1_k3_s2_e4_c128" (r repeats, k kernel, a start kernel, s stride, e
// expansion, c output channels, h heads, v key/value stride, d key and value width).
struct BlockArgs {
  std::string_view type;
  std::int64_t repeats = 1, kernel = 0, start_kernel = 0, expansion = 1, out_channels = 0;
  std::int64_t heads = 0, kv_stride = 1, key_dim = 0;
};

BlockArgs decode_block(std::string_view text) {
  BlockArgs args;
  std::size_t start = 0;
  for (bool first = true; start <= text.size(); first = false) {
    const std::size_t end = std::min(text.find('_', start), text.size());
    const std::string_view token = text.substr(start, end - start);
    start = end + 1;
    if (first) {
      args.type = token;
      continue;
    }
    std::int64_t value = 0;
    for (const char digit : token.substr(1)) value = value * 10 + (digit - '0');
    switch (token.front()) {
      case 'r':
        args.repeats = value;
        break;
      case 'k':
        args.kernel = value;
        break;
      case 'a':
        args.start_kernel = value;
        break;
      case 's':
        break;  // strides change no parameter count
      case 'e':
        args.expansion = value;
        break;
      case 'c':
        args.out_channels = value;
        break;
      case 'h':
        args.heads = value;
        break;
      case 'v':
        args.kv_stride = value;
        break;
      case 'd':
        args.key_dim = value;
        break;
      default:
        throw std::logic_error("fitcheck: MobileNet-v5 block option not decoded: " + std::string(token));
    }
  }
  return args;
}

// timm's make_divisible(v, divisor=8, round_limit=0.9).
std::int64_t make_divisible(std::int64_t v) {
  const std::int64_t rounded = std::max<std::int64_t>(8, (v + 4) / 8 * 8);
  return 10 * rounded < 9 * v ? rounded + 8 : rounded;
}

// EdgeResidual ('er'): conv_exp (in x mid x k x k), bn1 (mid), conv_pwl (mid x out), bn2 (out).
// UniversalInvertedResidual ('uir'): dw_start (depthwise a x a and its norm) when a > 0, pw_exp
// (in x mid) and norm, dw_mid (depthwise k x k and its norm) when k > 0, pw_proj (mid x out) and
// norm, layer_scale (out). MobileAttention ('mqa'): norm (in), MultiQueryAttention2d's query (in x
// heads x d), key and value (each a depthwise k x k down_conv and its norm when v > 1, then in x d),
// output (heads x d x out), layer_scale (out).
std::int64_t block_params(const BlockArgs& b, std::int64_t in) {
  const std::int64_t out = b.out_channels;
  if (b.type == "er") {
    const std::int64_t mid = make_divisible(in * b.expansion);
    return in * mid * b.kernel * b.kernel + mid + mid * out + out;
  }
  if (b.type == "uir") {
    const std::int64_t mid = make_divisible(in * b.expansion);
    std::int64_t params = in * mid + mid + mid * out + out + out;
    if (b.start_kernel > 0) params += in * b.start_kernel * b.start_kernel + in;
    if (b.kernel > 0) params += mid * b.kernel * b.kernel + mid;
    return params;
  }
  if (b.type == "mqa") {
    const std::int64_t width = b.heads * b.key_dim;
    std::int64_t params = in + in * width + 2 * in * b.key_dim + width * out + out;
    if (b.kv_stride > 1) params += 2 * (in * b.kernel * b.kernel + in);
    return params;
  }
  throw std::logic_error("fitcheck: MobileNet-v5 block type not decoded: " + std::string(b.type));
}

}  // namespace

void count_mobilenetv5_vision(const VisionTower& v, ParameterCount& count) {
  std::int64_t params = kImageChannels * kStemChannels * kStemKernel * kStemKernel + kStemChannels + kStemChannels;
  std::int64_t channels = kStemChannels, fusion_in = 0;
  for (std::size_t stage = 0; stage < kStages.size(); ++stage) {
    const auto [blocks, size] = kStages[stage];
    for (std::size_t i = 0; i < size; ++i) {
      const BlockArgs args = decode_block(blocks[i]);
      for (std::int64_t r = 0; r < args.repeats; ++r) {
        params += block_params(args, channels);
        channels = args.out_channels;
      }
    }
    if (stage + 2 >= kStages.size()) fusion_in += channels;
  }
  // MobileNetV5MultiScaleFusionAdapter: ffn, a UniversalInvertedResidual without depthwise convolutions
  // or layer scale (fusion_in x mid and mid x hidden, with their norms), and norm (hidden).
  const std::int64_t mid = make_divisible(fusion_in * kFusionExpansion);
  params += fusion_in * mid + mid + mid * v.hidden_size + v.hidden_size + v.hidden_size;
  count.vision_tower = params;
  count.multimodal_projector = gemma3n_embedder_params(v.embedder_vocab, v.hidden_size, v.projector_output);
}

}  // namespace fitcheck::detail
