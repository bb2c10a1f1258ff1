// SPDX-License-Identifier: MIT
// Gemma 3n's towers: the MobileNet-v5 vision tower (timm mobilenetv5_300m_enc), the USM audio
// encoder and the two multimodal embedders, each count written out by hand from
// huggingface/pytorch-image-models@7452176180553b7bd9f4c999f74de3f529a51964 timm/models/mobilenetv5.py
// and huggingface/transformers@00aa0f5dc1cc src/transformers/models/gemma3n/modeling_gemma3n.py
// (cited in core/src/model/mobilenetv5_params.cpp and core/src/model/gemma3n_audio_params.cpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// mobilenetv5_300m_enc, module by module (RmsNorm2d: one weight per channel; no conv bias but the stem's):
//   conv_stem: 3 x 64 x 3 x 3 + bias 64 + norm 64 = 1,856.
//   Stage 0, EdgeResidual (conv_exp in x 4in x 3 x 3, bn1 4in, conv_pwl 4in x 128, bn2 128):
//     64 -> 128: 180,608; twice 128 -> 128: 656,000 each. Stage 1,492,608.
//   Stage 1, UniversalInvertedResidual (dw_start in x a x a + norm, pw_exp in x e.in + norm, dw_mid
//   e.in x k x k + norm, pw_proj e.in x out + norm, layer_scale out):
//     a3 k5 e6 128 -> 256: 317,440; twice a5 e4: 532,480; twice a3 e4: 528,384. Stage 2,439,168.
//   Stage 2: a5 k5 e6 256 -> 640: 1,425,664; 7 x a5 e4: 3,297,280 each; a0 e1: 821,120; then 14 pairs of
//     MobileAttention (norm 640, query 640 x 12 x 64, key and value each a 3 x 3 depthwise down_conv
//     of 640 + norm 640 and 640 x 64, output 768 x 640, layer_scale 640: 1,079,040) and a0 e2 UIR
//     (1,640,960). Stage 63,407,744.
//   Stage 3: a5 k5 e6 640 -> 1280: 7,495,680; then 19 pairs of MobileAttention (norm 1,280, query
//     1,280 x 16 x 96, key and value 1,280 x 96 without down_conv, output 1,536 x 1,280, layer_scale
//     1,280: 4,180,480) and a0 e2 UIR (6,558,720). Stage 211,540,480.
//   msfa: ffn pw_exp (640 + 1,280) x 3,840 + norm, pw_proj 3,840 x 2,048 + norm, then norm 2,048:
//     15,245,056.
constexpr std::int64_t kMobileNetV5Params =
    1'856LL + 1'492'608 + 2'439'168 + 63'407'744 + 211'540'480 + 15'245'056;  // 294,126,912

// Gemma3nAudioEncoder with the released shapes (hidden 1,536, 12 conformer blocks of 8 heads,
// 128 mel bins, subsample channels 128 and 32, 3 x 3 kernels of stride 2, light conv kernel 5):
//   conv_0 1 x 128 x 9 + norm 128 = 1,280 (frequencies (128 + 2 - 3) / 2 + 1 = 64);
//   conv_1 128 x 32 x 9 + norm 32 = 36,896 (frequencies (64 + 2 - 3) / 2 + 1 = 32);
//   input_proj_linear (32 x 32) x 1,536 = 1,572,864.
//   Each block: two feed-forwards 2 x (2 x 1,536 + 2 x 1,536 x 6,144) = 37,754,880; attention: two norms
//   3,072, q/k/v/post and pos_proj 5 x 1,536^2 = 11,796,480, per_dim_scale 192; light conv: two norms
//   3,072, linear_start 1,536 x 3,072 = 4,718,592, depthwise 1,536 x 5 = 7,680, linear_end 2,359,296;
//   norm 1,536. Block 56,644,800.
constexpr std::int64_t kUsmParams = 1'280LL + 36'896 + 1'572'864 + 12LL * 56'644'800;  // 681,348,640

// Gemma3nMultimodalEmbedder into a text width of 2,048: table 128 x width, two norms of width, projection
// width x 2,048 (the post-projection norm has no weight).
constexpr std::int64_t kVisionEmbedder = 128LL * 2'048 + 2 * 2'048 + 2'048LL * 2'048;  // 4,460,544
constexpr std::int64_t kAudioEmbedder = 128LL * 1'536 + 2 * 1'536 + 1'536LL * 2'048;   // 3,345,408

// The released tower configs, as Gemma3nForConditionalGeneration's printed module tree shows them.
const char* kReleasedTowers =
    R"("vision_config": {"model_type": "gemma3n_vision", "architecture": "mobilenetv5_300m_enc",
    "hidden_size": 2048, "vocab_size": 128, "vocab_offset": 262144, "rms_norm_eps": 1e-06},
  "audio_config": {"model_type": "gemma3n_audio", "hidden_size": 1536, "conf_num_hidden_layers": 12,
    "conf_num_attention_heads": 8, "input_feat_size": 128, "conf_conv_kernel_size": 5, "vocab_size": 128,
    "sscp_conv_channel_size": [128, 32], "sscp_conv_kernel_size": [[3, 3], [3, 3]],
    "sscp_conv_stride_size": [[2, 2], [2, 2]]},
  "vision_soft_tokens_per_image": 256, "audio_soft_tokens_per_image": 188)";

