// SPDX-License-Identifier: MIT
// The weight-format catalogue and the mapping from quantization_config fields to a format.
#include <array>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include "fitcheck/quantization.hpp"

namespace fitcheck {
namespace {

constexpr const char* kSixteenBit = "nothing: every tensor at this width";
constexpr const char* kLinearOnly = "embeddings, lm_head, norms, biases, router (16-bit)";
constexpr const char* kGgufKeeps = "norms, biases, router, position embeddings (F32); output at Q6_K or Q8_0";

// base_bits_per_weight arithmetic is in docs/quantization.md.
constexpr std::array<WeightFormatInfo, 26> kFormats{{
    {WeightFormat::fp32, "fp32", "FP32", 32.0, kSixteenBit, "IEEE 754 binary32"},
    {WeightFormat::bf16, "bf16", "BF16", 16.0, kSixteenBit, "bfloat16"},
    {WeightFormat::fp16, "fp16", "FP16", 16.0, kSixteenBit, "IEEE 754 binary16"},
    {WeightFormat::fp8_e4m3_per_tensor, "fp8", "FP8 E4M3, per-tensor scale", 8.0, kLinearOnly,
     "vLLM FP8 W8A8 (docs.vllm.ai, features/quantization/fp8); compressed-tensors weight_scale"},
    {WeightFormat::fp8_e4m3_block128, "fp8-block128", "FP8 E4M3, 128x128 block scales", 8.0 + 32.0 / (128 * 128),
     kLinearOnly, "deepseek-ai/DeepSeek-V3 config.json quantization_config and weight_scale_inv tensors"},
    {WeightFormat::int8_per_channel, "int8", "INT8, per-channel scale", 8.0,
     "embeddings, lm_head, norms, biases (16-bit)",
     "bitsandbytes Int8Params: int8 CB plus fp32 SCB per output row (bitsandbytes/nn/modules.py)"},
    {WeightFormat::gptq, "gptq", "GPTQ", 4.0 + 16.0 / 128 + 4.0 / 128, kLinearOnly,
     "AutoGPTQ QuantLinear buffers qweight/qzeros/scales/g_idx (auto_gptq/nn_modules/qlinear)"},
    {WeightFormat::awq, "awq", "AWQ (GEMM)", 4.0 + 16.0 / 128 + 4.0 / 128, kLinearOnly,
     "AutoAWQ WQLinear_GEMM buffers qweight/qzeros/scales (awq/modules/linear/gemm.py)"},
    {WeightFormat::bnb_nf4, "nf4", "bitsandbytes NF4", 4.0 + 8.0 / 64 + 32.0 / (64 * 256),
     "embeddings, lm_head, norms, biases (16-bit)",
     "bitsandbytes functional.quantize_4bit and QuantState.as_dict (95f9af30)"},
    {WeightFormat::bnb_fp4, "fp4", "bitsandbytes FP4", 4.0 + 8.0 / 64 + 32.0 / (64 * 256),
     "embeddings, lm_head, norms, biases (16-bit)",
     "bitsandbytes functional.quantize_4bit and QuantState.as_dict (95f9af30)"},
    {WeightFormat::mxfp4, "mxfp4", "MXFP4", 4.25, "MoE models: all but routed experts (gpt-oss); dense: as GPTQ",
     "OCP Microscaling Formats (MX) v1.0; openai/gpt-oss-20b config.json modules_to_not_convert"},
    {WeightFormat::nvfp4, "nvfp4", "NVFP4", 4.5, kLinearOnly,
     "NVIDIA, Introducing NVFP4 (developer.nvidia.com blog, 2025); compressed-tensors nvfp4"},
    {WeightFormat::gguf_q8_0, "q8_0", "GGUF Q8_0", 8.5, kGgufKeeps, "llama.cpp ggml-common.h"},
    {WeightFormat::gguf_q6_k, "q6_k", "GGUF Q6_K", 6.5625, kGgufKeeps, "llama.cpp ggml-common.h"},
    {WeightFormat::gguf_q5_k_m, "q5_k_m", "GGUF Q5_K_M", 5.5, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q5_k_s, "q5_k_s", "GGUF Q5_K_S", 5.5, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q5_0, "q5_0", "GGUF Q5_0", 5.5, kGgufKeeps, "llama.cpp ggml-common.h"},
    {WeightFormat::gguf_q4_k_m, "q4_k_m", "GGUF Q4_K_M", 4.5, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q4_k_s, "q4_k_s", "GGUF Q4_K_S", 4.5, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q4_0, "q4_0", "GGUF Q4_0", 4.5, kGgufKeeps, "llama.cpp ggml-common.h"},
    {WeightFormat::gguf_q3_k_l, "q3_k_l", "GGUF Q3_K_L", 3.4375, kGgufKeeps,
     "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q3_k_m, "q3_k_m", "GGUF Q3_K_M", 3.4375, kGgufKeeps,
     "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q3_k_s, "q3_k_s", "GGUF Q3_K_S", 3.4375, kGgufKeeps,
     "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_q2_k, "q2_k", "GGUF Q2_K", 2.625, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_iq4_xs, "iq4_xs", "GGUF IQ4_XS", 4.25, kGgufKeeps, "llama.cpp ggml-common.h; llama-quant.cpp"},
    {WeightFormat::gguf_mxfp4_moe, "mxfp4_moe", "GGUF MXFP4 MoE", 4.25,
     "routed experts MXFP4; every other matrix Q8_0; norms and biases F32",
     "llama.cpp llama-quant.cpp (LLAMA_FTYPE_MOSTLY_MXFP4_MOE), ggml-common.h block_mxfp4"},
}};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto ca = static_cast<unsigned char>(a[i]);
    const auto cb = static_cast<unsigned char>(b[i]);
    if (std::tolower(ca) != std::tolower(cb)) return false;
  }
  return true;
}

struct Alias {
  const char* text;
  WeightFormat format;
};

constexpr std::array<Alias, 10> kAliases{{
    {"float32", WeightFormat::fp32},
    {"bfloat16", WeightFormat::bf16},
    {"float16", WeightFormat::fp16},
    {"fp8_e4m3", WeightFormat::fp8_e4m3_per_tensor},
    {"fp8-per-tensor", WeightFormat::fp8_e4m3_per_tensor},
    {"gptq-int4", WeightFormat::gptq},
    {"gptq-int8", WeightFormat::gptq},
    {"awq-int4", WeightFormat::awq},
    {"bnb-nf4", WeightFormat::bnb_nf4},
    {"bnb-fp4", WeightFormat::bnb_fp4},
}};

WeightFormatOptions with_bits(int bits, std::int64_t group_size) {
  WeightFormatOptions options;
  options.bits = bits;
  options.group_size = group_size == 0 ? 128 : group_size;
  return options;
}

std::optional<std::pair<WeightFormat, WeightFormatOptions>> fp8_from_blocks(std::int64_t block_rows,
                                                                            std::int64_t block_cols) {
  WeightFormatOptions options;
  if (block_rows > 0 && block_cols > 0) {
    options.fp8_block_rows = block_rows;
    options.fp8_block_columns = block_cols;
    return std::pair{WeightFormat::fp8_e4m3_block128, options};
  }
  return std::pair{WeightFormat::fp8_e4m3_per_tensor, options};
}

}  // namespace

