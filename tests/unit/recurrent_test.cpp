// SPDX-License-Identifier: MIT
// Fixed-state mixers other than Mamba: RecurrentGemma's RG-LRU blocks beside local attention, and
// MiniMax's lightning attention beside softmax attention. Expected values are hand calculations from
// the modeling code (cited in core/src/config/config_recurrent_gemma.cpp, config_minimax.cpp and
// docs/parameters.md), never the code's output.
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

std::string minimax_m1() { return test::read_file(test::fixture_configs_dir() + "/MiniMaxAI--MiniMax-M1.json"); }

std::string recurrentgemma_2b() {
  return test::read_file(test::fixture_configs_dir() + "/google--recurrentgemma-2b.json");
}

std::string error_field(const std::string& text) { return test::config_error_field(text); }

// A small RecurrentGemma: hidden 64, 4 heads, lru_width 32 (gate blocks of 8), MLP 96 / 2 = 48.
std::string small_recurrent_gemma(const std::string& extra) {
  return R"({"model_type":"recurrent_gemma","hidden_size":64,"num_hidden_layers":3,"num_attention_heads":4,
    "num_key_value_heads":2,"intermediate_size":96,"vocab_size":100,"conv1d_width":4,"attention_window_size":16)" +
         extra + "}";
}

// A small MiniMax: hidden 64, 4 heads of 16 (2 kv heads), 4 experts of 32, top 2, two layers.
std::string small_minimax(const std::string& type, const std::string& extra) {
  return R"({"model_type":")" + type + R"(","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
    "num_key_value_heads":2,"head_dim":16,"intermediate_size":32,"num_local_experts":4,"num_experts_per_tok":2,
    "vocab_size":100)" +
         extra + "}";
}

}  // namespace

