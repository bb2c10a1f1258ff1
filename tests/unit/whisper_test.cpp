// SPDX-License-Identifier: MIT
// Whisper: the audio encoder stem, the encoder and decoder stacks (cited in
// core/src/config/config_whisper.cpp), counted against published figures, the KV cache of its
// decoder, and the refusals. Expected values are hand calculations, never the code's output.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The shape fields of an openai/whisper-* config.json (WhisperConfig names).
std::string whisper(std::int64_t d_model, std::int64_t encoder_layers, std::int64_t decoder_layers, std::int64_t heads,
                    std::int64_t mel_bins, std::int64_t vocab, const std::string& extra = "") {
  const std::string ffn = std::to_string(4 * d_model), h = std::to_string(heads);
  return R"({"model_type":"whisper","architectures":["WhisperForConditionalGeneration"],"d_model":)" +
         std::to_string(d_model) + R"(,"encoder_layers":)" + std::to_string(encoder_layers) + R"(,"decoder_layers":)" +
         std::to_string(decoder_layers) + R"(,"encoder_attention_heads":)" + h + R"(,"decoder_attention_heads":)" + h +
         R"(,"encoder_ffn_dim":)" + ffn + R"(,"decoder_ffn_dim":)" + ffn + R"(,"num_mel_bins":)" +
         std::to_string(mel_bins) + R"(,"vocab_size":)" + std::to_string(vocab) +
         R"(,"max_source_positions":1500,"max_target_positions":448)" + extra + "}";
}

// By hand, per modeling_whisper.py: WhisperAttention 4 x d^2 + 3 x d (q, v, out biases; k has none);
// fc1 and fc2 2 x d x 4d + 4d + d; LayerNorm 2 x d. Encoder layer: attention, MLP, 2 norms; decoder
// layer: self and cross attention, MLP, 3 norms. Stem: conv1 d x mels x 3 + d, conv2 d x d x 3 + d,
// positions 1500 x d. Decoder: tokens vocab x d, positions 448 x d (proj_out tied). Two final norms.
std::int64_t hand_count(std::int64_t d, std::int64_t encoder_layers, std::int64_t decoder_layers, std::int64_t mel_bins,
                        std::int64_t vocab) {
  const std::int64_t attention = 4 * d * d + 3 * d, mlp = 8 * d * d + 5 * d, norm = 2 * d;
  const std::int64_t stem = d * mel_bins * 3 + d + d * d * 3 + d + 1500 * d;
  const std::int64_t encoder = encoder_layers * (attention + mlp + 2 * norm);
  const std::int64_t decoder = decoder_layers * (2 * attention + mlp + 3 * norm);
  return stem + encoder + decoder + vocab * d + 448 * d + 2 * norm;
}

using test::config_error_field;

}  // namespace

