// SPDX-License-Identifier: MIT
// Model states in training: weights, gradients, master weights and optimizer states by precision
// recipe and optimizer, sharded by ZeRO or FSDP, offloaded to the CPU, and LoRA adapters.
#include <algorithm>
#include <map>

#include "fitcheck/quantization.hpp"
#include "fitcheck/training_memory.hpp"

namespace fitcheck {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

bool is_routed_expert(TensorRole role) {
  return role == TensorRole::expert_gate || role == TensorRole::expert_up || role == TensorRole::expert_down;
}

std::string num(std::int64_t value) { return std::to_string(value); }

bool is_fp8_gemm_matrix(const WeightTensor& tensor) {
  // TE replaces the Linear layers of the blocks; embeddings, lm_head and the router stay bf16.
  return tensor.layer >= 0 && tensor.is_matrix() && tensor.role != TensorRole::router &&
         tensor.role != TensorRole::relative_position_bias;
}

// One group of tensors sharing a sharding degree (dense or routed experts).
struct Group {
  std::int64_t params = 0;            // parameters on this GPU before ZeRO/FSDP
  std::int64_t persistent_params = 0;  // ZeRO-3: tensors below the persistence threshold
  std::int64_t fp8_matrix_params = 0;
  std::int64_t state_bytes = 0;       // optimizer states before sharding
};

struct Widths {
  std::int64_t weight = 2, gradient = 2, master = 4, state = 4;
  const char* weight_dtype = "bf16";
};

Widths widths_of(const TrainingMemoryWorkload& w) {
  const auto& recipe = precision_recipe_info(w.precision);
  Widths out;
  out.weight = recipe.weight_bytes_per_parameter;
  out.weight_dtype = w.precision == PrecisionRecipe::fp32 ? "fp32" : w.precision == PrecisionRecipe::fp16_mixed ? "fp16" : "bf16";
  out.gradient = w.fp32_gradients ? 4 : recipe.gradient_bytes_per_parameter;
  const bool mixed = w.precision != PrecisionRecipe::fp32;
  out.master = mixed && w.fp32_master_weights ? 4 : 0;
  // torch.optim allocates states like the parameters it steps (zeros_like): fp32 masters or the weights.
  out.state = out.master > 0 ? 4 : out.weight;
  return out;
}

struct Sharded {
  std::int64_t gpu = 0, cpu = 0;
  std::string note;
};

Sharded place(std::int64_t bytes, std::int64_t degree, bool sharded, bool offloaded) {
  Sharded s;
  const std::int64_t on_rank = sharded ? ceil_div(bytes, degree) : bytes;
  (offloaded ? s.cpu : s.gpu) = on_rank;
  if (sharded && degree > 1) s.note = " / " + num(degree) + " ranks";
  s.note += " = " + num(on_rank) + " B" + (offloaded ? " in CPU memory" : "");
  return s;
}

}  // namespace

