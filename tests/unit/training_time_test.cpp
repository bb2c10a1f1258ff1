// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/training_framework.hpp"
#include "fitcheck/training_request.hpp"
#include "fitcheck/training_time.hpp"
#include "placement/sharding.hpp"
#include "test_support.hpp"
#include "training/training_kernels.hpp"

using namespace fitcheck;

namespace {

// 100 TFLOP/s bf16, 10 TFLOP/s fp32, 1 TB/s, 100 GB/s links, 8 per node, $2 per GPU-hour.
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

// Hidden 1024, 8 heads of 128, ungated MLP of 4096, vocab 1000, untied; `layers` identical layers.
ModelDescription small_model(std::int64_t layers) {
  ModelDescription m;
  m.model_type = "test";
  m.hidden_size = 1024;
  m.vocab_size = 1000;
  m.num_layers = layers;
  LayerShape layer;
  layer.attention.num_heads = 8;
  layer.attention.num_kv_heads = 8;
  layer.attention.head_dim = 128;
  layer.attention.value_head_dim = 128;
  layer.mlp.intermediate_size = 4096;
  layer.layer_count = layers;
  m.layer_kinds.push_back(layer);
  m.layer_kind_of_layer.assign(static_cast<std::size_t>(layers), 0);
  return m;
}

// GPT-3 style, as in Narayanan et al. 2021: learned positions, LayerNorm with bias, biases on
// q/k/v/o and the 4h MLP, tied embeddings, vocabulary 51,200, sequence 2048.
ModelDescription gpt(std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
  ModelDescription m;
  m.model_type = "gpt2";
  m.hidden_size = hidden;
  m.vocab_size = 51200;
  m.num_layers = layers;
  m.max_position_embeddings = 2048;
  m.tie_word_embeddings = true;
  m.position_encoding = PositionEncoding::learned_absolute;
  m.learned_position_count = 2048;
  m.norm = NormKind::layer_norm;
  LayerShape layer;
  layer.attention.num_heads = heads;
  layer.attention.num_kv_heads = heads;
  layer.attention.head_dim = hidden / heads;
  layer.attention.value_head_dim = hidden / heads;
  layer.attention.qkv_bias = true;
  layer.attention.output_bias = true;
  layer.mlp.intermediate_size = 4 * hidden;
  layer.mlp.bias = true;
  layer.layer_count = layers;
  m.layer_kinds.push_back(layer);
  m.layer_kind_of_layer.assign(static_cast<std::size_t>(layers), 0);
  return m;
}

PreparedLatencyModel prepared(const ModelDescription& m) {
  return prepare_latency_model(m, weight_tensors(m), WeightFormat::bf16);
}

}  // namespace

