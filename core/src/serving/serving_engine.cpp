// SPDX-License-Identifier: MIT
// Engine profiles for the serving simulation: vLLM V1's scheduler defaults and its KV cache size.
// Sources: docs/engines-serving.md sections 1.1-1.3; rules: docs/serving.md.
#include <algorithm>
#include <optional>
#include <string_view>

#include "fitcheck/serving.hpp"
#include "placement/sharding.hpp"
#include "support/number_text.hpp"

namespace fitcheck {

const char* length_distribution_name(LengthDistribution distribution) {
  switch (distribution) {
    case LengthDistribution::fixed:
      return "fixed";
    case LengthDistribution::uniform:
      return "uniform";
    case LengthDistribution::normal:
      return "normal";
  }
  return "fixed";
}

namespace {

// The cache of one block of one sequence: its tokens' keys and values only. Cross-attention keys and
// values of a source fixed per sequence (Whisper's encoder frames, Llama 3.2 Vision's image tokens)
// are held once per sequence, not per block, and are left out.
std::int64_t per_token_block_bytes(const ModelDescription& model, const InferenceWorkload& one_block,
                                   std::int64_t kv_cache_bytes) {
  const bool any = std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(), [](const LayerShape& kind) {
    return kind.attention.cross_attention && kind.attention.cross_source_per_sequence;
  });
  if (!any) return kv_cache_bytes;
  std::int64_t fixed = 0;
  for (const KvCacheLayerTerm& term : kv_cache(model, one_block).terms)
    if (term.cross_bytes_per_sequence_per_layer > 0) fixed += term.bytes;
  return kv_cache_bytes - fixed;
}

// A hybrid model's cache layers on the busiest GPU, from the cache terms of one sequence of one block:
// the attention layers' bytes per token and the recurrent layers' state per sequence, in all and per
// layer (uniform when every layer of the kind has the same), and whether a layer's cache is of a kind
// the engines' hybrid rules here do not lay out (a sliding window, cross-attention).
struct HybridLayers {
  std::int64_t attention_layers = 0, attention_bytes_per_token = 0, attention_bytes_per_token_per_layer = 0;
  std::int64_t state_layers = 0, state_bytes_per_sequence = 0, state_bytes_per_layer = 0;
  bool uniform = true, other_kinds = false;
};

HybridLayers hybrid_layers(const ModelDescription& model, const InferenceWorkload& one_block) {
  HybridLayers h;
  const auto same = [&](std::int64_t& slot, std::int64_t value) {
    if (slot != 0 && slot != value) h.uniform = false;
    slot = value;
  };
  for (const KvCacheLayerTerm& term : kv_cache(model, one_block).terms) {
    if (term.layers <= 0 || term.bytes <= 0) continue;
    if (term.state_bytes_per_sequence_per_layer > 0) {
      same(h.state_bytes_per_layer, term.bytes / term.layers);
      h.state_layers += term.layers;
      h.state_bytes_per_sequence += term.bytes;
    } else if (term.cross_bytes_per_sequence_per_layer > 0 ||
               model.layer_kinds[term.layer_kind].attention.sliding_window > 0 ||
               term.cached_tokens_per_sequence != one_block.context_tokens) {
      h.other_kinds = true;
    } else {
      same(h.attention_bytes_per_token_per_layer, term.bytes / (term.layers * term.cached_tokens_per_sequence));
      h.attention_layers += term.layers;
      h.attention_bytes_per_token += term.bytes / term.cached_tokens_per_sequence;
    }
  }
  return h;
}

// vLLM V1's hybrid allocator (vllm/model_executor/models/config.py HybridAttentionMambaModelConfig at
// 0144dd5b; vllm/v1/core/kv_cache_utils.py at 001cabc1): the attention block grows to 16 x
// cdiv(state page, 16 x attention page of a token) tokens so one page of either kind is the same size
// (the state's padded up); layers go into groups of the smaller kind's layer count (the larger's if it
// is under 1.5 times it), group_size tensors each shared by one layer of every group hold num_blocks
// pages, and a request takes a block of each attention group per block of tokens and one block of
// each state group (prefix caching is off for these models: MambaModelConfig). A model of recurrent
// layers alone is one group, a block a sequence.
// HybridAttentionMambaModelConfig: the grown attention block is a multiple of 16 tokens ("some attention
// backends (e.g. FA) only support setting block size to multiple of 16").
constexpr std::int64_t kVllmHybridBlockMultiple = 16;

void size_vllm_hybrid(const HybridLayers& h, std::int64_t limits_block_tokens, KvCapacity& capacity) {
  capacity.prefix_caching = false;  // MambaModelConfig: "disabling prefix caching since it is not yet supported"
  const std::int64_t available = std::max<std::int64_t>(0, capacity.budget_bytes - capacity.non_kv_bytes);
  const auto cdiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  if (h.attention_layers == 0) {
    capacity.block_bytes = h.state_bytes_per_layer * h.state_layers;
    capacity.blocks = capacity.block_bytes > 0 ? available / capacity.block_bytes : 0;
    capacity.blocks_per_token_block = 0;
    capacity.fixed_blocks_per_sequence = 1;
    capacity.tokens = 0;
    capacity.rule = "vLLM: recurrent layers only, one group; a sequence holds one block of " +
                    std::to_string(capacity.block_bytes) +
                    " B (its state in every layer): " + std::to_string(capacity.blocks) +
                    " blocks (vllm/v1/core/kv_cache_utils.py get_kv_cache_config_from_groups at 001cabc1)";
    return;
  }
  const std::int64_t token_page = h.attention_bytes_per_token_per_layer;
  const std::int64_t block =
      std::max(limits_block_tokens,
               kVllmHybridBlockMultiple * cdiv(h.state_bytes_per_layer, kVllmHybridBlockMultiple * token_page));
  const std::int64_t page = block * token_page;
  const std::int64_t fewer = std::min(h.attention_layers, h.state_layers);
  const std::int64_t more = std::max(h.attention_layers, h.state_layers);
  // _get_kv_cache_groups_uniform_page_size: the larger count when it is under 1.5 times the smaller.
  const std::int64_t group_size = 2 * more < 3 * fewer ? more : fewer;
  const std::int64_t attention_groups = cdiv(h.attention_layers, group_size);
  const std::int64_t state_groups = cdiv(h.state_layers, group_size);
  capacity.block_tokens = block;
  capacity.block_bytes = page * group_size;
  capacity.blocks = available / capacity.block_bytes;
  capacity.blocks_per_token_block = attention_groups;
  capacity.fixed_blocks_per_sequence = state_groups;
  capacity.tokens = capacity.blocks / (attention_groups + state_groups) * block;
  capacity.rule =
      "vLLM hybrid cache: attention block " + std::to_string(block) + " tokens = 16 x cdiv(state page " +
      std::to_string(h.state_bytes_per_layer) + " B, 16 x " + std::to_string(token_page) +
      " B a token) (HybridAttentionMambaModelConfig, vllm/model_executor/models/config.py at 0144dd5b), page " +
      std::to_string(page) + " B; " + std::to_string(h.attention_layers) + " attention and " +
      std::to_string(h.state_layers) + " recurrent layers in groups of " + std::to_string(group_size) + " (" +
      std::to_string(attention_groups) + " + " + std::to_string(state_groups) + "), " + std::to_string(available) +
      " B / (" + std::to_string(group_size) + " x " + std::to_string(page) +
      " B) = " + std::to_string(capacity.blocks) + " blocks shared by every group; a sequence holds " +
      std::to_string(attention_groups) + " block(s) per " + std::to_string(block) + " tokens and " +
      std::to_string(state_groups) + " for its state; the log's KV cache size " + std::to_string(capacity.tokens) +
      " tokens = blocks / groups x block (vllm/v1/core/kv_cache_utils.py at 001cabc1); prefix caching off";
}

// SGLang's hybrid pools (python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py at 001ccef0,
// handle_max_mamba_cache and init_memory): of what the static budget leaves, the state pool takes
// ratio / (1 + ratio) in whole slots of one sequence's state, the KV pool (attention layers only) the
// rest, and max_running_requests is at most the slots / MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO.
void size_sglang_hybrid(const HybridLayers& h, const EngineProfile& profile, KvCapacity& capacity) {
  const std::int64_t rest = std::max<std::int64_t>(0, capacity.budget_bytes - capacity.non_kv_bytes);
  const double ratio = profile.mamba_full_memory_ratio;
  capacity.state_slots =
      static_cast<std::int64_t>(static_cast<double>(rest) * ratio / (1 + ratio)) / h.state_bytes_per_sequence;
  capacity.state_bytes = capacity.state_slots * h.state_bytes_per_sequence;
  capacity.block_bytes = h.attention_bytes_per_token;
  capacity.tokens = (rest - capacity.state_bytes) / h.attention_bytes_per_token;
  capacity.max_running_sequences = capacity.state_slots / profile.mamba_slots_per_running_request;
  capacity.blocks = capacity.max_running_sequences > 0 ? capacity.tokens : 0;
  capacity.rule = "SGLang hybrid pools: of " + std::to_string(rest) + " B the state pool takes " +
                  detail::three_significant_digits(ratio) + " / (1 + " + detail::three_significant_digits(ratio) +
                  ") in slots of " + std::to_string(h.state_bytes_per_sequence) + " B (one sequence's state in its " +
                  std::to_string(h.state_layers) + " recurrent layers): " + std::to_string(capacity.state_slots) +
                  " slots, " + std::to_string(capacity.state_bytes) + " B; the KV pool the rest over " +
                  std::to_string(h.attention_layers) + " attention layers at " +
                  std::to_string(h.attention_bytes_per_token) + " B a token: " + std::to_string(capacity.tokens) +
                  " tokens; max_running_requests at most " + std::to_string(capacity.state_slots) + " / " +
                  std::to_string(profile.mamba_slots_per_running_request) + " = " +
                  std::to_string(capacity.max_running_sequences) +
                  " (mamba_full_memory_ratio, sgl-project/sglang#11679; model_runner_kv_cache_mixin.py at 001ccef0)";
}

}  // namespace

