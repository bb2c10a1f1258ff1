// SPDX-License-Identifier: MIT
// Precision recipes, optimizers and their state bytes per tensor, and the names the CLI and the
// page use for recipes, optimizers, FSDP modes, recompute modes and LoRA target modules.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/training_memory.hpp"
#include "support/checked_math.hpp"

namespace fitcheck {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

constexpr PrecisionRecipeInfo kRecipes[] = {
    {PrecisionRecipe::fp32, "fp32", 4, 4, 4, "IEEE 754 binary32 throughout"},
    {PrecisionRecipe::bf16_mixed, "bf16-mixed", 2, 2, 2,
     "Micikevicius et al. 2018, Mixed Precision Training §3.1 (16-bit weights/gradients, fp32 master copy); "
     "Rajbhandari et al. 2020, ZeRO §3.1 (2 + 2 + 12 bytes per parameter with Adam)"},
    {PrecisionRecipe::fp16_mixed, "fp16-mixed", 2, 2, 2,
     "Micikevicius et al. 2018 §3.1-3.2 (fp32 master copy, loss scaling); ZeRO §3.1"},
    {PrecisionRecipe::fp8, "fp8", 2, 2, 2,
     "NVIDIA Transformer Engine: bf16 parameters with FP8 copies for GEMMs; on Hopper the backward pass needs a "
     "physically transposed FP8 copy (TE docs, low-precision training, 'Handling transposes')"},
};

constexpr OptimizerInfo kOptimizers[] = {
    {OptimizerKind::adamw, "adamw", "2 moments x 4 B = 8 B (+ 4 B fp32 master: ZeRO's K = 12)",
     "Loshchilov & Hutter 2019 (AdamW); Rajbhandari et al. 2020, ZeRO §3.1: K = 12 for mixed-precision Adam"},
    {OptimizerKind::adam_8bit, "adam8bit",
     "2 x 1 B + 2 x 4 B fp32 absmax per 2048-element block = 2.0039 B; tensors under 4096 elements keep 8 B",
     "Dettmers et al. 2021, 8-bit Optimizers via Block-wise Quantization §2; bitsandbytes@06029dd6:"
     "bitsandbytes/optim/optimizer.py (blocks of 2048, min_8bit_size 4096)"},
    {OptimizerKind::adafactor, "adafactor",
     "matrices: (rows + columns) x 4 B; vectors: 4 B per element; no first moment unless beta1 is set",
     "Shazeer & Stern 2018, Adafactor §3 (factored second moment) and §4 (no momentum); states in fp32 as "
     "transformers' Adafactor keeps them"},
    {OptimizerKind::sgd, "sgd", "0 B", "plain SGD keeps no state"},
    {OptimizerKind::sgd_momentum, "sgd-momentum", "1 momentum buffer = 4 B", "torch.optim.SGD momentum_buffer"},
    {OptimizerKind::lion, "lion", "1 moment = 4 B",
     "Chen et al. 2023, Symbolic Discovery of Optimization Algorithms "
     "§2 (Lion tracks only the momentum)"},
    {OptimizerKind::muon, "muon",
     "hidden matrices: 1 momentum buffer = 4 B; embeddings, lm_head, norms, biases: AdamW 8 B",
     "Jordan et al. 2024, Muon (kellerjordan.github.io/posts/muon); KellerJordan/Muon@50c4225d:README.md "
     "(MuonWithAuxAdam: hidden weights use Muon, embeddings/head/gains/biases AdamW)"},
};

std::string normalized(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const PrecisionRecipeInfo& precision_recipe_info(PrecisionRecipe recipe) {
  for (const auto& info : kRecipes)
    if (info.recipe == recipe) return info;
  throw std::invalid_argument("unknown precision recipe");
}

std::optional<PrecisionRecipe> find_precision_recipe(std::string_view id) {
  const std::string key = normalized(id);
  for (const auto& info : kRecipes)
    if (key == info.id) return info.recipe;
  if (key == "bf16" || key == "bfloat16") return PrecisionRecipe::bf16_mixed;
  if (key == "fp16" || key == "float16") return PrecisionRecipe::fp16_mixed;
  if (key == "float32") return PrecisionRecipe::fp32;
  return std::nullopt;
}

const OptimizerInfo& optimizer_info(OptimizerKind kind) {
  for (const auto& info : kOptimizers)
    if (info.kind == kind) return info;
  throw std::invalid_argument("unknown optimizer");
}

std::optional<OptimizerKind> find_optimizer(std::string_view id) {
  const std::string key = normalized(id);
  for (const auto& info : kOptimizers)
    if (key == info.id) return info.kind;
  if (key == "adam") return OptimizerKind::adamw;
  if (key == "adam-8bit" || key == "adamw8bit" || key == "adamw-8bit" || key == "paged-adamw-8bit")
    return OptimizerKind::adam_8bit;
  if (key == "momentum") return OptimizerKind::sgd_momentum;
  return std::nullopt;
}

const char* fsdp_mode_name(FsdpMode mode) {
  switch (mode) {
    case FsdpMode::off:
      return "off";
    case FsdpMode::no_shard:
      return "no_shard";
    case FsdpMode::shard_grad_op:
      return "shard_grad_op";
    case FsdpMode::full_shard:
      return "full_shard";
    case FsdpMode::hybrid_shard:
      return "hybrid_shard";
  }
  return "off";
}

std::optional<FsdpMode> find_fsdp_mode(std::string_view id) {
  const std::string key = normalized(id);
  for (auto mode :
       {FsdpMode::off, FsdpMode::no_shard, FsdpMode::shard_grad_op, FsdpMode::full_shard, FsdpMode::hybrid_shard})
    if (key == normalized(fsdp_mode_name(mode))) return mode;
  return std::nullopt;
}

const char* recompute_name(Recompute recompute) {
  switch (recompute) {
    case Recompute::none:
      return "none";
    case Recompute::selective:
      return "selective";
    case Recompute::full:
      return "full";
    case Recompute::selective_op:
      return "selective-op";
    case Recompute::selective_layer:
      return "selective-layer";
  }
  return "none";
}

std::optional<Recompute> find_recompute(std::string_view id) {
  const std::string key = normalized(id);
  for (auto r :
       {Recompute::none, Recompute::selective, Recompute::full, Recompute::selective_op, Recompute::selective_layer})
    if (key == recompute_name(r)) return r;
  // Hugging Face's gradient_checkpointing_enable() checkpoints whole decoder layers
  // (GradientCheckpointingLayer.__call__, transformers 00029cfa modeling_layers.py).
  if (key == "gradient-checkpointing") return Recompute::full;
  // torchtune's enable_activation_checkpointing wraps every TransformerSelfAttentionLayer
  // (pytorch/torchtune 1814feb1 recipes/full_finetune_single_device.py _setup_model); LitGPT's
  // FSDP strategy checkpoints every Block (activation_checkpointing_policy={Block}, litgpt 00af8b0d
  // litgpt/finetune/full.py l.100-106).
  if (key == "activation-checkpointing") return Recompute::full;
  return std::nullopt;
}

namespace {

// Megatron's names, in transformer_config.py's order, with the flag each sets.
struct RecomputeModuleName {
  const char* name;
  bool RecomputeModules::*flag;
};
constexpr RecomputeModuleName kRecomputeModuleNames[] = {
    {"core_attn", &RecomputeModules::core_attn},
    {"moe_act", &RecomputeModules::moe_act},
    {"layernorm", &RecomputeModules::layernorm},
    {"mla_up_proj", &RecomputeModules::mla_up_proj},
    {"mlp", &RecomputeModules::mlp},
    {"moe", &RecomputeModules::moe},
    {"shared_experts", &RecomputeModules::shared_experts},
};

}  // namespace

std::vector<std::string> recompute_module_names(const RecomputeModules& modules) {
  std::vector<std::string> names;
  for (const RecomputeModuleName& m : kRecomputeModuleNames)
    if (modules.*m.flag) names.emplace_back(m.name);
  return names;
}

std::string recompute_module_list(const RecomputeModules& modules) {
  std::string list;
  for (const std::string& name : recompute_module_names(modules)) list += (list.empty() ? "" : ", ") + name;
  return list;
}

RecomputeModules parse_recompute_modules(std::string_view names) {
  RecomputeModules modules;
  modules.core_attn = false;  // a list given replaces the default
  bool any = false;
  std::size_t start = 0;
  while (start <= names.size()) {
    std::size_t end = names.find_first_of(", ", start);
    if (end == std::string_view::npos) end = names.size();
    const std::string_view name = names.substr(start, end - start);
    start = end + 1;
    if (name.empty()) continue;
    const auto* found = std::find_if(std::begin(kRecomputeModuleNames), std::end(kRecomputeModuleNames),
                                     [&](const RecomputeModuleName& m) { return name == m.name; });
    if (found == std::end(kRecomputeModuleNames)) {
      // Megatron's modules of architectures fitcheck does not train (Gated DeltaNet/Product, mHC).
      const bool other_architecture =
          name == "gdn_norm_out" || name == "gdp_in_proj" || name == "gdp_qkv" || name == "mhc";
      throw std::invalid_argument(
          "unknown recompute module '" + std::string(name) + "'" +
          (other_architecture ? std::string(" (a Megatron module of an architecture fitcheck does not train)") : "") +
          ": core_attn, moe_act, layernorm, mla_up_proj, mlp, moe, shared_experts");
    }
    modules.*found->flag = true;
    any = true;
  }
  if (!any) throw std::invalid_argument("no recompute module named (core_attn, moe_act, layernorm, ...)");
  return modules;
}

std::vector<TensorRole> lora_target_roles(std::string_view comma_separated) {
  using R = TensorRole;
  std::vector<TensorRole> roles;
  const auto add = [&](std::initializer_list<R> list) {
    for (R role : list)
      if (std::find(roles.begin(), roles.end(), role) == roles.end()) roles.push_back(role);
  };
  std::size_t start = 0;
  while (start <= comma_separated.size()) {
    const std::size_t comma = std::min(comma_separated.find(',', start), comma_separated.size());
    std::string name = normalized(comma_separated.substr(start, comma - start));
    name.erase(std::remove(name.begin(), name.end(), ' '), name.end());
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "-proj") == 0) name.resize(name.size() - 5);  // q_proj
    if (name == "q")
      add({R::attention_query});
    else if (name == "k")
      add({R::attention_key});
    else if (name == "v")
      add({R::attention_value});
    else if (name == "o")
      add({R::attention_output});
    else if (name == "gate")
      add({R::mlp_gate, R::expert_gate, R::shared_expert_gate});
    else if (name == "up")
      add({R::mlp_up, R::expert_up, R::shared_expert_up});
    else if (name == "down")
      add({R::mlp_down, R::expert_down, R::shared_expert_down});
    else if (name == "q-down" || name == "q-a")
      add({R::attention_query_down});
    else if (name == "kv-down" || name == "kv-a")
      add({R::attention_kv_down});
    else if (name == "kv-up" || name == "kv-b")
      add({R::attention_kv_up});
    else if (name == "all-linear" || name == "all")
      add({R::attention_query, R::attention_key, R::attention_value, R::attention_output, R::attention_query_down,
           R::attention_kv_down, R::attention_kv_up, R::mlp_gate, R::mlp_up, R::mlp_down, R::expert_gate, R::expert_up,
           R::expert_down, R::shared_expert_gate, R::shared_expert_up, R::shared_expert_down});
    else if (!name.empty())
      throw std::invalid_argument("unknown LoRA module '" + name +
                                  "' (q, k, v, o, gate, up, down, q_down, kv_down, kv_up, all-linear)");
    start = comma + 1;
  }
  if (roles.empty()) throw std::invalid_argument("no LoRA modules given");
  return roles;
}

