// SPDX-License-Identifier: MIT
// Tensor, pipeline and expert parallel placement, following Megatron-LM's layout (Shoeybi et al.
// 2019, §3: column-parallel q/k/v and MLP up/gate, row-parallel output and down projections,
// vocabulary-parallel embedding and lm_head) as vLLM and SGLang use it for inference.
#include "placement/sharding.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fitcheck/options.hpp"

namespace fitcheck::detail {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// An OptionError (an std::invalid_argument) naming the option, so the page can mark its input.
[[noreturn]] void refuse(const char* option, const std::string& message) {
  throw OptionError(option, "option '" + std::string(option) + "': " + message);
}

// first_layer ascends; a layer's stage is the last one starting at or before it (a binary search:
// layouts reach thousands of stages, and every tensor asks).
std::int64_t stage_of_layer(const StagePlan& plan, std::int64_t layer) {
  const auto starts = plan.first_layer.begin() + 1;
  const auto end = plan.first_layer.end() - 1;  // the last entry is the layer count, not a stage start
  return std::upper_bound(starts, end, layer) - starts;
}

// Whether stage `stage` (of `last` + 1) holds `tensor`.
bool stage_holds(const WeightTensor& tensor, const StagePlan& plan, std::size_t stage, std::size_t last) {
  if (tensor.layer >= 0) return static_cast<std::size_t>(stage_of_layer(plan, tensor.layer)) == stage;
  if (tensor.group == ParameterGroup::embedding) return stage == 0;   // embeddings live on the first stage
  if (tensor.group == ParameterGroup::lm_head) return stage == last;  // lm_head (and its bias) on the last
  return stage == 0 || stage == last;  // the embedding norm and final norm: counted on both end stages (a few KB)
}

}  // namespace

void check_layout(const ModelDescription& model, const ParallelLayout& layout) {
  if (layout.tensor_parallel < 1) refuse("tp", "tensor parallel size must be at least 1");
  if (layout.pipeline_parallel < 1) refuse("pp", "pipeline parallel size must be at least 1");
  if (layout.expert_parallel < 1) refuse("ep", "expert parallel size must be at least 1");
  if (layout.data_parallel < 1) refuse("dp", "data parallel size must be at least 1");
  if (layout.tensor_parallel > 4096) refuse("tp", "tensor parallel size is beyond any real cluster");
  if (layout.pipeline_parallel > 4096) refuse("pp", "pipeline parallel size is beyond any real cluster");
  if (layout.expert_parallel > 65536) refuse("ep", "expert parallel size is beyond any real cluster");
  if (layout.data_parallel > 1'000'000) refuse("dp", "data parallel size is beyond any real cluster");
  const std::int64_t decoder_layers = model.num_layers;
  if (layout.pipeline_parallel > decoder_layers)
    refuse("pp", "pipeline parallel size " + std::to_string(layout.pipeline_parallel) + " is larger than the " +
                     std::to_string(decoder_layers) + " layers: a stage would be empty");
  const std::int64_t tp = layout.tensor_parallel;
  bool any_moe = false;
  for (const auto& layer : model.layer_kinds) {
    const AttentionShape& a = layer.attention;
    if (layer.is_ssm() && layer.ssm.num_heads % tp != 0)
      refuse("tp", "tensor parallel size " + std::to_string(tp) + " does not divide the " +
                       std::to_string(layer.ssm.num_heads) + " state-space (Mamba) heads");
    if (!layer.has_attention()) {
      if (layer.is_moe()) any_moe = true;
      continue;
    }
    if (a.num_heads % tp != 0)
      refuse("tp", "tensor parallel size " + std::to_string(tp) + " does not divide the " +
                       std::to_string(a.num_heads) + " attention heads");
    if (!a.is_multi_latent() && a.num_kv_heads % tp != 0 && tp % a.num_kv_heads != 0)
      refuse("tp", "tensor parallel size " + std::to_string(tp) + " and the " + std::to_string(a.num_kv_heads) +
                       " key/value heads divide neither way: heads can be neither split nor replicated evenly");
    if (layer.is_moe()) {
      any_moe = true;
      if (layout.expert_parallel > layer.moe.num_experts)
        refuse("ep", "expert parallel size " + std::to_string(layout.expert_parallel) + " is larger than the " +
                         std::to_string(layer.moe.num_experts) + " experts");
    }
  }
  if (!any_moe && layout.expert_parallel > 1) refuse("ep", "expert parallel size > 1 needs a mixture-of-experts model");
}

