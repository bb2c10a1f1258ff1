// SPDX-License-Identifier: MIT
// One step of a continuous-batching engine: prompt chunks and decode tokens in one forward pass,
// timed with the per-operation formulas of the evaluate step (latency/latency_ops.hpp). Arithmetic
// only, no allocation: a serving simulation calls it once per step. Formulas: docs/latency.md,
// "One engine step".
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "fitcheck/engine_step.hpp"
#include "fitcheck/latency.hpp"
#include "latency/latency_ops.hpp"

namespace fitcheck {
namespace {

using detail::attended_pairs;
using detail::latency_ops::add_layer_ops;
using detail::latency_ops::add_model_ops;
using detail::latency_ops::OpCost;
using detail::latency_ops::sparse_indexer;
using detail::latency_ops::ssm_mixer;
using detail::latency_ops::TotalAccumulator;

// Index of `window` in `windows` (a window make_step_windows listed).
std::size_t window_slot(const StepWindows& windows, double window) {
  std::size_t i = 0;
  while (i + 1 < windows.count && windows.tokens[i] != window) ++i;
  return i;
}

// The prompt tokens' attention of one layer kind: attention_prefill() over the step's sums, plus
// the cached keys of earlier chunks read once.
OpCost prefill_attention(const LatencyLayerKind& k, const detail::LayerSplit& s, const EngineStepTokens& step,
                         double attended_keys, double a, double kv_bytes, bool flash) {
  const double tokens = step.prefill_tokens;
  const double pairs = flash ? attended_keys : step.prefill_score_entries;
  OpCost c;
  double qk_dim = k.qk_head_dim;
  if (k.multi_latent) {
    // Prefill decompresses keys and values from the latent for every token (DeepSeek-V2 §2.1.2).
    qk_dim = k.nope_head_dim + k.rope_head_dim;
    c.flops += 2 * tokens * k.kv_up.matrix_params / s.tp;
    c.bytes += k.kv_up.bytes / s.tp + tokens * a * (k.kv_lora_rank + k.rope_head_dim) +
               2 * tokens * a * s.heads * (k.nope_head_dim + k.v_head_dim);
  } else {
    c.bytes += tokens * a * k.kv_heads * s.kv_share * (k.qk_head_dim + k.v_head_dim);  // k, v read
  }
  c.flops += 2 * s.heads * pairs * (qk_dim + k.v_head_dim);       // q.k^T and p.v
  c.bytes += tokens * a * s.heads * (qk_dim + k.v_head_dim);      // q read, output written
  c.bytes += tokens * kv_bytes * s.kv_share;                      // cache written
  c.bytes += step.prefill_cached_tokens * kv_bytes * s.kv_share;  // earlier chunks read from the cache
  if (!flash) c.bytes += 4 * s.heads * step.prefill_score_entries * a;
  return c;
}

// attention_decode() of `sequences` tokens whose attended keys sum to `attended_sum`: its flops and
// bytes are linear in the attended length, so the sum stands for the sequences one by one.
OpCost decode_attention(const LatencyLayerKind& k, const detail::LayerSplit& s, double sequences, double attended_sum,
                        double a, double kv_bytes, double kv_read_factor) {
  OpCost c;
  if (k.multi_latent) {
    const double r = k.kv_lora_rank;
    c.flops = 2 * s.heads *
              (sequences * k.nope_head_dim * r + attended_sum * (r + k.rope_head_dim) + attended_sum * r +
               sequences * r * k.v_head_dim);
    c.bytes = k.kv_up.bytes / s.tp + sequences * a * s.heads * (k.nope_head_dim + k.rope_head_dim + k.v_head_dim);
  } else {
    c.flops = 2 * s.heads * attended_sum * (k.qk_head_dim + k.v_head_dim);
    c.bytes = sequences * a * s.heads * (k.qk_head_dim + k.v_head_dim);
  }
  c.bytes += (attended_sum * kv_read_factor + sequences) * kv_bytes * s.kv_share;  // cache read, new tokens written
  return c;
}

}  // namespace

StepWindows make_step_windows(const PreparedLatencyModel& model) {
  StepWindows windows;
  for (const LatencyLayerKind& k : model.kinds) {
    if (k.encoder || k.cross_attention)
      throw std::invalid_argument(
          "the engine step covers decoder-only models (this one has encoder or cross-attention layers)");
    if (k.sliding_window <= 0) continue;
    bool listed = false;
    for (std::size_t i = 0; i < windows.count; ++i) listed = listed || windows.tokens[i] == k.sliding_window;
    if (listed) continue;
    if (windows.count == kMaxStepWindows)
      throw std::invalid_argument("the model has more distinct sliding windows than the engine step keeps");
    windows.tokens[windows.count++] = k.sliding_window;
  }
  return windows;
}

void add_prefill_chunk(EngineStepTokens& step, const StepWindows& windows, std::int64_t cached_tokens,
                       std::int64_t chunk_tokens, bool ends_prompt) {
  const double c0 = static_cast<double>(cached_tokens), n = static_cast<double>(chunk_tokens);
  step.prefill_tokens += n;
  if (ends_prompt) step.prefill_logit_rows += 1;
  step.prefill_cached_tokens += c0;
  // Token i (1-based in its sequence) attends i keys: the chunk holds tokens c0 + 1 ... c0 + n.
  step.prefill_attended_keys += attended_pairs(c0 + n, 0, true) - attended_pairs(c0, 0, true);
  step.prefill_score_entries += n * (c0 + n);
  for (std::size_t i = 0; i < windows.count; ++i)
    step.prefill_attended_keys_in_window[i] +=
        attended_pairs(c0 + n, windows.tokens[i], true) - attended_pairs(c0, windows.tokens[i], true);
}

void add_decode_sequence(EngineStepTokens& step, const StepWindows& windows, std::int64_t context_tokens) {
  const double c = static_cast<double>(context_tokens);
  step.decode_sequences += 1;
  step.decode_context_tokens += c;
  for (std::size_t i = 0; i < windows.count; ++i)
    step.decode_context_tokens_in_window[i] += std::min(c, windows.tokens[i]);
}

double engine_step_seconds(const PreparedLatencyModel& pm, const InferenceWorkload& w, const LatencyRates& r,
                           const StepWindows& windows, const EngineStepTokens& step) {
  const double tokens = step.prefill_tokens + step.decode_sequences;
  if (tokens <= 0) return 0;
  const double a = static_cast<double>(w.activation_bytes_per_element);
  const auto kv = static_cast<std::size_t>(w.kv_cache_dtype);
  TotalAccumulator acc{0, r.hbm_bytes_per_second};
  for (const LatencyLayerKind& k : pm.kinds) {
    const detail::LayerSplit s = detail::layer_split(k, w.layout);
    add_layer_ops(acc, r, k, s, tokens, a, pm.hidden, step.prefill_tokens <= 0);
    const double kv_bytes = k.kv_cache_bytes_per_token[kv];
    const bool windowed = k.sliding_window > 0;
    const std::size_t slot = windowed ? window_slot(windows, k.sliding_window) : 0;
    OpCost c;
    if (step.prefill_tokens > 0) {
      const double keys = windowed ? step.prefill_attended_keys_in_window[slot] : step.prefill_attended_keys;
      c = prefill_attention(k, s, step, keys, a, kv_bytes, w.flash_attention);
    }
    if (step.decode_sequences > 0) {
      const double keys = windowed ? step.decode_context_tokens_in_window[slot] : step.decode_context_tokens;
      const OpCost d = decode_attention(k, s, step.decode_sequences, keys, a, kv_bytes,
                                        detail::latency_ops::self_kv_read_factor(k, r));
      c.flops += d.flops;
      c.bytes += d.bytes;
    }
    // State read and written per sequence: the step does not record how many sequences its prefill
    // chunks belong to, so they count as at least one (the state is small beside the chunk's tokens).
    const double sequences =
        step.decode_sequences + std::max(step.prefill_logit_rows, step.prefill_tokens > 0 ? 1.0 : 0.0);
    const OpCost scan = ssm_mixer(k, s, sequences, tokens, a);
    c.flops += scan.flops;
    c.bytes += scan.bytes;
    acc.op(LatencyOp::attention, c.flops, r.activation_flops_per_second, c.bytes, static_cast<double>(k.layers));
    if (k.index_heads > 0) {  // the indexer scores every earlier key (no window), prefill and decode alike
      const OpCost prefill_index = sparse_indexer(k, step.prefill_tokens, step.prefill_attended_keys,
                                                  step.prefill_tokens + step.prefill_cached_tokens);
      const OpCost decode_index =
          sparse_indexer(k, step.decode_sequences, step.decode_context_tokens, step.decode_context_tokens);
      acc.op(LatencyOp::sparse_indexer, prefill_index.flops + decode_index.flops, r.indexer_flops_per_second,
             prefill_index.bytes + decode_index.bytes, static_cast<double>(k.layers));
    }
  }
  const double lm_rows = w.logits_all_positions ? tokens : step.prefill_logit_rows + step.decode_sequences;
  add_model_ops(acc, r, pm, w.layout, tokens, lm_rows, a);
  return acc.total;
}

ChunkedPrefill chunked_prefill_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                       const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                       std::int64_t batch, std::int64_t prompt, std::int64_t chunk) {
  return chunked_prefill_seconds(model, workload, rates, assumptions, batch, prompt, chunk, 0);
}