TEST_CASE("recurrent_gemma: RecurrentGemma-2B counted block by block from the modeling code") {
  // hidden 2560, lru_width 2560, 10 heads (RG-LRU gate blocks of 256), conv1d_width 4, MLP
  // intermediate_size 15360 / 2 = 7680; block_types absent: (recurrent, recurrent, attention)
  // repeated over 26 layers -> attention in layers 2, 5, ..., 23 (8), recurrent in the other 18.
  // Recurrent block: linear_y and linear_x 2 x (2560 x 2560 + 2560) = 13,112,320; linear_out
  //   2560 x 2560 + 2560 = 6,556,160; conv_1d 2560 x 4 + 2560 = 12,800; recurrent_param 2560;
  //   input and recurrent gates 2 x (10 x 256 x 256) = 1,310,720 and biases 2 x 2560 = 5,120
  //   -> 20,999,680.
  // Local attention: q 2560 x 2560, k and v 256 x 2560 each (1 kv head of 256), o 2560 x 2560 + bias
  //   2560 -> 14,420,480.
  // MLP: gate and up 2 x (7680 x 2560 + 7680), down 2560 x 7680 + 2560 -> 59,000,320.
  // Norms: temporal_pre_norm and channel_pre_norm 2 x 2560 per layer; final_norm 2560.
  // Embedding 256,000 x 2560 = 655,360,000, tied to lm_head (counted once).
  const std::int64_t recurrent = 20'999'680, attention = 14'420'480, mlp = 59'000'320, norms = 5'120;
  const std::int64_t expected = 18 * (recurrent + mlp + norms) + 8 * (attention + mlp + norms) + 655'360'000LL + 2'560;
  CHECK(expected == 2'682'862'080);
  const ModelDescription model = parse_hf_config(recurrentgemma_2b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 18 * recurrent);
  CHECK(count.breakdown.attention == 8 * attention);
  CHECK(count.breakdown.mlp == 26 * mlp);
  CHECK(count.breakdown.embedding == 655'360'000);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(model.parameter_count_exact());
  REQUIRE(model.layer_kind_of_layer.size() == 26);
  CHECK(model.layer_kinds[model.layer_kind_of_layer[2]].has_attention());
  CHECK(model.layer_kinds[model.layer_kind_of_layer[2]].attention.sliding_window == 2048);
  CHECK(model.layer_kinds[model.layer_kind_of_layer[25]].is_ssm());
}

TEST_CASE("recurrent_gemma: the RG-LRU state per sequence is fixed; local attention caches its window") {
  // State per recurrent layer (2 B elements): conv window 2560 x 4 + RG-LRU state 2560 = 12,800 values
  // = 25,600 B; 18 layers: 460,800 B per sequence.
  // KV: 8 attention layers x 1 kv head x (256 + 256) x 2 B = 8,192 B per token, at most 2048 tokens.
  const ModelDescription model = parse_hf_config(recurrentgemma_2b());
  InferenceWorkload w;
  w.batch_size = 4;
  w.context_tokens = 8192;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 8'192);
  CHECK(figure.state_bytes_per_sequence == 460'800);
  CHECK(figure.bytes == 4 * (460'800LL + 8'192LL * 2048));
  w.context_tokens = 1024;  // under the window the attention cache shrinks; the state does not
  CHECK(kv_cache(model, w).bytes == 4 * (460'800LL + 8'192LL * 1024));
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 2) == 25'600);
}

TEST_CASE("recurrent_gemma: inference on a GPU answers memory, capacity and latency") {
  const InferenceEstimate e =
      estimate_inference(recurrentgemma_2b(), {{"gpu", "h100"}, {"batch", "8"}, {"context", "8192"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 460'800);
  CHECK(e.on_gpu->capacity.max_batch_size.value > 0);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(t.prefill_seconds > 0);
  CHECK(std::isfinite(t.decode_total_seconds));
}

TEST_CASE("recurrent_gemma: a small model by hand; defaults named, contradictions refused") {
  // block_types [recurrent, attention] repeated over 3 layers: recurrent, attention, recurrent.
  // Recurrent: 2 x (32 x 64 + 32) + (64 x 32 + 64) + (32 x 4 + 32) + 32 + 2 x 4 x 8 x 8 + 2 x 32 = 7,040.
  // Attention (head_dim 64 / 4 = 16, 2 kv heads, attention_bias true): q 64 x 64 + 64, k and v
  //   2 x (32 x 64 + 32), o 64 x 64 + 64 = 12,480.
  // MLP 48: 2 x (48 x 64 + 48) + 64 x 48 + 64 = 9,376. Norms 2 x 64 per layer, final 64.
  // Embedding 100 x 64 = 6,400, tied.
  const std::string config =
      small_recurrent_gemma(R"(,"lru_width":32,"block_types":["recurrent","attention"],"attention_bias":true)");
  const ModelDescription model = parse_hf_config(config);
  CHECK(count_parameters(model).total == 2 * (7'040 + 9'376 + 128) + (12'480 + 9'376 + 128) + 6'400 + 64);
  // Absent lru_width and block_types take RecurrentGemmaConfig's values, and say so.
  const ModelDescription defaults = parse_hf_config(small_recurrent_gemma(""));
  bool named_lru = false, named_blocks = false;
  for (const std::string& a : defaults.assumptions) {
    named_lru = named_lru || a.find("lru_width absent") != std::string::npos;
    named_blocks = named_blocks || a.find("block_types absent") != std::string::npos;
  }
  CHECK(named_lru);
  CHECK(named_blocks);
  CHECK(error_field(small_recurrent_gemma(R"(,"block_types":["recurrent","mamba"])")) == "block_types");
  CHECK(error_field(small_recurrent_gemma(R"(,"block_types":[])")) == "block_types");
  CHECK(error_field(small_recurrent_gemma(R"(,"lru_width":30)")) == "lru_width");
  CHECK(error_field(small_recurrent_gemma(R"(,"head_dim":32)")) == "head_dim");
  CHECK(error_field(small_recurrent_gemma(R"(,"num_key_value_heads":3)")) == "num_key_value_heads");
}

TEST_CASE("minimax: MiniMax-M1 counted layer by layer; the checkpoint index agrees") {
  // hidden 6144, 64 heads of 128 (8,192 wide), 8 kv heads; attn_type_list: softmax (1) in layers
  // 7, 15, ..., 79 (10), lightning (0) in the other 70; 32 experts of 9216, top 2, every layer.
  // Lightning: qkv_proj 3 x 8192 x 6144 = 150,994,944; output_gate 8192 x 6144 = 50,331,648;
  //   norm 8192; out_proj 6144 x 8192 = 50,331,648 -> 251,666,432.
  // Softmax: q and o 8192 x 6144 each, k and v 1024 x 6144 each, no biases -> 113,246,208.
  // MoE: gate 32 x 6144 = 196,608; experts 32 x 3 x 9216 x 6144 = 5,435,817,984.
  // Norms 2 x 6144 per layer, final 6144; embedding and untied lm_head 200,064 x 6144 each.
  const std::int64_t lightning = 251'666'432, softmax = 113'246'208, router = 196'608, experts = 5'435'817'984;
  const std::int64_t embedding = 1'229'193'216;
  const std::int64_t expected =
      70 * lightning + 10 * softmax + 80 * (router + experts + 12'288) + 2 * embedding + 6'144;
  CHECK(expected == 456'089'655'296);
  // MiniMax-AI/MiniMax-M1 model.safetensors.index.json: total_size 912,210,767,872 B = 2 B x the
  // count + 2 more B for each of the 80 x 196,608 router weights (kept in F32).
  CHECK(2 * expected + 2 * 80 * router == 912'210'767'872);
  const ModelDescription model = parse_hf_config(minimax_m1());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 70 * lightning);
  CHECK(count.breakdown.attention == 10 * softmax);
  CHECK(count.breakdown.routed_experts == 80 * experts);
  CHECK(count.breakdown.router == 80 * router);
  // Two of 32 experts a token: 48,403,306,496 active, 45,944,920,064 without the embedding and head
  // (the model card's "45.9 billion parameters activated").
  CHECK(count.active_per_token == expected - 80 * 30 * (experts / 32));
  CHECK(count.active_per_token - 2 * embedding == 45'944'920'064);
  CHECK(model.parameter_count_exact());
}

TEST_CASE("minimax: lightning attention keeps a head_dim x head_dim state per head; softmax layers cache") {
  // State per lightning layer (2 B elements): 64 heads x 128 x 128 = 1,048,576 values = 2,097,152 B;
  // 70 layers: 146,800,640 B per sequence. KV: 10 layers x 8 kv heads x (128 + 128) x 2 B = 40,960 B/token.
  const ModelDescription model = parse_hf_config(minimax_m1());
  InferenceWorkload w;
  w.batch_size = 2;
  w.context_tokens = 4096;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 40'960);
  CHECK(figure.state_bytes_per_sequence == 146'800'640);
  CHECK(figure.bytes == 2 * (146'800'640LL + 40'960LL * 4096));
  // tp 8: 8 heads per rank, 8 x 128 x 128 x 2 B = 262,144 B.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 2, 8) == 262'144);
}

TEST_CASE("minimax: a small model by hand; layer order spellings, defaults and refusals") {
  // Lightning: qkv 3 x 64 x 64 + output_gate 64 x 64 + norm 64 + out_proj 64 x 64 = 20,544.
  // Softmax: q and o 64 x 64, k and v 32 x 64 -> 12,288. MoE: router 4 x 64 + 4 x 3 x 32 x 64 = 24,832.
  // Norms 2 x 64 per layer, final 64; embedding and lm_head 100 x 64 each.
  const std::int64_t expected = 20'544 + 12'288 + 2 * (24'832 + 128) + 2 * 6'400 + 64;
  CHECK(count_parameters(
            parse_hf_config(small_minimax("minimax", R"(,"layer_types":["linear_attention","full_attention"])")))
            .total == expected);
  CHECK(count_parameters(parse_hf_config(small_minimax("minimax_m1", R"(,"attn_type_list":[0,1])"))).total == expected);
  // MiniMaxConfig without layer_types: softmax in even layers (layer 0), lightning in odd; said so.
  const ModelDescription defaults = parse_hf_config(small_minimax("minimax", ""));
  CHECK(defaults.layer_kinds[defaults.layer_kind_of_layer[0]].has_attention());
  CHECK(defaults.layer_kinds[defaults.layer_kind_of_layer[1]].is_ssm());
  bool named = false;
  for (const std::string& a : defaults.assumptions) named = named || a.find("layer_types absent") != std::string::npos;
  CHECK(named);
  CHECK(error_field(small_minimax("minimax_m1", "")) == "attn_type_list");
  CHECK(error_field(small_minimax("minimax_m1", R"(,"attn_type_list":[0,1,1])")) == "attn_type_list");
  CHECK(error_field(small_minimax("minimax_m1", R"(,"attn_type_list":[0,2])")) == "attn_type_list");
  CHECK(error_field(small_minimax("minimax", R"(,"layer_types":["linear_attention","mamba"])")) == "layer_types");
  CHECK(error_field(small_minimax("minimax_m1", R"(,"attn_type_list":[0,1],"shared_intermediate_size":16)")) ==
        "shared_intermediate_size");
  CHECK(error_field(small_minimax("minimax_m1", R"(,"attn_type_list":[0,1],"num_experts_per_tok":5)")) ==
        "num_experts_per_tok");
}
