// SPDX-License-Identifier: MIT
// Linear-attention hybrids (Qwen3-Next's Gated DeltaNet): counts against the published checkpoint,
// the recurrent state per sequence in place of a KV cache, and the refusals. Expected values are
// hand calculations from the modeling code (cited in core/src/config/config_linear_attention.cpp),
// never the code's output.
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

std::string qwen3_next_80b() {
  return test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-Next-80B-A3B-Instruct.json");
}

using test::config_error;

// The state per sequence an estimate on an H100 at 8,192 tokens reports, with the given options.
std::int64_t state_per_sequence(const std::string& config, OptionList options) {
  options.emplace_back("gpu", "h100");
  options.emplace_back("context", "8192");
  return estimate_inference(config, options).memory.kv_cache.state_bytes_per_sequence;
}

// A small Qwen3-Next: hidden 64, 4 layers, 2 value heads of 8 sharing 1 key head of 4, kernel 3.
std::string small_qwen3_next(const std::string& extra) {
  return R"({"model_type":"qwen3_next","hidden_size":64,"num_hidden_layers":4,"vocab_size":100,
    "num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":96,
    "linear_num_value_heads":2,"linear_value_head_dim":8,"linear_num_key_heads":1,"linear_key_head_dim":4,
    "linear_conv_kernel_dim":3,"num_experts":4,"num_experts_per_tok":2,"moe_intermediate_size":32,
    "shared_expert_intermediate_size":48)" +
         extra + "}";
}

}  // namespace

