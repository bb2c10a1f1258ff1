// SPDX-License-Identifier: MIT
// Inference latency, throughput and cost from a roofline per operation: each operation of a layer
// takes max(FLOPs / (peak x efficiency), bytes / (bandwidth x efficiency)); collectives take a ring
// model with a latency floor. Two steps: prepare_latency_model() once per model and weight format
// (shapes, storage bytes per operation, all vector work), then per workload either
// estimate_latency_totals() (the planner's inner loop: under a microsecond in WebAssembly) or
// estimate_latency() (the same formulas with a per-operation breakdown); both do arithmetic only,
// no allocation and no strings. explain_latency() adds the formula strings for reports.
// Formulas, default efficiencies and their sources: docs/latency.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/expert_dispatch.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

// User-settable efficiencies and link figures. Defaults and sources: docs/latency.md.
struct LatencyAssumptions {
  double flops_efficiency = 0.7;  // share of dense peak a matrix product reaches
  // FP8 products reach this share of flops_efficiency (the chip's measured fp8 over bf16 achievable
  // matmul share, Accelerator::mamf_share_fp8 / mamf_share_bf16, set by the engine's kernel
  // efficiency); 1: the same share as 16-bit products.
  double fp8_flops_share = 1.0;
  double hbm_efficiency = 0.8;           // share of peak memory bandwidth a streaming read reaches
  double interconnect_efficiency = 0.7;  // share of the per-direction link a ring collective reaches
  // NCCL's latency model (NVIDIA/nccl@b6475625 src/graph/tuning.cc): ring LL base latency per
  // collective, and per-step hardware latency over NVLink (PCIe: 1.0 us) and the network.
  double collective_base_latency_seconds = 6.6e-6;
  double link_hop_latency_seconds = 0.6e-6;
  double network_hop_latency_seconds = 2.7e-6;
  // Bandwidth one GPU has to other nodes, one direction: DGX H100 has one 400 Gb/s NIC per GPU.
  double inter_node_bytes_per_second_per_gpu = 50e9;
  // fp8 weight formats (fp8-per-tensor, fp8-block128) quantize activations too and multiply in fp8
  // where the chip has an fp8 path (vLLM/TensorRT-LLM W8A8); false: weight-only, bf16 products.
  bool fp8_activations = true;
  double price_per_gpu_hour_usd = -1;  // < 0: the accelerator's editable default
  // A serving engine's fixed costs per forward pass (engine profiles, docs/engines-serving.md); all
  // 0 without an engine. Decode steps of at most cuda_graph_max_batch sequences replay a captured
  // CUDA graph and pay no launches; prefill steps and larger decodes launch every layer's kernels.
  double step_overhead_seconds = 0;     // CPU scheduling, input preparation, sampling
  double launch_seconds_per_layer = 0;  // kernel launches of one layer outside a graph
  double kernel_seconds_per_layer = 0;  // small kernels of one layer, in a graph or not
  std::int64_t cuda_graph_max_batch = 0;
  // Decode attention without GQA-aware kernels (HF transformers' repeat_kv before SDPA): the
  // grouped K/V are copied out once per query head and read from the copy.
  bool repeat_kv_per_query_head = false;
  // The self-attention cache grows by concatenation (HF transformers' DynamicCache): each decode
  // step reads every layer's cache and writes it again one token longer.
  bool kv_cache_concatenated = false;
  // The self-attention cache is preallocated for prompt + generated tokens (HF transformers'
  // StaticCache): each decode step's attention reads every preallocated position under its mask.
  bool kv_cache_preallocated = false;
  // Weight products computed in CUTLASS tiles of 64 rows (at most 128 rows) or 128 rows (more): the
  // rows are padded to the tile and the padding is computed (gemm_tile_rows()). Off without an engine.
  bool gemm_row_tiles = false;
  // How a MoE layer's tokens reach expert-parallel ranks beyond tensor parallelism (docs/latency.md,
  // "Expert-parallel dispatch"): all_to_all, a copy per (token, expert) pair in the activation type;
  // deepep, DeepEP as SGLang's --moe-a2a-backend deepep runs it (deepep_mode auto): its normal
  // kernels for passes with prompt tokens (a copy per destination rank, one RDMA copy per destination
  // node), its low-latency kernels for decode-only passes (a copy per pair), FP8 dispatch and
  // 16-bit combine, at kDeepEpLinkShare of the links instead of interconnect_efficiency.
  MoeDispatcher moe_dispatcher = MoeDispatcher::all_to_all;
};

