// SPDX-License-Identifier: MIT
// Model states in training: weights, gradients, master weights and optimizer states by precision
// recipe and optimizer, sharded by ZeRO or FSDP, offloaded to the CPU, and LoRA adapters.
// stage_states() computes the figures; stage_state_terms() and communication_term() write the
// formulas from them, only when a report asks for text.
#include <algorithm>
#include <map>

#include "fitcheck/quantization.hpp"
#include "fitcheck/training_memory.hpp"

namespace fitcheck {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string num(std::int64_t value) { return std::to_string(value); }

bool is_fp8_gemm_matrix(const WeightTensor& tensor) {
  // TE replaces the Linear layers of the blocks; embeddings, lm_head and the router stay bf16.
  return tensor.layer >= 0 && tensor.is_matrix() && tensor.role != TensorRole::router &&
         tensor.role != TensorRole::relative_position_bias;
}

struct Widths {
  std::int64_t weight = 2, gradient = 2, master = 4, state = 4;
  const char* weight_dtype = "bf16";
};

// What the workload decides about model states: their widths, what ZeRO or FSDP shards and what
// lives in CPU memory. stage_states() and the formula writers read the same decisions.
struct Rules {
  bool lora = false;
  Widths width;  // of the trainable tensors: the recipe's, or fp32 adapters without a master copy
  bool use_fsdp = false, fsdp_shards = false;
  bool shard_optimizer = false, shard_gradients = false, shard_weights = false;
  bool states_on_cpu = false, grads_on_cpu = false, weights_on_cpu = false;
  std::int64_t fsdp_param_bytes = 0;  // FSDP's flat parameters: fp32 masters, else the weights
  std::int64_t gradient_width = 0;    // bytes per gradient as stored
  bool gathered_whole = false;        // FSDP keeps a gathered 16-bit copy from forward to backward
};

Rules rules_of(const TrainingWorkload& workload) {
  Rules r;
  r.lora = workload.lora.rank > 0;
  const auto& recipe = precision_recipe_info(workload.precision);
  Widths& w = r.width;
  w.weight = recipe.weight_bytes_per_parameter;
  w.weight_dtype = workload.precision == PrecisionRecipe::fp32         ? "fp32"
                   : workload.precision == PrecisionRecipe::fp16_mixed ? "fp16"
                                                                       : "bf16";
  w.gradient = training_gradient_bytes_per_parameter(workload);
  const bool mixed = workload.precision != PrecisionRecipe::fp32;
  w.master = mixed && workload.fp32_master_weights ? 4 : 0;
  // torch.optim allocates states like the parameters it steps (zeros_like): fp32 masters or the weights.
  w.state = w.master > 0 ? 4 : w.weight;
  // Adapters: weights, gradients and states in the framework's adapter dtype (PEFT: fp32;
  // torchtune, LitGPT: the model's bf16), no separate master.
  if (r.lora) {
    const std::int64_t a = training_framework(workload).adapter_bytes;
    w = {a, a, 0, a, a == 4 ? "fp32" : "bf16"};
  }

  // Sharding rules. DeepSpeed ZeRO (Rajbhandari et al. 2020 §5): stage 1 shards optimizer states
  // (master weights included), 2 adds gradients, 3 adds parameters. FSDP (Zhao et al. 2023 §3):
  // every strategy but NO_SHARD shards parameters, gradients and optimizer states at rest.
  const int zero = workload.zero_stage;
  const FsdpMode fsdp = workload.fsdp;
  r.use_fsdp = fsdp != FsdpMode::off;
  r.fsdp_shards = r.use_fsdp && fsdp != FsdpMode::no_shard;
  r.shard_optimizer = r.use_fsdp ? r.fsdp_shards : zero >= 1;
  r.shard_gradients = r.use_fsdp ? r.fsdp_shards : zero >= 2;
  r.shard_weights = r.use_fsdp ? r.fsdp_shards : zero >= 3;
  r.states_on_cpu = workload.offload_optimizer || (r.use_fsdp && workload.offload_params);
  r.grads_on_cpu = r.use_fsdp ? workload.offload_params : (workload.offload_optimizer && zero >= 2);
  r.weights_on_cpu = workload.offload_params;
  // FSDP mixed precision keeps the sharded parameters in fp32 (they are the masters) and gathers
  // 16-bit copies for compute; gradients come back in the parameter dtype.
  r.fsdp_param_bytes = w.master > 0 ? 4 : w.weight;
  r.gradient_width = r.use_fsdp ? (r.lora ? w.gradient : r.fsdp_param_bytes) : w.gradient;
  r.gathered_whole = fsdp == FsdpMode::shard_grad_op ||
                     (fsdp == FsdpMode::no_shard && w.weight != r.fsdp_param_bytes) ||
                     fsdp_unsharded_for_step(workload);
  return r;
}

// The frozen base of LoRA / QLoRA in its storage format.
WeightFormat base_format(const TrainingWorkload& workload) {
  if (workload.lora.qlora) return WeightFormat::bnb_nf4;
  if (workload.precision == PrecisionRecipe::fp32) return WeightFormat::fp32;
  if (workload.precision == PrecisionRecipe::fp16_mixed) return WeightFormat::fp16;
  return WeightFormat::bf16;
}

detail::StatePlacement place(std::int64_t bytes, std::int64_t degree, bool sharded, bool offloaded) {
  detail::StatePlacement p;
  p.bytes = bytes;
  p.divided_by = sharded ? degree : 1;
  p.bytes_per_rank = ceil_div(bytes, p.divided_by);
  p.in_cpu_memory = offloaded;
  return p;
}

// " / 8 ranks = 1234 B in CPU memory"
std::string note(const detail::StatePlacement& p) {
  std::string text = p.divided_by > 1 ? " / " + num(p.divided_by) + " ranks" : std::string();
  return text + " = " + num(p.bytes_per_rank) + " B" + (p.in_cpu_memory ? " in CPU memory" : "");
}

void join(std::string& text, const std::string& part) { text += (text.empty() ? "" : " + ") + part; }

}  // namespace

