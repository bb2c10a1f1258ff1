// SPDX-License-Identifier: MIT
// Training memory per GPU: checks the workload, evaluates every pipeline stage (model states on
// its tensors, activations of its layers) and keeps the stage with the largest total.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "fitcheck/config.hpp"
#include "fitcheck/training_memory.hpp"
#include "placement/sharding.hpp"
#include "support/largest_passing.hpp"
#include "training/training_memory_assumptions.hpp"

namespace fitcheck {
namespace {

std::string num(std::int64_t value) { return std::to_string(value); }

struct Degrees {
  std::int64_t dense = 1, expert = 1;
};

// ZeRO/FSDP shard over the ranks holding the same weights: dp x cp (Megatron-Core shards its
// distributed optimizer over the data-parallel group with context parallelism). Routed experts,
// whole per rank when ep > 1, are replicated over tp x dp x cp / ep ranks (Megatron-Core MoE
// parallel folding with expert tensor parallelism 1); with ep == 1 they follow the dense weights.
Degrees degrees(const TrainingWorkload& w) {
  const ParallelLayout& l = w.layout;
  const std::int64_t replicas = l.data_parallel * w.context_parallel;
  const std::int64_t expert_replicas =
      l.expert_parallel > 1 ? l.tensor_parallel * replicas / l.expert_parallel : replicas;
  Degrees d{replicas, expert_replicas};
  if (w.fsdp == FsdpMode::hybrid_shard) {
    d.dense = std::min(w.fsdp_shard_group, replicas);
    d.expert = std::min(w.fsdp_shard_group, expert_replicas);
  }
  return d;
}

// The tensors the framework's model holds: the checkpoint's, plus an output head of the embedding's
// shape where the framework keeps one apart from a tied embedding (LitGPT: untied_output_head).
std::vector<WeightTensor> framework_tensors(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                            const TrainingWorkload& workload) {
  std::vector<WeightTensor> out = tensors;
  if (!model.tie_word_embeddings || !training_framework(workload).untied_output_head) return out;
  const bool has_head =
      std::any_of(tensors.begin(), tensors.end(), [](const WeightTensor& t) { return t.role == TensorRole::lm_head; });
  if (has_head) return out;
  for (const WeightTensor& t : tensors)
    if (t.role == TensorRole::token_embedding && t.is_matrix()) {
      out.push_back({TensorRole::lm_head, ParameterGroup::lm_head, -1, t.rows, t.columns, 1});
      break;
    }
  return out;
}

}  // namespace

// Training activations are modelled per attention and MLP block; a state-space layer's (its conv,
// scan states per chunk, gated norm) are not, and a silent zero would understate them.
void check_trainable(const ModelDescription& model) {
  for (const LayerShape& layer : model.layer_kinds)
    if (layer.is_ssm())
      throw ConfigError("model_type",
                        "training memory is not modelled for state-space (Mamba) layers yet: model_type '" +
                            model.model_type +
                            "' has them; inference, capacity and serving plans are (fitcheck infer, plan)");
}

namespace {

// Megatron refuses the modules its model lacks (transformer_config.py __post_init__: "moe_act in
// recompute_modules is only supported with moe_grouped_gemm", "mla_up_proj ... only supported with
// multi_latent_attention"); mlp, moe and shared_experts apply where their layers are.
void check_recompute_modules(const ModelDescription& model, const TrainingWorkload& w) {
  if (w.recompute != Recompute::selective) return;
  if (w.lora.rank > 0 && w.recompute_modules.beyond_core_attention())
    throw OptionError("recompute_modules",
                      "option 'recompute_modules': recomputed modules with LoRA adapters are not modelled (their "
                      "adapter activations would be discarded too); use core_attn, or --recompute full");
  const auto any = [&](auto predicate) {
    return std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(), predicate);
  };
  if (w.recompute_modules.moe_act && !any([](const LayerShape& l) { return l.is_moe(); }))
    throw OptionError("recompute_modules",
                      "option 'recompute_modules': moe_act needs routed experts, and model_type '" + model.model_type +
                          "' has none (Megatron refuses it without MoE)");
  if (w.recompute_modules.mla_up_proj && !any([](const LayerShape& l) { return l.attention.is_multi_latent(); }))
    throw OptionError("recompute_modules",
                      "option 'recompute_modules': mla_up_proj needs multi-latent attention, and model_type '" +
                          model.model_type + "' has none (Megatron refuses it without MLA)");
}

}  // namespace

