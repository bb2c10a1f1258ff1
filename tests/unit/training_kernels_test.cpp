// SPDX-License-Identifier: MIT
// The memory-bound kernels of a training step: the per-op byte counts, and what they predict
// against published measurements of the mechanisms (torch.compile against eager, FP8 casts).
#include <doctest/doctest.h>

#include <cmath>

#include "fitcheck/hardware.hpp"
#include "fitcheck/training_time.hpp"
#include "training/training_kernels.hpp"

using namespace fitcheck;

namespace {

// One Llama-3.1-8B layer: hidden 4096, 32 query heads and 8 key/value heads of 128, SwiGLU 14336.
LatencyLayerKind llama_8b_layer() {
  LatencyLayerKind k;
  k.layers = 32;
  k.heads = 32;
  k.kv_heads = 8;
  k.qk_head_dim = 128;
  k.v_head_dim = 128;
  k.mlp_width = 14336;
  k.gated_mlp = true;
  k.hidden_norms = 2;
  k.mlp.matrix_params = 3.0 * 4096 * 14336;
  return k;
}

}  // namespace

TEST_CASE("elementwise bytes per token of one Llama-3.1-8B layer, by kernels") {
  const LatencyLayerKind k = llama_8b_layer();
  SUBCASE("eager PyTorch: every op its own kernel") {
    // Forward: 2 RMSNorms x 36 B + 2 residual adds x 6 B per hidden element; rotary 20 B per
    // element of q (4096) and k (1024); repeat_kv reads k and v (1024 each) and writes them at the
    // query width (4096 each), 2 B each way; SwiGLU 10 B per element of 14336.
    // Backward: RMSNorm 100 B, residual gradients 6 B; rotary and the repeat's sum as forward;
    // SwiGLU 18 B.
    const detail::LayerTraffic t = detail::layer_elementwise_traffic(k, 4096, true, true, ElementwiseKernels::eager);
    CHECK(t.forward.hidden == (2 * 36 + 2 * 6) * 4096.0);
    CHECK(t.forward.split == 20 * 5120.0 + 2 * (1024 + 4096 + 1024 + 4096.0) + 10 * 14336.0);
    CHECK(t.backward.hidden == (2 * 100 + 2 * 6) * 4096.0);
    CHECK(t.backward.split == 20 * 5120.0 + 2 * (1024 + 4096 + 1024 + 4096.0) + 18 * 14336.0);
  }
  SUBCASE("TorchInductor: residual add + norm, rotary + repeat, SwiGLU each one kernel") {
    const detail::LayerTraffic t = detail::layer_elementwise_traffic(k, 4096, true, true, ElementwiseKernels::compiled);
    CHECK(t.forward.hidden == 2 * 8 * 4096.0);
    // q rotated in place of 4 B; k read (2 x 1024) and written repeated (2 x 4096); v the same.
    CHECK(t.forward.split == 4 * 4096.0 + 2 * (2 * 1024 + 2 * 4096.0) + 6 * 14336.0);
    CHECK(t.backward.hidden == 2 * 8 * 4096.0);
    CHECK(t.backward.split == 4 * 4096.0 + 2 * (2 * 1024 + 2 * 4096.0) + 10 * 14336.0);
  }
  SUBCASE("Transformer Engine: fused norm, rotary, SwiGLU and bias-dropout-add; no repeat") {
    const detail::LayerTraffic t = detail::layer_elementwise_traffic(k, 4096, true, true, ElementwiseKernels::fused);
    CHECK(t.forward.hidden == (2 * 4 + 2 * 6) * 4096.0);
    CHECK(t.forward.split == 4 * 5120.0 + 6 * 14336.0);
    CHECK(t.backward.hidden == (2 * 6 + 2 * 6) * 4096.0);
    CHECK(t.backward.split == 4 * 5120.0 + 10 * 14336.0);
  }
  SUBCASE("LayerNorm is one ATen kernel even in eager mode; no rotary, no gate") {
    LatencyLayerKind gelu = k;
    gelu.gated_mlp = false;
    gelu.kv_heads = 32;  // no repeat either
    const detail::LayerTraffic t =
        detail::layer_elementwise_traffic(gelu, 4096, false, false, ElementwiseKernels::eager);
    CHECK(t.forward.hidden == (2 * 4 + 2 * 6) * 4096.0);
    CHECK(t.forward.split == 4 * 14336.0);
    CHECK(t.backward.hidden == (2 * 6 + 2 * 6) * 4096.0);
    CHECK(t.backward.split == 6 * 14336.0);
  }
}

