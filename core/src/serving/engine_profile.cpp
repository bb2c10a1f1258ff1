// SPDX-License-Identifier: MIT
// The engine profiles: each default with its source (docs/engines-serving.md has the full
// citations, docs/serving.md the table of profiles). Figures marked "estimate" rest on measured
// step times, not on the engine's source; the report shows them as such.
#include "fitcheck/engine_profile.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

#include "fitcheck/local.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/serving.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Kernel launches of one layer outside a CUDA graph, the same for the engines that launch from
// Python or a C++ runtime (estimate: about 10 kernels of about 4 us; docs/engines-serving.md 1.4).
constexpr double kLaunchSecondsPerLayer = 40e-6;

// vLLM V1's profile run samples max_num_seqs rows with top-k and top-p, which sorts the logits
// (vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p at 3babc05a). At the sort, per logit:
// the bf16 logits the dummy run holds (2 B), the sampler's fp32 copy (4), the sorted values (4) and
// int64 indices (8), the int64 iota the sort starts from (8) and cub's alternate key and value
// buffers (4 + 8): PyTorch sorts 128 or more rows with segmented_sort_pairs; fewer rows, a
// --max-num-seqs under 128, take another path, not counted apart (pytorch/pytorch
// d63874ec aten/src/ATen/native/cuda/Sort.cu launch_stable_sort_kernel).
// vLLM V0's profile run samples the same way (vllm/worker/model_runner.py profile_run:
// SamplingParams(top_p=0.99, top_k=vocab_size - 1) for max_num_seqs sequences), and its Sampler casts
// the logits to fp32 and sorts them (vllm/model_executor/layers/sampler.py Sampler.forward,
// _apply_top_k_top_p, at 00f5ff34, FlashInfer's sampler off by default): the same bytes a logit.
constexpr std::int64_t kSamplerSortBytesPerLogit = 2 + 4 + 4 + 8 + 8 + 4 + 8;

// vLLM V1 takes its memory baseline after creating the CUDA context (vllm/v1/worker/gpu_worker.py
// init_device: init_snapshot = MemorySnapshot(), requested_memory = total_memory x
// gpu_memory_utilization) and charges the KV budget weights + the profile's torch peak + the memory
// allocated outside PyTorch meanwhile (determine_available_memory, non_kv_cache_memory). That last
// figure, read off vLLM 0.11.0's logs on H100 (llm-d/llm-d-benchmark 4f4d4494
// config_explorer/empirical-vllm-memory-results.md: "Non-torch memory" 0.13-0.14 GiB for every
// single-GPU model, 0.55 GiB a rank for Llama-3.3-70B at TP 2, where NCCL and the custom all-reduce
// buffers join it; their budgets add up as 0.9 x 79.18 - weights - peak - non-torch to the GiB logged).
// An estimate: two log points, the second taken for every TP above 1.
constexpr std::int64_t kVllmNonTorchBytesOneGpu = 133 * 1024 * 1024;          // 0.13 GiB
constexpr std::int64_t kVllmNonTorchBytesTensorParallel = 563 * 1024 * 1024;  // 0.55 GiB

// vLLM V0 (docs/engines-serving.md): SchedulerConfig's floor of max_num_batched_tokens without
// chunked prefill, and the fixed costs solved from two rows of the Qwen2.5 speed tables (vLLM 0.6.3,
// A100, batch 1, 2,048 tokens): 0.5B at 3.21 ms and 14B BF16 at 21.6 ms a token, 24 and 48 layers,
// 1.19 ms and 2.92 ms beyond V1's profile (1.4 ms a step): 72 us a layer and 0.86 ms a step.
constexpr std::int64_t kV0TokenBudgetFloor = 2048;
constexpr double kV0StepOverheadSeconds = 0.86e-3;
constexpr double kV0KernelSecondsPerLayer = 72e-6;

// Three significant digits, as the engine rules print shares.

}  // namespace

