// SPDX-License-Identifier: MIT
// Serving under load: a continuous-batching simulation over the latency model's engine step
// (engine_step_seconds). Requests arrive (all at once at a fixed concurrency, or Poisson), a
// scheduler modelled on vLLM V1 picks each step's tokens under a token budget, a sequence limit and
// the KV blocks left, and the step's time advances the clock. Results are vLLM benchmark figures:
// output tokens/s, requests/s, TTFT and TPOT percentiles. Pure arithmetic over plain structs, a
// seeded generator of its own (identical natively and in WebAssembly). Rules and sources:
// docs/serving.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/engine_profile.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

// What one engine step may hold and the KV cache it schedules into.
struct SchedulerLimits {
  std::int64_t max_num_seqs = 256;             // sequences running at once
  std::int64_t max_num_batched_tokens = 2048;  // tokens per step, prefill chunks and decodes together
  std::int64_t kv_block_tokens = 16;           // vLLM CacheConfig.DEFAULT_BLOCK_SIZE
  std::int64_t kv_capacity_blocks = 0;         // blocks the cache holds on the busiest GPU
  // A sequence of t tokens holds kv_blocks_per_token_block x ceil(t / kv_block_tokens) +
  // kv_fixed_blocks_per_sequence blocks (kv_blocks_for_sequence): 1 and 0 for a plain cache; vLLM's
  // hybrid models take a block of each attention group per block of tokens and one block of each state
  // group per sequence (KvCapacity).
  std::int64_t kv_blocks_per_token_block = 1;
  std::int64_t kv_fixed_blocks_per_sequence = 0;
  // The engine keeps a shared prompt prefix's blocks for later requests (ServingLoad::shared_prefix_tokens);
  // vLLM turns this off for its hybrid models (KvCapacity::prefix_caching).
  bool prefix_caching = true;
  // Fixed time added to every step (CPU scheduling, input preparation, sampling, launches), which
  // the roofline does not carry. 0 by default; docs/serving.md gives measured gaps of 1.2-1.6 ms
  // (vLLM 0.30, H100) and docs/engines-serving.md 1.4 derives 2.5-3.5 ms (vLLM 0.6.3, A100).
  double step_overhead_seconds = 0;
  // Engine traits (EngineProfile): a prompt cut to the budget or run whole; waiting requests admitted
  // at every step or only when the running batch is empty (static batches); admission reserving the
  // blocks of the whole request (TensorRT-LLM GUARANTEED_NO_EVICT) or taking them as tokens come.
  bool chunked_prefill = true;
  bool continuous_batching = true;
  bool reserve_whole_request = false;
  // SGLang's admission (python/sglang/srt/managers/schedule_policy.py PrefillAdder): every running
  // request holds back min(max_new_tokens - generated, 4096) x new_token_ratio tokens of the free
  // pool, and a waiting request is admitted only if its remaining prompt plus min(max_new_tokens,
  // 4096) fit what is left. new_token_ratio starts at 0.7, falls by (0.7 - 0.7 x 0.14) / 600 each
  // step that decodes, to 0.098, and after a retraction becomes (tokens decoded + 20 x running) /
  // (their max_new_tokens), at most 1 (sglang_new_token_ratio below).
  bool reserve_estimated_output = false;
  // SGLang's step order (python/sglang/srt/managers/scheduler.py Scheduler.get_next_batch_to_run:
  // "Run prefill first if possible"; mixed chunks off by default, server_args.py enable_mixed_chunk):
  // a step holds prompts alone (chunks in progress, then waiting requests) whenever one can be
  // scheduled, and the running requests decode in a step of their own otherwise.
  bool prefill_first = false;
  // Fixed time between a request's arrival and the moment the scheduler can take it (HTTP server,
  // tokenization, a frontend's pre/post-processing hops): the request joins the waiting queue that
  // much later, then waits for the step in flight as any arrival does.
  double request_overhead_seconds = 0;
  // Speculative decoding (latency.hpp): a decoding sequence takes draft_tokens + 1 tokens of the
  // budget, the step adds the draft passes, and it advances by the expected accepted tokens.
  SpeculativeDecoding speculative{};
};

