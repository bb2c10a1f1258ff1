// SPDX-License-Identifier: MIT
// The engines' kernel traits: the share of a chip's peak their products and reads reach
// (kernel_efficiency) and how they pad MoE experts for their kernels (engine_expert_padding);
// engine_profile.cpp holds their budgets, schedulers and step costs.
#include <algorithm>
#include <string>

#include "fitcheck/engine_profile.hpp"
#include "fitcheck/serving.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

// Serving's weight products on a chip with a measured achievable matmul rate: TensorRT-LLM's
// Llama-7B FP16 first token of 2048 tokens on A100 SXM (133 ms, NVIDIA/TensorRT-LLM 138f96d4
// docs/source/performance.md; docs/latency.md) runs at 0.69 of the 312 TFLOP/s peak, which is
// 0.794 of the 0.869 the chip's matmuls reach at best (its MAMF share).
constexpr double kServingShareOfMamf = 0.69 / 0.869;

bool four_bit_weight_only(WeightFormat format) {
  return format == WeightFormat::gptq || format == WeightFormat::awq || format == WeightFormat::bnb_nf4 ||
         format == WeightFormat::bnb_fp4;
}

}  // namespace

KernelEfficiency kernel_efficiency(EngineKind kind, const Accelerator& gpu, WeightFormat format) {
  const GpuGeneration generation = gpu_generation(gpu);
  KernelEfficiency e;
  e.source = "HBM 0.8 and FLOP/s 0.7 of peak for 16-bit and fp8 products (docs/latency.md)";
  if (gpu.mamf_share_bf16 > 0) {
    // A chip whose achievable matmul rate is measured: 16-bit products at kServingShareOfMamf of it,
    // FP8 products at the chip's measured fp8 / bf16 gap on top (as the training step time does).
    e.flops = kServingShareOfMamf * gpu.mamf_share_bf16;
    e.source = "HBM 0.8; FLOP/s " + detail::three_significant_digits(kServingShareOfMamf) +
               " of the chip's measured achievable matmul "
               "share (MAMF, stas00/ml-engineering 744d01e) " +
               detail::three_significant_digits(gpu.mamf_share_bf16) + " = " +
               detail::three_significant_digits(e.flops) + " of the 16-bit peak";
    if (gpu.mamf_share_fp8 > 0) {
      e.fp8_flops_share = gpu.mamf_share_fp8 / gpu.mamf_share_bf16;
      e.source += ", fp8 products x " + detail::three_significant_digits(gpu.mamf_share_fp8) + " / " +
                  detail::three_significant_digits(gpu.mamf_share_bf16) + " (MAMF fp8 / bf16)";
    }
    e.source += " (docs/latency.md)";
  }
  if (four_bit_weight_only(format)) {
    e.flops = 0.5;  // the kernels' own estimate below, not the chip's MAMF
    e.fp8_flops_share = 1.0;
    // Weight-only 4-bit kernels (Marlin, AWQ GEMM) dequantize in the product: near the bandwidth
    // roofline for small batches, below the 16-bit FLOP/s once compute-bound.
    e.hbm = 0.7;
    e.source =
        "4-bit weight-only (GPTQ/AWQ): HBM 0.7, FLOP/s 0.5 (estimate: vLLM 0.6.3 Qwen2.5-7B GPTQ-Int4 at batch 1 "
        "runs 1.8x its BF16 speed on A100, Qwen2.5 speed tables; dequantization in the product)";
  } else if (format == WeightFormat::mxfp4 || format == WeightFormat::nvfp4) {
    e.fp8_flops_share = 1.0;
    if (generation == GpuGeneration::blackwell) {
      e.flops = 0.5;
      e.source = "fp4 on Blackwell: HBM 0.8, FLOP/s 0.5 of the fp4 peak (estimate: block-scaled fp4 GEMMs)";
    } else {
      e.hbm = 0.6;
      e.flops = 0.5;
      e.source =
          "fp4 weights before Blackwell run weight-only kernels (Marlin/Triton MXFP4): HBM 0.6, FLOP/s 0.5 "
          "(estimate; docs/serving.md: MXFP4 MoE on Hopper/Ampere runs well below the bandwidth roofline)";
    }
  }
  const bool fp4_weight_only =
      (format == WeightFormat::mxfp4 || format == WeightFormat::nvfp4) && generation != GpuGeneration::blackwell;
  e.gemm_row_tiles = (generation == GpuGeneration::hopper || generation == GpuGeneration::blackwell) &&
                     !four_bit_weight_only(format) && !fp4_weight_only && kind != EngineKind::llamacpp;
  if (e.gemm_row_tiles)
    e.source +=
        "; weight products in 64-row tiles up to 128 rows, 128-row tiles above, padding computed (wgmma m64; "
        "vLLM's SM90 CUTLASS dispatch, csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh at "
        "44d638a8)";
  if (kind == EngineKind::llamacpp && generation != GpuGeneration::older)
    e.source += "; llama.cpp's own kernels: see docs/engines-serving.md 4.2";
  return e;
}

ExpertPadding engine_expert_padding(EngineKind kind, const Accelerator& gpu, WeightFormat format) {
  ExpertPadding padding;
  const GpuGeneration generation = gpu_generation(gpu);
  if (kind != EngineKind::vllm || format != WeightFormat::mxfp4) return padding;
  if (std::string_view(gpu.vendor) == "AMD") {
    padding.source = "MXFP4 experts on ROCm are padded to get_padding_alignment() (not modelled)";
    return padding;
  }
  // MXFP4 MoE on NVIDIA needs compute capability 8.0 (Mxfp4Config.get_min_capability).
  if (std::string_view(gpu.vendor) != "NVIDIA" || generation == GpuGeneration::older) return padding;
  // get_mxfp4_backend picks the kernel, Mxfp4MoEMethod.create_weights allocates the experts for it.
  const std::string source =
      " (vllm/model_executor/layers/quantization/mxfp4.py at 007d5005: get_mxfp4_backend, "
      "Mxfp4MoEMethod.create_weights)";
  if (generation == GpuGeneration::blackwell && is_nvidia_hbm_part(gpu)) {
    padding.hidden_multiple = 256;
    padding.intermediate_multiple = 256;
    padding.source =
        "MXFP4 experts on SM100 run FlashInfer's MoE, hidden and per-rank intermediate sizes padded to "
        "multiples of 256" +
        source;
  } else {
    // Marlin's MoE kernel needs n % 256 == 0 and k % 128 == 0 for each product.
    padding.hidden_multiple = 256;
    padding.intermediate_multiple = 128;
    padding.source =
        "MXFP4 experts run Marlin's MoE kernel (Ampere, Ada, SM120; Hopper without the optional triton_kernels "
        "package), hidden size padded to a multiple of 256, per-rank intermediate size to 128" +
        source + "; vllm#23278: 65.97 GiB for gpt-oss-120b on an H100";
  }
  return padding;
}

std::string apply_expert_padding(EngineKind kind, const Accelerator& gpu, const ModelDescription& model,
                                 InferenceWorkload& workload) {
  const ExpertPadding padding = engine_expert_padding(kind, gpu, workload.weight_format);
  workload.weight_options.expert_hidden_multiple = padding.hidden_multiple;
  workload.weight_options.expert_intermediate_multiple = padding.intermediate_multiple;
  const bool experts = std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(),
                                   [](const LayerShape& layer) { return layer.is_moe(); });
  return experts ? padding.source : std::string();
}

}  // namespace fitcheck
