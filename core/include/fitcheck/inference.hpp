// SPDX-License-Identifier: MIT
// One inference estimate, computed before anything is written: the memory per GPU with its terms,
// the verdict against the GPU's budget, the capacity answers, the latency, and every default and
// assumption applied. The JSON report (report.hpp) and the CLI's table only print this struct.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitcheck/engine_profile.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/latency.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck {

// Whether the memory per GPU fits the engine's share of the GPU.
struct InferenceVerdict {
  std::int64_t budget_bytes = 0;    // memory_budget_bytes(gpu, gpu_memory_utilization)
  bool fits = false;                // total_bytes_per_gpu <= budget_bytes
  std::int64_t headroom_bytes = 0;  // budget_bytes - total_bytes_per_gpu; negative when it does not fit
};

struct InferenceCapacity {
  CapacityAnswer max_batch_size;
  CapacityAnswer max_context_length;
  CapacityAnswer min_gpus;
  // Decode steps carry one token per sequence: the batch when activations are those of a
  // one-token step (prefill chunk 1).
  CapacityAnswer decode_max_batch_size;
};

struct InferenceLatency {
  LatencyAssumptions assumptions;  // the GPU's defaults with the request's overrides
  LatencyExplanation explanation;  // the estimate, one line per operation, summary and notes
};

// One change of the request that makes a setup that does not fit fit, each on its own: the
// options to set (as the inference options read them) and the memory it leaves.
struct FitChange {
  std::string what;  // "weights", "kv_dtype", "prefill_chunk", "batch", "context", "gpus"
  std::vector<std::pair<std::string, std::string>> options;  // option name -> value
  std::string summary;                                       // one line for a person
  std::int64_t total_bytes_per_gpu = 0;
  std::int64_t headroom_bytes = 0;
};

// With an engine profile: what the engine's scheduler does at saturation, from the serving
// simulation (serving.hpp) rather than from "the largest batch that fits": max_num_seqs requests
// of the request's lengths running closed-loop, twice over.
struct EngineCapacity {
  std::int64_t kv_capacity_tokens = 0;     // the KV cache the engine's budget rule leaves
  std::int64_t max_running_sequences = 0;  // the most sequences one step ran
  double mean_running_sequences = 0;
  double offline_output_tokens_per_second = 0;  // one replica
  std::string limited_by;  // "max_num_seqs", "kv_cache", "recurrent_state_pool" (SGLang's state slots) or "requests"
  std::string skipped;     // why it was not simulated (empty when it was)
};

// vLLM's start-up check (V1: vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory; V0:
// vllm/worker/worker.py raise_if_cache_size_invalid): the KV cache its budget leaves must hold one
// request of max_model_len, or the engine refuses to start.
struct EngineStartCheck {
  std::int64_t max_model_len = 0;
  bool max_model_len_from_config = false;  // the config's max_position_embeddings (vLLM's default)
  std::int64_t needed_bytes = 0;           // one max_model_len request's KV cache on this GPU
  std::int64_t available_bytes = 0;        // the budget less weights, profile run and overhead
  bool starts = false;
  std::int64_t longest_max_model_len = 0;  // the longest that starts (vLLM's estimate_max_model_len); 0: none
  std::string rule;                        // the engine version's rule, with its source
};

// Everything a GPU adds: present only when the request names one.
struct InferenceOnGpu {
  const Accelerator* gpu = nullptr;
  InferenceVerdict verdict;
  InferenceCapacity capacity;
  InferenceLatency latency;
  // Empty when it fits: else the nearest single changes that fit (fit_changes.cpp), once
  // add_fit_changes() has looked for them (fit_changes_looked_for; estimate_inference() does).
  std::vector<FitChange> fit_changes;
  bool fit_changes_looked_for = false;
  std::optional<EngineCapacity> engine_capacity;  // add_engine_capacity() (serving.hpp) fills it
  // With engine vllm or vllm-v0 on a model of attention layers (full or sliding-window) alone; estimate_inference()
  // fills it (add_engine_start_check() in serving.hpp), the first-view module's report leaves it out.
  std::optional<EngineStartCheck> engine_start;
};

// The nearest single changes that make `workload` fit on `gpu`: the most precise smaller weight
// format, an 8-bit KV cache, a prefill chunk, the largest batch, the longest context, the fewest
// GPUs (from `capacity`). Each one is checked with inference_memory(); none is listed that does not fit.
std::vector<FitChange> fit_changes(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                   const InferenceWorkload& workload, const Accelerator& gpu,
                                   const InferenceCapacity& capacity);

struct InferenceEstimate {
  std::string model_type;
  // The model's parameter count rests on guesses (unknown model_type): weights and everything
  // derived from them are estimates; guessed_fields says what was guessed.
  bool parameter_count_exact = true;
  std::vector<std::string> guessed_fields;
  // The workload evaluated: the request's, with the checkpoint's own weight format when the
  // request gives none (weight_format_from_checkpoint).
  InferenceWorkload workload;
  bool weight_format_from_checkpoint = false;
  // Images per request and the tokens they add to each prompt and context (0 without images).
  std::int64_t images = 0;
  std::int64_t image_tokens = 0;
  LatencyRequest lengths;
  InferenceMemory memory;
  std::optional<InferenceOnGpu> on_gpu;
  std::shared_ptr<const Accelerator> custom_gpu;  // owns *on_gpu->gpu when gpu=custom
  // The engine profile applied (request.engine with a GPU): its prefill chunk, KV block, memory
  // fraction, fixed step costs and kernel efficiencies, unless the request gives them.
  std::optional<EngineProfile> engine;
  bool hf_static_cache = false;    // InferenceRequest::hf_static_cache, applied with the hf profile
  std::int64_t max_model_len = 0;  // InferenceRequest::max_model_len, for vLLM's start-up check
  // The model's assumptions, the default weight format's explanation, the memory's, and what a
  // missing GPU leaves out, in that order.
  std::vector<std::string> assumptions;
};

InferenceEstimate estimate_inference(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                     const InferenceRequest& request);

// estimate_inference() without looking for the changes that fit: the page's first-view module
// calls this one, so that fit_changes() is not linked into it; the page asks the full module when
// a setup does not fit (docs/performance.md). add_fit_changes() completes it.
InferenceEstimate estimate_inference_without_fit_changes(const ModelDescription& model,
                                                         const std::vector<WeightTensor>& tensors,
                                                         const InferenceRequest& request);
InferenceEstimate estimate_inference_without_fit_changes(std::string_view config_json_text, const OptionList& options);

// With a GPU: looks for the changes that fit when the setup does not (fit_changes()).
void add_fit_changes(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                     InferenceEstimate& estimate);

// parse_inference_options + parse_hf_config (in that order, so the first refusal is the same
// wherever it is read) + estimate_inference.
InferenceEstimate estimate_inference(std::string_view config_json_text, const OptionList& options);

}  // namespace fitcheck