void apply_kv_capacity(const KvCapacity& capacity, SchedulerLimits& limits) {
  limits.kv_capacity_blocks = capacity.blocks;
  if (capacity.block_tokens > 0) limits.kv_block_tokens = capacity.block_tokens;
  limits.kv_blocks_per_token_block = capacity.blocks_per_token_block;
  limits.kv_fixed_blocks_per_sequence = capacity.fixed_blocks_per_sequence;
  limits.prefix_caching = capacity.prefix_caching;
  if (capacity.max_running_sequences > 0)
    limits.max_num_seqs = std::min(limits.max_num_seqs, capacity.max_running_sequences);
}

std::int64_t kv_blocks_for_sequence(const SchedulerLimits& limits, std::int64_t tokens) {
  if (tokens <= 0) return 0;
  const std::int64_t block = std::max<std::int64_t>(1, limits.kv_block_tokens);
  return limits.kv_blocks_per_token_block * ((tokens + block - 1) / block) + limits.kv_fixed_blocks_per_sequence;
}

SchedulerLimits vllm_default_limits(const Accelerator& gpu) {
  // vllm/engine/arg_utils.py EngineArgs._set_default_args (v0.9 on, copy read v0.10/v0.11), the
  // OpenAI API server column: device_memory >= 70 GiB and not an A100 ("Setting large
  // max_num_batched_tokens for A100 reduces throughput", PR #17885) -> 8192 tokens, 1024 sequences;
  // otherwise 2048 and 256.
  constexpr std::int64_t kLargeDeviceBytes = std::int64_t{70} << 30;
  const bool a100 = std::string_view(gpu.id).starts_with("a100");
  SchedulerLimits limits;
  if (gpu.memory_bytes >= kLargeDeviceBytes && !a100) {
    limits.max_num_batched_tokens = 8192;
    limits.max_num_seqs = 1024;
  } else {
    limits.max_num_batched_tokens = 2048;
    limits.max_num_seqs = 256;
  }
  limits.kv_block_tokens = 16;  // CacheConfig.DEFAULT_BLOCK_SIZE (vllm/config/cache.py at 002f10e0)
  return limits;
}

