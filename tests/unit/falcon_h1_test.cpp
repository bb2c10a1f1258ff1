// SPDX-License-Identifier: MIT
// Falcon-H1: attention and a Mamba-2 mixer side by side in every layer. Counts against the published
// figures, the KV cache and the Mamba state every layer keeps, and the refusals. Expected values are
// hand calculations from the modeling code (cited in core/src/config/config_falcon_h1.cpp), never the
// code's output.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The shape fields of tiiuae/Falcon-H1-0.5B's config.json as a public Megatron-Bridge test quotes them
// (tests/fixtures/configs/README.md): hidden 1024, 36 layers, 8 query and 2 key/value heads of 64,
// intermediate 2048, Mamba-2 24 heads of 64, state 128, 1 group, kernel 4, conv bias, no projection
// biases, no gated norm (mamba_rms_norm false), vocabulary 32784, untied. mamba_d_ssm (not in that
// quote) is 24 x 64 = 1536, the only value FalconH1Config accepts with those heads.
std::string falcon_h1_0_5b(const std::string& mixer = R"("mamba_d_ssm":1536,"mamba_d_head":64,"mamba_n_groups":1)") {
  return R"({"architectures":["FalconH1ForCausalLM"],"model_type":"falcon_h1","attention_bias":false,
    "head_dim":64,"hidden_size":1024,"intermediate_size":2048,"mamba_chunk_size":128,"mamba_conv_bias":true,
    "mamba_d_conv":4,"mamba_d_state":128,"mamba_expand":2,"mamba_n_heads":24,
    "mamba_norm_before_gate":false,"mamba_proj_bias":false,"mamba_rms_norm":false,"max_position_embeddings":16384,
    "mlp_bias":false,"num_attention_heads":8,"num_hidden_layers":36,"num_key_value_heads":2,"projectors_bias":false,
    "rope_theta":100000000000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32784,)" +
         mixer + "}";
}

// Falcon-H1-7B's shape fields as public test code quotes its config.json (hidden 3072, 44 layers, 12
// query and 2 key/value heads of 128, intermediate 12288, Mamba-2 24 heads of 128 = mamba_d_ssm 3072,
// state 256, 1 group, kernel 4, vocabulary 130048, untied) and mamba_rms_norm true, which a public
// GGUF loader for Falcon-H1R-7B (the same shapes) sets as "actual trained model uses True".
const char* const falcon_h1_7b = R"({"model_type":"falcon_h1","hidden_size":3072,"num_hidden_layers":44,
  "num_attention_heads":12,"num_key_value_heads":2,"head_dim":128,"intermediate_size":12288,"vocab_size":130048,
  "tie_word_embeddings":false,"mamba_d_state":256,"mamba_n_groups":1,"mamba_n_heads":24,"mamba_d_head":128,
  "mamba_d_ssm":3072,"mamba_expand":2,"mamba_d_conv":4,"mamba_chunk_size":128,"mamba_rms_norm":true,
  "max_position_embeddings":262144})";

using test::config_error;

}  // namespace

