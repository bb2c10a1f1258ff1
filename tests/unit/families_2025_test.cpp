// SPDX-License-Identifier: MIT
// OLMo 3, EXAONE 4.0, Seed-OSS and Cohere 2: real configs against their published counts
// (tests/fixtures/configs/MANIFEST.tsv, checked in params_test.cpp) written out module by module,
// and tiny configs for each family's defaults, biases and sliding layers, each count derived by
// hand from the family's transformers modeling file (cited in core/src/config/config_families_2025.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/quantization.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::vector<std::int64_t> windows(const ModelDescription& model) {
  std::vector<std::int64_t> result;
  for (const auto kind : model.layer_kind_of_layer) result.push_back(model.layer_kinds[kind].attention.sliding_window);
  return result;
}

bool mentions(const ModelDescription& model, const std::string& text) {
  for (const auto& assumption : model.assumptions)
    if (assumption.find(text) != std::string::npos) return true;
  return false;
}

std::string refused_field(const char* text) {
  try {
    parse_hf_config(text);
  } catch (const ConfigError& error) {
    return error.field();
  }
  return "";
}

}  // namespace

TEST_CASE("EXAONE-4.0-1.2B: post-norms, per-head q/k norms, no biases, tied embedding, every layer global") {
  const ModelDescription model = test::fixture_model("LGAI-EXAONE--EXAONE-4.0-1.2B.json");
  CHECK(model.parameter_count_exact());
  const ParameterCount count = count_parameters(model);
  // Per layer: q 2048x2048 = 4,194,304, k and v 2048x512 = 1,048,576 each, o 4,194,304, q_norm and
  // k_norm 64 each, gate/up/down 3 x 2048x4096 = 25,165,824, post_attention and post_feedforward
  // norms 2 x 2048: 35,655,808. 30 layers, the tied 102400x2048 embedding 209,715,200 and the final
  // norm 2,048: 1,279,391,488.
  CHECK(count.total == 30LL * 35'655'808 + 209'715'200 + 2'048);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(count.breakdown.norms == 30 * 4'096 + 2'048);
  for (const std::int64_t window : windows(model)) CHECK(window == 0);  // layer_types: full_attention
}

TEST_CASE("Olmo-3 7B: OLMo 2's layers with sliding windows on three layers of four") {
  const ModelDescription model = test::fixture_model("allenai--Olmo-3-1025-7B.json");
  const ParameterCount count = count_parameters(model);
  // Per layer: q/k/v/o 4 x 4096^2 = 67,108,864, q_norm and k_norm over the full 4096 width each,
  // gate/up/down 3 x 4096x11008 = 135,266,304, two post-norms 8,192: 202,391,552. 32 layers, untied
  // 100278x4096 embedding and lm_head 2 x 410,738,688 and the final norm: 7,298,011,136.
  CHECK(count.total == 32LL * 202'391'552 + 2 * 410'738'688 + 4'096);
  const auto w = windows(model);
  REQUIRE(w.size() == 32);
  CHECK(w[0] == 4096);
  CHECK(w[2] == 4096);
  CHECK(w[3] == 0);
  CHECK(w[31] == 0);
}

TEST_CASE("Seed-OSS-36B: q/k/v biases with attention_bias, none on o_proj (attention_out_bias false)") {
  const ParameterCount count = count_parameters(test::fixture_model("ByteDance-Seed--Seed-OSS-36B-Instruct.json"));
  // Attention per layer: q 5120x10240 + 10240, k and v 5120x1024 + 1024 each, o 10240x5120:
  // 52,428,800 x 2 + 5,242,880 x 2 + 12,288 = 115,355,648. MLP 3 x 5120x27648 = 424,673,280, two
  // norms 10,240: 540,039,168 per layer. 64 layers, untied 155136x5120 embedding and lm_head
  // 2 x 794,296,320 and the final norm: 36,151,104,512.
  CHECK(count.breakdown.attention == 64LL * 115'355'648);
  CHECK(count.total == 64LL * 540'039'168 + 2 * 794'296'320 + 5'120);
}

TEST_CASE("seed_oss defaults: attention_bias true, attention_out_bias false; each switch on its own") {
  const std::string base = R"({"model_type":"seed_oss","hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,
    "num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":100,"tie_word_embeddings":false)";
  // q 4,096 + 64, k and v 2,048 + 32 each, o 4,096; MLP 3 x 8,192; two norms 128: 37,120;
  // embedding and lm_head 2 x 6,400 and the final norm 64.
  CHECK(count_parameters(parse_hf_config(base + "}")).total == 37'120 + 12'800 + 64);
  CHECK(count_parameters(parse_hf_config(base + R"(,"attention_out_bias":true})")).total == 37'120 + 64 + 12'864);
  CHECK(count_parameters(parse_hf_config(base + R"(,"attention_bias":false})")).total == 37'120 - 128 + 12'864);
  CHECK(refused_field(R"({"model_type":"seed_oss","hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,
    "num_attention_heads":4,"vocab_size":100,"num_experts":8})") == "num_experts");
}

TEST_CASE("exaone4: no biases whatever attention_bias says, and an L/G pattern whose last layer is global") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"exaone4","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":5,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"sliding_window":16,
    "sliding_window_pattern":"LLG","attention_bias":true,"tie_word_embeddings":false})");
  // Per layer: q 4,096, k 2,048, v 2,048, o 4,096, q_norm and k_norm 16 each, MLP 3 x 8,192, two
  // norms 128: 37,024; 5 layers, embedding and lm_head 2 x 6,400, final norm 64.
  CHECK(count_parameters(model).total == 5 * 37'024 + 12'864);
  CHECK(windows(model) == std::vector<std::int64_t>{16, 16, 0, 16, 0});
  CHECK(refused_field(R"({"model_type":"exaone4","hidden_size":64,"intermediate_size":128,"num_hidden_layers":4,
    "num_attention_heads":4,"vocab_size":100,"sliding_window":16,"sliding_window_pattern":"LLXG"})") ==
        "sliding_window_pattern");
}

