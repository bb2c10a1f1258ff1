// SPDX-License-Identifier: MIT
// Weight storage formats and the exact bytes each one takes for a tensor inventory
// (weight_tensors() in params.hpp). Bytes follow the tensors a checkpoint of that format
// holds: packed elements plus every scale, zero point and index tensor. File headers and
// GGUF metadata (vocabulary, key/values) are not weights and are not counted.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/params.hpp"

namespace fitcheck {

enum class WeightFormat : std::uint8_t {
  fp32,
  bf16,
  fp16,
  fp8_e4m3_per_tensor,  // one fp32 scale per matrix (vLLM / compressed-tensors FP8)
  fp8_e4m3_block128,    // fp32 scale per 128x128 block (DeepSeek-V3 weight_scale_inv)
  int8_per_channel,     // one scale per output row (LLM.int8 / SmoothQuant style)
  gptq,                 // bits and group_size from WeightFormatOptions
  awq,                  // GEMM packing; bits and group_size from WeightFormatOptions
  bnb_nf4,
  bnb_fp4,
  mxfp4,  // OCP MX: E2M1 elements, E8M0 scale per 32
  nvfp4,  // E2M1 elements, E4M3 scale per 16, fp32 per tensor
  gguf_q8_0,
  gguf_q6_k,
  gguf_q5_k_m,
  gguf_q5_k_s,
  gguf_q5_0,
  gguf_q4_k_m,
  gguf_q4_k_s,
  gguf_q4_0,
  gguf_q3_k_l,
  gguf_q3_k_m,
  gguf_q3_k_s,
  gguf_q2_k,
  gguf_iq4_xs,
  // llama-quantize's MXFP4_MOE type (gpt-oss GGUFs): routed experts MXFP4, every other matrix Q8_0.
  gguf_mxfp4_moe,
};

// The llama-quantize presets (gguf_q8_0 .. gguf_mxfp4_moe): their bytes come from gguf_tensor_types.
constexpr bool is_gguf_preset(WeightFormat format) {
  return format >= WeightFormat::gguf_q8_0 && format <= WeightFormat::gguf_mxfp4_moe;
}

// Which tensors a format quantizes. GGUF presets follow their own rules and ignore it.
enum class QuantScope : std::uint8_t {
  format_default,       // the convention documented per format (docs/quantization.md)
  routed_experts_only,  // only expert_gate/up/down; everything else 16-bit (gpt-oss MXFP4)
};

struct WeightFormatOptions {
  int bits = 4;                   // GPTQ/AWQ: 2, 3, 4 or 8
  std::int64_t group_size = 128;  // GPTQ/AWQ; -1: one group spanning all input features
  bool double_quant = true;       // bitsandbytes 4-bit compress_statistics
  // bitsandbytes formats: quantize the output head as well (Lightning Fabric's
  // BitsandbytesPrecision replaces every nn.Linear; transformers leaves lm_head 16-bit).
  bool quantize_output_head = false;
  std::int64_t bnb_blocksize = 64;  // bitsandbytes 4-bit absmax block
  // AutoGPTQ from May 2023 to March 2024 gave every quantized layer an fp16 bias of zeros
  // (commits e2e7809 and 82070a1); TheBloke's 2023 GPTQ uploads carry it.
  bool gptq_zero_bias = false;
  std::int64_t fp8_block_rows = 128;     // weight_block_size[0] (output features)
  std::int64_t fp8_block_columns = 128;  // weight_block_size[1] (input features)
  std::int32_t channel_scale_bytes = 4;  // int8 per-row scale (bitsandbytes SCB is fp32)
  bool gguf_imatrix = false;             // llama-quantize ran with an importance matrix
  QuantScope scope = QuantScope::format_default;
  // MXFP4 routed experts as an engine stores them for its MoE kernels (engine_expert_padding() in
  // engine_profile.hpp): the hidden size and the per-rank intermediate size rounded up to these
  // multiples, the padding stored and read like weights; 1: as the checkpoint holds them.
  std::int64_t expert_hidden_multiple = 1;
  std::int64_t expert_intermediate_multiple = 1;
};

struct WeightFormatInfo {
  WeightFormat format;
  const char* id;    // stable lower-case id: "bf16", "fp8-block128", "gptq", "nf4", "q4_k_m"
  const char* name;  // display name
  // Bits per weight of the format's main storage type with its scales, at default options,
  // before per-tensor mixes and 16-bit exceptions.
  double base_bits_per_weight;
  const char* high_precision;  // what the format leaves unquantized
  const char* source;          // where the layout comes from
};

std::span<const WeightFormatInfo> weight_formats();
const WeightFormatInfo& weight_format_info(WeightFormat format);
// Case-insensitive; accepts the ids above and a few aliases ("float16", "Q4_K_M", "gptq-int4").
// An alias names the format only: bits and group size stay in WeightFormatOptions.
std::optional<WeightFormat> find_weight_format(std::string_view id);

struct WeightBytes {
  std::int64_t total_bytes = 0;
  std::int64_t quantized_bytes = 0;  // quantized tensors, their scales included
  std::int64_t high_precision_bytes = 0;
  std::int64_t quantized_params = 0;       // parameters stored in the format's own type(s)
  std::int64_t high_precision_params = 0;  // parameters kept wider (16/32-bit)
  std::int64_t scale_bytes = 0;            // scales, zero points, group indices, block headers
  double effective_bits_per_weight = 0;    // total_bytes * 8 / all parameters
  std::vector<std::string> notes;          // what stayed 16-bit, GGUF type mix, caveats
};

WeightBytes weight_bytes(std::span<const WeightTensor> tensors, WeightFormat format,
                         const WeightFormatOptions& options = {});

// The options a whole model's inventory implies: MXFP4 on a model with routed experts covers those alone
// (gpt-oss: config.json quantization_config.modules_to_not_convert), so its scope becomes
// routed_experts_only. weight_bytes applies it; sizing a model one tensor at a time takes it first.
WeightFormatOptions inventory_options(std::span<const WeightTensor> tensors, WeightFormat format,
                                      const WeightFormatOptions& options);

// Maps quantization_config fields to a format. quant_method as in config.json ("gptq",
// "awq", "fp8", "bitsandbytes", "mxfp4", "modelopt", "compressed-tensors"); fmt carries
// "e4m3", "nf4"/"fp4" (bnb_4bit_quant_type) or "nvfp4"; block_rows/block_cols are
// weight_block_size (0 when absent). Returns nullopt for methods fitcheck cannot size.
std::optional<std::pair<WeightFormat, WeightFormatOptions>> format_from_quantization_fields(
    std::string_view quant_method, int bits, std::int64_t group_size, std::string_view fmt, std::int64_t block_rows,
    std::int64_t block_cols);

// The format the checkpoint itself is stored in: quantization_config when present and sizable,
// else torch_dtype (bf16/fp16/fp32), else bf16. `explanation` says which and why.
struct NativeWeightFormat {
  WeightFormat format = WeightFormat::bf16;
  WeightFormatOptions options{};
  std::string explanation;
};
NativeWeightFormat native_weight_format(const ModelDescription& model);

// --- GGUF ------------------------------------------------------------------------------

enum class GgufType : std::uint8_t {
  f32,
  f16,
  q4_0,
  q4_1,
  q5_0,
  q5_1,
  q8_0,
  q2_k,
  q3_k,
  q4_k,
  q5_k,
  q6_k,
  iq4_nl,
  iq4_xs,
  mxfp4,
};

struct GgufTypeInfo {
  GgufType type;
  const char* name;
  std::int32_t block_elements;  // weights per block (1 for float types)
  std::int32_t block_bytes;     // bytes per block
  std::int32_t element_bits;    // bits of one quantized value, without block scales
};

inline constexpr std::size_t kGgufTypeCount = static_cast<std::size_t>(GgufType::mxfp4) + 1;

const GgufTypeInfo& gguf_type_info(GgufType type);
// The type of a ggml type name as a GGUF header prints it ("Q4_K"); nullopt for the types fitcheck
// has no GgufType for (BF16, the IQ2/IQ3 families, ...).
std::optional<GgufType> gguf_type_named(std::string_view name);

// The type llama-quantize stores each tensor in for a GGUF preset, one per inventory entry.
// Throws std::invalid_argument when format is not a GGUF preset.
std::vector<GgufType> gguf_tensor_types(std::span<const WeightTensor> tensors, WeightFormat format,
                                        const WeightFormatOptions& options = {});

}  // namespace fitcheck
