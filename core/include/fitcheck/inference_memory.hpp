// SPDX-License-Identifier: MIT
// Inference memory: weights per GPU in a storage format, the KV cache (exact, per layer kind),
// peak prefill activations, logits, overhead, and the capacity answers built on them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fitcheck/hardware.hpp"
#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/quantization.hpp"

namespace fitcheck {

// Element type of the cached keys and values.
enum class KvCacheDtype : std::uint8_t { fp32, bf16, fp16, fp8, int8, int4 };

struct KvCacheDtypeInfo {
  KvCacheDtype dtype;
  const char* id;                     // "bf16", "fp8", "int4", ...
  std::int64_t element_bits;          // bits per cached value
  std::int64_t scale_group_elements;  // 0: no scales; else one scale per this many values
  std::int64_t scale_bytes;           // bytes per scale (and zero point) of a group
  const char* source;
};
const KvCacheDtypeInfo& kv_cache_dtype_info(KvCacheDtype dtype);
// Accepts the ids and "auto"/"float16"/"bfloat16"/"fp8_e4m3"/"fp8_e5m2" aliases; nullptr if unknown.
const KvCacheDtypeInfo* find_kv_cache_dtype(const std::string& id);

// How GPUs split the model. data_parallel replicas hold whole copies and do not change per-GPU memory.
struct ParallelLayout {
  std::int64_t tensor_parallel = 1;
  std::int64_t pipeline_parallel = 1;
  std::int64_t expert_parallel = 1;
  std::int64_t data_parallel = 1;
  std::int64_t gpus() const { return tensor_parallel * pipeline_parallel * data_parallel; }
};

struct InferenceWorkload {
  WeightFormat weight_format = WeightFormat::bf16;
  WeightFormatOptions weight_options{};
  KvCacheDtype kv_cache_dtype = KvCacheDtype::bf16;
  std::int64_t batch_size = 1;            // concurrent sequences
  std::int64_t context_tokens = 4096;     // tokens each sequence holds in the cache (prompt + generated)
  std::int64_t prefill_chunk_tokens = 0;  // tokens of one prefill step; 0: the whole context at once
  std::int64_t kv_block_tokens = 0;       // paged allocation block (vLLM: 16); 0: exact per token
  // Tokens each sequence's cross-attention layers attend to when they are the request's images (Llama 3.2
  // Vision: images x image tokens per image); 0 without images. Whisper's source is its encoder frames,
  // a fact of the model (AudioEncoderStem::encoder_positions), not of the request.
  std::int64_t cross_attention_tokens = 0;
  ParallelLayout layout{};
  bool flash_attention = true;                    // false: eager attention materializes heads x s x s scores
  bool logits_all_positions = false;              // false: logits for the last position of each sequence only
  std::int64_t activation_bytes_per_element = 2;  // bf16/fp16 activations
  // A state-space or linear-attention layer's state as the engine keeps it: the conv window's columns
  // (conv_kernel as transformers' caches hold them; conv_kernel - 1 in vLLM and llama.cpp, which drop the
  // input the next step shifts out) and the bytes of a state value (0: activation_bytes_per_element;
  // llama.cpp keeps f32).
  bool state_conv_window_drops_oldest = false;
  std::int64_t state_bytes_per_element = 0;
  // The recurrent (SSM) part's element size where it differs from the conv window's (0: the same).
  std::int64_t recurrent_state_bytes_per_element = 0;
  std::int64_t framework_overhead_bytes = std::int64_t{1} << 30;  // see docs/inference-memory.md
  double gpu_memory_utilization = 0.9;  // share of GPU memory the engine may use (vLLM default 0.9)
};

// One line of a memory table: bytes per GPU and how they were computed, numbers substituted.
struct MemoryTerm {
  std::string name;
  std::int64_t bytes = 0;
  std::string formula;
};

// KV cache of the layers of one LayerShape kind.
struct KvCacheLayerTerm {
  std::size_t layer_kind = 0;
  std::int64_t layers = 0;                      // layers of this kind on the GPU counted
  std::int64_t bytes_per_token_per_layer = 0;   // whole layer, before tensor-parallel split
  std::int64_t cached_tokens_per_sequence = 0;  // min(context, window), block-rounded if paged
  // State-space (Mamba-2) layers keep a fixed state per sequence instead of a cache per token:
  // conv and SSM state of one layer, whole (before the tensor-parallel split); 0 for attention.
  std::int64_t state_bytes_per_sequence_per_layer = 0;
  // Cross-attention from a source of fixed length per sequence (Whisper's encoder frames, Llama 3.2
  // Vision's image tokens): the source tokens each sequence holds keys and values for, block-rounded if
  // paged, and those bytes for one layer, whole; 0 otherwise. The layer's self-attention share, if any, is
  // a term of its own.
  std::int64_t cross_source_tokens_per_sequence = 0;
  std::int64_t cross_bytes_per_sequence_per_layer = 0;
  std::int64_t bytes = 0;  // per GPU for the whole batch
  std::string formula;
};

struct KvCacheFigure {
  std::int64_t bytes_per_token = 0;  // all layers of the model, unsharded, as if every layer were full attention
  std::int64_t state_bytes_per_sequence = 0;  // state-space layers' fixed state, all layers, unsharded
  // Cross-attention keys and values of a fixed source per sequence (Whisper's frames, Llama 3.2 Vision's
  // image tokens), all layers, unsharded, exact (not block-rounded).
  std::int64_t cross_bytes_per_sequence = 0;
  std::int64_t bytes = 0;  // per GPU, whole batch at the workload's context
  std::vector<KvCacheLayerTerm> terms;
  std::string convention;  // e.g. the MLA latent-cache convention
};

// The figures per GPU, each once: inference_memory() returns them with the terms that explain
// them, inference_memory_totals() alone (the fast path for sweeps, arithmetic only).
struct InferenceMemoryTotals {
  std::int64_t weight_bytes = 0;              // per GPU (the busiest pipeline stage), encoders included
  std::int64_t encoder_weight_bytes = 0;      // of weight_bytes: vision/audio towers and projectors
  std::int64_t kv_cache_bytes = 0;            // per GPU
  std::int64_t kv_cache_bytes_per_token = 0;  // whole model, unsharded
  std::int64_t activation_bytes = 0;          // peak prefill activations of one layer, per GPU
  std::int64_t logits_bytes = 0;
  std::int64_t overhead_bytes = 0;
  std::int64_t total_bytes_per_gpu = 0;
};

struct InferenceMemory {
  InferenceMemoryTotals totals;
  std::vector<MemoryTerm> terms;  // weights, kv cache, activations, logits, overhead
  KvCacheFigure kv_cache;
  WeightBytes weights_whole_model;  // the format's bytes for the unsharded model
  std::vector<std::string> assumptions;
};

// Bytes per token of one layer's K and V (or MLA latent) at a cache dtype, before any split: a decoder
// layer's self-attention, and T5's cross-attention to the encoder output (one key/value per input token,
// taken as many as the context). Cross-attention to a source of fixed length per sequence is not per
// token (cross_kv_bytes_per_source_token_per_layer; 0 here for Llama 3.2 Vision's cross-attention layers).
std::int64_t kv_cache_bytes_per_token_per_layer(const LayerShape& layer, KvCacheDtype dtype);
// Bytes per source token of one layer's cross-attention K and V when the source is fixed per sequence
// (cross_source_per_sequence); 0 for any other layer.
std::int64_t cross_kv_bytes_per_source_token_per_layer(const LayerShape& layer, KvCacheDtype dtype);
// The source tokens of `layer`'s fixed-source cross-attention for one sequence of `workload`: the
// layer's own count (Whisper's encoder frames), else the workload's cross_attention_tokens (Llama 3.2
// Vision's image tokens).
std::int64_t cross_source_tokens_per_sequence(const LayerShape& layer, const InferenceWorkload& workload);

// Bytes of one state-space layer's per-sequence state, as transformers' Mamba-2 caches hold it
// (conv_states: conv channels x conv_kernel; ssm_states: heads x head_dim x state_size), each
// element at `element_bytes` (the model's dtype), split over `tensor_parallel` ranks; 0 for a layer
// without a state-space mixer. `conv_columns`, when given, replaces conv_kernel (an engine's window).
// `state_element_bytes`, when given, is the recurrent (SSM) state's element size where it differs from
// the conv window's (vLLM keeps Qwen3.5's at its config's mamba_ssm_dtype).
std::int64_t ssm_state_bytes_per_sequence_per_layer(const LayerShape& layer, std::int64_t element_bytes,
                                                    std::int64_t tensor_parallel = 1,
                                                    std::optional<std::int64_t> conv_columns = std::nullopt,
                                                    std::optional<std::int64_t> state_element_bytes = std::nullopt);

// The cache of `batch` sequences of `context_tokens`, per GPU under `layout`.
KvCacheFigure kv_cache(const ModelDescription& model, const InferenceWorkload& workload);

// Weight tensors as one GPU holds them: the busiest pipeline stage, matrices split by tensor
// parallelism, routed experts split by expert parallelism.
std::vector<WeightTensor> tensors_on_busiest_gpu(const ModelDescription& model,
                                                 const std::vector<WeightTensor>& tensors,
                                                 const ParallelLayout& layout);

InferenceMemory inference_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                 const InferenceWorkload& workload);

