// SPDX-License-Identifier: MIT
// Qwen3-VL (qwen3_vl, qwen3_vl_moe) counted whole: the Qwen3 / Qwen3-MoE language model, the vision
// tower with its learned positions, and the merger with the DeepStack mergers, each against the
// checkpoint's tensor total and a hand count written out here; image tokens as smart_resize gives them.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string fixture(const std::string& name) { return test::read_file(test::fixture_configs_dir() + "/" + name); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Both released towers (Qwen3-VL-8B and 30B-A3B: hidden 1152, intermediate 4304, 27 blocks, patch 16,
// 2 frames, 2304 positions). patch_embed Conv3d 1152 x 3 x 2 x 16 x 16 = 1,769,472 + bias 1,152 =
// 1,770,624; pos_embed 2304 x 1152 = 2,654,208; per block norm1 and norm2 4 x 1152 = 4,608, qkv 1152 x
// 3456 + 3456 = 3,984,768, proj 1152^2 + 1152 = 1,328,256, linear_fc1 1152 x 4304 + 4304 = 4,962,512,
// linear_fc2 4304 x 1152 + 1152 = 4,959,360: 15,239,504, x 27 = 411,466,608. Tower 415,891,440.
constexpr std::int64_t kTower = 415'891'440;

}  // namespace