namespace detail {

StageStates stage_states(const std::vector<WeightTensor>& local, const TrainingWorkload& workload,
                         std::int64_t dense_degree, std::int64_t expert_degree) {
  StageStates out;
  const Rules r = rules_of(workload);
  const Widths& w = r.width;

  // Trainable tensors: the whole model, or (LoRA) A and B of each adapted matrix, and DoRA's magnitude.
  std::vector<WeightTensor> trainable, base;
  if (r.lora) {
    const auto& roles = workload.lora.target_roles;
    for (const auto& t : local) {
      base.push_back(t);
      if (!t.is_matrix() || std::find(roles.begin(), roles.end(), t.role) == roles.end()) continue;
      trainable.push_back({t.role, t.group, t.layer, workload.lora.rank, t.columns, t.copies});
      trainable.push_back({t.role, t.group, t.layer, t.rows, workload.lora.rank, t.copies});
      if (workload.lora.dora) trainable.push_back({t.role, t.group, t.layer, t.rows, 1, t.copies});  // magnitude
    }
  } else {
    trainable = local;
  }

  std::int64_t persistent[2] = {0, 0}, fp8_matrix[2] = {0, 0}, state_bytes[2] = {0, 0};
  std::map<std::int32_t, std::int64_t> layer_params;  // for FSDP/ZeRO-3 units
  for (const auto& t : trainable) {
    const int g = is_routed_expert(t.role) ? 1 : 0;
    GroupStates& group = g == 1 ? out.expert : out.dense;
    const std::int64_t n = t.parameters();
    group.params += n;
    if (t.rows * t.columns < workload.zero3_param_persistence_threshold) persistent[g] += n;
    if (!r.lora && workload.precision == PrecisionRecipe::fp8 && is_fp8_gemm_matrix(t)) fp8_matrix[g] += n;
    state_bytes[g] += optimizer_state_bytes(t, workload, w.state);
    out.trainable_local_parameters += n;
    if (t.rows * t.columns > out.largest_trainable_params) {
      out.largest_trainable_params = t.rows * t.columns;
      out.largest_trainable_group = g;
    }
  }
  for (const auto& t : local) {
    out.local_parameters += t.parameters();
    layer_params[t.layer] += t.parameters();
    // ZeRO-3 fetches module by module; each routed expert is its own Linear in transformers.
    if (t.rows * t.columns >= workload.zero3_param_persistence_threshold)
      out.largest_tensor_params = std::max(out.largest_tensor_params, t.rows * t.columns);
  }

  std::int64_t weights_gpu = 0;  // trainable weights (or adapters) on the GPU
  for (int g = 0; g < 2; ++g) {
    GroupStates& group = g == 1 ? out.expert : out.dense;
    if (group.params == 0) continue;
    const std::int64_t degree = g == 1 ? expert_degree : dense_degree;
    if (r.lora) {
      // Adapters are trainable parameters: sharded and offloaded like weights, per group.
      group.weights = place(group.params * w.weight, degree, r.shard_weights, r.weights_on_cpu && r.shard_weights);
    } else if (r.use_fsdp) {
      group.weights = place(group.params * r.fsdp_param_bytes, degree, r.fsdp_shards, r.weights_on_cpu);
      if (r.gathered_whole) group.gathered_copy_bytes = group.params * w.weight;
    } else {
      // ZeRO-3 keeps tensors under stage3_param_persistence_threshold whole on every rank.
      group.whole_params = r.shard_weights ? persistent[g] : 0;
      group.weights = place((group.params - group.whole_params) * w.weight, degree, r.shard_weights,
                            r.weights_on_cpu && r.shard_weights);
    }
    if (!r.lora && fp8_matrix[g] > 0 && !r.shard_weights) group.fp8_copy_params = fp8_matrix[g];
    group.gradients = place(group.params * r.gradient_width, degree, r.shard_gradients, r.grads_on_cpu);
    if (w.master > 0 && !r.use_fsdp)
      group.master = place(group.params * w.master, degree, r.shard_optimizer, r.states_on_cpu);
    // bitsandbytes paged optimizers allocate their states with cudaMallocManaged (functional.py
    // get_paged: lib.cget_managed_ptr, then torch.frombuffer): outside PyTorch's allocator, on the
    // GPU while there is room and paged to the CPU when there is not. Counted off the GPU.
    group.states = place(state_bytes[g], degree, r.shard_optimizer, r.states_on_cpu || workload.paged_optimizer);

    weights_gpu += group.weights.gpu_bytes() + group.gathered_copy_bytes + group.whole_params * w.weight;
    out.cpu_bytes +=
        group.weights.cpu_bytes() + group.gradients.cpu_bytes() + group.master.cpu_bytes() + group.states.cpu_bytes();
    out.gradient_bytes += group.gradients.gpu_bytes();
    out.master_bytes += group.master.gpu_bytes();
    out.optimizer_bytes += group.states.gpu_bytes();
  }

  // torchtune's optimizer_in_bwd: a post-accumulate-grad hook steps each parameter and sets its
  // gradient to None as soon as it is ready (pytorch/torchtune 1814feb1 torchtune/training/memory.py
  // register_optim_in_bwd_hooks l.219-242): one gradient, the largest, is alive at a time.
  if (workload.optimizer_in_backward && out.largest_trainable_params > 0) {
    const std::int64_t degree = out.largest_trainable_group == 1 ? expert_degree : dense_degree;
    out.gradient_bytes =
        place(out.largest_trainable_params * r.gradient_width, degree, r.shard_gradients, false).bytes_per_rank;
    if (r.grads_on_cpu) out.gradient_bytes = 0;
  }

  // LoRA / QLoRA: the frozen base in its storage format, sharded only where weights are.
  if (r.lora) {
    const WeightFormat format = base_format(workload);
    const TrainingFrameworkProfile& framework = training_framework(workload);
    WeightFormatOptions options;
    options.double_quant = framework.qlora_double_quant;
    options.quantize_output_head = framework.qlora_quantizes_output_head;
    out.base_params = out.local_parameters;
    const bool shard_base = r.use_fsdp
                                ? (workload.fsdp == FsdpMode::full_shard || workload.fsdp == FsdpMode::hybrid_shard)
                                : workload.zero_stage >= 3;
    out.base = place(weight_bytes(base, format, options).total_bytes, dense_degree, shard_base,
                     r.weights_on_cpu && shard_base);
    out.cpu_bytes += out.base.cpu_bytes();
    out.adapter_bytes = weights_gpu;
    if (workload.lora.qlora) {
      // bitsandbytes' 4-bit matmul dequantizes its weight for the duration of the GEMM: one bf16
      // copy, or (LitGPT) a float16 copy and its bf16 cast of the largest quantized matrix.
      for (const auto& t : base)
        if (t.is_matrix() && t.role != TensorRole::token_embedding &&
            (t.role != TensorRole::lm_head || framework.qlora_quantizes_output_head))
          out.dequantized_params = std::max(out.dequantized_params, t.rows * t.columns);
    }
    out.weight_bytes =
        out.base.gpu_bytes() + out.adapter_bytes + out.dequantized_params * framework.qlora_dequantized_bytes_per_param;
  } else {
    out.fp8_copy_bytes = 2 * (out.dense.fp8_copy_params + out.expert.fp8_copy_params);
    out.weight_bytes = weights_gpu + out.fp8_copy_bytes;
  }

  // Communication buffers.
  for (const auto& [layer, params] : layer_params) {
    if (layer < 0)
      out.root_params += params;
    else
      out.largest_layer_params = std::max(out.largest_layer_params, params);
  }
  const double base_bytes_per_param = r.lora && out.base_params > 0
                                          ? static_cast<double>(out.base.bytes) / static_cast<double>(out.base_params)
                                          : static_cast<double>(w.weight);
  const auto gathered = [&](std::int64_t params) {
    return static_cast<std::int64_t>(static_cast<double>(params) * base_bytes_per_param + 0.5);
  };
  const std::int64_t grad_width = w.gradient;
  const FsdpMode fsdp = workload.fsdp;
  if (fsdp_unsharded_for_step(workload)) {
    // torchtitan under pp: parameters stay gathered (counted with the weights) and each
    // micro-batch's gradients accumulate unsharded in the fp32 reduce dtype until the last backward.
    out.unsharded_gradient_bytes = r.lora ? 0 : (out.dense.params + out.expert.params) * 4;
    out.communication_bytes = out.unsharded_gradient_bytes;
  } else if (r.use_fsdp && (fsdp == FsdpMode::full_shard || fsdp == FsdpMode::hybrid_shard)) {
    // FSDP gathers one unit (a decoder layer) and prefetches the next; the root unit (embeddings,
    // final norm, lm_head) is not resharded after forward.
    out.unsharded_gradient_bytes = r.lora ? 0 : out.largest_layer_params * w.weight;
    out.communication_bytes = gathered(out.root_params + 2 * out.largest_layer_params) + out.unsharded_gradient_bytes;
  } else if (r.use_fsdp && fsdp == FsdpMode::shard_grad_op) {
    out.unsharded_gradient_bytes = r.lora ? 0 : out.largest_layer_params * w.weight;
    out.communication_bytes = out.unsharded_gradient_bytes;
  } else if (!r.use_fsdp && workload.zero_stage >= 1) {
    out.communication_bytes = std::min(workload.reduce_bucket_elements, out.trainable_local_parameters) * grad_width;
    if (workload.zero_stage >= 3) {
      const std::int64_t live = out.largest_tensor_params +
                                std::min(workload.zero3_prefetch_bucket_elements,
                                         std::max<std::int64_t>(0, out.local_parameters - out.largest_tensor_params));
      out.communication_bytes += gathered(live);
    } else {
      out.allgather_bucket_bytes =
          std::min(workload.allgather_bucket_elements, out.trainable_local_parameters) * w.weight;
    }
  }
  return out;
}

std::vector<MemoryTerm> stage_state_terms(const StageStates& s, const TrainingWorkload& workload) {
  const Rules r = rules_of(workload);
  const Widths& w = r.width;
  std::string weight_formula, grad_formula, master_formula, state_formula, fp8_formula, adapter_formula;
  for (int g = 0; g < 2; ++g) {
    const GroupStates& group = g == 1 ? s.expert : s.dense;
    if (group.params == 0) continue;
    const std::string label = g == 1 ? "routed experts: " : "";
    const std::string prefix = label + num(group.params) + " params x ";
    if (r.lora) {
      join(adapter_formula, prefix + num(w.weight) + " B " + w.weight_dtype + note(group.weights));
    } else if (r.use_fsdp) {
      join(weight_formula, prefix + num(r.fsdp_param_bytes) + " B (" +
                               (r.fsdp_param_bytes == 4 ? "fp32" : w.weight_dtype) + " flat parameters)" +
                               note(group.weights));
      if (group.gathered_copy_bytes > 0)
        join(weight_formula, num(group.params) + " x " + num(w.weight) + " B " + w.weight_dtype +
                                 " copy kept from forward to backward = " + num(group.gathered_copy_bytes) + " B");
    } else {
      join(weight_formula, label + num(group.params - group.whole_params) + " params x " + num(w.weight) + " B " +
                               w.weight_dtype + note(group.weights));
      if (group.whole_params > 0)
        join(weight_formula, num(group.whole_params) + " params in tensors under the persistence threshold, whole: " +
                                 num(group.whole_params * w.weight) + " B");
    }
    if (group.fp8_copy_params > 0)
      join(fp8_formula, num(group.fp8_copy_params) + " GEMM weight params x 2 B (FP8 row-wise + transposed copy) = " +
                            num(2 * group.fp8_copy_params) + " B");
    join(grad_formula, prefix + num(r.gradient_width) + " B" + note(group.gradients));
    if (w.master > 0 && !r.use_fsdp) join(master_formula, prefix + "4 B fp32" + note(group.master));
    join(state_formula,
         label + num(group.states.bytes) + " B of " + optimizer_info(workload.optimizer).id + " states" +
             (r.shard_optimizer || r.states_on_cpu || workload.paged_optimizer ? note(group.states) : std::string()) +
             (workload.paged_optimizer ? " (paged: CUDA managed memory outside PyTorch's allocator and its statistics)"
                                       : std::string()));
  }

  std::vector<MemoryTerm> terms;
  if (r.lora) {
    terms.push_back({"frozen base weights", s.base.gpu_bytes(),
                     num(s.base_params) + " params in " + weight_format_info(base_format(workload)).id + " (" +
                         num(s.base.bytes) + " B)" + note(s.base)});
    if (workload.lora.qlora) {
      const TrainingFrameworkProfile& framework = training_framework(workload);
      const std::int64_t per_param = framework.qlora_dequantized_bytes_per_param;
      terms.push_back(
          {"dequantized weight workspace", s.dequantized_params * per_param,
           "largest quantized matrix " + num(s.dequantized_params) + " params x " + num(per_param) +
               (per_param == 2 ? " B bf16, alive during its matmul"
                               : " B (float16 dequantized copy + its bf16 cast), alive during its matmul: " +
                                     std::string(framework.qlora_rule))});
    }
    terms.push_back({"LoRA adapters (rank " + num(workload.lora.rank) + ")", s.adapter_bytes, adapter_formula});
  } else {
    terms.push_back({"weights", s.weight_bytes - s.fp8_copy_bytes, weight_formula});
    if (s.fp8_copy_bytes > 0) terms.push_back({"fp8 weight copies", s.fp8_copy_bytes, fp8_formula});
  }
  if (workload.optimizer_in_backward)
    grad_formula = "optimizer step in backward: only the largest gradient is alive, " +
                   num(s.largest_trainable_params) + " params x " + num(r.gradient_width) + " B" +
                   (r.shard_gradients ? " / sharding ranks" : "") + " = " + num(s.gradient_bytes) + " B";
  terms.push_back({r.lora ? "adapter gradients" : "gradients", s.gradient_bytes, grad_formula});
  if (!master_formula.empty()) terms.push_back({"master weights", s.master_bytes, master_formula});
  terms.push_back({r.lora ? "adapter optimizer states" : "optimizer states", s.optimizer_bytes, state_formula});
  return terms;
}

MemoryTerm communication_term(const StageStates& s, const TrainingWorkload& workload) {
  const Rules r = rules_of(workload);
  const FsdpMode fsdp = workload.fsdp;
  std::string formula;
  if (fsdp_unsharded_for_step(workload)) {
    formula = "unsharded gradients of the whole stage accumulated in fp32 across micro-batches: " +
              num(s.dense.params + s.expert.params) + " params x 4 B (torchtitan under pp)";
  } else if (r.use_fsdp && (fsdp == FsdpMode::full_shard || fsdp == FsdpMode::hybrid_shard)) {
    formula = "gathered parameters: root unit " + num(s.root_params) + " + 2 layers x " + num(s.largest_layer_params) +
              " params (current and prefetched) x " + (r.lora ? "base bytes" : num(r.width.weight) + " B") +
              "; unsharded gradients of one layer " + num(s.unsharded_gradient_bytes) + " B before reduce-scatter";
  } else if (r.use_fsdp && fsdp == FsdpMode::shard_grad_op) {
    formula = "unsharded gradients of one layer: " + num(s.largest_layer_params) + " x " + num(r.width.weight) +
              " B before reduce-scatter";
  } else if (!r.use_fsdp && workload.zero_stage >= 1) {
    formula = "reduce bucket min(" + num(workload.reduce_bucket_elements) + ", " + num(s.trainable_local_parameters) +
              ") x " + num(r.width.gradient) + " B";
    if (workload.zero_stage >= 3)
      formula += " + gathered parameters: largest tensor " + num(s.largest_tensor_params) + " + prefetch min(" +
                 num(workload.zero3_prefetch_bucket_elements) + ", rest) params";
    else
      formula += "; the allgather bucket (" + num(s.allgather_bucket_bytes) +
                 " B) runs after the optimizer step, when activations are freed: not in the peak";
  } else {
    formula = "none: gradients are all-reduced in place (DDP bucket views / Megatron's contiguous buffer)";
  }
  return {"communication buffers", s.communication_bytes, formula};
}

}  // namespace detail
}  // namespace fitcheck