PreparedTrainingMemory prepare_training_memory(const ModelDescription& model,
                                               const std::vector<WeightTensor>& checkpoint_tensors,
                                               const TrainingWorkload& workload) {
  check_trainable(model);
  PreparedTrainingMemory p;
  p.workload = with_training_defaults(workload);
  const std::vector<WeightTensor> tensors = framework_tensors(model, checkpoint_tensors, p.workload);
  // The default ("all-linear") names every linear role, MLA's and the experts' among them: keep the
  // ones this model has, so that the report lists the modules adapted (a Llama has no q_down).
  if (workload.lora.rank > 0 && workload.lora.target_roles.empty()) {
    auto& roles = p.workload.lora.target_roles;
    roles.erase(std::remove_if(roles.begin(), roles.end(),
                               [&](TensorRole role) {
                                 return std::none_of(tensors.begin(), tensors.end(), [&](const WeightTensor& t) {
                                   return t.role == role && t.is_matrix();
                                 });
                               }),
                roles.end());
  }
  check_training_workload(p.workload, model.num_layers, false);
  check_recompute_modules(model, p.workload);
  const Degrees degree = degrees(p.workload);
  p.dense_degree = degree.dense;
  p.expert_degree = degree.expert;
  detail::StagePlan plan;
  try {
    plan = detail::plan_stages(model, p.workload.layout,
                               {p.workload.pipeline_split_embedding_slot, p.workload.pipeline_split_loss_slot});
    if (training_framework(p.workload).middle_stages_take_extra_layers && !p.workload.pipeline_split_embedding_slot &&
        !p.workload.pipeline_split_loss_slot)
      plan.first_layer =
          detail::middle_extra_first_layers(static_cast<std::int64_t>(model.layer_kind_of_layer.size()),
                                            p.workload.layout.pipeline_parallel, p.workload.virtual_pipeline_stages);
  } catch (const OptionError&) {
    throw;  // already names its option (the message starts "option 'ep': ...", not with the size's name)
  } catch (const std::invalid_argument& error) {
    // The layout checks name the size in words; report the option it belongs to.
    const std::string message = error.what();
    const char* option = message.rfind("tensor", 0) == 0     ? "tp"
                         : message.rfind("pipeline", 0) == 0 ? "pp"
                         : message.rfind("expert", 0) == 0   ? "ep"
                                                             : "dp";
    throw OptionError(option, message);
  }
  // One pass places every tensor (stages x tensors would take seconds at thousands of stages).
  const auto local = detail::tensors_by_stage(model, tensors, p.workload.layout, plan);
  for (std::size_t s = 0; s + 1 < plan.first_layer.size(); ++s) {
    PreparedTrainingMemory::Stage stage;
    stage.first_layer = plan.first_layer[s];
    stage.end_layer = plan.first_layer[s + 1];
    stage.kinds = detail::stage_layer_kinds(model, stage.first_layer, stage.end_layer);
    stage.states = detail::stage_states(local[s], p.workload, p.dense_degree, p.expert_degree);
    p.stages.push_back(std::move(stage));
  }
  const auto& roles = p.workload.lora.target_roles;
  for (const auto& t : tensors) {
    p.total_parameters += t.parameters();
    if (p.workload.lora.rank == 0)
      p.trainable_parameters += t.parameters();
    else if (t.is_matrix() && std::find(roles.begin(), roles.end(), t.role) != roles.end())
      p.trainable_parameters += lora_trainable_parameters(t, p.workload.lora);
  }
  p.has_experts = std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(),
                              [](const LayerShape& layer) { return layer.is_moe(); });
  return p;
}

