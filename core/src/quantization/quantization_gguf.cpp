// SPDX-License-Identifier: MIT
// GGUF block layouts and the per-tensor type each llama-quantize preset picks.
//
// Block sizes: ggml/src/ggml-common.h (llama.cpp 01243c58), the static_asserts next to each
// block_* struct. Type selection: src/llama-quant.cpp (llama.cpp 007dbbf3),
// llama_tensor_get_type_impl and tensor_type_fallback. Which tensors convert_hf_to_gguf.py
// writes as F32 (1-D tensors, *_norm, ffn_gate_inp, position embeddings, non-".weight"
// tensors): the "Some tensor types are always in float32" block of that script.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "fitcheck/quantization.hpp"

namespace fitcheck {
namespace {

// element_bits: the bits of one stored value; the rest of block_bytes is block scales.
constexpr std::array<GgufTypeInfo, kGgufTypeCount> kGgufTypes{{
    {GgufType::f32, "F32", 1, 4, 32},
    {GgufType::f16, "F16", 1, 2, 16},
    {GgufType::q4_0, "Q4_0", 32, 18, 4},        // fp16 d + 16 B nibbles
    {GgufType::q4_1, "Q4_1", 32, 20, 4},        // fp16 d, m + 16 B
    {GgufType::q5_0, "Q5_0", 32, 22, 5},        // fp16 d + 4 B high bits + 16 B
    {GgufType::q5_1, "Q5_1", 32, 24, 5},        // fp16 d, m + 4 B + 16 B
    {GgufType::q8_0, "Q8_0", 32, 34, 8},        // fp16 d + 32 int8
    {GgufType::q2_k, "Q2_K", 256, 84, 2},       // 16 B scales + 64 B quants + fp16 d, dmin
    {GgufType::q3_k, "Q3_K", 256, 110, 3},      // 32 B hmask + 64 B + 12 B scales + fp16 d
    {GgufType::q4_k, "Q4_K", 256, 144, 4},      // fp16 d, dmin + 12 B scales + 128 B
    {GgufType::q5_k, "Q5_K", 256, 176, 5},      // fp16 d, dmin + 12 B + 32 B qh + 128 B
    {GgufType::q6_k, "Q6_K", 256, 210, 6},      // 128 B ql + 64 B qh + 16 B scales + fp16 d
    {GgufType::iq4_nl, "IQ4_NL", 32, 18, 4},    // fp16 d + 16 B
    {GgufType::iq4_xs, "IQ4_XS", 256, 136, 4},  // fp16 d + 2 B scales_h + 4 B scales_l + 128 B
    {GgufType::mxfp4, "MXFP4", 32, 17, 4},      // E8M0 scale + 16 B of E2M1 pairs
}};

// Broad tensor kinds the selection rules distinguish (llama.cpp matches them by GGUF name).
enum class Kind : std::uint8_t {
  token_embd,
  output,
  attn_v,
  attn_k,
  attn_q,
  attn_output,
  ffn_down,
  other_matrix,
  keep_f32,
  keep_f16,
};

Kind kind_of(const WeightTensor& t, bool tied_embedding) {
  switch (t.role) {
    case TensorRole::token_embedding:
      // A tied model has no output.weight; its token_embd gets the output tensor's rules.
      return tied_embedding ? Kind::output : Kind::token_embd;
    case TensorRole::lm_head:
      return Kind::output;
    case TensorRole::position_embedding:
    case TensorRole::router:
    case TensorRole::norm:
    case TensorRole::bias:
    case TensorRole::attention_sink:
    case TensorRole::ssm_convolution:  // llama.cpp keeps ssm_conv1d, A and D in f32
    case TensorRole::ssm_parameter:
      return Kind::keep_f32;
    case TensorRole::relative_position_bias:
      return Kind::keep_f16;  // never quantized, 2-D
    default:
      break;
  }
  if (!t.is_matrix()) return Kind::keep_f32;
  switch (t.role) {
    case TensorRole::attention_value:
    case TensorRole::attention_kv_up:
      return Kind::attn_v;  // attn_v / attn_kv_b
    case TensorRole::attention_key:
      return Kind::attn_k;
    case TensorRole::attention_query:
      return Kind::attn_q;
    case TensorRole::attention_output:
      return Kind::attn_output;
    case TensorRole::mlp_down:
    case TensorRole::expert_down:
    case TensorRole::shared_expert_down:
      return Kind::ffn_down;
    default:
      return Kind::other_matrix;
  }
}

GgufType base_type(WeightFormat f) {
  switch (f) {
    case WeightFormat::gguf_q8_0:
      return GgufType::q8_0;
    case WeightFormat::gguf_q6_k:
      return GgufType::q6_k;
    case WeightFormat::gguf_q5_k_m:
    case WeightFormat::gguf_q5_k_s:
      return GgufType::q5_k;
    case WeightFormat::gguf_q5_0:
      return GgufType::q5_0;
    case WeightFormat::gguf_q4_k_m:
    case WeightFormat::gguf_q4_k_s:
      return GgufType::q4_k;
    case WeightFormat::gguf_q4_0:
      return GgufType::q4_0;
    case WeightFormat::gguf_q3_k_l:
    case WeightFormat::gguf_q3_k_m:
    case WeightFormat::gguf_q3_k_s:
      return GgufType::q3_k;
    case WeightFormat::gguf_q2_k:
      return GgufType::q2_k;
    case WeightFormat::gguf_iq4_xs:
      return GgufType::iq4_xs;
    case WeightFormat::gguf_mxfp4_moe:
      return GgufType::q8_0;  // every matrix but the routed experts
    default:
      throw std::invalid_argument("not a GGUF preset");
  }
}

// Facts about the whole model that the rules read.
struct ModelFacts {
  int n_layer = 0;         // layers in the stack
  int n_attn_v = 0;        // attn_v-like tensors in the file
  std::int64_t n_gqa = 1;  // query heads per key/value head
  std::int64_t n_expert = 0;
  bool is_70b = false;
};

ModelFacts model_facts(std::span<const WeightTensor> tensors, bool tied) {
  ModelFacts m;
  std::int64_t q_rows = 0, v_rows = 0;
  for (const WeightTensor& t : tensors) {
    if (t.layer >= 0) m.n_layer = std::max(m.n_layer, t.layer + 1);
    if (kind_of(t, tied) == Kind::attn_v) ++m.n_attn_v;
    if (is_routed_expert(t.role)) {
      m.n_expert = std::max(m.n_expert, t.copies);
    }
    if (q_rows == 0 && t.role == TensorRole::attention_query) q_rows = t.rows;
    if (v_rows == 0 && t.role == TensorRole::attention_value) v_rows = t.rows;
  }
  // Equal query and value head widths (true outside MLA), so row ratio == head ratio.
  if (q_rows > 0 && v_rows > 0 && q_rows >= v_rows) m.n_gqa = q_rows / v_rows;
  // llama.cpp keys one rule on its LLM_TYPE_70B label, which the Llama loader gives 80-layer
  // GQA stacks; the architecture is not in the inventory, so this is the stand-in.
  m.is_70b = m.n_layer == 80 && m.n_gqa > 1;
  return m;
}

// Ends of the stack plus every third layer between them get more bits in the _M presets.
bool use_more_bits(int i_layer, int n_layer) {
  return i_layer < n_layer / 8 || i_layer >= 7 * n_layer / 8 || (i_layer - n_layer / 8) % 3 == 2;
}

using WF = WeightFormat;

GgufType output_type(GgufType base, std::int64_t columns) {
  if (columns % gguf_type_info(base).block_elements != 0) return GgufType::q8_0;
  return base == GgufType::q8_0 ? GgufType::q8_0 : GgufType::q6_k;
}

GgufType attn_v_type(WF f, GgufType t, int ordinal, const ModelFacts& m) {
  switch (f) {
    case WF::gguf_q2_k:
      t = m.n_gqa >= 4 ? GgufType::q4_k : GgufType::q3_k;
      break;
    case WF::gguf_q3_k_m:
      t = ordinal < 2 ? GgufType::q5_k : GgufType::q4_k;
      break;
    case WF::gguf_q3_k_l:
      t = GgufType::q5_k;
      break;
    case WF::gguf_iq4_xs:
      if (m.n_gqa >= 4) t = GgufType::q5_k;
      break;
    case WF::gguf_q4_k_m:
    case WF::gguf_q5_k_m:
      if (use_more_bits(ordinal, m.n_attn_v)) t = GgufType::q6_k;
      break;
    case WF::gguf_q4_k_s:
      if (ordinal < 4) t = GgufType::q5_k;
      break;
    default:
      break;
  }
  // 70B: attn_v is 8x smaller than attn_q under GQA, so the bump is cheap.
  if (m.is_70b && (t == GgufType::q3_k || t == GgufType::q4_k)) t = GgufType::q5_k;
  if (m.n_expert == 8) t = GgufType::q8_0;  // Mixtral-style 8-expert models
  return t;
}

GgufType ffn_down_type(WF f, GgufType t, int i, int n, bool imatrix) {
  switch (f) {
    case WF::gguf_q2_k:
      return GgufType::q3_k;
    case WF::gguf_q3_k_m:
      return i < n / 16 ? GgufType::q5_k : GgufType::q4_k;
    case WF::gguf_q3_k_l:
      return GgufType::q5_k;
    case WF::gguf_q4_k_m:
    case WF::gguf_q5_k_m:
      return use_more_bits(i, n) ? GgufType::q6_k : t;
    case WF::gguf_iq4_xs:
      return i < n / 8 && !imatrix ? GgufType::q5_k : t;
    case WF::gguf_q4_k_s:
      return i < n / 8 ? GgufType::q5_k : t;
    case WF::gguf_q4_0:
      return imatrix && i < n / 8 ? GgufType::q4_1 : t;
    case WF::gguf_q5_0:
      return imatrix && i < n / 8 ? GgufType::q5_1 : t;
    default:
      return t;
  }
}

GgufType attn_output_type(WF f, GgufType t, const ModelFacts& m) {
  if (m.n_expert == 8) {
    const bool bump = f == WF::gguf_q2_k || f == WF::gguf_q3_k_s || f == WF::gguf_q3_k_m || f == WF::gguf_q4_k_s ||
                      f == WF::gguf_q4_k_m || f == WF::gguf_iq4_xs;
    return bump ? GgufType::q5_k : t;
  }
  switch (f) {
    case WF::gguf_q2_k:
      return GgufType::q3_k;
    case WF::gguf_q3_k_m:
      return GgufType::q4_k;
    case WF::gguf_q3_k_l:
      return GgufType::q5_k;
    default:
      return t;
  }
}

// A row must hold whole blocks; 256-wide types step down to a 32-wide relative, then F16.
GgufType fit_row(GgufType t, std::int64_t columns) {
  if (columns % gguf_type_info(t).block_elements == 0) return t;
  switch (t) {
    case GgufType::q2_k:
    case GgufType::q3_k:
      t = GgufType::q4_0;
      break;
    case GgufType::q4_k:
      t = GgufType::q5_0;
      break;
    case GgufType::q5_k:
      t = GgufType::q5_1;
      break;
    case GgufType::q6_k:
      t = GgufType::q8_0;
      break;
    case GgufType::iq4_xs:
      t = GgufType::iq4_nl;
      break;
    default:
      return GgufType::f16;  // llama-quantize stops here; F16 is what it would keep
  }
  return columns % gguf_type_info(t).block_elements == 0 ? t : GgufType::f16;
}

}  // namespace

const GgufTypeInfo& gguf_type_info(GgufType type) {
  for (const GgufTypeInfo& info : kGgufTypes) {
    if (info.type == type) return info;
  }
  throw std::invalid_argument("unknown GGUF type");
}

std::optional<GgufType> gguf_type_named(std::string_view name) {
  for (const GgufTypeInfo& info : kGgufTypes)
    if (name == info.name) return info.type;
  return std::nullopt;
}

std::vector<GgufType> gguf_tensor_types(std::span<const WeightTensor> tensors, WeightFormat format,
                                        const WeightFormatOptions& options) {
  const GgufType base = base_type(format);
  const bool tied =
      std::none_of(tensors.begin(), tensors.end(), [](const WeightTensor& t) { return t.role == TensorRole::lm_head; });
  const ModelFacts facts = model_facts(tensors, tied);

  // llama.cpp walks tensors sorted by layer; the attn_v rules count in that order.
  std::vector<std::size_t> v_order;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (kind_of(tensors[i], tied) == Kind::attn_v) v_order.push_back(i);
  }
  std::stable_sort(v_order.begin(), v_order.end(),
                   [&](std::size_t a, std::size_t b) { return tensors[a].layer < tensors[b].layer; });
  std::vector<int> v_ordinal(tensors.size(), 0);
  for (std::size_t k = 0; k < v_order.size(); ++k) v_ordinal[v_order[k]] = static_cast<int>(k);