TEST_CASE("published: torch.compile against eager, torchtitan Llama 3.1 8B on 8 H100 (500 W)") {
  // pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 1: local batch 2 x 8192
  // tokens, selective op AC, FSDP: 5,762 TPS eager, 6,667 with torch.compile. Per step of 16,384
  // tokens per GPU that is 16384 / 5762 - 16384 / 6667 = 0.386 s saved by compiling. The model
  // times only the elementwise traffic differently; selective op recomputes every elementwise op.
  const LatencyLayerKind k = llama_8b_layer();
  const auto bytes = [&](ElementwiseKernels kernels) {
    const detail::LayerTraffic t = detail::layer_elementwise_traffic(k, 4096, true, true, kernels);
    const double forward = t.forward.hidden + t.forward.split, backward = t.backward.hidden + t.backward.split;
    return 32 * 16384 * (2 * forward + backward);
  };
  const Accelerator* gpu = find_accelerator("h100-sxm-96gb-500w");
  REQUIRE(gpu != nullptr);
  const double bandwidth =
      gpu->memory_bandwidth_bytes_per_second * TrainingAssumptions{}.elementwise_bandwidth_efficiency;
  const double saved = (bytes(ElementwiseKernels::eager) - bytes(ElementwiseKernels::compiled)) / bandwidth;
  const double published = 16384.0 / 5762 - 16384.0 / 6667;
  CHECK(saved == doctest::Approx(published).epsilon(0.15));
}

TEST_CASE("published: torchao's float8 linear speedup for a large shape (its README, Example 2)") {
  // pytorch/ao eab345c torchao/float8/README.md, Performance: M, K, N = 4096, 8192, 16384, a
  // forward + backward of Float8Linear (tensorwise, compiled) against bf16: speedup 1.39 on H100.
  // Model: three GEMMs (output, input gradient, weight gradient) of 2 M K N FLOPs at the MAMF
  // shares of the H100 (bf16 80.3%, fp8 70.9%), plus torchao's casts at the elementwise bandwidth
  // of Meta's 2.4 TB/s H100 (the variant torchao's roofline assumes): input M x K and gradient
  // M x N at 4 B, the weight K x N at 8 B.
  const double m = 4096, k = 8192, n = 16384;
  const Accelerator* gpu = find_accelerator("h100-sxm-96gb-500w");
  REQUIRE(gpu != nullptr);
  const double gemm_flops = 3 * 2 * m * k * n;
  const double bf16 = gemm_flops / (peak_flops_per_second(*gpu, ComputeDtype::bf16) * gpu->mamf_share_bf16);
  const detail::Fp8CastBytes cast =
      detail::fp8_cast_bytes_per_element(Fp8Casts::torchao_tensorwise, ElementwiseKernels::compiled);
  CHECK(cast.input == 4);
  CHECK(cast.gradient == 4);
  CHECK(cast.weight == 8);
  const double cast_bytes = cast.input * m * k + cast.gradient * m * n + cast.weight * k * n;
  const double fp8 =
      gemm_flops / (peak_flops_per_second(*gpu, ComputeDtype::fp8) * gpu->mamf_share_fp8) +
      cast_bytes / (gpu->memory_bandwidth_bytes_per_second * TrainingAssumptions{}.elementwise_bandwidth_efficiency);
  CHECK(bf16 / fp8 == doctest::Approx(1.39).epsilon(0.05));
  // Eager adds an amax pass to every input and gradient; Transformer Engine's cast-transpose
  // reads 2 B and writes both FP8 copies, and its weights are not cast per micro-batch.
  CHECK(detail::fp8_cast_bytes_per_element(Fp8Casts::torchao_tensorwise, ElementwiseKernels::eager).input == 6);
  CHECK(detail::fp8_cast_bytes_per_element(Fp8Casts::transformer_engine, ElementwiseKernels::fused).weight == 0);
}

TEST_CASE("the loss: eager cross-entropy on upcast logits against a fused one") {
  CHECK(detail::loss_traffic_bytes_per_logit(ElementwiseKernels::eager) == 40);
  CHECK(detail::loss_traffic_bytes_per_logit(ElementwiseKernels::compiled) == 8);
  CHECK(detail::loss_traffic_bytes_per_logit(ElementwiseKernels::fused) == 8);
}