// The rows a tiled weight product computes for `rows` token rows: vLLM's Hopper FP8 CUTLASS
// dispatch (vllm-project/vllm@44d638a89638f617e8315b25ad699a5a72e845b9
// csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh) runs M <= 128 in 64-row
// tiles (TileShape 64x64 or 64x128) and larger M in 128-row tiles (128x128); a partial tile costs a
// whole one. 0 for 0 rows.
double gemm_tile_rows(double rows);

// The fixed time of one forward pass under `assumptions`: the step overhead and `layers` layers'
// small kernels, plus their launches unless the pass is a decode of at most cuda_graph_max_batch
// sequences.
double fixed_step_seconds(const LatencyAssumptions& assumptions, double layers, bool prefill, double decode_sequences);

// The assumptions with the per-step link latency of the accelerator's node link (PCIe or NVLink).
LatencyAssumptions default_latency_assumptions(const Accelerator& accelerator);

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

// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via
// Speculative Decoding", ICML 2023): a draft proposes `draft_tokens` tokens one at a time, the
// target verifies them in one pass of draft_tokens + 1 tokens per sequence and keeps the accepted
// prefix plus one of its own. With each draft token accepted independently with probability
// `acceptance_rate`, a step yields (1 - a^(k+1)) / (1 - a) tokens (their eq. 1). The draft costs
// `draft_layers` of the target's decoder layers per proposed token (EAGLE and DeepSeek-V3's MTP
// module: 1 layer; a separate draft model: its cost in target layers).
struct SpeculativeDecoding {
  std::int64_t draft_tokens = 0;  // 0: off
  double acceptance_rate = 0;
  double draft_layers = 1;
};
double expected_tokens_per_step(const SpeculativeDecoding& speculative);  // 1 when off

struct LatencyRequest {
  std::int64_t prompt_tokens = 512;     // per sequence
  std::int64_t generated_tokens = 128;  // per sequence, the first one produced by prefill
  // Prefix caching: the first shared_prefix_tokens of every prompt are the same (a system prompt);
  // one sequence computes them, the others find them cached and prefill only the rest.
  std::int64_t shared_prefix_tokens = 0;
  SpeculativeDecoding speculative{};
};

// One forward pass (prefill, or one decode step), per operation, on the GPUs that run it.
struct LatencyPhase {
  std::array<double, kLatencyOpCount> seconds{};
  std::array<double, kLatencyOpCount> flops{};            // per GPU, summed over layers
  std::array<double, kLatencyOpCount> bytes{};            // HBM bytes per GPU (links: bytes sent)
  std::array<double, kLatencyOpCount> compute_seconds{};  // flops / (peak x efficiency)
  std::array<double, kLatencyOpCount> memory_seconds{};   // bytes / (bandwidth x efficiency)
  std::array<LatencyBound, kLatencyOpCount> bound{};
  // Of bytes[ep_all_to_all]: those sent through the NIC (the rest over NVLink, at the same time),
  // and the seconds the slower path takes, latency floors apart.
  double ep_network_bytes = 0;
  double ep_transfer_seconds = 0;
  double total_seconds = 0;
  LatencyOp dominant_op = LatencyOp::count_;
  LatencyBound dominant_bound = LatencyBound::none;
};

// The names and conventions of cli99/llm-analysis's inference summary (analysis.py, inference()):
// decode_latency is one step with the full prompt + generated cache and every one of the
// num_tokens_to_generate steps is charged at it; cost uses tp x pp GPUs. Seconds and US dollars.
struct LlmAnalysisCompat {
  double prefill_latency = 0;
  double decode_latency = 0;
  double total_decode_latency = 0;     // generated_tokens x decode_latency
  double total_latency = 0;            // prefill_latency + total_decode_latency
  double total_per_token_latency = 0;  // total_latency / generated_tokens
  double prefill_tokens_per_sec = 0;   // batch x prompt / prefill_latency
  double decode_tokens_per_sec = 0;    // batch / decode_latency
  double total_tokens_per_sec = 0;     // batch x generated / total_latency
  double prefill_cost_per_1k_tokens = 0;
  double decode_cost_per_1k_tokens = 0;
  double total_cost_per_1k_tokens = 0;
  // Per-op keys: "prefill_latency_<op>" and "decode_latency_<op>" with latency_op_name(op).
  std::array<double, kLatencyOpCount> prefill_latency_by_op{};
  std::array<double, kLatencyOpCount> decode_latency_by_op{};
};

