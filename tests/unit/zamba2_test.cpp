// SPDX-License-Identifier: MIT
// Zamba2: Mamba-2 layers and shared transformer blocks reused by the hybrid layers, each use with its
// own adapters, linear and KV cache. Counts against the published figure, the cache and state, and the
// refusals. Expected values are hand calculations from the modeling code (cited in
// core/src/config/config_zamba2.cpp and core/src/model/params_zamba2.cpp), never the code's output.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// The shape fields of Zyphra/Zamba2-1.2B's config.json (revision 6b05bf29d1bb) as a public
// model-trace report lists them (tests/fixtures/configs/README.md): hidden 2048, 38 layers, hybrid at
// 5, 11, 17, 23, 29 and 35; 32 query and 32 key/value heads; intermediate 8192; vocabulary 32000,
// tied; Mamba-2 64 heads (of 64 = 2 x 2048 / 64), state 128, 1 group, kernel 4; one shared block,
// adapter rank 128, rotary attention. Its 406 parameter tensors include q, k and v adapters, so
// use_shared_attention_adapter is true.
const char* const zamba2_1_2b_layers = R"("layers_block_type":["mamba","mamba","mamba","mamba","mamba","hybrid",
  "mamba","mamba","mamba","mamba","mamba","hybrid","mamba","mamba","mamba","mamba","mamba","hybrid","mamba","mamba",
  "mamba","mamba","mamba","hybrid","mamba","mamba","mamba","mamba","mamba","hybrid","mamba","mamba","mamba","mamba",
  "mamba","hybrid","mamba","mamba"])";

std::string zamba2_1_2b(const std::string& layers = zamba2_1_2b_layers,
                        const std::string& adapters = R"("use_shared_attention_adapter":true)") {
  return R"({"architectures":["Zamba2ForCausalLM"],"model_type":"zamba2","hidden_size":2048,"num_hidden_layers":38,
    "num_attention_heads":32,"num_key_value_heads":32,"intermediate_size":8192,"vocab_size":32000,
    "tie_word_embeddings":true,"mamba_d_state":128,"mamba_ngroups":1,"n_mamba_heads":64,"mamba_headdim":64,
    "mamba_d_conv":4,"mamba_expand":2,"num_mem_blocks":1,"adapter_rank":128,"use_shared_mlp_adapter":true,
    "use_mem_rope":true,"add_bias_linear":false,"max_position_embeddings":4096,)" +
         layers + "," + adapters + "}";
}

using test::config_error;

}  // namespace

