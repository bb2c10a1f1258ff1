// SPDX-License-Identifier: MIT
// State-space hybrids (Nemotron-H), the estimate marker of an unknown model_type, MoE fields that
// contradict their family, and images per request of a vision model. Expected values are hand calculations from the
// modeling code (cited in core/src/config/config_hybrid.cpp and docs/parameters.md), never the code's output.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string nemotron_h_56b() {
  return test::read_file(test::fixture_configs_dir() + "/nvidia--Nemotron-H-56B-Base-8K.json");
}

std::string error_field(const std::string& text) { return test::config_error_field(text); }

std::string error_message(const std::string& text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

// A small Nemotron-H: hidden 64, Mamba-2 with 4 heads of 16, state 8, 2 groups, kernel 4.
std::string small_nemotron_h(const std::string& pattern, const std::string& extra = "") {
  return R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":)" + std::to_string(pattern.size()) +
         R"(,"hybrid_override_pattern":")" + pattern +
         R"(","num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":128,
    "mamba_num_heads":4,"mamba_head_dim":16,"ssm_state_size":8,"n_groups":2,"conv_kernel":4,
    "use_conv_bias":true,"use_bias":false,"mlp_bias":false,"vocab_size":100,"tie_word_embeddings":false)" +
         extra + "}";
}

}  // namespace