TEST_CASE("PyTorch's ring attention: its merges, accumulations and copies, per token") {
  // cp 2, every width w: forward 4 (2w) contiguous + 4 (2w) one exchange + 6w fp32 output + 38w one
  // merge + 6w back to bf16 = 66w; backward 8w + zeros 12w + 8w + 20w first add + 26w second +
  // 2 x 16w fp32 concatenations + 2 x 10w query adds + 6w + 12w casts = 144w.
  const detail::RingAttentionTraffic two = detail::torch_ring_attention_traffic(2, 1, 1, 1, 1);
  CHECK(two.forward == 66);
  CHECK(two.backward == 144);
  // Each further rank adds one merge and exchange (38 + 8) and one backward step (10 + 8 + 26 + 16).
  const detail::RingAttentionTraffic four = detail::torch_ring_attention_traffic(4, 1, 1, 1, 1);
  CHECK(four.forward - two.forward == 2 * 46);
  CHECK(four.backward - two.backward == 2 * 60);
  CHECK(detail::torch_ring_attention_traffic(1, 1, 1, 1, 1).forward == 0);
  // Llama-3.1-8B, 32k tokens per rank at cp 8 on an H100: the bytes of a forward, its
  // recomputation and a backward take about 5% of the attention core's time at SDPA's rate.
  const Accelerator* gpu = find_accelerator("h100-sxm-80gb");
  REQUIRE(gpu != nullptr);
  const double tokens = 32768, width = 32 * 128, cp = 8;
  const detail::RingAttentionTraffic r = detail::torch_ring_attention_traffic(cp, width, width, width, width);
  const double bytes = tokens * (2 * r.forward + r.backward);
  const double memory =
      bytes / (gpu->memory_bandwidth_bytes_per_second * TrainingAssumptions{}.elementwise_bandwidth_efficiency);
  // Causal attention of cp x 32k tokens, a rank's share: 4 s^2 width / 2 / cp per forward; a
  // forward, its recomputation and the backward (2.5 forwards) at 0.28 of the bf16 peak.
  const double flops = 4 * (cp * tokens) * (cp * tokens) * width / 2 / cp * (1 + 1 + 2.5);
  const double attention = flops / (peak_flops_per_second(*gpu, ComputeDtype::bf16) * 0.28);
  CHECK(memory / attention == doctest::Approx(0.05).epsilon(0.3));
}

TEST_CASE("MoE routed tokens per token: router scores, copies into expert order and back, eager expert biases") {
  // Qwen3-30B-A3B-like layer: hidden 2048, 128 experts, top-8.
  LatencyLayerKind k;
  k.moe = true;
  k.experts = 128;
  k.experts_per_token = 8;
  k.expert_width = 768;
  SUBCASE("DeepEP / HybridEP: one permute after the dispatch and one unpermute") {
    // Router: fp32 logits read (4 B per expert), probabilities and routing map written (4 + 1);
    // backward reads the probabilities' gradient and the probabilities, writes the logits' (3 x 4).
    // Permute: each of the 8 copies reads its token and writes itself (2 + 2 B per element);
    // unpermute: reads the 8 copies (2 B) and writes the token once (2 B).
    const detail::LayerTraffic t = detail::moe_token_traffic(k, 2048, {});
    CHECK(t.forward.hidden == 9 * 128.0 + (8 * 4 + 8 * 2 + 2) * 2048.0);
    CHECK(t.backward.hidden == 12 * 128.0 + (8 * 4 + 8 * 2 + 2) * 2048.0);
    CHECK(t.forward.split == 0);
    CHECK(t.backward.split == 0);
  }
  SUBCASE("all-to-all dispatcher to ranks holding several experts: the chunks sorted and unsorted too") {
    detail::MoeTokenTrafficOptions o;
    o.sort_by_local_expert = true;
    const detail::LayerTraffic t = detail::moe_token_traffic(k, 2048, o);
    // Sort and unsort: 2 + 2 B per copy and element each, on top of the 50 x 2048 above.
    CHECK(t.forward.hidden == 9 * 128.0 + (50 + 8 * 4 + 8 * 4) * 2048.0);
    CHECK(t.backward.hidden == 12 * 128.0 + (50 + 8 * 4 + 8 * 4) * 2048.0);
  }
  SUBCASE("gpt-oss-like biased experts under Megatron: fc2's bias as eager fp32 ops on every copy") {
    // gpt-oss-120b: hidden 2880, 128 experts, top-4; 36 B forward and 40 B backward per element of
    // each copy for the bias path, beside the permute (4 x 4 + 4 x 2 + 2 per element of h).
    k.experts_per_token = 4;
    detail::MoeTokenTrafficOptions o;
    o.eager_expert_bias = true;
    const detail::LayerTraffic t = detail::moe_token_traffic(k, 2880, o);
    CHECK(t.forward.hidden == 9 * 128.0 + 26 * 2880.0 + 36 * 4 * 2880.0);
    CHECK(t.backward.hidden == 12 * 128.0 + 26 * 2880.0 + 40 * 4 * 2880.0);
  }
  SUBCASE("a dense layer has none") {
    const detail::LayerTraffic t = detail::moe_token_traffic(llama_8b_layer(), 4096, {});
    CHECK(t.forward.hidden == 0);
    CHECK(t.backward.hidden == 0);
  }
}

