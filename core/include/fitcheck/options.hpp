// SPDX-License-Identifier: MIT
// Workload options as text key/value pairs, shared by the CLI (--kv-dtype fp8) and the page
// ({kv_dtype: "fp8"}), so both accept, default and refuse exactly the same inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/engine_profile.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck {

// An option that cannot be used; `option` names it (as the page spells it, e.g. "kv_dtype").
class OptionError : public std::invalid_argument {
 public:
  OptionError(std::string option, const std::string& message)
      : std::invalid_argument(message), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

using OptionList = std::vector<std::pair<std::string, std::string>>;

// Typed reads of one option list. Every key must be consumed by the request parser: an unknown
// key is an error (a typo must not silently fall back to a default).
class OptionReader {
 public:
  explicit OptionReader(const OptionList& options);
  std::optional<std::string> text(const char* key);
  std::int64_t count(const char* key, std::int64_t fallback, std::int64_t minimum, std::int64_t maximum);
  double number(const char* key, double fallback, double minimum, double maximum);
  bool flag(const char* key, bool fallback);
  // Throws OptionError for any key never read.
  void finish() const;

 private:
  const OptionList& options_;
  std::vector<bool> used_;
  const std::string* find(const char* key);
};

// A comma-separated option value ("bf16, fp8,,q4_k_m"): items trimmed of spaces, empty ones dropped.
std::vector<std::string> split_option_list(const std::string& text);
// Appends `item` unless `items` holds it already: a list option names each item once, so
// "h200,H200" (one catalog GPU) or "8,8" plans each once. Used by every list option's reader.
template <typename T>
void append_unique(std::vector<T>& items, const T& item) {
  for (const auto& kept : items)
    if (kept == item) return;
  items.push_back(item);
}
// One item of such a list read as a count in [minimum, maximum]; refusals name `key` as count() does.
std::int64_t option_list_count(const char* key, const std::string& item, std::int64_t minimum, std::int64_t maximum);

// The custom accelerator keys (gpu=custom; docs/hardware.md, "A custom accelerator"): units in the
// names, memory in GiB, rates as spec sheets print them (decimal GB/s, TFLOP/s, TOP/s).
inline constexpr const char* kCustomGpuKeys[] = {
    "custom_gpu_base",          "custom_gpu_name",
    "custom_gpu_memory_gib",    "custom_gpu_bandwidth_gb_per_s",
    "custom_gpu_bf16_tflops",   "custom_gpu_fp16_tflops",
    "custom_gpu_fp8_tflops",    "custom_gpu_int8_tops",
    "custom_gpu_fp32_tflops",   "custom_gpu_interconnect_gb_per_s",
    "custom_gpu_gpus_per_node", "custom_gpu_price_per_hour",
};

// Reads the custom_gpu_* keys when `wanted` (the request names gpu=custom) and returns the
// accelerator they define; otherwise refuses the first of them given, naming it, and returns null.
std::shared_ptr<const Accelerator> read_custom_gpu_options(OptionReader& reader, bool wanted);

// One GPU named by option `key`: "custom" is `custom` (refused when null), anything else a catalog
// id or alias. Unknown names are refused quoting the name, bounded and printable.
const Accelerator* resolve_gpu_option(const char* key, std::string_view name,
                                      const std::shared_ptr<const Accelerator>& custom);
bool is_custom_gpu_name(std::string_view name);

struct InferenceRequest {
  InferenceWorkload workload;
  const Accelerator* gpu = nullptr;               // nullptr: no GPU chosen, capacity answers are skipped
  std::shared_ptr<const Accelerator> custom_gpu;  // owns *gpu when gpu=custom
  bool weight_format_given = false;               // false: use the checkpoint's own format (native_weight_format)
  std::vector<std::string> defaults_used;         // options left at their default, for the report
  // Images in each request (a vision model whose tower fitcheck counts): their tokens join every
  // prompt and its context (estimate_inference); 0 changes nothing.
  std::int64_t images = 0;
  // The images' size in pixels, for towers whose token count follows it (Qwen2-VL); Gemma-3 resizes
  // every image to its tower's side.
  std::int64_t image_width = kDefaultImageSidePixels, image_height = kDefaultImageSidePixels;
  bool image_size_given = false;
  // The serving engine whose profile applies (engine_profile.hpp); none: the plain roofline.
  std::optional<EngineKind> engine;
  // Options the engine profile must not override.
  bool prefill_chunk_given = false, kv_block_given = false, gpu_memory_utilization_given = false;
  bool efficiency_given = false;
  // transformers generate with cache_implementation="static" (engine hf only): a StaticCache of
  // prompt + generated tokens, read whole at every decode step, in place of the DynamicCache.
  bool hf_static_cache = false;
  // vLLM's max_model_len (engine vllm only): it refuses to start unless its KV cache holds one request
  // that long. 0: the config's max_position_embeddings, vLLM's default.
  std::int64_t max_model_len = 0;
  // vLLM's profile-run sampler (engines vllm and vllm-v0): false sorts the logits for top-k/top-p with
  // PyTorch (v0.11's and V0's default, engine_profile.cpp kSamplerSortBytesPerLogit); true is FlashInfer's
  // sampler (v0.10 with FlashInfer installed, or VLLM_USE_FLASHINFER_SAMPLER=1), whose buffers are
  // not counted beyond the fp32 logits.
  bool vllm_flashinfer_sampler = false;
  // Latency (computed when a GPU is chosen): prompt and generated tokens per sequence, and the
  // overrides of the GPU's default assumptions (efficiencies, price).
  LatencyRequest lengths{};
  struct LatencyOverrides {
    double flops_efficiency = -1, hbm_efficiency = -1, interconnect_efficiency = -1;
    double price_per_gpu_hour_usd = -1;
    int fp8_activations = -1;  // -1: default, 0/1: off/on
    MoeDispatcher moe_dispatcher = MoeDispatcher::all_to_all;
  } latency_overrides;
};

// Reads the latency keys of an inference request: prompt_len, gen_len (together the context
// unless context is given, which must then hold them), flops_efficiency, hbm_efficiency,
// interconnect_efficiency, price_per_gpu_hour, fp8_activations, moe_dispatcher (alltoall or deepep).
void read_latency_options(OptionReader& reader, InferenceRequest& request, bool context_given);

// The GPU's default latency assumptions with the request's overrides applied.
LatencyAssumptions latency_assumptions_for(const InferenceRequest& request, const Accelerator& gpu);

// Keys: engine, hf_cache, max_model_len, vllm_sampler, weights, kv_dtype, batch, context, prefill_chunk, kv_block, tp,
// pp, ep, images, gpu (and with gpu=custom the kCustomGpuKeys), gpu_memory_utilization, overhead_gib, eager_attention,
// logits_all_positions.
InferenceRequest parse_inference_options(const OptionList& options);

}  // namespace fitcheck
