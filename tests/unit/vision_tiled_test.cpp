// SPDX-License-Identifier: MIT
// Vision-language wrappers whose processors cut images into tiles (Idefics3, SmolVLM): the language
// model, the vision tower and the connector, each against a published count or a hand count written out
// here; image tokens per image as the processor counts them.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string fixture(const std::string& name) { return test::read_file(test::fixture_configs_dir() + "/" + name); }

// `text` with its first `from` replaced by `to` (the substring must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

const char* const kSmolVlm2 = "HuggingFaceTB--SmolVLM2-500M-Video-Instruct.json";

}  // namespace

TEST_CASE("SmolVLM2-500M: SmolLM2-360M, the SigLIP base tower and the pixel-shuffle connector: the published total") {
  // Language model (Llama, untied): embeddings and lm_head 2 x 49280 x 960 = 94,617,600; per layer q and o
  // 2 x 960^2 = 1,843,200, k and v 2 x 960 x (5 x 64) = 614,400, gate, up, down 3 x 960 x 2560 = 7,372,800,
  // 2 norms 1,920: 9,832,320, x 32 = 314,634,240; final norm 960: 409,252,800.
  // Tower (SmolVLMVisionConfig's defaults for the absent sizes: intermediate 3072, 12 layers): patch conv
  // 3 x 16 x 16 x 768 + 768 = 590,592, positions (512 / 16)^2 = 1024 x 768 = 786,432; per layer q,k,v,out
  // 4 x (768^2 + 768) = 2,362,368, two LayerNorms 3,072, fc1 768 x 3072 + 3072 = 2,362,368, fc2
  // 3072 x 768 + 768 = 2,360,064: 7,087,872, x 12 = 85,054,464; post_layernorm 1,536: 86,433,024.
  // Connector: Linear(768 x 4^2, 960) without bias = 11,796,480.
  // Whole: 507,482,304, the published count of SmolVLM2-500M and SmolVLM-500M-Instruct (MANIFEST).
  const ModelDescription model = parse_hf_config(fixture(kSmolVlm2));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 409'252'800);
  CHECK(count.vision_tower == 86'433'024);
  CHECK(count.multimodal_projector == 11'796'480);
  CHECK(count.total_with_vision() == 507'482'304);
  CHECK(model.not_counted.empty());
  REQUIRE(model.vision);
  // SmolVLMProcessor: image_seq_len (512 // 16)^2 / 4^2 = 64. A 640 x 480 image is resized to 2048 x 1536
  // (longest edge 4 x 512), 3 rows of 4 tiles: (64 + 3) for the global image + 3 x ((64 + 2) x 4 + 1) = 862.
  CHECK(image_tokens(*model.vision, 640, 480) == 862);
  // Portrait: 1536 x 2048, 4 rows of 3 tiles: 67 + 4 x (66 x 3 + 1) = 863.
  CHECK(image_tokens(*model.vision, 480, 640) == 863);
  // Any square image becomes 4 x 4 tiles: 67 + 4 x 265 = 1,127; a 4000 x 100 strip 2048 x 52, rounded up
  // to 2048 x 512: one row of 4 tiles, 67 + 265 = 332.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 1127);
  CHECK(image_tokens(*model.vision, 1, 1) == 1127);
  CHECK(image_tokens(*model.vision, 4000, 100) == 332);
}

TEST_CASE("SmolVLM-256M: the same tower with SmolLM2-135M's shapes: the published total") {
  // Language model (untied): 2 x 49280 x 576 = 56,770,560; per layer q and o 2 x 576^2 = 663,552, k and v
  // 2 x 576 x (3 x 64) = 221,184, MLP 3 x 576 x 1536 = 2,654,208, norms 1,152: 3,540,096, x 30 =
  // 106,202,880; final norm 576: 162,974,016. Connector Linear(768 x 16, 576) = 7,077,888.
  // Whole: 162,974,016 + 86,433,024 + 7,077,888 = 256,484,928, SmolVLM-256M-Instruct's published count.
  std::string text = fixture(kSmolVlm2);
  text = replaced(text, "\"hidden_size\": 960", "\"hidden_size\": 576");
  text = replaced(text, "\"intermediate_size\": 2560", "\"intermediate_size\": 1536");
  text = replaced(text, "\"num_attention_heads\": 15", "\"num_attention_heads\": 9");
  text = replaced(text, "\"num_hidden_layers\": 32", "\"num_hidden_layers\": 30");
  text = replaced(text, "\"num_key_value_heads\": 5", "\"num_key_value_heads\": 3");
  const ParameterCount count = count_parameters(parse_hf_config(text));
  CHECK(count.total == 162'974'016);
  CHECK(count.vision_tower == 86'433'024);
  CHECK(count.multimodal_projector == 7'077'888);
  CHECK(count.total_with_vision() == 256'484'928);
}