namespace detail {

void refuse_training_overflow() { throw std::overflow_error("the workload needs more than 2^63 bytes"); }

std::int64_t optimizer_state_bytes(const WeightTensor& tensor, const TrainingWorkload& workload,
                                   std::int64_t state_bytes) {
  const std::int64_t per_copy = tensor.rows * tensor.columns;
  const std::int64_t n = tensor.parameters();
  switch (workload.optimizer) {
    case OptimizerKind::adamw:
      return 2 * n * state_bytes;
    case OptimizerKind::adam_8bit:
      // Two uint8 states plus an fp32 absmax per 2048-element block each; small tensors stay 32-bit.
      if (per_copy < 4096) return 2 * 4 * n;
      return tensor.copies * (2 * per_copy + 2 * 4 * ceil_div(per_copy, 2048));
    case OptimizerKind::adafactor: {
      const std::int64_t second = tensor.is_matrix() ? tensor.rows + tensor.columns : per_copy;
      const std::int64_t first = workload.adafactor_first_moment ? per_copy : 0;
      return tensor.copies * (second + first) * 4;
    }
    case OptimizerKind::sgd:
      return 0;
    case OptimizerKind::sgd_momentum:
    case OptimizerKind::lion:
      return n * state_bytes;
    case OptimizerKind::muon:
      return (tensor.layer >= 0 && tensor.is_matrix()) ? n * state_bytes : 2 * n * state_bytes;
  }
  return 0;
}

}  // namespace detail
}  // namespace fitcheck