ChunkedPrefill chunked_prefill_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                       const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                       std::int64_t batch, std::int64_t prompt, std::int64_t chunk,
                                       std::int64_t cached_prefix) {
  if (batch < 1 || prompt < 1 || chunk < 1) throw std::invalid_argument("batch, prompt and chunk must be at least 1");
  if (cached_prefix < 0 || cached_prefix >= prompt)
    throw std::invalid_argument("the shared prefix must be shorter than the prompt");
  const StepWindows windows = make_step_windows(model);
  const double layers = static_cast<double>(model.layers);
  ChunkedPrefill result;
  std::int64_t sequence = 0, done = 0;  // the sequence being prefilled and its tokens already cached
  while (sequence < batch) {
    EngineStepTokens step;
    std::int64_t budget = chunk;
    while (budget > 0 && sequence < batch) {
      const std::int64_t tokens = std::min(prompt - done, budget);
      add_prefill_chunk(step, windows, done, tokens, done + tokens == prompt);
      budget -= tokens;
      done += tokens;
      if (done == prompt) {
        ++sequence;
        done = cached_prefix;  // the next sequences find the prefix the first one computed
      }
    }
    result.seconds +=
        engine_step_seconds(model, workload, rates, windows, step) + fixed_step_seconds(assumptions, layers, true, 0);
    ++result.steps;
  }
  return result;
}