// The weights of one format and layout: the costly part of inference_memory(), computed once and
// reused while only batch, context or cache settings change (capacity searches, charts, planner).
struct LayoutWeights {
  WeightFormat format = WeightFormat::bf16;
  ParallelLayout layout{};
  WeightBytes on_gpu;  // the busiest stage's shard
  WeightBytes whole_model;
  // A multimodal checkpoint's encoders (vision and audio towers with their projectors), loaded
  // beside the language model in the activation dtype whatever the weight format, split over tp.
  std::int64_t encoder_parameters = 0;
  std::int64_t encoder_bytes_on_gpu = 0;
  // Layers of each kind (model.layer_kinds order) on the stage caching the most per token;
  // empty: worked out from the layout at each use.
  std::vector<std::int64_t> kv_stage_layers_of_kind;
};
LayoutWeights layout_weights(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                             const InferenceWorkload& workload);
// Throws std::invalid_argument when `weights` was made for another format or layout.
InferenceMemory inference_memory(const ModelDescription& model, const LayoutWeights& weights,
                                 const InferenceWorkload& workload);

// inference_memory(model, weights, workload).totals without the terms, formulas or assumptions:
// the same functions, arithmetic only. Throws as inference_memory(model, weights, workload) does.
InferenceMemoryTotals inference_memory_totals(const ModelDescription& model, const LayoutWeights& weights,
                                              const InferenceWorkload& workload);

// Capacity under a serving-engine budget (gpu_memory_utilization x memory): weights, then peak
// activations and overhead, then the rest to KV blocks.
struct CapacityAnswer {
  std::int64_t value = 0;  // 0 when nothing fits
  std::string limited_by;  // which term stops it going higher
  std::string formula;
};
// limited_by when a context or sequence search stopped at the positions the config has, not at memory.
inline constexpr const char* kLimitedByPositions = "max_position_embeddings";
CapacityAnswer max_batch_size(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                              const InferenceWorkload& workload, const Accelerator& gpu);
CapacityAnswer max_context_tokens(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const InferenceWorkload& workload, const Accelerator& gpu);
// Fewest GPUs (tensor parallel within a node, then pipeline stages across nodes) for the workload.
CapacityAnswer min_gpus(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                        const InferenceWorkload& workload, const Accelerator& gpu);

}  // namespace fitcheck