// vLLM V1 OpenAI API server defaults (EngineArgs._set_default_args, docs/engines-serving.md 1.2):
// 8192 batched tokens and 1024 sequences on a device of at least 70 GiB that is not an A100, else
// 2048 and 256. kv_capacity_blocks is left 0.
SchedulerLimits vllm_default_limits(const Accelerator& gpu);

// The KV cache a vLLM-like engine sizes: gpu_memory_utilization x memory, less weights, the
// activation peak of one max_num_batched_tokens step, logits and overhead, in blocks.
struct KvCapacity {
  std::int64_t budget_bytes = 0;   // gpu_memory_utilization x the GPU's memory
  std::int64_t non_kv_bytes = 0;   // weights + activations + logits + overhead per GPU
  std::int64_t sampler_bytes = 0;  // the profile's sampler sort (vLLM V1), when the profile counts it
  std::int64_t block_bytes = 0;    // one block of one sequence on the busiest GPU
  std::int64_t blocks = 0;         // 0 when nothing is left for the cache
  // A hybrid model's cache as the engine lays it out (EngineProfile::hybrid_cache); the defaults are a
  // plain cache's. block_tokens: the tokens of a block where the engine changes them (0: the limits');
  // tokens: the KV cache size the engine reports (vLLM's log: blocks / groups x block tokens; SGLang's
  // pool: its tokens), else blocks x block tokens; max_running_sequences: a cap the state pool sets (0:
  // none); state_slots and state_bytes: SGLang's state pool.
  std::int64_t block_tokens = 0;
  std::int64_t blocks_per_token_block = 1;
  std::int64_t fixed_blocks_per_sequence = 0;
  std::int64_t tokens = 0;
  std::int64_t max_running_sequences = 0;
  std::int64_t state_slots = 0;
  std::int64_t state_bytes = 0;
  bool prefix_caching = true;  // false where the engine turns prefix caching off for the model
  std::string rule;            // how a hybrid model's cache was sized, for the report; empty for a plain cache
};
// The capacity in the simulation's limits: blocks, their tokens and per-sequence layout, and the state
// pool's cap on running sequences.
void apply_kv_capacity(const KvCapacity& capacity, SchedulerLimits& limits);
// Blocks a sequence of `tokens` tokens holds under `limits` (0 for none).
std::int64_t kv_blocks_for_sequence(const SchedulerLimits& limits, std::int64_t tokens);
// Reads the workload's weight format, layout, kv_cache_dtype, gpu_memory_utilization, overhead and
// attention settings; batch, context and prefill chunk are set from `limits`. The plain budget: one
// step, the catalog memory and the workload's overhead, without the sampler or the non-torch figure
// that vLLM's engine profile applies (engine_kv_capacity); tests and the bench size a fixed cache with it.
KvCapacity vllm_kv_capacity(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                            const InferenceWorkload& workload, const Accelerator& gpu, const SchedulerLimits& limits);
// The KV cache the profile's budget rule leaves (KvBudgetRule): vLLM's as above (its profile run
// also samples max_num_seqs rows of logits); SGLang's mem_fraction_static x memory - weights -
// overhead (activations live in the reserve); TensorRT-LLM's fraction of what weights, one step's
// activations, logits and overhead leave; llama.cpp and HF: all of the memory less the same.
// `fraction` is the profile's memory_fraction or the one the request gives.
KvCapacity engine_kv_capacity(const EngineProfile& profile, double fraction, const ModelDescription& model,
                              const std::vector<WeightTensor>& tensors, const InferenceWorkload& workload,
                              const Accelerator& gpu, const SchedulerLimits& limits);
// The simulation's limits from a profile (kv_capacity_blocks left 0).
SchedulerLimits scheduler_limits(const EngineProfile& profile);