// The headline figures; what a planner needs from one layout.
struct LatencyTotals {
  double prefill_seconds = 0;                     // time to first token
  double decode_step_first_seconds = 0;           // attends prompt + 1 tokens
  double decode_step_last_seconds = 0;            // attends prompt + generated - 1 tokens
  double decode_total_seconds = 0;                // the generated - 1 decode steps, exact sum (closed form)
  double end_to_end_seconds = 0;                  // prefill + decode_total
  double request_tokens_per_second = 0;           // generated / end_to_end, one sequence as its user sees it
  double batch_tokens_per_second = 0;             // batch x generated / end_to_end, one replica (tp x pp GPUs)
  double prefill_tokens_per_second = 0;           // batch x prompt / prefill
  double decode_tokens_per_second = 0;            // batch / mean decode step
  std::int64_t gpus = 0;                          // tp x pp: the GPUs of one replica, all paid for
  double price_per_hour_usd = 0;                  // all of them
  double cost_per_million_input_tokens_usd = 0;   // prefill time priced per prompt token
  double cost_per_million_output_tokens_usd = 0;  // mean decode step priced per generated token
};

struct LatencyEstimate {
  LatencyRates rates;
  LatencyPhase prefill;       // whole prompt of every sequence: time to first token
  LatencyPhase decode_first;  // first decode step: attends prompt + 1 tokens
  LatencyPhase decode_last;   // last decode step: attends prompt + generated - 1 tokens
  LatencyPhase decode_full;   // one step attending prompt + generated tokens (llm-analysis decode)
  LatencyTotals totals;
  double weight_bytes_per_gpu = 0;              // storage bytes on the busiest stage's GPU
  double decode_weight_bytes_read_per_gpu = 0;  // per decode step there (routed experts: touched ones)
  LatencyOp dominant_op = LatencyOp::count_;    // of the phase that takes longer in total
  LatencyBound dominant_bound = LatencyBound::none;
  bool prefill_dominates = false;
  LlmAnalysisCompat llm_analysis;
};

// The evaluate step. Reads workload.batch_size, kv_cache_dtype, layout, flash_attention,
// logits_all_positions and activation_bytes_per_element; the weight format must be the prepared
// one. Throws std::invalid_argument for non-positive sizes or a format mismatch.
LatencyEstimate estimate_latency(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                 const Accelerator& accelerator, const LatencyRequest& request,
                                 const LatencyAssumptions& assumptions = {});
// The same figures without the per-operation breakdown: the planner's inner loop.
LatencyTotals estimate_latency_totals(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                      const Accelerator& accelerator, const LatencyRequest& request,
                                      const LatencyAssumptions& assumptions = {});

// Report path: one line per phase and operation with its formula, numbers substituted.
struct LatencyLine {
  std::string phase;  // "prefill", "decode_first", "decode_last"
  std::string op;     // latency_op_name
  double flops = 0, bytes = 0, seconds = 0;
  std::string bound;
  std::string formula;
};
struct LatencyExplanation {
  LatencyEstimate estimate;
  std::vector<LatencyLine> lines;        // operations with a nonzero time
  std::vector<std::string> summary;      // prefill, decode, totals, cost, each with its formula
  std::vector<std::string> assumptions;  // efficiencies, dtypes, conventions used
};
LatencyExplanation explain_latency(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                   const Accelerator& accelerator, const LatencyRequest& request,
                                   const LatencyAssumptions& assumptions = {});

// One step of a continuous-batching engine (vLLM V1, SGLang): new prompt tokens, from one or more
// chunks, and one decode token of each of some sequences run as one forward pass. Every operation
// is timed as in estimate_latency_totals() over all the step's tokens, so weights are read once per
// step; the attention of each layer kind is one operation over the prefill and decode tokens.
// Decoder-only models (make_step_windows refuses encoder and cross-attention layers).
inline constexpr std::size_t kMaxStepWindows = 4;
// The distinct sliding windows of the model's layer kinds (tokens; full attention not listed): the
// attended-key sums of a step are kept once per window.
struct StepWindows {
  std::array<double, kMaxStepWindows> tokens{};
  std::size_t count = 0;
};
// Throws std::invalid_argument for encoder or cross-attention layers or more than kMaxStepWindows
// distinct windows.
StepWindows make_step_windows(const PreparedLatencyModel& model);

struct EngineStepTokens {
  double prefill_tokens = 0;         // new prompt tokens, all chunks
  double prefill_logit_rows = 0;     // chunks that end their prompt: each samples a first token
  double prefill_cached_tokens = 0;  // tokens of earlier chunks the chunks' sequences attend (read from cache)
  double prefill_attended_keys = 0;  // sum over the new tokens of the keys each attends causally, itself and
                                     // earlier chunks included: a whole prompt P gives P(P+1)/2
  double prefill_score_entries = 0;  // sum over chunks of chunk x (cached + chunk): what an eager kernel multiplies
  double decode_sequences = 0;       // one new token each
  double decode_context_tokens = 0;  // sum over them of the keys each attends (as cache_tokens of a decode step)
  // The attended-key sums with each token's keys capped at StepWindows::tokens[i].
  std::array<double, kMaxStepWindows> prefill_attended_keys_in_window{};
  std::array<double, kMaxStepWindows> decode_context_tokens_in_window{};
};
// Adds one prefill chunk of `chunk_tokens` tokens of a sequence whose first `cached_tokens` tokens
// are already cached; `ends_prompt` when the chunk holds the prompt's last token.
void add_prefill_chunk(EngineStepTokens& step, const StepWindows& windows, std::int64_t cached_tokens,
                       std::int64_t chunk_tokens, bool ends_prompt);
