// SPDX-License-Identifier: MIT
// Serving-engine profiles: what vLLM, SGLang, TensorRT-LLM, llama.cpp and Hugging Face `generate`
// do by default that moves memory and speed. One struct per engine, filled from the engine's own
// source and docs (docs/engines-serving.md holds every citation; docs/serving.md the rules as
// fitcheck applies them). `fitcheck infer --engine` and `fitcheck serve-sim --engine` read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

// vllm: vLLM's V1 engine (v0.8 on, the only one from v0.11); vllm_v0: its V0 engine (v0.6/v0.7).
enum class EngineKind : std::uint8_t { vllm, sglang, trtllm, llamacpp, hf, vllm_v0 };
inline constexpr EngineKind kEngineKinds[] = {EngineKind::vllm,     EngineKind::sglang, EngineKind::trtllm,
                                              EngineKind::llamacpp, EngineKind::hf,     EngineKind::vllm_v0};
const char* engine_kind_id(EngineKind kind);  // "vllm", "sglang", "trtllm", "llamacpp", "hf", "vllm-v0"
// Accepts the ids and "tensorrt-llm", "llama.cpp", "transformers", "vllm_v0"; nullopt if unknown.
std::optional<EngineKind> find_engine_kind(std::string_view name);

// How the engine sizes its KV cache.
enum class KvBudgetRule : std::uint8_t {
  share_of_total,        // vLLM: fraction x total - (weights + profiled peak + non-torch + CUDA graphs)
  total_minus_reserve,   // SGLang: free after weights - total x (1 - mem_fraction_static)
  share_of_free,         // TensorRT-LLM: fraction x (total - weights - activation buffers)
  whole_context_slots,   // llama.cpp: n_ctx cells per slot allocated at start, no paging
  grows_with_sequences,  // HF generate: DynamicCache grows by concatenation, no pool
};

// How the engine holds a hybrid model's recurrent state beside the attention layers' KV cache
// (serving_engine.cpp engine_kv_capacity; docs/serving.md, "Hybrid models").
enum class HybridCacheRule : std::uint8_t {
  state_per_block,     // no rule of the engine's: each block charged one sequence's state (an upper bound)
  vllm_uniform_pages,  // vLLM V1: one block pool; attention blocks grown to the state's page size
  sglang_mamba_pool,   // SGLang: a state pool of its own, mamba_full_memory_ratio of the KV pool
};

struct EngineProfile {
  EngineKind kind = EngineKind::vllm;
  const char* version = "";  // the release whose defaults these are
  // Memory.
  KvBudgetRule kv_budget = KvBudgetRule::share_of_total;
  double memory_fraction = 0.9;        // gpu_memory_utilization, mem_fraction_static, free_gpu_memory_fraction
  std::int64_t cuda_graph_bytes = 0;   // graph pool taken before the KV cache is sized
  bool profiles_sampler_rows = false;  // the profile run samples max_num_seqs rows (vLLM V1)
  // vLLM V1 charges the memory allocated outside PyTorch during its profile (NCCL, custom all-reduce,
  // kernels loaded) in place of the framework overhead, and sizes its budget from CUDA's total
  // (Accelerator::cuda_total_bytes where known); -1: the workload's overhead and the catalog memory.
  std::int64_t non_torch_bytes = -1;
  // Bytes per logit (row x full vocabulary) at the profile's sampler peak, when it sorts the logits
  // for top-k/top-p (vLLM V1's PyTorch sampler; serving_engine.cpp engine_kv_capacity); 0: the fp32
  // logits alone.
  std::int64_t sampler_sort_bytes_per_logit = 0;
  // Scheduler.
  std::int64_t max_num_seqs = 256;             // sequences running at once
  std::int64_t max_num_batched_tokens = 8192;  // tokens per step (prefill chunks and decodes)
  // Without chunked prefill, whole prompts up to max(max_model_len, this) tokens a step (vLLM V0's
  // SchedulerConfig): the step budget follows the request's context (engine_token_budget); 0: fixed.
  std::int64_t token_budget_floor = 0;
  bool chunked_prefill = true;         // false: a prompt runs whole in one step
  bool continuous_batching = true;     // false: static batches, the next starts when all finish
  bool reserve_whole_request = false;  // admission reserves prompt + output blocks (no eviction)
  std::int64_t kv_block_tokens = 16;   // 0: no paging (exact per token)
  // SGLang's admission (PrefillAdder): a waiting request is admitted only while the free pool,
  // less new_token_ratio x the output each running request may still produce, holds its prompt
  // and its whole output (SchedulerLimits::reserve_estimated_output).
  bool reserve_estimated_output = false;
  // SGLang: a step of prompts alone whenever one can start, else a decode step (no mixed steps).
  bool prefill_first = false;
  // Fixed time a request spends outside the step loop before its first token (HTTP server,
  // tokenization, a frontend's pre- and post-processing hops), added once per request.
  double request_overhead_seconds = 0;
  // Kernels and fixed costs per forward pass.
  std::int64_t cuda_graph_max_batch = 0;  // decode steps of at most this many sequences replay a graph
  bool gqa_shared_kv_reads = true;        // decode attention reads each KV head once per query group
  bool kv_cache_concatenated = false;     // the cache grows by torch.cat every step (HF DynamicCache)
  // Recurrent (state-space, linear-attention) layers' state as the engine keeps it (InferenceWorkload's
  // fields of the same names) and the rule's source, stated only for a model with such layers.
  bool state_conv_window_drops_oldest = false;
  std::int64_t state_bytes_per_element = 0;  // 0: the model's dtype
  // The engine keeps the recurrent (SSM) state at the element size the config names
  // (ModelDescription::recurrent_state_bytes_per_element) when its own setting is left at "auto".
  bool recurrent_state_from_config = false;
  // The SSM state's element size when the config names none; 0: state_bytes_per_element's.
  std::int64_t recurrent_state_default_bytes_per_element = 0;
  std::string recurrent_state_rule;
  std::string state_rule;
  HybridCacheRule hybrid_cache = HybridCacheRule::state_per_block;
  double mamba_full_memory_ratio = 0;                // SGLang: state pool / KV pool
  std::int64_t mamba_slots_per_running_request = 0;  // SGLang: state slots a running request may hold
  double step_overhead_seconds = 0;                  // CPU scheduling, input preparation, sampling per step
  double launch_seconds_per_layer = 0;               // kernel launches of one layer outside a CUDA graph
  double kernel_seconds_per_layer = 0;               // small kernels of one layer, in a CUDA graph or not
  // Each rule with its source, for the report.
  std::vector<std::string> rules;
};

