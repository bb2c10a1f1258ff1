// SPDX-License-Identifier: MIT
// Gemma 3n's language model: per-layer embeddings, AltUp, LAuReL, MatFormer widths and KV-sharing
// layers (the towers: gemma3n_towers_test.cpp), each count written out by hand from
// huggingface/transformers@00aa0f5dc1cc src/transformers/models/gemma3n/modeling_gemma3n.py (cited in
// core/src/config/config_gemma3n.cpp and core/src/model/params_gemma3n.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string refused_field(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.field();
  }
  return "";
}

// hidden 8, 4 layers, 2 heads of 4, 1 key/value head, MatFormer widths 16/32/16/32, per-layer inputs
// of 2 from a 6-row table, 2 AltUp streams, LAuReL rank 3, the last layer sharing KV.
std::string tiny(const std::string& extra) {
  return R"({"model_type": "gemma3n_text", "hidden_size": 8, "num_hidden_layers": 4, "num_attention_heads": 2,
    "num_key_value_heads": 1, "head_dim": 4, "vocab_size": 10, "sliding_window": 16,
    "hidden_size_per_layer_input": 2, "vocab_size_per_layer_input": 6, "altup_num_inputs": 2,
    "laurel_rank": 3, "tie_word_embeddings": true)" +
         extra + "}";
}

}  // namespace

TEST_CASE("gemma-3n-E2B: the language model module by module, shared layers cache no KV") {
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/google--gemma-3n-E2B-it.json"));
  CHECK(model.parameter_count_exact());
  const ParameterCount count = count_parameters(model);
  // Gemma3nTextModel (hidden 2048, 30 layers, per-layer inputs 256, AltUp 4 streams, LAuReL rank 64):
  //   embed_tokens 262,400 x 2,048 = 537,395,200 (tied lm_head);
  //   embed_tokens_per_layer 262,144 x (30 x 256) = 2,013,265,920;
  //   per_layer_model_projection 2,048 x 7,680 = 15,728,640; per_layer_projection_norm 256;
  //   altup_projections and altup_unembed_projections 2 x 3 x 2,048^2 = 25,165,824; norm 2,048.
  // Gemma3nTextDecoderLayer:
  //   q 2,048 x 2,048 = 4,194,304, k and v 2,048 x 512 = 1,048,576 each, o 4,194,304, q_norm and
  //   k_norm 256 each: 10,486,272;
  //   MLP gate/up/down 3 x 2,048 x 8,192 = 50,331,648; four layer norms 8,192;
  //   AltUp: correct_output_scale 2,048, correction_coefs 4 x 4 = 16, prediction_coefs 4 x 16 = 64,
  //   modality_router 2,048 x 4 = 8,192, router_norm 2,048: 12,368;
  //   LAuReL: linear_left and linear_right 2 x 2,048 x 64 = 262,144, post_laurel_norm 2,048: 264,192;
  //   per_layer_input_gate and per_layer_projection 2 x 2,048 x 256 = 1,048,576,
  //   post_per_layer_input_norm 2,048: 1,050,624.
  //   Per layer 62,153,296; 30 layers 1,864,598,880.
  // Total 537,395,200 + 2,013,265,920 + 15,728,640 + 256 + 25,165,824 + 2,048 + 1,864,598,880.
  CHECK(count.total == 4'456'156'768);
  CHECK(count.breakdown.embedding == 537'395'200LL + 2'013'265'920);
  CHECK(count.breakdown.attention == 30 * 10'486'272);
  CHECK(count.breakdown.mlp == 30LL * (50'331'648 + 262'144 + 1'048'576) + 15'728'640 + 25'165'824);
  CHECK(count.breakdown.router == 30 * (16 + 64 + 8'192));
  CHECK(count.breakdown.norms == 30 * (8'192 + 2'048 + 3 * 2'048) + 256 + 2'048);
  CHECK(count.breakdown.lm_head == 0);
  // Without both embedding tables: 1,905,495,648, Google's "1.91B" effective parameters of E2B
  // (ai.google.dev/gemma/docs/gemma-3n, a rounded figure).
  CHECK(count.non_embedding == 1'905'495'648);
  // The towers are counted apart (gemma3n_towers_test.cpp).
  CHECK(model.vision);
  CHECK(model.audio);

  // num_kv_shared_layers 10: layers 20-29 cache nothing; layers 0-19 cache 2 heads x (256 + 256)
  // values of 2 bytes, 2,048 bytes per token each.
  std::int64_t per_token = 0;
  for (std::size_t i = 0; i < model.layer_kind_of_layer.size(); ++i) {
    const LayerShape& layer = model.layer_kinds[model.layer_kind_of_layer[i]];
    CHECK(layer.kv_shared == (i >= 20));
    CHECK(layer.attention.sliding_window == ((i + 1) % 5 == 0 ? 0 : 512));
    per_token += kv_cache_bytes_per_token_per_layer(layer, KvCacheDtype::bf16);
  }
  CHECK(per_token == 20 * 2'048);
}

TEST_CASE("Gemma 3n: one MLP width per layer, default layer types, the last layers sharing KV") {
  const ModelDescription model = parse_hf_config(tiny(R"(, "intermediate_size": [16, 32, 16, 32],
    "num_kv_shared_layers": 1)"));
  // Model: embed_tokens 10 x 8 = 80; embed_tokens_per_layer 6 x (4 x 2) = 48; per_layer_model_projection
  // 8 x 8 = 64; per_layer_projection_norm 2; one altup projection and one unembed projection 2 x 64 = 128;
  // norm 8: 330.
  // Each layer: q 8 x 8 = 64, k and v 8 x 4 = 32 each, o 64, q/k norms 4 each: 200;
  // four norms 32; AltUp 8 + 2 x 2 + 2 x 4 + 8 x 2 + 8 = 44; LAuReL 2 x 8 x 3 + 8 = 56; per-layer input
  // 2 x 8 x 2 + 8 = 40: 372. MLPs 3 x 8 x (16 + 32 + 16 + 32) = 2,304.
  CHECK(count_parameters(model).total == 330 + 4 * 372 + 2'304);
  CHECK(test::mentions(model.assumptions, "layer_types absent"));
  for (std::size_t i = 0; i < 4; ++i) {
    const LayerShape& layer = model.layer_kinds[model.layer_kind_of_layer[i]];
    CHECK(layer.attention.sliding_window == 16);  // the 5th layer would be the first full one
    CHECK(layer.mlp.intermediate_size == (i % 2 == 0 ? 16 : 32));
    CHECK(layer.kv_shared == (i == 3));
  }
}

TEST_CASE("Gemma 3n: missing or contradictory fields are refused by name") {
  CHECK(refused_field(tiny(R"(, "intermediate_size": 16)")) == "num_kv_shared_layers");
  CHECK(refused_field(tiny(R"(, "intermediate_size": [16, 32], "num_kv_shared_layers": 1)")) == "intermediate_size");
  CHECK(refused_field(tiny(R"(, "intermediate_size": 16, "num_kv_shared_layers": 4)")) == "num_kv_shared_layers");
  const std::string no_laurel = R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text",
    "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1, "vocab_size": 10,
    "intermediate_size": 16, "hidden_size_per_layer_input": 2, "vocab_size_per_layer_input": 6,
    "altup_num_inputs": 2, "num_kv_shared_layers": 0, "layer_types": ["full_attention"]}})";
  CHECK(refused_field(no_laurel) == "text_config.laurel_rank");
}
