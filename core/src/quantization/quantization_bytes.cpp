// SPDX-License-Identifier: MIT
// weight_bytes(): the bytes of every tensor a checkpoint of the chosen format stores.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/quantization.hpp"

namespace fitcheck {
namespace {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Projections of the layer stack: what quantizers replace with their packed linear layers.
bool is_projection(TensorRole r) {
  switch (r) {
    case TensorRole::attention_query:
    case TensorRole::attention_query_down:
    case TensorRole::attention_key:
    case TensorRole::attention_value:
    case TensorRole::attention_kv_down:
    case TensorRole::attention_kv_up:
    case TensorRole::attention_output:
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
    case TensorRole::mlp_down:
    case TensorRole::shared_expert_gate:
    case TensorRole::shared_expert_up:
    case TensorRole::shared_expert_down:
    case TensorRole::ssm_in_projection:  // Mamba in_proj and out_proj are linear layers too
    case TensorRole::ssm_output:
      return true;
    default:
      return is_routed_expert(r);
  }
}

// Short labels for the notes on what stayed unquantized.
const char* kept_label(TensorRole r) {
  switch (r) {
    case TensorRole::token_embedding:
    case TensorRole::position_embedding:
      return "embeddings";
    case TensorRole::lm_head:
      return "lm_head";
    case TensorRole::norm:
      return "norms";
    case TensorRole::bias:
      return "biases";
    case TensorRole::router:
      return "router";
    case TensorRole::attention_sink:
    case TensorRole::relative_position_bias:
      return "attention sinks/position bias";
    case TensorRole::ssm_convolution:
    case TensorRole::ssm_parameter:
      return "state-space conv and per-head scalars";
    default:
      return is_routed_expert(r) ? "routed experts" : "attention and dense projections";
  }
}

struct Kept {
  std::vector<std::pair<const char*, std::int64_t>> by_label;
  void add(TensorRole role, std::int64_t params) {
    const char* label = kept_label(role);
    for (auto& entry : by_label) {
      if (std::string(entry.first) == label) {
        entry.second += params;
        return;
      }
    }
    by_label.emplace_back(label, params);
  }
  std::string describe(const char* width) const {
    std::string text = std::string("kept at ") + width + ": ";
    for (std::size_t i = 0; i < by_label.size(); ++i) {
      if (i > 0) text += ", ";
      text += by_label[i].first;
      text += " (" + std::to_string(by_label[i].second) + " params)";
    }
    return text;
  }
};

struct MatrixBytes {
  std::int64_t bytes = 0;
  std::int64_t scale_bytes = 0;
};

void check_options(WeightFormat f, const WeightFormatOptions& o) {
  if (f == WeightFormat::gptq && o.bits != 2 && o.bits != 3 && o.bits != 4 && o.bits != 8) {
    throw std::invalid_argument("GPTQ bits must be 2, 3, 4 or 8");
  }
  if (f == WeightFormat::awq && o.bits != 4) throw std::invalid_argument("AWQ packs 4-bit only");
  if ((f == WeightFormat::gptq || f == WeightFormat::awq) && o.group_size == 0) {
    throw std::invalid_argument("group_size must be positive or -1");
  }
  if (f == WeightFormat::fp8_e4m3_block128 && (o.fp8_block_rows <= 0 || o.fp8_block_columns <= 0)) {
    throw std::invalid_argument("FP8 block dimensions must be positive");
  }
  if ((f == WeightFormat::bnb_nf4 || f == WeightFormat::bnb_fp4) && o.bnb_blocksize <= 0) {
    throw std::invalid_argument("bitsandbytes blocksize must be positive");
  }
  if (o.expert_hidden_multiple < 1 || o.expert_intermediate_multiple < 1) {
    throw std::invalid_argument("expert padding multiples must be at least 1");
  }
}

// A routed expert as an engine stores it padded (WeightFormatOptions::expert_hidden_multiple): gate
// and up map hidden -> intermediate (rows are intermediate), down the other way.
WeightTensor padded_expert(WeightTensor t, const WeightFormatOptions& o) {
  const auto round_up = [](std::int64_t n, std::int64_t multiple) { return ceil_div(n, multiple) * multiple; };
  const bool down = t.role == TensorRole::expert_down;
  t.rows = round_up(t.rows, down ? o.expert_hidden_multiple : o.expert_intermediate_multiple);
  t.columns = round_up(t.columns, down ? o.expert_intermediate_multiple : o.expert_hidden_multiple);
  return t;
}

// One quantized matrix of `rows` outputs by `cols` inputs (a single copy).
MatrixBytes quantized_matrix(WeightFormat f, std::int64_t rows, std::int64_t cols, const WeightFormatOptions& o) {
  const std::int64_t n = rows * cols;
  MatrixBytes m;
  switch (f) {
    case WeightFormat::fp8_e4m3_per_tensor:
      m.scale_bytes = 4;  // fp32 weight_scale
      m.bytes = n + m.scale_bytes;
      break;
    case WeightFormat::fp8_e4m3_block128:
      // weight_scale_inv: fp32 [ceil(rows/128), ceil(cols/128)]; edge blocks are partial.
      m.scale_bytes = ceil_div(rows, o.fp8_block_rows) * ceil_div(cols, o.fp8_block_columns) * 4;
      m.bytes = n + m.scale_bytes;
      break;
    case WeightFormat::int8_per_channel:
      m.scale_bytes = rows * o.channel_scale_bytes;
      m.bytes = n + m.scale_bytes;
      break;
    case WeightFormat::gptq: {
      // qweight int32 [cols/32*bits, rows]; qzeros int32 [groups, rows*bits/32];
      // scales fp16 [groups, rows]; g_idx int32 [cols] (written even without act-order).
      const std::int64_t group = o.group_size < 0 ? cols : o.group_size;
      const std::int64_t groups = ceil_div(cols, group);
      const std::int64_t qweight = ceil_div(cols, 32) * o.bits * rows * 4;
      const std::int64_t qzeros = groups * ceil_div(rows * o.bits, 32) * 4;
      const std::int64_t scales = groups * rows * 2;
      const std::int64_t g_idx = cols * 4;
      const std::int64_t zero_bias = o.gptq_zero_bias ? rows * 2 : 0;
      m.scale_bytes = qzeros + scales + g_idx + zero_bias;
      m.bytes = qweight + m.scale_bytes;
      break;
    }
    case WeightFormat::awq: {
      // qweight int32 [cols, rows/8]; qzeros int32 [groups, rows/8]; scales fp16 [groups, rows].
      const std::int64_t group = o.group_size < 0 ? cols : o.group_size;
      const std::int64_t groups = ceil_div(cols, group);
      const std::int64_t packed_rows = ceil_div(rows * o.bits, 32);
      m.scale_bytes = groups * packed_rows * 4 + groups * rows * 2;
      m.bytes = cols * packed_rows * 4 + m.scale_bytes;
      break;
    }
    case WeightFormat::bnb_nf4:
    case WeightFormat::bnb_fp4: {
      // Blocks run over the flattened tensor. quant_map: 16 fp32 codes. Double quant stores
      // absmax as uint8 plus fp32 absmax per 256 of them and the 256-entry fp32 code.
      const std::int64_t blocks = ceil_div(n, o.bnb_blocksize);
      const std::int64_t quant_map = 16 * 4;
      m.scale_bytes =
          o.double_quant ? blocks + ceil_div(blocks, 256) * 4 + 256 * 4 + quant_map : blocks * 4 + quant_map;
      m.bytes = (n + 1) / 2 + m.scale_bytes;
      break;
    }
    case WeightFormat::mxfp4: {
      // Per row: ceil(cols/32) blocks of 16 bytes of E2M1 pairs and one E8M0 byte.
      const std::int64_t blocks = rows * ceil_div(cols, 32);
      m.scale_bytes = blocks;
      m.bytes = blocks * 16 + m.scale_bytes;
      break;
    }
    case WeightFormat::nvfp4: {
      // Per row: ceil(cols/16) blocks of 8 bytes and one E4M3 byte; one fp32 global scale.
      const std::int64_t blocks = rows * ceil_div(cols, 16);
      m.scale_bytes = blocks + 4;
      m.bytes = blocks * 8 + m.scale_bytes;
      break;
    }
    default:
      throw std::invalid_argument("not a packed weight format");
  }
  return m;
}

void finish(WeightBytes& r) {
  r.total_bytes = r.quantized_bytes + r.high_precision_bytes;
  const std::int64_t params = r.quantized_params + r.high_precision_params;
  r.effective_bits_per_weight =
      params > 0 ? static_cast<double>(r.total_bytes) * 8.0 / static_cast<double>(params) : 0.0;
}

WeightBytes float_bytes(std::span<const WeightTensor> tensors, std::int64_t bytes_per_param) {
  WeightBytes r;
  for (const WeightTensor& t : tensors) r.quantized_params += t.parameters();
  r.quantized_bytes = r.quantized_params * bytes_per_param;
  finish(r);
  return r;
}

WeightBytes gguf_bytes(std::span<const WeightTensor> tensors, WeightFormat format, const WeightFormatOptions& options) {
  const std::vector<GgufType> types = gguf_tensor_types(tensors, format, options);
  WeightBytes r;
  std::array<std::int64_t, kGgufTypeCount> tensors_of_type{};
  std::int64_t fallbacks = 0;  // matrices left F16
  std::int64_t narrow = 0;     // matrices a 256-wide preset had to store in 32-wide blocks
  const bool wide_preset = format != WeightFormat::gguf_q8_0 && format != WeightFormat::gguf_q5_0 &&
                           format != WeightFormat::gguf_q4_0 && format != WeightFormat::gguf_mxfp4_moe;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const WeightTensor& t = tensors[i];
    const GgufTypeInfo& info = gguf_type_info(types[i]);
    ++tensors_of_type[static_cast<std::size_t>(types[i])];
    const std::int64_t rows = t.rows * t.copies;
    const std::int64_t row_bytes = t.columns / info.block_elements * info.block_bytes;
    const std::int64_t bytes = rows * row_bytes;
    if (types[i] == GgufType::f32 || types[i] == GgufType::f16) {
      r.high_precision_params += t.parameters();
      r.high_precision_bytes += bytes;
      const bool kept_by_rule = t.role == TensorRole::router || t.role == TensorRole::position_embedding ||
                                t.role == TensorRole::relative_position_bias || t.role == TensorRole::ssm_convolution;
      if (t.is_matrix() && !kept_by_rule) ++fallbacks;
    } else {
      r.quantized_params += t.parameters();
      r.quantized_bytes += bytes;
      if (wide_preset && t.columns % 256 != 0) ++narrow;
      const std::int64_t payload = info.block_elements * info.element_bits / 8;
      r.scale_bytes += rows * (t.columns / info.block_elements) * (info.block_bytes - payload);
    }
  }
  std::string mix = "GGUF tensor types:";
  for (std::size_t k = 0; k < tensors_of_type.size(); ++k) {
    if (tensors_of_type[k] == 0) continue;
    mix += std::string(" ") + gguf_type_info(static_cast<GgufType>(k)).name + " x" + std::to_string(tensors_of_type[k]);
  }
  r.notes.push_back(mix);
  r.notes.push_back(
      "norms, biases, router and position embeddings are stored F32 as convert_hf_to_gguf "
      "writes them");
  if (narrow > 0) {
    r.notes.push_back(std::to_string(narrow) +
                      " matrices have rows that are not a multiple of 256 and use 32-wide blocks");
  }
  if (fallbacks > 0) {
    r.notes.push_back(std::to_string(fallbacks) + " matrices have rows no quantized block fits and stay F16");
  }
  r.notes.push_back("GGUF metadata (vocabulary, key/values, alignment) is not counted");
  finish(r);
  return r;
}

}  // namespace