std::span<const WeightFormatInfo> weight_formats() { return kFormats; }

const WeightFormatInfo& weight_format_info(WeightFormat format) {
  for (const WeightFormatInfo& info : kFormats) {
    if (info.format == format) return info;
  }
  throw std::invalid_argument("unknown weight format");
}

std::optional<WeightFormat> find_weight_format(std::string_view id) {
  for (const WeightFormatInfo& info : kFormats) {
    if (iequals(id, info.id)) return info.format;
  }
  for (const Alias& alias : kAliases) {
    if (iequals(id, alias.text)) return alias.format;
  }
  return std::nullopt;
}

std::optional<std::pair<WeightFormat, WeightFormatOptions>> format_from_quantization_fields(
    std::string_view quant_method, int bits, std::int64_t group_size, std::string_view fmt, std::int64_t block_rows,
    std::int64_t block_cols) {
  if (iequals(quant_method, "gptq")) {
    if (bits != 2 && bits != 3 && bits != 4 && bits != 8) return std::nullopt;
    return std::pair{WeightFormat::gptq, with_bits(bits, group_size)};
  }
  if (iequals(quant_method, "awq")) {
    if (bits != 4) return std::nullopt;  // AutoAWQ packs 4-bit only
    return std::pair{WeightFormat::awq, with_bits(bits, group_size)};
  }
  if (iequals(quant_method, "fp8")) {
    // DeepSeek-V3 / Qwen3-FP8: {"fmt": "e4m3", "weight_block_size": [128, 128]}.
    if (!fmt.empty() && !iequals(fmt, "e4m3") && !iequals(fmt, "float8_e4m3fn")) {
      return std::nullopt;
    }
    return fp8_from_blocks(block_rows, block_cols);
  }
  if (iequals(quant_method, "bitsandbytes")) {
    if (bits == 8) return std::pair{WeightFormat::int8_per_channel, WeightFormatOptions{}};
    if (bits != 4) return std::nullopt;
    if (iequals(fmt, "fp4")) return std::pair{WeightFormat::bnb_fp4, WeightFormatOptions{}};
    return std::pair{WeightFormat::bnb_nf4, WeightFormatOptions{}};  // nf4 or unspecified
  }
  if (iequals(quant_method, "mxfp4")) {
    WeightFormatOptions options;
    options.scope = QuantScope::routed_experts_only;  // gpt-oss modules_to_not_convert
    return std::pair{WeightFormat::mxfp4, options};
  }
  if (iequals(quant_method, "modelopt") || iequals(quant_method, "compressed-tensors")) {
    if (iequals(fmt, "nvfp4") || iequals(fmt, "nvfp4-pack-quantized")) {
      return std::pair{WeightFormat::nvfp4, WeightFormatOptions{}};
    }
    if (iequals(fmt, "fp8") || (iequals(fmt, "float-quantized") && bits == 8)) {
      return fp8_from_blocks(block_rows, block_cols);
    }
    if (iequals(fmt, "int-quantized") && bits == 8) {
      return std::pair{WeightFormat::int8_per_channel, WeightFormatOptions{}};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace fitcheck

namespace fitcheck {

NativeWeightFormat native_weight_format(const ModelDescription& model) {
  NativeWeightFormat native;
  const StoredPrecision& stored = model.stored_precision;
  if (!stored.quant_method.empty()) {
    if (auto mapped = format_from_quantization_fields(stored.quant_method, static_cast<int>(stored.quant_bits),
                                                      stored.quant_group_size, stored.quant_format,
                                                      stored.quant_block_rows, stored.quant_block_columns)) {
      native.format = mapped->first;
      native.options = mapped->second;
      native.explanation = std::string("stored format from quantization_config (quant_method '") + stored.quant_method +
                           "'): " + weight_format_info(native.format).id;
      return native;
    }
    native.explanation = "quantization_config quant_method '" + stored.quant_method +
                         "' is not one fitcheck can size; weights shown at bf16";
    return native;
  }
  if (stored.torch_dtype == "float32")
    native.format = WeightFormat::fp32;
  else if (stored.torch_dtype == "float16")
    native.format = WeightFormat::fp16;
  native.explanation =
      stored.torch_dtype.empty()
          ? std::string("config.json names no torch_dtype: weights shown at bf16")
          : "stored format from torch_dtype '" + stored.torch_dtype + "': " + weight_format_info(native.format).id;
  return native;
}

}  // namespace fitcheck