namespace {

// One stage's figures; its terms too when `terms` is given.
TrainingMemoryTotals stage_totals(const ModelDescription& model, const PreparedTrainingMemory& p,
                                  const TrainingWorkload& w, std::size_t s, TrainingMemory* terms) {
  const PreparedTrainingMemory::Stage& stage = p.stages[s];
  const auto acts = detail::stage_activations(model, w, stage.kinds, static_cast<std::int64_t>(s), terms != nullptr);
  const detail::StageStates& st = stage.states;
  TrainingMemoryTotals m;
  m.weight_bytes = st.weight_bytes;
  m.gradient_bytes = st.gradient_bytes;
  m.master_weight_bytes = st.master_bytes;
  m.optimizer_bytes = st.optimizer_bytes + st.master_bytes;
  m.activation_bytes = acts.bytes;
  m.communication_bytes = st.communication_bytes;
  m.overhead_bytes = w.framework_overhead_bytes;
  m.cpu_offload_bytes = st.cpu_bytes + acts.cpu_offload_bytes;
  // Frameworks that free gradients after each step allocate them during backward while the
  // activations are freed layer by layer: at the start of backward the activations are alive and
  // almost no gradients, at its end all gradients and almost no activations.
  if (gradients_overlap_activations(w)) m.backward_overlap_bytes = std::min(m.gradient_bytes, m.activation_bytes);
  m.allocated_bytes_per_gpu = m.weight_bytes + m.gradient_bytes + m.optimizer_bytes + m.activation_bytes +
                              m.communication_bytes + m.overhead_bytes - m.backward_overlap_bytes;
  // Reserved: the activations' blocks as the caching allocator rounds them (model states live in a
  // few large buffers whose rounding is below a MiB each and is not counted).
  m.reserved_bytes_per_gpu = m.allocated_bytes_per_gpu + std::max<std::int64_t>(0, acts.allocator_blocks - acts.bytes);
  m.memory_statistic = training_memory_statistic(w);
  m.total_bytes_per_gpu =
      m.memory_statistic == MemoryStatistic::reserved ? m.reserved_bytes_per_gpu : m.allocated_bytes_per_gpu;
  m.busiest_stage = static_cast<std::int64_t>(s);
  m.micro_batches_in_flight = acts.in_flight;
  if (terms) {
    terms->terms = detail::stage_state_terms(st, w);
    terms->terms.insert(terms->terms.end(), acts.terms.begin(), acts.terms.end());
    terms->terms.push_back(detail::communication_term(st, w));
    if (m.backward_overlap_bytes > 0)
      terms->terms.push_back(
          {"gradients allocated as activations are freed", -m.backward_overlap_bytes,
           "- min(gradients " + num(m.gradient_bytes) + " B, activations " + num(m.activation_bytes) +
               " B): one micro-batch per step and gradients freed after each step, so the peak holds the larger "
               "of the two: " +
               training_framework(w).gradient_lifetime_rule});
    terms->terms.push_back({"overhead", m.overhead_bytes, "framework overhead: a default you can change"});
    if (m.memory_statistic == MemoryStatistic::reserved)
      terms->terms.push_back({"allocator block rounding (reserved - allocated)",
                              m.reserved_bytes_per_gpu - m.allocated_bytes_per_gpu,
                              "activation tensors of 10 MiB or more rounded up to 2 MiB segments, smaller ones to "
                              "512 B (PyTorch CUDACachingAllocator kRoundLarge, kMinBlockSize)"});
    terms->layer_activation_terms = acts.heaviest_layer_terms;
  }
  return m;
}

// The stage with the largest total (the first of equals), numbers only.
TrainingMemoryTotals busiest_stage_totals(const ModelDescription& model, const PreparedTrainingMemory& p,
                                          const TrainingWorkload& w) {
  TrainingMemoryTotals best;
  best.total_bytes_per_gpu = -1;
  for (std::size_t s = 0; s < p.stages.size(); ++s) {
    const TrainingMemoryTotals m = stage_totals(model, p, w, s, nullptr);
    if (m.total_bytes_per_gpu > best.total_bytes_per_gpu) best = m;
  }
  return best;
}

TrainingWorkload sized(const PreparedTrainingMemory& p, std::int64_t micro_batch_size, std::int64_t sequence_tokens) {
  TrainingWorkload w = p.workload;
  w.micro_batch_size = micro_batch_size;
  w.sequence_tokens = sequence_tokens;
  return w;
}

TrainingMemory evaluate(const ModelDescription& model, const PreparedTrainingMemory& p, const TrainingWorkload& w) {
  const TrainingMemoryTotals totals = busiest_stage_totals(model, p, w);
  TrainingMemory best;
  // The formulas of the chosen stage, from the same function that sized it.
  best.totals = stage_totals(model, p, w, static_cast<std::size_t>(totals.busiest_stage), &best);
  const TrainingMemoryTotals& m = best.totals;
  const detail::StageStates& st = p.stages[static_cast<std::size_t>(m.busiest_stage)].states;
  if (st.local_parameters > 0)
    best.model_state_bytes_per_parameter = static_cast<double>(m.weight_bytes + m.gradient_bytes + m.optimizer_bytes) /
                                           static_cast<double>(st.local_parameters);
  const bool sharded = w.zero_stage > 0 || (w.fsdp != FsdpMode::off && w.fsdp != FsdpMode::no_shard);
  best.sharding_degree = sharded ? p.dense_degree : 1;
  best.expert_sharding_degree = sharded ? p.expert_degree : 1;
  best.total_parameters = p.total_parameters;
  best.trainable_parameters = p.trainable_parameters;
  best.assumptions =
      detail::training_memory_assumptions(w, best, static_cast<std::int64_t>(p.stages.size()), p.has_experts);
  return best;
}

}  // namespace