TEST_CASE("Idefics3: an idefics3 wrapper reads the same way; scale_factor sizes the connector and the tokens") {
  // Idefics3-8B's tower shapes (SigLIP so400m/14 at 364, scale_factor 2) on the fixture's language model.
  // Tower: patch conv 3 x 14 x 14 x 1152 + 1152 = 678,528, positions (364 / 14)^2 = 676 x 1152 = 778,752;
  // per layer 4 x (1152^2 + 1152) = 5,313,024, LayerNorms 4,608, fc1 1152 x 4304 + 4304 = 4,962,512, fc2
  // 4304 x 1152 + 1152 = 4,959,360: 15,239,504, x 27 = 411,466,608; post_layernorm 2,304: 412,926,192.
  // Connector Linear(1152 x 2^2, 960) = 4,423,680.
  std::string text = fixture(kSmolVlm2);
  text = replaced(text, "\"model_type\": \"smolvlm\"", "\"model_type\": \"idefics3\"");
  text = replaced(text, "\"scale_factor\": 4", "\"scale_factor\": 2");
  text = replaced(text, "\"hidden_size\": 768,\n    \"image_size\": 512",
                  "\"hidden_size\": 1152, \"intermediate_size\": 4304, \"num_hidden_layers\": 27,\n"
                  "    \"image_size\": 364");
  text = replaced(text, "\"smolvlm_vision\"", "\"idefics3_vision\"");
  text = replaced(text, "\"num_attention_heads\": 12", "\"num_attention_heads\": 16");
  text = replaced(text, "\"patch_size\": 16", "\"patch_size\": 14");
  const ModelDescription model = parse_hf_config(text);
  const ParameterCount count = count_parameters(model);
  CHECK(count.vision_tower == 412'926'192);
  CHECK(count.multimodal_projector == 4'423'680);
  // Idefics3Processor: image_seq_len 26^2 / 4 = 169; 640 x 480 -> 1456 x 1092 -> 1456 x 1092 (multiples of
  // 364): 3 rows of 4 tiles, 172 + 3 x (171 x 4 + 1) = 2,227.
  REQUIRE(model.vision);
  CHECK(image_tokens(*model.vision, 640, 480) == 2227);
  // SmolVLM-Instruct's tower size (image 384, patch 14, scale_factor 3; no published count found): the
  // position table has (384 // 14)^2 = 27^2 = 729 rows, so the tower is 412,926,192 + (729 - 676) x 1152 =
  // 412,987,248; 27^2 / 3^2 = 81 tokens a tile.
  std::string floored = replaced(text, "\"image_size\": 364", "\"image_size\": 384");
  floored = replaced(floored, "\"scale_factor\": 2", "\"scale_factor\": 3");
  const ModelDescription smolvlm = parse_hf_config(floored);
  CHECK(count_parameters(smolvlm).vision_tower == 412'987'248);
  CHECK(smolvlm.vision->tokens_per_tile == 81);
}

TEST_CASE(
    "Idefics3 / SmolVLM: a foreign tower, a scale_factor that does not divide the grid and bad heads are refused") {
  const std::string text = fixture(kSmolVlm2);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"smolvlm_vision\"", "\"siglip_vision_model\"")),
                       doctest::Contains("vision_config.model_type"), ConfigError);
  // (512 // 16) = 32 patches a side: a factor of 3 cannot fold them.
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"scale_factor\": 4", "\"scale_factor\": 3")),
                       doctest::Contains("scale_factor"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"num_attention_heads\": 12", "\"num_attention_heads\": 7")),
                       doctest::Contains("vision_config.num_attention_heads"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"patch_size\": 16", "\"patch_size\": 1024")),
                       doctest::Contains("vision_config.image_size"), ConfigError);
  // An image needs both sides.
  const ModelDescription model = parse_hf_config(text);
  CHECK_THROWS_AS((void)image_tokens(*model.vision, 0, 480), std::invalid_argument);
}