TEST_CASE("grouped expert GEMMs: FLOPs at the dense rate blended with their bytes at the HBM bandwidth") {
  // 1000 tokens per expert, hidden 1000, expert width 500, ungated, 1 TFLOP/s, 16/3 GB/s.
  // GEMM 1 (N 500, K 1000) and GEMM 2 (N 1000, K 500): 2 x 1000 x 500 x 1000 = 1e9 FLOPs, 1 ms
  // each; 16-bit bytes (1000 x 1000 + 500 x 1000) x 2 + 1000 x 500 x 2 = 4e6 and
  // (1000 x 500 + 1000 x 500) x 2 + 1000 x 1000 x 2 = 4e6: 0.75 ms each; sqrt(1 + 0.75^2) = 1.25.
  detail::ExpertGemmShape shape;
  shape.tokens_per_expert = 1000;
  shape.hidden = 1000;
  shape.expert_width = 500;
  const double rate = 1e12, bandwidth = 16e9 / 3;
  CHECK(detail::grouped_expert_gemm_slowdown(shape, rate, bandwidth) == doctest::Approx(1.25).epsilon(1e-12));
  SUBCASE("tensor parallelism splits the expert width") {
    shape.expert_width = 1000;
    shape.tensor_parallel = 2;
    CHECK(detail::grouped_expert_gemm_slowdown(shape, rate, bandwidth) == doctest::Approx(1.25).epsilon(1e-12));
  }
  SUBCASE("FP8 operands: 1 B inputs and weights, 16-bit outputs") {
    // GEMM 1: 1.5e6 + 1e6 = 2.5e6 B, 0.46875 ms; GEMM 2: 1e6 + 2e6 = 3e6 B, 0.5625 ms.
    shape.operand_bytes = 1;
    const double expected = (std::sqrt(1 + 0.46875 * 0.46875) + std::sqrt(1 + 0.5625 * 0.5625)) / 2;
    CHECK(detail::grouped_expert_gemm_slowdown(shape, rate, bandwidth) == doctest::Approx(expected).epsilon(1e-12));
  }
  SUBCASE("gated: the first GEMM is twice the width") {
    // Width 250 gated: GEMM 1 as above (N 500, K 1000: 1 ms, 0.75 ms); GEMM 2 N 1000, K 250:
    // 5e8 FLOPs, 0.5 ms; (1000 x 250 + 1000 x 250) x 2 + 1000 x 1000 x 2 = 3e6 B, 0.5625 ms.
    shape.expert_width = 250;
    shape.gated = true;
    const double expected = (1.25 + std::sqrt(0.5 * 0.5 + 0.5625 * 0.5625)) / 1.5;
    CHECK(detail::grouped_expert_gemm_slowdown(shape, rate, bandwidth) == doctest::Approx(expected).epsilon(1e-12));
  }
  SUBCASE("no tokens: the dense rate") {
    shape.tokens_per_expert = 0;
    CHECK(detail::grouped_expert_gemm_slowdown(shape, rate, bandwidth) == 1);
  }
}

TEST_CASE("Transformer Engine FP8 casts of a MoE layer: every routed copy's input and output gradient") {
  LatencyLayerKind k;
  k.moe = true;
  k.experts = 128;
  k.experts_per_token = 8;
  k.expert_width = 768;
  k.gated_mlp = true;
  // Cast-transpose reads 2 B and writes the row- and column-wise FP8 copies (1 + 1 B).
  const detail::Fp8CastTraffic t =
      detail::layer_fp8_cast_traffic(k, 2048, Fp8Casts::transformer_engine, ElementwiseKernels::fused);
  // Forward: the 8 gathered copies (the norm cannot write them in FP8).
  CHECK(t.tokens.forward.hidden == 4 * 8 * 2048.0);
  // Backward: the attention output projection's gradient and the 8 copies' down-projection gradients.
  CHECK(t.tokens.backward.hidden == 4 * (2048.0 + 8 * 2048.0));
  // Gate and up outputs of the 8 copies, 768 wide each.
  CHECK(t.tokens.backward.split == 4 * 2 * 8 * 768.0);
  SUBCASE("a shared expert adds its one down-projection gradient") {
    k.shared_width = 768;
    const detail::Fp8CastTraffic s =
        detail::layer_fp8_cast_traffic(k, 2048, Fp8Casts::transformer_engine, ElementwiseKernels::fused);
    CHECK(s.tokens.backward.hidden == 4 * (2048.0 + 8 * 2048.0 + 2048.0));
  }
  SUBCASE("a dense layer: the output and down projections' gradients, no input cast") {
    const detail::Fp8CastTraffic d =
        detail::layer_fp8_cast_traffic(llama_8b_layer(), 4096, Fp8Casts::transformer_engine, ElementwiseKernels::fused);
    CHECK(d.tokens.forward.hidden == 0);
    CHECK(d.tokens.backward.hidden == 4 * 2 * 4096.0);
  }
}