// Adds one decode token that attends `context_tokens` keys (prompt + tokens generated so far).
void add_decode_sequence(EngineStepTokens& step, const StepWindows& windows, std::int64_t context_tokens);

// Seconds of one engine step: arithmetic only, no allocation. `rates` from latency_rates() for the
// workload's layout; reads workload.kv_cache_dtype, layout, flash_attention, logits_all_positions and
// activation_bytes_per_element. A step of B whole prompts of P tokens takes estimate_latency_totals'
// prefill_seconds (batch B, prompt P); a step of B decode tokens at context c takes its decode step
// with cache_tokens c. 0 for an empty step.
double engine_step_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                           const LatencyRates& rates, const StepWindows& windows, const EngineStepTokens& step);

// Chunked prefill of `batch` prompts of `prompt` tokens, all waiting at once, under a budget of
// `chunk` tokens per step (vLLM V1 / SGLang): steps of `chunk` tokens taken from the prompts in
// order, each timed by engine_step_seconds plus fixed_step_seconds. Weights are read once per
// step, so a prompt cut into chunks costs more than one pass. Returns the total and the steps.
struct ChunkedPrefill {
  double seconds = 0;
  std::int64_t steps = 0;
};
ChunkedPrefill chunked_prefill_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                       const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                       std::int64_t batch, std::int64_t prompt, std::int64_t chunk);
// The same with the first `cached_prefix` tokens of every prompt but the first already cached.
ChunkedPrefill chunked_prefill_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                       const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                       std::int64_t batch, std::int64_t prompt, std::int64_t chunk,
                                       std::int64_t cached_prefix);
// One speculative decoding step of `batch` sequences holding `context` tokens: draft_tokens draft
// passes (draft_layers / layers of a plain decode step each) and one verify pass of draft_tokens + 1
// tokens per sequence, with fixed step costs.
double speculative_step_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                const SpeculativeDecoding& speculative, std::int64_t batch, std::int64_t context);
// Above this many steps chunked_prefill_seconds is not walked: one pass plus, per extra step, the
// weights read again and the fixed cost (a planner evaluates thousands of layouts).
inline constexpr std::int64_t kMaxChunkedPrefillSteps = 2048;

namespace detail {
// Expected distinct experts a step of `tokens` tokens routes to, top-k of E each:
// E x (1 - (1 - k/E)^tokens). Shared by latency and training time.
double expected_distinct_experts(double experts, double experts_per_token, double tokens);
// Query/key pairs one sequence of `tokens` attends: causal (i attends min(i, window) keys), or
// all tokens x tokens when not causal. window 0: unbounded.
double attended_pairs(double tokens, double window, bool causal);
// Ring collectives: 2(n-1)/n x bytes / bandwidth + 2(n-1) hops for all-reduce; (n-1)/n and n-1
// for all-gather and reduce-scatter; each plus one base latency. 0 when n <= 1.
double ring_all_reduce_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds);
double ring_all_gather_seconds(double message_bytes, double ranks, double bytes_per_second, double hop_seconds,
                               double base_seconds);

// Sum over integer x in [x0, x1] of max(a1 + s1 x, a2 + s2 x), in closed form.
double sum_of_max_of_lines(double a1, double s1, double a2, double s2, double x0, double x1);

// How a layout splits one layer kind over the ranks of a pipeline stage.
struct LayerSplit {
  double tp = 1;
  double heads = 0;                // query heads per rank
  double kv_share = 1;             // share of the layer's keys/values (and their weights) per rank
  double expert_ranks = 1;         // ranks the routed experts are spread over
  double expert_token_factor = 1;  // tokens meeting at the experts per token of this replica
  bool all_to_all = false;         // expert parallelism wider than tp: dispatch and combine
};
LayerSplit layer_split(const LatencyLayerKind& kind, const ParallelLayout& layout);

// Storage bytes on the busiest pipeline stage's GPU, and the bytes of weights one decode step of
// `batch` sequences reads there.
struct GpuWeightBytes {
  double stored = 0;
  double read_per_decode_step = 0;
};
GpuWeightBytes busiest_gpu_weight_bytes(const PreparedLatencyModel& model, const ParallelLayout& layout, double batch);
}  // namespace detail

}  // namespace fitcheck
