// SPDX-License-Identifier: MIT
// LFM2: gated short-convolution layers beside grouped-query attention. Counts against the published
// figure, the conv state per sequence in place of a KV cache, and the refusals. Expected values are
// hand calculations from the modeling code (cited in core/src/config/config_lfm2.cpp), never the
// code's output.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The shape fields of LiquidAI/LFM2.5-1.2B-Instruct's config.json (LFM2-1.2B has the same shapes), as
// public copies of LFM2.5-1.2B configs print them (tests/fixtures/configs/README.md): hidden 2048,
// 16 layers with attention at 2, 5, 8, 10, 12 and 14, 32 query and 8 key/value heads,
// intermediate_size 12288 adjusted (block_auto_adjust_ff_dim) to 8192, conv_L_cache 3 without
// bias, vocabulary 65536, tied.
const char* const lfm2_1_2b_layer_types = R"("layer_types":["conv","conv","full_attention","conv","conv",
    "full_attention","conv","conv","full_attention","conv","full_attention","conv","full_attention","conv",
    "full_attention","conv"])";

std::string lfm2_1_2b(const std::string& layer_order = lfm2_1_2b_layer_types,
                      const std::string& width = R"("intermediate_size":12288)") {
  return R"({"architectures":["Lfm2ForCausalLM"],"model_type":"lfm2","hidden_size":2048,"num_hidden_layers":16,
    "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":65536,"max_position_embeddings":128000,
    "block_auto_adjust_ff_dim":true,"block_ffn_dim_multiplier":1.0,"block_multiple_of":256,
    "conv_L_cache":3,"conv_bias":false,"norm_eps":1e-05,"tie_word_embeddings":true,"torch_dtype":"bfloat16",)" +
         width + "," + layer_order + "}";
}

using test::config_error;

}  // namespace