TEST_CASE("Qwen3-VL-8B: Qwen3's language model, the vision tower and four mergers: the checkpoint's total") {
  // Language model (untied, vocab 151936, hidden 4096, 36 layers, 32 heads / 8 kv heads of 128):
  // embeddings and lm_head 2 x 151936 x 4096 = 1,244,659,712; per layer q and o 2 x 4096^2 = 33,554,432,
  // k and v 2 x 1024 x 4096 = 8,388,608, q_norm and k_norm 256, gate, up, down 3 x 4096 x 12288 =
  // 150,994,944, 2 norms 8,192: 192,946,432, x 36 = 6,946,071,552; final norm 4,096: 8,190,735,360.
  // Mergers (out 4096; merged width 1152 x 2^2 = 4608): merger norm 2 x 1152 = 2,304, linear_fc1 4608^2
  // + 4608 = 21,238,272, linear_fc2 4608 x 4096 + 4096 = 18,878,464: 40,119,040; each DeepStack merger
  // normalizes the 4608 concatenated: 9,216 + 21,238,272 + 18,878,464 = 40,125,952, x 3 = 120,377,856.
  // Projector 160,496,896. Whole: 8,767,123,696, the sum of the checkpoint's 750 tensors (MANIFEST).
  const ModelDescription model = parse_hf_config(fixture("Qwen--Qwen3-VL-8B-Instruct.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 8'190'735'360);
  CHECK(count.vision_tower == kTower);
  CHECK(count.multimodal_projector == 160'496'896);
  CHECK(count.total_with_vision() == 8'767'123'696);
  CHECK(model.not_counted.empty());
  CHECK_FALSE(model.tie_word_embeddings);
  REQUIRE(model.vision);
  // smart_resize over 32-pixel factors (patch 16 x merge 2), min 65,536 and max 16,777,216 pixels:
  //   1024 x 1024 stays: 64 x 64 patches / 4 = 1,024 tokens. 640 x 480 stays: 40 x 30 / 4 = 300.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 1024);
  CHECK(image_tokens(*model.vision, 640, 480) == 300);
  //   100 x 100 rounds to 96 x 96, under min: beta = sqrt(65536 / 10000) = 2.56, ceil(256 / 32) x 32 =
  //   256 per side: 16 x 16 / 4 = 64.
  CHECK(image_tokens(*model.vision, 100, 100) == 64);
  //   8000 x 6000 rounds to 8000 x 6016 (187.5 to even 188), over max: beta = sqrt(48e6 / 16777216) =
  //   1.6915; floor(8000 / beta / 32) = 147 -> 4704, floor(6000 / beta / 32) = 110 -> 3520: 294 x 220 / 4.
  CHECK(image_tokens(*model.vision, 8000, 6000) == 16'170);
}

TEST_CASE("Qwen3-VL-30B-A3B: Qwen3-MoE's language model, the same tower, mergers to 2048: the checkpoint's total") {
  // Language model (untied, hidden 2048, 48 layers, 32 heads / 4 kv heads of 128, 128 experts of 768):
  // embeddings and lm_head 2 x 151936 x 2048 = 622,329,856; per layer q and o 2 x 4096 x 2048 =
  // 16,777,216, k and v 2 x 512 x 2048 = 2,097,152, q_norm and k_norm 256, experts 128 x 3 x 2048 x 768
  // = 603,979,776, router 128 x 2048 = 262,144, 2 norms 4,096: 623,120,640, x 48 = 29,909,790,720;
  // final norm 2,048: 30,532,122,624. Mergers: linear_fc2 4608 x 2048 + 2048 = 9,439,232; merger
  // 2,304 + 21,238,272 + 9,439,232 = 30,679,808; DeepStack 3 x (9,216 + 21,238,272 + 9,439,232) =
  // 92,060,160: 122,739,968. Whole: 31,070,754,032, the sum of the checkpoint's 882 tensors (MANIFEST).
  const ModelDescription model = parse_hf_config(fixture("Qwen--Qwen3-VL-30B-A3B-Instruct.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 30'532'122'624);
  CHECK(count.vision_tower == kTower);
  CHECK(count.multimodal_projector == 122'739'968);
  CHECK(count.total_with_vision() == 31'070'754'032);
  // Active per token: attention 18,874,624 + 8 experts x 4,718,592 = 37,748,736 + router and norms
  // 266,240 = 56,889,600 per layer, x 48 = 2,730,700,800, + embeddings, lm_head and final norm.
  CHECK(count.active_per_token == 2'730'700'800 + 622'329'856 + 2'048);
}

TEST_CASE("Qwen3-VL: the top-level tie switch, DeepStack layers, the merger width and the tower type") {
  const std::string text = fixture("Qwen--Qwen3-VL-8B-Instruct.json");
  // Qwen3VLConfig's top-level tie_word_embeddings decides when text_config names none: one
  // 151936 x 4096 matrix less.
  const std::string tied = replaced(text, "\"tie_word_embeddings\": false", "\"tie_word_embeddings\": true");
  CHECK(count_parameters(parse_hf_config(tied)).total == 8'190'735'360 - 622'329'856);
  // A text_config that says otherwise is refused, naming it.
  const std::string both =
      replaced(tied, "\"use_cache\": true,", "\"tie_word_embeddings\": false, \"use_cache\": true,");
  CHECK(test::config_error_field(both) == "text_config.tie_word_embeddings");
  // Two DeepStack layers: one merger of 40,125,952 fewer.
  const std::string two = replaced(text, "      8,\n      16,\n      24\n", "      8,\n      16\n");
  CHECK(count_parameters(parse_hf_config(two)).multimodal_projector == 160'496'896 - 40'125'952);
  CHECK(test::config_error_field(replaced(text, "      24\n", "      27\n")) ==
        "vision_config.deepstack_visual_indexes");
  CHECK(test::config_error_field(replaced(text, "\"out_hidden_size\": 4096", "\"out_hidden_size\": 3584")) ==
        "vision_config.out_hidden_size");
  CHECK(test::config_error_field(replaced(text, "\"model_type\": \"qwen3_vl\",\n    \"num_heads\"",
                                          "\"model_type\": \"siglip_vision_model\",\n    \"num_heads\"")) ==
        "vision_config.model_type");
  CHECK(test::config_error_field(replaced(text, "\"num_heads\": 16", "\"num_heads\": 17")) ==
        "vision_config.num_heads");
}
