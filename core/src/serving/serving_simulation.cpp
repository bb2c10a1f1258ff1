// SPDX-License-Identifier: MIT
// The continuous-batching event loop: one iteration per engine step. The scheduler follows vLLM
// V1's Scheduler.schedule() (vllm/v1/core/sched/scheduler.py; docs/serving.md): running requests
// first, in admission order, each taking the tokens it still lacks (one for a decode, the rest of
// its prompt for a prefill) out of the step's token budget; then waiting requests in arrival order
// while sequences, budget and KV blocks remain, the last one's prompt cut to the budget (chunked
// prefill). KV blocks are taken as tokens are computed; a running request that finds none evicts
// the latest-admitted one, which recomputes later (vLLM's recompute preemption).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "fitcheck/engine_step.hpp"
#include "fitcheck/serving.hpp"

namespace fitcheck {
namespace {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014; constants of Vigna's public-domain splitmix64.c): integer arithmetic only, so the same
// seed draws the same numbers natively and in WebAssembly.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::uint64_t state_;
};

std::int64_t draw_length(const TokenLengths& lengths, SplitMix64& random) {
  const double mean = static_cast<double>(lengths.tokens);
  switch (lengths.distribution) {
    case LengthDistribution::fixed:
      return lengths.tokens;
    case LengthDistribution::uniform: {
      const auto low = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(mean * (1 - lengths.spread))));
      const auto high = std::max(low, static_cast<std::int64_t>(std::floor(mean * (1 + lengths.spread))));
      const auto span = static_cast<std::uint64_t>(high - low + 1);
      return low + static_cast<std::int64_t>(random.next() % span);
    }
    case LengthDistribution::normal: {
      double z = -6;  // Irwin-Hall: the sum of 12 uniforms less 6 has mean 0 and variance 1
      for (int i = 0; i < 12; ++i) z += random.uniform();
      return std::max<std::int64_t>(1, std::llround(mean + lengths.spread * mean * z));
    }
  }
  return lengths.tokens;
}

