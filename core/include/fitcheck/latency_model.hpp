// SPDX-License-Identifier: MIT
// The prepared form of a model for latency: its operations grouped by layer kind with their weights
// in the chosen format (prepare_latency_model(), once per model and format), and the rates one
// evaluation divides by (latency_rates(), once per accelerator and layout). Formulas: docs/latency.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fitcheck/expert_dispatch.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/latency_assumptions.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

enum class LatencyOp : std::uint8_t {
  embedding,       // token (and learned position) rows read
  qkv_projection,  // q, k, v (MLA: q down/up and the kv down projection)
  attention,       // scores, softmax, weighted values (MLA: with the absorbed up-projections)
  output_projection,
  mlp,  // dense MLP, gated or not
  moe_router,
  moe_experts,  // routed experts
  moe_shared_experts,
  norms,  // hidden-size norms of every layer and the final norm
  lm_head,
  tp_collectives,  // tensor-parallel all-reduces (and the vocabulary-parallel gathers)
  pp_transfer,     // pipeline point-to-point sends between stages
  ep_all_to_all,   // expert-parallel dispatch and combine
  sparse_indexer,  // DeepSeek-V3.2's lightning indexer: scores every cached key, picks the top-k
  count_
};
inline constexpr std::size_t kLatencyOpCount = static_cast<std::size_t>(LatencyOp::count_);
const char* latency_op_name(LatencyOp op);  // "qkv_projection", ...

enum class LatencyBound : std::uint8_t { none, compute, memory, interconnect };
const char* latency_bound_name(LatencyBound bound);  // "compute", "memory", "interconnect", "none"

// What the format's weight products multiply in; the attention core, router and lm_head always
// run in the 16-bit activation type.
enum class MatmulPrecision : std::uint8_t { activation_16bit, fp32, fp8, fp4 };

// Weights of one operation of one layer, before any split: matrix parameters (2 FLOPs each per
// token) and the bytes the format stores for them (scales included).
struct OpWeights {
  double matrix_params = 0;
  double bytes = 0;
};

// One layer kind as the evaluate step needs it. Widths in elements, weights per layer, unsharded.
struct LatencyLayerKind {
  std::int64_t layers = 0;
  bool encoder = false;
  bool parallel_attention_mlp = false;
  bool cross_attention = false;
  // Llama 3.2 Vision's cross-attention layers: no self-attention; their cross-attention source is fixed per
  // sequence (cross_source_per_sequence, as Whisper's), the prefill projects its keys and values once.
  bool self_attention = true;
  bool cross_source_per_sequence = false;
  bool multi_latent = false;
  bool moe = false;
  // sliding_window: the keys one query attends at most (a sliding window, or DeepSeek-V3.2's
  // index_topk: its sparse attention reads only the keys the indexer picks); 0: all of them.
  double heads = 0, kv_heads = 0, qk_head_dim = 0, v_head_dim = 0, sliding_window = 0;
  // DeepSeek-V3.2's lightning indexer (0 heads: none): its FP8 key per cached token, kept apart
  // from kv_cache_bytes_per_token because the indexer reads every key while attention reads top-k.
  double index_heads = 0, index_head_dim = 0, index_key_bytes_per_token = 0;
  double q_lora_rank = 0, kv_lora_rank = 0, rope_head_dim = 0, nope_head_dim = 0;
  double mlp_width = 0;     // dense intermediate size
  bool gated_mlp = false;   // SwiGLU/GeGLU: the activation multiplies two branches (dense or expert MLP)
  double shared_width = 0;  // all shared experts together
  double expert_width = 0;  // one routed expert
  double experts = 0, experts_per_token = 0;
  double hidden_norms = 0;
  // Mamba-2 mixer (0 heads: none). Its in_proj and conv go with `query`, out_proj with `output`,
  // and its scan is timed as the layer's attention operation (ssm_mixer in latency_ops.hpp).
  double ssm_heads = 0, ssm_head_dim = 0, ssm_state_size = 0, ssm_groups = 0, ssm_conv_kernel = 0;
  OpWeights query;                 // q (MLA: q_b) and the attention biases: split by tp
  OpWeights key_value;             // k and v: split by key/value heads per rank
  OpWeights attention_replicated;  // MLA q_a / kv_a, sinks, position bias: on every rank
  OpWeights kv_up;                 // MLA kv_b: split by tp
  OpWeights output;                // split by tp
  OpWeights mlp;                   // split by tp
  OpWeights router;                // on every rank
  OpWeights expert;                // ONE routed expert
  OpWeights shared;                // shared experts: split by tp
  OpWeights norms;                 // norm weights: on every rank
  // kv_cache_bytes_per_token_per_layer() for each KvCacheDtype (self-attention share only; the
  // indexer's key apart, in index_key_bytes_per_token).
  std::array<double, 6> kv_cache_bytes_per_token{};
  // The cross-attention keys and values of one source token when the source is fixed per sequence
  // (cross_kv_bytes_per_source_token_per_layer()); for T5's per-input-token source, the self share above.
  std::array<double, 6> cross_kv_bytes_per_source_token{};
};

