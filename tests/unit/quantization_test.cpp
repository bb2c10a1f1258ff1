// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/quantization.hpp"

using namespace fitcheck;
using R = TensorRole;
using G = ParameterGroup;
using WF = WeightFormat;
using Inventory = std::vector<WeightTensor>;

namespace {

// The group does not affect bytes, so every entry gets the same one.
void add(Inventory& v, R role, int layer, std::int64_t rows, std::int64_t cols, std::int64_t copies = 1) {
  v.push_back({role, G::attention, layer, rows, cols, copies});
}

// Llama-shaped stack: q/o h x h, k/v kv x h, gate/up inter x h, down h x inter, two norms.
Inventory dense(int layers, std::int64_t h, std::int64_t kv, std::int64_t inter, std::int64_t vocab,
                bool tied = false) {
  Inventory v;
  add(v, R::token_embedding, -1, vocab, h);
  for (int l = 0; l < layers; ++l) {
    add(v, R::norm, l, 1, h);
    add(v, R::attention_query, l, h, h);
    add(v, R::attention_key, l, kv, h);
    add(v, R::attention_value, l, kv, h);
    add(v, R::attention_output, l, h, h);
    add(v, R::norm, l, 1, h);
    add(v, R::mlp_gate, l, inter, h);
    add(v, R::mlp_up, l, inter, h);
    add(v, R::mlp_down, l, h, inter);
  }
  add(v, R::norm, -1, 1, h);
  if (!tied) add(v, R::lm_head, -1, vocab, h);
  return v;
}

// One layer, hidden 256: projections 589,824 params, norms 768, embedding + head 512,000.
Inventory tiny() { return dense(1, 256, 128, 512, 1000); }
constexpr std::int64_t kTinyHighPrecisionBytes = (768 + 512'000) * 2;  // 1,025,536

// hidden 64, one layer: q 64x64, router 4x64, 4 experts of 128x64 / 64x128.
Inventory tiny_moe() {
  Inventory v;
  add(v, R::token_embedding, -1, 100, 64);
  add(v, R::attention_query, 0, 64, 64);
  add(v, R::norm, 0, 1, 64);
  add(v, R::router, 0, 4, 64);
  add(v, R::expert_gate, 0, 128, 64, 4);
  add(v, R::expert_up, 0, 128, 64, 4);
  add(v, R::expert_down, 0, 64, 128, 4);
  add(v, R::lm_head, -1, 100, 64);
  return v;
}

// deepseek-ai/DeepSeek-V3 config.json, with layer 61 (the MTP module) as the checkpoint
// stores it: its own embed_tokens, shared_head.head, three norms and eh_proj.
Inventory deepseek_v3() {
  const std::int64_t h = 7168, vocab = 129280;
  Inventory v;
  add(v, R::token_embedding, -1, vocab, h);
  for (int l = 0; l <= 61; ++l) {
    add(v, R::attention_query_down, l, 1536, h);
    add(v, R::norm, l, 1, 1536);
    add(v, R::attention_query, l, 128 * 192, 1536);
    add(v, R::attention_kv_down, l, 512 + 64, h);
    add(v, R::norm, l, 1, 512);
    add(v, R::attention_kv_up, l, 128 * 256, 512);
    add(v, R::attention_output, l, h, 128 * 128);
    add(v, R::norm, l, 1, h, 2);
    if (l < 3) {
      add(v, R::mlp_gate, l, 18432, h);
      add(v, R::mlp_up, l, 18432, h);
      add(v, R::mlp_down, l, h, 18432);
    } else {
      add(v, R::router, l, 256, h);
      add(v, R::bias, l, 1, 256);  // e_score_correction_bias
      add(v, R::expert_gate, l, 2048, h, 256);
      add(v, R::expert_up, l, 2048, h, 256);
      add(v, R::expert_down, l, h, 2048, 256);
      add(v, R::shared_expert_gate, l, 2048, h);
      add(v, R::shared_expert_up, l, 2048, h);
      add(v, R::shared_expert_down, l, h, 2048);
    }
  }
  add(v, R::token_embedding, 61, vocab, h);
  add(v, R::lm_head, 61, vocab, h);
  add(v, R::norm, 61, 1, h, 3);
  add(v, R::router, 61, h, 2 * h);  // eh_proj: a plain bf16 Linear, so tagged as kept
  add(v, R::norm, -1, 1, h);
  add(v, R::lm_head, -1, vocab, h);
  return v;
}

// openai/gpt-oss config.json: hidden 2880, 64 query / 8 kv heads of 64, biases, sinks.
Inventory gpt_oss(int layers, std::int64_t experts) {
  const std::int64_t h = 2880, vocab = 201088;
  Inventory v;
  add(v, R::token_embedding, -1, vocab, h);
  for (int l = 0; l < layers; ++l) {
    add(v, R::norm, l, 1, h, 2);
    add(v, R::attention_query, l, 4096, h);
    add(v, R::attention_key, l, 512, h);
    add(v, R::attention_value, l, 512, h);
    add(v, R::attention_output, l, h, 4096);
    add(v, R::bias, l, 1, 4096 + 512 + 512 + h);
    add(v, R::attention_sink, l, 1, 64);
    add(v, R::router, l, experts, h);
    add(v, R::bias, l, 1, experts);
    add(v, R::expert_gate, l, h, h, experts);
    add(v, R::expert_up, l, h, h, experts);
    add(v, R::expert_down, l, h, h, experts);
    add(v, R::bias, l, 1, 3 * h, experts);
  }
  add(v, R::norm, -1, 1, h);
  add(v, R::lm_head, -1, vocab, h);
  return v;
}

std::int64_t bytes(const Inventory& v, WF f, const WeightFormatOptions& o = {}) {
  return weight_bytes(v, f, o).total_bytes;
}

GgufType gguf_type_at(const Inventory& v, WF f, R role, int layer) {
  const std::vector<GgufType> types = gguf_tensor_types(v, f);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].role == role && v[i].layer == layer) return types[i];
  }
  return GgufType::f32;
}

