// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <stdexcept>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

ParameterCount count_text(const std::string& text) { return count_parameters(parse_hf_config(text)); }

void check_manifest(const std::string& directory) {
  int checked = 0;
  for (const auto& row : test::read_manifest(directory)) {
    if (row.total_params.empty()) continue;  // no trusted count for this config
    CAPTURE(row.file);
    const ParameterCount count = count_text(test::read_file(directory + "/" + row.file));
    CHECK(count.total == std::stoll(row.total_params));
    if (!row.active_params_per_token.empty()) CHECK(count.active_per_token == std::stoll(row.active_params_per_token));
    if (count.breakdown.routed_experts == 0) CHECK(count.active_per_token == count.total);
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("every fixture config with a published count gives exactly that count") {
  check_manifest(test::fixture_configs_dir());
}

TEST_CASE("Llama-2-7B by hand") {
  // 32000x4096 embedding and lm_head; per layer 4 x 4096^2 attention, 3 x 4096x11008 MLP and
  // 2 x 4096 norms; one final norm:
  // 2*131,072,000 + 32*(67,108,864 + 135,266,304 + 8,192) + 4,096 = 6,738,415,616.
  const ParameterCount count =
      count_text(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-2-7b-chat-hf.json"));
  CHECK(count.total == 6'738'415'616);
  CHECK(count.breakdown.embedding == 131'072'000);
  CHECK(count.breakdown.lm_head == 131'072'000);
  CHECK(count.breakdown.attention == 32LL * 67'108'864);
  CHECK(count.breakdown.mlp == 32LL * 135'266'304);
  CHECK(count.breakdown.norms == 32 * 8'192 + 4'096);
  CHECK(count.non_embedding == 6'738'415'616 - 2 * 131'072'000);
}

TEST_CASE("the four counts of the walking skeleton") {
  const std::string dir = test::fixture_configs_dir();
  CHECK(count_text(test::read_file(dir + "/meta-llama--Llama-3.1-8B.json")).total == 8'030'261'248);
  CHECK(count_text(test::read_file(dir + "/Qwen--Qwen2-7B-Instruct.json")).total == 7'615'616'512);
  // Explicit head_dim 128 while hidden/heads = 160: q and o are 4096 wide, not 5120.
  CHECK(count_text(test::read_file(dir + "/mistralai--Devstral-Small-2507.json")).total == 23'572'403'200);
}

TEST_CASE("tied embeddings are counted once") {
  const std::string tied = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":1000,"tie_word_embeddings":true})";
  const std::string untied = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":1000,"tie_word_embeddings":false})";
  const ParameterCount a = count_text(tied);
  const ParameterCount b = count_text(untied);
  CHECK(b.total - a.total == 1000 * 64);
  CHECK(a.breakdown.lm_head == 0);
  // Hand count of the tied model: 64,000 embedding + 2 x (4 x 64^2 + 3 x 64x128 + 2 x 64) + 64.
  CHECK(a.total == 64'000 + 2 * (16'384 + 24'576 + 128) + 64);
}

TEST_CASE("active parameters of MoE models never exceed the total, and equal it for dense models") {
  for (const auto& row : test::read_manifest(test::fixture_configs_dir())) {
    if (row.total_params.empty()) continue;
    CAPTURE(row.file);
    const ParameterCount count = count_text(test::read_file(test::fixture_configs_dir() + "/" + row.file));
    CHECK(count.active_per_token <= count.total);
    if (count.breakdown.routed_experts == 0) CHECK(count.active_per_token == count.total);
    const auto& b = count.breakdown;
    CHECK(b.embedding + b.attention + b.mlp + b.routed_experts + b.shared_experts + b.router + b.norms + b.lm_head +
              b.ssm ==
          count.total);
  }
}

TEST_CASE("the weight-tensor inventory sums to the count and names every role") {
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"));
  std::int64_t sum = 0;
  bool saw_kv_down = false;
  for (const auto& tensor : weight_tensors(model)) {
    sum += tensor.parameters();
    saw_kv_down = saw_kv_down || tensor.role == TensorRole::attention_kv_down;
    CHECK(std::string(tensor_role_name(tensor.role)) != "unknown");
    CHECK(std::string(parameter_group_name(tensor.group)) != "unknown");
  }
  CHECK(sum == count_parameters(model).total);
  CHECK(saw_kv_down);
}

TEST_CASE("DeepSeek-V3's multi-token-prediction module is counted apart from the 671B main model") {
  const ParameterCount count =
      count_text(test::read_file(test::fixture_configs_dir() + "/deepseek-ai--DeepSeek-V3.json"));
  CHECK(count.total == 671'026'419'200);
  // One MoE layer: attention 187,107,328 + 256 routed experts 11,274,289,152 + shared expert 44,040,192
  // + router 1,835,008 and its 256 correction biases + 2 x 7,168 norms = 11,507,286,272; plus enorm,
  // hnorm and the head norm (3 x 7,168) and eh_proj (7,168 x 14,336 = 102,760,448) = 11,610,068,224.
  // DeepSeek's README_WEIGHTS quotes "11.5B unique parameters" for it; with the shared 0.93B embedding
  // and 0.93B head stored again the checkpoint holds about 13.5B more: 685B published in total.
  CHECK(count.multi_token_prediction == 11'610'068'224);
  CHECK(count_text(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"))
            .multi_token_prediction == 0);
}

TEST_CASE("a tied head stored anyway explains the published checkpoint counts") {
  // MANIFEST checkpoint_params: Qwen3-0.6B 751,632,384 = 596,049,920 + 151,936 x 1,024.
  const ParameterCount qwen = count_text(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-0.6B.json"));
  CHECK(qwen.total + qwen.tied_output_head == 751'632'384);
  // Falcon-180B: 178,557,088,768 + 65,024 x 14,848 = 179,522,565,120.
  const ParameterCount falcon =
      count_text(test::read_file(test::fixture_configs_dir() + "/tiiuae--falcon-180B-chat.json"));
  CHECK(falcon.total + falcon.tied_output_head == 179'522'565'120);
}

TEST_CASE("gemma3 with vision: the language model, the SigLIP tower and the projector, each on its own line") {
  // medgemma-27b-it: vision_config hidden 1152, intermediate 4304, 27 layers, patch 14, image 896, 3 channels.
  // Embeddings: conv 3 x 14 x 14 x 1152 + 1152 = 678,528; positions (896/14)^2 = 4,096 x 1152 = 4,718,592.
  // Layer: 2 LayerNorms 4,608 + q,k,v,out 4 x (1152^2 + 1152) = 5,313,024 + fc1 1152 x 4304 + 4304 and
  // fc2 4304 x 1152 + 1152 = 9,921,872 -> 15,239,504; 27 layers 411,466,608; post_layernorm 2,304.
  // Tower 416,866,032. Projector: 1152 x 5376 + mm_soft_emb_norm 1152 = 6,194,304.
  // Language model 27,009,346,304 (MANIFEST total_params) + 423,060,336 = 27,432,406,640, the
  // checkpoint's total_size / 2 (MANIFEST checkpoint_params).
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 27'009'346'304);
  CHECK(count.vision_tower == 416'866'032);
  CHECK(count.multimodal_projector == 6'194'304);
  CHECK(count.total_with_vision() == 27'432'406'640);
  REQUIRE(model.vision);
  CHECK(model.vision->tokens_per_image == 256);
  CHECK(model.not_counted.empty());
  // A language model without a counted tower keeps total_with_vision == total.
  const ParameterCount text_only =
      count_text(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
  CHECK(text_only.total_with_vision() == text_only.total);
}

TEST_CASE("Qwen2-VL's vision tower and merger, counted whole: olmOCR-7B's checkpoint total") {
  // Hand count (Qwen2VLVisionConfig of allenai/olmOCR-7B-0225-preview: embed_dim 1280, depth 32,
  // num_heads 16, mlp_ratio 4, patch 14, temporal patch 2, merge 2; language model hidden 3584):
  //   patch embedding (Conv3d, no bias) 1280 x 3 x 2 x 14 x 14 = 1,505,280;
  //   block: 2 LayerNorms 2 x 2,560 = 5,120; qkv 1280 x 3840 + 3840 = 4,919,040; proj 1280^2 + 1280
  //   = 1,639,680; fc1 1280 x 5120 + 5120 = 6,558,720; fc2 5120 x 1280 + 1280 = 6,554,880:
  //   19,677,440 x 32 = 629,678,080. Tower 631,183,360.
  //   merger: ln_q 2,560; 5120 x 5120 + 5120 = 26,219,520; 5120 x 3584 + 3584 = 18,353,664: 44,575,744.
  // Language model 7,615,616,512 (MANIFEST total_params) + 675,759,104 = 8,291,375,616, the
  // checkpoint's total_size / 2 (MANIFEST checkpoint_params: 16,582,751,232 bytes in BF16).
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/allenai--olmOCR-7B-0225-preview.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 7'615'616'512);
  CHECK(count.vision_tower == 631'183'360);
  CHECK(count.multimodal_projector == 44'575'744);
  CHECK(count.total_with_vision() == 8'291'375'616);
  REQUIRE(model.vision);
  CHECK(model.not_counted.empty());
  // Image tokens as Qwen2VLImageProcessor's smart_resize sizes an image (factor 28, 3,136 to
  // 1,003,520 pixels), one token per 2 x 2 merged patches of 14:
  //   1024 x 1024: 1036^2 > max, beta = sqrt(1048576 / 1003520) = 1.0222, floor(1024 / 1.0222 / 28)
  //   = 35 -> 980 x 980: 70 x 70 patches / 4 = 1,225.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 1225);
  //   640 x 480: round(22.86) = 23 -> 644, round(17.14) = 17 -> 476: 46 x 34 / 4 = 391.
  CHECK(image_tokens(*model.vision, 640, 480) == 391);
  //   70 x 70: 70 / 28 = 2.5 rounds half to even (Python's round) to 2 -> 56 x 56: 4 x 4 / 4 = 4.
  CHECK(image_tokens(*model.vision, 70, 70) == 4);
  //   20 x 20: 28 x 28 is under min_pixels, beta = sqrt(3136 / 400) = 2.8, ceil(20 x 2.8 / 28) = 2
  //   -> 56 x 56: 4 tokens.
  CHECK(image_tokens(*model.vision, 20, 20) == 4);
  CHECK_THROWS_AS(image_tokens(*model.vision, 10000, 10), std::invalid_argument);
  // Gemma-3: mm_tokens_per_image at any size.
  const ModelDescription gemma =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json"));
  CHECK(image_tokens(*gemma.vision, 640, 480) == 256);
}