struct PreparedLatencyModel {
  WeightFormat weight_format = WeightFormat::bf16;
  MatmulPrecision matmul_precision = MatmulPrecision::activation_16bit;
  double hidden = 0, vocab = 0;
  double embedding_row_bytes = 0;  // one token row of the stored embedding (plus position row)
  double embedding_bytes = 0;      // the whole token embedding as stored
  OpWeights lm_head;               // the tied embedding when tie_word_embeddings
  bool tied_embeddings = false;
  double final_norms = 0;
  bool rms_norm = true;  // RMSNorm (decomposed into several ops in eager PyTorch) rather than LayerNorm
  bool rotary = true;    // rotary position embedding applied to queries and keys in every layer
  double final_norm_bytes = 0;
  std::int64_t layers = 0;
  // Whisper: the encoder frames its decoder's cross-attention attends to (AudioEncoderStem); 0 otherwise,
  // when a fixed cross-attention source is the workload's cross_attention_tokens (Llama 3.2 Vision's images).
  std::int64_t encoder_frames = 0;
  std::vector<LatencyLayerKind> kinds;
};

// Groups the inventory (weight_tensors(model)) by layer kind and operation and sizes each group in
// `format` with weight_bytes() (GGUF: the per-tensor types of gguf_tensor_types(), averaged over
// the layers of a kind). Throws std::invalid_argument for an empty model or invalid options.
PreparedLatencyModel prepare_latency_model(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                           WeightFormat format, const WeightFormatOptions& options = {});

// The rates one evaluation divides by, efficiencies applied.
struct LatencyRates {
  ComputeDtype matmul_dtype = ComputeDtype::bf16;      // the format's weight products
  ComputeDtype activation_dtype = ComputeDtype::bf16;  // attention core, router, lm_head
  double matmul_flops_per_second = 0;
  double activation_flops_per_second = 0;
  double vector_flops_per_second = 0;              // elementwise work (norms): fp32 vector units
  ComputeDtype indexer_dtype = ComputeDtype::fp8;  // the lightning indexer's scores (16-bit where no FP8)
  double indexer_flops_per_second = 0;
  double hbm_bytes_per_second = 0;
  double tp_link_bytes_per_second = 0, ep_link_bytes_per_second = 0, pp_link_bytes_per_second = 0;
  double tp_hop_seconds = 0, ep_hop_seconds = 0, pp_hop_seconds = 0;
  double collective_base_seconds = 0;
  // Expert-parallel exchange: ep_link_bytes_per_second is the NIC's (x efficiency), copies to ranks
  // of the same NVLink fabric (ep_ranks_per_fabric of them, the sender among them) move at
  // ep_nvlink_bytes_per_second at the same time. dispatch_fp8: dispatched tokens travel in FP8
  // (kFp8DispatchBytesPerElement; DeepEP on a chip with FP8), else in the activation type, as the
  // combine returns them.
  double ep_nvlink_bytes_per_second = 0;
  double ep_ranks_per_fabric = 1;
  bool dispatch_fp8 = false;
  MoeDispatcher moe_dispatcher = MoeDispatcher::all_to_all;
  // Decode attention reads the cache once per query head (LatencyAssumptions::repeat_kv_per_query_head).
  bool repeat_kv_per_query_head = false;
  bool kv_cache_concatenated = false;  // LatencyAssumptions::kv_cache_concatenated
  bool kv_cache_preallocated = false;  // LatencyAssumptions::kv_cache_preallocated
  bool gemm_row_tiles = false;         // LatencyAssumptions::gemm_row_tiles
};
// Throws std::invalid_argument when the chip has no rate for the products (no bf16/fp16 rate;
// no fp32 rate for fp32 weights).
LatencyRates latency_rates(const PreparedLatencyModel& model, const Accelerator& accelerator,
                           const ParallelLayout& layout, const LatencyAssumptions& assumptions);

}  // namespace fitcheck