TEST_CASE("golden: one GPU, no communication") {
  // Per sequence of 100 tokens: layer products 2 x 100 x (4 x 1024^2 + 2 x 1024 x 4096) =
  // 2,516,582,400; causal attention 2 x 8 heads x 256 x (100 x 101 / 2) = 20,684,800; lm_head
  // 2 x 100 x 1,024,000 = 204,800,000; forward 2,742,067,200 FLOPs.
  // 10 sequences, one micro-batch: 3 x 10 x 2,742,067,200 = 82,262,016,000 model FLOPs.
  // Time: products and lm_head 3 x 10 x 2,721,382,400 at 100e12 x 0.5 = 1.63282944e-3 s;
  // attention (1 + 2.5) x 10 x 20,684,800 at 100e12 x 0.5 (FlashAttention-2 on a chip without
  // fp8) = 1.447936e-5 s; memory-bound kernels (Megatron's fused kernels, per token of the layer:
  // forward 2 norms x 4 x 1024 + 2 adds x 6 x 1024 + rotary 4 x 2048 + GeLU 4 x 4096 = 45,056 B,
  // backward 2 x 6 x 1024 + 2 x 6 x 1024 + 4 x 2048 + 6 x 4096 = 57,344 B; the fused loss 8 B x
  // vocabulary 1000) over 1000 tokens = 110,400,000 B at 1e12 x 0.92 = 1.2e-4 s.
  const PreparedLatencyModel p = prepared(small_model(1));
  const TrainingFlops f = training_forward_flops_per_sequence(p, 100, true);
  CHECK(f.layer_matmul == 2'516'582'400.0);
  CHECK(f.attention_core == 20'684'800.0);
  CHECK(f.lm_head == 204'800'000.0);
  TrainingWorkload w;
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  w.micro_batch_size = 10;
  w.recompute = Recompute::none;
  w.framework = TrainingFramework::megatron;  // its MFU counts the causal pairs the kernels run
  const TrainingTime t = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(t.micro_batches == 1);
  CHECK(t.sequences_per_step == 10.0);
  CHECK(t.forward_flops_per_sequence.total() == 2'742'067'200.0);
  CHECK(t.model_flops_per_step == 82'262'016'000.0);
  CHECK(t.microbatch_matmul_seconds == doctest::Approx(1.63282944e-3).epsilon(1e-12));
  CHECK(t.microbatch_attention_seconds == doctest::Approx(1.447936e-5).epsilon(1e-12));
  CHECK(t.microbatch_memory_bytes == doctest::Approx(110'400'000.0).epsilon(1e-12));
  CHECK(t.microbatch_memory_seconds == doctest::Approx(1.2e-4).epsilon(1e-12));
  CHECK(t.elementwise_kernels == ElementwiseKernels::fused);
  CHECK(t.step_seconds == doctest::Approx(1.7673088e-3).epsilon(1e-12));
  CHECK(t.mfu == doctest::Approx(82'262'016'000.0 / (1.7673088e-3 * 100e12)));
  CHECK(t.hfu == doctest::Approx(t.mfu));  // no recomputation
  CHECK(t.mfu < 0.5);  // below the products' efficiency: attention and memory-bound kernels take time
  // 1e6 tokens = 1000 steps = 1.7673088 s on one GPU at $2/h.
  CHECK(t.train_seconds == doctest::Approx(1.7673088));
  CHECK(t.train_cost_usd == doctest::Approx(1.7673088 / 3600 * 2));

  SUBCASE("full recomputation adds one forward of the layers") {
    // + 10 x (2,516,582,400 + 20,684,800) = 25,372,672,000 hardware FLOPs: products
    // + 10 x 2,516,582,400 / 50e12 = 5.0331648e-4 s, attention + 10 x 20,684,800 / 50e12 =
    // 4.136960e-6 s, the elementwise forward again + 45,056 B x 1000 tokens / 0.92e12 s.
    w.recompute = Recompute::full;
    const TrainingTime r = estimate_training_time(p, w, round_gpu(), 1e6);
    CHECK(r.hardware_flops_per_step == 107'634'688'000.0);
    CHECK(r.microbatch_matmul_seconds == doctest::Approx(1.63282944e-3 + 5.0331648e-4).epsilon(1e-12));
    CHECK(r.microbatch_attention_seconds == doctest::Approx(1.447936e-5 + 4.13696e-6).epsilon(1e-12));
    CHECK(r.microbatch_memory_bytes == doctest::Approx(110'400'000.0 + 45'056'000.0).epsilon(1e-12));
    CHECK(r.step_seconds == doctest::Approx(2.13614592e-3 + 1.861632e-5 + 155'456'000.0 / 0.92e12).epsilon(1e-12));
    CHECK(r.mfu == doctest::Approx(r.hfu * 82'262'016'000.0 / 107'634'688'000.0));
  }
  SUBCASE("selective recomputation adds the attention core only") {
    w.recompute = Recompute::selective;
    const TrainingTime r = estimate_training_time(p, w, round_gpu(), 1e6);
    CHECK(r.hardware_flops_per_step == 82'262'016'000.0 + 206'848'000.0);
  }
  SUBCASE("Megatron's 'mlp' module recomputes the MLP's products, its fused norm and its GeLU") {
    // + 10 x 2 x 100 x (2 x 1024 x 4096) = 16,777,216,000 FLOPs at 50e12: 3.3554432e-4 s; the fused norm
    // 4 x 1024 and GeLU 4 x 4096 = 20,480 B a token again over 1000 tokens.
    w.recompute = Recompute::selective;
    w.recompute_modules = parse_recompute_modules("mlp");
    const TrainingTime r = estimate_training_time(p, w, round_gpu(), 1e6);
    CHECK(r.hardware_flops_per_step == 82'262'016'000.0 + 16'777'216'000.0);
    CHECK(r.microbatch_matmul_seconds == doctest::Approx(1.63282944e-3 + 3.3554432e-4).epsilon(1e-12));
    CHECK(r.microbatch_attention_seconds == doctest::Approx(1.447936e-5).epsilon(1e-12));
    CHECK(r.microbatch_memory_bytes == doctest::Approx(110'400'000.0 + 20'480'000.0).epsilon(1e-12));
    w.recompute_modules = parse_recompute_modules("core_attn,mlp");
    CHECK(estimate_training_time(p, w, round_gpu(), 1e6).hardware_flops_per_step ==
          82'262'016'000.0 + 16'777'216'000.0 + 206'848'000.0);
  }
}

TEST_CASE("a GPU without the precision's rate: no step time, a note naming option 'precision'") {
  const PreparedLatencyModel p = prepared(small_model(1));
  TrainingWorkload w;  // bf16 by default
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  const Accelerator& t4 = *find_accelerator("t4");  // datasheet: fp32 8.1, fp16 65 TFLOP/s, no bf16
  const std::string note = training_time_missing_rate(t4, ComputeDtype::bf16);
  CHECK(note ==
        "option 'precision': the NVIDIA T4 16GB publishes no bf16 rate, so the step time is not computed (another "
        "dtype's rate would be a different chip's time); its dense rates: fp16 65 TFLOP/s (precision fp16-mixed), "
        "fp32 8.1 TFLOP/s (precision fp32)");
  try {
    (void)estimate_training_time(p, w, t4, 1e6);
    FAIL("a bf16 step on a T4 was timed");
  } catch (const OptionError& error) {
    CHECK(error.option() == "precision");
    CHECK(std::string(error.what()) == note);
  }
  CHECK_THROWS_AS((void)explain_training_time(p, w, *find_accelerator("v100"), 1e6), OptionError);
  CHECK(training_time_missing_rate(*find_accelerator("v100"), ComputeDtype::bf16)
            .find("fp16 125 TFLOP/s (precision fp16-mixed)") != std::string::npos);

  // The rates it does publish time the step at their own peak, never at another's.
  CHECK(training_time_missing_rate(t4, ComputeDtype::fp16).empty());
  w.precision = PrecisionRecipe::fp16_mixed;
  CHECK(estimate_training_time(p, w, t4, 1e6).peak_flops_per_second == 65e12);
  CHECK(training_time_missing_rate(*find_accelerator("h100"), ComputeDtype::bf16).empty());
  CHECK(training_time_missing_rate(t4, ComputeDtype::fp8).find("publishes no fp8 rate") != std::string::npos);

  // fp32 weight products on a chip with no 16-bit rate: the attention core cannot be timed.
  Accelerator fp32_only = round_gpu();
  fp32_only.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::bf16)] = 0;
  CHECK(training_time_missing_rate(fp32_only, ComputeDtype::fp32) ==
        "option 'precision': the round-number test GPU publishes no bf16 or fp16 rate for the attention core, so the "
        "step time is not computed (another dtype's rate would be a different chip's time); its dense rates: fp32 "
        "10 TFLOP/s (precision fp32)");
  Accelerator no_rates = fp32_only;
  no_rates.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp32)] = 0;
  CHECK(training_time_missing_rate(no_rates, ComputeDtype::bf16).ends_with("it publishes no rate fitcheck trains at"));
}

TEST_CASE("golden: pipeline bubble of 1F1B and of the interleaved schedule") {
  // Narayanan et al. 2021 §2.2: bubble / ideal = (p - 1) / m, over v chunks (p - 1) / (v m); as a
  // share of the pipeline time: (p - 1) / (m + p - 1) and (p - 1) / (v m + p - 1).
  const PreparedLatencyModel p = prepared(small_model(8));
  TrainingWorkload w;
  w.sequence_tokens = 100;
  w.global_batch_tokens = 800;  // 8 sequences, micro-batch 1: m = 8
  w.layout.pipeline_parallel = 4;
  const TrainingTime one = estimate_training_time(p, w, round_gpu(), 0);
  CHECK(one.micro_batches == 8);
  CHECK(one.pipeline_bubble_fraction == doctest::Approx(3.0 / 11.0));
  CHECK(one.pipeline_seconds == doctest::Approx(one.microbatch_seconds * 11));
  w.virtual_pipeline_stages = 2;
  CHECK(estimate_training_time(p, w, round_gpu(), 0).pipeline_bubble_fraction == doctest::Approx(3.0 / 19.0));
  // Zero-bubble ZB-H1 (Qi et al. 2024): (p - 1) / 3 = 1 slot: 1 / (8 + 1).
  w.virtual_pipeline_stages = 1;
  w.zero_bubble_schedule = true;
  CHECK(estimate_training_time(p, w, round_gpu(), 0).pipeline_bubble_fraction == doctest::Approx(1.0 / 9.0));
  CHECK(parse_training_options({{"pipeline_schedule", "zero-bubble"}}).workload.zero_bubble_schedule);
  w.virtual_pipeline_stages = 2;
  CHECK_THROWS_AS(estimate_training_time(p, w, round_gpu(), 0), OptionError);
  CHECK_THROWS_AS(parse_training_options({{"pipeline_schedule", "gpipe"}}), OptionError);
}

TEST_CASE("GPT-3 175B: parameters and FLOPs of Narayanan et al. 2021") {
  const ModelDescription m = gpt(96, 12288, 96);
  // Eq. 2: P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)) = 174,615,822,336; the exact inventory
  // adds the final LayerNorm (2 x 12288) that Eq. 2 leaves out.
  CHECK(count_parameters(m).total == 174'615'822'336 + 2 * 12288);
  // Eq. 3 (activation recomputation, full s x s attention): F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)).
  const double B = 1536, s = 2048, l = 96, h = 12288, V = 51200;
  const double eq3 = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
  TrainingWorkload w;
  w.global_batch_tokens = 1536 * 2048;
  w.sequence_tokens = 2048;
  w.layout = {8, 12, 1, 4};
  w.recompute = Recompute::full;
  w.causal_attention_flops = false;
  const TrainingTime t = estimate_training_time(prepared(m), w, *find_accelerator("a100-sxm-80gb"), 300e9);
  CHECK(t.hardware_flops_per_step == doctest::Approx(eq3).epsilon(1e-12));
}

TEST_CASE("published: Megatron-LM GPT-3 175B throughput (Narayanan et al. 2021, Table 2)") {
  // PTD-P rows of Table 2: 174.6B parameters, t = 8, p = 12, batch 1536, micro-batch 1, Selene
  // (A100 80GB, 8 x 200 Gb/s HDR InfiniBand per node = 25 GB/s per GPU), full recomputation.
  // Reported 153 / 149 / 141 TFLOP/s per GPU (Eq. 3 FLOPs) on 384 / 768 / 1536 GPUs, and 84 / 43 / 23
  // days for 300B tokens. fitcheck with its defaults (the A100's 0.62 products share, set from
  // FlashAttention's GPT-3 table below, so these rows are out of sample; 0.7 link) and a 1F1B
  // schedule: 152.4 / 146.9 / 137.1 TFLOP/s (-0.4% / -1.4% / -2.8%) and 85.1 / 44.1 / 23.6 days
  // (+1.3% / +2.6% / +2.8%). Trend reproduced: the bubble grows from 2.8% to 10.3% as dp grows.
  const PreparedLatencyModel p = prepared(gpt(96, 12288, 96));
  TrainingAssumptions a;
  a.communication.inter_node_bytes_per_second_per_gpu = 25e9;
  struct Row {
    std::int64_t dp;
    double tflops, days;
  };
  double previous = 1e300;
  for (const Row row : {Row{4, 153, 84}, Row{8, 149, 43}, Row{16, 141, 23}}) {
    CAPTURE(row.dp);
    TrainingWorkload w;
    w.global_batch_tokens = 1536 * 2048;
    w.sequence_tokens = 2048;
    w.layout = {8, 12, 1, row.dp};
    w.recompute = Recompute::full;
    w.zero_stage = 0;
    w.fp32_gradients = true;  // Megatron-LM reduces bf16 gradients in fp32 (main_grad)
    w.causal_attention_flops = false;
    const TrainingTime t = estimate_training_time(p, w, *find_accelerator("a100-sxm-80gb"), 300e9, a);
    CHECK(t.gpus == 96 * row.dp);
    CHECK(t.achieved_flops_per_second_per_gpu / 1e12 == doctest::Approx(row.tflops).epsilon(0.05));
    CHECK(t.train_seconds / 86400 == doctest::Approx(row.days).epsilon(0.05));
    CHECK(t.achieved_flops_per_second_per_gpu < previous);
    previous = t.achieved_flops_per_second_per_gpu;
  }
}

TEST_CASE("published: Megatron-LM 76.1B on 1024 A100s (Narayanan et al. 2021, Table 1)") {
  // Table 1: 80 heads, h = 10240, 60 layers, t = 8, p = 4, 1024 GPUs, batch 1792: 140 TFLOP/s per
  // GPU, 45% of the 312 TFLOP/s peak. The table gives neither micro-batch nor schedule; with b = 1
  // and 1F1B (m = 56, bubble 5.1%) fitcheck gives 139.2 TFLOP/s and 44.6% of peak: -0.6%.
  const PreparedLatencyModel p = prepared(gpt(60, 10240, 80));
  TrainingAssumptions a;
  a.communication.inter_node_bytes_per_second_per_gpu = 25e9;
  TrainingWorkload w;
  w.global_batch_tokens = 1792 * 2048;
  w.sequence_tokens = 2048;
  w.layout = {8, 4, 1, 32};
  w.recompute = Recompute::full;
  w.zero_stage = 0;
  w.fp32_gradients = true;  // Megatron-LM reduces bf16 gradients in fp32 (main_grad)
  w.causal_attention_flops = false;
  const TrainingTime t = estimate_training_time(p, w, *find_accelerator("a100-sxm-80gb"), 300e9, a);
  CHECK(t.gpus == 1024);
  CHECK(t.achieved_flops_per_second_per_gpu / 1e12 == doctest::Approx(140).epsilon(0.05));
  CHECK(t.hfu == doctest::Approx(0.45).epsilon(0.05));
}

TEST_CASE("published: FlashAttention's GPT-3 training throughput on 8 A100 80GB, the A100's products share") {
  // Dao-AILab/flash-attention training/README.md ("Training speed", 88173a1a), 8 x A100 80GB SXM4
  // 400 W, sequence 2048, 1M-token batches: GPT3-1.3B 169k tokens/s, GPT3-2.7B 85k. The runs
  // (training/configs/experiment/pile/gpt3xl-flash.yaml, gpt3-2.7B-flash-hdim128.yaml): GPT-2
  // blocks of 2048 x 24 layers x 16 heads and 2560 x 32 x 20 (head dim 128), vocabulary padded to
  // 50264, micro-batch 8 and 4 on 80 GB, DDP with a ZeRO-1 optimizer, fused dense, MLP,
  // dropout-add-LayerNorm and cross-entropy kernels (the fused kernels of the megatron profile).
  // The A100's training_matmul_share, 0.62, is the share that reproduces both.
  const Accelerator* a100 = find_accelerator("a100-sxm-80gb");
  REQUIRE(a100 != nullptr);
  CHECK(a100->training_matmul_share == 0.62);
  struct Row {
    std::int64_t layers, hidden, heads, micro_batch;
    double tokens_per_second;
  };
  for (const Row row : {Row{24, 2048, 16, 8, 169e3}, Row{32, 2560, 20, 4, 85e3}}) {
    ModelDescription m = gpt(row.layers, row.hidden, row.heads);
    m.vocab_size = 50264;
    TrainingWorkload w;
    w.framework = TrainingFramework::megatron;
    w.layout.data_parallel = 8;
    w.zero_stage = 1;
    w.micro_batch_size = row.micro_batch;
    w.sequence_tokens = 2048;
    w.global_batch_tokens = 512 * 2048;
    const TrainingTime t = estimate_training_time(prepared(m), w, *a100, 1e9);
    CHECK(t.flops_efficiency == 0.62);
    CHECK(t.tokens_per_second == doctest::Approx(row.tokens_per_second).epsilon(0.02));
  }
}

TEST_CASE("collectives across nodes: a ring uses the group's NICs of a node, a send its own") {
  // One small layer; its gradients all-reduced by plain data parallelism (ZeRO-0, hf profile:
  // bf16 gradients). Parameters on the one stage: layer 4 x 1024^2 + 2 x 1024 x 4096 = 12,582,912,
  // norms 2 x 1024, embedding and lm_head 2 x 1000 x 1024: 14,632,960; gradients 29,265,920 B.
  const PreparedLatencyModel p = prepared(small_model(1));
  Accelerator gpu = round_gpu();
  gpu.interconnect_bytes_per_second_per_direction = 450e9;  // NVLink 4
  TrainingWorkload w;
  w.sequence_tokens = 100;
  w.micro_batch_size = 1;
  w.overlap_data_parallel = false;
  const double grads = 29'265'920.0, efficiency = 0.7, hop = 2.7e-6, base = 6.6e-6;
  SUBCASE("dp 16 over two nodes: eight NICs of 50 GB/s, below NVLink's 450") {
    w.layout.data_parallel = 16;
    w.global_batch_tokens = 1600;
    const TrainingTime t = estimate_training_time(p, w, gpu, 1e6);
    CHECK(t.data_parallel_seconds ==
          doctest::Approx(2.0 * 15 / 16 * grads / (8 * 50e9 * efficiency) + 2 * 15 * hop + base).epsilon(1e-9));
  }
  SUBCASE("dp 2 under tp 8: one GPU of each group per node, one NIC") {
    w.layout.tensor_parallel = 8;
    w.layout.data_parallel = 2;
    w.global_batch_tokens = 200;
    const TrainingTime t = estimate_training_time(p, w, gpu, 1e6);
    CHECK(t.data_parallel_seconds ==
          doctest::Approx(2.0 * 1 / 2 * grads / 8 / (50e9 * efficiency) + 2 * hop + base).epsilon(1e-9));
  }
  SUBCASE("a GB200 NVL72 fabric keeps 64 ranks on NVLink") {
    Accelerator gb = gpu;
    gb.gpus_per_node = 4;
    gb.nvlink_domain_gpus = 72;
    w.layout.data_parallel = 64;
    w.global_batch_tokens = 6400;
    const TrainingTime t = estimate_training_time(p, w, gb, 1e6);
    CHECK(t.data_parallel_seconds ==
          doctest::Approx(2.0 * 63 / 64 * grads / (450e9 * efficiency) + 2 * 63 * 0.6e-6 + base).epsilon(1e-9));
  }
}

TEST_CASE("expert all-to-alls: the copies for the node's ranks over NVLink, the rest through the NIC") {
  // One MoE layer, 8 experts of width 1024, top-2; micro-batch of 1 x 1000 tokens; ep 16 on two
  // nodes of 8 (tp 1): of the 2 x 1000 token copies of 1024 x 2 B a rank sends, 7/16 go to the
  // other ranks of its node at 100 GB/s x 0.7 and 8/16 leave through its NIC at 50 GB/s x 0.7.
  ModelDescription m = small_model(1);
  m.layer_kinds[0].moe.num_experts = 8;
  m.layer_kinds[0].moe.experts_per_token = 2;
  m.layer_kinds[0].moe.expert_intermediate_size = 1024;
  m.layer_kinds[0].mlp.intermediate_size = 0;
  const PreparedLatencyModel p = prepared(m);
  TrainingWorkload w;
  w.framework = TrainingFramework::megatron;
  w.sequence_tokens = 1000;
  w.micro_batch_size = 1;
  w.layout.data_parallel = 16;
  w.layout.expert_parallel = 16;
  w.global_batch_tokens = 16000;
  const TrainingTime t = estimate_training_time(p, w, round_gpu(), 1e6);
  const double copies = 1000.0 * 2 * 1024 * 2;
  const double seconds = std::max(copies * 7 / 16 / 70e9, copies * 8 / 16 / 35e9);
  // Dispatch and combine, forward and backward.
  CHECK(t.expert_parallel_seconds == doctest::Approx(4 * (seconds + 15 * 2.7e-6 + 6.6e-6)).epsilon(1e-9));
  CHECK(t.microbatch_expert_parallel_seconds == t.expert_parallel_seconds);
  // Megatron's 'moe' module checkpoints the layer with its dispatch and combine: a third forward's worth.
  w.recompute = Recompute::selective;
  w.recompute_modules = parse_recompute_modules("moe");
  CHECK(estimate_training_time(p, w, round_gpu(), 1e6).expert_parallel_seconds ==
        doctest::Approx(6 * (seconds + 15 * 2.7e-6 + 6.6e-6)).epsilon(1e-9));
  w.recompute = Recompute::none;
  w.recompute_modules = RecomputeModules{};
  w.ep_comm_overlap = true;  // Megatron's overlap_moe_expert_parallel_comm
  const TrainingTime hidden = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(hidden.microbatch_expert_parallel_seconds ==
        std::max(0.0, hidden.expert_parallel_seconds - hidden.microbatch_compute_seconds));
  w.layout.expert_parallel = 1;
  CHECK_THROWS_AS(estimate_training_time(p, w, round_gpu(), 1e6), OptionError);
  SUBCASE("DeepEP: one copy per destination rank, one RDMA copy per destination node") {
    // 16 experts, top-2, one per rank: a token reaches 2 distinct ranks (NVLink: 2 x 7/8 copies);
    // the other node's 8 experts are all missed with chance C(8, 2) / C(16, 2) = 7/30 (RDMA: 23/30).
    w.ep_comm_overlap = false;
    w.layout.expert_parallel = 16;
    m.layer_kinds[0].moe.num_experts = 16;
    const PreparedLatencyModel p16 = prepared(m);
    w.moe_dispatcher = MoeDispatcher::deepep;
    const TrainingTime d = estimate_training_time(p16, w, round_gpu(), 1e6);
    const double token = 1000.0 * 1024 * 2;
    const double node_miss = (8.0 * 7) / (16.0 * 15);  // C(8, 2) / C(16, 2): none of the 8 on the node
    const double deepep = std::max(token * 2 * 7 / 8 / 70e9, token * (1 - node_miss) * 1 / 2 * 2 / 35e9);
    CHECK(d.expert_parallel_seconds == doctest::Approx(4 * (deepep + 15 * 2.7e-6 + 6.6e-6)).epsilon(1e-9));
  }
}

TEST_CASE("context parallelism: PyTorch's ring adds its merges and copies to torchtitan's memory-bound bytes") {
  // Two layers of 8 heads of 128 (queries, keys, values and output 1024 wide per token), 2048
  // tokens at cp 2: each rank holds 1024. torchtitan runs PyTorch's context_parallel; Megatron's
  // Transformer Engine ring is not counted this way.
  const PreparedLatencyModel p = prepared(small_model(2));
  TrainingWorkload w;
  w.framework = TrainingFramework::torchtitan;
  w.sequence_tokens = 2048;
  w.micro_batch_size = 1;
  w.layout.data_parallel = 1;
  w.global_batch_tokens = 2048;
  const TrainingTime one = estimate_training_time(p, w, round_gpu(), 1e6);
  w.context_parallel = 2;
  const TrainingTime two = estimate_training_time(p, w, round_gpu(), 1e6);
  const detail::RingAttentionTraffic r = detail::torch_ring_attention_traffic(2, 1024, 1024, 1024, 1024);
  CHECK(two.microbatch_memory_bytes - one.microbatch_memory_bytes / 2 ==
        doctest::Approx(2 * 1024 * (r.forward + r.backward)).epsilon(1e-9));
  w.framework = TrainingFramework::megatron;
  w.context_parallel = 1;
  const TrainingTime megatron_one = estimate_training_time(p, w, round_gpu(), 1e6);
  w.context_parallel = 2;
  const TrainingTime megatron_two = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(megatron_two.microbatch_memory_bytes == doctest::Approx(megatron_one.microbatch_memory_bytes / 2));
}

TEST_CASE("NeMo AutoModel's profile: uneven interleaved stages, PyTorch's ring, bf16 adapters") {
  const TrainingFrameworkProfile& automodel = training_framework_profile(TrainingFramework::automodel);
  CHECK(std::string(automodel.id) == "automodel");
  CHECK(find_training_framework("nemo-automodel") == TrainingFramework::automodel);
  CHECK(find_training_framework("AutoModel") == TrainingFramework::automodel);
  CHECK(automodel.loss_bytes_per_logit == 14);  // bf16 logits kept + torchtitan's 12 B
  CHECK(automodel.adapter_bytes == 2);          // adapters in the base linear's dtype
  CHECK_FALSE(automodel.mfu_attention_full_square);
  CHECK(automodel.fsdp_unsharded_under_pipeline);
  CHECK(automodel.torch_ring_attention);
  CHECK(automodel.elementwise_kernels == ElementwiseKernels::fused);  // Liger / Transformer Engine kernels
  CHECK(automodel.eager_loss);                                        // MaskedCrossEntropy stays eager
  // DeepSeek-V3's 61 layers over pp 4 x 7 virtual stages (layers_per_stage 2, rounded down to a
  // multiple of pp): AutoModel splits them unevenly, Hugging Face's profile has no such pipeline.
  const PreparedLatencyModel p = prepared(small_model(61));
  TrainingWorkload w;
  w.framework = TrainingFramework::automodel;
  w.sequence_tokens = 128;
  w.micro_batch_size = 1;
  w.layout.pipeline_parallel = 4;
  w.layout.data_parallel = 1;
  w.virtual_pipeline_stages = 7;
  w.global_batch_tokens = 8 * 128;
  const TrainingTime t = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(t.pipeline_bubble_fraction == doctest::Approx((3.0 / 7) / (8 + 3.0 / 7)));
  w.framework = TrainingFramework::hf;
  CHECK_THROWS_AS(estimate_training_time(p, w, round_gpu(), 1e6), OptionError);
}

TEST_CASE("expert dispatch copies per token: all-to-all, DeepEP, random and round-robin routing") {
  // Megatron's alltoall dispatcher: k copies, (g - 1)/ep of them on the node, (ep - g)/ep off it.
  const ExpertCopies a2a = expert_dispatch_copies(128, 8, 16, 8, MoeDispatcher::all_to_all, MoeRouting::round_robin);
  CHECK(a2a.nvlink == doctest::Approx(8.0 * 7 / 16));
  CHECK(a2a.network == doctest::Approx(8.0 * 8 / 16));
  // NeMo AutoModel's fake balanced gate, Qwen3-30B-A3B (128 experts, top-8) at ep 8: the 8
  // consecutive experts sit on one rank of 16, so one NVLink copy 7/8 of the time.
  const ExpertCopies q30 = expert_dispatch_copies(128, 8, 8, 8, MoeDispatcher::deepep, MoeRouting::round_robin);
  CHECK(q30.nvlink == doctest::Approx(7.0 / 8));
  CHECK(q30.network == 0);
  // DeepSeek-V3 (256 experts, top-8) at ep 64 on 8 nodes: 2 ranks of 4 experts, 1 node of 32.
  const ExpertCopies v3 = expert_dispatch_copies(256, 8, 64, 8, MoeDispatcher::deepep, MoeRouting::round_robin);
  CHECK(v3.nvlink == doctest::Approx(2.0 * 7 / 8));
  CHECK(v3.network == doctest::Approx(7.0 / 8));
  // Unaligned round robin: 8 experts, top-3, 4 per rank: the starts 0, 3, 6, 1, 4, 7, 2, 5 touch
  // 1, 2, 2, 1, 1, 2, 2, 1 ranks.
  const ExpertCopies odd = expert_dispatch_copies(8, 3, 2, 2, MoeDispatcher::deepep, MoeRouting::round_robin);
  CHECK(odd.nvlink == doctest::Approx(1.5 / 2));
  // Random routing, 8 experts top-2 on 4 ranks of one node: a rank is missed with chance
  // C(6, 2) / C(8, 2) = 15/28.
  const ExpertCopies r = expert_dispatch_copies(8, 2, 4, 4, MoeDispatcher::deepep, MoeRouting::random);
  CHECK(r.nvlink == doctest::Approx(4 * (1 - 15.0 / 28) * 3 / 4));
  CHECK(r.network == 0);
  // No expert parallelism, nothing sent.
  const ExpertCopies none = expert_dispatch_copies(8, 2, 1, 8, MoeDispatcher::deepep, MoeRouting::random);
  CHECK(none.nvlink == 0);
  CHECK(none.network == 0);
}

TEST_CASE("HYBRID_SHARD gathers within its shard group and all-reduces the shard across replicas") {
  // dp 16 on two nodes, shard group 8: per micro-batch two all-gathers of the bf16 weights and one
  // reduce-scatter of the gradients over NVLink, then an all-reduce of 1/8 of the gradients over
  // the 2 replicas, one GPU (one NIC) per node each. 14,632,960 parameters: 29,265,920 B.
  const PreparedLatencyModel p = prepared(small_model(1));
  Accelerator gpu = round_gpu();
  gpu.interconnect_bytes_per_second_per_direction = 450e9;
  TrainingWorkload w;
  w.sequence_tokens = 100;
  w.micro_batch_size = 1;
  w.layout.data_parallel = 16;
  w.global_batch_tokens = 1600;
  w.fsdp = FsdpMode::hybrid_shard;
  w.fsdp_shard_group = 8;
  const TrainingTime t = estimate_training_time(p, w, gpu, 1e6);
  const double bytes = 29'265'920.0, nvlink = 450e9 * 0.7, nic = 50e9 * 0.7;
  const double gather = 7.0 / 8 * bytes / nvlink + 7 * 0.6e-6 + 6.6e-6;
  const double replicas = 2.0 * 1 / 2 * bytes / 8 / nic + 2 * 2.7e-6 + 6.6e-6;
  CHECK(t.data_parallel_seconds == doctest::Approx(gather + replicas + 2 * gather).epsilon(1e-9));
}

TEST_CASE("partitioned checkpoints: each recomputed layer all-gathers its input over tp in backward") {
  // Two layers, 1000 tokens, tp 4 on one node: full recompute adds, per layer, an all-gather of the
  // 1000 x 1024 x 2 B input (ring: 3/4 of it over 100 GB/s x 0.7, 3 NVLink hops of 0.6 us and the
  // 6.6 us base: the default latencies) to the collectives.
  const PreparedLatencyModel p = prepared(small_model(2));
  TrainingWorkload w;
  w.framework = TrainingFramework::deepspeed;
  w.sequence_tokens = 1000;
  w.micro_batch_size = 1;
  w.global_batch_tokens = 1000;
  w.layout.tensor_parallel = 4;
  w.recompute = Recompute::full;
  const TrainingTime whole = estimate_training_time(p, w, round_gpu(), 1e6);
  w.partition_checkpoints = true;
  const TrainingTime split = estimate_training_time(p, w, round_gpu(), 1e6);
  const double gather = 3.0 / 4 * 1000 * 1024 * 2 / (100e9 * 0.7) + 3 * 0.6e-6 + 6.6e-6;
  CHECK(split.tensor_parallel_seconds - whole.tensor_parallel_seconds == doctest::Approx(2 * gather).epsilon(1e-9));
}

TEST_CASE("tensor-parallel overlap (Megatron tp_comm_overlap) and interleaved sends (overlap_p2p_comm)") {
  const PreparedLatencyModel p = prepared(small_model(8));
  TrainingWorkload w;
  w.framework = TrainingFramework::megatron;
  w.sequence_tokens = 1000;
  w.micro_batch_size = 4;
  w.layout.tensor_parallel = 2;
  w.sequence_parallel = true;
  w.global_batch_tokens = 4000;
  const TrainingTime exposed = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(exposed.microbatch_tensor_parallel_seconds == exposed.tensor_parallel_seconds);
  w.tp_comm_overlap = true;
  const TrainingTime hidden = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(hidden.tensor_parallel_seconds == exposed.tensor_parallel_seconds);
  CHECK(hidden.microbatch_tensor_parallel_seconds ==
        std::max(0.0, hidden.tensor_parallel_seconds - hidden.microbatch_matmul_seconds));
  CHECK(hidden.step_seconds < exposed.step_seconds);
  w.sequence_parallel = false;
  CHECK_THROWS_AS(estimate_training_time(p, w, round_gpu(), 1e6), OptionError);  // Megatron asserts it

  // pp 2 with 2 chunks per GPU: Megatron posts the sends while the next chunk computes; torchtitan's
  // schedule is timed with them exposed.
  TrainingWorkload pipe;
  pipe.framework = TrainingFramework::megatron;
  pipe.sequence_tokens = 1000;
  pipe.micro_batch_size = 4;
  pipe.layout.pipeline_parallel = 2;
  pipe.virtual_pipeline_stages = 2;
  pipe.global_batch_tokens = 16000;
  CHECK(estimate_training_time(p, pipe, round_gpu(), 1e6).microbatch_pipeline_send_seconds == 0);
  pipe.framework = TrainingFramework::torchtitan;
  CHECK(estimate_training_time(p, pipe, round_gpu(), 1e6).microbatch_pipeline_send_seconds > 0);
}

TEST_CASE("training invariants") {
  const PreparedLatencyModel p = prepared(gpt(24, 2048, 16));
  const Accelerator gpu = *find_accelerator("h100");
  TrainingWorkload w;
  w.global_batch_tokens = 512 * 2048;
  w.sequence_tokens = 2048;
  w.layout = {2, 2, 1, 16};
  w.recompute = Recompute::selective;
  w.zero_stage = 1;
  w.fp32_gradients = true;
  const TrainingTime base = estimate_training_time(p, w, gpu, 1e9);

  SUBCASE("a higher flops efficiency is never slower") {
    TrainingAssumptions faster;
    faster.flops_efficiency = 0.6;
    CHECK(estimate_training_time(p, w, gpu, 1e9, faster).step_seconds < base.step_seconds);
  }
  SUBCASE("overlapping data-parallel collectives never hurts") {
    TrainingWorkload exposed = w;
    exposed.overlap_data_parallel = false;
    CHECK(base.step_seconds <= estimate_training_time(p, exposed, gpu, 1e9).step_seconds);
  }
  SUBCASE("selective recomputation is cheaper than full") {
    TrainingWorkload full = w;
    full.recompute = Recompute::full;
    const TrainingTime f = estimate_training_time(p, full, gpu, 1e9);
    CHECK(base.step_seconds < f.step_seconds);
    CHECK(f.model_flops_per_step == base.model_flops_per_step);  // MFU ignores recomputation
  }
  SUBCASE("ZeRO-3 moves more data than ZeRO-1") {
    TrainingWorkload z3 = w;
    z3.zero_stage = 3;
    CHECK(estimate_training_time(p, z3, gpu, 1e9).data_parallel_seconds > base.data_parallel_seconds);
  }
  SUBCASE("cost is GPU-hours times the price, and scales with tokens") {
    CHECK(base.price_per_gpu_hour_usd == gpu.price_per_hour_usd);  // the catalog's, without an override
    CHECK(base.train_cost_usd == doctest::Approx(base.train_gpu_hours * gpu.price_per_hour_usd));
    TrainingAssumptions priced;
    priced.communication.price_per_gpu_hour_usd = 3.5;
    const TrainingTime at_price = estimate_training_time(p, w, gpu, 1e9, priced);
    CHECK(at_price.price_per_gpu_hour_usd == 3.5);
    CHECK(at_price.train_cost_usd == doctest::Approx(at_price.train_gpu_hours * 3.5));
    CHECK(estimate_training_time(p, w, gpu, 2e9).train_seconds == doctest::Approx(2 * base.train_seconds));
  }
  SUBCASE("context parallelism splits the sequence") {
    TrainingWorkload cp = w;
    cp.context_parallel = 2;
    cp.layout.data_parallel = 8;
    const TrainingTime t = estimate_training_time(p, cp, gpu, 1e9);
    CHECK(t.gpus == base.gpus);
    CHECK(t.model_flops_per_step == doctest::Approx(base.model_flops_per_step));
  }
  SUBCASE("explain lines carry the formulas") {
    const TrainingExplanation x = explain_training_time(p, w, gpu, 1e9);
    CHECK(x.lines.size() >= 8);
    CHECK(x.time.step_seconds == base.step_seconds);
  }
  SUBCASE("bad sizes are refused naming the training option") {
    // The step time's own rules start with the option, as the option parser's do; the rules it
    // shares with the memory keep the memory's wording (check_training_workload).
    auto refusal = [&](const TrainingWorkload& bad) {
      try {
        (void)estimate_training_time(p, bad, gpu, 1e9);
      } catch (const OptionError& error) {
        return error.option() +
               (std::string(error.what()).starts_with("option '" + error.option() + "': ") ? " (prefixed)" : "");
      }
      return std::string("(no refusal)");
    };
    TrainingWorkload bad = w;
    bad.global_batch_tokens = 2048;  // one sequence for 16 data-parallel ranks
    CHECK(refusal(bad) == "global_batch_tokens (prefixed)");
    bad.global_batch_tokens = -1;
    CHECK(refusal(bad) == "global_batch_tokens (prefixed)");
    bad = w;
    bad.zero_stage = 4;
    CHECK(refusal(bad) == "zero");
    bad = w;
    bad.context_parallel = 3;  // 3 does not divide the sequence length (a power of two)
    CHECK(refusal(bad) == "cp (prefixed)");
    bad = w;
    bad.virtual_pipeline_stages = 1 << 20;  // pp x v does not divide the 24 layers
    CHECK(refusal(bad) == "virtual_stages");
    bad = w;
    bad.layout.pipeline_parallel = 32;  // more stages than the 24 layers
    CHECK(refusal(bad) == "pp (prefixed)");
    bad = w;
    bad.fsdp = FsdpMode::full_shard;  // with ZeRO-1: the memory's rule, refused by the clock too
    CHECK(refusal(bad) == "fsdp");
    bad = w;
    bad.micro_batch_size = 0;
    CHECK(refusal(bad) == "micro_batch");
  }
}

TEST_CASE("attention core: the kernels' published rates by GPU generation and kernel") {
  // 0.5 on A100 (Dao 2023: FlashAttention-2 at 50-73%). On H100, forward and backward weighted
  // 1 : 2.5: the flash-attn package's FlashAttention-2 at 370 and 322 TFLOP/s (Shah et al. 2024,
  // Figures 5-6, head dim 128, 16k) gives 3.5 / (1/370 + 2.5/322) = 334 TFLOP/s, 0.34 of 989;
  // PyTorch SDPA's flash forward at 304 (pytorch/benchmark d5f0a12b) with the same backward ratio
  // gives 275 TFLOP/s, 0.28; cuDNN fused attention (Transformer Engine), FlashAttention-3-class: 0.55.
  CHECK(3.5 / (1 / 370.0 + 2.5 / 322.0) / 989.4 == doctest::Approx(0.34).epsilon(0.01));
  CHECK(3.5 / (1 / 304.2 + 2.5 / (304.2 * 322 / 370)) / 989.4 == doctest::Approx(0.28).epsilon(0.01));
  const Accelerator* h100 = find_accelerator("h100-sxm-80gb");
  const Accelerator* a100 = find_accelerator("a100-sxm-80gb");
  const Accelerator* b200 = find_accelerator("b200");
  REQUIRE(h100 != nullptr);
  REQUIRE(a100 != nullptr);
  REQUIRE(b200 != nullptr);
  TrainingWorkload w;
  w.framework = TrainingFramework::hf;  // SDPA
  CHECK(attention_efficiency_default(*h100, w).share == 0.28);
  CHECK(attention_efficiency_default(*a100, w).share == 0.5);
  w.attention_kernel = AttentionKernel::flash_attn;
  CHECK(attention_efficiency_default(*h100, w).share == 0.34);
  w.attention_kernel.reset();
  w.framework = TrainingFramework::megatron;  // Transformer Engine's cuDNN attention
  CHECK(attention_efficiency_default(*h100, w).share == 0.55);
  CHECK(attention_efficiency_default(*a100, w).share == 0.5);
  CHECK(attention_efficiency_default(*b200, w).share == 0.34);  // FlashAttention-3 is Hopper's

  // The attention core's time alone: with the products' rate fixed, halving the attention
  // efficiency adds exactly the attention's seconds once more.
  const PreparedLatencyModel p = prepared(small_model(1));
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  w.micro_batch_size = 10;
  TrainingAssumptions assume;
  assume.attention_efficiency = 0.5;
  const TrainingTime at_half = estimate_training_time(p, w, round_gpu(), 1e6, assume);
  assume.attention_efficiency = 0.25;
  const TrainingTime at_quarter = estimate_training_time(p, w, round_gpu(), 1e6, assume);
  // (1 + 2.5) x 10 sequences x 20,684,800 attention FLOPs at 100e12 x 0.5 = 14.48 microseconds:
  // FlashAttention's backward is 2.5 forwards of FLOPs (benchmark_flash_attention.py flops()).
  CHECK(at_quarter.microbatch_compute_seconds - at_half.microbatch_compute_seconds ==
        doctest::Approx(3.5 * 10 * 20'684'800.0 / (100e12 * 0.5)).epsilon(1e-9));
  CHECK(at_quarter.attention_efficiency == 0.25);
}

TEST_CASE("LoRA: the frozen base computes input gradients only (4N per token instead of 6N)") {
  // Per sequence: products 2,516,582,400 and lm_head 204,800,000 run forward + input gradient
  // (2 x), attention 3 x: full 3 x 2,742,067,200 vs LoRA 2 x 2,721,382,400 + 3 x 20,684,800.
  const PreparedLatencyModel p = prepared(small_model(1));
  TrainingWorkload w;
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  w.micro_batch_size = 10;
  w.framework = TrainingFramework::megatron;  // causal attention in the model FLOPs, as timed
  const TrainingTime full = estimate_training_time(p, w, round_gpu(), 1e6);
  w.lora.rank = 8;
  const TrainingTime lora = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(full.model_flops_per_step == doctest::Approx(10 * 3 * 2'742'067'200.0));
  CHECK(lora.model_flops_per_step == doctest::Approx(10 * (2 * 2'721'382'400.0 + 3 * 20'684'800.0)));
  CHECK(lora.step_seconds < full.step_seconds);
}

TEST_CASE("MFU counts attention as the framework does: full s x s (torchtitan, PaLM) or causal (Megatron)") {
  // Attention per sequence of 100 tokens: full 2 x 8 heads x 256 x 100 x 100 = 40,960,000 FLOPs,
  // causal 20,684,800; 10 sequences x 3 passes x the difference = 608,256,000 FLOPs.
  const PreparedLatencyModel p = prepared(small_model(1));
  TrainingWorkload w;
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  w.micro_batch_size = 10;
  w.framework = TrainingFramework::megatron;
  const TrainingTime megatron = estimate_training_time(p, w, round_gpu(), 1e6);
  w.framework = TrainingFramework::torchtitan;
  const TrainingTime titan = estimate_training_time(p, w, round_gpu(), 1e6);
  CHECK(megatron.model_flops_per_step == doctest::Approx(10 * 3 * 2'742'067'200.0));
  CHECK(titan.model_flops_per_step - megatron.model_flops_per_step == doctest::Approx(608'256'000.0));
  // The kernels run the causal pairs either way (the two differ in their elementwise kernels only).
  CHECK(titan.microbatch_attention_seconds == megatron.microbatch_attention_seconds);
  CHECK(titan.microbatch_matmul_seconds == megatron.microbatch_matmul_seconds);
  CHECK(titan.mfu_attention_full_square);
  CHECK_FALSE(megatron.mfu_attention_full_square);
}

TEST_CASE("FP8: the blocks' products run at the fp8 rate, the output layer at the 16-bit rate") {
  // 10 sequences of 100 tokens at efficiency 0.5: products 25,165,824,000 FLOPs at 200e12 x 0.5,
  // lm_head 2,048,000,000 at 100e12 x 0.5, three passes each: 8.7785472e-4 s; attention
  // 206,848,000 at 100e12 x 0.5, 3.5 passes: 1.447936e-5 s. The test chip publishes no MAMF, so
  // the FP8 products keep the default efficiency.
  Accelerator gpu = round_gpu();
  gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp8)] = 200e12;
  const PreparedLatencyModel p = prepared(small_model(1));
  TrainingWorkload w;
  w.global_batch_tokens = 1000;
  w.sequence_tokens = 100;
  w.micro_batch_size = 10;
  w.precision = PrecisionRecipe::fp8;
  TrainingAssumptions assume;
  assume.attention_efficiency = 0.5;
  const TrainingTime t = estimate_training_time(p, w, gpu, 1e6, assume);
  CHECK(t.microbatch_matmul_seconds == doctest::Approx(8.7785472e-4).epsilon(1e-9));
  CHECK(t.microbatch_attention_seconds == doctest::Approx(1.447936e-5).epsilon(1e-9));
  CHECK(t.flops_efficiency == 0.5);

  SUBCASE("a chip with MAMF shares scales the FP8 products by fp8 / bf16") {
    // An H100 SXM's MAMF shares (ml-engineering): fp8 70.9% of its peak, bf16 80.3%: the FP8
    // products reach 0.5 x 0.709 / 0.803 of the fp8 peak.
    gpu.mamf_share_bf16 = 0.803;
    gpu.mamf_share_fp8 = 0.709;
    const TrainingTime scaled = estimate_training_time(p, w, gpu, 1e6, assume);
    CHECK(scaled.flops_efficiency == doctest::Approx(0.5 * 0.709 / 0.803));
    CHECK(scaled.microbatch_matmul_seconds ==
          doctest::Approx(3 * 25'165'824'000.0 / (200e12 * 0.5 * 0.709 / 0.803) + 3 * 2'048'000'000.0 / 50e12)
              .epsilon(1e-9));
    assume.flops_efficiency_given = true;  // a given efficiency is applied as given
    CHECK(estimate_training_time(p, w, gpu, 1e6, assume).flops_efficiency == 0.5);
  }
}

TEST_CASE("MoE routed tokens: their bytes join the memory-bound kernels, run again where the forward is") {
  // One MoE layer, hidden 1024, 8 experts of width 1024, top-2; 1 x 1000 tokens on one GPU, Megatron.
  ModelDescription m = small_model(1);
  m.layer_kinds[0].moe.num_experts = 8;
  m.layer_kinds[0].moe.experts_per_token = 2;
  m.layer_kinds[0].moe.expert_intermediate_size = 1024;
  m.layer_kinds[0].mlp.intermediate_size = 0;
  TrainingWorkload w;
  w.framework = TrainingFramework::megatron;
  w.sequence_tokens = 1000;
  w.micro_batch_size = 1;
  w.global_batch_tokens = 1000;
  // All-to-all dispatcher, all 8 experts on the rank: per token and pass, the router 9 x 8 B
  // forward and 12 x 8 B backward; permute 2 x 4 B, unpermute 2 x 2 B + 2 B, sort and unsort
  // 2 x 4 B each, per element of the hidden width.
  const double per_pass = (2 * 4 + 2 * 2 + 2 + 2 * 4 + 2 * 4) * 1024.0;
  const double expected = 1000 * (9 * 8 + per_pass + 12 * 8 + per_pass);
  const TrainingTime t = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
  CHECK(t.microbatch_moe_token_bytes == doctest::Approx(expected).epsilon(1e-12));
  CHECK(t.microbatch_memory_bytes > t.microbatch_moe_token_bytes);
  SUBCASE("full recompute runs the forward's share again") {
    w.recompute = Recompute::full;
    const TrainingTime r = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
    CHECK(r.microbatch_moe_token_bytes == doctest::Approx(expected + 1000 * (9 * 8 + per_pass)).epsilon(1e-12));
  }
  SUBCASE("biased experts (gpt-oss) under Megatron add the eager fp32 bias path; Hugging Face does not") {
    m.layer_kinds[0].moe.expert_bias = true;
    const TrainingTime b = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
    CHECK(b.microbatch_moe_token_bytes == doctest::Approx(expected + 1000 * (36 + 40) * 2 * 1024.0).epsilon(1e-12));
    w.framework = TrainingFramework::hf;
    const TrainingTime hf = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
    CHECK(hf.microbatch_moe_token_bytes == doctest::Approx(expected).epsilon(1e-12));
  }
  SUBCASE("the experts' grouped GEMMs: 250 tokens per expert blend their bytes with their FLOPs") {
    // 1000 tokens x top-2 / 8 experts = 250 per expert; gated experts (the MoE default), 0.5 x
    // 100 TFLOP/s, 1 TB/s. GEMM 1 (N 2048, K 1024): 2 x 250 x 2048 x 1024 FLOPs = 20.97152 us;
    // (250 x 1024 + 2048 x 1024) x 2 + 250 x 2048 x 2 = 5,730,304 B = 5.730304 us. GEMM 2 (N 1024,
    // K 1024): 10.48576 us; (250 x 1024 + 1024 x 1024 + 250 x 1024) x 2 = 3,121,152 B = 3.121152 us.
    const double slowdown = (std::hypot(20.97152, 5.730304) + std::hypot(10.48576, 3.121152)) / (20.97152 + 10.48576);
    CHECK(t.expert_gemm_slowdown == doctest::Approx(slowdown).epsilon(1e-12));
    // Micro-batch 4: 1000 tokens per expert. GEMM 1: 83.88608 us, (1,024,000 + 2,097,152) x 2 +
    // 4,096,000 = 10,338,304 B; GEMM 2: 41.94304 us, 6,193,152 B.
    w.micro_batch_size = 4;
    w.global_batch_tokens = 4000;
    const TrainingTime four = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
    CHECK(four.expert_gemm_slowdown ==
          doctest::Approx((std::hypot(83.88608, 10.338304) + std::hypot(41.94304, 6.193152)) / (83.88608 + 41.94304))
              .epsilon(1e-12));
  }
  SUBCASE("DeepEP: no sort by local expert") {
    w.moe_dispatcher = MoeDispatcher::deepep;
    const double flex_pass = (2 * 4 + 2 * 2 + 2) * 1024.0;
    const TrainingTime d = estimate_training_time(prepared(m), w, round_gpu(), 1e6);
    CHECK(d.microbatch_moe_token_bytes ==
          doctest::Approx(1000 * (9 * 8 + flex_pass + 12 * 8 + flex_pass)).epsilon(1e-12));
  }
  SUBCASE("the step-time report names them") {
    const TrainingExplanation x = explain_training_time(prepared(m), w, round_gpu(), 1e6);
    bool named = false;
    for (const std::string& line : x.lines)
      named = named || line.find("of which MoE routed tokens") != std::string::npos;
    CHECK(named);
  }
}

TEST_CASE("the embedding's and loss's slots in the pipeline split (Megatron-Core, the Llama 3 schedule)") {
  // 6 layers + the embedding's slot + the loss's slot = 8 slots over pp 4: 2 per stage, the first and
  // last stages one layer each, the middle ones two (get_transformer_layer_offset).
  ModelDescription m = small_model(6);
  m.vocab_size = 1;  // an output layer of 1,024 weights: the stages differ by their layers only
  const detail::StagePlan plan = detail::plan_stages(m, {1, 4, 1, 1}, {true, true});
  CHECK(plan.first_layer == std::vector<std::int64_t>{0, 1, 3, 5, 6});
  // The embedding's slot alone: 7 layers + 1 = 8 slots, the first stage one layer, the others two.
  CHECK(detail::plan_stages(small_model(7), {1, 4, 1, 1}, {true, false}).first_layer ==
        std::vector<std::int64_t>{0, 1, 3, 5, 7});
  // Without slots 6 layers over 4 stages: the first stages take the remainder.
  CHECK(detail::plan_stages(m, {1, 4, 1, 1}).first_layer == std::vector<std::int64_t>{0, 2, 4, 5, 6});

  TrainingWorkload w;
  w.framework = TrainingFramework::megatron;
  w.sequence_tokens = 100;
  w.global_batch_tokens = 800;  // m = 8
  w.layout.pipeline_parallel = 4;
  w.virtual_pipeline_stages = 2;  // 4 x 2 = 8 chunks of one slot each
  // Megatron needs pp x v to divide the layers unless the slots make them divide.
  CHECK_THROWS_WITH_AS(estimate_training_time(prepared(m), w, round_gpu(), 0),
                       "pp x virtual stages = 8 must divide the 6 layers", OptionError);
  w.pipeline_split_embedding_slot = true;
  try {
    estimate_training_time(prepared(m), w, round_gpu(), 0);
    FAIL("7 slots over 8 chunks must be refused");
  } catch (const OptionError& error) {
    CHECK(error.option() == "account_for_embedding_in_pipeline_split");
  }
  w.pipeline_split_loss_slot = true;
  const TrainingTime t = estimate_training_time(prepared(m), w, round_gpu(), 0);
  // Interleaved bubble (p - 1) / v = 1.5 slots: 1.5 / (8 + 1.5).
  CHECK(t.pipeline_bubble_fraction == doctest::Approx(1.5 / 9.5));
  // The busiest stage is a middle one, two layers: as the last stage of 8 layers on 4 plain stages
  // (two layers and the 1,024-weight output layer).
  ModelDescription eight = small_model(8);
  eight.vocab_size = 1;
  TrainingWorkload plain = w;
  plain.pipeline_split_embedding_slot = plain.pipeline_split_loss_slot = false;
  const TrainingTime p8 = estimate_training_time(prepared(eight), plain, round_gpu(), 0);
  CHECK(t.microbatch_matmul_seconds == doctest::Approx(p8.microbatch_matmul_seconds).epsilon(1e-4));
  // Without the slots the 6 layers put two on the first stage as well: the same busiest stage here,
  // but 1F1B's bubble then needs pp x v to divide the layers (refused above).

  // The options, as the CLI and the page give them.
  const TrainingRequest r = parse_training_options(
      {{"account_for_embedding_in_pipeline_split", "true"}, {"account_for_loss_in_pipeline_split", "true"}});
  CHECK(r.workload.pipeline_split_embedding_slot);
  CHECK(r.workload.pipeline_split_loss_slot);
  CHECK(r.workload.pipeline_split_slots(126) == 128);
}

TEST_CASE("DoRA's step time: its weight norms and magnitude products through HBM") {
  // Llama-3.2-3B, r 32 on q (3072 -> 3072) and v (3072 -> 1024), 4 x 768 tokens, PEFT (fp32
  // adapters beside bf16 outputs, e = 2, f = 4), no recomputation. Per layer and forward, the weight
  // norms: (3072 x 3072 + 3072 x 1024) weights x (e + f + 7f = 34 B) + 2 x 3072^2 identity entries x
  // 2f = 8 B: 427,819,008 + 150,994,944 = 578,813,952 B. Per token the two products: (3072 + 1024)
  // output features x (e + 6f + 5e + 8f = 68 B) = 278,528 B, x 3072 tokens = 855,638,016 B. Over 28
  // layers: 40,164,655,104 B.
  const ModelDescription m =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.2-3B.json"));
  const PreparedLatencyModel p = prepare_latency_model(m, weight_tensors(m), WeightFormat::bf16);
  TrainingWorkload w;
  w.framework = TrainingFramework::hf;
  w.micro_batch_size = 4;
  w.sequence_tokens = 768;
  w.global_batch_tokens = 3072;
  w.lora.rank = 32;
  w.lora.target_roles = lora_target_roles("q,v");
  const Accelerator& l40s = *find_accelerator("l40s");
  const TrainingTime lora = estimate_training_time(p, w, l40s, 0);
  w.lora.dora = true;
  const TrainingTime dora = estimate_training_time(p, w, l40s, 0);
  CHECK(dora.microbatch_dora_bytes == doctest::Approx(40'164'655'104.0));
  CHECK(dora.microbatch_memory_bytes - lora.microbatch_memory_bytes == doctest::Approx(40'164'655'104.0));
  CHECK(lora.microbatch_dora_bytes == 0);
  // torchtune's DoRALinear runs in bf16 (f = 2) and casts nothing: 14 B per weight, 4 B per identity
  // entry, 40 B per output feature: 28 x (12,582,912 x 14 + 18,874,368 x 4 + 3072 x 4096 x 40) =
  // 28 x (176,160,768 + 75,497,472 + 503,316,480) = 21,139,292,160 B.
  w.framework = TrainingFramework::torchtune;
  CHECK(estimate_training_time(p, w, l40s, 0).microbatch_dora_bytes == doctest::Approx(21'139'292'160.0));
}