std::int64_t kv_heads_per_rank(const AttentionShape& attention, std::int64_t tensor_parallel) {
  return attention.num_kv_heads >= tensor_parallel ? attention.num_kv_heads / tensor_parallel : 1;
}

std::vector<std::int64_t> middle_extra_first_layers(std::int64_t layers, std::int64_t ranks,
                                                    std::int64_t virtual_stages) {
  const std::int64_t stages = ranks * std::max<std::int64_t>(1, virtual_stages);  // both bounded by the options
  const std::int64_t base = layers / stages, extra = layers % stages;
  const auto stage_layers = [&](std::int64_t i) {
    if (stages == 1) return layers;
    if (i == 0) return base;
    if (i < stages - 1) return base + (i <= extra ? 1 : 0);
    return layers - (stages - 1) * base - std::min(extra, stages - 2);
  };
  std::vector<std::int64_t> first(static_cast<std::size_t>(ranks + 1), 0);
  for (std::int64_t r = 0; r < ranks; ++r) {
    std::int64_t held = 0;
    for (std::int64_t i = r; i < stages; i += ranks) held += stage_layers(i);
    first[static_cast<std::size_t>(r + 1)] = first[static_cast<std::size_t>(r)] + held;
  }
  return first;
}

StagePlan plan_stages(const ModelDescription& model, const ParallelLayout& layout, PipelineSlots slots) {
  check_layout(model, layout);
  StagePlan plan;
  const std::int64_t stages = layout.pipeline_parallel;
  const std::int64_t layers = static_cast<std::int64_t>(model.layer_kind_of_layer.size());
  plan.first_layer.resize(static_cast<std::size_t>(stages + 1));
  const std::int64_t slots_taken = (slots.embedding ? 1 : 0) + (slots.loss ? 1 : 0);
  const bool slot_split = stages > 1 && slots_taken > 0 && (layers + slots_taken) % stages == 0;
  std::int64_t next = 0;
  for (std::int64_t s = 0; s < stages; ++s) {
    plan.first_layer[static_cast<std::size_t>(s)] = next;
    if (slot_split)
      next += (layers + slots_taken) / stages - (s == 0 && slots.embedding ? 1 : 0) -
              (s == stages - 1 && slots.loss ? 1 : 0);
    else
      next += layers / stages + (s < layers % stages ? 1 : 0);
  }
  plan.first_layer[static_cast<std::size_t>(stages)] = layers;

  // The stage whose layers cache the most values per token (sliding-window layers count at their
  // full per-token width; with equal stages the first wins).
  std::int64_t best = -1;
  for (std::int64_t s = 0; s < stages; ++s) {
    std::int64_t per_token = 0;
    for (std::int64_t i = plan.first_layer[static_cast<std::size_t>(s)];
         i < plan.first_layer[static_cast<std::size_t>(s + 1)]; ++i)
      per_token += kv_cache_bytes_per_token_per_layer(
          model.layer_kinds[model.layer_kind_of_layer[static_cast<std::size_t>(i)]], KvCacheDtype::bf16);
    if (per_token > best) {
      best = per_token;
      plan.busiest_kv_stage = static_cast<std::size_t>(s);
    }
  }
  plan.busiest_kv_stage_layers_of_kind.assign(model.layer_kinds.size(), 0);
  for (std::int64_t i = plan.first_layer[plan.busiest_kv_stage]; i < plan.first_layer[plan.busiest_kv_stage + 1]; ++i)
    plan.busiest_kv_stage_layers_of_kind[model.layer_kind_of_layer[static_cast<std::size_t>(i)]] += 1;
  return plan;
}