// vLLM's start-up check (V1's, or V0's for the vllm-v0 profile) for `workload` as the profile set it
// (its prefill chunk is the step's max_num_batched_tokens): whether the KV cache engine_kv_capacity()
// leaves holds one request of max_model_len (0: the config's max_position_embeddings), and the longest
// that would. nullopt for models with state-space or fixed-source cross-attention layers, whose specs
// it does not model.
std::optional<EngineStartCheck> vllm_start_check(const EngineProfile& profile, const ModelDescription& model,
                                                 const std::vector<WeightTensor>& tensors,
                                                 const InferenceWorkload& workload, const Accelerator& gpu,
                                                 std::int64_t max_model_len);

// SGLang's new_token_ratio (python/sglang/srt/environ.py SGLANG_INIT_NEW_TOKEN_RATIO 0.7,
// SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14, SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS 600,
// SGLANG_RETRACT_DECODE_STEPS 20, SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION 4096; the scheduler's
// init_new_token_ratio, min_new_token_ratio and new_token_ratio_decay at schedule_conservativeness 1).
struct SglangTokenRatio {
  static constexpr double kInitial = 0.7;
  static constexpr double kMinimum = 0.7 * 0.14;
  static constexpr double kDecayPerStep = (kInitial - kMinimum) / 600;
  static constexpr std::int64_t kRetractDecodeSteps = 20;
  static constexpr std::int64_t kClipMaxNewTokens = 4096;
  // The ratio after one more decoding step.
  static double decayed(double ratio) { return ratio - kDecayPerStep > kMinimum ? ratio - kDecayPerStep : kMinimum; }
  // ScheduleBatch.retract_decode: (tokens decoded + 20 x requests) / (their max_new_tokens), at most 1.
  static double after_retraction(std::int64_t decoded, std::int64_t requests, std::int64_t max_new_tokens);
};

enum class LengthDistribution : std::uint8_t { fixed, uniform, normal };
const char* length_distribution_name(LengthDistribution distribution);  // "fixed", "uniform", "normal"

// Token lengths of requests. uniform: integers in [max(1, floor(tokens (1 - spread))),
// floor(tokens (1 + spread))] (vLLM benchmark's random dataset, --random-range-ratio); normal:
// mean `tokens`, standard deviation spread x tokens (sum of 12 uniforms), rounded, at least 1.
struct TokenLengths {
  std::int64_t tokens = 512;
  LengthDistribution distribution = LengthDistribution::fixed;
  double spread = 0;
};

// One request's lengths in a replayed workload.
struct RequestLengths {
  std::int64_t prompt = 0;
  std::int64_t output = 0;
};

// A workload trace as text: either a benchmark result JSON with the arrays "input_lens" and
// "output_lens" (vLLM's `vllm bench serve --save-result --save-detailed`, SGLang's bench_serving
// --output-details), or lines of two whole numbers, prompt and output tokens, split by a comma, a
// tab or spaces ('#' comments, blank lines and a header line are skipped). Throws OptionError
// naming the option "request_lengths" with the line or array index of the first bad entry.
std::vector<RequestLengths> parse_request_lengths(std::string_view text);

struct ServingLoad {
  TokenLengths prompt{512};
  TokenLengths output{128};
  // When not empty, request i takes trace[i % trace.size()] (in order) instead of drawn lengths;
  // prompt and output then hold the trace's mean lengths, rounded, for the report (its
  // length_distribution reads "trace").
  std::vector<RequestLengths> trace;
  std::int64_t requests = 1000;
  std::int64_t concurrency = 0;  // > 0: closed loop, a new request arrives when one finishes
  // Prefix caching: every prompt starts with the same shared_prefix_tokens (a system prompt). Once a
  // request has computed them, later ones find its full blocks cached (vLLM hashes full blocks),
  // hold them shared, and prefill from there.
  std::int64_t shared_prefix_tokens = 0;
  double arrival_rate_per_second = 0;  // > 0: Poisson arrivals (exactly one of the two is set)
  std::uint64_t seed = 0;
};