// A Gemma 3n wrapper around the 4-layer language model of gemma3n_test.cpp (4,122 parameters).
std::string tiny_wrapper(const std::string& towers) {
  return R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text", "hidden_size": 8,
    "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4, "vocab_size": 10,
    "sliding_window": 16, "hidden_size_per_layer_input": 2, "vocab_size_per_layer_input": 6, "altup_num_inputs": 2,
    "laurel_rank": 3, "tie_word_embeddings": true, "intermediate_size": [16, 32, 16, 32],
    "num_kv_shared_layers": 1}, )" +
         towers + "}";
}

const char* kTinyAudio = R"("audio_config": {"model_type": "gemma3n_audio", "hidden_size": 8,
    "conf_num_hidden_layers": 1, "conf_num_attention_heads": 2, "input_feat_size": 10, "conf_conv_kernel_size": 3,
    "vocab_size": 5, "sscp_conv_channel_size": [4, 2], "sscp_conv_kernel_size": [[3, 3], [3, 3]],
    "sscp_conv_stride_size": [[2, 2], [2, 2]]})";

}  // namespace

TEST_CASE("gemma-3n-E2B: MobileNet-v5, the USM audio tower and both embedders, the published total") {
  // The fixture's vision_config and audio_config hold only their model_type: every shape is the
  // default of Gemma3nVisionConfig / Gemma3nAudioConfig, each one reported.
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--gemma-3n-E2B-it.json"));
  REQUIRE(model.vision);
  REQUIRE(model.audio);
  CHECK(model.vision->kind == "mobilenetv5");
  CHECK(model.audio->kind == "gemma3n_usm");
  CHECK(model.not_counted.empty());
  CHECK(test::mentions(model.assumptions, "vision_config.architecture absent"));
  CHECK(test::mentions(model.assumptions, "audio_config.sscp_conv_channel_size absent"));
  CHECK(test::mentions(model.assumptions, "audio_soft_tokens_per_image absent: 188"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 4'456'156'768);  // the language model, as gemma3n_test.cpp counts it
  CHECK(count.vision_tower == kMobileNetV5Params);
  CHECK(count.multimodal_projector == kVisionEmbedder);
  CHECK(count.audio_tower == kUsmParams);
  CHECK(count.audio_projector == kAudioEmbedder);
  // google/gemma-3n-E2B-it: 5,439,438,272 parameters, the Hugging Face Hub API's safetensors total
  // (?expand[]=safetensors, all BF16), as transcribed publicly for the E2B-it and E4B-it checkpoints.
  CHECK(count.total_with_audio() == 5'439'438'272);
  CHECK(count.total_with_vision() == 4'456'156'768 + kMobileNetV5Params + kVisionEmbedder);
  CHECK(image_tokens(*model.vision, 768, 768) == 256);
  CHECK(model.audio->tokens_per_clip == 188);
}

TEST_CASE("gemma-3n-E4B: 35 layers of MLP width 16,384 with the same towers, the published total") {
  // E4B's language model as the Gemma 3n MatFormer configs describe it (35 layers, FFN 16,384, the
  // E2B widths otherwise); 15 KV-sharing layers change no count.
  std::string text = R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text",
    "hidden_size": 2048, "num_hidden_layers": 35, "num_attention_heads": 8, "num_key_value_heads": 2,
    "head_dim": 256, "intermediate_size": 16384, "vocab_size": 262400, "vocab_size_per_layer_input": 262144,
    "hidden_size_per_layer_input": 256, "altup_num_inputs": 4, "laurel_rank": 64, "sliding_window": 512,
    "num_kv_shared_layers": 15, "tie_word_embeddings": true}, )";
  text += kReleasedTowers;
  text += "}";
  const ModelDescription model = parse_hf_config(text);
  const ParameterCount count = count_parameters(model);
  // Language model: embed_tokens 262,400 x 2,048 = 537,395,200; embed_tokens_per_layer 262,144 x 35 x 256
  // = 2,348,810,240; per_layer_model_projection 2,048 x 8,960 = 18,350,080; per_layer_projection_norm
  // 256; AltUp projections 6 x 2,048^2 = 25,165,824; norm 2,048. Each layer as E2B's (62,153,296) with
  // an MLP of 3 x 2,048 x 16,384 = 100,663,296 in place of 50,331,648: 112,484,944; 35 layers
  // 3,936,973,040.
  CHECK(count.total == 537'395'200LL + 2'348'810'240 + 18'350'080 + 256 + 25'165'824 + 2'048 + 3'936'973'040);
  CHECK(count.vision_tower == kMobileNetV5Params);
  CHECK(count.audio_tower == kUsmParams);
  // google/gemma-3n-E4B-it: 7,849,978,192 parameters, the Hugging Face Hub API's safetensors total.
  CHECK(count.total_with_audio() == 7'849'978'192);
  CHECK_FALSE(test::mentions(model.assumptions, "audio_config.hidden_size absent"));  // read from the config
  CHECK_FALSE(test::mentions(model.assumptions, "audio_soft_tokens_per_image absent"));
}

TEST_CASE("Gemma 3n audio tower: a small conformer counted module by module, no vision tower") {
  const ModelDescription model = parse_hf_config(tiny_wrapper(kTinyAudio));
  CHECK_FALSE(model.vision);
  REQUIRE(model.audio);
  const ParameterCount count = count_parameters(model);
  // hidden 8, 2 heads of 4, 1 block, 10 mel bins, channels 4 and 2, light conv kernel 3:
  //   conv_0 1 x 4 x 9 + norm 4 = 40 (frequencies (10 + 2 - 3) / 2 + 1 = 5); conv_1 4 x 2 x 9 + norm 2 = 74
  //   (frequencies (5 + 2 - 3) / 2 + 1 = 3); input_proj_linear (2 x 3) x 8 = 48.
  //   Block: feed-forwards 2 x (16 + 2 x 8 x 32) = 1,056; attention norms 16, q/k/v/post/pos_proj 5 x 64
  //   = 320, per_dim_scale 4; light conv norms 16, linear_start 8 x 16 = 128, depthwise 8 x 3 = 24,
  //   linear_end 64; norm 8: 1,636.
  CHECK(count.audio_tower == 40 + 74 + 48 + 1'636);
  // embed_audio: table 5 x 8, two norms 16, projection 8 x 8 (text hidden 8).
  CHECK(count.audio_projector == 40 + 16 + 64);
  CHECK(count.total == 4'122);
  CHECK(count.total_with_audio() == 4'122 + 1'798 + 120);

  const auto report = nlohmann::json::parse(parameter_report_json(model, count));
  CHECK(report["audio_tower_kind"] == "gemma3n_usm");
  CHECK(report["audio_tower_params"] == 1'798);
  CHECK(report["audio_projector_params"] == 120);
  CHECK(report["total_params_with_audio"] == 4'122 + 1'798 + 120);
  CHECK(report["audio_tokens_per_clip"] == 188);
  CHECK_FALSE(report.contains("vision_tower_params"));
}

TEST_CASE("Gemma 3n towers: other timm architectures and contradictory tower fields are refused by name") {
  const auto vision = [](const std::string& fields) {
    return tiny_wrapper(R"("vision_config": {"model_type": "gemma3n_vision")" + fields + "}");
  };
  CHECK(test::config_error_field(vision(R"(, "architecture": "mobilenetv5_base")")) == "vision_config.architecture");
  CHECK(test::config_error_field(vision(R"(, "architecture": "resnet50")")) == "vision_config.architecture");
  CHECK(test::config_error_field(vision(R"(, "model_args": {"depth": 3})")) == "vision_config.model_args");
  CHECK(test::config_error_field(vision(R"(, "hidden_size": 1024)")) == "vision_config.hidden_size");
  CHECK(test::config_error_field(tiny_wrapper(R"("vision_config": {"model_type": "siglip_vision_model"})")) ==
        "vision_config.model_type");

  const auto audio = [](const std::string& fields) {
    return tiny_wrapper(R"("audio_config": {"model_type": "gemma3n_audio")" + fields + "}");
  };
  CHECK(test::config_error_field(audio(R"(, "hidden_size": 10, "conf_num_attention_heads": 4)")) ==
        "audio_config.conf_num_attention_heads");
  CHECK(test::config_error_field(audio(R"(, "sscp_conv_channel_size": [128])")) ==
        "audio_config.sscp_conv_channel_size");
  CHECK(test::config_error_field(audio(R"(, "sscp_conv_kernel_size": [[3, 3]])")) ==
        "audio_config.sscp_conv_kernel_size");
  CHECK(test::config_error_field(audio(R"(, "sscp_conv_stride_size": [[2, 0], [2, 2]])")) ==
        "audio_config.sscp_conv_stride_size");
  CHECK(test::config_error_field(audio(R"(, "input_feat_size": 1, "sscp_conv_kernel_size": [[3, 5], [3, 3]])")) ==
        "audio_config.sscp_conv_kernel_size");
  CHECK(test::config_error_field(audio(R"(, "conf_num_hidden_layers": 0)")) == "audio_config.conf_num_hidden_layers");
  CHECK(test::config_error_field(tiny_wrapper(R"("audio_config": {"model_type": "whisper"})")) ==
        "audio_config.model_type");
}
