// SPDX-License-Identifier: MIT
// How a layout places layers and tensors on GPUs. Internal to the core.
#pragma once

#include <cstdint>
#include <vector>

#include "fitcheck/inference_memory.hpp"
#include "support/checked_math.hpp"

namespace fitcheck::detail {

struct StagePlan {
  // Layers [first_layer[s], first_layer[s + 1]) run on pipeline stage s; earlier stages take the
  // remainder when the layers do not split evenly. Stage 0 also holds the embeddings, the last
  // stage the final norm and lm_head.
  std::vector<std::int64_t> first_layer;
  std::size_t busiest_kv_stage = 0;
  std::vector<std::int64_t> busiest_kv_stage_layers_of_kind;  // per layer kind
};

// Throws std::invalid_argument naming the option when the layout cannot run the model.
void check_layout(const ModelDescription& model, const ParallelLayout& layout);

// The embedding's and the loss's slots of a training pipeline split (Megatron-Core's
// account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split): each takes a layer's
// place on the first (last) stage, the layers plus slots divided evenly (the caller checks they divide).
struct PipelineSlots {
  bool embedding = false;
  bool loss = false;
};
StagePlan plan_stages(const ModelDescription& model, const ParallelLayout& layout, PipelineSlots slots = {});

// torchtitan's split of layers that do not divide (9dec370 torchtitan/parallelisms/pipelining_utils.py
// generate_split_points): over pp x virtual_stages stages, the first takes layers / stages, the middle
// ones one more while the remainder lasts, the last what is left; rank r holds stages r, r + pp, ...
// The first layer of each of the `ranks` ranks and the layer count, as StagePlan::first_layer.
std::vector<std::int64_t> middle_extra_first_layers(std::int64_t layers, std::int64_t ranks,
                                                    std::int64_t virtual_stages);

// Key/value heads one tensor-parallel rank holds: kv/tp, or one replicated head when kv < tp.
std::int64_t kv_heads_per_rank(const AttentionShape& attention, std::int64_t tensor_parallel);

// The tensors of stage `stage` as one rank holds them.
std::vector<WeightTensor> tensors_on_stage(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                           const ParallelLayout& layout, const StagePlan& plan, std::size_t stage);

// The tensors of every stage as one rank holds them, in one pass: [stage][i], each stage's tensors
// in inventory order (as tensors_on_stage gives them).
std::vector<std::vector<WeightTensor>> tensors_by_stage(const ModelDescription& model,
                                                        const std::vector<WeightTensor>& tensors,
                                                        const ParallelLayout& layout, const StagePlan& plan);

// The stage whose rank holds the most parameters (the first of equals), in one pass over the tensors.
std::size_t busiest_weight_stage(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                 const ParallelLayout& layout, const StagePlan& plan);

// The KV cache per GPU given the layers of each kind on the busiest KV stage
// (StagePlan::busiest_kv_stage_layers_of_kind); terms and convention only when with_text.
KvCacheFigure kv_cache_figure(const ModelDescription& model, const InferenceWorkload& workload,
                              const std::vector<std::int64_t>& layers_of_kind, bool with_text);

// a x b and a + b, or std::overflow_error naming `what` (a byte figure beyond 64 bits).
[[noreturn]] void refuse_overflow(const char* what);
inline std::int64_t checked_product(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t product = 0;
  if (product_overflows(a, b, product)) refuse_overflow(what);
  return product;
}
std::int64_t checked_sum(std::int64_t a, std::int64_t b, const char* what);

}  // namespace fitcheck::detail