TEST_CASE("lfm2: LFM2-1.2B counted layer by layer matches the published 1,170,340,608") {
  // Published: transformers' own count, sum(p.numel() for p in model.parameters()), of
  // LiquidAI/LFM2.5-1.2B-Instruct (snapshot 0f604ada3f766f9f257460c4c9f0b5d6f69d431b) loaded as
  // Lfm2ForCausalLM: 1,170,340,608, as logged in public run notes; the same figure as LiquidAI/LFM2-1.2B's
  // in a public model catalogue (tests/fixtures/configs/README.md).
  // By hand (Lfm2DecoderLayer): MLP width int(2 x 12,288 / 3) = 8,192, rounded to 256: 8,192;
  //   w1, w3, w2 3 x 8,192 x 2,048 = 50,331,648.
  // Short conv (10 layers): in_proj 3 x 2,048 x 2,048 = 12,582,912; conv 2,048 x 3 = 6,144;
  //   out_proj 2,048 x 2,048 = 4,194,304 -> 16,783,360.
  // Attention (6 layers): head_dim 2,048 / 32 = 64; q and out_proj 2,048 x 2,048 each, k and v 512 x 2,048
  //   each; q_layernorm, k_layernorm 64 each -> 10,485,888.
  // operator_norm and ffn_norm 4,096 a layer; tied embedding 65,536 x 2,048 = 134,217,728; embedding_norm 2,048.
  const std::int64_t conv = 16'783'360, attention = 10'485'888, mlp = 50'331'648, norms = 4'096;
  const std::int64_t expected = 10 * conv + 6 * attention + 16 * (mlp + norms) + 134'217'728 + 2'048;
  CHECK(expected == 1'170'340'608);
  const ModelDescription model = parse_hf_config(lfm2_1_2b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 10 * conv);
  CHECK(count.breakdown.attention == 6 * attention);
  CHECK(count.breakdown.mlp == 16 * mlp);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(model.parameter_count_exact());
  CHECK(model.assumptions.empty());

  // LFM2-1.2B's original spelling: block_ff_dim (read before intermediate_size) and full_attn_idxs.
  const ModelDescription original = parse_hf_config(
      lfm2_1_2b(R"("full_attn_idxs":[2,5,8,10,12,14])", R"("block_ff_dim":12288,"intermediate_size":4096)"));
  CHECK(count_parameters(original).total == expected);
}

TEST_CASE("lfm2: each short-convolution layer keeps hidden x conv_L_cache values instead of a KV cache") {
  // Lfm2HybridConvCache (modeling_lfm2.py @1d6b6ca61a8b): conv_cache (batch, hidden_size, conv_L_cache)
  // = 2,048 x 3 = 6,144 values, 12,288 B at 2 B; 10 layers: 122,880 B per sequence. KV: 6 layers x 8 kv
  // heads x (64 + 64) x 2 B = 12,288 B per token.
  const ModelDescription model = parse_hf_config(lfm2_1_2b());
  const LayerShape& conv = model.layer_kinds[model.layer_kind_of_layer[0]];
  REQUIRE(conv.is_ssm());
  CHECK(ssm_state_bytes_per_sequence_per_layer(conv, 2) == 12'288);
  CHECK(ssm_state_bytes_per_sequence_per_layer(conv, 2, 2) == 6'144);  // tp 2: half the channels
  InferenceWorkload w;
  w.batch_size = 5;
  w.context_tokens = 4096;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 12'288);
  CHECK(figure.state_bytes_per_sequence == 122'880);
  CHECK(figure.bytes == 5 * (122'880LL + 12'288LL * 4096));

  const InferenceEstimate e = estimate_inference(lfm2_1_2b(), {{"gpu", "h100"}, {"batch", "4"}, {"context", "8192"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 122'880);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(std::isfinite(t.decode_total_seconds));
}

TEST_CASE("lfm2: a small model by hand; the MLP width rule, biases and class defaults") {
  // hidden 64, 3 layers (attention at 1), 4 heads of 16, 2 kv heads; block_ff_dim 200 adjusted:
  // int(400 / 3) = 133, x 1.5 = int(199.5) = 199, rounded up to 32: 224. conv_bias true, kernel 4.
  const ModelDescription model = parse_hf_config(R"({"model_type":"lfm2","hidden_size":64,"num_hidden_layers":3,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"block_ff_dim":200,
    "block_auto_adjust_ff_dim":true,"block_ffn_dim_multiplier":1.5,"block_multiple_of":32,"conv_L_cache":4,
    "conv_bias":true,"tie_word_embeddings":false,"layer_types":["conv","full_attention","conv"]})");
  // Conv: in_proj 192 x 64 + 192; conv 64 x 4 + 64; out_proj 64 x 64 + 64 -> 12,480 + 320 + 4,160 = 16,960.
  // Attention: q, out 64 x 64; k, v 32 x 64; norms 16 + 16 -> 12,320. MLP 3 x 224 x 64 = 43,008.
  // Norms 128 a layer; embedding and lm_head 6,400 each; embedding_norm 64.
  const std::int64_t expected = 2 * 16'960 + 12'320 + 3 * (43'008 + 128) + 2 * 6'400 + 64;
  CHECK(count_parameters(model).total == expected);
  // State per conv layer: 64 channels x 4 values.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 1) == 256);

  // Nothing says which layers are attention: Lfm2Config makes all of them attention, and says so.
  const ModelDescription all_attention = parse_hf_config(R"({"model_type":"lfm2","hidden_size":64,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"intermediate_size":96,
    "block_auto_adjust_ff_dim":false})");
  CHECK(all_attention.layer_kinds.size() == 1);
  CHECK(all_attention.layer_kinds[0].has_attention());
  CHECK_FALSE(all_attention.layer_kinds[0].is_ssm());
  bool named = false;
  for (const auto& a : all_attention.assumptions)
    named = named || a.find("every layer is attention") != std::string::npos;
  CHECK(named);
  // tie_embedding (the original key) wins over tie_word_embeddings, as in Lfm2Config.
  const ModelDescription untied = parse_hf_config(R"({"model_type":"lfm2","hidden_size":64,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"intermediate_size":96,
    "block_auto_adjust_ff_dim":false,"tie_embedding":false,"full_attn_idxs":[0]})");
  CHECK_FALSE(untied.tie_word_embeddings);
}

TEST_CASE("lfm2: contradictory or unknown layer fields are refused, naming the field") {
  CHECK(config_error(lfm2_1_2b(R"("layer_types":["conv","full_attention"])")).field() == "layer_types");
  CHECK(config_error(lfm2_1_2b(R"("layer_types":["conv","mamba","conv","conv","conv","conv","conv","conv",
    "conv","conv","conv","conv","conv","conv","conv","conv"])"))
            .field() == "layer_types");
  CHECK(config_error(lfm2_1_2b(R"("full_attn_idxs":[2,16])")).field() == "full_attn_idxs");
  CHECK(config_error(lfm2_1_2b(lfm2_1_2b_layer_types, R"("intermediate_size":0)")).field() == "intermediate_size");
}

namespace {

// A small LFM2-MoE: hidden 64, 4 layers (attention at 1 and 3), one dense layer, 4 experts of width
// 16 with top-2, 4 heads of 16 and 2 kv heads, vocabulary 100, untied.
std::string small_lfm2_moe(const std::string& extra = R"("use_expert_bias":false)") {
  return R"({"model_type":"lfm2_moe","hidden_size":64,"num_hidden_layers":4,"num_attention_heads":4,
    "num_key_value_heads":2,"vocab_size":100,"intermediate_size":96,"moe_intermediate_size":16,"num_experts":4,
    "num_experts_per_tok":2,"num_dense_layers":1,"conv_L_cache":3,"conv_bias":false,"tie_word_embeddings":false,
    "layer_types":["conv","full_attention","conv","full_attention"],)" +
         extra + "}";
}

}  // namespace

TEST_CASE("lfm2_moe: LFM2-8B-A1B counted layer by layer, against the card's 8.3B total and 1.5B active") {
  // Published: the LiquidAI/LFM2-8B-A1B model card (and the transformers lfm2_moe docs): "8.3B total
  // parameters and 1.5B active parameters"; no exact figure or index total_size was found.
  // By hand (Lfm2MoeDecoderLayer, tests/fixtures/configs/LiquidAI--LFM2-8B-A1B.json):
  //   short conv (18 layers) 16,783,360 and attention (6 layers, at 2, 6, 10, 14, 18, 21) 10,485,888, as LFM2-1.2B;
  //   Lfm2MoeMLP (layers 0 and 1) w1, w3, w2 3 x 7,168 x 2,048 = 44,040,192;
  //   Lfm2MoeSparseMoeBlock (layers 2 to 23): gate 32 x 2,048 = 65,536, expert_bias 32,
  //   experts 32 x 3 x 1,792 x 2,048 = 352,321,536 -> 352,387,104;
  //   operator_norm and ffn_norm 4,096 a layer; tied embedding 65,536 x 2,048 = 134,217,728; embedding_norm 2,048.
  const std::int64_t conv = 16'783'360, attention = 10'485'888, dense = 44'040'192, moe = 352'387'104;
  const std::int64_t expected = 18 * conv + 6 * attention + 2 * dense + 22 * moe + 24 * 4'096 + 134'217'728 + 2'048;
  CHECK(expected == 8'339'930'560);
  // Active: 4 of 32 experts, so 28 x 3 x 1,792 x 2,048 = 308,281,344 of each MoE layer idle.
  const std::int64_t active = expected - 22 * 308'281'344LL;
  CHECK(active == 1'557'740'992);

  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/LiquidAI--LFM2-8B-A1B.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.active_per_token == active);
  CHECK(count.breakdown.ssm == 18 * conv);
  CHECK(count.breakdown.attention == 6 * attention);
  CHECK(count.breakdown.mlp == 2 * dense);
  CHECK(count.breakdown.router == 22 * (65'536 + 32));
  CHECK(count.breakdown.lm_head == 0);
  CHECK(model.parameter_count_exact());
  CHECK(model.assumptions.empty());
  // The card's figures, to the tenth of a billion it gives them (truncated): 8.3B and 1.5B.
  CHECK(count.total / 100'000'000 == 83);
  CHECK(count.active_per_token / 100'000'000 == 15);

  // Memory: conv state 18 layers x 2,048 x 3 x 2 B = 221,184 B per sequence; KV 6 layers x 8 kv heads x
  // (64 + 64) x 2 B = 12,288 B per token.
  InferenceWorkload w;
  w.batch_size = 2;
  w.context_tokens = 1000;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 12'288);
  CHECK(figure.state_bytes_per_sequence == 221'184);
  CHECK(figure.bytes == 2 * (221'184LL + 12'288LL * 1000));
  const InferenceEstimate e =
      estimate_inference(test::read_file(test::fixture_configs_dir() + "/LiquidAI--LFM2-8B-A1B.json"),
                         {{"gpu", "h100"}, {"batch", "4"}, {"context", "8192"}});
  REQUIRE(e.on_gpu);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(std::isfinite(t.decode_total_seconds));
}

TEST_CASE("lfm2_moe: a small model by hand; the expert bias, the dense layers and the class defaults") {
  // Conv: in_proj 192 x 64 = 12,288; conv 64 x 3 = 192; out_proj 64 x 64 = 4,096 -> 16,576.
  // Attention: q, out_proj 64 x 64; k, v 32 x 64; q/k layernorms 16 + 16 -> 12,320.
  // Dense MLP (layer 0): 3 x 96 x 64 = 18,432. MoE (layers 1-3): gate 4 x 64 = 256; experts 4 x 3 x 16 x 64 = 12,288.
  // Norms 128 a layer; embedding and lm_head 6,400 each; embedding_norm 64.
  const std::int64_t expected = 2 * 16'576 + 2 * 12'320 + 18'432 + 3 * (256 + 12'288) + 4 * 128 + 2 * 6'400 + 64;
  CHECK(expected == 127'232);
  const ParameterCount count = count_parameters(parse_hf_config(small_lfm2_moe()));
  CHECK(count.total == expected);
  // Top-2 of 4: 2 idle experts of 3 x 16 x 64 = 3,072 in each of 3 MoE layers.
  CHECK(count.active_per_token == expected - 3 * 2 * 3'072);
  // use_expert_bias: a persistent buffer of num_experts per MoE layer, stored in the checkpoint.
  CHECK(count_parameters(parse_hf_config(small_lfm2_moe(R"("use_expert_bias":true)"))).total == expected + 3 * 4);

  // Absent sizes take Lfm2MoeConfig's defaults, and say so: num_dense_layers 2, use_expert_bias true.
  const ModelDescription defaults = parse_hf_config(R"({"model_type":"lfm2_moe","hidden_size":64,
    "num_hidden_layers":3,"num_attention_heads":8,"vocab_size":100,"intermediate_size":96,
    "moe_intermediate_size":16,"num_experts":4,"num_experts_per_tok":2,"layer_types":["conv","conv","full_attention"]})");
  CHECK(defaults.layer_kinds[defaults.layer_kind_of_layer[1]].mlp.intermediate_size == 96);
  const LayerShape& last = defaults.layer_kinds[defaults.layer_kind_of_layer[2]];
  CHECK(last.is_moe());
  CHECK(last.moe.router_correction_bias);
  CHECK(last.attention.num_kv_heads == 8);
  bool named = false;
  for (const auto& a : defaults.assumptions) named = named || a.find("num_dense_layers absent") != std::string::npos;
  CHECK(named);
}

TEST_CASE("lfm2_moe: missing or contradictory fields are refused, naming the field") {
  using test::config_error_field;
  const std::string base = R"("model_type":"lfm2_moe","hidden_size":64,"num_hidden_layers":4,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"intermediate_size":96,
    "moe_intermediate_size":16)";
  const std::string layers = R"("layer_types":["conv","full_attention","conv","full_attention"])";
  CHECK(config_error_field("{" + base + R"(,"num_experts":4,"num_experts_per_tok":2})") == "layer_types");
  CHECK(config_error_field("{" + base + "," + layers + R"(,"num_experts_per_tok":2})") == "num_experts");
  CHECK(config_error_field("{" + base + "," + layers + R"(,"num_experts":4,"num_experts_per_tok":5})") ==
        "num_experts_per_tok");
  CHECK(config_error_field("{" + base + "," + layers + R"(,"num_experts":4,"num_dense_layers":5})") ==
        "num_dense_layers");
  CHECK(config_error_field("{" + base + R"(,"num_experts":4,"layer_types":["conv","full_attention"]})") ==
        "layer_types");
  CHECK(config_error_field("{" + base + R"(,"num_experts":4,"layer_types":["conv","mamba","conv","conv"]})") ==
        "layer_types");
}
