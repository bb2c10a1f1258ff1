// SPDX-License-Identifier: MIT
// Family rules on tiny configs, each count derived by hand from the family's modeling code
// (transformers models/<family>/modeling_<family>.py): which projections have biases, how many
// norms a layer has and of which kind, fused or shared tensors. Real configs with published counts
// are checked in params_test.cpp; these pin the rules of families without such a config.
#include <doctest/doctest.h>

#include "fitcheck/config.hpp"
#include "fitcheck/params.hpp"

using namespace fitcheck;

namespace {
ParameterCount count(const char* text) { return count_parameters(parse_hf_config(text)); }
}  // namespace

TEST_CASE("gptj: one LayerNorm per layer, unbiased q/k/v/out, biased MLP, lm_head with bias") {
  // Layer: ln_1 128 + q,k,v 3 x 4,096 + out 4,096 + fc_in 64x256+256 + fc_out 256x64+64 = 49,600.
  // 2 layers + wte 6,400 + ln_f 128 + lm_head 6,400 + bias 100 = 112,228.
  CHECK(count(R"({"model_type":"gptj","n_embd":64,"n_layer":2,"n_head":4,"n_inner":null,"vocab_size":100,
    "n_positions":32,"tie_word_embeddings":false})")
            .total == 112'228);
}

TEST_CASE("opt: positions offset by 2, project_in/out when word_embed_proj_dim differs, no final norm when post-LN") {
  // embed 100x32 + project_in 64x32 + project_out 32x64 + positions 52x64 = 10,624;
  // layer: q,k,v,o 4 x (4,096+64) + fc1 16,640 + fc2 16,448 + 2 LayerNorms 256 = 49,984; x2.
  CHECK(count(R"({"model_type":"opt","hidden_size":64,"word_embed_proj_dim":32,"ffn_dim":256,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":100,"max_position_embeddings":50,"do_layer_norm_before":false})")
            .total == 10'624 + 2 * 49'984);
}

TEST_CASE("starcoder2: LayerNorm with bias, biases everywhere with use_bias, plain (ungated) MLP, GQA") {
  // Layer: q 4,096+64, k 2,048+32, v 2,048+32, o 4,096+64, c_fc 16,384+256, c_proj 16,384+64, 2 LN 256 = 45,824.
  CHECK(count(R"({"model_type":"starcoder2","hidden_size":64,"intermediate_size":256,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"use_bias":true,"tie_word_embeddings":true})")
            .total == 6'400 + 2 * 45'824 + 128);
}

TEST_CASE("cohere: one bias-free LayerNorm per parallel layer, full-width q/k norms") {
  // Layer: 4 x 4,096 attention + 3 x 64x128 MLP + norm 64 + q_norm 4x16 + k_norm 4x16 = 41,152.
  CHECK(count(R"({"model_type":"cohere","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":4,"vocab_size":100,"use_qk_norm":true})")
            .total == 6'400 + 2 * 41'152 + 64);
}