const char* engine_kind_id(EngineKind kind) {
  switch (kind) {
    case EngineKind::vllm:
      return "vllm";
    case EngineKind::sglang:
      return "sglang";
    case EngineKind::trtllm:
      return "trtllm";
    case EngineKind::llamacpp:
      return "llamacpp";
    case EngineKind::hf:
      return "hf";
    case EngineKind::vllm_v0:
      return "vllm-v0";
  }
  return "vllm";
}

std::optional<EngineKind> find_engine_kind(std::string_view name) {
  const std::string id = lower(name);
  for (EngineKind kind : kEngineKinds)
    if (id == engine_kind_id(kind)) return kind;
  if (id == "tensorrt-llm" || id == "tensorrt_llm") return EngineKind::trtllm;
  if (id == "llama.cpp" || id == "llama-cpp") return EngineKind::llamacpp;
  if (id == "transformers") return EngineKind::hf;
  if (id == "vllm_v0") return EngineKind::vllm_v0;
  return std::nullopt;
}

void use_flashinfer_sampler(EngineProfile& profile) {
  profile.sampler_sort_bytes_per_logit = 0;
  for (std::string& rule : profile.rules)
    if (rule.rfind("profile peak:", 0) == 0)
      rule =
          "profile peak: the step's activations and the fp32 logits of max_num_seqs rows: FlashInfer's sampler "
          "(--vllm-sampler flashinfer: v0.10 with FlashInfer installed, or VLLM_USE_FLASHINFER_SAMPLER=1) sorts "
          "nothing (topk_topp_sampler.py forward_cuda); its "
          "buffers are not counted";
}

namespace {

// An engine on an accelerator it does not run on is refused, not timed as if it did. TensorRT-LLM
// builds CUDA engines for NVIDIA GPUs only; llama.cpp has no ggml backend for TPUs or Gaudi
// (default_local_backend). vLLM, SGLang and transformers have ports to the other vendors' parts.
// A user-defined GPU is taken as the user describes it.
void check_engine_runs_on(EngineKind kind, const Accelerator& gpu) {
  const std::string_view vendor = gpu.vendor;
  if (vendor == "user-defined") return;
  const auto refuse = [&](const char* engine, const char* where) {
    throw OptionError(
        "engine", std::string("option 'engine': ") + engine + " does not run on " + gpu.name + "; it runs on " + where);
  };
  if (kind == EngineKind::trtllm && vendor != "NVIDIA") refuse("TensorRT-LLM", "NVIDIA GPUs");
  if (kind == EngineKind::llamacpp && !default_local_backend(gpu)) refuse("llama.cpp", llama_cpp_devices_text());
}

}  // namespace

