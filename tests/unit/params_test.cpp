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

namespace {

// The vision tower and projector of both Llama 4 checkpoints, by hand, to tie the language-model
// counts below to the published whole-checkpoint counts. vision_config (as quoted in
// NVIDIA/TensorRT-LLM@0074a2241768 tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py;
// 34 layers, Llama4VisionConfig's default): hidden 1408, intermediate 5632, patch 14, image 336, 3
// channels, projector_input_dim = projector_output_dim = vision_output_dim = 4096. Modules
// (huggingface/transformers@63210d0e3b74 src/transformers/models/llama4/modeling_llama4.py,
// Llama4VisionModel): patch_embedding 3 x 14 x 14 x 1408 = 827,904 (no bias); class_embedding 1,408;
// positional_embedding_vlm (24^2 + 1) x 1408 = 812,416; layernorm_pre/post 4 x 1,408 = 5,632; per
// encoder layer q/k/v/o 4 x (1408^2 + 1408) = 7,935,488, fc1 1408 x 5632 + 5632 = 7,935,488, fc2
// 5632 x 1408 + 1408 = 7,931,264, two LayerNorms 5,632: 23,807,872, x 34 = 809,467,648; vision_adapter
// fc1 5632 x 4096 = 23,068,672 and fc2 4096 x 4096 = 16,777,216 (no biases). Tower: 850,960,896.
// Llama4MultiModalProjector linear_1: 4096 x 5120 = 20,971,520 (no bias).
constexpr std::int64_t llama4_vision_tower =
    827'904 + 1'408 + 812'416 + 5'632 + 34 * 23'807'872 + 23'068'672 + 16'777'216;
constexpr std::int64_t llama4_projector = 4'096LL * 5'120;

}  // namespace

