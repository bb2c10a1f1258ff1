// SPDX-License-Identifier: MIT
// DeciLM / Llama-Nemotron (nemotron-nas): Llama-3.3-Nemotron-Super-49B-v1's block_configs counted
// layer by layer against a hand count (no exact published count was found; NVIDIA says 49B), its KV
// cache held by the attention blocks only, and the block settings fitcheck refuses.
#include <doctest/doctest.h>

#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

const char* kSuper49b = "nvidia--Llama-3_3-Nemotron-Super-49B-v1.json";

std::string super49b_text() { return test::read_file(test::fixture_configs_dir() + "/" + kSuper49b); }

// A 2-layer config: hidden 256, 4 heads of 64, vocab 1000; `blocks` is the block_configs list.
std::string tiny(const std::string& blocks, int layers = 2) {
  return R"({"model_type": "nemotron-nas", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": )" +
         std::to_string(layers) + R"(, "vocab_size": 1000, "block_configs": )" + blocks + "}";
}

std::string field_of_error(const std::string& text) { return test::config_error_field(text); }

}  // namespace

TEST_CASE("nemotron-nas: Llama-3.3-Nemotron-Super-49B-v1 counted block by block") {
  // Hidden 8192, 64 heads of 128, vocab 128256, untied. The 80 block_configs (tests/fixtures):
  // attention in 49 blocks (n_heads_in_group 8: 8 KV heads), no_op in 31; FFN widths from ffn_mult as
  // int(2 x mult x 8192 / 3) rounded up to 256: 5.25 -> 28672 (49 blocks), 2.625 -> 14336 (6),
  // 1.3125 -> 7168 (10), 1.0 -> 5461 -> 5632 (8), 0.5 -> 2730 -> 2816 (6), 3.28125 -> 17920 (1).
  // Attention: 49 x (2 x 8192^2 + 2 x 8192 x 1024) = 49 x 150,994,944 = 7,398,752,256.
  // MLP: 3 x 8192 x (49 x 28672 + 6 x 14336 + 10 x 7168 + 8 x 5632 + 6 x 2816 + 17920)
  //    = 24,576 x 1,642,496 = 40,365,981,696.
  // Norms: (49 + 80) x 8192 + the final 8192 = 1,064,960. Embedding and lm_head 2 x 1,050,673,152.
  // Total 49,867,145,216.
  const ModelDescription model = parse_hf_config(super49b_text());
  const ParameterCount count = count_parameters(model);
  CHECK(count.breakdown.attention == 7'398'752'256);
  CHECK(count.breakdown.mlp == 40'365'981'696);
  CHECK(count.breakdown.norms == 1'064'960);
  CHECK(count.breakdown.embedding == 1'050'673'152);
  CHECK(count.breakdown.lm_head == 1'050'673'152);
  CHECK(count.total == 49'867'145'216);
  CHECK(model.guessed_fields.empty());
  // KV cache: the 49 attention blocks, 8 KV heads x 128 x (K and V) x 2 B = 4,096 B each per token.
  std::int64_t kv_bytes_per_token = 0;
  for (const auto kind : model.layer_kind_of_layer)
    kv_bytes_per_token += kv_cache_bytes_per_token_per_layer(model.layer_kinds[kind], KvCacheDtype::bf16);
  CHECK(kv_bytes_per_token == 49 * 4096);
}

TEST_CASE("nemotron-nas: block settings read and refused with the field named") {
  // One full block (attention with 2 KV heads, FFN of ffn_mult 1.5: int(2 x 1.5 x 256 / 3) = 256),
  // one FFN-only block of ffn_mult 1.0: int(170.67) = 170 -> 256.
  const std::string good =
      R"([{"attention": {"n_heads_in_group": 2, "no_op": false}, "ffn": {"ffn_mult": 1.5}},
          {"attention": {"no_op": true}, "ffn": {"ffn_mult": 1.0}}])";
  const ParameterCount count = count_parameters(parse_hf_config(tiny(good)));
  // Attention 2 x 256^2 + 2 x 256 x 128 = 196,608; MLP 2 x 3 x 256 x 256 = 393,216; norms 3 x 256 +
  // the final 256 = 1,024; embedding and lm_head 2 x 256,000.
  CHECK(count.breakdown.attention == 196'608);
  CHECK(count.breakdown.mlp == 393'216);
  CHECK(count.breakdown.norms == 1'024);
  CHECK(count.total == 196'608 + 393'216 + 1'024 + 512'000);

  CHECK(field_of_error(tiny(R"([{"attention": {"replace_with_linear": true}, "ffn": {"ffn_mult": 1.0}},
                                 {"attention": {"no_op": true}, "ffn": {"ffn_mult": 1.0}}])")) ==
        "block_configs[0].attention.replace_with_linear");
  CHECK(field_of_error(tiny(R"([{"attention": {"n_heads_in_group": 3}, "ffn": {"ffn_mult": 1.0}},
                                 {"attention": {"no_op": true}, "ffn": {"ffn_mult": 1.0}}])")) ==
        "block_configs[0].attention.n_heads_in_group");
  CHECK(field_of_error(tiny(R"([{"attention": {"no_op": true}, "ffn": {"no_op": true}},
                                 {"attention": {"no_op": true}, "ffn": {"ffn_mult": 1.0}}])")) ==
        "block_configs[0].attention");
  CHECK(field_of_error(tiny(R"([{"attention": {"n_heads_in_group": 1, "window_length": 4096},
                                  "ffn": {"ffn_mult": 1.0}}])",
                            1)) == "block_configs[0].attention.window_length");
  CHECK(field_of_error(tiny(R"([{"attention": {"no_op": true}, "ffn": {}}])", 1)) == "block_configs[0].ffn.ffn_mult");
  CHECK(field_of_error(tiny(R"([{"attention": {"no_op": true}, "ffn": {"ffn_mult": 1.0}}])")) == "block_configs");
  CHECK(field_of_error(R"({"model_type": "nemotron-nas", "hidden_size": 256, "num_attention_heads": 4,
                           "num_hidden_layers": 1, "vocab_size": 1000})") == "block_configs");
  CHECK(field_of_error(tiny(R"([1, 2])")) == "block_configs");
}
