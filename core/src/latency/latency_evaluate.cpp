// SPDX-License-Identifier: MIT
// The evaluate step of the latency model: arithmetic over the prepared layer kinds, no allocation.
// Every operation is timed per GPU as max(FLOPs / (peak x efficiency), bytes / (HBM x efficiency));
// collectives by the ring model of latency_rates.cpp. Formulas: docs/latency.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "fitcheck/engine_step.hpp"
#include "fitcheck/latency.hpp"
#include "latency/latency_ops.hpp"

namespace fitcheck {
namespace {

using detail::attended_pairs;
using detail::expected_distinct_experts;
using detail::ring_all_gather_seconds;
using detail::ring_all_reduce_seconds;
using detail::sum_of_max_of_lines;
using detail::latency_ops::add_layer_ops;
using detail::latency_ops::add_model_ops;
using detail::latency_ops::attention_cross;
using detail::latency_ops::attention_decode;
using detail::latency_ops::attention_prefill;
using detail::latency_ops::OpCost;
using detail::latency_ops::sparse_indexer;
using detail::latency_ops::ssm_mixer;
using detail::latency_ops::TotalAccumulator;

using KindSplit = detail::LayerSplit;

// Fills the per-operation arrays of a phase (the report path).
struct PhaseAccumulator {
  LatencyPhase& phase;
  double hbm;
  void op(LatencyOp op, double flops, double flops_per_second, double bytes, double times) {
    const auto i = static_cast<std::size_t>(op);
    const double compute = flops / flops_per_second, memory = bytes / hbm;
    phase.compute_seconds[i] += compute * times;
    phase.memory_seconds[i] += memory * times;
    phase.seconds[i] += std::max(compute, memory) * times;
    phase.flops[i] += flops * times;
    phase.bytes[i] += bytes * times;
  }
  void link(LatencyOp op, double bytes_sent, double seconds, double times) {
    const auto i = static_cast<std::size_t>(op);
    phase.seconds[i] += seconds * times;
    phase.bytes[i] += bytes_sent * times;
  }
  void exchange(double nvlink_bytes, double network_bytes, double transfer_seconds, double seconds, double times) {
    link(LatencyOp::ep_all_to_all, nvlink_bytes + network_bytes, seconds, times);
    phase.ep_network_bytes += network_bytes * times;
    phase.ep_transfer_seconds += transfer_seconds * times;
  }
};

void finish_phase(LatencyPhase& p) {
  p.total_seconds = 0;
  double longest = -1;
  for (std::size_t i = 0; i < kLatencyOpCount; ++i) {
    const auto op = static_cast<LatencyOp>(i);
    const bool link = op == LatencyOp::tp_collectives || op == LatencyOp::pp_transfer || op == LatencyOp::ep_all_to_all;
    if (p.seconds[i] <= 0)
      p.bound[i] = LatencyBound::none;
    else if (link)
      p.bound[i] = LatencyBound::interconnect;
    else
      p.bound[i] = p.compute_seconds[i] >= p.memory_seconds[i] ? LatencyBound::compute : LatencyBound::memory;
    p.total_seconds += p.seconds[i];
    if (p.seconds[i] > longest) {
      longest = p.seconds[i];
      p.dominant_op = op;
    }
  }
  p.dominant_bound = p.bound[static_cast<std::size_t>(p.dominant_op)];
}

void check(bool ok, const char* message) {
  if (!ok) throw std::invalid_argument(message);
}

// layer_split() of each kind, worked out once per evaluation rather than once per pass (models
// have a handful of kinds; any beyond the cached ones are worked out where used).
class Splits {
 public:
  Splits(const PreparedLatencyModel& pm, const ParallelLayout& layout) : pm_(pm), layout_(layout) {
    for (std::size_t i = 0; i < std::min(kCached, pm.kinds.size()); ++i)
      cached_[i] = detail::layer_split(pm.kinds[i], layout);
  }
  KindSplit operator[](std::size_t i) const {
    return i < kCached ? cached_[i] : detail::layer_split(pm_.kinds[i], layout_);
  }