  std::vector<GgufType> types;
  types.reserve(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const WeightTensor& t = tensors[i];
    GgufType type = base;
    const Kind kind = kind_of(t, tied);
    // MXFP4_MOE (llama_tensor_get_type_impl): the output and tied embeddings Q8_0, then "MoE tensors
    // -> MXFP4, other tensors -> Q8_0" by the tensor's third dimension, which only routed experts have.
    if (format == WeightFormat::gguf_mxfp4_moe && kind != Kind::keep_f32 && kind != Kind::keep_f16) {
      types.push_back(fit_row(is_routed_expert(t.role) ? GgufType::mxfp4 : GgufType::q8_0, t.columns));
      continue;
    }
    switch (kind) {
      case Kind::keep_f32:
        types.push_back(GgufType::f32);
        continue;
      case Kind::keep_f16:
        types.push_back(GgufType::f16);
        continue;
      case Kind::output:
        type = output_type(base, t.columns);
        break;
      case Kind::token_embd:
        break;
      case Kind::attn_v:
        type = attn_v_type(format, base, v_ordinal[i], facts);
        break;
      case Kind::attn_k:
        if (facts.n_expert == 8) type = GgufType::q8_0;
        break;
      case Kind::attn_q:
        break;
      case Kind::attn_output:
        type = attn_output_type(format, base, facts);
        break;
      case Kind::ffn_down:
        type = ffn_down_type(format, base, std::max(t.layer, 0), facts.n_layer, options.gguf_imatrix);
        break;
      case Kind::other_matrix:
        break;
    }
    types.push_back(fit_row(type, t.columns));
  }
  return types;
}

}  // namespace fitcheck