TrainingMemoryTotals training_memory_totals(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                            std::int64_t micro_batch_size, std::int64_t sequence_tokens) {
  const TrainingWorkload w = sized(prepared, micro_batch_size, sequence_tokens);
  check_training_workload(w, model.num_layers, false);
  return busiest_stage_totals(model, prepared, w);
}

TrainingMemory training_memory(const ModelDescription& model, const PreparedTrainingMemory& prepared) {
  return evaluate(model, prepared, prepared.workload);
}

TrainingMemory training_memory(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                               const TrainingWorkload& workload) {
  return training_memory(model, prepare_training_memory(model, tensors, workload));
}

namespace {

// The total per GPU at a size the capacity searches try, the largest integer when it overflows
// (it then does not fit).
std::int64_t total_or_max(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                          std::int64_t micro_batch, std::int64_t sequence) {
  try {
    return training_memory_totals(model, prepared, micro_batch, sequence).total_bytes_per_gpu;
  } catch (const std::overflow_error&) {
    return std::numeric_limits<std::int64_t>::max();
  }
}

// Why not even the smallest size fits: the model states, buffers and overhead alone, or the
// activations of that size on top of them.
std::string smallest_does_not_fit(const TrainingMemoryTotals& smallest, std::int64_t memory, const char* size) {
  return smallest.total_bytes_per_gpu - smallest.activation_bytes > memory
             ? "model states, buffers and overhead alone exceed GPU memory"
             : std::string("activations of ") + size;
}

}  // namespace