TEST_CASE("zamba2: Zamba2-1.2B counted module by module matches the published 1,215,064,704") {
  // Published: 1,215,064,704 parameters of Zyphra/Zamba2-1.2B-Instruct-v2 loaded in transformers, frozen
  // as "parameters" in a public evaluation script (tests/fixtures/configs/README.md).
  // By hand (modeling_zamba2.py):
  //   Zamba2MambaMixer: conv channels 4,096 + 2 x 128 = 4,352; in_proj (4,096 + 4,352 + 64) x 2,048 =
  //     17,432,576; conv1d 4,352 x 4 + 4,352 = 21,760; dt_bias, A_log, D 3 x 64 = 192; gated norm 4,096;
  //     out_proj 2,048 x 4,096 = 8,388,608 -> 25,847,232; with input_layernorm 2,048: 25,849,280 in each
  //     of the 38 layers (the 6 hybrid layers' mamba_decoder included).
  //   Per hybrid layer: linear 2,048 x 2,048 = 4,194,304; MLP adapter 128 x 2,048 + 16,384 x 128 =
  //     2,359,296; q, k, v adapters 3 x (128 x 4,096 + 4,096 x 128) = 3,145,728.
  //   The shared block, once: q, k, v 3 x 4,096 x 4,096 = 50,331,648; o 2,048 x 4,096 = 8,388,608;
  //     gate_up_proj 16,384 x 2,048 = 33,554,432; down_proj 2,048 x 8,192 = 16,777,216; input_layernorm
  //     4,096 and pre_ff_layernorm 2,048 -> 109,058,048.
  //   Tied embedding 32,000 x 2,048 = 65,536,000; final_layernorm 2,048.
  const std::int64_t mamba_layer = 25'849'280, per_use = 4'194'304 + 2'359'296 + 3'145'728, block = 109'058'048;
  const std::int64_t expected = 38 * mamba_layer + 6 * per_use + block + 65'536'000 + 2'048;
  CHECK(expected == 1'215'064'704);
  const ModelDescription model = parse_hf_config(zamba2_1_2b());
  const ParameterCount count = count_parameters(model);
  CHECK(count.total == expected);
  CHECK(count.breakdown.ssm == 38 * 25'847'232);
  CHECK(count.breakdown.lm_head == 0);
  CHECK(model.parameter_count_exact());
  CHECK(model.assumptions.empty());
  CHECK(model.layer_kinds.size() == 2);

  // Without the q, k and v adapters: 6 x 3,145,728 fewer.
  const ModelDescription plain =
      parse_hf_config(zamba2_1_2b(zamba2_1_2b_layers, R"("use_shared_attention_adapter":false)"));
  CHECK(count_parameters(plain).total == expected - 6 * 3'145'728);
}

TEST_CASE("zamba2: each use of a shared block keeps its own KV cache; every layer keeps a Mamba state") {
  // Zamba2HybridDynamicCache: keys and values for each hybrid layer, 6 x 2 x 32 heads x 128 x 2 B =
  // 98,304 B per token (one block, six caches). conv_states (batch, 4,352, 4) and ssm_states (batch, 64,
  // 64, 128) for each of the 38 layers: (17,408 + 524,288) x 2 B = 1,083,392 B; 41,168,896 B per sequence.
  const ModelDescription model = parse_hf_config(zamba2_1_2b());
  InferenceWorkload w;
  w.batch_size = 2;
  w.context_tokens = 1024;
  const KvCacheFigure figure = kv_cache(model, w);
  CHECK(figure.bytes_per_token == 98'304);
  CHECK(figure.state_bytes_per_sequence == 41'168'896);
  CHECK(figure.bytes == 2 * (41'168'896LL + 98'304LL * 1024));
  CHECK(ssm_state_bytes_per_sequence_per_layer(model.layer_kinds[model.layer_kind_of_layer[5]], 2) == 1'083'392);

  const InferenceEstimate e = estimate_inference(zamba2_1_2b(), {{"gpu", "h100"}, {"batch", "2"}});
  REQUIRE(e.on_gpu);
  CHECK(e.memory.kv_cache.state_bytes_per_sequence == 41'168'896);
  const LatencyTotals& t = e.on_gpu->latency.explanation.estimate.totals;
  CHECK(std::isfinite(t.prefill_seconds));
  CHECK(std::isfinite(t.decode_total_seconds));
}

TEST_CASE("zamba2: blocks taken in turn, an unused block, biases and Zamba2Config's defaults") {
  // hidden 32, 5 layers with hybrid at 1, 3 and 4; 4 heads of 2 x 32 / 4 = 16 with 2 kv heads; MLP 40;
  // mixer 4 heads of 64 / 4 = 16, state 8, 1 group, kernel 4; adapter rank 4.
  const auto small = [](int blocks, const char* add_bias_linear) {
    return std::string(R"({"model_type":"zamba2","hidden_size":32,"num_hidden_layers":5,"num_attention_heads":4,
      "num_key_value_heads":2,"intermediate_size":40,"vocab_size":100,"tie_word_embeddings":false,
      "n_mamba_heads":4,"mamba_d_state":8,"mamba_ngroups":1,"mamba_d_conv":4,"mamba_expand":2,"adapter_rank":4,
      "use_shared_attention_adapter":false,"use_mem_rope":false,
      "layers_block_type":["mamba","hybrid","mamba","hybrid","hybrid"],"num_mem_blocks":)") +
           std::to_string(blocks) + R"(,"add_bias_linear":)" + add_bias_linear + "}";
  };
  // Mixer: conv channels 64 + 16 = 80; in_proj (64 + 80 + 4) x 32 = 4,736; conv 80 x 4 + 80 = 400; 12;
  //   norm 64; out_proj 2,048 -> 7,260; input_layernorm 32 -> 7,292 in each of 5 layers.
  // Per use: linear 1,024; MLP adapter 4 x 32 + 80 x 4 = 448 -> 1,472.
  // A block: norms 64 + 32; q 64 x 64 = 4,096, k and v 32 x 64 = 2,048 each, o 32 x 64 = 2,048; MLP
  //   gate_up 80 x 32 = 2,560, down 32 x 40 = 1,280 -> 14,176. Untied embedding and lm_head 3,200 each;
  //   final norm 32.
  const std::int64_t mamba = 5 * 7'292, uses = 3 * 1'472, block = 14'176, outer = 2 * 3'200 + 32;
  CHECK(count_parameters(parse_hf_config(small(1, "false"))).total == mamba + uses + block + outer);
  // Two blocks: uses 0 and 2 take block 0, use 1 block 1: two blocks' weights.
  CHECK(count_parameters(parse_hf_config(small(2, "false"))).total == mamba + uses + 2 * block + outer);
  // Four blocks for three uses: the fourth is no module of the model (Zamba2Model keeps the blocks only
  // in its layers).
  CHECK(count_parameters(parse_hf_config(small(4, "false"))).total == mamba + uses + 3 * block + outer);
  // add_bias_linear: in_proj (148) and out_proj (32) biases in every mixer, gate_up_proj (80) and
  // down_proj (32) biases in the block.
  CHECK(count_parameters(parse_hf_config(small(1, "true"))).total ==
        mamba + 5 * (148 + 32) + uses + block + 80 + 32 + outer);

  // Zamba2Config's defaults: 54 layers of its own pattern (9 hybrid), 8 Mamba heads, state 64, 1 block,
  // rank 128, no attention adapters, intermediate 4 x hidden, tied; each named in the assumptions.
  const ModelDescription defaults = parse_hf_config(R"({"model_type":"zamba2","hidden_size":64,
    "num_hidden_layers":54,"vocab_size":100,"num_attention_heads":4})");
  std::int64_t hybrid_layers = 0;
  for (const std::uint16_t kind : defaults.layer_kind_of_layer)
    hybrid_layers += defaults.layer_kinds[kind].shared_transformer ? 1 : 0;
  CHECK(hybrid_layers == 9);
  CHECK(defaults.layer_kinds[defaults.layer_kind_of_layer[6]].shared_transformer);
  CHECK(defaults.tie_word_embeddings);
  bool named = false;
  for (const auto& a : defaults.assumptions)
    named = named || a.find("intermediate_size absent: 4 x hidden_size, as Zamba2Config does") != std::string::npos;
  CHECK(named);
}

TEST_CASE("zamba2: a wrong layer list or mixer width is refused, naming the field") {
  CHECK(config_error(zamba2_1_2b(R"("layers_block_type":["mamba","hybrid"])")).field() == "layers_block_type");
  CHECK(config_error(zamba2_1_2b(R"("layers_block_type":["mamba","attention","mamba","mamba","mamba","mamba",
    "mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba",
    "mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba",
    "mamba","mamba","mamba","mamba"])"))
            .field() == "layers_block_type");
  // Without a layer list, Zamba2Config's pattern has 54 layers, not 38.
  CHECK(config_error(zamba2_1_2b(R"("rms_norm_eps":1e-5)")).field() == "layers_block_type");
  // 2 x 2048 is no multiple of 48 Mamba heads.
  const std::string odd = R"({"model_type":"zamba2","hidden_size":2048,"num_hidden_layers":2,"vocab_size":100,
    "num_attention_heads":32,"n_mamba_heads":48,"layers_block_type":["mamba","hybrid"]})";
  CHECK(config_error(odd).field() == "n_mamba_heads");
  const std::string kv = R"({"model_type":"zamba2","hidden_size":64,"num_hidden_layers":2,"vocab_size":100,
    "num_attention_heads":4,"num_key_value_heads":3,"layers_block_type":["mamba","hybrid"]})";
  CHECK(config_error(kv).field() == "num_key_value_heads");
}