namespace detail {

StageStates stage_states(const std::vector<WeightTensor>& local, const TrainingMemoryWorkload& workload,
                         std::int64_t dense_degree, std::int64_t expert_degree) {
  StageStates out;
  const bool lora = workload.lora.rank > 0;
  const Widths width = widths_of(workload);
  const int zero = workload.zero_stage;
  const FsdpMode fsdp = workload.fsdp;
  const bool use_fsdp = fsdp != FsdpMode::off;

  // Trainable tensors: the whole model, or (LoRA) A and B of each adapted matrix in fp32.
  std::vector<WeightTensor> trainable, base;
  if (lora) {
    const auto& roles = workload.lora.target_roles;
    for (const auto& t : local) {
      base.push_back(t);
      if (!t.is_matrix() || std::find(roles.begin(), roles.end(), t.role) == roles.end()) continue;
      trainable.push_back({t.role, t.group, t.layer, workload.lora.rank, t.columns, t.copies});
      trainable.push_back({t.role, t.group, t.layer, t.rows, workload.lora.rank, t.copies});
    }
  } else {
    trainable = local;
  }
  Widths w = width;
  if (lora) w = {4, 4, 0, 4, "fp32"};  // adapters: fp32 weights and gradients, no separate master

  Group dense, expert;
  std::map<std::int32_t, std::int64_t> layer_params;  // for FSDP/ZeRO-3 units
  std::int64_t largest_tensor = 0;
  for (const auto& t : trainable) {
    Group& g = is_routed_expert(t.role) ? expert : dense;
    const std::int64_t n = t.parameters();
    g.params += n;
    if (t.rows * t.columns < workload.zero3_param_persistence_threshold) g.persistent_params += n;
    if (!lora && workload.precision == PrecisionRecipe::fp8 && is_fp8_gemm_matrix(t)) g.fp8_matrix_params += n;
    g.state_bytes += optimizer_state_bytes(t, workload, w.state);
    out.trainable_local_parameters += n;
  }
  for (const auto& t : local) {
    out.local_parameters += t.parameters();
    layer_params[t.layer] += t.parameters();
    // ZeRO-3 fetches module by module; each routed expert is its own Linear in transformers.
    if (t.rows * t.columns >= workload.zero3_param_persistence_threshold) largest_tensor = std::max(largest_tensor, t.rows * t.columns);
  }

  // Sharding rules. DeepSpeed ZeRO (Rajbhandari et al. 2020 §5): stage 1 shards optimizer states
  // (master weights included), 2 adds gradients, 3 adds parameters. FSDP (Zhao et al. 2023 §3):
  // every strategy but NO_SHARD shards parameters, gradients and optimizer states at rest.
  const bool fsdp_shards = use_fsdp && fsdp != FsdpMode::no_shard;
  const bool shard_optimizer = use_fsdp ? fsdp_shards : zero >= 1;
  const bool shard_gradients = use_fsdp ? fsdp_shards : zero >= 2;
  const bool shard_weights = use_fsdp ? fsdp_shards : zero >= 3;
  const bool states_on_cpu = workload.offload_optimizer || (use_fsdp && workload.offload_params);
  const bool grads_on_cpu = use_fsdp ? workload.offload_params : (workload.offload_optimizer && zero >= 2);
  const bool weights_on_cpu = workload.offload_params;
  // FSDP mixed precision keeps the sharded parameters in fp32 (they are the masters) and gathers
  // 16-bit copies for compute; gradients come back in the parameter dtype.
  const std::int64_t fsdp_param_bytes = w.master > 0 ? 4 : w.weight;

  std::string weight_formula, grad_formula, master_formula, state_formula, fp8_formula, adapter_formula;
  std::int64_t fp8_bytes = 0, adapter_gpu_bytes = 0;
  const auto add_group = [&](const Group& g, std::int64_t degree, const char* label) {
    if (g.params == 0) return;
    const std::string prefix = std::string(label) + num(g.params) + " params x ";
    const auto join = [](std::string& text, const std::string& part) { text += (text.empty() ? "" : " + ") + part; };
    if (lora) {
      // Adapters are trainable parameters: sharded and offloaded like weights, per group.
      const Sharded adapters = place(g.params * 4, degree, shard_weights, weights_on_cpu && shard_weights);
      adapter_gpu_bytes += adapters.gpu;
      out.cpu_bytes += adapters.cpu;
      join(adapter_formula, prefix + "4 B fp32" + adapters.note);
    } else {
      Sharded weights;
      if (use_fsdp) {
        weights = place(g.params * fsdp_param_bytes, degree, fsdp_shards, weights_on_cpu);
        join(weight_formula, prefix + num(fsdp_param_bytes) + " B (" + (fsdp_param_bytes == 4 ? "fp32" : w.weight_dtype) +
                                 " flat parameters)" + weights.note);
        const bool gathered_whole = fsdp == FsdpMode::shard_grad_op || (fsdp == FsdpMode::no_shard && w.weight != fsdp_param_bytes);
        if (gathered_whole) {
          weights.gpu += g.params * w.weight;
          join(weight_formula, num(g.params) + " x " + num(w.weight) + " B " + w.weight_dtype +
                                   " copy kept from forward to backward = " + num(g.params * w.weight) + " B");
        }
      } else {
        // ZeRO-3 keeps tensors under stage3_param_persistence_threshold whole on every rank.
        const std::int64_t whole = shard_weights ? g.persistent_params : 0;
        weights = place((g.params - whole) * w.weight, degree, shard_weights, weights_on_cpu && shard_weights);
        weights.gpu += whole * w.weight;
        join(weight_formula, std::string(label) + num(g.params - whole) + " params x " + num(w.weight) + " B " +
                                 w.weight_dtype + weights.note);
        if (whole > 0)
          join(weight_formula, num(whole) + " params in tensors under the persistence threshold, whole: " +
                                   num(whole * w.weight) + " B");
      }
      out.weight_bytes += weights.gpu;
      out.cpu_bytes += weights.cpu;
      if (g.fp8_matrix_params > 0 && !shard_weights) {
        fp8_bytes += 2 * g.fp8_matrix_params;
        join(fp8_formula, num(g.fp8_matrix_params) + " GEMM weight params x 2 B (FP8 row-wise + transposed copy) = " +
                              num(2 * g.fp8_matrix_params) + " B");
      }
    }
    const std::int64_t grad_width = use_fsdp ? (lora ? 4 : fsdp_param_bytes) : w.gradient;
    const Sharded grads = place(g.params * grad_width, degree, shard_gradients, grads_on_cpu);
    out.gradient_bytes += grads.gpu;
    out.cpu_bytes += grads.cpu;
    join(grad_formula, prefix + num(grad_width) + " B" + grads.note);
    if (w.master > 0 && !use_fsdp) {
      const Sharded master = place(g.params * w.master, degree, shard_optimizer, states_on_cpu);
      out.master_bytes += master.gpu;
      out.cpu_bytes += master.cpu;
      join(master_formula, prefix + "4 B fp32" + master.note);
    }
    const Sharded states = place(g.state_bytes, degree, shard_optimizer, states_on_cpu);
    out.optimizer_bytes += states.gpu;
    out.cpu_bytes += states.cpu;
    join(state_formula, std::string(label) + num(g.state_bytes) + " B of " + optimizer_info(workload.optimizer).id +
                            " states" + (shard_optimizer || states_on_cpu ? states.note : std::string()));
  };
  add_group(dense, dense_degree, "");
  add_group(expert, expert_degree, "routed experts: ");

  // LoRA / QLoRA: the frozen base in its storage format, sharded only where weights are.
  std::int64_t base_bytes = 0;
  std::int64_t base_params = 0;
  if (lora) {
    WeightFormat format = WeightFormat::bf16;
    if (workload.lora.qlora) format = WeightFormat::bnb_nf4;
    else if (workload.precision == PrecisionRecipe::fp32) format = WeightFormat::fp32;
    else if (workload.precision == PrecisionRecipe::fp16_mixed) format = WeightFormat::fp16;
    WeightFormatOptions options;
    options.double_quant = true;
    const WeightBytes bytes = weight_bytes(base, format, options);
    base_bytes = bytes.total_bytes;
    base_params = out.local_parameters;
    const bool shard_base = use_fsdp ? (fsdp == FsdpMode::full_shard || fsdp == FsdpMode::hybrid_shard) : zero >= 3;
    const Sharded placed = place(base_bytes, dense_degree, shard_base, weights_on_cpu && shard_base);
    out.weight_bytes += placed.gpu;
    out.cpu_bytes += placed.cpu;
    out.terms.push_back({"frozen base weights", placed.gpu,
                         num(base_params) + " params in " + weight_format_info(format).id + " (" + num(base_bytes) + " B)" +
                             placed.note});
    out.weight_bytes += adapter_gpu_bytes;
    if (workload.lora.qlora) {
      // bitsandbytes' 4-bit matmul dequantizes its weight to bf16 for the duration of the GEMM.
      std::int64_t largest = 0;
      for (const auto& t : base)
        if (t.is_matrix() && t.role != TensorRole::token_embedding && t.role != TensorRole::lm_head) largest = std::max(largest, t.rows * t.columns);
      out.weight_bytes += largest * 2;
      out.terms.push_back({"dequantized weight workspace", largest * 2,
                           "largest quantized matrix " + num(largest) + " params x 2 B bf16, alive during its matmul"});
    }
    out.terms.push_back({"LoRA adapters (rank " + num(workload.lora.rank) + ")", adapter_gpu_bytes, adapter_formula});
  } else {
    out.terms.push_back({"weights", out.weight_bytes, weight_formula});
    if (fp8_bytes > 0) out.terms.push_back({"fp8 weight copies", fp8_bytes, fp8_formula});
    out.weight_bytes += fp8_bytes;
  }
  out.terms.push_back({lora ? "adapter gradients" : "gradients", out.gradient_bytes, grad_formula});
  if (!master_formula.empty()) out.terms.push_back({"master weights", out.master_bytes, master_formula});
  out.terms.push_back({lora ? "adapter optimizer states" : "optimizer states", out.optimizer_bytes, state_formula});

  // Communication buffers.
  std::int64_t largest_layer = 0, root = 0;
  for (const auto& [layer, params] : layer_params) {
    if (layer < 0) root += params;
    else largest_layer = std::max(largest_layer, params);
  }
  const double base_bytes_per_param =
      lora && base_params > 0 ? static_cast<double>(base_bytes) / static_cast<double>(base_params) : static_cast<double>(w.weight);
  const auto gathered = [&](std::int64_t params) {
    return static_cast<std::int64_t>(static_cast<double>(params) * base_bytes_per_param + 0.5);
  };
  const std::int64_t trainable_params = out.trainable_local_parameters;
  const std::int64_t grad_width = lora ? 4 : w.gradient;
  std::string comm_formula;
  std::int64_t comm = 0;
  if (use_fsdp && (fsdp == FsdpMode::full_shard || fsdp == FsdpMode::hybrid_shard)) {
    // FSDP gathers one unit (a decoder layer) and prefetches the next; the root unit (embeddings,
    // final norm, lm_head) is not resharded after forward.
    const std::int64_t unit_grads = lora ? 0 : largest_layer * w.weight;
    comm = gathered(root + 2 * largest_layer) + unit_grads;
    comm_formula = "gathered parameters: root unit " + num(root) + " + 2 layers x " + num(largest_layer) +
                   " params (current and prefetched) x " + (lora ? "base bytes" : num(w.weight) + " B") +
                   "; unsharded gradients of one layer " + num(unit_grads) + " B before reduce-scatter";
  } else if (use_fsdp && fsdp == FsdpMode::shard_grad_op) {
    comm = lora ? 0 : largest_layer * w.weight;
    comm_formula = "unsharded gradients of one layer: " + num(largest_layer) + " x " + num(w.weight) + " B before reduce-scatter";
  } else if (!use_fsdp && zero >= 1) {
    const std::int64_t reduce = std::min(workload.reduce_bucket_elements, trainable_params) * grad_width;
    comm = reduce;
    comm_formula = "reduce bucket min(" + num(workload.reduce_bucket_elements) + ", " + num(trainable_params) + ") x " +
                   num(grad_width) + " B";
    if (zero >= 3) {
      const std::int64_t live = largest_tensor + std::min(workload.zero3_prefetch_bucket_elements,
                                                          std::max<std::int64_t>(0, out.local_parameters - largest_tensor));
      comm += gathered(live);
      comm_formula += " + gathered parameters: largest tensor " + num(largest_tensor) + " + prefetch min(" +
                      num(workload.zero3_prefetch_bucket_elements) + ", rest) params";
    } else {
      const std::int64_t allgather = std::min(workload.allgather_bucket_elements, trainable_params) * w.weight;
      comm_formula += "; the allgather bucket (" + num(allgather) +
                      " B) runs after the optimizer step, when activations are freed: not in the peak";
    }
  } else {
    comm_formula = "none: gradients are all-reduced in place (DDP bucket views / Megatron's contiguous buffer)";
  }
  out.communication_bytes = comm;
  out.communication = {"communication buffers", comm, comm_formula};
  return out;
}

}  // namespace detail
}  // namespace fitcheck