TEST_CASE("exaone4 and olmo3 without layer_types: the configuration classes' default patterns") {
  const ModelDescription exaone = parse_hf_config(R"({"model_type":"exaone4","hidden_size":64,
    "intermediate_size":128,"num_hidden_layers":4,"num_attention_heads":4,"vocab_size":100,"sliding_window":8})");
  CHECK(windows(exaone) == std::vector<std::int64_t>{8, 8, 8, 0});  // sliding_window_pattern 4
  const ModelDescription no_window = parse_hf_config(R"({"model_type":"exaone4","hidden_size":64,
    "intermediate_size":128,"num_hidden_layers":4,"num_attention_heads":4,"vocab_size":100,"sliding_window":null})");
  CHECK(windows(no_window) == std::vector<std::int64_t>{0, 0, 0, 0});
  const ModelDescription olmo = parse_hf_config(R"({"model_type":"olmo3","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":8,"num_attention_heads":4,"vocab_size":100})");
  CHECK(windows(olmo) == std::vector<std::int64_t>{4096, 4096, 4096, 0, 4096, 4096, 4096, 0});
  CHECK(mentions(olmo, "sliding_window absent"));
  CHECK(mentions(olmo, "layer_types absent"));
}

TEST_CASE("cohere2: one bias-free LayerNorm per parallel layer, tied head, no q/k norms, sliding 3 of 4") {
  const ModelDescription model = parse_hf_config(R"({"model_type":"cohere2","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":4,"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"sliding_window":16,
    "use_qk_norm":true,"mlp_bias":true})");
  // Per layer: q 4,096, k 2,048, v 2,048, o 4,096, MLP 3 x 8,192 and one LayerNorm weight 64: 36,928.
  // Cohere2Attention builds no q/k norms, whatever use_qk_norm says, and CohereMLP no biases, whatever
  // mlp_bias says. Tied 100x64 embedding, final norm 64.
  CHECK(count_parameters(model).total == 4 * 36'928 + 6'400 + 64);
  CHECK(windows(model) == std::vector<std::int64_t>{16, 16, 16, 0});
  CHECK(model.layer_kinds[0].parallel_attention_mlp);
  const ModelDescription every_other = parse_hf_config(R"({"model_type":"cohere2","hidden_size":64,
    "intermediate_size":128,"num_hidden_layers":4,"num_attention_heads":4,"vocab_size":100,"sliding_window":16,
    "sliding_window_pattern":2})");
  CHECK(windows(every_other) == std::vector<std::int64_t>{16, 0, 16, 0});
}

