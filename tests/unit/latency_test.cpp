// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/latency.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// A made-up accelerator with round numbers: 100 TFLOP/s bf16, 10 TFLOP/s fp32, 1 TB/s HBM,
// 100 GB/s per direction between the 8 GPUs of a node, $2 per hour.
Accelerator round_gpu() {
  Accelerator gpu{};
  gpu.id = "round";
  gpu.name = "round-number test GPU";
  gpu.vendor = "test";
  gpu.memory_bytes = std::int64_t{80} << 30;
  gpu.memory_bandwidth_bytes_per_second = 1e12;
  gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::bf16)] = 100e12;
  gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp32)] = 10e12;
  gpu.interconnect = "NVLink (test)";
  gpu.interconnect_bytes_per_second_per_direction = 100e9;
  gpu.gpus_per_node = 8;
  gpu.price_per_hour_usd = 2.0;
  gpu.price_source = "test";
  gpu.sources = "test";
  return gpu;
}

LatencyAssumptions ideal() {
  LatencyAssumptions a;
  a.flops_efficiency = 1;
  a.hbm_efficiency = 1;
  a.interconnect_efficiency = 1;
  return a;
}

// One layer: hidden 1024, 8 heads of 128 (MHA), ungated MLP of 4096, RMSNorm, vocab 1000, untied.
ModelDescription tiny_model() {
  ModelDescription m;
  m.model_type = "test";
  m.hidden_size = 1024;
  m.vocab_size = 1000;
  m.num_layers = 1;
  LayerShape layer;
  layer.attention.num_heads = 8;
  layer.attention.num_kv_heads = 8;
  layer.attention.head_dim = 128;
  layer.attention.value_head_dim = 128;
  layer.mlp.intermediate_size = 4096;
  layer.layer_count = 1;
  m.layer_kinds.push_back(layer);
  m.layer_kind_of_layer.assign(1, 0);
  return m;
}

struct Setup {
  ModelDescription model;
  PreparedLatencyModel prepared;
  InferenceWorkload workload;
};

Setup setup(ModelDescription model, WeightFormat format = WeightFormat::bf16) {
  Setup s{model, prepare_latency_model(model, weight_tensors(model), format), {}};
  s.workload.weight_format = format;
  return s;
}

Setup from_config(const std::string& file, WeightFormat format = WeightFormat::bf16) {
  return setup(parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + file)), format);
}

double op_seconds(const LatencyPhase& p, LatencyOp op) { return p.seconds[static_cast<std::size_t>(op)]; }

}  // namespace