KvCapacity vllm_kv_capacity(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                            const InferenceWorkload& workload, const Accelerator& gpu, const SchedulerLimits& limits) {
  // vLLM's profiling run is one dummy batch of max_num_batched_tokens tokens; its activation peak,
  // the weights and other allocations come out of gpu_memory_utilization x memory and the rest is
  // KV cache (vllm/v1/worker/gpu_worker.py Worker.determine_available_memory).
  InferenceWorkload profile = workload;
  profile.batch_size = 1;
  profile.context_tokens = limits.max_num_batched_tokens;
  profile.prefill_chunk_tokens = limits.max_num_batched_tokens;
  profile.kv_block_tokens = limits.kv_block_tokens;
  const LayoutWeights weights = layout_weights(model, tensors, profile);
  const InferenceMemoryTotals peak = inference_memory_totals(model, weights, profile);
  InferenceWorkload one_block = profile;
  one_block.context_tokens = limits.kv_block_tokens;
  one_block.prefill_chunk_tokens = 0;
  const InferenceMemoryTotals block = inference_memory_totals(model, weights, one_block);

  KvCapacity capacity;
  capacity.budget_bytes =
      static_cast<std::int64_t>(workload.gpu_memory_utilization * static_cast<double>(gpu_memory_limit_bytes(gpu)));
  capacity.non_kv_bytes = peak.total_bytes_per_gpu - peak.kv_cache_bytes;
  capacity.block_bytes = per_token_block_bytes(model, one_block, block.kv_cache_bytes);
  if (capacity.block_bytes > 0 && capacity.budget_bytes > capacity.non_kv_bytes)
    capacity.blocks = (capacity.budget_bytes - capacity.non_kv_bytes) / capacity.block_bytes;
  return capacity;
}