TEST_CASE("InternVL3-1B-hf: Qwen2.5-0.5B, InternViT-300M and the pixel-shuffle MLP projector: the published total") {
  // Language model (Qwen2, untied as the checkpoint stores lm_head): embeddings and lm_head 2 x 151674 x 896 =
  // 271,799,808; per layer q 896^2 + 896 = 803,712, k and v 2 x (896 x 128 + 128) = 229,632, o 896^2 = 802,816,
  // gate, up, down 3 x 896 x 4864 = 13,074,432, 2 norms 1,792: 14,912,384, x 24 = 357,897,216; final norm 896:
  // 629,697,920.
  // InternViT-300M (hidden 1024, intermediate 4096, 24 layers, image 448, patch 14, q/k/v biases, LayerNorms,
  // mean pooling): cls_token 1,024, patch conv 3 x 14 x 14 x 1024 + 1024 = 603,136, positions (32^2 + 1) x 1024
  // = 1,049,600; per layer q, k, v 3 x (1024^2 + 1024) = 3,148,800, projection_layer 1,049,600, fc1 1024 x 4096
  // + 4096 = 4,198,400, fc2 4096 x 1024 + 1024 = 4,195,328, two LayerNorms 4,096, lambda_1 and lambda_2 2,048:
  // 12,598,272, x 24 = 302,358,528. Tower 304,012,288.
  // Projector (r = 1 / 0.5 = 2): LayerNorm of 4096 = 8,192, linear_1 4096 x 896 + 896 = 3,670,912, linear_2
  // 896^2 + 896 = 803,712: 4,482,816.
  // Whole: 938,193,024, InternVL3-1B-hf's published count (MANIFEST).
  const ModelDescription model = parse_hf_config(fixture("OpenGVLab--InternVL3-1B-hf.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 629'697'920);
  CHECK(count.vision_tower == 304'012'288);
  CHECK(count.multimodal_projector == 4'482'816);
  CHECK(count.total_with_vision() == 938'193'024);
  CHECK(model.not_counted.empty());
  REQUIRE(model.vision);
  // GotOcr2's grid closest in aspect ratio, up to 12 tiles of 448, a thumbnail when tiled, 256 tokens a tile,
  // <img> and </img>: 448 x 448 is one tile (2 x 2 ties it, but the image is not over half of its area): 258.
  CHECK(image_tokens(*model.vision, 448, 448) == 258);
  // 640 x 480 is 4:3 exactly: 4 x 3 tiles and the thumbnail, 2 + 13 x 256 = 3,330; 480 x 640 the same.
  CHECK(image_tokens(*model.vision, 640, 480) == 3330);
  CHECK(image_tokens(*model.vision, 480, 640) == 3330);
  // Square images over half of 2 x 2 tiles' area take 3 x 3 (the last square grid within 12): 2 + 10 x 256.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 2562);
  // 1920 x 1080 (1.78): 2 x 1 and 4 x 2 (both 2.0) are the closest grids; 4 x 2, listed later, replaces 2 x 1
  // as the image is over half of its 8 tiles' area: 2 + 9 x 256 = 2,306.
  CHECK(image_tokens(*model.vision, 1920, 1080) == 2306);
}

TEST_CASE("InternVL3-2B and -8B: the same tower on Qwen2.5-1.5B and Qwen2.5-7B shapes: the published totals") {
  const std::string text = fixture("OpenGVLab--InternVL3-1B-hf.json");
  // 2B: language model (untied) 2 x 151674 x 1536 = 465,942,528; per layer q 1536^2 + 1536 = 2,360,832, k and v
  // 2 x (1536 x 256 + 256) = 786,944, o 2,359,296, MLP 3 x 1536 x 8960 = 41,287,680, norms 3,072: 46,797,824,
  // x 28 = 1,310,339,072; final norm 1,536: 1,776,283,136. Projector 8,192 + (4096 x 1536 + 1536) + (1536^2 +
  // 1536) = 8,662,016. Whole 2,088,957,440: InternVL3-2B's count from its safetensors header (MANIFEST notes).
  std::string two = replaced(text, "\"hidden_size\": 896", "\"hidden_size\": 1536");
  two = replaced(two, "\"intermediate_size\": 4864", "\"intermediate_size\": 8960");
  two = replaced(two, "\"num_attention_heads\": 14", "\"num_attention_heads\": 12");
  two = replaced(two, "\"num_hidden_layers\": 24", "\"num_hidden_layers\": 28");  // text_config's comes first
  const ParameterCount two_count = count_parameters(parse_hf_config(two));
  CHECK(two_count.total == 1'776'283'136);
  CHECK(two_count.multimodal_projector == 8'662'016);
  CHECK(two_count.total_with_vision() == 2'088'957'440);
  // 8B: 2 x 151674 x 3584 = 1,087,199,232; per layer q 3584^2 + 3584 = 12,848,640, k and v 2 x (3584 x 512 +
  // 512) = 3,671,040, o 12,845,056, MLP 3 x 3584 x 18944 = 203,685,888, norms 7,168: 233,057,792, x 28 =
  // 6,525,618,176; final norm 3,584: 7,612,820,992. Projector 8,192 + (4096 x 3584 + 3584) + (3584^2 + 3584) =
  // 27,540,480. Whole 7,944,373,760, the safetensors-header count of InternVL3-8B-architecture checkpoints
  // (MANIFEST notes).
  std::string eight = replaced(text, "\"hidden_size\": 896", "\"hidden_size\": 3584");
  eight = replaced(eight, "\"intermediate_size\": 4864", "\"intermediate_size\": 18944");
  eight = replaced(eight, "\"num_attention_heads\": 14", "\"num_attention_heads\": 28");
  eight = replaced(eight, "\"num_hidden_layers\": 24", "\"num_hidden_layers\": 28");
  eight = replaced(eight, "\"num_key_value_heads\": 2", "\"num_key_value_heads\": 4");
  const ParameterCount eight_count = count_parameters(parse_hf_config(eight));
  CHECK(eight_count.total == 7'612'820'992);
  CHECK(eight_count.vision_tower == 304'012'288);
  CHECK(eight_count.multimodal_projector == 27'540'480);
  CHECK(eight_count.total_with_vision() == 7'944'373'760);
}

TEST_CASE("InternVL: the InternViT switches change the tower; contradictory or unsupported fields are refused") {
  const std::string text = fixture("OpenGVLab--InternVL3-1B-hf.json");
  // No q/k/v biases (-3 x 1024), q and k RMSNorms (+2 x 1024) and RMSNorm layer norms (-2 x 1024) per layer:
  // -3,072 x 24 = -73,728; a final LayerNorm without mean pooling +2,048: 303,940,608.
  std::string variant = replaced(text, "\"attention_bias\": true", "\"attention_bias\": false");
  variant = replaced(variant, "\"use_qk_norm\": false", "\"use_qk_norm\": true");
  variant = replaced(variant, "\"norm_type\": \"layer_norm\"", "\"norm_type\": \"rms_norm\"");
  variant = replaced(variant, "\"use_mean_pooling\": true", "\"use_mean_pooling\": false");
  CHECK(count_parameters(parse_hf_config(variant)).vision_tower == 303'940'608);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"downsample_ratio\": 0.5", "\"downsample_ratio\": 0.3")),
                       doctest::Contains("downsample_ratio"), ConfigError);
  // A ratio whose inverse does not fit an integer is refused before any conversion (a fuzzer's input).
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"downsample_ratio\": 0.5", "\"downsample_ratio\": 5e-125")),
                       doctest::Contains("downsample_ratio"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"image_seq_length\": 256", "\"image_seq_length\": 64")),
                       doctest::Contains("image_seq_length"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"layer_norm\"", "\"batch_norm\"")),
                       doctest::Contains("vision_config.norm_type"), ConfigError);
  CHECK_THROWS_WITH_AS(parse_hf_config(replaced(text, "\"internvl_vision\"", "\"siglip_vision_model\"")),
                       doctest::Contains("vision_config.model_type"), ConfigError);
  std::string oblong = text;
  const auto at = oblong.find("448\n");
  REQUIRE(at != std::string::npos);
  oblong.replace(at, 3, "336");
  CHECK_THROWS_WITH_AS(parse_hf_config(oblong), doctest::Contains("vision_config.image_size"), ConfigError);
}