double expected_tokens_per_step(const SpeculativeDecoding& speculative) {
  const double k = static_cast<double>(speculative.draft_tokens), a = speculative.acceptance_rate;
  if (speculative.draft_tokens <= 0) return 1;
  if (a >= 1) return k + 1;
  return (1 - std::pow(a, k + 1)) / (1 - a);
}

double speculative_step_seconds(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                                const LatencyRates& rates, const LatencyAssumptions& assumptions,
                                const SpeculativeDecoding& speculative, std::int64_t batch, std::int64_t context) {
  const StepWindows windows = make_step_windows(model);
  const double layers = static_cast<double>(model.layers);
  const std::int64_t k = speculative.draft_tokens;
  EngineStepTokens verify, draft;
  for (std::int64_t i = 0; i < batch; ++i) {
    add_prefill_chunk(verify, windows, context, k + 1, false);
    verify.prefill_logit_rows += static_cast<double>(k + 1);  // the target scores every proposed position
    add_decode_sequence(draft, windows, context + 1);
  }
  const double verify_seconds = engine_step_seconds(model, workload, rates, windows, verify) +
                                fixed_step_seconds(assumptions, layers, false, static_cast<double>(batch));
  const double draft_seconds =
      engine_step_seconds(model, workload, rates, windows, draft) * speculative.draft_layers / layers;
  return verify_seconds + static_cast<double>(k) * draft_seconds;
}

}  // namespace fitcheck
