// SPDX-License-Identifier: MIT
// The training report: estimate_training()'s result as JSON, written and not computed here.
#include <algorithm>

#include "fitcheck/config.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_estimate.hpp"
#include "report/report_terms.hpp"
#include "support/json_writer.hpp"

namespace fitcheck {
namespace {

using detail::JsonWriter;

const char* role_module_name(TensorRole role) {
  switch (role) {
    case TensorRole::attention_query:
      return "q";
    case TensorRole::attention_key:
      return "k";
    case TensorRole::attention_value:
      return "v";
    case TensorRole::attention_output:
      return "o";
    case TensorRole::attention_query_down:
      return "q_down";
    case TensorRole::attention_kv_down:
      return "kv_down";
    case TensorRole::attention_kv_up:
      return "kv_up";
    case TensorRole::mlp_gate:
    case TensorRole::expert_gate:
    case TensorRole::shared_expert_gate:
      return "gate";
    case TensorRole::mlp_up:
    case TensorRole::expert_up:
    case TensorRole::shared_expert_up:
      return "up";
    case TensorRole::mlp_down:
    case TensorRole::expert_down:
    case TensorRole::shared_expert_down:
      return "down";
    default:
      return tensor_role_name(role);
  }
}

void write_workload(JsonWriter& writer, const TrainingWorkload& w) {
  std::vector<std::string> modules;
  for (TensorRole role : w.lora.target_roles) {
    const std::string name = role_module_name(role);
    if (std::find(modules.begin(), modules.end(), name) == modules.end()) modules.push_back(name);
  }
  writer.begin_object("workload");
  writer.field("precision", precision_recipe_info(w.precision).id);
  writer.field("fp32_master_weights", w.fp32_master_weights);
  writer.field("fp32_gradients", w.fp32_gradients);
  writer.field("optimizer", optimizer_info(w.optimizer).id);
  writer.field("micro_batch", w.micro_batch_size);
  writer.field("seq_len", w.sequence_tokens);
  writer.field("recompute", recompute_name(w.recompute));
  writer.field("recompute_method", w.recompute_method == RecomputeMethod::block ? "block" : "uniform");
  writer.field("recompute_num_layers", w.recompute_num_layers);
  writer.field("recompute_frequency", w.recompute_frequency);
  writer.begin_array("recompute_modules");
  if (w.recompute == Recompute::selective)
    for (const std::string& name : recompute_module_names(w.recompute_modules)) writer.element(name);
  writer.end_array();
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
  writer.field("dora", w.lora.dora);
  writer.field("optimizer_in_backward", w.optimizer_in_backward);
  writer.field("offload_activations", w.offload_activations);
  writer.field("partition_checkpoints", w.partition_checkpoints);
  writer.field("cpu_offloading_num_layers", w.cpu_offloaded_layers);
  writer.field("compile", w.compile);
  writer.field("eager_loss", w.eager_loss);
  writer.field("paged_optimizer", w.paged_optimizer);
  writer.field("overhead_bytes", w.framework_overhead_bytes);
  writer.end_object();
}

void write_parallel(JsonWriter& writer, const TrainingWorkload& w, const TrainingMemory& m) {
  writer.begin_object("parallel");
  writer.field("gpus", w.gpus());
  writer.field("tp", w.layout.tensor_parallel);
  writer.field("pp", w.layout.pipeline_parallel);
  writer.field("dp", w.layout.data_parallel);
  writer.field("ep", w.layout.expert_parallel);
  writer.field("cp", w.context_parallel);
  writer.field("sequence_parallel", w.sequence_parallel);
  writer.field("tp_comm_overlap", w.tp_comm_overlap);
  writer.field("ep_comm_overlap", w.ep_comm_overlap);
  writer.field("moe_dispatcher", moe_dispatcher_name(w.moe_dispatcher));
  writer.field("moe_routing", moe_routing_name(w.moe_routing));
  writer.field("virtual_stages", w.virtual_pipeline_stages);
  writer.field("account_for_embedding_in_pipeline_split", w.pipeline_split_embedding_slot);
  writer.field("account_for_loss_in_pipeline_split", w.pipeline_split_loss_slot);
  writer.field("pipeline_schedule", w.zero_bubble_schedule          ? "zero-bubble"
                                    : w.virtual_pipeline_stages > 1 ? "interleaved"
                                                                    : "1f1b");
  writer.field("sharding_degree", m.sharding_degree);
  writer.field("expert_sharding_degree", m.expert_sharding_degree);
  writer.field("busiest_stage", m.totals.busiest_stage);
  writer.field("micro_batches_in_flight", m.totals.micro_batches_in_flight);
  writer.end_object();
}

void write_time(JsonWriter& writer, const TrainingWorkload& w, const TrainingStepTime& step) {
  const TrainingTime& time = step.explained.time;
  writer.begin_object("time");
  writer.field("global_batch_tokens", w.global_batch_tokens);
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
  writer.field("microbatch_matmul_seconds", time.microbatch_matmul_seconds);
  writer.field("microbatch_attention_seconds", time.microbatch_attention_seconds);
  writer.field("microbatch_memory_seconds", time.microbatch_memory_seconds);
  writer.field("microbatch_memory_bytes", time.microbatch_memory_bytes);
  writer.field("microbatch_moe_token_bytes", time.microbatch_moe_token_bytes);
  writer.field("microbatch_dora_bytes", time.microbatch_dora_bytes);
  writer.field("expert_gemm_slowdown", time.expert_gemm_slowdown);
  writer.field("elementwise_kernels", elementwise_kernels_name(time.elementwise_kernels));
  writer.field("train_tokens", time.train_tokens);
  writer.field("train_seconds", time.train_seconds);
  writer.field("train_days", time.train_days);
  writer.field("train_gpu_hours", time.train_gpu_hours);
  writer.field("train_cost_usd", time.train_cost_usd);
  writer.field("flops_efficiency", step.flops_efficiency);
  writer.field("attention_efficiency", time.attention_efficiency);
  writer.field("attention_kernel", attention_kernel_name(training_attention_kernel(w)));
  writer.field("lines", step.explained.lines);
  writer.field("assumptions", step.explained.assumptions);
  writer.end_object();
}

}  // namespace

std::string training_report_json(const TrainingEstimate& e) {
  const TrainingWorkload& w = e.workload;
  const TrainingMemory& m = e.memory;
  const TrainingMemoryTotals& t = m.totals;
  JsonWriter writer;
  writer.begin_object();
  writer.field("model_type", e.model_type);
  writer.field("framework", training_framework(w).id);
  write_workload(writer, w);
  write_parallel(writer, w, m);
  writer.field("total_params", m.total_parameters);
  writer.field("trainable_params", m.trainable_parameters);
  writer.field("weight_bytes", t.weight_bytes);
  writer.field("gradient_bytes", t.gradient_bytes);
  writer.field("optimizer_bytes", t.optimizer_bytes);
  writer.field("master_weight_bytes", t.master_weight_bytes);
  writer.field("activation_bytes", t.activation_bytes);
  writer.field("communication_bytes", t.communication_bytes);
  writer.field("overhead_bytes", t.overhead_bytes);
  writer.field("backward_overlap_bytes", t.backward_overlap_bytes);
  writer.field("total_bytes_per_gpu", t.total_bytes_per_gpu);
  // Which torch.cuda statistic the total is, and both.
  writer.field("memory_statistic", memory_statistic_name(t.memory_statistic));
  writer.field("allocated_bytes_per_gpu", t.allocated_bytes_per_gpu);
  writer.field("reserved_bytes_per_gpu", t.reserved_bytes_per_gpu);
  writer.field("cpu_offload_bytes", t.cpu_offload_bytes);
  writer.field("model_state_bytes_per_parameter", m.model_state_bytes_per_parameter);
  writer.field("optimizer_bytes_per_parameter", optimizer_info(w.optimizer).bytes_per_parameter);
  // null without a GPU; the assumptions say why.
  if (e.fit) {
    writer.field("max_micro_batch_size", e.fit->max_micro_batch.value);
    writer.field("max_sequence_tokens", e.fit->max_sequence_tokens.value);
  } else {
    writer.field("max_micro_batch_size", nullptr);
    writer.field("max_sequence_tokens", nullptr);
  }
  detail::write_memory_terms(writer, "terms", m.terms);
  detail::write_memory_terms(writer, "layer_activation_terms", m.layer_activation_terms);
  if (e.gpu && e.fit) {
    writer.begin_object("gpu");
    writer.field("id", e.gpu->id);
    writer.field("name", e.gpu->name);
    writer.field("memory_bytes", e.gpu->memory_bytes);
    if (e.gpu->gpu_working_set_bytes > 0) writer.field("gpu_working_set_bytes", e.gpu->gpu_working_set_bytes);
    writer.end_object();
    writer.field("fits", e.fit->fits);
    writer.field("headroom_bytes", e.fit->headroom_bytes);
    writer.begin_object("capacity");
    writer.begin_object("max_micro_batch_size");
    writer.field("value", e.fit->max_micro_batch.value);
    writer.field("limited_by", e.fit->max_micro_batch.limited_by);
    writer.field("formula", e.fit->max_micro_batch.formula);
    writer.end_object();
    writer.begin_object("max_sequence_tokens");
    writer.field("value", e.fit->max_sequence_tokens.value);
    writer.field("limited_by", e.fit->max_sequence_tokens.limited_by);
    writer.field("formula", e.fit->max_sequence_tokens.formula);
    writer.end_object();
    writer.end_object();
  }
  writer.field("assumptions", e.assumptions);
  if (e.time) write_time(writer, w, *e.time);
  writer.end_object();
  return writer.take();
}

std::string training_report_json(std::string_view config_json_text, const OptionList& options) {
  const TrainingRequest request = parse_training_options(options);
  const ModelDescription model = parse_hf_config(config_json_text);
  return training_report_json(estimate_training(model, weight_tensors(model), request));
}

}  // namespace fitcheck
