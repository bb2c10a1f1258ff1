// SPDX-License-Identifier: MIT
// Vision-language wrappers counted whole: the language model, the vision tower and the projector, each
// against a published checkpoint count or a hand count written out here; image tokens per image as
// the model's processor gives them.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string fixture(const std::string& name) { return test::read_file(test::fixture_configs_dir() + "/" + name); }

bool mentions(const std::vector<std::string>& notes, const std::string& text) {
  for (const auto& note : notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("LLaVA-1.5-7B: Vicuna with LlamaConfig's defaults, the CLIP tower and the projector: the checkpoint total") {
  // text_config names only vocab 32064 and 4096 positions; LlamaConfig gives hidden 4096, intermediate
  // 11008, 32 layers, 32 heads (MHA). Language model: embeddings and lm_head 2 x 32064 x 4096 =
  // 262,668,288; per layer q,k,v,o 4 x 4096^2 = 67,108,864 + gate, up, down 3 x 4096 x 11008 =
  // 135,266,304 + 2 norms 8,192 = 202,383,360, x 32 = 6,476,267,520; final norm 4,096: 6,738,939,904.
  // CLIP ViT-L/14-336 (hidden 1024, intermediate 4096, 24 layers, patch 14, image 336): patch conv
  // 3 x 14 x 14 x 1024 = 602,112 (no bias), class embedding 1,024, positions (24^2 + 1) x 1024 = 590,848;
  // pre_layrnorm and post_layernorm 2 x 2,048; per layer q,k,v,out 4 x (1024^2 + 1024) = 4,198,400, two
  // LayerNorms 4,096, fc1 1024 x 4096 + 4096 = 4,198,400, fc2 4096 x 1024 + 1024 = 4,195,328: 12,596,224,
  // x 24 = 302,309,376. Tower 303,507,456. Projector: 1024 x 4096 + 4096 + 4096^2 + 4096 = 20,979,712.
  // Whole: 7,063,427,072 = the checkpoint's total_size 14,126,854,144 bytes / 2 (FP16; MANIFEST).
  const ModelDescription model = parse_hf_config(fixture("llava-hf--llava-1.5-7b-hf.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 6'738'939'904);
  CHECK(count.vision_tower == 303'507'456);
  CHECK(count.multimodal_projector == 20'979'712);
  CHECK(count.total_with_vision() == 7'063'427'072);
  CHECK(model.not_counted.empty());
  CHECK(mentions(model.assumptions, "text_config.hidden_size = 4096"));
  REQUIRE(model.vision);
  // LlavaProcessor: (336 / 14)^2 patches; the "default" strategy drops the class token: 576 at any size.
  CHECK(image_tokens(*model.vision, 640, 480) == 576);
  CHECK(image_tokens(*model.vision, 4000, 100) == 576);
}

TEST_CASE("LLaVA: the feature layers and strategy size the projector and the tokens; other towers are refused") {
  std::string text = fixture("llava-hf--llava-1.5-7b-hf.json");
  // Two feature layers concatenated, the class token kept, no projector biases:
  // linear_1 2048 x 4096, linear_2 4096 x 4096 = 25,165,824; (336 / 14)^2 + 1 = 577 tokens.
  std::string two_layers = text;
  two_layers.replace(two_layers.find("\"vision_feature_layer\": -2"), 26,
                     "\"vision_feature_layer\": [-2, -5], \"multimodal_projector_bias\": false");
  two_layers.replace(two_layers.find("\"default\""), 9, "\"full\"");
  const ModelDescription model = parse_hf_config(two_layers);
  CHECK(count_parameters(model).multimodal_projector == 25'165'824);
  CHECK(image_tokens(*model.vision, 640, 480) == 577);
  std::string siglip = text;
  siglip.replace(siglip.find("clip_vision_model"), 17, "siglip_vision_model");
  CHECK_THROWS_WITH_AS(parse_hf_config(siglip), doctest::Contains("vision_config.model_type"), ConfigError);
  std::string strategy = text;
  strategy.replace(strategy.find("\"default\""), 9, "\"cls\"");
  CHECK_THROWS_WITH_AS(parse_hf_config(strategy), doctest::Contains("vision_feature_select_strategy"), ConfigError);
  std::string heads = text;
  heads.replace(heads.find("\"num_attention_heads\": 16"), 25, "\"num_attention_heads\": 12");
  CHECK_THROWS_WITH_AS(parse_hf_config(heads), doctest::Contains("vision_config.num_attention_heads"), ConfigError);
}

TEST_CASE("PaliGemma-3B-224: Gemma's language model, the SigLIP tower and one linear projector") {
  // Language model (Gemma, tied): embeddings 257216 x 2048 = 526,778,368; per layer q and o 2 x 2048^2
  // = 8,388,608 (8 heads of 256), k and v 2 x 256 x 2048 = 1,048,576, gate, up, down 3 x 2048 x 16384 =
  // 100,663,296, 2 norms 4,096: 110,104,576, x 18 = 1,981,882,368; final norm 2,048: 2,508,662,784.
  // SigLIP so400m/14 at SiglipVisionConfig's default image_size 224: patch conv 3 x 14 x 14 x 1152 + 1152
  // = 678,528, positions (224 / 14)^2 = 256 x 1152 = 294,912; per layer 15,239,504 (as medgemma's tower),
  // x 27 = 411,466,608; post_layernorm 2,304: 412,442,352. Projector 1152 x 2048 + 2048 = 2,361,344.
  // Whole: 2,923,466,480, the PaliGemma 3B parameter count in the MANIFEST's published table.
  const ModelDescription model = parse_hf_config(fixture("google--paligemma-3b-pt-224.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 2'508'662'784);
  CHECK(count.vision_tower == 412'442'352);
  CHECK(count.multimodal_projector == 2'361'344);
  CHECK(count.total_with_vision() == 2'923'466'480);
  CHECK(model.not_counted.empty());
  REQUIRE(model.vision);
  // PaliGemmaProcessor: 256 image tokens at any size.
  CHECK(image_tokens(*model.vision, 640, 480) == 256);
  // A projector width other than the language model's is refused, naming the field.
  std::string wide = fixture("google--paligemma-3b-pt-224.json");
  wide.replace(wide.find("\"projection_dim\": 2048,\r\n    \"projector_hidden_act\""), 22, "\"projection_dim\": 4096");
  CHECK_THROWS_WITH_AS(parse_hf_config(wide), doctest::Contains("vision_config.projection_dim"), ConfigError);
}

TEST_CASE("LLaVA-NeXT (v1.6 Mistral-7B): MistralConfig's defaults, the CLIP tower, the projector and image_newline") {
  // No published count found: a hand count. text_config names intermediate 14336, 8 kv heads, vocab
  // 32064; MistralConfig gives hidden 4096, 32 layers, 32 heads. Language model: embeddings and lm_head
  // 2 x 32064 x 4096 = 262,668,288; per layer q and o 2 x 4096^2 = 33,554,432, k and v 2 x 1024 x 4096 =
  // 8,388,608, gate, up, down 3 x 4096 x 14336 = 176,160,768, 2 norms 8,192: 218,112,000, x 32 =
  // 6,979,584,000; final norm 4,096: 7,242,256,384. Tower: LLaVA-1.5's CLIP ViT-L/14-336, 303,507,456.
  // Projector 20,979,712 + image_newline 4,096 = 20,983,808. Whole: 7,566,747,648.
  const ModelDescription model = parse_hf_config(fixture("llava-hf--llava-v1.6-mistral-7b-hf.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 7'242'256'384);
  CHECK(count.vision_tower == 303'507'456);
  CHECK(count.multimodal_projector == 20'983'808);
  CHECK(count.total_with_vision() == 7'566'747'648);
  REQUIRE(model.vision);
  // LlavaNextProcessor: 576 tokens of the 336 crop, then the best-fit canvas's patches less padding,
  // and a newline per row.
  //   640 x 480: canvas 672 x 672 keeps all 307,200 pixels (the 336 x 672 ones keep 84,672 and 150,528):
  //   48 x 48 patches; the image fills 480 x 48 / 640 = 36 rows, padding (48 - 36) / 2 = 6 each side:
  //   36 x 48 + 36 + 576 = 2,340.
  CHECK(image_tokens(*model.vision, 640, 480) == 2340);
  //   1024 x 1024: canvas 672 x 672, square: 48 x 48 + 48 + 576 = 2,928.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 2928);
  //   3000 x 500: canvas 336 x 1008 (height x width): 24 x 72 patches; 500 x 72 / 3000 = 12 rows, padding 6:
  //   12 x 72 + 12 + 576 = 1,452.
  CHECK(image_tokens(*model.vision, 3000, 500) == 1452);
  //   20 x 20: every canvas keeps all 400 pixels; 336 x 672 wastes least: 24 x 48 patches, the square
  //   image fills 24 columns (padding 12): 24 x 24 + 24 + 576 = 1,176.
  CHECK(image_tokens(*model.vision, 20, 20) == 1176);
  std::string bad = fixture("llava-hf--llava-v1.6-mistral-7b-hf.json");
  bad.replace(bad.find("\"image_grid_pinpoints\": ["), 25, "\"image_grid_pinpoints\": [[336], ");
  CHECK_THROWS_WITH_AS(parse_hf_config(bad), doctest::Contains("image_grid_pinpoints"), ConfigError);
}

TEST_CASE("Mistral-Small-3.1-24B: Mistral's language model, the Pixtral tower and the patch-merging projector") {
  // Language model 23,572,403,200, as Devstral-Small-2507's (same text shapes; MANIFEST). Pixtral
  // (hidden 1024, intermediate 4096, 24 layers, 16 heads of 64, patch 14): patch_conv 3 x 14 x 14 x
  // 1024 = 602,112 (no bias), ln_pre 1,024; per layer q,k,v,o 4 x 1024^2 = 4,194,304, gate, up, down
  // 3 x 1024 x 4096 = 12,582,912, two RMSNorms 2,048: 16,779,264, x 24 = 402,702,336. Tower 403,305,472.
  // Projector (multimodal_projector_bias false): norm 1,024; merging_layer 1024 x 2^2 x 1024 = 4,194,304;
  // linear_1 1024 x 5120 = 5,242,880; linear_2 5120^2 = 26,214,400: 35,652,608.
  // Whole: 24,011,361,280 = keras-hub's mistral_small_3.1_24b params (MANIFEST).
  const ModelDescription model = parse_hf_config(fixture("mistralai--Mistral-Small-3.1-24B-Instruct-2503.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 23'572'403'200);
  CHECK(count.vision_tower == 403'305'472);
  CHECK(count.multimodal_projector == 35'652'608);
  CHECK(count.total_with_vision() == 24'011'361'280);
  CHECK(model.not_counted.empty());
  REQUIRE(model.vision);
  // PixtralProcessor: merged patches of 28 pixels, each row ended by [IMG_BREAK] (the last by [IMG_END]).
  //   1024 x 1024 fits in 1540: ceil(1024 / 28) = 37 rows of 37 + 1: 1,406.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 1406);
  //   640 x 480: ceil(480 / 28) = 18 rows of ceil(640 / 28) = 23 + 1: 432.
  CHECK(image_tokens(*model.vision, 640, 480) == 432);
  //   3080 x 1000: ratio 2, floor to 1540 x 500: 18 rows of 55 + 1: 1,008.
  CHECK(image_tokens(*model.vision, 3080, 1000) == 1008);
  //   20 x 20: one merged patch and its end token.
  CHECK(image_tokens(*model.vision, 20, 20) == 2);
}

TEST_CASE("Mistral-3: a projector with biases, a head width that does not fit, another tower type") {
  const std::string text = fixture("mistralai--Mistral-Small-3.1-24B-Instruct-2503.json");
  std::string biased = text;
  biased.replace(biased.find("\"multimodal_projector_bias\": false"), 34, "\"multimodal_projector_bias\": true");
  // linear_1 and linear_2 gain 5,120 biases each: 35,652,608 + 10,240.
  CHECK(count_parameters(parse_hf_config(biased)).multimodal_projector == 35'662'848);
  std::string head_dim = text;
  head_dim.replace(head_dim.find("\"head_dim\": 64"), 14, "\"head_dim\": 80");
  CHECK_THROWS_WITH_AS(parse_hf_config(head_dim), doctest::Contains("vision_config.head_dim"), ConfigError);
  std::string tower = text;
  tower.replace(tower.find("\"pixtral\""), 9, "\"siglip\"");
  CHECK_THROWS_WITH_AS(parse_hf_config(tower), doctest::Contains("vision_config.model_type"), ConfigError);
}
