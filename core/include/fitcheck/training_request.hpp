// SPDX-License-Identifier: MIT
// A training request as the CLI flags and the page give it: the workload, the GPU and the
// step-time inputs that are not part of the workload (tokens to train, efficiency, price).
#pragma once

#include <memory>

#include "fitcheck/hardware.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/training_time.hpp"
#include "fitcheck/training_workload.hpp"

namespace fitcheck {

struct TrainingRequest {
  TrainingWorkload workload;
  const Accelerator* gpu = nullptr;
  std::shared_ptr<const Accelerator> custom_gpu;  // owns *gpu when gpu=custom
  // Step time (with a GPU): tokens to train, the training FLOP efficiency, the price. Option
  // train_tokens defaults by method: kPretrainTokens, or kFineTuneTokens with LoRA/QLoRA adapters.
  double train_tokens = 1e12;
  double flops_efficiency = -1;        // < 0: TrainingAssumptions' default
  double attention_efficiency = -1;    // < 0: attention_efficiency_default()
  double price_per_gpu_hour_usd = -1;  // < 0: the GPU's catalog default
  // Bandwidth one GPU has to other nodes, one direction, bytes/s (< 0: LatencyAssumptions' 50e9,
  // one 400 Gb/s NIC per GPU as in a DGX H100); clusters with Ethernet have less.
  double network_bytes_per_second_per_gpu = -1;
  // QLoRA under the hf framework without a recompute option: gradient checkpointing, as PEFT's
  // prepare_model_for_kbit_training turns it on (the estimate says so).
  bool recompute_from_peft_default = false;
};
// Keys (the CLI's flags with '_' for '-'): gpu, gpus, tp, pp, dp, ep, cp, sequence_parallel,
// virtual_stages, micro_batches, zero, fsdp, fsdp_shard_group, offload_optimizer, offload_params,
// reduce_bucket, allgather_bucket, precision, master_weights, fp32_gradients, optimizer,
// adafactor_first_moment, micro_batch, seq_len, recompute, eager_attention, dropout, lora_rank,
// lora_modules, qlora, lora_dropout, dora, overhead_gib; for step time global_batch_tokens, train_tokens,
// flops_efficiency, attention_efficiency, overlap, price_per_gpu_hour, network_gb_per_s; framework, memory_statistic,
// recompute_method, recompute_num_layers, recompute_frequency. Throws OptionError.
inline constexpr double kPretrainTokens = 1e12;  // a pre-training run's order of tokens
inline constexpr double kFineTuneTokens = 1e8;   // a fine-tune: about 3 epochs over some 30 M tokens of examples
TrainingRequest parse_training_options(const OptionList& options);

// The step time's assumptions for `gpu`: its link and price defaults, with the request's FLOP
// efficiency and price where given.
TrainingAssumptions training_assumptions(const TrainingRequest& request, const Accelerator& gpu);

}  // namespace fitcheck