// numpy.percentile's default (linear): rank q/100 x (n - 1) between the sorted values.
double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double rank = q / 100 * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (rank - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

struct Request {
  double arrival = 0;
  std::int64_t prompt = 0, output = 0;
  std::int64_t computed = 0;   // tokens whose keys and values are in the cache
  std::int64_t generated = 0;  // output tokens sampled so far
  std::int64_t blocks = 0;     // KV blocks held
  std::int64_t shared = 0;     // blocks of the cached shared prefix it uses (held by the cache, not by it)
  double credit = 0;           // speculative decoding: expected accepted tokens not yet taken
  double first_scheduled = -1, first_token = -1, end = -1;
};

struct Scheduled {
  std::int32_t request;
  std::int64_t tokens;
  bool speculative;  // a decode step verifying draft tokens
};

void check(bool ok, const char* message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

ServingResult simulate_serving(const PreparedLatencyModel& model, const InferenceWorkload& workload,
                               const Accelerator& gpu, const LatencyAssumptions& assumptions,
                               const SchedulerLimits& limits, const ServingLoad& load) {
  check(limits.max_num_seqs >= 1 && limits.max_num_batched_tokens >= 1 && limits.kv_block_tokens >= 1,
        "max_num_seqs, max_num_batched_tokens and the KV block must be at least 1");
  check(limits.kv_capacity_blocks >= 1, "no KV cache blocks fit beside the weights and activations");
  check(limits.kv_blocks_per_token_block >= 0 && limits.kv_fixed_blocks_per_sequence >= 0 &&
            limits.kv_blocks_per_token_block + limits.kv_fixed_blocks_per_sequence >= 1,
        "a sequence must hold at least one KV block");
  check(limits.step_overhead_seconds >= 0 && limits.step_overhead_seconds < 1e3,
        "the step overhead must be between 0 and 1000 s");
  check(limits.request_overhead_seconds >= 0 && limits.request_overhead_seconds < 1e3,
        "the request overhead must be between 0 and 1000 s");
  check(load.requests >= 1 && load.requests <= kMaxServingRequests, "requests must be between 1 and 2^20");
  check((load.concurrency > 0) != (load.arrival_rate_per_second > 0),
        "give either a concurrency or an arrival rate (not both)");
  check(!load.trace.empty() || (load.prompt.tokens >= 1 && load.output.tokens >= 1),
        "prompt and output lengths must be at least 1");
  check(load.prompt.spread >= 0 && load.output.spread >= 0 && load.prompt.spread <= 1e3 && load.output.spread <= 1e3,
        "length spreads must be between 0 and 1000");
  check(workload.layout.tensor_parallel >= 1 && workload.layout.pipeline_parallel >= 1 &&
            workload.layout.expert_parallel >= 1,
        "parallel sizes must be at least 1");
  check(workload.weight_format == model.weight_format, "the workload's weight format is not the prepared one");
  const StepWindows windows = make_step_windows(model);
  const LatencyRates rates = latency_rates(model, gpu, workload.layout, assumptions);
  const double layers = static_cast<double>(model.layers);

  // Requests with their lengths and (Poisson) arrival times, drawn in request order.
  const auto n = static_cast<std::size_t>(load.requests);
  std::vector<Request> requests(n);
  SplitMix64 random(load.seed);
  double clock = 0;
  const std::int64_t block_tokens = limits.kv_block_tokens;
  const auto sequence_blocks = [&](std::int64_t tokens) { return kv_blocks_for_sequence(limits, tokens); };
  for (std::size_t i = 0; i < n; ++i) {
    Request& r = requests[i];
    if (load.trace.empty()) {
      r.prompt = draw_length(load.prompt, random);
      r.output = draw_length(load.output, random);
    } else {
      const RequestLengths& replayed = load.trace[i % load.trace.size()];
      r.prompt = replayed.prompt;
      r.output = replayed.output;
      check(r.prompt >= 1 && r.output >= 1, "a trace's prompt and output lengths must be at least 1");
    }
    if (load.arrival_rate_per_second > 0) {
      if (i > 0) clock += -std::log1p(-random.uniform()) / load.arrival_rate_per_second;  // exponential gaps
      r.arrival = clock;
    }
    if (sequence_blocks(r.prompt + r.output) > limits.kv_capacity_blocks)
      throw std::invalid_argument("a request of " + std::to_string(r.prompt) + " + " + std::to_string(r.output) +
                                  " tokens needs " + std::to_string(sequence_blocks(r.prompt + r.output)) +
                                  " KV blocks of " + std::to_string(block_tokens) + " tokens; the cache holds " +
                                  std::to_string(limits.kv_capacity_blocks));
  }
  std::int64_t output_tokens = 0;
  for (const Request& r : requests) output_tokens += r.output;
  if (output_tokens > kMaxServingOutputTokens)
    throw std::invalid_argument("the requests ask for " + std::to_string(output_tokens) +
                                " output tokens in all; the simulation takes at most 2^28 (a few seconds of work)");
  // Closed loop: the first `concurrency` requests arrive at 0, each later one when one finishes.
  std::size_t issued = load.concurrency > 0 ? std::min<std::size_t>(n, static_cast<std::size_t>(load.concurrency)) : n;

  std::vector<std::int32_t> running, preempted;  // preempted: a stack, the next to resume on top
  std::vector<Scheduled> scheduled;
  const auto seats = static_cast<std::size_t>(std::min<std::int64_t>(limits.max_num_seqs, load.requests));
  running.reserve(seats);
  scheduled.reserve(seats);
  preempted.reserve(n);  // every request could wait there: no allocation inside the loop
  std::size_t next_new = 0, finished = 0;
  // Full blocks of tokens only, each held in every group that holds blocks per token; none where the
  // engine keeps no prefix.
  const std::int64_t prefix_token_blocks = limits.prefix_caching ? load.shared_prefix_tokens / block_tokens : 0;
  const std::int64_t prefix_blocks = prefix_token_blocks * limits.kv_blocks_per_token_block;
  const std::int64_t prefix_tokens = prefix_token_blocks * block_tokens;
  bool prefix_cached = false;
  const SpeculativeDecoding& spec = limits.speculative;
  const double accepted_per_step = expected_tokens_per_step(spec);
  const auto decoding = [](const Request& r) { return r.generated >= 1 && r.computed + 1 == r.prompt + r.generated; };
  std::int64_t free_blocks = limits.kv_capacity_blocks;
  ServingResult result;
  double now = 0, weighted_batch = 0, weighted_tokens = 0;
  // A request reaches the scheduler's queue request_overhead_seconds after it is sent; it then
  // waits for the step in flight (steps are not interrupted) like every arrival.
  const double ingress = limits.request_overhead_seconds;
  const auto ready = [&](std::size_t i) { return requests[i].arrival + ingress; };
  // SGLang: the output tokens a running request is still expected to write, held back from admission.
  double token_ratio = SglangTokenRatio::kInitial;
  const auto expected_output = [](const Request& r) {
    return std::min(r.output - r.generated, SglangTokenRatio::kClipMaxNewTokens);
  };

  while (finished < n) {
    const bool arrived = next_new < issued && ready(next_new) <= now;
    if (running.empty() && preempted.empty() && !arrived) {
      if (next_new >= issued) throw std::logic_error("the simulation has nothing to run and nothing to wait for");
      now = ready(next_new);  // idle until the next request reaches the scheduler
    }
    // Running requests first, in admission order. SGLang (prefill_first) takes only the ones still
    // prefilling here; its decodes run in a step of their own when no prompt can start.
    scheduled.clear();
    std::int64_t budget = limits.max_num_batched_tokens;
    bool preempted_now = false;
    const auto schedule_running = [&](bool prompts_only) {
      for (std::size_t i = 0; i < running.size() && budget > 0; ++i) {
        Request& r = requests[static_cast<std::size_t>(running[i])];
        if (prompts_only && decoding(r)) continue;
        const bool speculative = spec.draft_tokens > 0 && decoding(r);
        const std::int64_t tokens =
            std::min(speculative ? spec.draft_tokens + 1 : r.prompt + r.generated - r.computed, budget);
        const std::int64_t need = std::max<std::int64_t>(0, sequence_blocks(r.computed + tokens) - r.shared - r.blocks);
        bool evicted_self = false;
        while (need > free_blocks) {
          // Evict the latest-admitted request (vLLM: self.running.pop()), this one if it is the last.
          const std::int32_t victim = running.back();
          running.pop_back();
          Request& v = requests[static_cast<std::size_t>(victim)];
          free_blocks += v.blocks;
          v.blocks = 0;
          v.computed = v.shared > 0 ? prefix_tokens : 0;  // the shared prefix stays cached
          preempted.push_back(victim);
          ++result.preemptions;
          preempted_now = true;
          if (static_cast<std::size_t>(i) >= running.size()) {
            evicted_self = true;
            break;
          }
        }
        if (evicted_self) break;
        free_blocks -= need;
        r.blocks += need;
        budget -= tokens;
        scheduled.push_back({running[i], tokens, speculative});
      }
    };
    schedule_running(limits.prefill_first);
    if (preempted_now && limits.reserve_estimated_output) {
      // SGLang's retract_decode re-estimates the ratio from the requests still running.
      std::int64_t decoded = 0, max_new = 0;
      for (std::int32_t id : running) {
        decoded += requests[static_cast<std::size_t>(id)].generated;
        max_new += requests[static_cast<std::size_t>(id)].output;
      }
      token_ratio = SglangTokenRatio::after_retraction(decoded, static_cast<std::int64_t>(running.size()), max_new);
    }
    // SGLang: the pool held back for the running requests' expected output (PrefillAdder offset).
    double held_back = 0;
    if (limits.reserve_estimated_output)
      for (std::int32_t id : running)
        held_back += static_cast<double>(expected_output(requests[static_cast<std::size_t>(id)])) * token_ratio;
    // Then waiting requests, first come first served, unless this step preempted (as vLLM).
    // Static batches (HF generate): a new batch starts only when the last one has finished.
    const bool admitting = limits.continuous_batching || running.empty();
    while (admitting && !preempted_now && running.size() < static_cast<std::size_t>(limits.max_num_seqs) &&
           budget > 0) {
      std::int32_t id;
      if (!preempted.empty())
        id = preempted.back();
      else if (next_new < issued && ready(next_new) <= now)
        id = static_cast<std::int32_t>(next_new);
      else
        break;
      Request& r = requests[static_cast<std::size_t>(id)];
      // A new request whose prompt starts with the cached prefix holds its blocks shared.
      const bool hit = prefix_cached && r.computed == 0 && r.shared == 0 && prefix_tokens < r.prompt;
      const std::int64_t start = hit ? prefix_tokens : r.computed, shared = hit ? prefix_blocks : r.shared;
      const std::int64_t left = r.prompt + r.generated - start;
      // Without chunked prefill a prompt runs whole: it waits for a step with room, or runs alone.
      if (!limits.chunked_prefill && left > budget && !scheduled.empty()) break;
      const std::int64_t tokens = limits.chunked_prefill ? std::min(left, budget) : left;
      // A no-evict engine reserves the blocks of the whole request at admission.
      const std::int64_t held = limits.reserve_whole_request ? r.prompt + r.output : start + tokens;
      const std::int64_t need = std::max<std::int64_t>(0, sequence_blocks(held) - shared - r.blocks);
      if (need > free_blocks) {
        result.kv_limited = true;  // the queue's head waits for blocks (vLLM: break, FCFS)
        break;
      }
      // SGLang admits a request only if its remaining prompt and its whole (clipped) output fit the
      // pool less what the running requests are expected to write; it then holds that much back.
      const double admitted_tokens = static_cast<double>(left + expected_output(r));
      if (limits.reserve_estimated_output &&
          admitted_tokens > static_cast<double>(free_blocks * block_tokens) - held_back) {
        result.kv_limited = true;
        break;
      }
      held_back += admitted_tokens - static_cast<double>(tokens);  // the chunk's tokens take blocks now
      if (!preempted.empty())
        preempted.pop_back();
      else
        ++next_new;
      if (r.first_scheduled < 0) r.first_scheduled = now;
      r.computed = start;
      r.shared = shared;
      free_blocks -= need;
      r.blocks += need;
      budget = std::max<std::int64_t>(0, budget - tokens);
      running.push_back(id);
      scheduled.push_back({id, tokens, false});
    }
    // SGLang: no prompt could start, so the running requests decode (Scheduler.get_next_batch_to_run).
    if (limits.prefill_first && scheduled.empty()) schedule_running(false);
    if (scheduled.empty()) throw std::logic_error("the simulation scheduled an empty step");

    // The step's time from its tokens.
    EngineStepTokens step, draft;
    bool prompt_tokens = false;
    double decoding_sequences = 0;
    for (const Scheduled& s : scheduled) {
      const Request& r = requests[static_cast<std::size_t>(s.request)];
      if (s.speculative) {
        // The verify pass: the last token and the drafts attend the cache; every position is scored.
        add_prefill_chunk(step, windows, r.computed, s.tokens, false);
        step.prefill_logit_rows += static_cast<double>(s.tokens);
        add_decode_sequence(draft, windows, r.computed + 1);
        decoding_sequences += 1;
      } else if (r.generated >= 1 && s.tokens == 1 && decoding(r)) {
        add_decode_sequence(step, windows, r.computed + 1);  // attends its cache and itself
        decoding_sequences += 1;
      } else {
        add_prefill_chunk(step, windows, r.computed, s.tokens, r.computed + s.tokens == r.prompt + r.generated);
        prompt_tokens = true;
      }
    }
    double seconds = engine_step_seconds(model, workload, rates, windows, step) +
                     fixed_step_seconds(assumptions, layers, prompt_tokens, decoding_sequences) +
                     limits.step_overhead_seconds;
    if (draft.decode_sequences > 0)  // draft_tokens passes of draft_layers layers each
      seconds += static_cast<double>(spec.draft_tokens) * spec.draft_layers / layers *
                 engine_step_seconds(model, workload, rates, windows, draft);
    now += seconds;
    ++result.steps;
    if (decoding_sequences > 0) token_ratio = SglangTokenRatio::decayed(token_ratio);
    weighted_batch += seconds * static_cast<double>(scheduled.size());
    weighted_tokens += seconds * (step.prefill_tokens + step.decode_sequences);
    result.max_running = std::max(result.max_running, static_cast<std::int64_t>(running.size()));
    result.peak_kv_blocks_used = std::max(result.peak_kv_blocks_used, limits.kv_capacity_blocks - free_blocks);

    // Sample a token for every request whose cache now holds all its tokens; retire finished ones.
    bool any_finished = false;
    for (const Scheduled& s : scheduled) {
      Request& r = requests[static_cast<std::size_t>(s.request)];
      if (s.speculative) {
        // Accepted drafts plus the target's own token, the expected count carried as a credit.
        r.credit += accepted_per_step;
        const std::int64_t accepted =
            std::min({std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(r.credit))), s.tokens,
                      r.output - r.generated});
        r.credit -= static_cast<double>(accepted);
        r.computed += accepted;
        r.generated += accepted;
      } else {
        r.computed += s.tokens;
        if (r.computed < r.prompt + r.generated) continue;  // a prompt chunk short of the end
        ++r.generated;
      }
      if (prefix_blocks > 0 && !prefix_cached && r.shared == 0 && r.computed >= prefix_tokens) {
        prefix_cached = true;  // its prefix blocks stay in the cache for every later request
        r.blocks -= prefix_blocks;
        r.shared = prefix_blocks;
      }
      if (r.generated == 1) r.first_token = now;
      if (r.generated == r.output) {
        r.end = now;
        free_blocks += r.blocks;
        r.blocks = 0;
        any_finished = true;
        ++finished;
        if (issued < n) requests[issued++].arrival = now;  // closed loop: the next one arrives
      }
    }
    if (any_finished)
      running.erase(std::remove_if(running.begin(), running.end(),
                                   [&](std::int32_t id) { return requests[static_cast<std::size_t>(id)].end >= 0; }),
                    running.end());
  }

  // Figures as vLLM's benchmark reports them.
  std::vector<double> ttft, tpot;
  ttft.reserve(n);
  tpot.reserve(n);
  double queue = 0, e2e = 0;
  for (const Request& r : requests) {
    ttft.push_back(r.first_token - r.arrival);
    if (r.output > 1) tpot.push_back((r.end - r.first_token) / static_cast<double>(r.output - 1));
    queue += r.first_scheduled - r.arrival;
    e2e += r.end - r.arrival;
    result.prompt_tokens += r.prompt;
    result.output_tokens += r.output;
  }
  std::sort(ttft.begin(), ttft.end());
  std::sort(tpot.begin(), tpot.end());
  const double requests_count = static_cast<double>(n);
  result.requests = load.requests;
  result.duration_seconds = now;
  result.output_tokens_per_second = static_cast<double>(result.output_tokens) / now;
  result.input_tokens_per_second = static_cast<double>(result.prompt_tokens) / now;
  result.requests_per_second = requests_count / now;
  result.ttft_seconds_p50 = percentile(ttft, 50);
  result.ttft_seconds_p90 = percentile(ttft, 90);
  result.ttft_seconds_p95 = percentile(ttft, 95);
  result.ttft_seconds_p99 = percentile(ttft, 99);
  result.ttft_seconds_mean = mean(ttft);
  result.tpot_seconds_p50 = percentile(tpot, 50);
  result.tpot_seconds_p90 = percentile(tpot, 90);
  result.tpot_seconds_p95 = percentile(tpot, 95);
  result.tpot_seconds_p99 = percentile(tpot, 99);
  result.tpot_seconds_mean = mean(tpot);
  result.e2e_seconds_mean = e2e / requests_count;
  result.queue_seconds_mean = queue / requests_count;
  result.mean_running_batch = weighted_batch / now;
  result.mean_step_tokens = weighted_tokens / now;
  if (result.preemptions > 0) result.kv_limited = true;
  return result;
}

}  // namespace fitcheck