SchedulerLimits scheduler_limits(const EngineProfile& profile) {
  SchedulerLimits limits;
  limits.max_num_seqs = profile.max_num_seqs;
  limits.max_num_batched_tokens = profile.max_num_batched_tokens;
  limits.kv_block_tokens = std::max<std::int64_t>(1, profile.kv_block_tokens);  // unpaged: exact per token
  limits.chunked_prefill = profile.chunked_prefill;
  limits.continuous_batching = profile.continuous_batching;
  // llama.cpp holds a slot's whole context from the start, as a no-evict reservation does.
  limits.reserve_whole_request =
      profile.reserve_whole_request || profile.kv_budget == KvBudgetRule::whole_context_slots;
  limits.reserve_estimated_output = profile.reserve_estimated_output;
  limits.prefill_first = profile.prefill_first;
  limits.request_overhead_seconds = profile.request_overhead_seconds;
  return limits;
}

double SglangTokenRatio::after_retraction(std::int64_t decoded, std::int64_t requests, std::int64_t max_new_tokens) {
  if (max_new_tokens <= 0) return 1;
  return std::min(1.0,
                  static_cast<double>(decoded + kRetractDecodeSteps * requests) / static_cast<double>(max_new_tokens));
}

KvCapacity engine_kv_capacity(const EngineProfile& profile, double fraction, const ModelDescription& model,
                              const std::vector<WeightTensor>& tensors, const InferenceWorkload& workload,
                              const Accelerator& gpu, const SchedulerLimits& limits) {
  // The profiled step: max_num_batched_tokens tokens; vLLM V1 then samples one row per request of
  // the dummy batch, min(max_num_seqs, max_num_batched_tokens) rows
  // (vllm/v1/worker/gpu_model_runner.py profile_run -> _dummy_sampler_run).
  const std::int64_t step_tokens = limits.max_num_batched_tokens;
  const std::int64_t rows = profile.profiles_sampler_rows ? std::min(limits.max_num_seqs, step_tokens) : 1;
  InferenceWorkload profile_step = workload;
  profile_step.batch_size = rows;
  profile_step.context_tokens = (step_tokens + rows - 1) / rows;
  profile_step.prefill_chunk_tokens = step_tokens;
  profile_step.kv_block_tokens = limits.kv_block_tokens;
  const LayoutWeights weights = layout_weights(model, tensors, profile_step);
  const InferenceMemoryTotals peak = inference_memory_totals(model, weights, profile_step);
  InferenceWorkload one_block = profile_step;
  one_block.batch_size = 1;
  one_block.context_tokens = limits.kv_block_tokens;
  one_block.prefill_chunk_tokens = 0;
  const InferenceMemoryTotals block = inference_memory_totals(model, weights, one_block);

  KvCapacity capacity;
  const double total = static_cast<double>(gpu_memory_limit_bytes(gpu));
  capacity.block_bytes = per_token_block_bytes(model, one_block, block.kv_cache_bytes);
  switch (profile.kv_budget) {
    case KvBudgetRule::total_minus_reserve:
      // SGLang: the reserve (1 - fraction) holds activations and graphs; the pool is what the
      // weights and the framework's own allocations leave of fraction x memory.
      capacity.budget_bytes = static_cast<std::int64_t>(fraction * total);
      capacity.non_kv_bytes = peak.weight_bytes + peak.overhead_bytes;
      break;
    case KvBudgetRule::share_of_free: {
      // TensorRT-LLM: fraction of the memory free once weights and activation buffers are placed.
      const std::int64_t non_kv = peak.total_bytes_per_gpu - peak.kv_cache_bytes;
      capacity.non_kv_bytes = non_kv;
      capacity.budget_bytes =
          non_kv + static_cast<std::int64_t>(fraction * std::max(0.0, total - static_cast<double>(non_kv)));
      break;
    }
    case KvBudgetRule::share_of_total:
    case KvBudgetRule::whole_context_slots:
    case KvBudgetRule::grows_with_sequences:
      capacity.budget_bytes = static_cast<std::int64_t>(fraction * total);
      capacity.non_kv_bytes = peak.total_bytes_per_gpu - peak.kv_cache_bytes + profile.cuda_graph_bytes;
      if (profile.non_torch_bytes >= 0) {
        // vLLM V1: fraction x CUDA's total, and the memory allocated outside PyTorch during the
        // profile in place of the overhead (engine_profile.cpp kVllmNonTorchBytesOneGpu).
        if (gpu.cuda_total_bytes > 0)
          capacity.budget_bytes = static_cast<std::int64_t>(fraction * static_cast<double>(gpu.cuda_total_bytes));
        capacity.non_kv_bytes += profile.non_torch_bytes - peak.overhead_bytes;
      }
      if (profile.sampler_sort_bytes_per_logit > 0) {
        // The sampler runs after the step's activations are freed: the profile's peak is the larger
        // of the two, the sort's buffers counting the logits (every rank holds the whole vocabulary).
        capacity.sampler_bytes = detail::checked_product(detail::checked_product(rows, model.vocab_size, "the sampler"),
                                                         profile.sampler_sort_bytes_per_logit, "the sampler");
        capacity.non_kv_bytes += std::max(peak.activation_bytes + peak.logits_bytes, capacity.sampler_bytes) -
                                 peak.activation_bytes - peak.logits_bytes;
      }
      break;
  }
  if (capacity.block_bytes > 0 && capacity.budget_bytes > capacity.non_kv_bytes)
    capacity.blocks = (capacity.budget_bytes - capacity.non_kv_bytes) / capacity.block_bytes;
  capacity.tokens = capacity.blocks * limits.kv_block_tokens;
  if (!model.has_recurrent_layers()) return capacity;
  const HybridLayers h = hybrid_layers(model, one_block);
  const bool laid_out = h.state_layers > 0 && h.uniform && !h.other_kinds;
  if (laid_out && profile.hybrid_cache == HybridCacheRule::vllm_uniform_pages) {
    size_vllm_hybrid(h, limits.kv_block_tokens, capacity);
  } else if (laid_out && profile.hybrid_cache == HybridCacheRule::sglang_mamba_pool && h.attention_layers > 0) {
    size_sglang_hybrid(h, profile, capacity);
  } else {
    capacity.rule =
        "recurrent layers: each " + std::to_string(limits.kv_block_tokens) +
        "-token block is charged one sequence's state as well, an upper bound (no rule of this engine's for the "
        "model's layers is modelled)";
  }
  return capacity;
}