TEST_CASE("nemotron_h: Nemotron-H-56B counted layer by layer from NemotronHBlock and its mixers") {
  // hidden 8192; pattern: 54 Mamba-2 ('M'), 10 attention ('*'), 54 MLP ('-') layers, one RMSNorm each.
  // Mamba-2: inner 256 x 64 = 16,384; conv channels 16,384 + 2 x 8 x 256 = 20,480;
  //   in_proj (16,384 + 20,480 + 256) x 8192 = 304,087,040; conv1d 20,480 x 4 + bias 20,480;
  //   dt_bias, A_log, D 3 x 256; gated norm 16,384; out_proj 8192 x 16,384 = 134,217,728
  //   -> 438,424,320 (+ block norm 8,192).
  // Attention: q 8192 x 8192, k and v 1024 x 8192 each, o 8192 x 8192, no biases -> 150,994,944.
  // MLP: up 32,768 x 8192 and down, relu2, no biases -> 536,870,912.
  // Embedding and lm_head 131,072 x 8192 = 1,073,741,824 each; norm_f 8,192.
  const std::int64_t mamba = 438'424'320, attention = 150'994'944, mlp = 536'870'912, norm = 8'192;
  const std::int64_t expected =
      54 * (mamba + norm) + 10 * (attention + norm) + 54 * (mlp + norm) + 2 * 1'073'741'824LL + norm;
  CHECK(expected == 56'324'350'464);
  const ModelDescription model = parse_hf_config(nemotron_h_56b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 54 * mamba);
  CHECK(count.breakdown.attention == 10 * attention);
  CHECK(count.breakdown.mlp == 54 * mlp);
  CHECK(count.breakdown.norms == 118 * norm + norm);
  CHECK(count.active_per_token == count.total);
  CHECK(model.parameter_count_exact());
  const auto& b = count.breakdown;
  CHECK(b.embedding + b.attention + b.mlp + b.routed_experts + b.shared_experts + b.router + b.norms + b.lm_head +
            b.ssm ==
        count.total);
}

TEST_CASE("nemotron_h: the state per sequence replaces the KV cache of Mamba-2 layers; attention keeps its cache") {
  // KV: 10 attention layers x 8 kv heads x (128 + 128) x 2 B = 40,960 B per token.
  // State per Mamba-2 layer (bf16): conv 20,480 x 4 + SSM 256 x 64 x 256 = 4,276,224 values = 8,552,448 B;
  // 54 layers: 461,832,192 B per sequence, whatever the context.
  const ModelDescription model = parse_hf_config(nemotron_h_56b());
  InferenceWorkload w;
  w.batch_size = 4;
  w.context_tokens = 8192;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 40'960);
  CHECK(figure.state_bytes_per_sequence == 461'832'192);
  CHECK(figure.bytes == 4 * (461'832'192LL + 40'960LL * 8192));
  w.context_tokens = 1024;  // a shorter context shrinks the attention cache only
  CHECK(kv_cache(model, w).bytes == 4 * (461'832'192LL + 40'960LL * 1024));
  // tp 2: 128 heads and 4 groups per rank: conv (8,192 + 2 x 4 x 256) x 4 + 128 x 64 x 256 = 2,138,112 values.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 2, 2) == 4'276'224);
}

TEST_CASE("nemotron_h: inference on a GPU answers memory, capacity and latency with the state counted") {
  const InferenceEstimate e =
      estimate_inference(nemotron_h_56b(), {{"gpu", "h200"}, {"batch", "8"}, {"context", "8192"}, {"tp", "2"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 461'832'192);
  CHECK(e.on_gpu->capacity.max_batch_size.value > 0);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(t.prefill_seconds > 0);
  CHECK(std::isfinite(t.decode_total_seconds));
  const std::string json = inference_report_json(e);
  CHECK(json.find("\"state_bytes_per_sequence\":461832192") != std::string::npos);
}

TEST_CASE("nemotron_h: a small hybrid by hand, and its refusals name the field") {
  // Mamba-2: inner 64; conv channels 64 + 2 x 2 x 8 = 96; in_proj (64 + 96 + 4) x 64 = 10,496; conv 384 + 96;
  // 3 x 4 scalars; norm 64; out_proj 4,096 -> 15,148 (+ norm 64). Attention: q 4,096 + k,v 2 x 2,048 + o 4,096
  // = 12,288 (+ 64). MLP: 2 x 128 x 64 = 16,384 (+ 64). Embedding and lm_head 6,400 each, norm_f 64.
  CHECK(count_parameters(parse_hf_config(small_nemotron_h("M*-"))).total == 15'212 + 12'352 + 16'448 + 2 * 6'400 + 64);
  CHECK(error_field(small_nemotron_h("M*-E")) == "hybrid_override_pattern");  // MoE layers: not modelled
  CHECK(error_field(small_nemotron_h("M*x")) == "hybrid_override_pattern");
  const std::string short_pattern =
      R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":4,"hybrid_override_pattern":"M*-",
    "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":128,"mamba_num_heads":4,
    "mamba_head_dim":16,"ssm_state_size":8,"n_groups":2,"conv_kernel":4,"vocab_size":100})";
  CHECK(error_message(short_pattern).find("describes 3 layers, but num_hidden_layers is 4") != std::string::npos);
  CHECK(error_field(R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":1,
    "hybrid_override_pattern":"M","intermediate_size":128,"num_attention_heads":4,"vocab_size":100})") ==
        "mamba_num_heads");
  CHECK(error_field(R"({"model_type":"nemotron_h","hidden_size":64,"num_hidden_layers":1,"intermediate_size":128,
    "num_attention_heads":4,"vocab_size":100})") == "hybrid_override_pattern");
  // tp must split the Mamba heads.
  try {
    estimate_inference(small_nemotron_h("M*-"), {{"tp", "8"}});
    FAIL("tp 8 over 4 Mamba heads was accepted");
  } catch (const std::exception& error) {
    CHECK(std::string(error.what()).find("state-space (Mamba) heads") != std::string::npos);
  }
}

// Granite-4.0-H-Tiny's shape fields (ibm-granite/granite-4.0-h-tiny-base config.json at revision
// f95c8e83b06c12f877486f18d2e2d109ab252bd0, as transcribed in public test code; see
// tests/fixtures/configs/README.md): 40 layers, attention at 5, 15, 25 and 35, the rest Mamba-2.
static std::string granite_4_h_tiny() {
  std::string types;
  for (int i = 0; i < 40; ++i) types += std::string(i == 0 ? "" : ",") + (i % 10 == 5 ? "\"attention\"" : "\"mamba\"");
  return R"({"model_type":"granitemoehybrid","hidden_size":1536,"num_hidden_layers":40,"num_attention_heads":12,
    "num_key_value_heads":4,"intermediate_size":512,"shared_intermediate_size":1024,"num_local_experts":64,
    "num_experts_per_tok":6,"vocab_size":100352,"tie_word_embeddings":true,"attention_bias":false,
    "mamba_d_state":128,"mamba_n_groups":1,"mamba_n_heads":48,"mamba_d_head":64,"mamba_expand":2,"mamba_d_conv":4,
    "mamba_conv_bias":true,"mamba_proj_bias":false,"max_position_embeddings":131072,
    "position_embedding_type":"nope","layer_types":[)" +
         types + "]}";
}

TEST_CASE("mamba2: Mamba-Codestral-7B counted block by block matches Mistral's published 7,285,403,648") {
  // Published: "This is an instructed model, with 7,285,403,648 parameters." (Mistral, "Codestral Mamba",
  // https://mistral.ai/news/codestral-mamba/, 2024-07-16).
  // By hand from the config (Mamba2Mixer, Mamba2Block, Mamba2Model): hidden 4096, 64 blocks, 128 heads of 64,
  // state 128, 8 groups, kernel 4, expand 2: inner 8,192; conv channels 8,192 + 2 x 8 x 128 = 10,240;
  // in_proj (8,192 + 10,240 + 128) x 4096 = 76,021,760; conv1d 10,240 x 4 + bias 10,240 = 51,200;
  // dt_bias, A_log, D 3 x 128 = 384; gated norm 8,192; out_proj 4096 x 8,192 = 33,554,432 -> 109,635,968
  // (+ the block's RMSNorm 4,096). Embedding and untied lm_head 32,768 x 4096 = 134,217,728 each; norm_f 4,096.
  const std::int64_t mixer = 109'635'968, norm = 4'096, embedding = 134'217'728;
  CHECK(64 * (mixer + norm) + 2 * embedding + norm == 7'285'403'648);
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/mistralai--Mamba-Codestral-7B-v0.1.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 7'285'403'648);
  CHECK(count.breakdown.ssm == 64 * mixer);
  CHECK(count.breakdown.attention == 0);
  CHECK(count.breakdown.mlp == 0);
  CHECK(count.breakdown.norms == 65 * norm);
  CHECK(count.breakdown.lm_head == embedding);
  CHECK(model.parameter_count_exact());
  CHECK(model.position_encoding == PositionEncoding::none);
  // No layer has a KV cache; each sequence holds conv 10,240 x 4 + SSM 128 x 64 x 128 = 1,089,536 values per
  // layer (bf16: 2,179,072 B), 64 layers: 139,460,608 B, whatever the context.
  InferenceWorkload w;
  w.batch_size = 3;
  w.context_tokens = 32768;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 0);
  CHECK(figure.state_bytes_per_sequence == 139'460'608);
  CHECK(figure.bytes == 3 * 139'460'608LL);
  // The whole inference answer holds together on a GPU without any attention layer.
  const InferenceEstimate e =
      estimate_inference(test::read_file(test::fixture_configs_dir() + "/mistralai--Mamba-Codestral-7B-v0.1.json"),
                         {{"gpu", "h100"}, {"batch", "4"}, {"context", "16384"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 139'460'608);
  CHECK(e.memory.totals.kv_cache_bytes == 4 * 139'460'608LL);
  CHECK(e.on_gpu->capacity.max_batch_size.value > 0);
  // Without a KV cache only the prefill's activations grow with the context.
  CHECK(e.on_gpu->capacity.max_context_length.limited_by == "activations");
  CHECK(std::isfinite(e.on_gpu->latency.explanation.estimate.totals.decode_total_seconds));
}

TEST_CASE("mamba2: Mamba2Config defaults fill absent fields and are named; inconsistent widths are refused") {
  // hidden 64, 2 blocks, defaults: 128 heads of 64 would need expand x 64 = 8,192: refused, naming expand.
  CHECK(error_field(R"({"model_type":"mamba2","hidden_size":64,"num_hidden_layers":2,"vocab_size":100})") == "expand");
  // num_heads 4 x head_dim 32 = 128 = 2 x 64; n_groups defaults to 8, which does not divide 4 heads.
  const std::string head = R"({"model_type":"mamba2","hidden_size":64,"num_hidden_layers":2,"vocab_size":100,
    "num_heads":4,"head_dim":32,"state_size":8,"expand":2,"conv_kernel":4)";
  CHECK(error_field(head + "}") == "num_heads");
  // With 2 groups: inner 128; conv channels 128 + 2 x 2 x 8 = 160; in_proj (128 + 160 + 4) x 64 = 18,688;
  // conv 640 + 160; 12 scalars; norm 128; out_proj 8,192 -> 27,820 (+ 64). Embedding and lm_head (untied by
  // default) 6,400 each; norm_f 64: 2 x 27,884 + 12,800 + 64 = 68,632.
  const ModelDescription model = parse_hf_config(head + R"(,"n_groups":2})");
  CHECK(count_parameters(model).total == 68'632);
  bool named = false;
  for (const auto& a : model.assumptions) named = named || a.find("use_conv_bias absent: true") != std::string::npos;
  CHECK(named);
  CHECK(error_field(head + R"(,"n_groups":2,"expand":3})") == "expand");
}

TEST_CASE("bamba: a small Bamba by hand, Mamba-2 or attention in each layer beside a gated MLP") {
  // hidden 64, 3 layers, attention at layer 1; mamba_d_head "auto" = 2 x 64 / 4 = 32.
  // Mamba-2: inner 128; conv channels 128 + 2 x 2 x 8 = 160; in_proj (128 + 160 + 4) x 64 = 18,688; conv 640 + 160;
  // 12 scalars; norm 128; out_proj 8,192 -> 27,820. Attention: q 4,096, k and v 2,048 each, o 4,096 = 12,288.
  // BambaMLP gate, up, down: 3 x 128 x 64 = 24,576. Two RMSNorms a layer: 128.
  // 2 x (27,820 + 24,576 + 128) + (12,288 + 24,576 + 128) + 2 x 6,400 + 64 = 154,904.
  const std::string bamba = R"({"model_type":"bamba","hidden_size":64,"num_hidden_layers":3,"attn_layer_indices":[1],
    "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":128,"vocab_size":100,
    "tie_word_embeddings":false,"mamba_n_heads":4,"mamba_d_head":"auto","mamba_n_groups":2,"mamba_d_state":8,
    "mamba_d_conv":4,"mamba_expand":2,"mamba_conv_bias":true,"mamba_proj_bias":false})";
  const ModelDescription model = parse_hf_config(bamba);
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 154'904);
  CHECK(count.breakdown.ssm == 2 * 27'820);
  CHECK(count.breakdown.attention == 12'288);
  CHECK(count.breakdown.mlp == 3 * 24'576);
  CHECK(model.parameter_count_exact());
  // One attention layer: 2 kv heads x (16 + 16) x 2 B = 128 B per token; two Mamba-2 layers of
  // conv 160 x 4 + SSM 4 x 32 x 8 = 1,664 values (3,328 B) each.
  InferenceWorkload w;
  w.batch_size = 1;
  w.context_tokens = 100;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 128);
  CHECK(figure.state_bytes_per_sequence == 2 * 3'328);
  // mamba_proj_bias adds in_proj's 292 and out_proj's 64 per Mamba-2 layer.
  std::string biased = bamba;
  biased.replace(biased.find(R"("mamba_proj_bias":false)"), 23, R"("mamba_proj_bias":true )");
  CHECK(count_parameters(parse_hf_config(biased)).total == 154'904 + 2 * (292 + 64));
  // Refusals name the field.
  std::string outside = bamba;
  outside.replace(outside.find("[1]"), 3, "[3]");
  CHECK(error_field(outside) == "attn_layer_indices");
  std::string word = bamba;
  word.replace(word.find(R"("auto")"), 6, R"("wide")");
  CHECK(error_field(word) == "mamba_d_head");
  std::string odd = bamba;
  odd.replace(odd.find(R"("mamba_n_heads":4)"), 17, R"("mamba_n_heads":5)");
  CHECK(error_field(odd) == "mamba_n_heads");
}

TEST_CASE("granitemoehybrid: Granite-4.0-H-Tiny matches its published 6,939,037,248 parameters") {
  // Published: Hugging Face API safetensors.total of ibm-granite/granite-4.0-h-tiny-base (revision f95c8e83)
  // = 6,939,037,248, as transcribed in public code (see tests/fixtures/configs/README.md).
  // By hand (GraniteMoeHybridDecoderLayer): Mamba-2 mixer, inner 48 x 64 = 3,072, conv channels 3,072 + 256 =
  // 3,328: in_proj (3,072 + 3,328 + 48) x 1,536 = 9,904,128; conv 13,312 + 3,328; 144 scalars; norm 3,072;
  // out_proj 4,718,592 -> 14,642,576. Attention: q and o 1,536 x 1,536, k and v 512 x 1,536 -> 6,291,456.
  // MoE: router 64 x 1,536 = 98,304; 64 experts x 3 x 512 x 1,536 = 150,994,944; shared_mlp 3 x 1,024 x 1,536 =
  // 4,718,592 -> 155,811,840. Two norms a layer 3,072. Tied embedding 100,352 x 1,536 = 154,140,672; norm 1,536.
  const std::int64_t mamba = 14'642'576, attention = 6'291'456, moe = 155'811'840, norms = 3'072;
  const std::int64_t expected = 36 * (mamba + moe + norms) + 4 * (attention + moe + norms) + 154'140'672 + 1'536;
  CHECK(expected == 6'939'037'248);
  const ModelDescription model = parse_hf_config(granite_4_h_tiny());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 6'939'037'248);
  CHECK(count.breakdown.ssm == 36 * mamba);
  CHECK(count.breakdown.attention == 4 * attention);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(model.parameter_count_exact());
  CHECK(model.position_encoding == PositionEncoding::none);
  // Active: 6 of 64 experts: total - 40 x 58 x 2,359,296.
  CHECK(count.active_per_token == 6'939'037'248 - 40LL * 58 * 2'359'296);
  // KV: 4 attention layers x 4 kv heads x (128 + 128) x 2 B = 8,192 B per token; state per Mamba-2 layer
  // conv 3,328 x 4 + SSM 48 x 64 x 128 = 406,528 values (813,056 B), 36 layers: 29,270,016 B.
  InferenceWorkload w;
  w.batch_size = 2;
  w.context_tokens = 4096;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 8'192);
  CHECK(figure.state_bytes_per_sequence == 29'270'016);
  CHECK(figure.bytes == 2 * (29'270'016LL + 8'192LL * 4096));
}

TEST_CASE("granitemoehybrid: the dense form is shared_mlp alone, and refusals name the field") {
  std::string dense = granite_4_h_tiny();
  dense.replace(dense.find(R"("num_local_experts":64)"), 22, R"("num_local_experts":0 )");
  dense.replace(dense.find(R"("num_experts_per_tok":6)"), 23, R"("num_experts_per_tok":0)");
  // Each layer loses the router and 64 experts (98,304 + 150,994,944); shared_mlp stays.
  CHECK(count_parameters(parse_hf_config(dense)).total == 6'939'037'248 - 40LL * (98'304 + 150'994'944));
  std::string no_experts = granite_4_h_tiny();
  no_experts.replace(no_experts.find(R"("num_local_experts":64,)"), 23, "");
  CHECK(error_field(no_experts) == "num_local_experts");
  std::string bad_type = granite_4_h_tiny();
  bad_type.replace(bad_type.find(R"("attention")"), 11, R"("moe")");
  CHECK(error_field(bad_type) == "layer_types");
  std::string short_list = granite_4_h_tiny();
  short_list.replace(short_list.find(R"("num_hidden_layers":40)"), 22, R"("num_hidden_layers":41)");
  CHECK(error_field(short_list) == "layer_types");
}

TEST_CASE("mamba: Mamba-2.8B counted block by block matches the published 2,768,345,600") {
  // Published: "Number of parameters: 2768345600" on loading state-spaces/mamba-2.8b (AMD ROCm blog, GitHub
  // ROCm/rocm-blogs@e4ea0bcf0419 blogs/artificial-intelligence/mamba/README.md); mamba-2.8b-hf is its conversion.
  // By hand (MambaMixer, MambaBlock, MambaModel): hidden 2560, 64 blocks, intermediate_size 5120, state 16,
  // kernel 4, time_step_rank 160: in_proj 2 x 5120 x 2560 = 26,214,400; conv1d 5120 x 4 + bias 5120 = 25,600;
  // x_proj (160 + 32) x 5120 = 983,040; dt_proj 160 x 5120 + bias 5120 = 824,320; A_log 5120 x 16 = 81,920;
  // D 5,120; out_proj 2560 x 5120 = 13,107,200 -> 41,241,600 (+ the block's RMSNorm 2,560). No
  // tie_word_embeddings key: PretrainedConfig ties lm_head to the 50,280 x 2560 = 128,716,800 embedding; norm_f.
  const std::int64_t mixer = 41'241'600, norm = 2'560, embedding = 128'716'800;
  CHECK(64 * (mixer + norm) + embedding + norm == 2'768'345'600);
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/state-spaces--mamba-2.8b-hf.json"));
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 2'768'345'600);
  CHECK(count.breakdown.ssm == 64 * mixer);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(count.breakdown.attention == 0);
  CHECK(model.tie_word_embeddings);
  CHECK(model.parameter_count_exact());
  // State per layer: conv 5120 x 4 + SSM 5120 x 16 = 102,400 values; at 2 B, 64 layers: 13,107,200 B per
  // sequence and no KV cache.
  REQUIRE(model.layer_kinds.size() == 1);
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[0], 1) == 102'400);
  InferenceWorkload w;
  w.batch_size = 2;
  w.context_tokens = 2048;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 0);
  CHECK(figure.state_bytes_per_sequence == 64 * 204'800);
  CHECK(figure.bytes == 2 * 64 * 204'800LL);
  // tp 2 splits the 5120 channels: (2560 x 4 + 2560 x 16) values per rank.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[0], 1, 2) == 51'200);
  const InferenceEstimate e = estimate_inference(
      test::read_file(test::fixture_configs_dir() + "/state-spaces--mamba-2.8b-hf.json"), {{"gpu", "h100"}});
  REQUIRE(e.on_gpu);
  CHECK(std::isfinite(e.on_gpu->latency.explanation.estimate.totals.decode_total_seconds));
  const std::string params =
      parameter_report_json(test::read_file(test::fixture_configs_dir() + "/state-spaces--mamba-2.8b-hf.json"));
  CHECK(params.find("\"kind\":\"mamba1\"") != std::string::npos);
  CHECK(params.find("\"time_step_rank\":160") != std::string::npos);
}

TEST_CASE("falcon_mamba: Falcon-Mamba-7B's shapes by hand; intermediate_size wins over expand") {
  // Falcon-Mamba-7B's fields as public benchmark code quotes its config (no published exact count was found):
  // "expand": 16 beside "intermediate_size": 8192. FalconMambaConfig computes expand x hidden, then
  // PretrainedConfig sets intermediate_size from the file over it, and FalconMambaMixer reads intermediate_size.
  // Mixer: in_proj 2 x 8192 x 4096 = 67,108,864; conv1d 8192 x 4 + 8192 = 40,960; x_proj (256 + 32) x 8192 =
  // 2,359,296; dt_proj 256 x 8192 + 8192 = 2,105,344; A_log 131,072; D 8,192; out_proj 33,554,432 ->
  // 105,308,160 (+ norm 4,096); untied 65,024 x 4096 = 266,338,304 twice; norm_f: 7,272,665,088.
  const std::string falcon = R"({"model_type":"falcon_mamba","hidden_size":4096,"num_hidden_layers":64,
    "intermediate_size":8192,"expand":16,"state_size":16,"conv_kernel":4,"time_step_rank":256,"vocab_size":65024,
    "tie_word_embeddings":false,"use_bias":false,"use_conv_bias":true,"mixer_rms_eps":1e-06})";
  CHECK(64 * (105'308'160LL + 4'096) + 2 * 266'338'304LL + 4'096 == 7'272'665'088);
  CHECK(count_parameters(parse_hf_config(falcon)).total == 7'272'665'088);
  // Without intermediate_size, expand x hidden; time_step_rank "auto" is ceil(hidden / 16).
  const std::string small = R"({"model_type":"mamba","hidden_size":40,"num_hidden_layers":1,"vocab_size":10,
    "expand":2,"state_size":4,"conv_kernel":3,"time_step_rank":"auto","use_bias":true})";
  // inner 80, rank 3: in_proj 160 x 40 + bias 160 = 6,560; conv 240 + 80; x_proj 11 x 80 = 880; dt_proj 240 + 80;
  // A_log 320; D 80; out_proj 3,200 + bias 40 -> 11,720; norm 40; tied embedding 400; norm_f 40: 12,200.
  CHECK(count_parameters(parse_hf_config(small)).total == 12'200);
  std::string word = small;
  word.replace(word.find(R"("auto")"), 6, R"("half")");
  CHECK(error_field(word) == "time_step_rank");
}

TEST_CASE("jamba: Jamba's shapes give the checkpoint's 51,570,323,328 parameters") {
  // The shape fields of ai21labs/AI21-Jamba-1.5-Mini's config.json, as public test code quotes them (Jamba-v0.1
  // has the same). Published: model.safetensors.index.json total_size 103,140,646,656 B, all bf16, as transcribed
  // in a public model card; / 2 = 51,570,323,328 (see tests/fixtures/configs/README.md).
  const std::string jamba = R"({"model_type":"jamba","architectures":["JambaForCausalLM"],"attn_layer_offset":4,
    "attn_layer_period":8,"expert_layer_offset":1,"expert_layer_period":2,"hidden_size":4096,
    "intermediate_size":14336,"mamba_conv_bias":true,"mamba_d_conv":4,"mamba_d_state":16,"mamba_dt_rank":256,
    "mamba_expand":2,"mamba_proj_bias":false,"max_position_embeddings":262144,"num_attention_heads":32,
    "num_experts":16,"num_experts_per_tok":2,"num_hidden_layers":32,"num_key_value_heads":8,
    "tie_word_embeddings":false,"vocab_size":65536})";
  // By hand (JambaMambaMixer): in_proj 2 x 8192 x 4096 = 67,108,864; conv1d 32,768 + 8,192; x_proj (256 + 32) x
  // 8192 = 2,359,296; dt_proj 256 x 8192 + 8192 = 2,105,344; A_log 131,072; D 8,192; out_proj 33,554,432;
  // dt, B and C RMSNorms 256 + 16 + 16 -> 105,308,448. Attention (layers 4, 12, 20, 28): q and o 16,777,216,
  // k and v 4,194,304 -> 41,943,040. JambaMLP 3 x 14,336 x 4096 = 176,160,768; the odd layers route 16 of them
  // (router 65,536) -> 2,818,637,824. Two RMSNorms a layer 8,192; untied 65,536 x 4096 twice; final norm.
  const std::int64_t mamba = 105'308'448, attention = 41'943'040, mlp = 176'160'768, moe = 2'818'637'824, norms = 8'192;
  const std::int64_t expected = 16 * (mamba + moe + norms) + 12 * (mamba + mlp + norms) +
                                4 * (attention + mlp + norms) + 2 * 65'536LL * 4'096 + 4'096;
  CHECK(expected == 51'570'323'328);
  const ModelDescription model = parse_hf_config(jamba);
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 51'570'323'328);
  CHECK(count.breakdown.ssm == 28 * mamba);
  CHECK(count.breakdown.attention == 4 * attention);
  CHECK(model.parameter_count_exact());
  // Active: 2 of 16 experts in 16 layers.
  CHECK(count.active_per_token == 51'570'323'328 - 16LL * 14 * mlp);
  // KV: 4 layers x 8 kv heads x 256 x 2 B = 16,384 B per token; state: 28 layers x (8192 x 4 + 8192 x 16) x 2 B.
  InferenceWorkload w;
  w.batch_size = 1;
  w.context_tokens = 1000;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 16'384);
  CHECK(figure.state_bytes_per_sequence == 28 * 327'680);
  // No expert count: refused, naming the field.
  std::string no_experts = jamba;
  no_experts.replace(no_experts.find(R"("num_experts":16,)"), 17, "");
  CHECK(error_field(no_experts) == "num_local_experts");
}

TEST_CASE("an unknown model_type is counted as an estimate and says what was guessed") {
  const std::string molmo = R"({"model_type":"molmo","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})";
  const ModelDescription model = parse_hf_config(molmo);
  CHECK_FALSE(model.parameter_count_exact());
  REQUIRE_FALSE(model.guessed_fields.empty());
  CHECK(model.guessed_fields.front().find("unknown model_type 'molmo'") != std::string::npos);
  const std::string params = parameter_report_json(molmo);
  CHECK(params.find("\"parameter_count_exact\":false") != std::string::npos);
  CHECK(params.find("\"guessed_fields\":[\"model_type: unknown model_type 'molmo'") != std::string::npos);
  const std::string infer = inference_report_json(molmo, {});
  CHECK(infer.find("\"parameter_count_exact\":false") != std::string::npos);
  // A known family is exact and says so.
  const std::string llama = R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"vocab_size":1000})";
  CHECK(parse_hf_config(llama).parameter_count_exact());
  CHECK(parameter_report_json(llama).find("\"parameter_count_exact\":true,\"guessed_fields\":[]") != std::string::npos);
  // The CLI marks the number itself: 64,000 + 2 x (16,384 + 24,576 + 128) + 64 + 64,000 = 210,240.
  const auto table = test::run_cli("params -", molmo);
  CHECK(table.exit_status == 0);
  CHECK(table.out.find("~210,240") != std::string::npos);
  CHECK(table.out.find("(estimate: model_type: unknown model_type 'molmo'") != std::string::npos);
}

TEST_CASE("MoE fields that contradict the family are refused, naming the field, for every family") {
  const std::string base = R"("hidden_size":64,"intermediate_size":128,"moe_intermediate_size":32,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,
    "kv_lora_rank":16,"qk_nope_head_dim":8,"qk_rope_head_dim":8,"v_head_dim":8)";
  const char* moe_families[] = {"mixtral", "qwen2_moe", "qwen3_moe",   "olmoe",       "granitemoe", "granitemoeshared",
                                "phimoe",  "gpt_oss",   "deepseek_v2", "deepseek_v3", "kimi_k2"};
  for (const char* family : moe_families) {
    CAPTURE(family);
    const std::string head = std::string(R"({"model_type":")") + family + "\"," + base;
    // Zero experts is not a dense model of an always-MoE family.
    CHECK(error_field(head + R"(,"num_local_experts":0,"num_experts_per_tok":2})") == "num_local_experts");
    CHECK(error_field(head + R"(,"num_experts":0})") == "num_experts");
    // No expert count at all: transformers would take its configuration class's default; fitcheck refuses.
    CHECK(error_field(head + R"(,"num_experts_per_tok":2})") == "num_local_experts");
    // With experts the family reads.
    CHECK(error_field(head + R"(,"num_local_experts":4,"num_experts_per_tok":2})") == "(no error)");
  }
  const char* dense_families[] = {"llama", "mistral", "qwen2", "qwen3",   "gemma",     "gemma2",    "gemma3_text",
                                  "phi3",  "cohere",  "olmo2", "granite", "internlm2", "starcoder2"};
  for (const char* family : dense_families) {
    CAPTURE(family);
    const std::string head = std::string(R"({"model_type":")") + family + "\"," + base;
    CHECK(error_field(head + R"(,"num_local_experts":8,"num_experts_per_tok":2})") == "num_local_experts");
    CHECK(error_field(head + R"(,"num_experts_per_tok":2})") == "num_experts_per_tok");
    CHECK(error_field(head + "}") == "(no error)");
  }
}

TEST_CASE("training memory refuses state-space layers rather than leaving their activations out") {
  const std::string text = small_nemotron_h("M*-");
  const auto result = test::run_cli("train - --json", text);
  CHECK(result.exit_status != 0);
  CHECK(result.err.find("state-space (Mamba)") != std::string::npos);
  // The training planner says the same, not "no training layout fits".
  const auto plan = test::run_cli("plan - --mode training --json", text);
  CHECK(plan.exit_status != 0);
  CHECK(plan.err.find("state-space (Mamba)") != std::string::npos);
}

TEST_CASE("images per request: each adds mm_tokens_per_image tokens to the prompt and the context") {
  const std::string medgemma = test::read_file(test::fixture_configs_dir() + "/google--medgemma-27b-it.json");
  // 2 images x 256 tokens = 512 tokens: the cache of context 4,096 + 512 = the cache of context 4,608.
  const InferenceEstimate with_images = estimate_inference(medgemma, {{"context", "4096"}, {"images", "2"}});
  const InferenceEstimate longer = estimate_inference(medgemma, {{"context", "4608"}});
  CHECK(with_images.image_tokens == 512);
  CHECK(with_images.workload.context_tokens == 4608);
  CHECK(with_images.memory.totals.kv_cache_bytes == longer.memory.totals.kv_cache_bytes);
  CHECK(with_images.lengths.prompt_tokens ==
        estimate_inference(medgemma, {{"context", "4096"}}).lengths.prompt_tokens + 512);
  // 0 images changes nothing.
  CHECK(inference_report_json(estimate_inference(medgemma, {{"images", "0"}})) ==
        inference_report_json(estimate_inference(medgemma, {})));
  // A model without a counted vision tower refuses the option, naming it.
  try {
    estimate_inference(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
      "num_attention_heads":4,"vocab_size":1000})",
                       {{"images", "1"}});
    FAIL("images on a text-only model was accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "images");
  }
}