TEST_CASE("falcon_h1: Falcon-H1-0.5B counted layer by layer matches the published 521,411,104") {
  // Published: 521,411,104 parameters of tiiuae/Falcon-H1-0.5B-Base loaded in transformers
  // ("Measured: 521,411,104 params (100% bfloat16)"), as public model-probe notes and a public
  // paper draft print it (tests/fixtures/configs/README.md).
  // By hand (FalconH1DecoderLayer):
  //   attention q 512 x 1,024, k and v 128 x 1,024, o 1,024 x 512 -> 1,310,720;
  //   mixer: conv channels 1,536 + 2 x 128 = 1,792; in_proj (1,536 + 1,792 + 24) x 1,024 = 3,432,448;
  //     conv1d 1,792 x 4 + 1,792 bias = 8,960; dt_bias, A_log, D 3 x 24 = 72; no gated norm;
  //     out_proj 1,024 x 1,536 = 1,572,864 -> 5,014,344;
  //   MLP gate, up, down 3 x 2,048 x 1,024 = 6,291,456; input_layernorm and pre_ff_layernorm 2,048.
  // embed_tokens and lm_head 32,784 x 1,024 = 33,570,816 each; final_layernorm 1,024.
  const std::int64_t attention = 1'310'720, mixer = 5'014'344, mlp = 6'291'456;
  const std::int64_t expected = 36 * (attention + mixer + mlp + 2'048) + 2 * 33'570'816 + 1'024;
  CHECK(expected == 521'411'104);
  const ModelDescription model = parse_hf_config(falcon_h1_0_5b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.attention == 36 * attention);
  CHECK(count.breakdown.ssm == 36 * mixer);
  CHECK(count.breakdown.mlp == 36 * mlp);
  CHECK(model.layer_kinds.size() == 1);
  CHECK(model.parameter_count_exact());
  CHECK(model.assumptions.empty());
}

TEST_CASE("falcon_h1: Falcon-H1-7B with its gated norm matches the published 7,585,648,736") {
  // Published: 7,585,648,736 parameters of tiiuae/Falcon-H1-7B-Base loaded in transformers, as a public
  // paper draft lists it (tests/fixtures/configs/README.md).
  // By hand: attention q 1,536 x 3,072, k and v 256 x 3,072, o 3,072 x 1,536 -> 11,010,048;
  //   mixer: conv channels 3,072 + 512 = 3,584; in_proj (3,072 + 3,584 + 24) x 3,072 = 20,520,960;
  //     conv1d 3,584 x 4 + 3,584 = 17,920; 3 x 24 = 72; FalconH1RMSNormGated 3,072;
  //     out_proj 3,072 x 3,072 = 9,437,184 -> 29,979,208;
  //   MLP 3 x 12,288 x 3,072 = 113,246,208; norms 6,144.
  // embed_tokens and lm_head 130,048 x 3,072 = 399,507,456 each; final_layernorm 3,072.
  const std::int64_t layer = 11'010'048 + 29'979'208 + 113'246'208 + 6'144;
  const std::int64_t expected = 44 * layer + 2 * 399'507'456 + 3'072;
  CHECK(expected == 7'585'648'736);
  CHECK(count_parameters(parse_hf_config(falcon_h1_7b)).total == expected);
}

TEST_CASE("falcon_h1: every layer keeps its KV cache and its Mamba-2 state") {
  // FalconHybridMambaAttentionDynamicCache: per layer conv_states (batch, 1,536 + 2 x 128, 4) = 7,168
  // values and ssm_states (batch, 24, 64, 128) = 196,608 values: 203,776 x 2 B = 407,552 B; 36 layers:
  // 14,671,872 B per sequence. Keys and values of every layer: 36 x 2 x 2 heads x 64 x 2 B = 18,432 B
  // per token.
  const ModelDescription model = parse_hf_config(falcon_h1_0_5b());
  const LayerShape& layer = model.layer_kinds[0];
  REQUIRE(layer.is_ssm());
  REQUIRE(layer.has_attention());
  CHECK(ssm_state_bytes_per_sequence_per_layer(layer, 2) == 407'552);
  InferenceWorkload w;
  w.batch_size = 3;
  w.context_tokens = 2048;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 18'432);
  CHECK(figure.state_bytes_per_sequence == 14'671'872);
  CHECK(figure.bytes == 3 * (14'671'872LL + 18'432LL * 2048));

  const InferenceEstimate e = estimate_inference(falcon_h1_0_5b(), {{"gpu", "h100"}, {"batch", "2"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 14'671'872);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(std::isfinite(t.decode_total_seconds));
}

TEST_CASE("falcon_h1: biases, the gated norm and FalconH1Config's defaults on a small model") {
  // hidden 32, 2 layers, 4 heads of 8 with 2 kv heads, MLP 48; mixer mamba_d_ssm 64 as 4 heads of
  // "auto" = 16, 2 groups of state 8, kernel 4.
  const auto small = [](const char* mamba_proj_bias, const char* projectors_bias, const char* mamba_rms_norm,
                        const char* attention_bias, const char* mlp_bias) {
    return std::string(R"({"model_type":"falcon_h1","hidden_size":32,"num_hidden_layers":2,
      "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":48,"vocab_size":100,"mamba_d_ssm":64,
      "mamba_n_heads":4,"mamba_d_head":"auto","mamba_n_groups":2,"mamba_d_state":8,"mamba_d_conv":4,
      "mamba_conv_bias":true,"tie_word_embeddings":true,"mamba_proj_bias":)") +
           mamba_proj_bias + R"(,"projectors_bias":)" + projectors_bias + R"(,"mamba_rms_norm":)" + mamba_rms_norm +
           R"(,"attention_bias":)" + attention_bias + R"(,"mlp_bias":)" + mlp_bias + "}";
  };
  // Per layer: attention q, o 32 x 32, k, v 16 x 32 -> 3,072; mixer conv channels 64 + 32 = 96, in_proj
  // (64 + 96 + 4) x 32 = 5,248, conv 96 x 4 + 96 = 480, 12, out_proj 2,048 -> 7,788; MLP 3 x 48 x 32 =
  // 4,608; norms 64. Tied embedding 3,200; final norm 32.
  const std::int64_t plain = 2 * (3'072 + 7'788 + 4'608 + 64) + 3'200 + 32;
  CHECK(count_parameters(parse_hf_config(small("false", "false", "false", "false", "false"))).total == plain);
  // projectors_bias alone: out_proj's bias (32) and not in_proj's.
  CHECK(count_parameters(parse_hf_config(small("false", "true", "false", "false", "false"))).total == plain + 2 * 32);
  // mamba_proj_bias alone: in_proj's bias (164) and not out_proj's.
  CHECK(count_parameters(parse_hf_config(small("true", "false", "false", "false", "false"))).total == plain + 2 * 164);
  // mamba_rms_norm: FalconH1RMSNormGated's weight over mamba_d_ssm (64).
  CHECK(count_parameters(parse_hf_config(small("false", "false", "true", "false", "false"))).total == plain + 2 * 64);
  // attention_bias: q, k, v, o biases (32 + 16 + 16 + 32); mlp_bias: 48 + 48 + 32.
  CHECK(count_parameters(parse_hf_config(small("false", "false", "false", "true", "false"))).total == plain + 2 * 96);
  CHECK(count_parameters(parse_hf_config(small("false", "false", "false", "false", "true"))).total == plain + 2 * 128);

  // Absent switches take FalconH1Config's values and say so.
  const ModelDescription defaults = parse_hf_config(R"({"model_type":"falcon_h1","hidden_size":32,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":48,"vocab_size":100,
    "mamba_d_ssm":64,"mamba_n_heads":4,"mamba_n_groups":2,"mamba_d_state":8,"mamba_d_conv":4})");
  CHECK(count_parameters(defaults).total == plain + 3'200);  // tie_word_embeddings defaults to false
  bool named = false;
  for (const auto& a : defaults.assumptions)
    named = named || a.find("mamba_rms_norm absent: false, as FalconH1Config does") != std::string::npos;
  CHECK(named);
}

TEST_CASE("falcon_h1: a missing or contradictory mixer width is refused, naming the field") {
  // Absent (FalconH1Config: 1024) and null (mamba_expand x hidden_size) differ; neither is guessed.
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_head":64)")).field() == "mamba_d_ssm");
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_ssm":null,"mamba_d_head":64)")).field() == "mamba_d_ssm");
  // 24 heads of 64 are 1536, not 2400.
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_ssm":2400,"mamba_d_head":64)")).field() == "mamba_d_head");
  // 1000 is no multiple of 24 heads.
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_ssm":1000)")).field() == "mamba_n_heads");
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_ssm":1536,"mamba_n_groups":5)")).field() == "mamba_n_groups");
  CHECK(config_error(falcon_h1_0_5b(R"("mamba_d_ssm":1536,"mamba_d_head":"half")")).field() == "mamba_d_head");
  // "auto" (or absent) divides mamba_d_ssm by the heads: 1536 / 24 = 64, the published shape.
  CHECK(count_parameters(parse_hf_config(falcon_h1_0_5b(R"("mamba_d_ssm":1536,"mamba_d_head":"auto")"))).total ==
        521'411'104);
}
