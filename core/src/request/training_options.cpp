// SPDX-License-Identifier: MIT
// Training options (shared by the CLI flags, the page and the training planner) into a request.
#include <string>
#include <tuple>

#include "config/config_fields.hpp"
#include "fitcheck/training_request.hpp"

namespace fitcheck {

TrainingRequest parse_training_options(const OptionList& options) {
  OptionReader reader(options);
  TrainingRequest request;
  TrainingWorkload& w = request.workload;
  constexpr std::int64_t kMaxRanks = 1'000'000;
  if (auto framework = reader.text("framework")) {
    const auto found = find_training_framework(*framework);
    if (!found)
      throw OptionError("framework", "option 'framework': unknown framework '" + detail::printable(*framework) +
                                         "' (megatron, deepspeed, torchtitan, hf, torchtune, litgpt, automodel)");
    w.framework = *found;
  }
  if (auto statistic = reader.text("memory_statistic")) {
    const auto found = find_memory_statistic(*statistic);
    if (!found)
      throw OptionError("memory_statistic", "option 'memory_statistic' must be allocated or reserved, got '" +
                                                detail::printable(*statistic) + "'");
    w.memory_statistic = *found;
  }
  w.layout.tensor_parallel = reader.count("tp", 1, 1, 4096);
  w.layout.pipeline_parallel = reader.count("pp", 1, 1, 4096);
  w.layout.expert_parallel = reader.count("ep", 1, 1, 65536);
  w.context_parallel = reader.count("cp", 1, 1, 65536);
  const std::int64_t model_parallel = w.layout.tensor_parallel * w.layout.pipeline_parallel * w.context_parallel;
  const std::int64_t gpus = reader.count("gpus", 0, 0, kMaxRanks);
  const std::int64_t dp = reader.count("dp", 0, 0, kMaxRanks);
  if (gpus > 0) {
    if (gpus % model_parallel != 0)
      throw OptionError("gpus", "option 'gpus' (" + std::to_string(gpus) +
                                    ") must be a multiple of tp x pp x cp = " + std::to_string(model_parallel));
    w.layout.data_parallel = gpus / model_parallel;
    if (dp > 0 && dp != w.layout.data_parallel)
      throw OptionError("dp", "option 'dp' (" + std::to_string(dp) +
                                  ") disagrees with gpus / (tp x pp x cp) = " + std::to_string(w.layout.data_parallel));
  } else {
    w.layout.data_parallel = dp > 0 ? dp : 1;
  }
  w.sequence_parallel = reader.flag("sequence_parallel", false);
  w.tp_comm_overlap = reader.flag("tp_comm_overlap", false);
  w.ep_comm_overlap = reader.flag("ep_comm_overlap", false);
  if (auto dispatcher = reader.text("moe_dispatcher")) {
    const auto found = find_moe_dispatcher(*dispatcher);
    if (!found)
      throw OptionError("moe_dispatcher", "option 'moe_dispatcher' must be alltoall or deepep (hybridep), got '" +
                                              detail::printable(*dispatcher) + "'");
    w.moe_dispatcher = *found;
  }
  if (auto routing = reader.text("moe_routing")) {
    const auto found = find_moe_routing(*routing);
    if (!found)
      throw OptionError("moe_routing", "option 'moe_routing' must be random or round-robin, got '" +
                                           detail::printable(*routing) + "'");
    w.moe_routing = *found;
  }
  w.virtual_pipeline_stages = reader.count("virtual_stages", 1, 1, 1024);
  w.pipeline_split_embedding_slot = reader.flag("account_for_embedding_in_pipeline_split", false);
  w.pipeline_split_loss_slot = reader.flag("account_for_loss_in_pipeline_split", false);
  if (auto schedule = reader.text("pipeline_schedule")) {
    if (*schedule == "zero-bubble" || *schedule == "zb-h1")
      w.zero_bubble_schedule = true;
    else if (*schedule != "1f1b" && *schedule != "interleaved")
      throw OptionError("pipeline_schedule",
                        "option 'pipeline_schedule' must be 1f1b, interleaved (with "
                        "--virtual-stages) or zero-bubble, got '" +
                            detail::printable(*schedule) + "'");
  }
  w.micro_batches_per_step = reader.count("micro_batches", 0, 0, std::int64_t{1} << 24);
  w.zero_stage = static_cast<int>(reader.count("zero", 0, 0, 3));
  if (auto mode = reader.text("fsdp")) {
    const auto found = find_fsdp_mode(*mode);
    if (!found)
      throw OptionError("fsdp", "option 'fsdp': unknown FSDP mode '" + detail::printable(*mode) +
                                    "' (no_shard, shard_grad_op, full_shard, hybrid_shard)");
    w.fsdp = *found;
  }
  w.fsdp_shard_group = reader.count("fsdp_shard_group", 8, 1, kMaxRanks);
  w.offload_optimizer = reader.flag("offload_optimizer", false);
  w.offload_params = reader.flag("offload_params", false);
  w.reduce_bucket_elements = reader.count("reduce_bucket", w.reduce_bucket_elements, 0, std::int64_t{1} << 40);
  w.allgather_bucket_elements = reader.count("allgather_bucket", w.allgather_bucket_elements, 0, std::int64_t{1} << 40);
  if (auto precision = reader.text("precision")) {
    const auto found = find_precision_recipe(*precision);
    if (!found)
      throw OptionError("precision", "option 'precision': unknown precision '" + detail::printable(*precision) +
                                         "' (bf16-mixed, fp16-mixed, fp32, fp8)");
    w.precision = *found;
  }
  if (auto master = reader.text("master_weights")) {
    if (*master == "fp32")
      w.fp32_master_weights = true;
    else if (*master == "none" || *master == "bf16")
      w.fp32_master_weights = false;
    else
      throw OptionError("master_weights",
                        "option 'master_weights' must be fp32 or none (bf16: the weights themselves)");
  }
  // Megatron's bf16/fp16 runs keep an fp32 gradient buffer unless told otherwise.
  w.fp32_gradients =
      reader.flag("fp32_gradients", training_framework(w).fp32_gradient_buffer && w.precision != PrecisionRecipe::fp32);
  if (auto optimizer = reader.text("optimizer")) {
    const auto found = find_optimizer(*optimizer);
    if (!found)
      throw OptionError("optimizer", "option 'optimizer': unknown optimizer '" + detail::printable(*optimizer) +
                                         "' (adamw, adam8bit, adafactor, sgd, sgd-momentum, lion, muon)");
    w.optimizer = *found;
  }
  w.adafactor_first_moment = reader.flag("adafactor_first_moment", false);
  w.micro_batch_size = reader.count("micro_batch", 1, 1, std::int64_t{1} << 24);
  w.sequence_tokens = reader.count("seq_len", 4096, 1, std::int64_t{1} << 32);
  const bool recompute_given = reader.text("recompute").has_value();
  if (auto recompute = reader.text("recompute")) {
    const auto found = find_recompute(*recompute);
    if (!found)
      throw OptionError("recompute", "option 'recompute': unknown recompute mode '" + detail::printable(*recompute) +
                                         "' (none, selective, full, selective-op, selective-layer, "
                                         "gradient-checkpointing)");
    w.recompute = *found;
  }
  if (auto method = reader.text("recompute_method")) {
    if (*method == "uniform")
      w.recompute_method = RecomputeMethod::uniform;
    else if (*method == "block")
      w.recompute_method = RecomputeMethod::block;
    else
      throw OptionError("recompute_method",
                        "option 'recompute_method' must be uniform or block, got '" + detail::printable(*method) + "'");
    if (w.recompute != Recompute::full)
      throw OptionError("recompute_method", "option 'recompute_method' needs --recompute full (Megatron-LM)");
  }
  if (reader.text("recompute_num_layers")) {
    w.recompute_num_layers = reader.count("recompute_num_layers", 1, 1, 1 << 20);
    if (w.recompute != Recompute::full)
      throw OptionError("recompute_num_layers", "option 'recompute_num_layers' needs --recompute full (Megatron-LM)");
  }
  if (auto modules = reader.text("recompute_modules")) {
    if (w.framework != TrainingFramework::megatron)
      throw OptionError(
          "recompute_modules",
          "option 'recompute_modules' is Megatron-LM's --recompute-modules: it needs --framework megatron");
    if (w.recompute != Recompute::selective)
      throw OptionError("recompute_modules",
                        "option 'recompute_modules' needs --recompute selective (Megatron's --recompute-granularity)");
    try {
      w.recompute_modules = parse_recompute_modules(*modules);
    } catch (const std::invalid_argument& error) {
      throw OptionError("recompute_modules", "option 'recompute_modules': " + detail::printable(error.what(), 200));
    }
  }
  if (reader.text("recompute_frequency")) {
    w.recompute_frequency = reader.count("recompute_frequency", 2, 1, 1 << 20);
    if (w.recompute != Recompute::selective_layer)
      throw OptionError("recompute_frequency",
                        "option 'recompute_frequency' needs --recompute selective-layer (torchtitan)");
  }
  w.flash_attention = !reader.flag("eager_attention", false);
  if (auto kernel = reader.text("attention_kernel")) {
    const auto found = find_attention_kernel(*kernel);
    if (!found)
      throw OptionError("attention_kernel", "option 'attention_kernel': unknown attention kernel '" +
                                                detail::printable(*kernel) + "' (sdpa, flash-attn, cudnn)");
    w.attention_kernel = *found;
  }
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
  // PEFT's prepare_model_for_kbit_training(model, use_gradient_checkpointing=True) turns on the
  // model's gradient checkpointing (whole decoder layers) for every k-bit run: a QLoRA fine-tune
  // with Hugging Face checkpoints unless told otherwise (huggingface/peft src/peft/utils/other.py).
  if (!recompute_given && w.lora.qlora && w.framework == TrainingFramework::hf) {
    w.recompute = Recompute::full;
    request.recompute_from_peft_default = true;
  }
  w.lora.dropout = reader.flag("lora_dropout", false);
  w.lora.dora = reader.flag("dora", false);
  w.optimizer_in_backward = reader.flag("optimizer_in_backward", false);
  w.offload_activations = reader.flag("offload_activations", false);
  if (reader.text("cpu_offloading_num_layers")) {
    w.cpu_offloaded_layers = reader.count("cpu_offloading_num_layers", 0, 0, 1 << 20);
    // transformer_config.py __post_init__ refuses CPU offloading with pipeline parallelism and with
    // activation recomputation.
    if (w.framework != TrainingFramework::megatron)
      throw OptionError("cpu_offloading_num_layers",
                        "option 'cpu_offloading_num_layers' is Megatron's --cpu-offloading-num-layers: it needs "
                        "--framework megatron");
    if (w.cpu_offloaded_layers > 0 && w.recompute != Recompute::none)
      throw OptionError("cpu_offloading_num_layers",
                        "option 'cpu_offloading_num_layers': Megatron's CPU offloading does not work with activation "
                        "recomputation (--recompute none)");
  }
  // The same split of the checkpointed inputs, by each framework's name.
  for (const auto& [key, framework, name] :
       {std::tuple{"partition_activations", TrainingFramework::deepspeed, "DeepSpeed's partition_activations"},
        std::tuple{"distribute_saved_activations", TrainingFramework::megatron,
                   "Megatron's --distribute-saved-activations"}}) {
    if (!reader.flag(key, false)) continue;
    if (w.framework != framework)
      throw OptionError(key, std::string("option '") + key + "' is " + name + ": it needs --framework " +
                                 training_framework_profile(framework).id);
    if (w.recompute != Recompute::full)
      throw OptionError(key, std::string("option '") + key +
                                 "' splits the checkpointed layer inputs: it needs "
                                 "--recompute full");
    // transformer_config.py __post_init__: distribute_saved_activations must be false with sequence parallel.
    if (framework == TrainingFramework::megatron && w.sequence_parallel)
      throw OptionError(key,
                        "option 'distribute_saved_activations' must be off with sequence parallelism (Megatron "
                        "refuses both)");
    w.partition_checkpoints = true;
  }
  w.compile = reader.flag("compile", false);
  w.eager_loss = reader.flag("eager_loss", false);
  w.paged_optimizer = reader.flag("paged_optimizer", false);
  w.framework_overhead_bytes =
      static_cast<std::int64_t>(reader.number("overhead_gib", 1.0, 0.0, 1024.0) * 1024.0 * 1024.0 * 1024.0);
  const auto gpu = reader.text("gpu");
  request.custom_gpu = read_custom_gpu_options(reader, gpu && is_custom_gpu_name(*gpu));
  if (gpu) request.gpu = resolve_gpu_option("gpu", *gpu, request.custom_gpu);
  w.global_batch_tokens = reader.count("global_batch_tokens", 0, 0, std::int64_t{1} << 40);
  // A fine-tune with adapters runs over a data set of examples, not a pre-training corpus.
  request.train_tokens = reader.number("train_tokens", w.lora.rank > 0 ? kFineTuneTokens : kPretrainTokens, 1.0, 1e16);
  request.flops_efficiency = reader.number("flops_efficiency", -1, 0.01, 1.0);
  request.attention_efficiency = reader.number("attention_efficiency", -1, 0.01, 1.0);
  w.overlap_data_parallel = reader.flag("overlap", true);
  request.price_per_gpu_hour_usd = reader.number("price_per_gpu_hour", -1, 0.0, 1e6);
  // GB/s (1e9 bytes) per GPU to other nodes, one direction: 50 for a 400 Gb/s NIC per GPU.
  const double network_gb_per_s = reader.number("network_gb_per_s", -1, 0.1, 1e4);
  if (network_gb_per_s > 0) request.network_bytes_per_second_per_gpu = network_gb_per_s * 1e9;
  reader.finish();
  return request;
}

TrainingAssumptions training_assumptions(const TrainingRequest& request, const Accelerator& gpu) {
  TrainingAssumptions assumptions;
  assumptions.communication = default_latency_assumptions(gpu);
  if (request.flops_efficiency > 0) {
    assumptions.flops_efficiency = request.flops_efficiency;
    assumptions.flops_efficiency_given = true;
  }
  if (request.attention_efficiency > 0) assumptions.attention_efficiency = request.attention_efficiency;
  if (request.price_per_gpu_hour_usd >= 0)
    assumptions.communication.price_per_gpu_hour_usd = request.price_per_gpu_hour_usd;
  if (request.network_bytes_per_second_per_gpu > 0)
    assumptions.communication.inter_node_bytes_per_second_per_gpu = request.network_bytes_per_second_per_gpu;
  return assumptions;
}

}  // namespace fitcheck