// The engine's defaults for `gpu` and `layout` (SGLang's fraction and chunk depend on both).
EngineProfile engine_profile(EngineKind kind, const Accelerator& gpu, const ParallelLayout& layout);

// vLLM V1 with FlashInfer's sampler (--vllm-sampler flashinfer): the profile run's sampler sorts
// nothing, so only the fp32 logits count; its rule says so.
void use_flashinfer_sampler(EngineProfile& profile);

// The profile's recurrent-state rules (conv window, element sizes) in the workload, for a model with
// recurrent layers; returns the report's lines for them (none for a model without such layers).
std::vector<std::string> apply_engine_state_rules(const EngineProfile& profile, const ModelDescription& model,
                                                  InferenceWorkload& workload);

// The engine's fixed costs and kernel traits in the latency assumptions: step overhead, launches and
// small kernels per layer, CUDA-graph batch limit, repeat_kv and the concatenated cache.
void apply_engine_fixed_costs(const EngineProfile& profile, LatencyAssumptions& latency);

// Tokens one step may hold for a request of `context_tokens` (the engine's max_model_len): the
// profile's max_num_batched_tokens, or for a profile with token_budget_floor max(context, floor).
std::int64_t engine_token_budget(const EngineProfile& profile, std::int64_t context_tokens);

// Share of the roofline's peak bandwidth and FLOP/s that decode and prefill kernels reach for a
// weight format on a GPU, with the source of each figure.
struct KernelEfficiency {
  double hbm = 0.8;
  double flops = 0.7;
  double fp8_flops_share = 1.0;  // FP8 products at this share of `flops` (LatencyAssumptions)
  // Weight products run in tensor-core tiles whose padded rows are computed (gemm_tile_rows()):
  // Hopper's wgmma and Blackwell's tcgen05 multiply at least 64 rows per instruction, and the
  // engines' CUTLASS kernels pick 64- or 128-row tiles. Not for weight-only 4-bit kernels (Marlin
  // steps in 16-row blocks), pre-Hopper chips (cuBLAS tiles chosen by heuristics) or llama.cpp.
  bool gemm_row_tiles = false;
  std::string source;
};
KernelEfficiency kernel_efficiency(EngineKind kind, const Accelerator& gpu, WeightFormat format);

// How the engine stores a format's routed experts for its MoE kernels: the multiples the hidden size
// and the per-rank intermediate size are padded to (WeightFormatOptions::expert_hidden_multiple), and
// why. Multiples of 1 and an empty source: stored as the checkpoint holds them.
struct ExpertPadding {
  std::int64_t hidden_multiple = 1;
  std::int64_t intermediate_multiple = 1;
  std::string source;
};
ExpertPadding engine_expert_padding(EngineKind kind, const Accelerator& gpu, WeightFormat format);

// The engine's expert padding in the workload's weight options, for the workload's format; returns
// the rule for the report when it pads a model with routed experts, else an empty string.
std::string apply_expert_padding(EngineKind kind, const Accelerator& gpu, const ModelDescription& model,
                                 InferenceWorkload& workload);

}  // namespace fitcheck