TEST_CASE("golden: a single matmul-bound prefill operation") {
  // MLP of the tiny model over 1 x 1000 prompt tokens, all efficiencies 1:
  // FLOPs 2 x 1000 x (2 x 1024 x 4096) = 16,777,216,000 -> / 100e12 = 1.6777216e-4 s;
  // bytes 8,388,608 params x 2 + 1000 x 2 x (2 x 1024 + 2 x 4096) = 37,257,216 -> 3.7257216e-5 s.
  Setup s = setup(tiny_model());
  const Accelerator gpu = round_gpu();
  const LatencyEstimate e = estimate_latency(s.prepared, s.workload, gpu, {1000, 1}, ideal());
  const auto mlp = static_cast<std::size_t>(LatencyOp::mlp);
  CHECK(e.prefill.flops[mlp] == doctest::Approx(16'777'216'000.0).epsilon(1e-12));
  CHECK(e.prefill.bytes[mlp] == doctest::Approx(37'257'216.0).epsilon(1e-12));
  CHECK(e.prefill.seconds[mlp] == doctest::Approx(1.6777216e-4).epsilon(1e-12));
  CHECK(e.prefill.bound[mlp] == LatencyBound::compute);
}

TEST_CASE("golden: one bandwidth-bound decode step, every operation by hand") {
  // Batch 1, prompt 99: the first decode step attends 100 tokens. Efficiencies 1, bf16, a = 2 B.
  //   embedding  one row 2048 B + output 2048 B                          =      4,096 B ->  0.004096 us
  //   qkv        3,145,728 x 2 B + 2 x (1024 + 1024 + 2048)              =  6,299,648 B ->  6.299648 us
  //   attention  q/o 2 x 8 x 256 + cache (100 + 1) x 4096 B              =    417,792 B ->  0.417792 us
  //   output     1,048,576 x 2 B + 2 x (1024 + 1024)                     =  2,101,248 B ->  2.101248 us
  //   mlp        8,388,608 x 2 B + 2 x (2048 + 8192)                     = 16,797,696 B -> 16.797696 us
  //   norms      2 x 1024 x 2 B + 2 x 1024 x 2 x 2, final 2048 + 4096    =     18,432 B ->  0.018432 us
  //   lm_head    1,024,000 x 2 B + 2 x (1024 + 1000)                     =  2,052,048 B ->  2.052048 us
  // Each operation's FLOPs take less time than its bytes; the step is 27.69096 us.
  Setup s = setup(tiny_model());
  const Accelerator gpu = round_gpu();
  const LatencyEstimate e = estimate_latency(s.prepared, s.workload, gpu, {99, 2}, ideal());
  CHECK(op_seconds(e.decode_first, LatencyOp::embedding) == doctest::Approx(4.096e-9).epsilon(1e-9));
  CHECK(op_seconds(e.decode_first, LatencyOp::qkv_projection) == doctest::Approx(6.299648e-6).epsilon(1e-12));
  CHECK(op_seconds(e.decode_first, LatencyOp::attention) == doctest::Approx(4.17792e-7).epsilon(1e-12));
  CHECK(op_seconds(e.decode_first, LatencyOp::output_projection) == doctest::Approx(2.101248e-6).epsilon(1e-12));
  CHECK(op_seconds(e.decode_first, LatencyOp::mlp) == doctest::Approx(1.6797696e-5).epsilon(1e-12));
  CHECK(op_seconds(e.decode_first, LatencyOp::norms) == doctest::Approx(1.8432e-8).epsilon(1e-12));
  CHECK(op_seconds(e.decode_first, LatencyOp::lm_head) == doctest::Approx(2.052048e-6).epsilon(1e-12));
  CHECK(e.totals.decode_step_first_seconds == doctest::Approx(2.769096e-5).epsilon(1e-12));
  CHECK(e.decode_first.dominant_op == LatencyOp::mlp);
  CHECK(e.decode_first.dominant_bound == LatencyBound::memory);
  // One decode step: it is also the whole decode and prices the output: $2/h = 1/1800 $/s.
  CHECK(e.totals.decode_total_seconds == doctest::Approx(2.769096e-5).epsilon(1e-12));
  CHECK(e.totals.cost_per_million_output_tokens_usd == doctest::Approx(2.769096e-5 / 1800 * 1e6).epsilon(1e-12));
}

TEST_CASE("golden: helper formulas") {
  // Distinct experts of E = 8, top-2: one token touches 2; two tokens 8 x (1 - 0.75^2) = 3.5.
  CHECK(detail::expected_distinct_experts(8, 2, 1) == doctest::Approx(2.0));
  CHECK(detail::expected_distinct_experts(8, 2, 2) == doctest::Approx(3.5));
  CHECK(detail::expected_distinct_experts(8, 2, 10000) == doctest::Approx(8.0));
  // Causal pairs of 10 tokens: 55; with a window of 4: 4 x 5 / 2 + 6 x 4 = 34; bidirectional 100.
  CHECK(detail::attended_pairs(10, 0, true) == 55);
  CHECK(detail::attended_pairs(10, 4, true) == 34);
  CHECK(detail::attended_pairs(10, 4, false) == 100);
  // Ring all-reduce of 1e9 B over 4 ranks at 100 GB/s, 1 us per step, 5 us base:
  // 2 x 3/4 x 0.01 s + 6 x 1 us + 5 us = 0.015011 s; all-gather 0.0075 + 3 us + 5 us.
  CHECK(detail::ring_all_reduce_seconds(1e9, 4, 100e9, 1e-6, 5e-6) == doctest::Approx(0.015011));
  CHECK(detail::ring_all_gather_seconds(1e9, 4, 100e9, 1e-6, 5e-6) == doctest::Approx(0.007508));
  CHECK(detail::ring_all_reduce_seconds(1e9, 1, 100e9, 1e-6, 5e-6) == 0);
  // Sum over x = 0..4 of max(x, 2) = 2 + 2 + 2 + 3 + 4 = 13; of max(4 - x, 1) = 4 + 3 + 2 + 1 + 1 = 11.
  CHECK(detail::sum_of_max_of_lines(0, 1, 2, 0, 0, 4) == doctest::Approx(13));
  CHECK(detail::sum_of_max_of_lines(4, -1, 1, 0, 0, 4) == doctest::Approx(11));
  CHECK(detail::sum_of_max_of_lines(1, 0, 1, 0, 3, 2) == 0);  // empty range
}

namespace {

// tiny_model() with one MLA layer: hidden 16, 2 heads, kv_lora_rank 4, rope 2, nope 3, value 5, MLP 32.
ModelDescription tiny_mla_model() {
  ModelDescription m = tiny_model();
  m.hidden_size = 16;
  AttentionShape& a = m.layer_kinds[0].attention;
  a = AttentionShape{};
  a.num_heads = 2;
  a.num_kv_heads = 2;
  a.head_dim = 5;
  a.value_head_dim = 5;
  a.kv_lora_rank = 4;
  a.qk_rope_head_dim = 2;
  a.qk_nope_head_dim = 3;
  m.layer_kinds[0].mlp.intermediate_size = 32;
  return m;
}

}  // namespace

TEST_CASE("golden: absorbed MLA decode attention") {
  // 2 heads, kv_lora_rank 4, rope 2, nope 3, value 5; attending 10 tokens, batch 1:
  // 2 x 2 heads x (3 x 4 + 10 x (4 + 2) + 10 x 4 + 4 x 5) = 4 x 132 = 528 FLOPs.
  Setup s = setup(tiny_mla_model());
  const LatencyEstimate e = estimate_latency(s.prepared, s.workload, round_gpu(), {9, 2}, ideal());
  CHECK(e.decode_first.flops[static_cast<std::size_t>(LatencyOp::attention)] == doctest::Approx(528.0));
}

TEST_CASE("golden: DeepSeek-V3.2's sparse MLA attends top-k keys; its indexer scores every key") {
  // The absorbed-MLA layer above (2 heads, kv_lora_rank 4, rope 2, nope 3, value 5) with a query
  // latent of 6 and a lightning indexer of 2 heads of 16, top-k 4. Prompt 9, batch 1.
  ModelDescription m = tiny_mla_model();
  AttentionShape& a = m.layer_kinds[0].attention;
  a.q_lora_rank = 6;
  a.index_heads = 2;
  a.index_head_dim = 16;
  a.index_topk = 4;
  Setup s = setup(m);
  const auto attention = static_cast<std::size_t>(LatencyOp::attention);
  const auto indexer = static_cast<std::size_t>(LatencyOp::sparse_indexer);
  LatencyEstimate e = estimate_latency(s.prepared, s.workload, round_gpu(), {9, 2}, ideal());
  // Decode attending 10 cached tokens, 4 of them picked: 2 x 2 heads x (3 x 4 + 4 x (4 + 2) + 4 x 4 + 4 x 5)
  // = 4 x 72 = 288 FLOPs (dense over 10 keys it would be 528, the test above).
  CHECK(e.decode_first.flops[attention] == doctest::Approx(288.0));
  // Indexer: 10 pairs x 2 x 2 heads x (16 + 1) = 680 FLOPs. Bytes: 10 fp32 scores written and read (80);
  // 10 cached keys read and the new one written at 16 + 4 (one fp32 scale per 128) = 20 B each (220);
  // the FP8 query 2 x 16 and 4 int32 indices (48): 348 B.
  CHECK(e.decode_first.flops[indexer] == doctest::Approx(680.0));
  CHECK(e.decode_first.bytes[indexer] == doctest::Approx(348.0));
  // Prefill of 9 tokens: MLA pairs capped at 4 keys, 4 x 5 / 2 + (9 - 4) x 4 = 30 (45 uncapped):
  // 2 x 2 heads x 30 x (3 + 2 + 5) = 1,200, plus kv_b for 9 tokens 2 x 9 x (4 x 2 x (3 + 5)) = 1,152.
  CHECK(e.prefill.flops[attention] == doctest::Approx(2'352.0));
  // Indexer over the 45 causal pairs: 4 x 17 x 45 = 3,060 FLOPs; 45 x 8 + (9 read + 9 written) x 20
  // + 9 x 48 = 1,152 B.
  CHECK(e.prefill.flops[indexer] == doctest::Approx(3'060.0));
  CHECK(e.prefill.bytes[indexer] == doctest::Approx(1'152.0));
  // No FP8 rate on this chip: the scores run at bf16. With one, at its FP8 peak.
  CHECK(e.rates.indexer_dtype == ComputeDtype::bf16);
  CHECK(e.rates.indexer_flops_per_second == doctest::Approx(100e12));
  Accelerator fp8_gpu = round_gpu();
  fp8_gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp8)] = 200e12;
  e = estimate_latency(s.prepared, s.workload, fp8_gpu, {9, 2}, ideal());
  CHECK(e.rates.indexer_dtype == ComputeDtype::fp8);
  CHECK(e.decode_first.compute_seconds[indexer] == doctest::Approx(680.0 / 200e12));
  CHECK(std::string(latency_op_name(LatencyOp::sparse_indexer)) == "sparse_indexer");
}

TEST_CASE("the closed-form decode total equals the sum of its steps") {
  // Decode step j attends prompt + j tokens; a step attending p + 1 is the first step of prompt p.
  // DeepSeek-V3.2's range crosses its index_topk of 2,048: attention capped, the indexer not.
  for (const char* file :
       {"meta-llama--Llama-3.1-8B.json", "google--medgemma-27b-it.json", "deepseek-ai--DeepSeek-V3.2.json"}) {
    CAPTURE(file);
    Setup s = from_config(file);
    s.workload.batch_size = 4;
    const Accelerator& gpu = *find_accelerator("h100");
    // medgemma has 1024-token sliding-window layers: the range crosses the window.
    const std::int64_t prompt = std::string(file).find("V3.2") != std::string::npos ? 1'900 : 900, generated = 300;
    const LatencyTotals total = estimate_latency_totals(s.prepared, s.workload, gpu, {prompt, generated});
    double sum = 0;
    for (std::int64_t p = prompt; p < prompt + generated - 1; ++p)
      sum += estimate_latency_totals(s.prepared, s.workload, gpu, {p, 2}).decode_step_first_seconds;
    CHECK(total.decode_total_seconds == doctest::Approx(sum).epsilon(1e-9));
    const LatencyEstimate full = estimate_latency(s.prepared, s.workload, gpu, {prompt, generated});
    CHECK(full.totals.decode_total_seconds == doctest::Approx(total.decode_total_seconds).epsilon(1e-12));
    CHECK(full.totals.prefill_seconds == doctest::Approx(total.prefill_seconds).epsilon(1e-12));
    CHECK(full.totals.decode_step_last_seconds == doctest::Approx(total.decode_step_last_seconds).epsilon(1e-12));
  }
}

TEST_CASE("prepared weight bytes add up to the format's bytes for the whole model") {
  struct Case {
    const char* file;
    WeightFormat format;
  };
  for (const Case c : {Case{"meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::bf16},
                       Case{"meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::gptq},
                       Case{"meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::gguf_q4_k_m},
                       Case{"mistralai--Mixtral-8x7B-v0.1.json", WeightFormat::awq},
                       Case{"deepseek-ai--DeepSeek-V3.json", WeightFormat::fp8_e4m3_block128},
                       Case{"openai--gpt-oss-20b.json", WeightFormat::mxfp4}}) {
    CAPTURE(c.file);
    CAPTURE(weight_format_info(c.format).id);
    const ModelDescription m = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + c.file));
    const auto tensors = weight_tensors(m);
    const PreparedLatencyModel p = prepare_latency_model(m, tensors, c.format);
    double sum = p.embedding_bytes + (m.tie_word_embeddings ? 0 : p.lm_head.bytes) + p.final_norm_bytes;
    for (const LatencyLayerKind& k : p.kinds)
      sum += static_cast<double>(k.layers) *
             (k.query.bytes + k.key_value.bytes + k.attention_replicated.bytes + k.kv_up.bytes + k.output.bytes +
              k.mlp.bytes + k.router.bytes + k.experts * k.expert.bytes + k.shared.bytes + k.norms.bytes);
    CHECK(sum == doctest::Approx(static_cast<double>(weight_bytes(tensors, c.format).total_bytes)).epsilon(1e-9));
  }
}

TEST_CASE("invariants") {
  Setup s = from_config("meta-llama--Llama-3.1-70B.json");
  const Accelerator h100 = *find_accelerator("h100");

  SUBCASE("more bandwidth is never slower") {
    Accelerator fast = h100;
    fast.memory_bandwidth_bytes_per_second *= 2;
    for (std::int64_t batch : {1, 64}) {
      s.workload.batch_size = batch;
      s.workload.layout.tensor_parallel = 4;
      const LatencyTotals slow_t = estimate_latency_totals(s.prepared, s.workload, h100, {2000, 200});
      const LatencyTotals fast_t = estimate_latency_totals(s.prepared, s.workload, fast, {2000, 200});
      CHECK(fast_t.prefill_seconds <= slow_t.prefill_seconds);
      CHECK(fast_t.decode_total_seconds <= slow_t.decode_total_seconds);
      CHECK(fast_t.decode_total_seconds < slow_t.decode_total_seconds);  // decode is bandwidth-bound
    }
  }
  SUBCASE("more tensor parallelism never increases the weight bytes a GPU reads") {
    for (const char* file :
         {"meta-llama--Llama-3.1-70B.json", "mistralai--Mixtral-8x7B-v0.1.json", "deepseek-ai--DeepSeek-V3.json"}) {
      CAPTURE(file);
      Setup m = from_config(file);
      m.workload.batch_size = 8;
      double previous = 1e300;
      for (std::int64_t tp : {1, 2, 4, 8}) {
        m.workload.layout.tensor_parallel = tp;
        const LatencyEstimate e = estimate_latency(m.prepared, m.workload, h100, {1000, 10});
        CHECK(e.decode_weight_bytes_read_per_gpu <= previous);
        previous = e.decode_weight_bytes_read_per_gpu;
      }
    }
  }
  SUBCASE("decode time grows with the context") {
    s.workload.batch_size = 16;
    double previous = 0;
    for (std::int64_t prompt : {128, 1024, 8192, 65536}) {
      const LatencyTotals t = estimate_latency_totals(s.prepared, s.workload, h100, {prompt, 100});
      CHECK(t.decode_step_first_seconds > previous);
      CHECK(t.decode_step_last_seconds >= t.decode_step_first_seconds);
      previous = t.decode_step_first_seconds;
    }
  }
  SUBCASE("at a fixed price, cost per token falls as throughput rises") {
    double previous_rate = 0, previous_cost = 1e300;
    for (std::int64_t batch : {1, 8, 64}) {
      s.workload.batch_size = batch;
      const LatencyTotals t = estimate_latency_totals(s.prepared, s.workload, h100, {1000, 200});
      CHECK(t.decode_tokens_per_second > previous_rate);
      CHECK(t.cost_per_million_output_tokens_usd < previous_cost);
      // price per second = cost per token x tokens per second, whatever the batch
      CHECK(t.cost_per_million_output_tokens_usd / 1e6 * t.decode_tokens_per_second ==
            doctest::Approx(t.price_per_hour_usd / 3600));
      previous_rate = t.decode_tokens_per_second;
      previous_cost = t.cost_per_million_output_tokens_usd;
    }
  }
  SUBCASE("a sliding window caps what a decode step attends") {
    ModelDescription m = tiny_model();
    m.layer_kinds[0].attention.sliding_window = 1024;
    Setup w = setup(m);
    const auto attention = [&](std::int64_t prompt) {
      return op_seconds(estimate_latency(w.prepared, w.workload, h100, {prompt, 2}).decode_first, LatencyOp::attention);
    };
    CHECK(attention(500) < attention(1000));
    CHECK(attention(4000) == attention(9000));  // both attend the last 1024 tokens
    CHECK(attention(1023) == attention(4000));
  }
}

TEST_CASE("compute dtype follows the weight format and the chip") {
  Setup fp8 = from_config("meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::fp8_e4m3_per_tensor);
  CHECK(estimate_latency(fp8.prepared, fp8.workload, *find_accelerator("h100"), {16, 2}).rates.matmul_dtype ==
        ComputeDtype::fp8);
  // No fp8 path on the A100: weight-only fp8, products in bf16.
  CHECK(estimate_latency(fp8.prepared, fp8.workload, *find_accelerator("a100"), {16, 2}).rates.matmul_dtype ==
        ComputeDtype::bf16);
  Setup gptq = from_config("meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::gptq);
  CHECK(estimate_latency(gptq.prepared, gptq.workload, *find_accelerator("h100"), {16, 2}).rates.matmul_dtype ==
        ComputeDtype::bf16);
  // V100 has no bf16: activations in fp16.
  Setup bf16 = from_config("meta-llama--Llama-2-7b-chat-hf.json");
  CHECK(estimate_latency(bf16.prepared, bf16.workload, *find_accelerator("v100"), {16, 2}).rates.activation_dtype ==
        ComputeDtype::fp16);
  bf16.workload.weight_format = WeightFormat::fp16;
  CHECK_THROWS_AS(estimate_latency(bf16.prepared, bf16.workload, *find_accelerator("h100"), {16, 2}),
                  std::invalid_argument);
}

TEST_CASE("llm-analysis fields follow its conventions") {
  Setup s = from_config("meta-llama--Llama-2-7b-chat-hf.json");
  s.workload.batch_size = 4;
  const LatencyEstimate e = estimate_latency(s.prepared, s.workload, *find_accelerator("a100"), {512, 32});
  const LlmAnalysisCompat& c = e.llm_analysis;
  CHECK(c.prefill_latency == e.totals.prefill_seconds);
  CHECK(c.decode_latency == e.decode_full.total_seconds);  // one step attending 512 + 32 tokens
  CHECK(c.decode_latency > e.totals.decode_step_last_seconds);
  CHECK(c.total_decode_latency == doctest::Approx(32 * c.decode_latency));
  CHECK(c.total_latency == doctest::Approx(c.prefill_latency + 32 * c.decode_latency));
  CHECK(c.total_per_token_latency == doctest::Approx(c.total_latency / 32));
  CHECK(c.prefill_tokens_per_sec == doctest::Approx(4 * 512 / c.prefill_latency));
  CHECK(c.decode_tokens_per_sec == doctest::Approx(4 / c.decode_latency));
  CHECK(c.total_tokens_per_sec == doctest::Approx(4 / c.total_per_token_latency));
  // 1000 x $/GPU-hour x GPUs / 3600 / tokens per second (A100 80GB default $1.49/h, one GPU)
  CHECK(c.decode_cost_per_1k_tokens == doctest::Approx(1000 * 1.49 / 3600 / c.decode_tokens_per_sec));
}

TEST_CASE("explain path: formulas with numbers substituted") {
  Setup s = from_config("meta-llama--Llama-2-7b-chat-hf.json");
  s.workload.layout.tensor_parallel = 2;
  const LatencyExplanation x = explain_latency(s.prepared, s.workload, *find_accelerator("h100"), {256, 16});
  CHECK(!x.lines.empty());
  bool saw_collective = false;
  for (const LatencyLine& line : x.lines) {
    CHECK(!line.formula.empty());
    if (line.op == "tp_collectives") saw_collective = line.bound == "interconnect";
  }
  CHECK(saw_collective);
  CHECK(x.summary.size() >= 5);
}

// Published figures. Tolerances are wide on purpose: the errors found are stated, not tuned away.
TEST_CASE("published: gpt-fast Llama-2-7B, batch 1, A100 80GB, bf16") {
  // pytorch-labs/gpt-fast README (Benchmarks; commit 0f925b5d): 104.9 tokens/s, batch 1, 5-token
  // prompt, 200 new tokens (generate.py default), A100-80GB power-limited to 330 W.
  // fitcheck gives 122.9 tokens/s: +17% (the README measures ~1700 GB/s peak on that card, 83%).
  Setup s = from_config("meta-llama--Llama-2-7b-chat-hf.json");
  const LatencyTotals t = estimate_latency_totals(s.prepared, s.workload, *find_accelerator("a100-sxm-80gb"), {5, 200});
  CHECK(t.request_tokens_per_second == doctest::Approx(104.9).epsilon(0.25));
}

TEST_CASE("published: TensorRT-LLM v0.5, Llama 7B FP8 decode throughput on H100") {
  // NVIDIA/TensorRT-LLM release/0.5.0 docs/source/performance.md, "H100 GPUs (FP8)": LLaMA 7B,
  // batch 64, TP 1, input 128, output 2048: 5,367 output tokens/s (static batching, FP8 KV cache).
  // fitcheck gives 6,470 tokens/s: +21%.
  Setup s = from_config("meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::fp8_e4m3_per_tensor);
  s.workload.batch_size = 64;
  s.workload.kv_cache_dtype = KvCacheDtype::fp8;
  const LatencyTotals t = estimate_latency_totals(s.prepared, s.workload, *find_accelerator("h100"), {128, 2048});
  CHECK(t.batch_tokens_per_second == doctest::Approx(5367).epsilon(0.3));
}

TEST_CASE("published: TensorRT-LLM first-token latency, Llama 7B FP16 on A100") {
  // NVIDIA/TensorRT-LLM docs/source/performance.md (commit 138f96d4), "Low Latency", A100 GPUs
  // (FP16): LLaMA 7B, batch 1, input 2048: 133 ms to the first token. fitcheck: 128 ms, -4%.
  Setup s = from_config("meta-llama--Llama-2-7b-chat-hf.json", WeightFormat::fp16);
  s.workload.kv_cache_dtype = KvCacheDtype::fp16;
  const LatencyTotals t = estimate_latency_totals(s.prepared, s.workload, *find_accelerator("a100"), {2048, 1});
  CHECK(t.prefill_seconds == doctest::Approx(0.133).epsilon(0.15));
}

namespace {

// One MoE layer: hidden 1024, 8 MHA heads of 128, 16 routed experts of 512 (gated), top-2.
ModelDescription tiny_moe_model() {
  ModelDescription m = tiny_model();
  LayerShape& layer = m.layer_kinds[0];
  layer.mlp.intermediate_size = 0;
  layer.moe.num_experts = 16;
  layer.moe.experts_per_token = 2;
  layer.moe.expert_intermediate_size = 512;
  return m;
}

}  // namespace

TEST_CASE("golden: expert-parallel dispatch and combine over NVLink and the NIC, all-to-all and DeepEP") {
  // ep 16 over two nodes of 8 (NVLink 100 GB/s, NIC 50 GB/s), tp 1, efficiencies 1, a = 2 B.
  Setup s = setup(tiny_moe_model());
  s.workload.layout.expert_parallel = 16;
  s.workload.batch_size = 4;
  const Accelerator gpu = round_gpu();
  const auto ep = static_cast<std::size_t>(LatencyOp::ep_all_to_all);

  // All-to-all, decode of 4 tokens: 2 copies a token, 7/16 of them to the node's other ranks and
  // 8/16 to the other node: 0.875 and 1 token each way, 4 x 1024 elements of 2 B.
  //   NVLink 4,096 x 2 B x 0.875 x 2 ways = 14,336 B; NIC 4,096 x 2 B x 1 x 2 = 16,384 B
  //   transfer 16,384 B x max(0.875 / 100e9, 1 / 50e9) = 3.2768e-7 s (the NIC)
  //   floors 2 x (15 network hops x 2.7 us + 6.6 us) = 9.42e-5 s
  const LatencyEstimate a2a = estimate_latency(s.prepared, s.workload, gpu, {99, 2}, ideal());
  CHECK(a2a.decode_first.bytes[ep] == doctest::Approx(30720.0).epsilon(1e-12));
  CHECK(a2a.decode_first.ep_network_bytes == doctest::Approx(16384.0).epsilon(1e-12));
  CHECK(a2a.decode_first.ep_transfer_seconds == doctest::Approx(3.2768e-7).epsilon(1e-9));
  CHECK(a2a.decode_first.seconds[ep] == doctest::Approx(3.2768e-7 + 9.42e-5).epsilon(1e-9));

  // DeepEP, decode: its low-latency kernels send the same copies, at 0.86 of each link (86 and
  // 43 GB/s), one launch each way: 16,384 B / 43e9 + 2 x 6.6 us.
  LatencyAssumptions deepep = ideal();
  deepep.moe_dispatcher = MoeDispatcher::deepep;
  const LatencyEstimate ll = estimate_latency(s.prepared, s.workload, gpu, {99, 2}, deepep);
  CHECK(ll.decode_first.bytes[ep] == doctest::Approx(30720.0).epsilon(1e-12));
  CHECK(ll.decode_first.seconds[ep] == doctest::Approx(16384.0 / 43e9 + 1.32e-5).epsilon(1e-9));

  // DeepEP, prefill of 1 x 100 tokens: its normal kernels send a token once to each rank holding
  // one of its experts (2 ranks of one expert each) and once to the other node when any expert is
  // there: P(none of 2 among its 8 experts) = (8/16)(7/15) = 7/30, so 2 x (1 - 7/30) = 23/15 nodes,
  // half of them remote: 23/30 NIC copies; NVLink deliveries 2 x 7/8 = 1.75.
  //   NVLink 102,400 x 4 B x 1.75 = 716,800 B; NIC 102,400 x 4 B x 23/30 = 314,026.67 B
  //   transfer 409,600 B x max(1.75 / 86e9, (23/30) / 43e9) = 8.3348837e-6 s (NVLink)
  s.workload.batch_size = 1;
  const LatencyEstimate normal = estimate_latency(s.prepared, s.workload, gpu, {100, 2}, deepep);
  CHECK(normal.prefill.bytes[ep] == doctest::Approx(716800.0 + 409600.0 * 23 / 30).epsilon(1e-12));
  CHECK(normal.prefill.ep_network_bytes == doctest::Approx(409600.0 * 23 / 30).epsilon(1e-12));
  CHECK(normal.prefill.ep_transfer_seconds == doctest::Approx(409600.0 * 1.75 / 86e9).epsilon(1e-9));
  CHECK(normal.prefill.seconds[ep] == doctest::Approx(409600.0 * 1.75 / 86e9 + 1.32e-5).epsilon(1e-9));

  // On a chip with FP8, DeepEP dispatches FP8 with a float32 scale per 128 elements (1.03125 B)
  // and combines in 16 bits: 102,400 x (1.03125 + 2) x (1.75 + 23/30) B.
  Accelerator fp8_gpu = round_gpu();
  fp8_gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp8)] = 200e12;
  const LatencyEstimate fp8 = estimate_latency(s.prepared, s.workload, fp8_gpu, {100, 2}, deepep);
  CHECK(fp8.prefill.bytes[ep] == doctest::Approx(102400.0 * 3.03125 * (1.75 + 23.0 / 30)).epsilon(1e-12));

  // One NVLink fabric across both nodes (GB200 NVL72's kind): every copy goes over NVLink.
  Accelerator fabric = round_gpu();
  fabric.nvlink_domain_gpus = 16;
  s.workload.batch_size = 4;
  const LatencyEstimate one_fabric = estimate_latency(s.prepared, s.workload, fabric, {99, 2}, ideal());
  CHECK(one_fabric.decode_first.ep_network_bytes == 0);
  CHECK(one_fabric.decode_first.bytes[ep] == doctest::Approx(4096.0 * 4 * 2 * 15 / 16).epsilon(1e-12));
  CHECK(one_fabric.decode_first.ep_transfer_seconds == doctest::Approx(4096.0 * 4 * 2 * 15 / 16 / 100e9).epsilon(1e-9));

  // The explain path names both links and the dispatcher.
  const LatencyExplanation x = explain_latency(s.prepared, s.workload, gpu, {99, 2}, deepep);
  bool named = false;
  for (const auto& line : x.lines)
    if (line.op == std::string("ep_all_to_all") && line.phase == std::string("decode_first"))
      named = line.formula.find("through the NIC at 4.3e+10 B/s") != std::string::npos &&
              line.formula.find("(deepep dispatch)") != std::string::npos;
  CHECK(named);
}