 private:
  static constexpr std::size_t kCached = 8;
  const PreparedLatencyModel& pm_;
  const ParallelLayout& layout_;
  std::array<KindSplit, kCached> cached_{};
};

struct Inputs {
  double batch, prompt, generated, a;
  double cross_tokens;  // a fixed cross-attention source per sequence: Whisper's frames, the request's image tokens
  std::size_t kv;       // index of the cache dtype in kv_cache_bytes_per_token
  const InferenceWorkload& w;
  double price_per_gpu_hour;
  Splits split;
};

Inputs read_inputs(const PreparedLatencyModel& pm, const InferenceWorkload& w, const Accelerator& gpu,
                   const LatencyRequest& request, const LatencyAssumptions& assume) {
  check(w.weight_format == pm.weight_format, "the workload's weight format is not the prepared one");
  check(request.shared_prefix_tokens >= 0 && request.shared_prefix_tokens < request.prompt_tokens,
        "the shared prefix must be shorter than the prompt");
  check(request.speculative.draft_tokens >= 0 && request.speculative.draft_tokens <= 64 &&
            request.speculative.acceptance_rate >= 0 && request.speculative.acceptance_rate <= 1 &&
            request.speculative.draft_layers >= 0,
        "speculative decoding: 0-64 draft tokens, an acceptance rate in [0, 1], draft layers at least 0");
  check(w.batch_size >= 1 && request.prompt_tokens >= 1 && request.generated_tokens >= 1,
        "batch, prompt and generated tokens must be at least 1");
  check(w.layout.tensor_parallel >= 1 && w.layout.pipeline_parallel >= 1 && w.layout.expert_parallel >= 1,
        "parallel sizes must be at least 1");
  check(w.activation_bytes_per_element >= 1, "activation bytes per element must be at least 1");
  check(assume.flops_efficiency > 0 && assume.fp8_flops_share > 0 && assume.hbm_efficiency > 0 &&
            assume.interconnect_efficiency > 0,
        "efficiencies must be positive");
  check(gpu.memory_bandwidth_bytes_per_second > 0, "the accelerator has no memory bandwidth");
  return {static_cast<double>(w.batch_size),
          static_cast<double>(request.prompt_tokens),
          static_cast<double>(request.generated_tokens),
          static_cast<double>(w.activation_bytes_per_element),
          static_cast<double>(pm.encoder_frames > 0 ? pm.encoder_frames : w.cross_attention_tokens),
          static_cast<std::size_t>(w.kv_cache_dtype),
          w,
          price_per_gpu_hour_usd(gpu, assume.price_per_gpu_hour_usd),
          Splits(pm, w.layout)};
}

// Llama 3.2 Vision's cross-attention layers without images: the model skips them, MLP and all
// (MllamaTextModel.forward: no cross_attention_states and no cached ones).
bool skipped(const LatencyLayerKind& k, const Inputs& in) {
  return !k.self_attention && k.cross_source_per_sequence && in.cross_tokens <= 0;
}

// Prefill: every prompt token of every sequence in one pass.
template <class Accumulator>
void prefill_pass(Accumulator& acc, const PreparedLatencyModel& pm, const LatencyRates& r, const Inputs& in) {
  const double tokens = in.batch * in.prompt;
  for (std::size_t i = 0; i < pm.kinds.size(); ++i) {
    const LatencyLayerKind& k = pm.kinds[i];
    if (skipped(k, in)) continue;
    const KindSplit s = in.split[i];
    add_layer_ops(acc, r, k, s, tokens, in.a, pm.hidden, false);
    const double kv = k.kv_cache_bytes_per_token[in.kv];
    OpCost c;
    if (k.self_attention) {
      // A preallocated cache (not a sliding window's, which prefill fills from the prompt) is
      // attended whole: prompt + generated positions.
      const double preallocated =
          r.kv_cache_preallocated && !k.encoder && k.sliding_window <= 0 ? in.prompt + in.generated : 0;
      c = attention_prefill(k, s, in.batch, in.prompt, in.a, kv, in.w.flash_attention, !k.encoder, preallocated);
    }
    if (k.cross_attention) {
      // T5: the decoder attends the prompt's encoded tokens; a fixed source (Whisper's frames, the image
      // tokens) is projected once per sequence and attended by every prompt token.
      const OpCost cross = k.cross_source_per_sequence
                               ? attention_cross(k, s, in.batch, in.prompt, in.cross_tokens, in.a,
                                                 k.cross_kv_bytes_per_source_token[in.kv], pm.hidden, true)
                               : attention_prefill(k, s, in.batch, in.prompt, in.a, kv, in.w.flash_attention, false);
      c.flops += cross.flops;
      c.bytes += cross.bytes;
    }
    const OpCost scan = ssm_mixer(k, s, in.batch, tokens, in.a);
    c.flops += scan.flops;
    c.bytes += scan.bytes;
    acc.op(LatencyOp::attention, c.flops, r.activation_flops_per_second, c.bytes, static_cast<double>(k.layers));
    if (k.index_heads > 0) {  // the indexer scores every earlier key of the prompt, causally
      const OpCost index = sparse_indexer(k, tokens, in.batch * attended_pairs(in.prompt, 0, true), tokens);
      acc.op(LatencyOp::sparse_indexer, index.flops, r.indexer_flops_per_second, index.bytes,
             static_cast<double>(k.layers));
    }
  }
  add_model_ops(acc, r, pm, in.w.layout, tokens, in.w.logits_all_positions ? tokens : in.batch, in.a);
}

// One decode step without its self-attention: the same at every step.
template <class Accumulator>
void decode_base_pass(Accumulator& acc, const PreparedLatencyModel& pm, const LatencyRates& r, const Inputs& in) {
  for (std::size_t i = 0; i < pm.kinds.size(); ++i) {
    const LatencyLayerKind& k = pm.kinds[i];
    if (k.encoder || skipped(k, in)) continue;  // encoder layers run once, in prefill
    const KindSplit s = in.split[i];
    add_layer_ops(acc, r, k, s, in.batch, in.a, pm.hidden, true);
    if (k.cross_attention) {  // every step attends the cross keys and values, read from the cache
      const OpCost c =
          k.cross_source_per_sequence
              ? attention_cross(k, s, in.batch, 1, in.cross_tokens, in.a, k.cross_kv_bytes_per_source_token[in.kv],
                                pm.hidden, false, detail::latency_ops::kv_read_factor(k, r))
              : attention_decode(k, s, in.batch, in.prompt, in.a, k.kv_cache_bytes_per_token[in.kv]);
      acc.op(LatencyOp::attention, c.flops, r.activation_flops_per_second, c.bytes, static_cast<double>(k.layers));
    }
    if (k.ssm_heads > 0) {  // a state-space layer's step costs the same at every context length
      const OpCost c = ssm_mixer(k, s, in.batch, in.batch, in.a);
      acc.op(LatencyOp::attention, c.flops, r.activation_flops_per_second, c.bytes, static_cast<double>(k.layers));
    }
  }
  add_model_ops(acc, r, pm, in.w.layout, in.batch, in.batch, in.a);
}

// The self-attention of one decode step whose cache holds `cache_tokens` tokens.
template <class Accumulator>
void decode_attention_pass(Accumulator& acc, const PreparedLatencyModel& pm, const LatencyRates& r, const Inputs& in,
                           double cache_tokens) {
  // A preallocated cache is read whole at every step (StaticCache: the mask spans max_cache_len).
  if (r.kv_cache_preallocated) cache_tokens = in.prompt + in.generated;
  for (std::size_t i = 0; i < pm.kinds.size(); ++i) {
    const LatencyLayerKind& k = pm.kinds[i];
    if (k.encoder || !k.self_attention) continue;
    const double attended = k.sliding_window > 0 ? std::min(cache_tokens, k.sliding_window) : cache_tokens;
    const OpCost c = attention_decode(k, in.split[i], in.batch, attended, in.a, k.kv_cache_bytes_per_token[in.kv],
                                      detail::latency_ops::self_kv_read_factor(k, r));
    acc.op(LatencyOp::attention, c.flops, r.activation_flops_per_second, c.bytes, static_cast<double>(k.layers));
    if (k.index_heads > 0) {  // the indexer scores every cached key, however few attention reads
      const double keys = in.batch * cache_tokens;
      const OpCost index = sparse_indexer(k, in.batch, keys, keys);
      acc.op(LatencyOp::sparse_indexer, index.flops, r.indexer_flops_per_second, index.bytes,
             static_cast<double>(k.layers));
    }
  }
}

// Self-attention of the generated - 1 decode steps, attending prompt + 1 ... prompt + generated - 1
// tokens: linear in the attended length (capped by a window), so each kind sums in closed form.
double decode_attention_sum(const PreparedLatencyModel& pm, const LatencyRates& r, const Inputs& in) {
  double first = in.prompt + 1, end = in.prompt + in.generated - 1;
  if (end < first) return 0;
  // A preallocated cache: every step attends all prompt + generated positions, so costs the same.
  double steps = 1;
  if (r.kv_cache_preallocated) {
    steps = end - first + 1;
    first = end = in.prompt + in.generated;
  }
  double total = 0;
  for (std::size_t i = 0; i < pm.kinds.size(); ++i) {
    const LatencyLayerKind& k = pm.kinds[i];
    if (k.encoder || !k.self_attention) continue;
    const KindSplit s = in.split[i];
    const double kv = k.kv_cache_bytes_per_token[in.kv];
    const double repeat = detail::latency_ops::self_kv_read_factor(k, r);
    const OpCost c0 = attention_decode(k, s, in.batch, 0, in.a, kv, repeat),
                 c1 = attention_decode(k, s, in.batch, 1, in.a, kv, repeat);
    const double f = r.activation_flops_per_second, b = r.hbm_bytes_per_second;
    const double a1 = c0.flops / f, s1 = (c1.flops - c0.flops) / f, a2 = c0.bytes / b, s2 = (c1.bytes - c0.bytes) / b;
    const double window = k.sliding_window;
    double sum = sum_of_max_of_lines(a1, s1, a2, s2, first, window > 0 ? std::min(end, window) : end);
    if (window > 0 && end > window)
      sum += (end - std::max(first, window + 1) + 1) * std::max(a1 + s1 * window, a2 + s2 * window);
    if (k.index_heads > 0) {  // the indexer: linear in the whole cache, uncapped by index_topk
      const OpCost i0 = sparse_indexer(k, in.batch, 0, 0), i1 = sparse_indexer(k, in.batch, in.batch, in.batch);
      const double fi = r.indexer_flops_per_second;
      sum += sum_of_max_of_lines(i0.flops / fi, (i1.flops - i0.flops) / fi, i0.bytes / b, (i1.bytes - i0.bytes) / b,
                                 first, end);
    }
    total += static_cast<double>(k.layers) * sum;
  }
  return steps * total;
}

LatencyTotals totals_from(double prefill, double first, double last, double base, double attention_sum,
                          const Inputs& in) {
  LatencyTotals t;
  const double steps = in.generated - 1;
  t.prefill_seconds = prefill;
  t.decode_step_first_seconds = first;
  t.decode_step_last_seconds = last;
  t.decode_total_seconds = steps * base + attention_sum;
  t.end_to_end_seconds = prefill + t.decode_total_seconds;
  t.request_tokens_per_second = in.generated / t.end_to_end_seconds;
  t.batch_tokens_per_second = in.batch * in.generated / t.end_to_end_seconds;
  t.prefill_tokens_per_second = in.batch * in.prompt / prefill;
  const double mean_step = steps > 0 ? t.decode_total_seconds / steps : first;
  t.decode_tokens_per_second = in.batch / mean_step;
  t.gpus = in.w.layout.tensor_parallel * in.w.layout.pipeline_parallel;
  t.price_per_hour_usd = in.price_per_gpu_hour * static_cast<double>(t.gpus);
  const double dollars_per_second = t.price_per_hour_usd / 3600;
  t.cost_per_million_input_tokens_usd = dollars_per_second * prefill / (in.batch * in.prompt) * 1e6;
  t.cost_per_million_output_tokens_usd = dollars_per_second * mean_step / in.batch * 1e6;
  return t;
}

// Prefill as the workload's engine runs it: one pass when the whole batch fits one step, else
// chunks of prefill_chunk_tokens (the step the activation memory is sized for), plus fixed costs.
double engine_prefill_seconds(const PreparedLatencyModel& pm, const InferenceWorkload& w, const LatencyRates& r,
                              const LatencyAssumptions& assume, const LatencyRequest& request, const Inputs& in,
                              double one_pass) {
  const double tokens = in.batch * in.prompt;
  const double layers = static_cast<double>(pm.layers);
  const std::int64_t prefix = request.shared_prefix_tokens;
  // With a shared prefix the whole batch is one step unless a chunk is given.
  const double chunk = w.prefill_chunk_tokens > 0 ? static_cast<double>(w.prefill_chunk_tokens)
                       : prefix > 0               ? tokens
                                                  : 0;
  if (chunk > 0 && (chunk < tokens || prefix > 0) &&
      std::ceil(tokens / chunk) <= static_cast<double>(kMaxChunkedPrefillSteps)) {
    try {
      return chunked_prefill_seconds(pm, w, r, assume, w.batch_size, static_cast<std::int64_t>(in.prompt),
                                     static_cast<std::int64_t>(chunk), prefix)
          .seconds;
    } catch (const std::invalid_argument&) {
      // encoder or cross-attention layers: the engine step does not cover them; one pass below
    }
  }
  if (chunk > 0 && chunk < tokens) {
    // Too many steps to walk: one pass plus the weights read again, and the fixed cost, per extra step.
    const double steps = std::ceil(tokens / chunk);
    const double reread =
        detail::busiest_gpu_weight_bytes(pm, w.layout, chunk).read_per_decode_step / r.hbm_bytes_per_second;
    return one_pass + (steps - 1) * reread + steps * fixed_step_seconds(assume, layers, true, 0);
  }
  return one_pass + fixed_step_seconds(assume, layers, true, 0);
}

// Speculative decoding: the time per generated token of a step (draft passes and one verify pass)
// divided by the tokens it yields, at the first, last and middle context. Decoder-only models.
struct SpeculativePerToken {
  double first = 0, last = 0, mean = 0;
};
std::optional<SpeculativePerToken> speculative_per_token(const PreparedLatencyModel& pm, const InferenceWorkload& w,
                                                         const LatencyRates& r, const LatencyAssumptions& assume,
                                                         const LatencyRequest& request, const Inputs& in) {
  if (request.speculative.draft_tokens <= 0) return std::nullopt;
  const double tokens = expected_tokens_per_step(request.speculative);
  const auto at = [&](double context) {
    return speculative_step_seconds(pm, w, r, assume, request.speculative, w.batch_size,
                                    static_cast<std::int64_t>(context)) /
           tokens;
  };
  try {
    return SpeculativePerToken{at(in.prompt + 1), at(in.prompt + std::max(1.0, in.generated - 1)),
                               at(in.prompt + std::floor(in.generated / 2))};
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // encoder or cross-attention layers: the engine step does not cover them
  }
}

}  // namespace

LatencyTotals estimate_latency_totals(const PreparedLatencyModel& pm, const InferenceWorkload& w,
                                      const Accelerator& gpu, const LatencyRequest& request,
                                      const LatencyAssumptions& assume) {
  const Inputs in = read_inputs(pm, w, gpu, request, assume);
  const LatencyRates r = latency_rates(pm, gpu, w.layout, assume);
  TotalAccumulator prefill{0, r.hbm_bytes_per_second}, base{0, r.hbm_bytes_per_second};
  prefill_pass(prefill, pm, r, in);
  decode_base_pass(base, pm, r, in);
  TotalAccumulator first{base.total, r.hbm_bytes_per_second}, last{base.total, r.hbm_bytes_per_second};
  decode_attention_pass(first, pm, r, in, in.prompt + 1);
  decode_attention_pass(last, pm, r, in, in.prompt + std::max(1.0, in.generated - 1));
  const double fixed = fixed_step_seconds(assume, static_cast<double>(pm.layers), false, in.batch);
  const double prefill_seconds = engine_prefill_seconds(pm, w, r, assume, request, in, prefill.total);
  if (const auto spec = speculative_per_token(pm, w, r, assume, request, in))
    return totals_from(prefill_seconds, spec->first, spec->last, spec->mean, 0, in);
  return totals_from(prefill_seconds, first.total + fixed, last.total + fixed, base.total + fixed,
                     decode_attention_sum(pm, r, in), in);
}

LatencyEstimate estimate_latency(const PreparedLatencyModel& pm, const InferenceWorkload& w, const Accelerator& gpu,
                                 const LatencyRequest& request, const LatencyAssumptions& assume) {
  const Inputs in = read_inputs(pm, w, gpu, request, assume);
  LatencyEstimate e;
  e.rates = latency_rates(pm, gpu, w.layout, assume);
  const LatencyRates& r = e.rates;
  PhaseAccumulator prefill{e.prefill, r.hbm_bytes_per_second};
  prefill_pass(prefill, pm, r, in);
  finish_phase(e.prefill);
  LatencyPhase base{};
  PhaseAccumulator base_acc{base, r.hbm_bytes_per_second};
  decode_base_pass(base_acc, pm, r, in);
  auto step = [&](LatencyPhase& phase, double cache_tokens) {
    phase = base;
    PhaseAccumulator acc{phase, r.hbm_bytes_per_second};
    decode_attention_pass(acc, pm, r, in, cache_tokens);
    finish_phase(phase);
  };
  step(e.decode_first, in.prompt + 1);
  step(e.decode_last, in.prompt + std::max(1.0, in.generated - 1));
  step(e.decode_full, in.prompt + in.generated);
  finish_phase(base);
  const double fixed = fixed_step_seconds(assume, static_cast<double>(pm.layers), false, in.batch);
  const double prefill_seconds = engine_prefill_seconds(pm, w, r, assume, request, in, e.prefill.total_seconds);
  if (const auto spec = speculative_per_token(pm, w, r, assume, request, in))
    e.totals = totals_from(prefill_seconds, spec->first, spec->last, spec->mean, 0, in);
  else
    e.totals = totals_from(prefill_seconds, e.decode_first.total_seconds + fixed, e.decode_last.total_seconds + fixed,
                           base.total_seconds + fixed, decode_attention_sum(pm, r, in), in);

  const detail::GpuWeightBytes weights = detail::busiest_gpu_weight_bytes(pm, w.layout, in.batch);
  e.weight_bytes_per_gpu = weights.stored;
  e.decode_weight_bytes_read_per_gpu = weights.read_per_decode_step;
  e.prefill_dominates = e.totals.prefill_seconds >= e.totals.decode_total_seconds;
  const LatencyPhase& dominant = e.prefill_dominates ? e.prefill : e.decode_last;
  e.dominant_op = dominant.dominant_op;
  e.dominant_bound = dominant.dominant_bound;

  LlmAnalysisCompat& c = e.llm_analysis;
  const double dollars_per_second = e.totals.price_per_hour_usd / 3600;
  c.prefill_latency = e.prefill.total_seconds;
  c.decode_latency = e.decode_full.total_seconds;
  c.total_decode_latency = in.generated * c.decode_latency;
  c.total_latency = c.prefill_latency + c.total_decode_latency;
  c.total_per_token_latency = c.total_latency / in.generated;
  c.prefill_tokens_per_sec = in.batch * in.prompt / c.prefill_latency;
  c.decode_tokens_per_sec = in.batch / c.decode_latency;
  c.total_tokens_per_sec = in.batch * in.generated / c.total_latency;
  c.prefill_cost_per_1k_tokens = 1000 * dollars_per_second / c.prefill_tokens_per_sec;
  c.decode_cost_per_1k_tokens = 1000 * dollars_per_second / c.decode_tokens_per_sec;
  c.total_cost_per_1k_tokens = 1000 * dollars_per_second / c.total_tokens_per_sec;
  c.prefill_latency_by_op = e.prefill.seconds;
  c.decode_latency_by_op = e.decode_full.seconds;
  return e;
}

}  // namespace fitcheck
