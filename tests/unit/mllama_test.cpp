// SPDX-License-Identifier: MIT
// Llama 3.2 Vision (mllama): the language model with its cross-attention layers, the vision tower
// and projector (cited in core/src/config/config_mllama.cpp), counted module by module against the
// published total; the image tokens its processor cuts; the cross-attention cache held once per
// sequence (and Whisper's, fixed at its encoder frames); the refusals. Expected values are hand
// calculations, never the code's output.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string eleven_b() {
  return test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.2-11B-Vision-Instruct.json");
}

// A small mllama config: 4 text layers (layer 1 cross-attends), a 2 + 1 layer tower of 64.
std::string tiny(const std::string& cross_layers = "[1]", const std::string& vision_extra = "") {
  return R"({"model_type":"mllama","text_config":{"model_type":"mllama_text_model","hidden_size":64,
    "intermediate_size":128,"num_hidden_layers":4,"num_attention_heads":4,"num_key_value_heads":2,
    "vocab_size":1000,"tie_word_embeddings":false,"cross_attention_layers":)" +
         cross_layers + R"(},"vision_config":{"model_type":"mllama_vision_model","hidden_size":64,
    "intermediate_size":128,"num_hidden_layers":2,"num_global_layers":1,"attention_heads":4,"image_size":28,
    "patch_size":14,"max_num_tiles":4,"intermediate_layers_indices":[1],"vision_output_dim":128)" +
         vision_extra + "}}";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("mllama: Llama-3.2-11B-Vision counted module by module is the published 10,670,220,835") {
  // Published: 10,670,220,835 parameters (MANIFEST.tsv). By hand, per modeling_mllama.py:
  // Text (hidden 4,096, 32 heads of 128, 8 kv heads, MLP 14,336, 40 layers, 8 of them cross-attention):
  //   embed_tokens (128,256 + 8) x 4,096 = 525,369,344; lm_head 128,256 x 4,096 = 525,336,576.
  //   attention per layer q 4,096^2 = 16,777,216 + k and v 1,024 x 4,096 = 4,194,304 each + o 16,777,216
  //   = 41,943,040; 40 layers 1,677,721,600; the cross layers' q_norm and k_norm 8 x 2 x 128 = 2,048:
  //   1,677,723,648.
  //   MLP 3 x 4,096 x 14,336 = 176,160,768; 40 layers 7,046,430,720.
  //   norms 40 x 2 x 4,096 + 4,096 (final) = 331,776, and the tanh gates 8 x 2 = 16: 331,792.
  //   text total 9,775,192,080 (a cross layer is 2 x 128 + 2 = 258 more than a self-attention one).
  // Vision (hidden 1,280, MLP 5,120, 32 local + 8 global layers, tiles of 560 / 14 = 40 patches a side:
  // 1,601 positions with the class token, 4 tiles, 8 aspect ratios: 9 table rows):
  //   patch_embedding 1,280 x 3 x 14 x 14 = 752,640; class_embedding 1,280;
  //   gated_positional_embedding 1 + 1,601 x 1,280 + 9 x 4 x 1,601 x 1,280 = 1 + 2,049,280 + 73,774,080
  //   = 75,823,361; pre_ and post_tile_positional_embedding 2 x (9 x 4 x 1,280 + 1) = 92,162;
  //   layernorm_pre and _post 2 x 2,560 = 5,120;
  //   layer 4 x 1,280^2 = 6,553,600 + fc1 1,280 x 5,120 + 5,120 = 6,558,720 + fc2 5,120 x 1,280 + 1,280 =
  //   6,554,880 + 2 LayerNorms 5,120 = 19,672,320; 32 local 629,514,240; 8 global (+ 2 gates each)
  //   157,378,576; tower 863,567,379.
  // Projector Linear(7,680, 4,096) with bias: 31,457,280 + 4,096 = 31,461,376.
  const ModelDescription model = parse_hf_config(eleven_b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.breakdown.embedding == 525'369'344);
  CHECK(count.breakdown.lm_head == 525'336'576);
  CHECK(count.breakdown.attention == 1'677'723'648);
  CHECK(count.breakdown.mlp == 7'046'430'720);
  CHECK(count.breakdown.norms == 331'792);
  CHECK(count.total == 9'775'192'080);
  CHECK(752'640 + 1'280 + 75'823'361 + 92'162 + 5'120 + 629'514'240 + 157'378'576 == 863'567'379);
  CHECK(count.vision_tower == 863'567'379);
  CHECK(count.multimodal_projector == 31'461'376);
  CHECK(count.total_with_vision() == 10'670'220'835);
  CHECK(model.parameter_count_exact());
  CHECK(model.num_layers == 40);
  REQUIRE(model.layer_kinds.size() == 2);
  const LayerShape& cross = model.layer_kinds[model.layer_kind_of_layer[3]];
  CHECK(cross.layer_count == 8);
  CHECK(cross.attention.cross_attention);
  CHECK_FALSE(cross.attention.self_attention);
  CHECK(model.layer_kinds[model.layer_kind_of_layer[0]].layer_count == 32);
}

TEST_CASE("mllama: a bare mllama_text_model config is the language model alone") {
  std::string text = eleven_b();
  const auto start = text.find("\"text_config\": {") + std::string("\"text_config\": ").size();
  const auto end = text.find("\n  },", start);
  const std::string text_config = text.substr(start, end - start + 4);
  const ModelDescription model = parse_hf_config(text_config);
  CHECK(model.model_type == "mllama_text_model");
  CHECK_FALSE(model.vision.has_value());
  CHECK(count_parameters(model).total == 9'775'192'080);
}

TEST_CASE("mllama: image tokens are the tiles of the best-fit canvas, 1,601 each") {
  const ModelDescription model = parse_hf_config(eleven_b());
  REQUIRE(model.vision.has_value());
  // 1,024 x 1,024: canvases of 560-pixel tiles; only 2 x 2 (1,120 x 1,120) upscales (by 1.09): 4 tiles.
  CHECK(image_tokens(*model.vision, 1024, 1024) == 4 * 1601);
  // 560 x 560: every canvas of one tile high and wide scales by 1; the least area is 1 x 1.
  CHECK(image_tokens(*model.vision, 560, 560) == 1601);
  // 1,120 wide x 560 high: 1 high x 2 wide scales by 1, the least area of those: 2 tiles.
  CHECK(image_tokens(*model.vision, 1120, 560) == 2 * 1601);
  // 100 x 100: the 1 x 1 canvas upscales least (5.6).
  CHECK(image_tokens(*model.vision, 100, 100) == 1601);
}

TEST_CASE("mllama: cross-attention layers cache the images' tokens once per sequence, none per text token") {
  // Llama-3.2-11B-Vision, bf16 cache, batch 1, context 4,096, one 1,024 x 1,024 image:
  //   self-attention: 32 layers x 8 kv heads x (128 + 128) x 2 B = 4,096 B per token per layer;
  //   the context is 4,096 + 1 (the <|image|> token) = 4,097 tokens: 32 x 4,096 x 4,097 = 537,001,984 B.
  //   cross-attention: 8 layers x 2 x 8 x 128 x 2 B = 4,096 B per image token, 4 x 1,601 = 6,404 tokens:
  //   8 x 4,096 x 6,404 = 209,846,272 B, whatever the context.
  const std::string config = eleven_b();
  const InferenceEstimate with_image = estimate_inference(config, {{"context", "4096"}, {"images", "1"}});
  CHECK(with_image.image_tokens == 6404);
  CHECK(with_image.workload.cross_attention_tokens == 6404);
  CHECK(with_image.workload.context_tokens == 4097);
  CHECK(with_image.memory.kv_cache.bytes_per_token == 32 * 4096);
  CHECK(with_image.memory.kv_cache.cross_bytes_per_sequence == 209'846'272);
  CHECK(with_image.memory.totals.kv_cache_bytes == 537'001'984 + 209'846'272);
  // The cross term says what it is.
  bool cross_term = false;
  for (const KvCacheLayerTerm& term : with_image.memory.kv_cache.terms)
    if (term.cross_bytes_per_sequence_per_layer > 0) {
      cross_term = true;
      CHECK(term.layers == 8);
      CHECK(term.cross_source_tokens_per_sequence == 6404);
      CHECK(term.cross_bytes_per_sequence_per_layer == 4096 * 6404);
      CHECK(term.bytes == 209'846'272);
      CHECK(term.formula.find("fixed per sequence") != std::string::npos);
    }
  CHECK(cross_term);
  const std::string json = inference_report_json(with_image);
  CHECK(json.find("\"cross_bytes_per_sequence\":209846272") != std::string::npos);
  CHECK(json.find("\"cross_attention_tokens\":6404") != std::string::npos);
  // A longer context grows the self-attention cache only; batch 2 doubles both.
  const InferenceEstimate longer = estimate_inference(config, {{"context", "8192"}, {"images", "1"}});
  CHECK(longer.memory.totals.kv_cache_bytes == 32 * 4096 * 8193 + 209'846'272);
  const InferenceEstimate two = estimate_inference(config, {{"context", "4096"}, {"images", "1"}, {"batch", "2"}});
  CHECK(two.memory.totals.kv_cache_bytes == 2 * (537'001'984 + 209'846'272));
  // Without images the cross-attention layers hold nothing.
  const InferenceEstimate text_only = estimate_inference(config, {{"context", "4096"}});
  CHECK(text_only.memory.totals.kv_cache_bytes == 32 * 4096 * 4096);
  CHECK(text_only.memory.kv_cache.cross_bytes_per_sequence == 0);
  // Tensor parallel 4: 2 of the 8 kv heads per rank, a quarter of both caches.
  const InferenceEstimate tp4 = estimate_inference(config, {{"context", "4096"}, {"images", "1"}, {"tp", "4"}});
  CHECK(tp4.memory.totals.kv_cache_bytes == (537'001'984 + 209'846'272) / 4);
}

TEST_CASE("mllama: images make prefill and decode slower through the cross-attention layers") {
  const std::string config = eleven_b();
  const InferenceEstimate text = estimate_inference(config, {{"context", "4096"}, {"gpu", "h100"}});
  const InferenceEstimate image = estimate_inference(config, {{"context", "4096"}, {"gpu", "h100"}, {"images", "2"}});
  REQUIRE(text.on_gpu.has_value());
  REQUIRE(image.on_gpu.has_value());
  const LatencyTotals& t = text.on_gpu->latency.explanation.estimate.totals;
  const LatencyTotals& i = image.on_gpu->latency.explanation.estimate.totals;
  // 2 x 6,404 image tokens: projected once into 8 layers' keys and values in prefill, read at every step.
  CHECK(i.prefill_seconds > t.prefill_seconds);
  CHECK(i.decode_step_first_seconds > t.decode_step_first_seconds);
}

TEST_CASE("whisper: the decoder's cross-attention cache is the encoder's 1,500 frames, whatever the context") {
  // whisper-large-v2 shapes (d_model 1,280, 20 heads of 64, 32 decoder layers), bf16, batch 1:
  //   self-attention 20 x (64 + 64) x 2 B = 5,120 B per token per layer, 32 layers x 448 tokens = 73,400,320 B;
  //   cross-attention 5,120 B x 1,500 frames x 32 layers = 245,760,000 B per sequence.
  const std::string config = test::read_file(test::fixture_configs_dir() + "/TalTechNLP--whisper-large-et.json");
  const InferenceEstimate full = estimate_inference(config, {{"context", "448"}});
  CHECK(full.memory.kv_cache.bytes_per_token == 32 * 5120);
  CHECK(full.memory.kv_cache.cross_bytes_per_sequence == 245'760'000);
  CHECK(full.memory.totals.kv_cache_bytes == 73'400'320 + 245'760'000);
  const InferenceEstimate shorter = estimate_inference(config, {{"context", "100"}});
  CHECK(shorter.memory.totals.kv_cache_bytes == 32 * 5120 * 100 + 245'760'000);
}

TEST_CASE("mllama: a small config counts as its modules") {
  // Text: embed (1,000 + 8) x 64 = 64,512; lm_head 64,000; attention q 64^2 + k, v 32 x 64 each + o 64^2
  //   = 12,288 per layer, 4 layers 49,152, plus the cross layer's q/k norms 2 x 16 = 32; MLP 3 x 64 x 128
  //   = 24,576 x 4 = 98,304; norms 4 x 128 + 64 = 576 and 2 gates.
  // Vision (64 wide, tiles of 28 / 14 = 2 patches a side: 5 positions, 4 tiles, 8 aspect ratios -> 9 rows):
  //   patch 64 x 3 x 196 = 37,632; class 64; positions 1 + 5 x 64 + 9 x 4 x 5 x 64 = 1 + 320 + 11,520;
  //   tile tables 2 x (9 x 4 x 64 + 1) = 4,610; layernorms 256; layer 4 x 4,096 + 64 x 128 + 128 +
  //   128 x 64 + 64 + 256 = 33,216; 2 local 66,432, 1 global 33,218.
  //   Projector 128 x 64 + 64 = 8,256.
  const ParameterCount count = count_parameters(parse_hf_config(tiny()));
  CHECK(count.total == 64'512 + 64'000 + 49'152 + 32 + 98'304 + 576 + 2);
  CHECK(count.vision_tower == 37'632 + 64 + 1 + 320 + 11'520 + 4'610 + 256 + 66'432 + 33'218);
  CHECK(count.multimodal_projector == 8'256);
}

TEST_CASE("mllama: a malformed cross_attention_layers or vision field is refused, naming the field") {
  CHECK(test::config_error_field(tiny("[1, 4]")) == "text_config.cross_attention_layers");  // 4 layers: 0-3
  CHECK(test::config_error_field(tiny("[-1]")) == "text_config.cross_attention_layers");
  CHECK(test::config_error_field(tiny("[1, 1]")) == "text_config.cross_attention_layers");
  CHECK(test::config_error_field(tiny("3")) == "text_config.cross_attention_layers");  // not a list
  CHECK(test::config_error_field(tiny("[\"1\"]")) == "text_config.cross_attention_layers");
  // The projector reads hidden x (1 + intermediate layers) = 128 features, not 192.
  CHECK(test::config_error_field(replaced(tiny(), R"("vision_output_dim":128)", R"("vision_output_dim":192)")) ==
        "vision_config.vision_output_dim");
  CHECK(test::config_error_field(
            replaced(tiny(), R"("intermediate_layers_indices":[1])", R"("intermediate_layers_indices":[3])")) ==
        "vision_config.intermediate_layers_indices");
  // MllamaVisionConfig has default aspect ratios for 4 tiles only.
  CHECK(test::config_error_field(replaced(tiny(), R"("max_num_tiles":4)", R"("max_num_tiles":6)")) ==
        "vision_config.supported_aspect_ratios");
  CHECK(test::config_error_field(replaced(tiny(), R"("mllama_vision_model")", R"("clip_vision_model")")) ==
        "vision_config.model_type");
  // The class default of 8 cross-attention layers (3 ... 38) needs 39 layers at least.
  CHECK(test::config_error_field(replaced(tiny(), R"(,"cross_attention_layers":[1])", "")) ==
        "text_config.cross_attention_layers");
  // No longer refused by name.
  CHECK(test::config_error_field(tiny()) == "(no error)");
}