CapacityAnswer max_sequence_tokens(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                   const Accelerator& gpu) {
  const std::int64_t micro_batch = prepared.workload.micro_batch_size;
  // Context parallelism splits each sequence into cp equal parts: the sequence grows in steps of cp tokens.
  const std::int64_t step_tokens = prepared.workload.context_parallel;
  const std::int64_t memory_bytes = gpu_memory_limit_bytes(gpu);  // macOS working set on Apple silicon
  const auto total = [&](std::int64_t steps) {
    return total_or_max(model, prepared, micro_batch, steps * step_tokens);
  };
  CapacityAnswer answer;
  const TrainingMemoryTotals shortest = training_memory_totals(model, prepared, micro_batch, step_tokens);
  if (shortest.total_bytes_per_gpu > memory_bytes) {
    answer.limited_by = smallest_does_not_fit(shortest, memory_bytes, "the shortest sequence");
    answer.formula = "micro-batch " + num(micro_batch) + " of " + num(step_tokens) + "-token sequences needs " +
                     num(shortest.total_bytes_per_gpu) + " B > " + num(memory_bytes) + " B of " + gpu.id;
    return answer;
  }
  // As the inference context is (max_context_tokens), the answer stops at the positions the config
  // has; a config without a limit (recurrent models) stops at 2^24 steps.
  const bool positions_limit = model.max_position_embeddings >= step_tokens;
  const std::int64_t cap_steps = positions_limit ? model.max_position_embeddings / step_tokens : std::int64_t{1} << 24;
  const std::int64_t steps =
      detail::largest_passing_from_below(1, cap_steps, [&](std::int64_t s) { return total(s) <= memory_bytes; });
  answer.value = steps * step_tokens;
  answer.formula = "micro-batch " + num(micro_batch) + " x " + num(answer.value) + " tokens: " + num(total(steps)) +
                   " B <= " + num(memory_bytes) + " B";
  if (steps == cap_steps) {
    answer.limited_by = positions_limit ? kLimitedByPositions : "search cap of 2^24 tokens per context-parallel rank";
    if (positions_limit) answer.formula += "; capped by the model's max_position_embeddings";
  } else {
    answer.limited_by = "activations (GPU memory " + num(memory_bytes) + " B)";
    answer.formula += "; " + num((steps + 1) * step_tokens) + " tokens: " + num(total(steps + 1)) + " B";
  }
  return answer;
}

CapacityAnswer max_micro_batch_size(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                    const TrainingWorkload& workload, const Accelerator& gpu) {
  return max_micro_batch_size(model, prepare_training_memory(model, tensors, workload), gpu);
}

CapacityAnswer max_micro_batch_size(const ModelDescription& model, const PreparedTrainingMemory& prepared,
                                    const Accelerator& gpu) {
  const std::int64_t sequence = prepared.workload.sequence_tokens;
  const std::int64_t memory_bytes = gpu_memory_limit_bytes(gpu);  // macOS working set on Apple silicon
  const auto total = [&](std::int64_t b) { return total_or_max(model, prepared, b, sequence); };
  CapacityAnswer answer;
  const TrainingMemoryTotals at_one = training_memory_totals(model, prepared, 1, sequence);
  if (at_one.total_bytes_per_gpu > memory_bytes) {
    answer.limited_by = smallest_does_not_fit(at_one, memory_bytes, "one micro-batch");
    answer.formula =
        "micro-batch 1 needs " + num(at_one.total_bytes_per_gpu) + " B > " + num(memory_bytes) + " B of " + gpu.id;
    return answer;
  }
  constexpr std::int64_t kMicroBatchCap = std::int64_t{1} << 24;
  const std::int64_t low =
      detail::largest_passing_from_below(1, kMicroBatchCap, [&](std::int64_t b) { return total(b) <= memory_bytes; });
  if (low == kMicroBatchCap) {
    answer.value = low;
    answer.limited_by = "search cap of 2^24";
    answer.formula = "micro-batch " + num(low) + " fits in " + num(memory_bytes) + " B";
    return answer;
  }
  answer.value = low;
  answer.limited_by = "activations (GPU memory " + num(memory_bytes) + " B)";
  answer.formula = "micro-batch " + num(low) + ": " + num(total(low)) + " B <= " + num(memory_bytes) +
                   " B; micro-batch " + num(low + 1) + ": " + num(total(low + 1)) + " B";
  return answer;
}

}  // namespace fitcheck