EngineProfile engine_profile(EngineKind kind, const Accelerator& gpu, const ParallelLayout& layout) {
  check_engine_runs_on(kind, gpu);
  EngineProfile p;
  p.kind = kind;
  const double memory_gib = static_cast<double>(gpu_memory_limit_bytes(gpu)) / kGiB;
  switch (kind) {
    case EngineKind::vllm: {
      const SchedulerLimits limits = vllm_default_limits(gpu);
      p.version = "vLLM V1 (v0.10/v0.11 defaults)";
      p.kv_budget = KvBudgetRule::share_of_total;
      p.memory_fraction = 0.9;
      p.profiles_sampler_rows = true;
      p.sampler_sort_bytes_per_logit = kSamplerSortBytesPerLogit;
      p.non_torch_bytes = layout.tensor_parallel > 1 ? kVllmNonTorchBytesTensorParallel : kVllmNonTorchBytesOneGpu;
      p.max_num_seqs = limits.max_num_seqs;
      p.max_num_batched_tokens = limits.max_num_batched_tokens;
      p.kv_block_tokens = limits.kv_block_tokens;
      p.cuda_graph_max_batch = std::min<std::int64_t>({2 * p.max_num_seqs, 512, p.max_num_batched_tokens});
      p.step_overhead_seconds = 1.4e-3;
      p.launch_seconds_per_layer = kLaunchSecondsPerLayer;
      p.state_conv_window_drops_oldest = true;
      p.state_rule =
          "recurrent layers' state: conv_kernel - 1 conv columns and the state at the model's dtype unless the "
          "model's config names the state's (below) (vllm/model_executor/layers/mamba/mamba_utils.py at 02d71083)";
      // Qwen3_5ForConditionalGenerationConfig.verify_and_update_config sets mamba_ssm_cache_dtype "auto" to the
      // text config's mamba_ssm_dtype; gated_delta_net_state_dtype keeps the conv state at the model's dtype
      // and the temporal state at mamba_ssm_cache_dtype.
      p.recurrent_state_from_config = true;
      p.recurrent_state_rule =
          "the recurrent (SSM) state at the config's mamba_ssm_dtype, the conv window at the model's dtype "
          "(vllm/model_executor/models/config.py Qwen3_5ForConditionalGenerationConfig.verify_and_update_config "
          "sets mamba_ssm_cache_dtype \"auto\" to it; mamba_utils.py gated_delta_net_state_dtype)";
      p.hybrid_cache = HybridCacheRule::vllm_uniform_pages;
      p.rules = {
          "KV budget: gpu_memory_utilization 0.9 x CUDA's total - weights - the profile run's peak (one "
          "max_num_batched_tokens step, then the sampler over max_num_seqs rows) - non-torch memory, " +
              detail::three_significant_digits(static_cast<double>(p.non_torch_bytes) / kGiB) +
              (layout.tensor_parallel > 1 ? " GiB a rank at TP > 1" : " GiB on one GPU") +
              " (estimate: llm-d-benchmark 4f4d4494's vLLM 0.11.0 logs), not the overhead: the baseline follows "
              "the CUDA context (vllm/v1/worker/gpu_worker.py init_device, determine_available_memory; "
              "gpu_model_runner.py profile_run, _dummy_sampler_run); CUDA's total where the catalog has it, else "
              "the GPU's memory; CUDA graphs are captured after, from the 0.1 left (subtracted up front only from "
              "v0.21, PR #30515)",
          "profile peak: the larger of the step's activations and the sampler's sort of max_num_seqs rows of "
          "logits over the vocabulary, 38 B a logit (bf16 2, fp32 4, sorted values 4 and indices 8, iota 8, cub's "
          "buffers 4 + 8; gpu_model_runner.py _dummy_sampler_run, topk_topp_sampler.py apply_top_k_top_p at "
          "3babc05a, pytorch d63874ec Sort.cu segmented_sort_pairs); --vllm-sampler flashinfer for v0.10",
          "scheduler: max_num_seqs " + std::to_string(p.max_num_seqs) + ", max_num_batched_tokens " +
              std::to_string(p.max_num_batched_tokens) +
              " (EngineArgs._set_default_args, API server; >= 70 GiB and not A100: 1024/8192, else 256/2048); "
              "chunked prefill always on in V1",
          "KV blocks of 16 tokens (CacheConfig.DEFAULT_BLOCK_SIZE, vllm/config/cache.py at 002f10e0)",
          "CUDA graphs for decode batches up to min(2 x max_num_seqs, 512, max_num_batched_tokens) = " +
              std::to_string(p.cuda_graph_max_batch) + " (VllmConfig._set_cudagraph_sizes)",
          "decode attention: FlashAttention/FlashInfer read each KV head once per query group",
          "step overhead 1.4 ms (estimate: the gaps between vLLM 0.30's measured inter-token latency and the "
          "roofline on H100, docs/serving.md; v0.5.3 spent 62% of a step on CPU, vLLM blog 2024-09-05) and "
          "40 us of launches per layer outside a graph (estimate: about 10 kernels of about 4 us)",
      };
      break;
    }
    case EngineKind::vllm_v0: {
      p.version = "vLLM V0 (v0.6/v0.7 defaults, the engine before V1)";
      p.kv_budget = KvBudgetRule::share_of_total;
      p.memory_fraction = 0.9;
      p.profiles_sampler_rows = true;
      p.sampler_sort_bytes_per_logit = kSamplerSortBytesPerLogit;
      p.max_num_seqs = 256;
      p.chunked_prefill = false;
      p.prefill_first = true;
      p.max_num_batched_tokens = kV0TokenBudgetFloor;
      p.token_budget_floor = kV0TokenBudgetFloor;
      p.kv_block_tokens = 16;
      p.cuda_graph_max_batch = p.max_num_seqs;
      p.step_overhead_seconds = kV0StepOverheadSeconds;
      p.launch_seconds_per_layer = kLaunchSecondsPerLayer;
      p.kernel_seconds_per_layer = kV0KernelSecondsPerLayer;
      p.rules = {
          "KV budget: 0.9 x total memory - weights - the profile run's peak (max_num_seqs sequences of "
          "max_num_batched_tokens tokens) - non-torch memory (vllm/worker/worker.py determine_num_available_blocks); "
          "the smallest over the workers, the driver's, which samples",
          "profile peak: the larger of the step's activations and the sampler's sort of max_num_seqs rows of "
          "logits over the vocabulary, 38 B a logit (vllm/worker/model_runner.py profile_run with top_k = "
          "vocab_size - 1, top_p 0.99; vllm/model_executor/layers/sampler.py _apply_top_k_top_p at 00f5ff34); "
          "--vllm-sampler flashinfer with VLLM_USE_FLASHINFER_SAMPLER=1",
          "scheduler: max_num_seqs 256; chunked prefill off up to a 32K max_model_len, so whole prompts, up to "
          "max(max_model_len, 2048) tokens a step, run before any decode (vllm/config.py SchedulerConfig; "
          "vllm/core/scheduler.py _schedule_default)",
          "KV blocks of 16 tokens; CUDA graphs for decodes of up to 256 sequences (vllm/worker/model_runner.py "
          "_BATCH_SIZES_TO_CAPTURE at 002a0ba9)",
          "decode attention: FlashAttention/FlashInfer read each KV head once per query group",
          "0.072 ms of small kernels per layer, in a graph or not, and 0.86 ms a step (estimate: Qwen2.5 speed "
          "tables, vLLM 0.6.3 on A100 at batch 1, 0.5B and 14B BF16; V0 runs each op as its own kernel, V1 fuses "
          "them with torch.compile); 40 us of launches per layer outside a graph",
      };
      break;
    }
    case EngineKind::sglang: {
      const double tp_pp = static_cast<double>(layout.tensor_parallel * layout.pipeline_parallel);
      double reserved_gib = 32;
      if (memory_gib < 35)
        reserved_gib = 2.8 + tp_pp / 10;
      else if (memory_gib < 90)
        reserved_gib = 9.5 + tp_pp / 2;
      else if (memory_gib < 160)
        reserved_gib = 12 + tp_pp / 2;
      p.version = "SGLang v0.4.9-v0.5 (mid-2025 defaults)";
      p.kv_budget = KvBudgetRule::total_minus_reserve;
      p.memory_fraction = std::clamp((memory_gib - reserved_gib) / memory_gib, 0.05, 0.95);
      p.max_num_batched_tokens = memory_gib < 35 ? 2048 : memory_gib < 160 ? 8192 : 16384;
      p.max_num_seqs = 2048;
      p.kv_block_tokens = 1;
      p.cuda_graph_max_batch = memory_gib < 35 ? (layout.tensor_parallel < 4 ? 8 : 80) : 160;
      p.step_overhead_seconds = 0.3e-3;
      p.launch_seconds_per_layer = kLaunchSecondsPerLayer;
      p.reserve_estimated_output = true;
      p.prefill_first = true;
      // python/sglang/srt/configs/mamba_utils.py mamba2_state_dtype (at 02e208de): the conv window in
      // bfloat16 (SGLANG_MAMBA_CONV_DTYPE), the SSM state in float32 unless the config's (or its
      // text_config's) mamba_ssm_dtype names another; Mamba2StateShape keeps conv_kernel - 1 columns.
      p.state_conv_window_drops_oldest = true;
      p.state_bytes_per_element = 2;
      p.recurrent_state_from_config = true;
      p.recurrent_state_default_bytes_per_element = 4;
      p.state_rule =
          "recurrent layers' state: conv_kernel - 1 conv columns in bfloat16 and the SSM state in float32 unless "
          "the config's mamba_ssm_dtype names another (python/sglang/srt/configs/mamba_utils.py mamba2_state_dtype "
          "at 02e208de; server_args.py mamba_ssm_dtype \"float32\")";
      p.recurrent_state_rule = "the SSM state at the config's mamba_ssm_dtype (mamba_utils.py mamba2_state_dtype)";
      // model_runner_kv_cache_mixin.py handle_max_mamba_cache and init_memory (at 001ccef0): the state pool
      // takes mamba_full_memory_ratio / (1 + ratio) of what the static budget leaves, 0.9 since
      // sgl-project/sglang#11679 (2025-10-15; 0.2 before); a running request may hold
      // MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = 3 slots (its own and the radix cache's).
      p.hybrid_cache = HybridCacheRule::sglang_mamba_pool;
      p.mamba_full_memory_ratio = 0.9;
      p.mamba_slots_per_running_request = 3;
      p.rules = {
          "KV pool: free memory after the weights - total x (1 - mem_fraction_static); mem_fraction_static = "
          "(memory - reserved) / memory with reserved 2.8 + tp x pp / 10 GiB below 35 GiB, 9.5 + tp x pp / 2 "
          "below 90 GiB, 12 + tp x pp / 2 below 160 GiB, 32 GiB above (python/sglang/srt/server_args.py "
          "ServerArgs.__post_init__, model_runner.py profile_max_num_token; commit not pinned)",
          "scheduler: chunked_prefill_size " + std::to_string(p.max_num_batched_tokens) +
              " (2048 below 35 GiB, 8192 below 160 GiB, 16384 above), max_running_requests at least 2048 "
              "(model_runner init_memory_pool)",
          "KV pages of 1 token (radix cache; FlashInfer paged kernels)",
          "CUDA graphs for decode batches up to cuda_graph_max_bs = " + std::to_string(p.cuda_graph_max_batch) +
              " (server_args.py: 160; 8 or 80 below 35 GiB)",
          "step overhead 0.3 ms (estimate): the overlap scheduler prepares the next batch while the GPU runs "
          "(SGLang v0.4); 40 us of launches per layer outside a graph (estimate)",
          "admission: a waiting request joins only if its prompt and min(max_new_tokens, 4096) output tokens fit "
          "the free pool less new_token_ratio x the output every running request may still write; the ratio "
          "starts at 0.7, falls to 0.098 over 600 decoding steps and is re-estimated after a retraction "
          "(python/sglang/srt/managers/schedule_policy.py PrefillAdder, environ.py SGLANG_INIT_NEW_TOKEN_RATIO, "
          "scheduler.py init_new_token_ratio; commit not pinned)",
          "step order: a step of prompts alone whenever one can be scheduled, else a decode step of the running "
          "requests (scheduler.py Scheduler.get_next_batch_to_run, 'Run prefill first if possible'; mixed chunks "
          "off by default, server_args.py enable_mixed_chunk; commit not pinned)",
      };
      break;
    }
    case EngineKind::trtllm:
      p.version = "TensorRT-LLM 0.17-1.0 (trtllm-serve / trtllm-bench defaults)";
      p.kv_budget = KvBudgetRule::share_of_free;
      p.memory_fraction = 0.9;
      p.max_num_seqs = 2048;
      p.max_num_batched_tokens = 8192;
      p.chunked_prefill = false;
      p.reserve_whole_request = true;
      p.kv_block_tokens = 32;
      // The C++ executor that runs TensorRT engines (Triton's tensorrtllm_backend, trtllm-bench on an
      // engine, NIM's TensorRT-LLM profiles) captures no CUDA graphs unless cuda_graph_mode is set.
      p.cuda_graph_max_batch = 0;
      p.launch_seconds_per_layer = kLaunchSecondsPerLayer;
      p.step_overhead_seconds = 0.3e-3;
      p.request_overhead_seconds = 4e-3;
      p.rules = {
          "KV cache: free_gpu_memory_fraction 0.9 of the memory free after the weights and the activation "
          "buffers of one max_num_tokens step (KvCacheConfig, nvidia.github.io/TensorRT-LLM/reference/memory.html; "
          "published runs use 0.95, pass gpu_memory_utilization)",
          "scheduler: max_batch_size 2048, max_num_tokens 8192 (trtllm-serve defaults, 0.18 docs); chunked "
          "prefill off (LLM API enable_chunked_prefill False): a prompt runs whole in one step",
          "capacity scheduler GUARANTEED_NO_EVICT: a request is admitted only when blocks for its prompt and "
          "all its output are free, and none is evicted",
          "KV blocks of 32 tokens (KvCacheConfig.tokens_per_block, LLM API)",
          "no CUDA graphs: the executor's ExtendedRuntimePerfKnobConfig has cudaGraphMode false unless set "
          "(NVIDIA/TensorRT-LLM@879039f6 cpp/include/tensorrt_llm/executor/executor.h; Triton's "
          "tensorrtllm_backend@90b204cc inflight_batcher_llm/src/model_instance_state.cc leaves it at that default; "
          "trtllm-bench's PerformanceOptions.cuda_graphs False for engines, TensorRT-LLM@000a01de "
          "tensorrt_llm/bench/dataclasses/configuration.py), so every step launches every layer's kernels: 40 us per "
          "layer (estimate, as vLLM's); the PyTorch backend (1.0) replays graphs of decode-only batches: pass "
          "cuda_graph_max_batch; step overhead 0.3 ms (estimate: C++ runtime, no Python in the loop)",
          "request overhead 4 ms before a request reaches the executor (estimate: served through Triton's "
          "tensorrtllm_backend ensemble, Python preprocessing (tokenizer) and postprocessing (detokenizer) models "
          "around the tensorrt_llm model; the intercept of the v0.14 online table's idle-load TTFT, 467-token "
          "prompts with 16 output tokens at 2 QPS on 8B and 70B, over fitcheck's simulated TTFT, "
          "docs/engines-serving.md 3.5); offline trtllm-bench has no frontend (pass request_overhead_ms 0)",
      };
      break;
    case EngineKind::llamacpp:
      p.version = "llama.cpp llama-server (b4000-b6000 era defaults)";
      p.kv_budget = KvBudgetRule::whole_context_slots;
      p.memory_fraction = 1.0;
      p.max_num_seqs = 1;
      p.max_num_batched_tokens = 2048;
      p.kv_block_tokens = 0;
      p.cuda_graph_max_batch = 1;
      p.gqa_shared_kv_reads = true;
      p.step_overhead_seconds = 0;
      p.state_conv_window_drops_oldest = true;
      p.state_bytes_per_element = 4;
      p.state_rule =
          "recurrent layers' state: conv_kernel - 1 conv columns and the state in f32 (src/llama-hparams.cpp "
          "n_embd_r, n_embd_s)";
      p.rules = {
          "KV cache: n_ctx cells allocated at context creation for every slot, no paging "
          "(llama_kv_cache; docs/engines-serving.md 4.1)",
          "scheduler: n_parallel 1 slot, n_batch 2048 logical tokens per step (common/common.h)",
          "CUDA graphs for single-token decode only (ggml-org/llama.cpp PR #6766 introduced them in ggml-cuda.cu; "
          "PR #7302: disabled for batch size > 1)",
          "GPU/CPU placement is not modelled by this profile",
      };
      break;
    case EngineKind::hf:
      p.version = "Hugging Face transformers generate (4.4x)";
      p.kv_budget = KvBudgetRule::grows_with_sequences;
      p.memory_fraction = 1.0;
      p.max_num_seqs = 1 << 20;
      p.max_num_batched_tokens = 0;
      p.chunked_prefill = false;
      p.continuous_batching = false;
      p.kv_block_tokens = 0;
      p.cuda_graph_max_batch = 0;
      p.gqa_shared_kv_reads = false;
      p.kv_cache_concatenated = true;
      p.step_overhead_seconds = 20e-3;
      p.rules = {
          "KV cache: DynamicCache grows by concatenation, one static batch padded to its longest prompt, and "
          "each decode step's torch.cat reads every layer's cache and writes it again one token longer "
          "(src/transformers/cache_utils.py at 004999d9, DynamicCache.update)",
          "no continuous batching: generate runs one batch to the end, then the next",
          "whole prompt in one forward pass (no chunking); logits of the last position only (logits_to_keep)",
          "decode attention under SDPA with a mask repeats K/V for every query head (repeat_kv, "
          "integrations/sdpa_attention.py at 00c238bd)",
          "step overhead 20 ms (estimate: Qwen2.5 speed tables, transformers 4.46 on A100 at batch 1: 0.5B, 7B "
          "and 14B all spend about 20 ms per token beyond their weight reads; Python and eager launches)",
      };
      break;
  }
  return p;
}

