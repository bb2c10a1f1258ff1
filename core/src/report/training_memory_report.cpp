// SPDX-License-Identifier: MIT
// Training workload options (shared by the CLI flags and the page) and the JSON report.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "config/config_fields.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_time.hpp"
#include "support/json_writer.hpp"
#include "report/report_terms.hpp"

namespace fitcheck {
namespace {

using detail::JsonWriter;

const char* role_module_name(TensorRole role) {
  switch (role) {
    case TensorRole::attention_query: return "q";
    case TensorRole::attention_key: return "k";
    case TensorRole::attention_value: return "v";
    case TensorRole::attention_output: return "o";
    case TensorRole::attention_query_down: return "q_down";
    case TensorRole::attention_kv_down: return "kv_down";
    case TensorRole::attention_kv_up: return "kv_up";
    case TensorRole::mlp_gate: case TensorRole::expert_gate: case TensorRole::shared_expert_gate: return "gate";
    case TensorRole::mlp_up: case TensorRole::expert_up: case TensorRole::shared_expert_up: return "up";
    case TensorRole::mlp_down: case TensorRole::expert_down: case TensorRole::shared_expert_down: return "down";
    default: return tensor_role_name(role);
  }
}

// The memory report's members, into the open top-level object; both training_report_json overloads
// write them. extra_assumption (if any) ends the assumptions array.
void write_memory_members(JsonWriter& writer, const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                          const TrainingMemoryWorkload& workload, const Accelerator* gpu,
                          std::string_view extra_assumption) {
  const TrainingMemory m = training_memory(model, tensors, workload);
  const TrainingMemoryWorkload& w = workload;
  std::vector<std::string> modules;
  const auto roles = w.lora.rank > 0 && w.lora.target_roles.empty() ? lora_target_roles("all-linear") : w.lora.target_roles;
  for (TensorRole role : roles) {
    const std::string name = role_module_name(role);
    if (std::find(modules.begin(), modules.end(), name) == modules.end()) modules.push_back(name);
  }
  const std::optional<CapacityAnswer> batch =
      gpu ? std::optional(max_micro_batch_size(model, tensors, workload, *gpu)) : std::nullopt;
  writer.field("model_type", model.model_type);
  writer.begin_object("workload");
  writer.field("precision", precision_recipe_info(w.precision).id);
  writer.field("fp32_master_weights", w.fp32_master_weights);
  writer.field("fp32_gradients", w.fp32_gradients);
  writer.field("optimizer", optimizer_info(w.optimizer).id);
  writer.field("micro_batch", w.micro_batch_size);
  writer.field("seq_len", w.sequence_tokens);
  writer.field("recompute", recompute_name(w.recompute));
  writer.field("flash_attention", w.flash_attention);
  writer.field("dropout", w.dropout);
  writer.field("zero", w.zero_stage);
  writer.field("fsdp", fsdp_mode_name(w.fsdp));
  writer.field("fsdp_shard_group", w.fsdp_shard_group);
  writer.field("offload_optimizer", w.offload_optimizer);
  writer.field("offload_params", w.offload_params);
  writer.field("lora_rank", w.lora.rank);
  writer.field("lora_modules", modules);
  writer.field("qlora", w.lora.qlora);
  writer.field("lora_dropout", w.lora.dropout);
  writer.field("overhead_bytes", w.framework_overhead_bytes);
  writer.end_object();
  writer.begin_object("parallel");
  writer.field("gpus", w.gpus());
  writer.field("tp", w.layout.tensor_parallel);
  writer.field("pp", w.layout.pipeline_parallel);
  writer.field("dp", w.layout.data_parallel);
  writer.field("ep", w.layout.expert_parallel);
  writer.field("cp", w.context_parallel);
  writer.field("sequence_parallel", w.sequence_parallel);
  writer.field("virtual_stages", w.virtual_pipeline_stages);
  writer.field("sharding_degree", m.sharding_degree);
  writer.field("expert_sharding_degree", m.expert_sharding_degree);
  writer.field("busiest_stage", m.busiest_stage);
  writer.field("micro_batches_in_flight", m.micro_batches_in_flight);
  writer.end_object();
  writer.field("total_params", m.total_parameters);
  writer.field("trainable_params", m.trainable_parameters);
  writer.field("weight_bytes", m.weight_bytes);
  writer.field("gradient_bytes", m.gradient_bytes);
  writer.field("optimizer_bytes", m.optimizer_bytes);
  writer.field("master_weight_bytes", m.master_weight_bytes);
  writer.field("activation_bytes", m.activation_bytes);
  writer.field("communication_bytes", m.communication_bytes);
  writer.field("overhead_bytes", m.overhead_bytes);
  writer.field("total_bytes_per_gpu", m.total_bytes_per_gpu);
  writer.field("cpu_offload_bytes", m.cpu_offload_bytes);
  writer.field("model_state_bytes_per_parameter", m.model_state_bytes_per_parameter);
  writer.field("optimizer_bytes_per_parameter", optimizer_info(w.optimizer).bytes_per_parameter);
  // null without a GPU; the assumptions say why.
  if (batch) writer.field("max_micro_batch_size", batch->value);
  else writer.field("max_micro_batch_size", nullptr);
  detail::write_memory_terms(writer, "terms", m.terms);
  detail::write_memory_terms(writer, "layer_activation_terms", m.layer_activation_terms);
  std::vector<std::string> assumptions = model.assumptions;
  assumptions.insert(assumptions.end(), m.assumptions.begin(), m.assumptions.end());
  if (gpu) {
    writer.begin_object("gpu");
    writer.field("id", gpu->id);
    writer.field("name", gpu->name);
    writer.field("memory_bytes", gpu->memory_bytes);
    if (gpu->gpu_working_set_bytes > 0) writer.field("gpu_working_set_bytes", gpu->gpu_working_set_bytes);
    writer.end_object();
    const std::int64_t limit = gpu_memory_limit_bytes(*gpu);
    writer.field("fits", m.total_bytes_per_gpu <= limit);
    writer.field("headroom_bytes", limit - m.total_bytes_per_gpu);
    writer.begin_object("capacity");
    writer.begin_object("max_micro_batch_size");
    writer.field("value", batch->value);
    writer.field("limited_by", batch->limited_by);
    writer.field("formula", batch->formula);
    writer.end_object();
    writer.end_object();
  } else {
    assumptions.push_back("no GPU chosen: the largest micro-batch needs one (gpu)");
  }
  if (!extra_assumption.empty()) assumptions.emplace_back(extra_assumption);
  writer.field("assumptions", assumptions);
}

}  // namespace

TrainingRequest parse_training_options(const OptionList& options) {
  OptionReader reader(options);
  TrainingRequest request;
  TrainingMemoryWorkload& w = request.workload;
  constexpr std::int64_t kMaxRanks = 1'000'000;
  w.layout.tensor_parallel = reader.count("tp", 1, 1, 4096);
  w.layout.pipeline_parallel = reader.count("pp", 1, 1, 4096);
  w.layout.expert_parallel = reader.count("ep", 1, 1, 65536);
  w.context_parallel = reader.count("cp", 1, 1, 65536);
  const std::int64_t model_parallel = w.layout.tensor_parallel * w.layout.pipeline_parallel * w.context_parallel;
  const std::int64_t gpus = reader.count("gpus", 0, 0, kMaxRanks);
  const std::int64_t dp = reader.count("dp", 0, 0, kMaxRanks);
  if (gpus > 0) {
    if (gpus % model_parallel != 0)
      throw OptionError("gpus", "option 'gpus' (" + std::to_string(gpus) + ") must be a multiple of tp x pp x cp = " +
                                    std::to_string(model_parallel));
    w.layout.data_parallel = gpus / model_parallel;
    if (dp > 0 && dp != w.layout.data_parallel)
      throw OptionError("dp", "option 'dp' (" + std::to_string(dp) + ") disagrees with gpus / (tp x pp x cp) = " +
                                  std::to_string(w.layout.data_parallel));
  } else {
    w.layout.data_parallel = dp > 0 ? dp : 1;
  }
  w.sequence_parallel = reader.flag("sequence_parallel", false);
  w.virtual_pipeline_stages = reader.count("virtual_stages", 1, 1, 1024);
  w.micro_batches_per_step = reader.count("micro_batches", 0, 0, std::int64_t{1} << 24);
  w.zero_stage = static_cast<int>(reader.count("zero", 0, 0, 3));
  if (auto mode = reader.text("fsdp")) {
    const auto found = find_fsdp_mode(*mode);
    if (!found) throw OptionError("fsdp", "option 'fsdp': unknown FSDP mode '" + detail::printable(*mode) + "' (no_shard, shard_grad_op, full_shard, hybrid_shard)");
    w.fsdp = *found;
  }
  w.fsdp_shard_group = reader.count("fsdp_shard_group", 8, 1, kMaxRanks);
  w.offload_optimizer = reader.flag("offload_optimizer", false);
  w.offload_params = reader.flag("offload_params", false);
  w.reduce_bucket_elements = reader.count("reduce_bucket", w.reduce_bucket_elements, 0, std::int64_t{1} << 40);
  w.allgather_bucket_elements = reader.count("allgather_bucket", w.allgather_bucket_elements, 0, std::int64_t{1} << 40);
  if (auto precision = reader.text("precision")) {
    const auto found = find_precision_recipe(*precision);
    if (!found) throw OptionError("precision", "option 'precision': unknown precision '" + detail::printable(*precision) + "' (bf16-mixed, fp16-mixed, fp32, fp8)");
    w.precision = *found;
  }
  if (auto master = reader.text("master_weights")) {
    if (*master == "fp32") w.fp32_master_weights = true;
    else if (*master == "none" || *master == "bf16") w.fp32_master_weights = false;
    else throw OptionError("master_weights", "option 'master_weights' must be fp32 or none (bf16: the weights themselves)");
  }
  w.fp32_gradients = reader.flag("fp32_gradients", false);
  if (auto optimizer = reader.text("optimizer")) {
    const auto found = find_optimizer(*optimizer);
    if (!found)
      throw OptionError("optimizer", "option 'optimizer': unknown optimizer '" + detail::printable(*optimizer) + "' (adamw, adam8bit, adafactor, sgd, sgd-momentum, lion, muon)");
    w.optimizer = *found;
  }
  w.adafactor_first_moment = reader.flag("adafactor_first_moment", false);
  w.micro_batch_size = reader.count("micro_batch", 1, 1, std::int64_t{1} << 24);
  w.sequence_tokens = reader.count("seq_len", 4096, 1, std::int64_t{1} << 32);
  if (auto recompute = reader.text("recompute")) {
    const auto found = find_recompute(*recompute);
    if (!found) throw OptionError("recompute", "option 'recompute': unknown recompute mode '" + detail::printable(*recompute) + "' (none, selective, full)");
    w.recompute = *found;
  }
  w.flash_attention = !reader.flag("eager_attention", false);
  w.dropout = reader.flag("dropout", false);
  w.lora.rank = reader.count("lora_rank", 0, 0, 65536);
  if (auto modules = reader.text("lora_modules")) {
    try {
      w.lora.target_roles = lora_target_roles(*modules);
    } catch (const std::invalid_argument& error) {
      throw OptionError("lora_modules", "option 'lora_modules': " + detail::printable(error.what(), 200));
    }
    if (w.lora.rank == 0) throw OptionError("lora_modules", "option 'lora_modules' needs a LoRA rank (lora_rank)");
  }
  w.lora.qlora = reader.flag("qlora", false);
  w.lora.dropout = reader.flag("lora_dropout", false);
  w.framework_overhead_bytes =
      static_cast<std::int64_t>(reader.number("overhead_gib", 1.0, 0.0, 1024.0) * 1024.0 * 1024.0 * 1024.0);
  const auto gpu = reader.text("gpu");
  request.custom_gpu = read_custom_gpu_options(reader, gpu && is_custom_gpu_name(*gpu));
  if (gpu) request.gpu = resolve_gpu_option("gpu", *gpu, request.custom_gpu);
  request.global_batch_tokens = reader.count("global_batch_tokens", 0, 0, std::int64_t{1} << 40);
  request.train_tokens = reader.number("train_tokens", 1e12, 1.0, 1e16);
  request.flops_efficiency = reader.number("flops_efficiency", -1, 0.01, 1.0);
  request.overlap_data_parallel = reader.flag("overlap", true);
  request.price_per_gpu_hour_usd = reader.number("price_per_gpu_hour", -1, 0.0, 1e6);
  reader.finish();
  return request;
}

std::string training_report_json(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const TrainingMemoryWorkload& workload, const Accelerator* gpu) {
  JsonWriter writer;
  writer.begin_object();
  write_memory_members(writer, model, tensors, workload, gpu, {});
  writer.end_object();
  return writer.take();
}

std::string training_report_json(std::string_view config_json_text, const OptionList& options) {
  const TrainingRequest request = parse_training_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  return training_report_json(model, weight_tensors(model), request);
}

TrainingWorkload step_time_workload(const TrainingRequest& request) {
  const TrainingMemoryWorkload& m = request.workload;
  TrainingWorkload t;
  t.sequence_length = m.sequence_tokens;
  t.micro_batch_sequences = m.micro_batch_size;
  t.layout = m.layout;
  t.context_parallel = m.context_parallel;
  t.virtual_stages = m.virtual_pipeline_stages;
  t.recompute = m.recompute == Recompute::full ? RecomputeMode::full
                : m.recompute == Recompute::selective ? RecomputeMode::selective
                                                      : RecomputeMode::none;
  t.zero_stage = m.fsdp == FsdpMode::full_shard || m.fsdp == FsdpMode::hybrid_shard ? 3
                 : m.fsdp == FsdpMode::shard_grad_op                                 ? 2
                                                                                     : m.zero_stage;
  t.overlap_data_parallel = request.overlap_data_parallel;
  t.precision = m.precision == PrecisionRecipe::fp32         ? ComputeDtype::fp32
                : m.precision == PrecisionRecipe::fp16_mixed ? ComputeDtype::fp16
                : m.precision == PrecisionRecipe::fp8        ? ComputeDtype::fp8
                                                             : ComputeDtype::bf16;
  t.parameter_bytes_per_parameter = m.precision == PrecisionRecipe::fp32 ? 4 : 2;
  t.gradient_bytes_per_parameter = m.fp32_gradients || m.precision == PrecisionRecipe::fp32 ? 4 : 2;
  return t;
}

std::string training_report_json(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                  const TrainingRequest& request) {
  const TrainingMemoryWorkload& m = request.workload;
  TrainingWorkload t = step_time_workload(request);
  // A GPU without a rate for this precision (a T4 or V100 and bf16) still gets its memory figures;
  // the step time is left out with a note naming the option, never timed at another dtype's rate.
  const std::string missing_rate = request.gpu ? training_time_missing_rate(*request.gpu, t.precision) : std::string();
  JsonWriter writer;
  writer.begin_object();
  write_memory_members(writer, model, tensors, m, request.gpu, missing_rate);
  if (!request.gpu || !missing_rate.empty()) {
    writer.end_object();
    return writer.take();
  }
  const std::int64_t micro_batches = std::max<std::int64_t>(m.micro_batches_per_step, m.layout.pipeline_parallel);
  const std::int64_t minimum_step = m.layout.data_parallel * m.micro_batch_size * m.sequence_tokens * micro_batches;
  // Default: about 4M tokens per step (Llama-2/3 pretraining batches), at least one micro-batch per
  // data-parallel rank and stage.
  t.global_batch_tokens =
      request.global_batch_tokens > 0 ? request.global_batch_tokens : std::max<std::int64_t>(minimum_step, std::int64_t{4} << 20);
  TrainingAssumptions assumptions;
  assumptions.communication = default_latency_assumptions(*request.gpu);
  if (request.flops_efficiency > 0) assumptions.flops_efficiency = request.flops_efficiency;
  if (request.price_per_gpu_hour_usd >= 0) assumptions.communication.price_per_gpu_hour_usd = request.price_per_gpu_hour_usd;
  const TrainingExplanation explained = explain_training_time(prepare_latency_model(model, tensors, WeightFormat::bf16), t,
                                                             *request.gpu, request.train_tokens, assumptions);
  const TrainingTime& time = explained.time;
  writer.begin_object("time");
  writer.field("global_batch_tokens", t.global_batch_tokens);
  writer.field("micro_batches", time.micro_batches);
  writer.field("step_seconds", time.step_seconds);
  writer.field("tokens_per_second", time.tokens_per_second);
  writer.field("tokens_per_second_per_gpu", time.tokens_per_second_per_gpu);
  writer.field("mfu", time.mfu);
  writer.field("hfu", time.hfu);
  writer.field("achieved_flops_per_second_per_gpu", time.achieved_flops_per_second_per_gpu);
  writer.field("model_flops_per_step", time.model_flops_per_step);
  writer.field("hardware_flops_per_step", time.hardware_flops_per_step);
  writer.field("pipeline_bubble_fraction", time.pipeline_bubble_fraction);
  writer.field("data_parallel_exposed_seconds", time.data_parallel_exposed_seconds);
  writer.field("train_tokens", time.train_tokens);
  writer.field("train_seconds", time.train_seconds);
  writer.field("train_days", time.train_seconds / 86400.0);
  writer.field("train_gpu_hours", time.train_gpu_hours);
  writer.field("train_cost_usd", time.train_cost_usd);
  writer.field("flops_efficiency", assumptions.flops_efficiency);
  writer.field("lines", explained.lines);
  writer.field("assumptions", explained.assumptions);
  writer.end_object();
  writer.end_object();
  return writer.take();
}

}  // namespace fitcheck
