// SPDX-License-Identifier: MIT
// Phi-4-multimodal (model_type phi4_multimodal): the Phi-4-mini language model, the SigLIP vision
// tower with its pooling head and projector (cited in core/src/config/config_vision.cpp and
// core/src/model/vision_params.cpp), the conformer audio tower and its projectors (cited in
// core/src/config/config_phi4_audio.cpp and core/src/model/phi4_audio_params.cpp), the image tokens of
// its processor, and the refusals. The LoRA adapters are not counted. Expected values are hand
// calculations.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string phi4_multimodal() {
  return test::read_file(test::fixture_configs_dir() + "/microsoft--Phi-4-multimodal-instruct.json");
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("phi4_multimodal: the language model is Phi-4-mini's 3,836,021,760; tower and projector counted apart") {
  // Language model (Phi3 layout): tied embedding 200,064 x 3,072 = 614,596,608; per layer qkv_proj
  // (24 + 2 x 8) x 128 x 3,072 = 15,728,640, o_proj 3,072^2 = 9,437,184, gate_up_proj 2 x 8,192 x 3,072 =
  // 50,331,648, down_proj 25,165,824, two RMSNorms 6,144: 100,669,440; x 32 + final norm 3,072:
  // 3,836,021,760, the published count of microsoft/Phi-4-mini-instruct (HF Hub API safetensors.total as
  // transcribed in GitHub HBX814/AmazonMLChallenge@8f86b1665c30 audit_compliance.py KNOWN_MODELS).
  // Vision tower (hidden 1,152, MLP 4,304, 27 layers, patch 14, image 448 -> 32 x 32 patches):
  //   patch_embedding 3 x 14 x 14 x 1,152 + 1,152 = 678,528; position_embedding 1,024 x 1,152 = 1,179,648;
  //   layer: q/k/v/out 4 x (1,152^2 + 1,152) = 5,313,024, two LayerNorms 4,608, fc1 + fc2 4,958,208 + 4,304
  //   + 4,958,208 + 1,152 = 9,921,872 -> 15,239,504, x 27 = 411,466,608; post_layernorm 2,304;
  //   pooling head: probe 1,152, in_proj 3 x 1,152^2 + 3,456 = 3,984,768, out_proj 1,328,256, layernorm
  //   2,304, MLP 9,921,872 -> 15,238,352. Tower: 428,565,440.
  // Projector: img_projection_up 1,152 x 3,072 + 3,072 = 3,542,016, img_projection_down 3,072^2 + 3,072 =
  //   9,440,256, the two feature extensors 2 x 1,152: 12,984,576.
  const ModelDescription model = parse_hf_config(phi4_multimodal());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 614'596'608 + 32LL * 100'669'440 + 3'072);
  CHECK(count.total == 3'836'021'760);
  CHECK(count.vision_tower == 678'528 + 1'179'648 + 27LL * 15'239'504 + 2'304 + 15'238'352);
  CHECK(count.vision_tower == 428'565'440);
  CHECK(count.multimodal_projector == 12'984'576);
  CHECK(count.total_with_vision() == 4'277'571'776);
  CHECK(model.parameter_count_exact());
  // The vision and speech LoRA adapters are named as not counted; the audio tower is counted.
  REQUIRE(model.not_counted.size() == 1);
  CHECK(model.not_counted[0].find("LoRA") != std::string::npos);
}

TEST_CASE("phi4_multimodal: the conformer audio tower and its projectors complete the 5,574,460,384 checkpoint") {
  // Phi4MultimodalAudioModel (hidden h = 1,024, intermediate 1,536, 16 heads, 24 blocks, kernel 3,
  // depthwise multiplier 1, input 80 mel bins, time_reduction 8, 1,024 NeMo channels); every Linear and
  // convolution has a bias, every LayerNorm a weight and a bias.
  //   embed (Phi4MultimodalAudioNemoConvSubsampling): Conv2d(1, 1,024, 3) 9 x 1,024 + 1,024 = 10,240; twice
  //   (log2 8 - 1) a depthwise Conv2d(1,024, 1,024, 3, groups=1,024) 10,240 and a pointwise Conv2d 1,024^2 +
  //   1,024 = 1,049,600: 2,119,680; frequencies 80 -> 40 -> 20 -> 10, out Linear(10,240, 1,024) 10,486,784.
  //   Subsampling: 12,616,704.
  //   relative_attention_bias_layer: bias_values Embedding(2 x 500, 16) = 16,000 (bias_max_distance 500,
  //   not symmetric).
  //   Conformer layer: feed_forward_in and feed_forward_out each LayerNorm 2,048 + gate_up_proj 1,024 x
  //   3,072 + 3,072 = 3,148,800 + down_proj 1,536 x 1,024 + 1,024 = 1,573,888: 4,724,736; self_attn
  //   4 x (1,024^2 + 1,024) = 4,198,400; conv: LayerNorm 2,048, GLU ext_pw_conv_1d 1,024 x 2,048 + 2,048 =
  //   2,099,200, b1 + b2 2,048, dw_conv 1,024 x 3 + 1,024 = 4,096, pw_conv 1,049,600, ext_pw_conv_1d
  //   1,049,600: 4,206,592; layer_norm_att and layer_norm 4,096. Layer: 17,858,560, x 24 = 428,605,440.
  //   Tower: 12,616,704 + 16,000 + 428,605,440 = 441,238,144.
  // Projectors (Phi4MultimodalAudioEmbedding): up_proj_for_speech Linear(1,024, 3,072) 3,148,800 and
  //   down_proj_for_speech Linear(3,072, 3,072) 9,440,256, and the same for vision-speech: 25,178,112.
  const ModelDescription model = parse_hf_config(phi4_multimodal());
  const ParameterCount count = count_parameters(model);
  REQUIRE(model.audio);
  CHECK(model.audio->kind == "phi4_multimodal_conformer");
  CHECK(count.audio_tower == 10'240 + 2'119'680 + 10'486'784 + 16'000 + 24LL * 17'858'560);
  CHECK(count.audio_tower == 441'238'144);
  CHECK(count.audio_projector == 2 * (3'148'800 + 9'440'256));
  CHECK(count.total_with_audio() == 4'277'571'776 + 441'238'144 + 25'178'112);
  // The remote-code checkpoint (microsoft/Phi-4-multimodal-instruct, model_type phi4mm) holds
  // 5,574,460,384 tensors' values (MANIFEST.tsv). Less the language model, vision tower and projector
  // (4,277,571,776) and the two LoRA adapters on qkv_proj, o_proj, gate_up_proj and down_proj of 32 layers
  // (rank r: r x ((3,072 + 5,120) + (3,072 + 3,072) + (3,072 + 16,384) + (8,192 + 3,072)) = 45,056 r per
  // layer; vision r = 256: 369,098,752, speech r = 320: 461,373,440), 466,416,416 remain: the audio tower
  // and projectors above (466,416,256) and encoder_embedding's two buffers global_mean and global_invstd
  // (80 each), stored in the checkpoint though not parameters.
  CHECK(count.audio_tower + count.audio_projector + 2 * 80 == 466'416'416);
  CHECK(5'574'460'384LL - count.total_with_vision() - 369'098'752 - 461'373'440 ==
        count.audio_tower + count.audio_projector + 2 * 80);
  // With Phi4MultimodalAudioConfig's bias_max_distance default (1,000) and a symmetric bias: 1,000 buckets.
  const ParameterCount symmetric = count_parameters(parse_hf_config(
      replaced(replaced(phi4_multimodal(), R"("bias_max_distance": 500,)", R"("bias_max_distance": 1000,)"),
               R"("bias_symmetric": false,)", R"("bias_symmetric": true,)")));
  CHECK(symmetric.audio_tower == 441'238'144);
  const ParameterCount default_distance =
      count_parameters(parse_hf_config(replaced(phi4_multimodal(), R"("bias_max_distance": 500,)", "")));
  CHECK(default_distance.audio_tower == 441'238'144 + 16'000);
}

TEST_CASE("phi4_multimodal: audio_config fields take the class defaults, and contradictions are refused") {
  const std::string config = phi4_multimodal();
  // time_reduction 16: a third depthwise and pointwise pair (1,059,840) and frequencies 80 -> 5, so
  // out Linear(5,120, 1,024) = 5,243,904 instead of 10,486,784.
  const ParameterCount reduced =
      count_parameters(parse_hf_config(replaced(config, R"("time_reduction": 8)", R"("time_reduction": 16)")));
  CHECK(reduced.audio_tower == 441'238'144 + 1'059'840 + 5'243'904 - 10'486'784);
  // num_blocks absent: Phi4MultimodalAudioConfig's 24, named in the assumptions.
  const ModelDescription defaulted = parse_hf_config(replaced(config, R"("num_blocks": 24,)", ""));
  CHECK(count_parameters(defaulted).audio_tower == 441'238'144);
  bool named = false;
  for (const auto& line : defaulted.assumptions) named = named || line.find("audio_config.num_blocks") == 0;
  CHECK(named);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(config, R"("time_reduction": 8)", R"("time_reduction": 6)")),
                       doctest::Contains("audio_config.time_reduction"), ConfigError);
  CHECK_THROWS_WITH_AS(
      parse_hf_config(replaced(config, R"("num_attention_heads": 16,)", R"("num_attention_heads": 15,)")),
      doctest::Contains("audio_config.num_attention_heads"), ConfigError);
  CHECK_THROWS_WITH_AS(
      parse_hf_config(replaced(config, R"("ext_pw_out_channel": 1024,)", R"("ext_pw_out_channel": 512,)")),
      doctest::Contains("audio_config.ext_pw_out_channel"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(config, R"("depthwise_separable_out_channel": 1024,)",
                                                R"("depthwise_separable_out_channel": 2048,)")),
                       doctest::Contains("audio_config.depthwise_separable_out_channel"), ConfigError);
  CHECK_THROWS_WITH_AS(
      parse_hf_config(replaced(config, R"("model_type": "phi4_multimodal_audio")", R"("model_type": "gemma3n_audio")")),
      doctest::Contains("audio_config.model_type"), ConfigError);
}

TEST_CASE("phi4_multimodal: image tokens follow the processor's 448-pixel crops and masks") {
  // preprocess: 256 + 1 + (kept rows x kept columns) + kept rows + 16, the kept patches being the
  // unmasked ones at an even place within their 32-patch crop.
  const ModelDescription model = parse_hf_config(phi4_multimodal());
  REQUIRE(model.vision);
  // 1024 x 1024: 3 x 3 crops (1,344 px), the image fills them: 96 x 96 patches, 48 kept each way:
  // 273 + 48 x 48 + 48 = 2,625.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 2625);
  // 640 x 480: 2 x 2 crops (896 px); scaled by 896 / 640 = 1.4 the image is 672 high, 224 px of padding
  // mask 16 patch rows: 48 rows (kept 16 + 8 = 24) x 64 columns (kept 32): 273 + 24 x 32 + 24 = 1,065.
  CHECK(image_tokens(*model.vision, 640, 480) == 1065);
  // 4000 x 100: 9 x 1 crops (4,032 x 448); scaled by 1.008 the image is 100 high, 348 px of padding mask
  // 24 of 32 rows: 8 rows (kept 4) x 288 columns (kept 144): 273 + 4 x 144 + 4 = 853.
  CHECK(image_tokens(*model.vision, 4000, 100) == 853);
  // 4480 x 4480: 10 x 10 crops exceed 36, so the closest aspect ratio of at most 36 crops: every square
  // ties at 1:1 and the image covers more than half of each, so 6 x 6 (2,688 px), filled: 96 x 96 patches,
  // 273 + 96 x 96 + 96 = 9,585.
  CHECK(image_tokens(*model.vision, 4480, 4480) == 9585);
}

TEST_CASE("phi4_multimodal: a missing or contradictory vision field is refused, naming it") {
  const std::string config = phi4_multimodal();
  CHECK_THROWS_WITH_AS(
      parse_hf_config(replaced(config, R"("model_type": "phi4_multimodal_vision")", R"("model_type": "clip")")),
      doctest::Contains("vision_config.model_type"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(config, R"("hidden_size": 1152,)", "")),
                       doctest::Contains("vision_config.hidden_size"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(config, R"("image_size": 448,)", "")),
                       doctest::Contains("vision_config.image_size"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(config, R"("image_size": 448,)", R"("image_size": 450,)")),
                       doctest::Contains("vision_config.image_size"), ConfigError);
}