bool within_one_percent(std::int64_t computed, std::int64_t published) {
  return std::abs(static_cast<double>(computed - published)) < 0.01 * static_cast<double>(published);
}

// Published sizes quoted to 0.01 GB: the computed size must round to the same figure.
void check_rounded_gb(std::int64_t computed, double published_gb) {
  CHECK(std::abs(static_cast<double>(computed) / 1e9 - published_gb) <= 0.005 + 1e-9);
}

}  // namespace

TEST_CASE("float formats store every parameter at their width") {
  const Inventory t = tiny();  // 1,102,592 parameters
  CHECK(bytes(t, WF::fp32) == 4'410'368);
  CHECK(bytes(t, WF::bf16) == 2'205'184);
  CHECK(weight_bytes(t, WF::fp16).effective_bits_per_weight == doctest::Approx(16.0));
}

TEST_CASE("fp8 and int8: one byte per projection weight plus scales") {
  const Inventory t = tiny();
  // 589,824 + 7 matrices x 4 B.
  CHECK(bytes(t, WF::fp8_e4m3_per_tensor) == 589'852 + kTinyHighPrecisionBytes);
  // 128x128 blocks: q,o 2x2; k,v 1x2; gate,up 4x2; down 2x4 -> 36 blocks x 4 B = 144.
  const WeightBytes block = weight_bytes(t, WF::fp8_e4m3_block128);
  CHECK(block.scale_bytes == 144);
  CHECK(block.total_bytes == 589'824 + 144 + kTinyHighPrecisionBytes);
  // A 576-row matrix still needs ceil(576/128) = 5 block rows.
  CHECK(weight_bytes(Inventory{{R::attention_kv_down, G::attention, 0, 576, 7168, 1}}, WF::fp8_e4m3_block128)
            .scale_bytes == 5 * 56 * 4);
  // int8: one fp32 scale per output row, 2048 rows.
  CHECK(bytes(t, WF::int8_per_channel) == 589'824 + 2048 * 4 + kTinyHighPrecisionBytes);
}

TEST_CASE("GPTQ and AWQ pack int32 words with fp16 scales") {
  const Inventory t = tiny();
  // 4-bit, g128: qweight n/2; qzeros groups*rows/2; scales groups*rows*2; g_idx cols*4.
  // q 35,072; k,v 18,048; o 35,072; gate,up 69,120; down 70,144 -> 314,624.
  const WeightBytes g = weight_bytes(t, WF::gptq);
  CHECK(g.total_bytes == 314'624 + kTinyHighPrecisionBytes);
  CHECK(g.scale_bytes == 314'624 - 589'824 / 2);
  // AWQ has no g_idx: 314,624 - (6 x 256 + 512) x 4 = 306,432.
  CHECK(bytes(t, WF::awq) == 306'432 + kTinyHighPrecisionBytes);

  // 3-bit, one group: qweight 8*3 rows of 256 int32 = 24,576; qzeros 24 int32 = 96;
  // scales 512; g_idx 1,024.
  const Inventory q{{R::attention_query, G::attention, 0, 256, 256, 1}};
  WeightFormatOptions o;
  o.bits = 3;
  o.group_size = -1;
  CHECK(bytes(q, WF::gptq, o) == 26'208);
  o.gptq_zero_bias = true;
  CHECK(bytes(q, WF::gptq, o) == 26'208 + 512);
  o.bits = 5;
  CHECK_THROWS_AS(weight_bytes(q, WF::gptq, o), std::invalid_argument);
}

TEST_CASE("bitsandbytes 4-bit: absmax per 64, optionally quantized per 256") {
  const Inventory t = tiny();
  // Double quant, per matrix: n/2 + n/64 + ceil(n/64/256)*4 + 1,024 + 64.
  // q,o 34,896; k,v 17,992; gate,up,down 68,704 -> 311,888.
  CHECK(bytes(t, WF::bnb_nf4) == 311'888 + kTinyHighPrecisionBytes);
  WeightFormatOptions o;
  o.double_quant = false;  // n/2 + n/64*4 + 64: q 36,928; k 18,496; gate 73,792 -> 332,224.
  CHECK(bytes(t, WF::bnb_fp4, o) == 332'224 + kTinyHighPrecisionBytes);
  // The router is an nn.Linear that bitsandbytes converts; GPTQ leaves it in 16-bit.
  const Inventory m = tiny_moe();
  CHECK(weight_bytes(m, WF::bnb_nf4).high_precision_params == 64 + 2 * 6'400);
  CHECK(weight_bytes(m, WF::gptq).high_precision_params == 64 + 2 * 6'400 + 256);
}

TEST_CASE("MXFP4 and NVFP4 block scales") {
  const Inventory t = tiny();
  // MXFP4: 17 B per 32 weights -> 589,824 * 17 / 32 = 313,344.
  CHECK(bytes(t, WF::mxfp4) == 313'344 + kTinyHighPrecisionBytes);
  // NVFP4: 9 B per 16 weights + 4 B per matrix -> 331,776 + 28.
  CHECK(bytes(t, WF::nvfp4) == 331'804 + kTinyHighPrecisionBytes);
  // With routed experts, MXFP4 covers only them: 3 x 4 copies x 256 blocks x 17 B = 52,224;
  // q, router, norm, embedding, head stay bf16: 17,216 params.
  const WeightBytes m = weight_bytes(tiny_moe(), WF::mxfp4);
  CHECK(m.quantized_bytes == 52'224);
  CHECK(m.high_precision_params == 17'216);
  CHECK(m.total_bytes == 52'224 + 17'216 * 2);
}

TEST_CASE("GGUF Q4_K_M bytes on a one-layer model") {
  // token_embd Q4_K 1000x144 = 144,000; output Q6_K 1000x210 = 210,000; the single layer is
  // a use-more-bits layer: attn_v Q6_K 128x210 = 26,880, ffn_down Q6_K 256x2x210 = 107,520;
  // q,o Q4_K 256x144 = 36,864 each; k 18,432; gate,up 512x144 = 73,728 each; norms F32 3,072.
  const WeightBytes r = weight_bytes(tiny(), WF::gguf_q4_k_m);
  CHECK(r.total_bytes == 731'088);
  CHECK(r.high_precision_bytes == 3'072);
  // Q4_K blocks: 144 - 128 = 16 B of scales per 256; Q6_K: 18 B per 256.
  CHECK(r.scale_bytes == (1000 + 256 * 2 + 128 + 512 * 2) * 16 + (1000 + 128 + 512) * 18);
}

TEST_CASE("GGUF block sizes match ggml-common.h") {
  CHECK(gguf_type_info(GgufType::q8_0).block_bytes == 34);
  CHECK(gguf_type_info(GgufType::q6_k).block_bytes == 210);
  CHECK(gguf_type_info(GgufType::q5_k).block_bytes == 176);
  CHECK(gguf_type_info(GgufType::q5_0).block_bytes == 22);
  CHECK(gguf_type_info(GgufType::q4_k).block_bytes == 144);
  CHECK(gguf_type_info(GgufType::q4_0).block_bytes == 18);
  CHECK(gguf_type_info(GgufType::q3_k).block_bytes == 110);
  CHECK(gguf_type_info(GgufType::q2_k).block_bytes == 84);
  CHECK(gguf_type_info(GgufType::iq4_xs).block_bytes == 136);
}

TEST_CASE("GGUF preset rules pick per-tensor types") {
  const Inventory l7 = dense(32, 4096, 4096, 11008, 32000);
  // Q4_K_M: layers 0-3, 28-31 and every third from 6 to 27 get Q6_K attn_v and ffn_down.
  const std::set<int> more{0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31};
  for (int l = 0; l < 32; ++l) {
    const GgufType want = more.count(l) ? GgufType::q6_k : GgufType::q4_k;
    CHECK(gguf_type_at(l7, WF::gguf_q4_k_m, R::attention_value, l) == want);
    CHECK(gguf_type_at(l7, WF::gguf_q4_k_m, R::mlp_down, l) == want);
  }
  CHECK(gguf_type_at(l7, WF::gguf_q4_k_m, R::lm_head, -1) == GgufType::q6_k);
  CHECK(gguf_type_at(l7, WF::gguf_q4_k_m, R::token_embedding, -1) == GgufType::q4_k);
  CHECK(gguf_type_at(l7, WF::gguf_q4_k_m, R::norm, 5) == GgufType::f32);
  // Q3_K_M: first two attn_v Q5_K, first n/16 = 2 ffn_down Q5_K, attn_output Q4_K.
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::attention_value, 1) == GgufType::q5_k);
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::attention_value, 2) == GgufType::q4_k);
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::mlp_down, 1) == GgufType::q5_k);
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::mlp_down, 2) == GgufType::q4_k);
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::attention_output, 9) == GgufType::q4_k);
  CHECK(gguf_type_at(l7, WF::gguf_q3_k_m, R::attention_query, 9) == GgufType::q3_k);
  // Tied embeddings: token_embd takes the output tensor's Q6_K.
  const Inventory tied = dense(2, 256, 256, 512, 1000, true);
  CHECK(gguf_type_at(tied, WF::gguf_q4_k_m, R::token_embedding, -1) == GgufType::q6_k);
  // 80-layer GQA stack (Llama-2-70B): attn_v Q4_K -> Q5_K outside the more-bits layers.
  const Inventory l70 = dense(80, 8192, 1024, 28672, 32000);
  CHECK(gguf_type_at(l70, WF::gguf_q4_k_m, R::attention_value, 11) == GgufType::q5_k);
  CHECK(gguf_type_at(l70, WF::gguf_q2_k, R::attention_value, 11) == GgufType::q5_k);
  // 8 experts (Mixtral): attn_v and attn_k Q8_0, attn_output Q5_K.
  Inventory mix = dense(4, 512, 128, 1024, 1000);
  mix.push_back({R::expert_down, G::routed_experts, 0, 512, 1024, 8});
  CHECK(gguf_type_at(mix, WF::gguf_q4_k_m, R::attention_value, 2) == GgufType::q8_0);
  CHECK(gguf_type_at(mix, WF::gguf_q4_k_m, R::attention_key, 2) == GgufType::q8_0);
  CHECK(gguf_type_at(mix, WF::gguf_q4_k_m, R::attention_output, 2) == GgufType::q5_k);
}

TEST_CASE("GGUF rows that no 256-block fits fall back") {
  Inventory v;
  add(v, R::mlp_gate, 0, 2880, 2880);         // 2880 % 256 != 0: Q4_K -> Q5_0
  add(v, R::mlp_down, 0, 2880, 2880);         // Q6_K (layer 0 gets more bits) -> Q8_0
  add(v, R::attention_query, 0, 1000, 1000);  // 1000 % 32 != 0: F16
  add(v, R::lm_head, -1, 5000, 2880);         // output: Q8_0 when the row misfits Q4_K
  const std::vector<GgufType> types = gguf_tensor_types(v, WF::gguf_q4_k_m);
  CHECK(types[0] == GgufType::q5_0);
  CHECK(types[1] == GgufType::q8_0);
  CHECK(types[2] == GgufType::f16);
  CHECK(types[3] == GgufType::q8_0);
  CHECK(gguf_tensor_types(v, WF::gguf_iq4_xs)[0] == GgufType::iq4_nl);
  CHECK_THROWS_AS(gguf_tensor_types(v, WF::gptq), std::invalid_argument);
}

TEST_CASE("GGUF MXFP4 MoE: routed experts MXFP4, every other matrix Q8_0 (llama-quantize's MXFP4_MOE)") {
  Inventory v;
  add(v, R::token_embedding, -1, 1000, 2880);
  add(v, R::attention_query, 0, 4096, 2880);
  add(v, R::router, 0, 32, 2880);
  add(v, R::expert_up, 0, 2880, 2880, 32);
  add(v, R::shared_expert_up, 0, 2880, 2880);  // 2-D: "other tensors -> Q8_0"
  add(v, R::bias, 0, 1, 2880);
  add(v, R::lm_head, -1, 1000, 2880);
  const std::vector<GgufType> types = gguf_tensor_types(v, WF::gguf_mxfp4_moe);
  CHECK(types == std::vector<GgufType>{GgufType::q8_0, GgufType::q8_0, GgufType::f32, GgufType::mxfp4, GgufType::q8_0,
                                       GgufType::f32, GgufType::q8_0});
  // A 2880-wide row: 90 blocks of 17 B (one E8M0 scale, 32 four-bit values) in MXFP4, of 34 B in Q8_0.
  CHECK(gguf_type_info(GgufType::mxfp4).block_bytes == 17);
  const WeightBytes b = weight_bytes(v, WF::gguf_mxfp4_moe);
  const std::int64_t q8_rows = 1000 + 4096 + 2880 + 1000;
  CHECK(b.quantized_bytes == 32 * 2880 * 90 * 17 + q8_rows * 90 * 34);
  CHECK(b.high_precision_bytes == (32 * 2880 + 2880) * 4);
}

TEST_CASE("more bits, more bytes") {
  const Inventory l7 = dense(32, 4096, 4096, 11008, 32000);
  CHECK(bytes(l7, WF::fp32) > bytes(l7, WF::bf16));
  CHECK(bytes(l7, WF::bf16) > bytes(l7, WF::int8_per_channel));
  CHECK(bytes(l7, WF::int8_per_channel) > bytes(l7, WF::fp8_e4m3_per_tensor));
  CHECK(bytes(l7, WF::fp8_e4m3_block128) > bytes(l7, WF::gptq));
  CHECK(bytes(l7, WF::nvfp4) > bytes(l7, WF::mxfp4));
  const WF ladder[] = {WF::gguf_q8_0,   WF::gguf_q6_k,   WF::gguf_q5_k_m, WF::gguf_q5_k_s, WF::gguf_q4_k_m,
                       WF::gguf_q4_k_s, WF::gguf_q3_k_l, WF::gguf_q3_k_m, WF::gguf_q3_k_s, WF::gguf_q2_k};
  for (std::size_t i = 1; i < std::size(ladder); ++i) {
    CHECK(bytes(l7, ladder[i - 1]) > bytes(l7, ladder[i]));
  }
}

TEST_CASE("published GGUF sizes: TheBloke Llama-2-7B") {
  // huggingface.co/TheBloke/Llama-2-7B-GGUF and -Chat-GGUF, LFS sizes (Q4_K_M and Q8_0 of the
  // chat repo; Q4_0, Q5_K_M, Q6_K from a third-party table of the base repo). Weights
  // alone (hand sums in docs/quantization.md); the file adds 741,056 B of GGUF metadata.
  const Inventory l7 = dense(32, 4096, 4096, 11008, 32000);
  const struct {
    WF format;
    std::int64_t weights, file;
  } rows[] = {
      {WF::gguf_q4_0, 3'825'065'984, 3'825'807'040},   {WF::gguf_q4_k_m, 4'080'263'168, 4'081'004'224},
      {WF::gguf_q5_k_m, 4'782'415'872, 4'783'156'928}, {WF::gguf_q6_k, 5'528'453'120, 5'529'194'176},
      {WF::gguf_q8_0, 7'160'348'672, 7'161'089'728},
  };
  for (const auto& row : rows) {
    const std::int64_t computed = bytes(l7, row.format);
    CHECK(computed == row.weights);
    CHECK(row.file - computed == 741'056);
    CHECK(within_one_percent(computed, row.file));
  }
}

TEST_CASE("published GGUF sizes: Llama-2-70B, every preset") {
  // TheBloke/KafkaLM-70B-German-V0.1-GGUF README (Llama-2-70B shapes), sizes in GB.
  const Inventory l70 = dense(80, 8192, 1024, 28672, 32000);
  check_rounded_gb(bytes(l70, WF::gguf_q2_k), 25.46);
  check_rounded_gb(bytes(l70, WF::gguf_q3_k_s), 29.92);
  check_rounded_gb(bytes(l70, WF::gguf_q3_k_m), 33.27);
  check_rounded_gb(bytes(l70, WF::gguf_q3_k_l), 36.15);
  check_rounded_gb(bytes(l70, WF::gguf_q4_0), 38.87);
  check_rounded_gb(bytes(l70, WF::gguf_q4_k_s), 39.25);
  check_rounded_gb(bytes(l70, WF::gguf_q4_k_m), 41.42);
  check_rounded_gb(bytes(l70, WF::gguf_q5_0), 47.46);
  check_rounded_gb(bytes(l70, WF::gguf_q5_k_s), 47.46);
  check_rounded_gb(bytes(l70, WF::gguf_q5_k_m), 48.75);
  check_rounded_gb(bytes(l70, WF::gguf_q6_k), 56.59);
  check_rounded_gb(bytes(l70, WF::gguf_q8_0), 73.29);
  // TheBloke/Mistral-7B-Instruct-v0.1-GGUF Q4_K_M: 4,368,438,944 B (734,880 B metadata).
  CHECK(bytes(dense(32, 4096, 1024, 14336, 32000), WF::gguf_q4_k_m) == 4'367'704'064);
}

TEST_CASE("published GPTQ and AWQ sizes: TheBloke READMEs") {
  // 2023 AutoGPTQ wrote a zero fp16 bias per layer. Llama-2-7B 4-bit g128:
  // 32 x (101,187,584 qweight + 790,528 qzeros + 3,162,112 scales + 142,336 g_idx
  //       + 84,992 bias) + 524,288,000 embedding/head + 532,480 norms = 3,896,582,144.
  WeightFormatOptions o;
  o.gptq_zero_bias = true;
  const Inventory l7 = dense(32, 4096, 4096, 11008, 32000);
  CHECK(bytes(l7, WF::gptq, o) == 3'896'582'144);
  check_rounded_gb(bytes(l7, WF::gptq, o), 3.90);  // Llama-2-7b-Chat-GPTQ main
  o.group_size = 64;
  check_rounded_gb(bytes(l7, WF::gptq, o), 4.02);
  o.group_size = 32;
  check_rounded_gb(bytes(l7, WF::gptq, o), 4.28);
  // vigogne-2-70B-chat-GPTQ (Llama-2-70B shapes).
  const Inventory l70 = dense(80, 8192, 1024, 28672, 32000);
  o.group_size = -1;
  check_rounded_gb(bytes(l70, WF::gptq, o), 35.33);
  o.group_size = 128;
  check_rounded_gb(bytes(l70, WF::gptq, o), 36.65);
  o.bits = 3;
  o.group_size = -1;
  check_rounded_gb(bytes(l70, WF::gptq, o), 26.77);
  // AWQ: Mistral-7B-v0.1-AWQ 4.15 GB, LlamaGuard-7B-AWQ (Llama-2-7B shapes) 3.89 GB.
  check_rounded_gb(bytes(dense(32, 4096, 1024, 14336, 32000), WF::awq), 4.15);
  check_rounded_gb(bytes(l7, WF::awq), 3.89);
}

TEST_CASE("published checkpoint sizes: DeepSeek-V3 FP8 and gpt-oss MXFP4") {
  // DeepSeek-V3 (MTP layer included), hand sum in docs/quantization.md: 688,574,809,152.
  // Its 163 safetensors files total 688,586,727,753 B: 11.9 MB more, the JSON headers of
  // about 92,000 tensors plus 59 x 512 B for e_score_correction_bias, fp32 there, bf16 here.
  const std::int64_t ds = bytes(deepseek_v3(), WF::fp8_e4m3_block128);
  CHECK(ds == 688'574'809'152);
  CHECK(within_one_percent(ds, 688'586'727'753));
  // gpt-oss model.safetensors.index.json metadata.total_size, matched to the byte.
  CHECK(bytes(gpt_oss(24, 32), WF::mxfp4) == 13'761'264'768);
  CHECK(bytes(gpt_oss(36, 128), WF::mxfp4) == 65'248'815'744);
}

TEST_CASE("MXFP4 experts stored padded for an engine's MoE kernel") {
  // gpt-oss-20b (24 layers of 32 experts): hidden 256-aligned, intermediate 128-aligned (vLLM's Marlin
  // layout). A 2880 x 2880 expert matrix is 2880 rows x 90 blocks of 32 x 17 B = 4,406,400 B; gate and
  // up padded to 2944 rows x 96 blocks, down to 3072 rows x 92 blocks: 4,804,608 B each, 398,208 B more.
  WeightFormatOptions marlin;
  marlin.expert_hidden_multiple = 256;
  marlin.expert_intermediate_multiple = 128;
  const WeightBytes padded = weight_bytes(gpt_oss(24, 32), WF::mxfp4, marlin);
  CHECK(padded.total_bytes - 13'761'264'768 == 3 * 398'208 * 32 * 24);
  CHECK(padded.quantized_params ==
        weight_bytes(gpt_oss(24, 32), WF::mxfp4).quantized_params);  // padding is no parameter
  bool noted = false;
  for (const std::string& note : padded.notes) noted |= note.find("): 917471232 B of padding") != std::string::npos;
  CHECK(noted);
  // Only MXFP4's routed experts move: a bf16 or GPTQ model, and the 16-bit attention, stay as they are.
  CHECK(bytes(gpt_oss(24, 32), WF::bf16, marlin) == bytes(gpt_oss(24, 32), WF::bf16));
  CHECK(bytes(gpt_oss(2, 4), WF::gptq, marlin) == bytes(gpt_oss(2, 4), WF::gptq));
  WeightFormatOptions zero;
  zero.expert_hidden_multiple = 0;
  CHECK_THROWS_AS(weight_bytes(gpt_oss(1, 4), WF::mxfp4, zero), std::invalid_argument);
}

TEST_CASE("format catalogue and lookups") {
  std::set<std::string> ids;
  for (const WeightFormatInfo& info : weight_formats()) {
    CHECK(ids.insert(info.id).second);
    CHECK(find_weight_format(info.id) == info.format);
    CHECK(&weight_format_info(info.format) == &info);
  }
  CHECK(find_weight_format("Q4_K_M") == WF::gguf_q4_k_m);
  CHECK(find_weight_format("BFloat16") == WF::bf16);
  CHECK(find_weight_format("gptq-int4") == WF::gptq);
  CHECK_FALSE(find_weight_format("q4_k_xl").has_value());
  CHECK(weight_format_info(WF::mxfp4).base_bits_per_weight == 4.25);
  CHECK(weight_format_info(WF::bnb_nf4).base_bits_per_weight == doctest::Approx(4.127).epsilon(1e-3));
}

TEST_CASE("quantization_config fields map to a format") {
  auto ds = format_from_quantization_fields("fp8", 0, 0, "e4m3", 128, 128);
  REQUIRE(ds.has_value());
  CHECK(ds->first == WF::fp8_e4m3_block128);
  CHECK(ds->second.fp8_block_rows == 128);
  CHECK(format_from_quantization_fields("fp8", 0, 0, "", 0, 0)->first == WF::fp8_e4m3_per_tensor);
  auto gptq = format_from_quantization_fields("gptq", 8, -1, "", 0, 0);
  REQUIRE(gptq.has_value());
  CHECK(gptq->first == WF::gptq);
  CHECK(gptq->second.bits == 8);
  CHECK(gptq->second.group_size == -1);
  CHECK(format_from_quantization_fields("awq", 4, 128, "", 0, 0)->first == WF::awq);
  CHECK(format_from_quantization_fields("bitsandbytes", 4, 0, "fp4", 0, 0)->first == WF::bnb_fp4);
  CHECK(format_from_quantization_fields("bitsandbytes", 8, 0, "", 0, 0)->first == WF::int8_per_channel);
  auto mx = format_from_quantization_fields("mxfp4", 0, 0, "", 0, 0);
  CHECK(mx->second.scope == QuantScope::routed_experts_only);
  CHECK(format_from_quantization_fields("modelopt", 0, 0, "NVFP4", 0, 0)->first == WF::nvfp4);
  CHECK_FALSE(format_from_quantization_fields("hqq", 4, 64, "", 0, 0).has_value());
  CHECK_FALSE(format_from_quantization_fields("gptq", 5, 128, "", 0, 0).has_value());
}