void apply_engine_fixed_costs(const EngineProfile& profile, LatencyAssumptions& latency) {
  latency.step_overhead_seconds = profile.step_overhead_seconds;
  latency.launch_seconds_per_layer = profile.launch_seconds_per_layer;
  latency.kernel_seconds_per_layer = profile.kernel_seconds_per_layer;
  latency.cuda_graph_max_batch = profile.cuda_graph_max_batch;
  latency.repeat_kv_per_query_head = !profile.gqa_shared_kv_reads;
  latency.kv_cache_concatenated = profile.kv_cache_concatenated;
}

std::int64_t engine_token_budget(const EngineProfile& profile, std::int64_t context_tokens) {
  if (profile.token_budget_floor <= 0) return profile.max_num_batched_tokens;
  return std::max(context_tokens, profile.token_budget_floor);
}

std::vector<std::string> apply_engine_state_rules(const EngineProfile& profile, const ModelDescription& model,
                                                  InferenceWorkload& workload) {
  workload.state_conv_window_drops_oldest = profile.state_conv_window_drops_oldest;
  workload.state_bytes_per_element = profile.state_bytes_per_element;
  std::vector<std::string> lines;
  if (!model.has_recurrent_layers()) return lines;
  const std::string engine = engine_kind_id(profile.kind);
  if (!profile.state_rule.empty()) lines.push_back(engine + ": " + profile.state_rule);
  if (profile.recurrent_state_from_config && model.recurrent_state_bytes_per_element > 0) {
    workload.recurrent_state_bytes_per_element = model.recurrent_state_bytes_per_element;
    lines.push_back(engine + ": " + profile.recurrent_state_rule + ": " +
                    std::to_string(model.recurrent_state_bytes_per_element) + " B a value");
  } else if (profile.recurrent_state_default_bytes_per_element > 0) {
    workload.recurrent_state_bytes_per_element = profile.recurrent_state_default_bytes_per_element;
  }
  return lines;
}

}  // namespace fitcheck