namespace {

// The tensor as one rank holds it under `layout`.
WeightTensor shard_for_rank(const ModelDescription& model, WeightTensor tensor, const ParallelLayout& layout) {
  if (!tensor.is_matrix()) return tensor;  // norms, biases, sinks: counted whole on every rank (an upper bound)
  const std::int64_t tp = layout.tensor_parallel;
  const std::int64_t ep = layout.expert_parallel;
  const auto& layer = tensor.layer >= 0
                          ? model.layer_kinds[model.layer_kind_of_layer[static_cast<std::size_t>(tensor.layer)]]
                          : model.layer_kinds.front();
  const AttentionShape& a = layer.attention;
  switch (tensor.role) {
    case TensorRole::token_embedding:
    case TensorRole::lm_head:
      tensor.rows = ceil_div(tensor.rows, tp);  // vocabulary-parallel
      break;
    case TensorRole::attention_query:
    case TensorRole::attention_kv_up:
    case TensorRole::ssm_in_projection:  // heads split as Megatron's Mamba mixer splits them
    case TensorRole::ssm_convolution:
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
    case TensorRole::shared_expert_gate:
    case TensorRole::shared_expert_up:
      tensor.rows = ceil_div(tensor.rows, tp);  // column-parallel
      break;
    case TensorRole::attention_key:
    case TensorRole::attention_value:
      tensor.rows = tensor.rows / a.num_kv_heads * kv_heads_per_rank(a, tp);
      break;
    case TensorRole::attention_output:
    case TensorRole::ssm_output:
    case TensorRole::mlp_down:
    case TensorRole::shared_expert_down:
      tensor.columns = ceil_div(tensor.columns, tp);  // row-parallel
      break;
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down:
      if (ep > 1) {
        tensor.copies = ceil_div(tensor.copies, ep);  // whole experts per rank (vLLM expert parallel)
      } else if (tensor.role == TensorRole::expert_down) {
        tensor.columns = ceil_div(tensor.columns, tp);
      } else {
        tensor.rows = ceil_div(tensor.rows, tp);
      }
      break;
    default:
      break;  // MLA down-projections, router, position embeddings: replicated
  }
  return tensor;
}

}  // namespace

std::vector<WeightTensor> tensors_on_stage(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                           const ParallelLayout& layout, const StagePlan& plan, std::size_t stage) {
  const std::size_t last = plan.first_layer.size() - 2;
  std::vector<WeightTensor> out;
  out.reserve(tensors.size() / std::max<std::size_t>(1, plan.first_layer.size() - 1) + 8);
  for (const WeightTensor& tensor : tensors)
    if (stage_holds(tensor, plan, stage, last)) out.push_back(shard_for_rank(model, tensor, layout));
  return out;
}

std::vector<std::vector<WeightTensor>> tensors_by_stage(const ModelDescription& model,
                                                        const std::vector<WeightTensor>& tensors,
                                                        const ParallelLayout& layout, const StagePlan& plan) {
  const std::size_t last = plan.first_layer.size() - 2;
  std::vector<std::vector<WeightTensor>> out(last + 1);
  for (const WeightTensor& tensor : tensors) {
    if (tensor.layer >= 0) {
      out[static_cast<std::size_t>(stage_of_layer(plan, tensor.layer))].push_back(
          shard_for_rank(model, tensor, layout));
      continue;
    }
    if (stage_holds(tensor, plan, 0, last)) out[0].push_back(shard_for_rank(model, tensor, layout));
    if (last != 0 && stage_holds(tensor, plan, last, last)) out[last].push_back(shard_for_rank(model, tensor, layout));
  }
  return out;
}

std::size_t busiest_weight_stage(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                 const ParallelLayout& layout, const StagePlan& plan) {
  const std::size_t last = plan.first_layer.size() - 2;
  std::vector<std::int64_t> parameters(last + 1, 0);
  for (const WeightTensor& tensor : tensors) {
    const std::int64_t on_rank = shard_for_rank(model, tensor, layout).parameters();
    if (tensor.layer >= 0) {
      parameters[static_cast<std::size_t>(stage_of_layer(plan, tensor.layer))] += on_rank;
      continue;
    }
    if (stage_holds(tensor, plan, 0, last)) parameters[0] += on_rank;
    if (last != 0 && stage_holds(tensor, plan, last, last)) parameters[last] += on_rank;
  }
  // The first stage of the most parameters, as a scan in stage order finds it.
  return static_cast<std::size_t>(std::max_element(parameters.begin(), parameters.end()) - parameters.begin());
}

[[noreturn]] void refuse_overflow(const char* what) {
  throw std::overflow_error(std::string(what) + " exceeds 2^63 bytes: reduce batch, context or the model's sizes");
}

std::int64_t checked_sum(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) refuse_overflow(what);
  return sum;
}

}  // namespace fitcheck::detail
