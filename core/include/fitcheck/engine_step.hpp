// SPDX-License-Identifier: MIT
// A continuous-batching engine's steps (vLLM V1, SGLang, TensorRT-LLM): the tokens of one step, its
// seconds, chunked prefill and speculative decoding steps. The serving simulation (serving.hpp) and
// the inference report's engine figures time their steps with these. Formulas: docs/serving.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"

namespace fitcheck {

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

}  // namespace fitcheck