std::optional<EngineStartCheck> vllm_start_check(const EngineProfile& profile, const ModelDescription& model,
                                                 const std::vector<WeightTensor>& tensors,
                                                 const InferenceWorkload& workload, const Accelerator& gpu,
                                                 std::int64_t max_model_len) {
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  EngineStartCheck check;
  check.max_model_len_from_config = max_model_len <= 0;
  check.max_model_len = check.max_model_len_from_config ? model.max_position_embeddings : max_model_len;
  const std::int64_t block = std::max<std::int64_t>(1, workload.kv_block_tokens);
  if (check.max_model_len <= 0) return std::nullopt;
  // One block of one sequence on this GPU, per kind of layer: a page of each of its layers.
  InferenceWorkload one_block = workload;
  one_block.batch_size = 1;
  one_block.context_tokens = block;
  one_block.prefill_chunk_tokens = 0;
  const KvCacheFigure kv = inference_memory(model, tensors, one_block).kv_cache;
  struct Pages {
    std::int64_t layers, page_bytes, window;
  };
  std::vector<Pages> kinds;
  for (const KvCacheLayerTerm& term : kv.terms) {
    if (term.state_bytes_per_sequence_per_layer > 0 || term.cross_bytes_per_sequence_per_layer > 0) return std::nullopt;
    if (term.layers <= 0 || term.bytes <= 0) continue;
    if (term.cached_tokens_per_sequence != block) return std::nullopt;  // a window shorter than a block
    kinds.push_back(
        {term.layers, term.bytes / term.layers, model.layer_kinds[term.layer_kind].attention.sliding_window});
  }
  // Per layer, vllm/v1/kv_cache_interface.py at 001cabc1: FullAttentionSpec.max_memory_usage_bytes is
  // cdiv(max_model_len, block) pages; SlidingWindowSpec's cdiv(min(window - 1 + max_num_batched_tokens,
  // max_model_len), block) + 1 (the window may start mid-block).
  const std::int64_t step_tokens = std::max<std::int64_t>(1, workload.prefill_chunk_tokens);
  const auto needed = [&](std::int64_t length) {
    std::int64_t bytes = 0;
    for (const Pages& k : kinds) {
      const std::int64_t pages =
          k.window > 0 ? ceil_div(std::min(k.window - 1 + step_tokens, length), block) + 1 : ceil_div(length, block);
      bytes += k.layers * k.page_bytes * pages;
    }
    return bytes;
  };
  SchedulerLimits limits = scheduler_limits(profile);
  limits.max_num_batched_tokens = step_tokens;
  const KvCapacity capacity =
      engine_kv_capacity(profile, workload.gpu_memory_utilization, model, tensors, workload, gpu, limits);
  check.available_bytes = capacity.budget_bytes - capacity.non_kv_bytes;
  if (profile.kind == EngineKind::vllm_v0) {
    // V0 refuses a max_model_len above the cache's num_gpu_blocks x block_size tokens, every layer
    // holding a whole block table (vllm/worker/worker.py raise_if_cache_size_invalid; its message in
    // vllm#13061).
    const std::int64_t tokens = capacity.blocks * block;
    check.rule =
        "vLLM V0 starts only if max_model_len <= num_gpu_blocks x block_size (vllm/worker/worker.py "
        "raise_if_cache_size_invalid)";
    check.needed_bytes = ceil_div(check.max_model_len, block) * capacity.block_bytes;
    check.starts = capacity.blocks > 0 && check.max_model_len <= tokens;
    check.longest_max_model_len = std::min(check.max_model_len, tokens);
    return check;
  }
  check.rule =
      "vLLM V1 starts only if the KV cache its budget leaves holds one request of max_model_len "
      "(vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory): cdiv(max_model_len, block) blocks a "
      "full-attention layer, cdiv(min(window - 1 + max_num_batched_tokens, max_model_len), block) + 1 a "
      "sliding-window one (vllm/v1/kv_cache_interface.py at 001cabc1)";
  check.needed_bytes = needed(check.max_model_len);
  check.starts = check.available_bytes > 0 && check.needed_bytes <= check.available_bytes;
  // estimate_max_model_len: the longest length whose request fits, by bisection (needed grows with it).
  std::int64_t low = 0, high = check.max_model_len;
  while (low < high) {
    const std::int64_t middle = low + (high - low + 1) / 2;
    if (needed(middle) <= check.available_bytes)
      low = middle;
    else
      high = middle - 1;
  }
  check.longest_max_model_len = low;
  return check;
}

}  // namespace fitcheck