TEST_CASE("qwen3_next: Qwen3-Next-80B-A3B counted layer by layer matches the published checkpoint") {
  // Published: the checkpoint's tensor inventory (41 safetensors files, 75,944 tensors) sums to
  // 81,324,862,720 parameters (tests/fixtures/configs/MANIFEST.tsv), mtp.* included; transformers does
  // not load those (Qwen3NextPreTrainedModel._keys_to_ignore_on_load_unexpected), so total_params
  // leaves them out.
  // By hand: Gated DeltaNet (36 layers): in_proj_qkvz (2 x 2,048 + 2 x 4,096) x 2,048 = 25,165,824;
  //   in_proj_ba 64 x 2,048 = 131,072; conv1d 8,192 x 4 = 32,768; dt_bias, A_log 2 x 32; norm 128;
  //   out_proj 2,048 x 4,096 = 8,388,608 -> 33,718,464.
  // Gated attention (12 layers): q_proj (16 x 256 x 2) x 2,048 = 16,777,216; k, v 512 x 2,048 each;
  //   o_proj 2,048 x 4,096 = 8,388,608; q_norm, k_norm 256 each -> 27,263,488.
  // MoE (48 layers): router 512 x 2,048 = 1,048,576; experts 512 x 3 x 512 x 2,048 = 1,610,612,736;
  //   shared expert 3 x 512 x 2,048 = 3,145,728; shared_expert_gate 2,048 -> 1,614,809,088.
  // Two norms a layer 4,096; embed_tokens and lm_head 151,936 x 2,048 = 311,164,928 each; norm 2,048.
  const std::int64_t delta_net = 33'718'464, attention = 27'263'488, moe = 1'614'809'088, norms = 4'096;
  const std::int64_t expected = 36 * delta_net + 12 * attention + 48 * (moe + norms) + 2 * 311'164'928LL + 2'048;
  CHECK(expected == 79'674'391'296);
  // MTP: fc 2,048 x 4,096, one attention + MoE layer with its two norms, three more norms.
  const std::int64_t mtp = 8'388'608 + attention + moe + norms + 3 * 2'048;
  CHECK(expected + mtp == 81'324'862'720);

  const ModelDescription model = parse_hf_config(qwen3_next_80b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 36 * delta_net);
  CHECK(count.breakdown.attention == 12 * attention);
  CHECK(model.parameter_count_exact());
  CHECK(model.assumptions.empty());
  // Active: 10 of 512 routed experts: total - 48 x 502 x 3 x 512 x 2,048 (NVIDIA's card: 3.9B active).
  CHECK(count.active_per_token == expected - 48LL * 502 * 3'145'728);
  CHECK(count.active_per_token == 3'874'929'408);
}

TEST_CASE("qwen3_next: each Gated DeltaNet layer keeps its conv and recurrent state instead of a KV cache") {
  // Qwen3NextDynamicCache (modeling_qwen3_next.py @7515843b6175): conv_states (batch, conv_dim,
  // linear_conv_kernel_dim) = 8,192 x 4 = 32,768 values; recurrent_states (batch, value heads, key
  // head dim, value head dim) = 32 x 128 x 128 = 524,288 values. At 2 B: 1,114,112 B per layer, 36
  // layers 40,108,032 B per sequence. KV: 12 layers x 2 kv heads x (256 + 256) x 2 B = 24,576 B per token.
  const ModelDescription model = parse_hf_config(qwen3_next_80b());
  const LayerShape& delta_net = model.layer_kinds[model.layer_kind_of_layer[0]];
  REQUIRE(delta_net.is_ssm());
  CHECK(ssm_state_bytes_per_sequence_per_layer(delta_net, 2) == 1'114'112);
  // tp 4: 8 value heads and 4 key heads per rank: conv (4 x 128 x 2 + 8 x 128) x 4 + 8 x 128 x 128.
  CHECK(ssm_state_bytes_per_sequence_per_layer(delta_net, 2, 4) == 2 * (2'048 * 4 + 131'072));
  const LayerShape& attention = model.layer_kinds[model.layer_kind_of_layer[3]];
  CHECK_FALSE(attention.is_ssm());
  CHECK(kv_cache_bytes_per_token_per_layer(attention, KvCacheDtype::fp16) == 2'048);

  InferenceWorkload w;
  w.batch_size = 3;
  w.context_tokens = 32768;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 24'576);
  CHECK(figure.state_bytes_per_sequence == 40'108'032);
  CHECK(figure.bytes == 3 * (40'108'032LL + 24'576LL * 32768));
}

TEST_CASE("qwen3_next: inference on a GPU and the planner run with the state counted") {
  const InferenceEstimate e =
      estimate_inference(qwen3_next_80b(), {{"gpu", "h200"}, {"batch", "4"}, {"context", "32768"}, {"tp", "2"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 40'108'032);
  CHECK(e.on_gpu->capacity.max_batch_size.value > 0);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(t.prefill_seconds > 0);
  CHECK(std::isfinite(t.decode_total_seconds));
  CHECK(inference_report_json(e).find("\"state_bytes_per_sequence\":40108032") != std::string::npos);
}

TEST_CASE("qwen3_next: a small model by hand; layer_types, dense layers and class defaults") {
  // full_attention_interval 2: layers 1 and 3 attention, 0 and 2 Gated DeltaNet; mlp_only_layers [0]:
  // layer 0 dense (Qwen3NextMLP of 96).
  const ModelDescription model =
      parse_hf_config(small_qwen3_next(R"(,"full_attention_interval":2,"mlp_only_layers":[0])"));
  // DeltaNet: keys 4, values 16, conv 2 x 4 + 16 = 24: qkvz (24 + 16) x 64 = 2,560; ba 4 x 64 = 256;
  //   conv 24 x 3 = 72; dt_bias, A_log 4; norm 8; out_proj 64 x 16 = 1,024 -> 3,924.
  // Attention: q (4 x 16 x 2) x 64 = 8,192; k, v 32 x 64 = 2,048 each; o 64 x 64 = 4,096; norms 32 -> 16,416.
  // MoE: router 4 x 64 = 256; experts 4 x 3 x 32 x 64 = 24,576; shared 3 x 48 x 64 = 9,216; gate 64 -> 34,112.
  // Dense MLP: 3 x 96 x 64 = 18,432. Norms 128 a layer; embedding and lm_head 6,400 each; final norm 64.
  const std::int64_t delta_net = 3'924, attention = 16'416, moe = 34'112, dense = 18'432, norms = 128;
  const std::int64_t expected = 2 * delta_net + 2 * attention + 3 * moe + dense + 4 * norms + 2 * 6'400 + 64;
  CHECK(count_parameters(model).total == expected);
  CHECK(model.layer_kinds[model.layer_kind_of_layer[1]].has_attention());
  CHECK(model.layer_kinds[model.layer_kind_of_layer[2]].is_ssm());
  // State per DeltaNet layer: conv 24 x 3 + recurrent 2 x 4 x 8 = 136 values.
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[0]], 1) == 136);

  // The same order as layer_types gives the same model.
  const ModelDescription listed = parse_hf_config(small_qwen3_next(
      R"(,"layer_types":["linear_attention","full_attention","linear_attention","full_attention"],"mlp_only_layers":[0])"));
  CHECK(count_parameters(listed).total == expected);

  // Without full_attention_interval or layer_types, Qwen3NextConfig's interval 4 is taken and named.
  const ModelDescription defaulted = parse_hf_config(small_qwen3_next(""));
  bool named = false;
  for (const auto& a : defaulted.assumptions) named = named || a.find("full_attention_interval absent: 4") == 0;
  CHECK(named);
  CHECK(defaulted.layer_kinds[defaulted.layer_kind_of_layer[3]].has_attention());
  CHECK(defaulted.layer_kinds[defaulted.layer_kind_of_layer[2]].is_ssm());
}

TEST_CASE("qwen3_next: contradictory or unknown layer fields are refused, naming the field") {
  CHECK(config_error(small_qwen3_next(R"(,"layer_types":["linear_attention","full_attention"])")).field() ==
        "layer_types");
  CHECK(config_error(
            small_qwen3_next(R"(,"layer_types":["linear_attention","mamba","linear_attention","full_attention"])"))
            .field() == "layer_types");
  // 2 value heads cannot be spread over 3 key heads.
  std::string uneven = small_qwen3_next("");
  const std::string one_key_head = R"("linear_num_key_heads":1)";
  uneven.replace(uneven.find(one_key_head), one_key_head.size(), R"("linear_num_key_heads":3)");
  CHECK(config_error(uneven).field() == "linear_num_value_heads");
  CHECK(config_error(small_qwen3_next(R"(,"full_attention_interval":0)")).field() == "full_attention_interval");
}

TEST_CASE("qwen3_next: the state per sequence as each engine keeps it") {
  // 36 Gated DeltaNet layers; conv channels 2 x 16 x 128 + 32 x 128 = 8,192; state 32 x 128 x 128 = 524,288.
  // transformers (no engine): the whole kernel, 4 columns, bf16: 36 x (8,192 x 4 + 524,288) x 2 = 40,108,032 B.
  // vLLM: conv_kernel - 1 columns at the model's dtype (mamba_utils.py): 36 x (8,192 x 3 + 524,288) x 2 = 39,518,208.
  // llama.cpp: conv_kernel - 1 columns in f32: 36 x 548,864 x 4 = 79,036,416 (fitcheck local's RS buffer).
  const auto state = [](const OptionList& options) { return state_per_sequence(qwen3_next_80b(), options); };
  CHECK(state({}) == 40'108'032);
  CHECK(state({{"engine", "vllm"}}) == 39'518'208);
  CHECK(state({{"engine", "llamacpp"}}) == 79'036'416);
  const InferenceEstimate e =
      estimate_inference(qwen3_next_80b(), {{"gpu", "h100"}, {"engine", "llamacpp"}, {"context", "8192"}});
  bool said = false;
  for (const std::string& line : e.assumptions) said = said || line.find("llamacpp: recurrent layers' state") == 0;
  CHECK(said);
  // A transformer's report does not state the rule.
  const InferenceEstimate dense = estimate_inference(
      test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json"), {{"gpu", "h100"}, {"engine", "llamacpp"}});
  for (const std::string& line : dense.assumptions) CHECK(line.find("recurrent layers' state") == std::string::npos);
}

namespace {

std::string qwen3_5_08b() { return test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3.5-0.8B.json"); }

// Qwen3.5-9B as its configuration classes build it: Qwen3_5TextConfig's defaults are the 9B's (vocab
// 248,320, hidden 4,096, intermediate 12,288, 32 layers, 4 KV heads; Qwen3NextConfig's 16 heads of 256,
// Gated DeltaNet of 16 key and 32 value heads of 128, kernel 4, attention every 4th layer), untied, and
// Qwen3VLVisionConfig's tower (27 blocks of 1,152, MLP 4,304, 16 heads) projecting to 4,096. Written
// out here, not a copy of the checkpoint's file.
std::string qwen3_5_9b(const std::string& text_extra = "", const std::string& vision_extra = "") {
  return R"({"model_type":"qwen3_5","architectures":["Qwen3_5ForConditionalGeneration"],"tie_word_embeddings":false,
    "text_config":{"model_type":"qwen3_5_text","vocab_size":248320,"hidden_size":4096,"intermediate_size":12288,
      "num_hidden_layers":32,"num_attention_heads":16,"num_key_value_heads":4,"head_dim":256,
      "linear_num_key_heads":16,"linear_num_value_heads":32,"linear_key_head_dim":128,"linear_value_head_dim":128,
      "linear_conv_kernel_dim":4,"full_attention_interval":4,"attn_output_gate":true,"mtp_num_hidden_layers":1,
      "mtp_use_dedicated_embeddings":false,"tie_word_embeddings":false)" +
         text_extra + R"(},
    "vision_config":{"model_type":"qwen3_5","depth":27,"hidden_size":1152,"intermediate_size":4304,"num_heads":16,
      "in_channels":3,"patch_size":16,"temporal_patch_size":2,"spatial_merge_size":2,"out_hidden_size":4096,
      "num_position_embeddings":2304,"deepstack_visual_indexes":[])" +
         vision_extra + "}}";
}

// A small Qwen3.5-MoE wrapper: hidden 64, 4 layers (attention at the 4th), 4 experts of 32 (top 2), a
// shared expert of 48; the tower of 2 blocks of 32 projecting to 64.
std::string small_qwen3_5_moe(const std::string& text_extra = "") {
  return R"({"model_type":"qwen3_5_moe","text_config":{"model_type":"qwen3_5_moe_text","hidden_size":64,
    "num_hidden_layers":4,"vocab_size":100,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,
    "linear_num_value_heads":2,"linear_value_head_dim":8,"linear_num_key_heads":1,"linear_key_head_dim":4,
    "linear_conv_kernel_dim":3,"num_experts":4,"num_experts_per_tok":2,"moe_intermediate_size":32,
    "shared_expert_intermediate_size":48)" +
         text_extra + R"(},
    "vision_config":{"model_type":"qwen3_5_moe_vision","depth":2,"hidden_size":32,"intermediate_size":64,
      "num_heads":2,"out_hidden_size":64,"num_position_embeddings":16}})";
}

}  // namespace

TEST_CASE("qwen3_5: Qwen3.5-0.8B counted layer by layer matches its published counts") {
  // Published (tests/fixtures/configs/MANIFEST.tsv): 852,985,920 parameters loaded by transformers, of which
  // 752,393,024 are the language model and 100,592,896 the vision tower and merger.
  // By hand (Qwen3_5GatedDeltaNet, Qwen3_5Attention, Qwen3_5MLP of modular_qwen3_5.py):
  // Gated DeltaNet (18 layers): in_proj_qkv (2 x 2,048 + 2,048) x 1,024 = 6,291,456; in_proj_z 2,048 x 1,024
  //   = 2,097,152; in_proj_b, in_proj_a 16 x 1,024 each; conv1d 6,144 x 4 = 24,576; dt_bias, A_log 16 each;
  //   norm 128; out_proj 1,024 x 2,048 = 2,097,152 -> 10,543,264.
  // Gated attention (6 layers): q_proj (8 x 256 x 2) x 1,024 = 4,194,304; k, v 512 x 1,024 each; o_proj
  //   1,024 x 2,048 = 2,097,152; q_norm, k_norm 256 each -> 7,340,544.
  // MLP (24 layers) 3 x 3,584 x 1,024 = 11,010,048; two norms 2,048. Tied embedding 248,320 x 1,024; norm 1,024.
  const std::int64_t delta_net = 10'543'264, attention = 7'340'544, mlp = 11'010'048, norms = 2'048;
  const std::int64_t embedding = 248'320LL * 1'024;
  const std::int64_t expected = 18 * delta_net + 6 * attention + 24 * (mlp + norms) + embedding + 1'024;
  CHECK(expected == 752'393'024);
  // Tower (Qwen3VLVisionModel without its DeepStack mergers): patch_embed Conv3d 3 x 2 x 16 x 16 x 768 + 768
  // = 1,180,416; pos_embed 2,304 x 768 = 1,769,472; 12 blocks of two LayerNorms 2 x 1,536, qkv 768 x 2,304
  // + 2,304, proj 768 x 768 + 768, linear_fc1 768 x 3,072 + 3,072, linear_fc2 3,072 x 768 + 768 = 7,087,872.
  // Merger: LayerNorm 1,536, linear_fc1 3,072 x 3,072 + 3,072, linear_fc2 3,072 x 1,024 + 1,024 = 12,588,544.
  const std::int64_t tower = 1'180'416 + 1'769'472 + 12 * 7'087'872, merger = 12'588'544;
  CHECK(tower + merger == 100'592'896);

  const ModelDescription model = parse_hf_config(qwen3_5_08b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 18 * delta_net);
  CHECK(count.breakdown.attention == 6 * attention);
  CHECK(count.vision_tower == tower);
  CHECK(count.multimodal_projector == merger);
  CHECK(count.total_with_vision() == 852'985'920);
  CHECK(model.parameter_count_exact());
  REQUIRE(model.vision);
  CHECK(model.vision->deepstack_mergers == 0);
  // MTP (not in the total): mtp.fc 2 x 1,024 x 1,024, one attention layer with its MLP and norms, three more
  // norms: 2,097,152 + 7,340,544 + 11,010,048 + 2,048 + 3 x 1,024 = 20,452,864.
  CHECK(count.multi_token_prediction == 20'452'864);
  // KV: 6 layers x 2 heads x (256 + 256) x 2 B = 12,288 B a token. State per Gated DeltaNet layer: conv
  // 6,144 x 4 + recurrent 16 x 128 x 128 = 286,720 values, 573,440 B; 18 layers 10,321,920 B a sequence.
  InferenceWorkload w;
  w.batch_size = 1;
  w.context_tokens = 4096;
  const KvCacheFigure kv = kv_cache(model, w);
  CHECK(kv.bytes_per_token == 12'288);
  CHECK(kv.state_bytes_per_sequence == 10'321'920);
}

TEST_CASE("qwen3_5: Qwen3.5-9B from its configuration classes matches the published text, vision and MTP counts") {
  // Published: 8,953,803,264 text, 456,010,480 vision and 243,290,624 MTP parameters, 9,653,104,368 in the
  // checkpoint (MANIFEST.tsv, the Qwen3.5-0.8B row's sources).
  // By hand: Gated DeltaNet (24): in_proj_qkv 8,192 x 4,096 = 33,554,432; in_proj_z 4,096 x 4,096 =
  //   16,777,216; in_proj_b, in_proj_a 32 x 4,096 each; conv1d 8,192 x 4 = 32,768; dt_bias, A_log 32 each;
  //   norm 128; out_proj 16,777,216 -> 67,403,968. Attention (8): q_proj 8,192 x 4,096 = 33,554,432; k, v
  //   1,024 x 4,096 each; o_proj 4,096 x 4,096; q_norm, k_norm 256 each -> 58,720,768. MLP 3 x 12,288 x 4,096
  //   = 150,994,944; two norms 8,192. Embedding and lm_head 248,320 x 4,096 each; norm 4,096.
  const std::int64_t delta_net = 67'403'968, attention = 58'720'768, mlp = 150'994'944, norms = 8'192;
  const std::int64_t expected = 24 * delta_net + 8 * attention + 32 * (mlp + norms) + 2 * 248'320LL * 4'096 + 4'096;
  CHECK(expected == 8'953'803'264);
  // Tower: patch 3 x 2 x 16 x 16 x 1,152 + 1,152 = 1,770,624; positions 2,304 x 1,152 = 2,654,208; 27 blocks of
  // 2 x 2,304 + (1,152 x 3,456 + 3,456) + (1,152 x 1,152 + 1,152) + (1,152 x 4,304 + 4,304) + (4,304 x 1,152
  // + 1,152) = 15,239,504; merger 2,304 + (4,608 x 4,608 + 4,608) + (4,608 x 4,096 + 4,096) = 40,119,040.
  const std::int64_t vision = 1'770'624 + 2'654'208 + 27 * 15'239'504LL + 40'119'040;
  CHECK(vision == 456'010'480);
  // MTP: 2 x 4,096 x 4,096 + attention 58,720,768 + MLP and its norms 151,003,136 + 3 x 4,096 = 243,290,624.
  const std::int64_t mtp = 2 * 4'096LL * 4'096 + attention + mlp + norms + 3 * 4'096;
  CHECK(mtp == 243'290'624);
  CHECK(expected + vision + mtp == 9'653'104'368);

  const ParameterCount count = count_parameters(parse_hf_config(qwen3_5_9b()));
  CHECK(count.total == expected);
  CHECK(count.total_with_vision() == expected + vision);
  CHECK(count.multi_token_prediction == mtp);
}

TEST_CASE("qwen3_5_moe: a small wrapper by hand; experts in every layer") {
  // DeltaNet (3 layers) 3,924 and attention (the 4th) 16,416 as the small Qwen3-Next above; MoE in every
  // layer: router 4 x 64 + experts 4 x 3 x 32 x 64 + shared 3 x 48 x 64 + gate 64 = 34,112. Norms 128 a
  // layer; untied embedding and lm_head 6,400 each; final norm 64.
  const ModelDescription model = parse_hf_config(small_qwen3_5_moe());
  const std::int64_t expected = 3 * 3'924 + 16'416 + 4 * (34'112 + 128) + 2 * 6'400 + 64;
  CHECK(count_parameters(model).total == expected);
  CHECK(model.layer_kinds[model.layer_kind_of_layer[3]].has_attention());
  for (const auto index : model.layer_kind_of_layer) CHECK(model.layer_kinds[index].is_moe());
  // Active: 2 of 4 routed experts: the other two's 2 x 3 x 32 x 64 = 12,288 per layer are left out.
  CHECK(count_parameters(model).active_per_token == expected - 4 * 12'288);
  REQUIRE(model.vision);
  CHECK(model.vision->deepstack_mergers == 0);
  // Without num_experts, Qwen3_5MoeTextConfig's 256 (top 8 when num_experts_per_tok is absent too) is taken and
  // named.
  std::string defaulted = small_qwen3_5_moe();
  for (const std::string key : {R"("num_experts":4,)", R"("num_experts_per_tok":2,)"})
    defaulted.erase(defaulted.find(key), key.size());
  const ModelDescription d = parse_hf_config(defaulted);
  CHECK(d.layer_kinds[d.layer_kind_of_layer[0]].moe.num_experts == 256);
  CHECK(d.layer_kinds[d.layer_kind_of_layer[0]].moe.experts_per_token == 8);
  bool named = false;
  for (const auto& a : d.assumptions) named = named || a == "num_experts absent: 256, as Qwen3_5MoeTextConfig does";
  CHECK(named);
}

TEST_CASE("qwen3_5: what transformers cannot build is refused, naming the field") {
  // The dense family has no experts; the attention always gates; the tower has no DeepStack mergers.
  CHECK(config_error(qwen3_5_9b(R"(,"num_experts":8)")).field() == "text_config.num_experts");
  CHECK(config_error(qwen3_5_9b(R"(,"attn_output_gate":false)")).field() == "text_config.attn_output_gate");
  std::string deepstack = qwen3_5_9b();
  const std::string none = R"("deepstack_visual_indexes":[])";
  deepstack.replace(deepstack.find(none), none.size(), R"("deepstack_visual_indexes":[8])");
  CHECK(config_error(deepstack).field() == "vision_config.deepstack_visual_indexes");
  std::string tower = qwen3_5_9b();
  const std::string vision_type = R"("vision_config":{"model_type":"qwen3_5",)";
  tower.replace(tower.find(vision_type), vision_type.size(), R"("vision_config":{"model_type":"siglip_vision_model",)");
  CHECK(config_error(tower).field() == "vision_config.model_type");
  // Two tie switches that disagree.
  std::string tied = qwen3_5_9b();
  const std::string untied = R"("tie_word_embeddings":false)";
  tied.replace(tied.find(untied), untied.size(), R"("tie_word_embeddings":true)");
  CHECK(config_error(tied).field() == "text_config.tie_word_embeddings");
}

TEST_CASE("qwen3_5: vLLM keeps the recurrent state at the config's mamba_ssm_dtype, the conv window at the model's") {
  // Qwen3.5-0.8B's text_config says mamba_ssm_dtype "float32". Per Gated DeltaNet layer: conv channels
  // 2 x 16 x 128 + 16 x 128 = 6,144; recurrent state 16 x 128 x 128 = 262,144 values. 18 layers.
  // No engine (transformers' cache, the whole kernel, bf16): 18 x (6,144 x 4 + 262,144) x 2 = 10,321,920 B.
  // vLLM (Qwen3_5ForConditionalGenerationConfig sets mamba_ssm_cache_dtype to it; conv_kernel - 1 columns at
  //   bf16): 18 x (6,144 x 3 x 2 + 262,144 x 4) = 19,537,920 B.
  // llama.cpp (f32 for both, conv_kernel - 1 columns): 18 x (6,144 x 3 + 262,144) x 4 = 20,201,472 B.
  const auto state = [](const OptionList& options) { return state_per_sequence(qwen3_5_08b(), options); };
  CHECK(state({}) == 10'321'920);
  CHECK(state({{"engine", "vllm"}}) == 19'537'920);
  CHECK(state({{"engine", "llamacpp"}}) == 20'201'472);
  // Qwen3-Next names no mamba_ssm_dtype: vLLM keeps its state at the model's dtype, as before.
  CHECK(estimate_inference(qwen3_next_80b(), {{"gpu", "h100"}, {"engine", "vllm"}, {"context", "8192"}})
            .memory.kv_cache.state_bytes_per_sequence == 39'518'208);
  CHECK(config_error(qwen3_5_9b(R"(,"mamba_ssm_dtype":"float8")")).field() == "text_config.mamba_ssm_dtype");
}