TEST_CASE("GLM-4.5: dense first layers, 160 routed experts and a shared one, qkv biases, q/k norms, MTP apart") {
  const ModelDescription model = test::fixture_model("zai-org--GLM-4.5.json");
  const ParameterCount count = count_parameters(model);
  // Attention per layer: q 5120x12288 and o 12288x5120 (62,914,560 each), k and v 5120x1024 (5,242,880
  // each), q/k/v biases 12,288 + 2 x 1,024 and no o_proj bias, q_norm and k_norm of head_dim 128:
  // 136,329,472. Two norms 10,240. Layers 0-2: a dense MLP 3 x 5120x12288 = 188,743,680 (325,083,392 a
  // layer). Layers 3-91: router 160x5120 and its 160 correction biases 819,360, 160 experts of
  // 3 x 5120x1536 = 23,592,960 and a shared expert of the same size (3,935,625,632 a layer). Untied
  // 151552x5120 embedding and lm_head 2 x 775,946,240, final norm 5,120.
  const std::int64_t expert = 23'592'960;
  CHECK(count.total == 3 * 325'083'392LL + 89 * 3'935'625'632LL + 2 * 775'946'240LL + 5'120);
  // A token uses 8 of the 160 routed experts in each of the 89 MoE layers.
  CHECK(count.active_per_token == count.total - 89LL * 152 * expert);
  CHECK(count.active_per_token == 33'632'266'144);
  // The MTP layer (num_nextn_predict_layers 1): one more MoE layer, enorm, hnorm and the head's norm
  // (3 x 5,120), eh_proj 10240x5120. The checkpoint also stores its own copies of the embedding and
  // head: 352,797,829,024 + 3,988,069,792 + 2 x 775,946,240 = 358,337,791,296, the published count.
  CHECK(count.multi_token_prediction == 3'935'625'632LL + 3 * 5'120 + 10'240LL * 5'120);
  CHECK(count.total + count.multi_token_prediction + 2 * 775'946'240LL == 358'337'791'296);
}

TEST_CASE("GLM-4.5-Air: one dense layer, 128 experts, no q/k norms") {
  const ParameterCount count = count_parameters(test::fixture_model("zai-org--GLM-4.5-Air.json"));
  // Attention 2 x 4096x12288 + 2 x 4096x1024 + biases 14,336 = 109,066,240; norms 8,192. Layer 0: dense
  // MLP 3 x 4096x10944 = 134,479,872. Layers 1-45: router 128x4096 + 128, 129 experts of 3 x 4096x1408 =
  // 17,301,504. Untied 151552x4096 embedding and lm_head 2 x 620,756,992, final norm 4,096.
  const std::int64_t expert = 17'301'504;
  const std::int64_t moe_layer = 109'066'240 + 524'416 + 129 * expert + 8'192;
  CHECK(count.total == (109'066'240 + 134'479'872 + 8'192) + 45 * moe_layer + 2 * 620'756'992LL + 4'096);
  CHECK(count.active_per_token == count.total - 45LL * 120 * expert);
  CHECK(count.total + count.multi_token_prediction + 2 * 620'756'992LL == 110'468'824'832);
}

TEST_CASE("glm4_moe refuses what it cannot count: no expert count, 0 experts, a missing first_k_dense_replace") {
  const std::string head = R"({"model_type":"glm4_moe","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"num_experts_per_tok":2,"moe_intermediate_size":32,
    "n_shared_experts":1)";
  CHECK(refused_field((head + R"(,"first_k_dense_replace":1})").c_str()) == "num_local_experts");
  CHECK(refused_field((head + R"(,"first_k_dense_replace":1,"n_routed_experts":0})").c_str()) == "n_routed_experts");
  CHECK(refused_field((head + R"(,"n_routed_experts":4})").c_str()) == "first_k_dense_replace");
  // With all of them: layer 0 dense (3 x 64x128), layer 1 four experts and a shared one of 3 x 64x32, a
  // router 4x64 + 4 correction biases; attention 2 x 4,096 + 2 x 2,048 with no biases (attention_bias absent).
  const ParameterCount count =
      count_parameters(parse_hf_config(head + R"(,"first_k_dense_replace":1,"n_routed_experts":4})"));
  CHECK(count.total == (12'288 + 24'576 + 128) + (12'288 + 260 + 5 * 6'144 + 128) + 2 * 6'400 + 64);
}

TEST_CASE("Apertus-8B: ungated MLP, per-head q/k norms, two learned xIELU scalars a layer") {
  const ParameterCount count = count_parameters(test::fixture_model("swiss-ai--Apertus-8B-Instruct-2509.json"));
  // Per layer: q and o 4096x4096 (16,777,216 each), k and v 4096x1024 (4,194,304 each), q_norm and
  // k_norm 128 each, up and down 4096x21504 (88,080,384 each), xIELU alpha_p and alpha_n, two norms
  // 8,192: 218,112,258. 32 layers, untied 131072x4096 embedding and lm_head 2 x 536,870,912, final norm.
  CHECK(count.total == 32LL * 218'112'258 + 2 * 536'870'912LL + 4'096);
  CHECK(count.breakdown.mlp == 32LL * (2 * 88'080'384 + 2));
}

TEST_CASE("apertus: xIELU's scalars only with hidden_act xielu (the default), no biases on the MLP") {
  const std::string base = R"({"model_type":"apertus","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":100,"mlp_bias":true,"tie_word_embeddings":false)";
  // Per layer: q/k/v/o 4 x 4,096 (MHA), q_norm and k_norm 16 each, up and down 2 x 8,192, two norms 128:
  // 32,928, plus 2 xIELU scalars; embedding and lm_head 2 x 6,400, final norm 64.
  CHECK(count_parameters(parse_hf_config(base + "}")).total == 2 * (32'928 + 2) + 12'864);
  CHECK(count_parameters(parse_hf_config(base + R"(,"hidden_act":"relu2"})")).total == 2 * 32'928 + 12'864);
}

TEST_CASE("ernie4_5: Llama's layers with use_bias on every projection; ERNIE-4.5-0.3B's shapes by hand") {
  const std::string base = R"({"model_type":"ernie4_5","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":100)";
  // Per layer: q 4,096, k 2,048, v 2,048, o 4,096, MLP 3 x 8,192, two norms 128: 36,992; with use_bias
  // also q/k/v/o biases 64 + 32 + 32 + 64 and gate/up/down biases 128 + 128 + 64: 37,504. Tied 100x64
  // embedding (Ernie4_5Config's default) and the final norm.
  CHECK(count_parameters(parse_hf_config(base + "}")).total == 2 * 36'992 + 6'464);
  CHECK(count_parameters(parse_hf_config(base + R"(,"use_bias":true})")).total == 2 * 37'504 + 6'464);
  // ERNIE-4.5-0.3B (Ernie4_5Config's defaults): q 1024x2048 and o 2048x1024, k and v 1024x256, MLP
  // 3 x 1024x3072, two norms: 14,157,824 a layer; 18 layers, tied 103424x1024 embedding, final norm:
  // 360,748,032, the figure a public analysis log gives for it (params=360748032, L=18, d=1024).
  const ParameterCount small = count_parameters(parse_hf_config(R"({"model_type":"ernie4_5","hidden_size":1024,
    "intermediate_size":3072,"num_hidden_layers":18,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":128,
    "vocab_size":103424,"tie_word_embeddings":true,"use_bias":false})"));
  CHECK(small.total == 18LL * 14'157'824 + 105'906'176 + 1'024);
}

TEST_CASE("ernie4_5_moe: MoE layers by start, end and interval, shared experts, correction bias, use_bias") {
  const std::string base = R"({"model_type":"ernie4_5_moe","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":4,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":100,
    "moe_num_experts":4,"moe_k":2,"moe_intermediate_size":32,"moe_layer_start_index":1,"moe_layer_end_index":-1,
    "moe_layer_interval":2,"tie_word_embeddings":false,"num_nextn_predict_layers":1)";
  // Layers 1 and 3 are MoE ((i + 1) % 2 == 0, from 1 to the last): attention 12,288, router 4x64 and 4
  // correction biases, 4 experts of 3 x 64x32 = 6,144, shared experts 3 x 64x64 (2 x 32 wide), two norms:
  // 49,540. Layers 0 and 2 dense: 12,288 + 24,576 + 128 = 36,992. Untied embedding and head 2 x 6,400.
  const ModelDescription model = parse_hf_config(base + R"(,"moe_num_shared_experts":2})");
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == 2 * 36'992 + 2 * 49'540 + 12'864);
  CHECK(count.active_per_token == count.total - 2 * 2 * 6'144);  // 2 of 4 experts idle in 2 layers
  CHECK(count.multi_token_prediction == 0);
  CHECK(mentions(model, "MTP weights are not counted"));
  // use_bias: q/k/v/o biases 192 a layer, dense MLP biases 320, each expert 32 + 32 + 64, the shared
  // MLP 64 + 64 + 64, and lm_head's 100 (Ernie4_5_MoeForCausalLM).
  CHECK(count_parameters(parse_hf_config(base + R"(,"moe_num_shared_experts":2,"use_bias":true})")).total ==
        count.total + 4 * 192 + 2 * 320 + 2 * (4 * 128 + 192) + 100);
  CHECK(refused_field((base + "}").c_str()) == "moe_num_shared_experts");
  CHECK(refused_field((base + R"(,"moe_num_shared_experts":2,"moe_num_experts":0})").c_str()) == "moe_num_experts");
}

TEST_CASE("hunyuan_v1_dense: per-head query/key layernorms, no MLP biases whatever mlp_bias says") {
  const std::string base = R"({"model_type":"hunyuan_v1_dense","hidden_size":64,"intermediate_size":128,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":100,
    "mlp_bias":true,"tie_word_embeddings":true)";
  // Per layer: q/k/v/o 12,288, query_layernorm and key_layernorm 16 each, MLP 3 x 8,192, two norms 128:
  // 37,024; tied embedding 6,400 and the final norm.
  CHECK(count_parameters(parse_hf_config(base + "}")).total == 2 * 37'024 + 6'464);
  CHECK(count_parameters(parse_hf_config(base + R"(,"attention_bias":true})")).total == 2 * (37'024 + 192) + 6'464);
  CHECK(refused_field((base + R"(,"num_experts":4})").c_str()) == "num_experts");
}

TEST_CASE("hunyuan_v1_moe: experts and a shared MLP of intermediate_size in every layer, moe_topk per token") {
  const std::string base = R"({"model_type":"hunyuan_v1_moe","hidden_size":64,"intermediate_size":32,
    "num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":100,
    "num_experts":4,"moe_intermediate_size":999,"tie_word_embeddings":true)";
  // Per layer: attention 12,288 and q/k layernorms 16 each, wg 4x64, 4 experts and the shared MLP each
  // 3 x 64x32 = 6,144 (intermediate_size: HunYuanMoEV1MLP does not read moe_intermediate_size), two norms
  // 128: 43,424; tied embedding 6,400 and the final norm.
  const ParameterCount count = count_parameters(parse_hf_config(base + R"(,"moe_topk":2})"));
  CHECK(count.total == 2 * 43'424 + 6'464);
  CHECK(count.active_per_token == count.total - 2 * 2 * 6'144);
  CHECK(refused_field((base + R"(,"moe_topk":[2, 2]})").c_str()) == "moe_topk");
}

TEST_CASE("deepseek_v32: DeepSeek-V3.2's lightning indexer by hand, and the published tensor total") {
  const ModelDescription model = test::fixture_model("deepseek-ai--DeepSeek-V3.2.json");
  const ParameterCount count = count_parameters(model);
  // Indexer per layer (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py Indexer): wq_b 64 x 128 from the
  // 1,536 query latent = 12,582,912; wk 128 x 7,168 = 917,504; k_norm weight and bias 2 x 128 = 256;
  // weights_proj 64 x 7,168 = 458,752 -> 13,959,424. DeepSeek-V3's 671,026,419,200 (params_test.cpp) plus 61 of them.
  const std::int64_t indexer = 12'582'912 + 917'504 + 256 + 458'752;
  CHECK(indexer == 13'959'424);
  CHECK(count.total == 671'026'419'200 + 61 * indexer);
  CHECK(count.total == 671'877'944'064);
  CHECK(count.active_per_token == 37'552'297'472 + 61 * indexer);  // every token runs the indexer
  // The MTP module is DeepSeek-V3's 11,610,068,224 with the indexer of its layer.
  CHECK(count.multi_token_prediction == 11'610'068'224 + indexer);

  // Published: a public model-inspection report of deepseek-ai/DeepSeek-V3.2 (same architecture and
  // shapes as DeepSeek-V3.2-Exp; tests/fixtures/configs/MANIFEST.tsv) sums the elements of all 92,425
  // tensors of its 163 safetensors files: 685,396,921,376. Those are the parameters of the main model
  // and the MTP module, the MTP module's own copies of the embedding and output head (2 x 129,280 x
  // 7,168), and the fp32 weight_scale_inv blocks of every FP8 matrix (one per 128 x 128 block, rounded up).
  // Blocks by hand: attention q_a 12 x 56 = 672, q_b 192 x 12 = 2,304, kv_a 5 x 56 = 280, kv_b 256 x 4 =
  // 1,024, o 56 x 128 = 7,168 -> 11,448; indexer wq_b 64 x 12 = 768, wk 1 x 56 = 56 -> 824 (weights_proj
  // is bf16, unscaled); dense MLP 3 x 144 x 56 = 24,192; MoE layer 257 x 3 x 16 x 56 = 690,816. 62 layers
  // (61 and the MTP's), 3 dense, 59 MoE.
  const std::int64_t blocks = 62 * (11'448 + 824) + 3 * 24'192 + 59 * 690'816;
  CHECK(blocks == 41'591'584);
  const std::int64_t head_copies = 2 * 129'280LL * 7'168;
  CHECK(count.total + count.multi_token_prediction + head_copies + blocks == 685'396'921'376);

  // Stored as the checkpoint is (fp8 e4m3, 128 x 128 blocks): the main model's scales are its 61 layers'
  // blocks, 4 B each: wq_b and wk are quantized, weights_proj stays 16-bit.
  const WeightBytes bytes = weight_bytes(weight_tensors(model), WeightFormat::fp8_e4m3_block128);
  CHECK(bytes.scale_bytes == 4 * (61 * (11'448 + 824) + 3 * 24'192 + 58 * 690'816));

  // The indexer's key cache: 128 FP8 values and one fp32 scale = 132 B per token per layer, on top of
  // MLA's (512 + 64) x 2 B = 1,152 B at bf16; 61 layers.
  InferenceWorkload w;
  w.batch_size = 1;
  w.context_tokens = 1000;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 61 * (1'152 + 132));
  CHECK(figure.bytes == 61LL * (1'152 + 132) * 1000);
  CHECK(figure.convention.find("indexer") != std::string::npos);
  w.kv_cache_dtype = KvCacheDtype::fp8;  // the latent in fp8; the indexer's key is fp8 already
  CHECK(kv_cache(model, w).bytes_per_token == 61 * (576 + 132));
  CHECK(mentions(model, "index_topk (2048)"));
}

TEST_CASE("deepseek_v32: the indexer's fields are required and must fit the attention, naming the field") {
  const std::string base = R"("model_type":"deepseek_v32","hidden_size":64,"intermediate_size":128,
    "moe_intermediate_size":32,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100,"kv_lora_rank":16,
    "qk_nope_head_dim":8,"qk_rope_head_dim":8,"v_head_dim":8,"n_routed_experts":4,"num_experts_per_tok":2)";
  const std::string indexer = R"("index_n_heads":2,"index_head_dim":16,"index_topk":4)";
  // A small model by hand: q_lora_rank 24. Indexer: wq_b 2 x 16 x 24 = 768, wk 16 x 64 = 1,024, k_norm 32,
  // weights_proj 2 x 64 = 128 -> 1,952 a layer, the difference from the same config read as deepseek_v3.
  std::string v3 = base;
  v3.replace(v3.find("deepseek_v32"), 12, "deepseek_v3");
  const std::int64_t without = count_parameters(parse_hf_config("{" + v3 + R"(,"q_lora_rank":24})")).total;
  CHECK(count_parameters(parse_hf_config("{" + base + R"(,"q_lora_rank":24,)" + indexer + "}")).total ==
        without + 2 * 1'952);
  CHECK(test::config_error_field("{" + base + R"(,"q_lora_rank":24,"index_head_dim":16,"index_topk":4})") ==
        "index_n_heads");
  CHECK(test::config_error_field("{" + base + R"(,"q_lora_rank":24,"index_n_heads":2,"index_topk":4})") ==
        "index_head_dim");
  CHECK(test::config_error_field("{" + base + R"(,"q_lora_rank":24,"index_n_heads":2,"index_head_dim":16})") ==
        "index_topk");
  CHECK(test::config_error_field("{" + base + "," + indexer + "}") == "q_lora_rank");
  CHECK(test::config_error_field("{" + base + R"(,"q_lora_rank":24,"index_n_heads":2,"index_head_dim":4,
    "index_topk":4})") == "index_head_dim");
}