struct ServingResult {
  double duration_seconds = 0;  // first arrival (t = 0) to the last token
  double output_tokens_per_second = 0;
  double input_tokens_per_second = 0;
  double requests_per_second = 0;
  // Percentiles with linear interpolation between ranks (numpy.percentile, as vLLM's benchmark).
  double ttft_seconds_p50 = 0, ttft_seconds_p90 = 0, ttft_seconds_p95 = 0, ttft_seconds_p99 = 0, ttft_seconds_mean = 0;
  // Per request with more than one output token: (last token - first token) / (output - 1).
  double tpot_seconds_p50 = 0, tpot_seconds_p90 = 0, tpot_seconds_p95 = 0, tpot_seconds_p99 = 0, tpot_seconds_mean = 0;
  double e2e_seconds_mean = 0;
  double queue_seconds_mean = 0;  // arrival to first scheduled
  double mean_running_batch = 0;  // sequences in a step, weighted by the step's time
  double mean_step_tokens = 0;    // tokens in a step, weighted by the step's time
  std::int64_t steps = 0;
  std::int64_t requests = 0;
  std::int64_t prompt_tokens = 0;  // all requests
  std::int64_t output_tokens = 0;
  std::int64_t max_running = 0;
  std::int64_t peak_kv_blocks_used = 0;
  std::int64_t preemptions = 0;  // running sequences evicted for KV blocks (recomputed later)
  bool kv_limited = false;       // a waiting request lacked KV blocks, or a preemption happened
};

// Bounds on one simulation's work (each output token is one sequence-step of the event loop):
// requests and all their output tokens together.
inline constexpr std::int64_t kMaxServingRequests = std::int64_t{1} << 20;
inline constexpr std::int64_t kMaxServingOutputTokens = std::int64_t{1} << 28;

// Simulates `load` on one replica (tp x pp GPUs). Throws std::invalid_argument for bad limits or
// load (beyond the bounds above), a model make_step_windows() refuses, or a request longer than the
// whole KV cache.
ServingResult simulate_serving(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                               const Accelerator& gpu, const LatencyAssumptions& assumptions,
                               const SchedulerLimits& limits, const ServingLoad& load);

// Fills estimate.on_gpu->engine_capacity when the estimate applied an engine profile: the engine's
// scheduler simulated at saturation (docs/serving.md, "Capacity from the scheduler").
void add_engine_capacity(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                         InferenceEstimate& estimate);

// Fills estimate.on_gpu->engine_start with vllm_start_check() when the estimate applied the vllm or
// vllm-v0 profile on a GPU (estimate_inference() calls it; the page's first-view module does not carry it).
void add_engine_start_check(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                            InferenceEstimate& estimate);

// The serve-sim request: inference options (parse_inference_options keys: weights, kv_dtype, tp,
// pp, ep, gpu, prompt_len, gen_len, efficiencies...) plus engine, concurrency, arrival_rate,
// requests, max_num_seqs, max_num_batched_tokens, seed, prompt_spread, gen_spread, length_distribution,
// request_lengths (a trace's text, parse_request_lengths), step_overhead_ms, request_overhead_ms,
// cuda_graph_max_batch.
struct ServingRequest {
  InferenceRequest inference;
  EngineKind engine = EngineKind::vllm;
  ServingLoad load;
  std::int64_t max_num_seqs = 0;            // 0: the engine's default for the GPU
  std::int64_t max_num_batched_tokens = 0;  // 0: the engine's default for the GPU
  double step_overhead_seconds = 0;         // replaces the profile's step overhead when given
  bool step_overhead_given = false;
  double request_overhead_seconds = 0;  // replaces the profile's request overhead when given
  bool request_overhead_given = false;
  // Decode-only steps of at most this many sequences replay a CUDA graph (0: none); replaces the
  // profile's cuda_graph_max_batch when given (TensorRT-LLM's PyTorch backend: cuda_graph_config).
  std::int64_t cuda_graph_max_batch = 0;
  bool cuda_graph_max_batch_given = false;
};
// Throws OptionError naming the option.
ServingRequest parse_serving_options(const OptionList& options);

// The simulation as JSON: output_tokens_per_second, requests_per_second, ttft_seconds_p50/p90/p99,
// tpot_seconds_p50/p90/p99 and the rest of ServingResult, the engine, its limits, the KV capacity
// and the assumptions.
std::string serving_report_json(std::string_view config_json_text, const OptionList& options);

}  // namespace fitcheck