TEST_CASE("Llama 4 Scout by hand: 48 MoE layers, a shared expert and 16 routed experts each") {
  const ModelDescription model = parse_hf_config(
      test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-4-Scout-17B-16E-Instruct.json"));
  const ParameterCount count = count_parameters(model);
  // Per layer: attention q/o 2 x 5120^2 + k/v 2 x 5120 x 1024 (8 kv heads x 128) = 62,914,560 (no
  // biases; the qk L2 norm has no weight); two RMSNorms 10,240; router 16 x 5120 = 81,920; 16 routed
  // experts of gate/up/down 3 x 5120 x 8192 = 125,829,120 each: 2,013,265,920; the shared expert
  // 125,829,120. 48 x 2,202,101,760 = 105,700,884,480; embedding and untied lm_head 2 x 202,048 x
  // 5,120 = 2,068,971,520; final norm 5,120.
  CHECK(count.total == 105'700'884'480 + 2'068'971'520 + 5'120);
  CHECK(count.total == 107'769'861'120);
  CHECK(count.breakdown.routed_experts == 48 * 2'013'265'920LL);
  CHECK(count.breakdown.shared_experts == 48 * 125'829'120LL);
  CHECK(count.breakdown.router == 48 * 81'920LL);
  CHECK(count.breakdown.mlp == 0);
  // Published (HF Hub safetensors.total, transcribed in HBX814/AmazonMLChallenge@8f86b1665c30
  // audit_compliance.py): 108,641,793,536 for the checkpoint.
  CHECK(count.total + llama4_vision_tower + llama4_projector == 108'641'793'536);
  // Active: top-1 of 16 routed experts, so 15 x 125,829,120 idle in each of 48 layers.
  CHECK(count.active_per_token == 107'769'861'120 - 48 * 15 * 125'829'120LL);
  CHECK(count.active_per_token == 17'172'894'720);
  // Chunked attention of 8192 tokens on the RoPE layers; every 4th layer (3, 7, ..., 47) NoPE with full attention.
  REQUIRE(model.layer_kind_of_layer.size() == 48);
  for (std::size_t i = 0; i < 48; ++i) {
    CAPTURE(i);
    const LayerShape& layer = model.layer_kinds[model.layer_kind_of_layer[i]];
    CHECK(layer.attention.sliding_window == ((i + 1) % 4 == 0 ? 0 : 8192));
    CHECK(layer.is_moe());
  }
}

TEST_CASE("Llama 4 Maverick by hand: MoE layers interleaved with dense layers of intermediate_size_mlp") {
  const ModelDescription model = parse_hf_config(
      test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-4-Maverick-17B-128E-Instruct.json"));
  const ParameterCount count = count_parameters(model);
  // interleave_moe_layer_step 2: moe_layers = range(1, 48, 2), 24 MoE layers, 24 dense.
  // Dense layer: attention 62,914,560 + norms 10,240 + MLP 3 x 5120 x 16384 = 251,658,240: 314,583,040.
  // MoE layer: attention and norms 62,924,800 + router 128 x 5120 = 655,360 + 128 routed experts x
  // 125,829,120 = 16,106,127,360 + shared expert 125,829,120: 16,295,536,640.
  // 24 x 314,583,040 + 24 x 16,295,536,640 + 2,068,971,520 (embedding, lm_head) + 5,120 = 400,711,848,960.
  CHECK(count.total == 24 * 314'583'040LL + 24 * 16'295'536'640LL + 2'068'971'520 + 5'120);
  CHECK(count.total == 400'711'848'960);
  CHECK(count.breakdown.mlp == 24 * 251'658'240LL);
  CHECK(count.breakdown.routed_experts == 24 * 16'106'127'360LL);
  // Published (Fireworks documentation, 'Exporting Billing Metrics', sample row for Llama 4
  // Maverick: parameter_count 401,583,781,376, the checkpoint with its vision tower).
  CHECK(count.total + llama4_vision_tower + llama4_projector == 401'583'781'376);
  // Active: 127 of 128 routed experts idle in each of the 24 MoE layers.
  CHECK(count.active_per_token == 400'711'848'960 - 24 * 127 * 125'829'120LL);
  CHECK(count.active_per_token == 17'184'691'200);
  REQUIRE(model.layer_kind_of_layer.size() == 48);
  for (std::size_t i = 0; i < 48; ++i) {
    CAPTURE(i);
    const LayerShape& layer = model.layer_kinds[model.layer_kind_of_layer[i]];
    CHECK(layer.is_moe() == (i % 2 == 1));
    if (!layer.is_moe()) CHECK(layer.mlp.intermediate_size == 16384);
    CHECK(layer.attention.sliding_window == ((i + 1) % 4 == 0 ? 0 : 8192));
  }
}

TEST_CASE("Llama 4 layer lists: moe_layers, no_rope_layers and layer_types as given, refused when they do not fit") {
  const std::string head = R"({"model_type":"llama4","text_config":{"model_type":"llama4_text","hidden_size":64,
    "intermediate_size":32,"intermediate_size_mlp":128,"num_hidden_layers":4,"num_attention_heads":4,
    "num_key_value_heads":2,"head_dim":16,"vocab_size":1000,"num_local_experts":4,"num_experts_per_tok":1,
    "attention_chunk_size":256)";
  const auto parse = [&](const std::string& extra) { return parse_hf_config(head + extra + "}}"); };
  // moe_layers overrides interleave_moe_layer_step (Llama4TextConfig).
  const ModelDescription listed =
      parse(R"(,"moe_layers":[0,2],"interleave_moe_layer_step":4,"no_rope_layers":[1,0,1,0])");
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const LayerShape& layer = listed.layer_kinds[listed.layer_kind_of_layer[i]];
    CHECK(layer.is_moe() == (i % 2 == 0));
    CHECK(layer.attention.sliding_window == (i % 2 == 0 ? 256 : 0));  // no_rope_layers 1: RoPE, chunked
  }
  // By hand: attention 2 x 64 x 64 + 2 x 64 x 32 = 12,288; norms 128; dense MLP 3 x 64 x 128 = 24,576;
  // MoE: router 4 x 64 = 256, 4 experts x 3 x 64 x 32 = 24,576, shared 6,144.
  // 2 x (12,416 + 24,576) + 2 x (12,416 + 256 + 24,576 + 6,144) + 2 x 64,000 + 64.
  CHECK(count_parameters(listed).total == 2 * (12'416 + 24'576) + 2 * (12'416 + 256 + 24'576 + 6'144) + 128'000 + 64);
  const ModelDescription typed =
      parse(R"(,"layer_types":["full_attention","chunked_attention","chunked_attention","full_attention"])");
  CHECK(typed.layer_kinds[typed.layer_kind_of_layer[0]].attention.sliding_window == 0);
  CHECK(typed.layer_kinds[typed.layer_kind_of_layer[1]].attention.sliding_window == 256);
  CHECK_THROWS_WITH_AS(parse(R"(,"moe_layers":[4])"), doctest::Contains("text_config.moe_layers"), ConfigError);
  CHECK_THROWS_WITH_AS(parse(R"(,"no_rope_layers":[1,1,0])"), doctest::Contains("text_config.no_rope_layers"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(
      parse(R"(,"layer_types":["full_attention","sliding_attention","full_attention","full_attention"])"),
      doctest::Contains("text_config.layer_types"), ConfigError);
  // Llama 4 is a mixture of experts: no expert count is refused, not guessed.
  CHECK_THROWS_WITH_AS(parse_hf_config(R"({"model_type":"llama4_text","hidden_size":64,"intermediate_size":32,
    "num_hidden_layers":4,"num_attention_heads":4,"vocab_size":1000,"num_experts_per_tok":1})"),
                       doctest::Contains("num_local_experts"), ConfigError);
}

TEST_CASE("Llama 4's vision tower and projector counted apart; image tokens by tiles") {
  // Scout's text_config (the fixture) with the published vision_config (as quoted in
  // NVIDIA/TensorRT-LLM@0074a2241768 tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py,
  // 34 layers as Llama4VisionConfig's default).
  std::string text = test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-4-Scout-17B-16E-Instruct.json");
  text.erase(text.find_last_of('}'));
  text += R"(,"vision_config":{"attention_dropout":0.0,"hidden_act":"gelu","hidden_size":1408,"image_size":336,
    "initializer_range":0.02,"intermediate_size":5632,"model_type":"llama4_vision_model","multi_modal_projector_bias":false,
    "norm_eps":1e-05,"num_attention_heads":16,"num_channels":3,"num_hidden_layers":34,"patch_size":14,
    "pixel_shuffle_ratio":0.5,"projector_dropout":0.0,"projector_input_dim":4096,"projector_output_dim":4096,
    "rope_theta":10000,"vision_feature_layer":-1,"vision_feature_select_strategy":"default","vision_output_dim":4096}})";
  const ModelDescription model = parse_hf_config(text);
  REQUIRE(model.vision);
  CHECK(model.not_counted.empty());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 107'769'861'120);  // the language model alone, as before
  CHECK(count.vision_tower == llama4_vision_tower);
  CHECK(count.vision_tower == 850'960'896);
  CHECK(count.multimodal_projector == 20'971'520);
  // The published checkpoint count (HF Hub safetensors.total, transcribed in HBX814/AmazonMLChallenge@8f86b1665c30
  // audit_compliance.py).
  CHECK(count.total_with_vision() == 108'641'793'536);
  // Tokens per tile: (336 / 14)^2 = 576 patches, pixel shuffle 0.5: 576 / 4 = 144.
  // 300 x 200: canvas 1 x 1 (scale min(336/200, 336/300) = 1.12, the smallest >= 1): one tile, no global
  // tile: image_start + image + 144 + image_end = 147.
  CHECK(image_tokens(*model.vision, 300, 200) == 147);
  // 640 x 480: scales min(0.7 rows, 0.525 columns); the smallest >= 1 is 1.05 (2 columns), least area
  // with it 2 x 2: 4 x 144 tiles + 2 x 1 x-separators + 2 y-separators + 147 = 727.
  CHECK(image_tokens(*model.vision, 640, 480) == 727);
  // 1024 x 1024: 3 x 336 = 1008 < 1024, so only 4 x 4 reaches a scale >= 1 (1.3125): 16 x 144 + 4 x 3 +
  // 4 + 147 = 2,467.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 2467);
  // A wrong vision model type and a missing projector size are refused, naming the field.
  std::string wrong = text;
  wrong.replace(wrong.find("llama4_vision_model"), 19, "siglip_vision_model");
  CHECK_THROWS_WITH_AS(parse_hf_config(wrong), doctest::Contains("vision_config.model_type"), ConfigError);
  std::string missing = text;
  missing.replace(missing.find("\"vision_output_dim\":4096"), 24, "\"x\":1");
  CHECK_THROWS_WITH_AS(parse_hf_config(missing), doctest::Contains("vision_output_dim"), ConfigError);
  // A ratio so small that 1 / ratio^2 overflows is refused, naming the field, before any integer conversion.
  std::string tiny = text;
  tiny.replace(tiny.find("\"pixel_shuffle_ratio\":0.5"), 25, "\"pixel_shuffle_ratio\":1e-200");
  CHECK_THROWS_WITH_AS(parse_hf_config(tiny), doctest::Contains("vision_config.pixel_shuffle_ratio"), ConfigError);
}