WeightFormatOptions inventory_options(std::span<const WeightTensor> tensors, WeightFormat format,
                                      const WeightFormatOptions& options) {
  // gpt-oss keeps attention, router, embeddings and lm_head in bf16 (config.json
  // quantization_config.modules_to_not_convert); its MXFP4 covers the experts alone.
  WeightFormatOptions out = options;
  if (format == WeightFormat::mxfp4 &&
      std::any_of(tensors.begin(), tensors.end(), [](const WeightTensor& t) { return is_routed_expert(t.role); }))
    out.scope = QuantScope::routed_experts_only;
  return out;
}

WeightBytes weight_bytes(std::span<const WeightTensor> tensors, WeightFormat format,
                         const WeightFormatOptions& options) {
  switch (format) {
    case WeightFormat::fp32:
      return float_bytes(tensors, 4);
    case WeightFormat::bf16:
    case WeightFormat::fp16:
      return float_bytes(tensors, 2);
    default:
      break;
  }
  if (is_gguf_preset(format)) return gguf_bytes(tensors, format, options);
  check_options(format, options);

  const bool experts_only = inventory_options(tensors, format, options).scope == QuantScope::routed_experts_only;
  // transformers' bitsandbytes integration converts every nn.Linear but the output head,
  // the MoE router included; GPTQ, AWQ, FP8 and NVFP4 tools leave the router alone.
  const bool router_quantized =
      format == WeightFormat::bnb_nf4 || format == WeightFormat::bnb_fp4 || format == WeightFormat::int8_per_channel;

  const bool pad_experts =
      format == WeightFormat::mxfp4 && (options.expert_hidden_multiple > 1 || options.expert_intermediate_multiple > 1);
  WeightBytes r;
  Kept kept;
  std::int64_t padding_bytes = 0;
  for (const WeightTensor& t : tensors) {
    bool quantize = t.is_matrix() && (is_projection(t.role) || (router_quantized && t.role == TensorRole::router));
    if (options.quantize_output_head && (format == WeightFormat::bnb_nf4 || format == WeightFormat::bnb_fp4) &&
        t.is_matrix() && t.role == TensorRole::lm_head)
      quantize = true;
    if (experts_only) quantize = t.is_matrix() && is_routed_expert(t.role);
    if (quantize) {
      const WeightTensor stored = pad_experts && is_routed_expert(t.role) ? padded_expert(t, options) : t;
      const MatrixBytes m = quantized_matrix(format, stored.rows, stored.columns, options);
      if (stored.rows != t.rows || stored.columns != t.columns)
        padding_bytes += (m.bytes - quantized_matrix(format, t.rows, t.columns, options).bytes) * t.copies;
      r.quantized_params += t.parameters();
      r.quantized_bytes += m.bytes * t.copies;
      r.scale_bytes += m.scale_bytes * t.copies;
    } else {
      r.high_precision_params += t.parameters();
      r.high_precision_bytes += t.parameters() * 2;
      kept.add(t.role, t.parameters());
    }
  }
  if (!kept.by_label.empty()) r.notes.push_back(kept.describe("16-bit"));
  if (padding_bytes > 0)
    r.notes.push_back("experts padded for the engine's MoE kernel (hidden to a multiple of " +
                      std::to_string(options.expert_hidden_multiple) + ", intermediate per rank to " +
                      std::to_string(options.expert_intermediate_multiple) + "): " + std::to_string(padding_bytes) +
                      " B of padding; their bf16 biases counted unpadded");
  switch (format) {
    case WeightFormat::gptq:
      r.notes.push_back(
          "g_idx (int32 per input feature) counted: AutoGPTQ stores it with or "
          "without act-order");
      if (options.gptq_zero_bias) {
        r.notes.push_back("includes the fp16 zero bias older AutoGPTQ wrote for each layer");
      }
      break;
    case WeightFormat::fp8_e4m3_per_tensor:
    case WeightFormat::nvfp4:
      r.notes.push_back("static activation scales (one fp32 per matrix) are not counted");
      break;
    case WeightFormat::bnb_nf4:
    case WeightFormat::bnb_fp4:
      r.notes.push_back("the packed quant-state JSON (about 200 bytes per matrix) is not counted");
      break;
    default:
      break;
  }
  finish(r);
  return r;
}

}  // namespace fitcheck