TEST_CASE("whisper: whisper-large-et (whisper-large-v2 shapes) counted module by module is 1,543,304,960") {
  // Published: openai/whisper-large-v2, 1,543,304,960 (keras-team/keras-hub@71453d08
  // keras_hub/src/models/whisper/whisper_presets.py whisper_large_multi_v2 "params"); TalTechNLP's
  // fine-tune has the same shapes (d_model 1280, 32 + 32 layers, 20 heads, ffn 5120, 80 mel bins,
  // vocabulary 51865); its pytorch_model.bin, 6,173,637,880 B, is 4 B x 1,543,304,960 + 418,040 B of
  // pickle framing.
  // By hand: conv1 1,280 x 80 x 3 = 307,200 and conv2 1,280 x 1,280 x 3 = 4,915,200 and their biases
  //   2,560; encoder positions 1,500 x 1,280 = 1,920,000; tokens 51,865 x 1,280 = 66,387,200; decoder
  //   positions 448 x 1,280 = 573,440 -> embedding 74,105,600.
  // Attention 4 x 1,280^2 + 3 x 1,280 = 6,557,440: 32 encoder + 64 decoder blocks = 629,514,240.
  // MLP 2 x 1,280 x 5,120 + 5,120 + 1,280 = 13,113,600, 64 layers = 839,270,400.
  // Norms 32 x 2 x 2,560 + 32 x 3 x 2,560 + 2 x 2,560 = 414,720.
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/TalTechNLP--whisper-large-et.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.breakdown.embedding == 74'105'600);
  CHECK(count.breakdown.attention == 629'514'240);
  CHECK(count.breakdown.mlp == 839'270'400);
  CHECK(count.breakdown.norms == 414'720);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(count.total == 74'105'600 + 629'514'240 + 839'270'400 + 414'720);
  CHECK(count.total == 1'543'304'960);
  CHECK(hand_count(1280, 32, 32, 80, 51865) == 1'543'304'960);
  CHECK(model.num_layers == 64);
  CHECK(model.max_position_embeddings == 448);
  CHECK(model.parameter_count_exact());
}

TEST_CASE("whisper: tiny, large-v3 and large-v3-turbo match their published counts") {
  // whisper-tiny 37,760,640 (keras-hub whisper_presets.py whisper_tiny_multi "params");
  // whisper-large-v3 1,543,490,560 and whisper-large-v3-turbo 808,878,080 (HF Hub API safetensors.total
  // as transcribed in GitHub HBX814/AmazonMLChallenge@8f86b1665c30 audit_compliance.py KNOWN_MODELS).
  CHECK(hand_count(384, 4, 4, 80, 51865) == 37'760'640);
  CHECK(count_parameters(parse_hf_config(whisper(384, 4, 4, 6, 80, 51865))).total == 37'760'640);
  // large-v3: 128 mel bins (conv1 +48 x 1,280 x 3) and one more token (+1,280) than large-v2.
  CHECK(hand_count(1280, 32, 32, 128, 51866) == 1'543'490'560);
  CHECK(count_parameters(parse_hf_config(whisper(1280, 32, 32, 20, 128, 51866, R"(,"num_hidden_layers":32)"))).total ==
        1'543'490'560);
  // turbo: the large-v3 encoder with 4 decoder layers (28 x 26,236,160 fewer).
  CHECK(hand_count(1280, 32, 4, 128, 51866) == 808'878'080);
  CHECK(count_parameters(parse_hf_config(whisper(1280, 32, 4, 20, 128, 51866))).total == 808'878'080);
  // An untied proj_out adds vocab x d_model.
  const std::string untied = whisper(384, 4, 4, 6, 80, 51865, R"(,"tie_word_embeddings":false)");
  CHECK(count_parameters(parse_hf_config(untied)).total == 37'760'640 + 51'865 * 384);
}

TEST_CASE("whisper: the decoder caches self-attention keys and values per token; the encoder caches none") {
  // Per decoder layer and token: 20 heads x (64 + 64) = 2,560 values for self-attention, 2 B each in
  // bf16: 5,120 B; 32 layers: 163,840 B. The cross-attention keys and values are the encoder's 1,500
  // frames, held once per sequence (mllama_test.cpp), not per token.
  const ModelDescription model = parse_hf_config(whisper(1280, 32, 32, 20, 128, 51866));
  std::int64_t encoder_bytes = 0, decoder_bytes = 0;
  for (const LayerShape& kind : model.layer_kinds) {
    const std::int64_t bytes = kv_cache_bytes_per_token_per_layer(kind, KvCacheDtype::bf16) * kind.layer_count;
    (kind.is_encoder ? encoder_bytes : decoder_bytes) += bytes;
  }
  CHECK(encoder_bytes == 0);
  CHECK(decoder_bytes == 32 * 5'120);
  // 1,280 wide: 2,560 values of 2 B per frame and layer.
  for (const LayerShape& kind : model.layer_kinds)
    CHECK(cross_kv_bytes_per_source_token_per_layer(kind, KvCacheDtype::bf16) == (kind.is_encoder ? 0 : 5'120));
}

TEST_CASE("whisper: missing or contradictory fields are refused, naming the field") {
  const std::string tiny = whisper(384, 4, 4, 6, 80, 51865);
  auto without = [&](const std::string& key) {
    std::string text = tiny;
    const auto at = text.find("\"" + key + "\"");
    const auto comma = text.find(',', at);
    if (comma != std::string::npos) return text.erase(at, comma - at + 1);
    return text.erase(at - 1, text.rfind('}') - at + 1);  // the last key: its leading comma too
  };
  CHECK(config_error_field(without("num_mel_bins")) == "num_mel_bins");
  CHECK(config_error_field(without("max_source_positions")) == "max_source_positions");
  CHECK(config_error_field(without("decoder_layers")) == "decoder_layers");
  CHECK(config_error_field(without("encoder_ffn_dim")) == "encoder_ffn_dim");
  CHECK(config_error_field(without("max_target_positions")) == "max_target_positions");
  // WhisperConfig's num_hidden_layers is encoder_layers.
  CHECK(config_error_field(whisper(384, 4, 4, 6, 80, 51865, R"(,"num_hidden_layers":5)")) == "num_hidden_layers");
  // 384 is not divisible by 5 heads.
  CHECK(config_error_field(whisper(384, 4, 4, 5, 80, 51865)) == "encoder_attention_heads");
}