TEST_CASE("dbrx: nested attn_config/ffn_config, gated experts, bias-free LayerNorms") {
  // Layer: q 4,096 + k,v 2 x 2,048 + o 4,096 + router 256 + experts 4 x 3 x 64x32 + 2 norms 128 = 37,248.
  const ParameterCount c = count(R"({"model_type":"dbrx","d_model":64,"n_heads":4,"n_layers":2,"vocab_size":100,
    "max_seq_len":64,"attn_config":{"kv_n_heads":2},"ffn_config":{"ffn_hidden_size":32,"moe_num_experts":4,"moe_top_k":2}})");
  CHECK(c.total == 2 * 37'248 + 6'400 + 6'400 + 64);
  CHECK(c.active_per_token == c.total - 2 * (24'576 / 4 * 2));
}

TEST_CASE("phimoe: LayerNorm with bias, attention biases, lm_head bias, unbiased router") {
  // Layer: q 4,160 + k 2,080 + v 2,080 + o 4,160 + router 256 + experts 24,576 + 2 LN 256 = 37,568.
  CHECK(count(R"({"model_type":"phimoe","hidden_size":64,"intermediate_size":32,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"num_local_experts":4,"num_experts_per_tok":2,
    "attention_bias":true,"tie_word_embeddings":false})")
            .total == 2 * 37'568 + 6'400 + 128 + 6'400 + 100);
}

TEST_CASE("deepseek_v2 without q low-rank: MLA shapes, dense first layer, shared expert") {
  // Attention: q 48x64 + kv_a 20x64 + kv_a norm 16 + kv_b 64x16 + o 64x32 = 7,440.
  // Layer 0 dense: 7,440 + 3 x 64x128 + 128 = 32,144. Layer 1: 7,440 + router 256 + experts 12,288 +
  // shared 3,072 + 128 = 23,184. Embedding, lm_head and final norm: 12,864.
  const ParameterCount c = count(R"({"model_type":"deepseek_v2","hidden_size":64,"num_hidden_layers":2,
    "num_attention_heads":4,"q_lora_rank":null,"kv_lora_rank":16,"qk_nope_head_dim":8,"qk_rope_head_dim":4,
    "v_head_dim":8,"vocab_size":100,"intermediate_size":128,"moe_intermediate_size":16,"n_routed_experts":4,
    "n_shared_experts":1,"num_experts_per_tok":2,"first_k_dense_replace":1,"moe_layer_freq":1,"topk_method":"greedy",
    "tie_word_embeddings":false})");
  CHECK(c.total == 32'144 + 23'184 + 12'864);
  CHECK(c.active_per_token == c.total - 12'288 / 4 * 2);
}

TEST_CASE("internlm2: the bias switch defaults on, and false removes it") {
  // bias false: q 4,096 + k,v 2 x 2,048 + o 4,096 + MLP 24,576 + 2 norms 128 = 36,992 per layer.
  CHECK(count(R"({"model_type":"internlm2","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"bias":false,"tie_word_embeddings":false})")
            .total == 2 * 36'992 + 12'800 + 64);
  // Absent: wqkv and wo carry biases (InternLM2Config bias=True): + 64 + 32 + 32 + 64 per layer.
  CHECK(count(R"({"model_type":"internlm2","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"num_key_value_heads":2,"vocab_size":100,"tie_word_embeddings":false})")
            .total == 2 * (36'992 + 192) + 12'800 + 64);
}

TEST_CASE("gpt_bigcode: multi-query fused c_attn, learned positions, tied head") {
  // c_attn (64 + 2 x 16) x 64 + 96 = 6,240; c_proj 4,160; MLP 33,088; 2 LN 256: 43,744 per layer.
  CHECK(count(R"({"model_type":"gpt_bigcode","n_embd":64,"n_layer":2,"n_head":4,"n_positions":32,"vocab_size":100,
    "multi_query":true,"n_inner":null})")
            .total == 2 * 43'744 + 6'400 + 2'048 + 128);
}

TEST_CASE("olmo: non-parametric LayerNorm holds no parameters") {
  CHECK(count(R"({"model_type":"olmo","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,
    "num_attention_heads":4,"vocab_size":100,"tie_word_embeddings":false})")
            .total == 2 * (16'384 + 24'576) + 12'800);
}

TEST_CASE("falcon, original architecture: multi-query fused qkv, one LayerNorm per parallel layer") {
  // query_key_value (64 + 2 x 16) x 64 = 6,144; dense 4,096; MLP 2 x 64x256; ln 128: 43,136 per layer.
  CHECK(count(R"({"model_type":"falcon","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
    "multi_query":true,"parallel_attn":true,"bias":false,"new_decoder_architecture":false,"vocab_size":100})")
            .total == 2 * 43'136 + 6'400 + 128);
}
