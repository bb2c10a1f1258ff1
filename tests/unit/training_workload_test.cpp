// SPDX-License-Identifier: MIT
// training_workload.hpp: the one validator of the training workload, and what the memory and the
// step time read from the workload alike.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "fitcheck/training_workload.hpp"

using namespace fitcheck;

namespace {

constexpr std::int64_t kLayers = 24;

// The option the validator names, or "none".
std::string refusal(const TrainingWorkload& w, bool step_time) {
  try {
    check_training_workload(w, kLayers, step_time);
  } catch (const OptionError& error) {
    return error.option();
  }
  return "none";
}

struct Rule {
  const char* what;
  std::function<void(TrainingWorkload&)> change;
  const char* option;
};

}  // namespace

TEST_CASE("check_training_workload: the defaults run, for the memory and for the clock") {
  CHECK(refusal(TrainingWorkload{}, false) == "none");
  CHECK(refusal(TrainingWorkload{}, true) == "none");
}

TEST_CASE("check_training_workload: every rule of the memory refuses naming its option, for the clock too") {
  const Rule rules[] = {
      {"tp 0", [](TrainingWorkload& w) { w.layout.tensor_parallel = 0; }, "tp"},
      {"pp 0", [](TrainingWorkload& w) { w.layout.pipeline_parallel = 0; }, "pp"},
      {"ep 0", [](TrainingWorkload& w) { w.layout.expert_parallel = 0; }, "ep"},
      {"dp 0", [](TrainingWorkload& w) { w.layout.data_parallel = 0; }, "dp"},
      {"cp 0", [](TrainingWorkload& w) { w.context_parallel = 0; }, "cp"},
      {"micro-batch 0", [](TrainingWorkload& w) { w.micro_batch_size = 0; }, "micro_batch"},
      {"sequence 0", [](TrainingWorkload& w) { w.sequence_tokens = 0; }, "seq_len"},
      {"cp longer than the sequence", [](TrainingWorkload& w) { w.sequence_tokens = 2, w.context_parallel = 4; }, "cp"},
      {"negative micro-batches", [](TrainingWorkload& w) { w.micro_batches_per_step = -1; }, "micro_batches"},
      {"ZeRO 4", [](TrainingWorkload& w) { w.zero_stage = 4; }, "zero"},
      {"FSDP with ZeRO", [](TrainingWorkload& w) { w.fsdp = FsdpMode::full_shard, w.zero_stage = 1; }, "fsdp"},
      {"HYBRID_SHARD group 3 of 8 ranks",
       [](TrainingWorkload& w) { w.fsdp = FsdpMode::hybrid_shard, w.layout.data_parallel = 8, w.fsdp_shard_group = 3; },
       "fsdp_shard_group"},
      {"parameter offload with ZeRO-2", [](TrainingWorkload& w) { w.offload_params = true, w.zero_stage = 2; },
       "offload_params"},
      {"optimizer offload with FSDP",
       [](TrainingWorkload& w) { w.offload_optimizer = true, w.fsdp = FsdpMode::full_shard; }, "offload_optimizer"},
      {"optimizer offload without ZeRO", [](TrainingWorkload& w) { w.offload_optimizer = true; }, "offload_optimizer"},
      {"negative bucket", [](TrainingWorkload& w) { w.allgather_bucket_elements = -1; }, "reduce_bucket"},
      {"ep 3 of 8 ranks", [](TrainingWorkload& w) { w.layout.expert_parallel = 3, w.layout.data_parallel = 8; }, "ep"},
      {"ep with tp and no sequence parallelism",
       [](TrainingWorkload& w) { w.layout.expert_parallel = 2, w.layout.tensor_parallel = 2; }, "sequence_parallel"},
      {"virtual stages 0", [](TrainingWorkload& w) { w.virtual_pipeline_stages = 0; }, "virtual_stages"},
      {"virtual stages without pp", [](TrainingWorkload& w) { w.virtual_pipeline_stages = 2; }, "virtual_stages"},
      {"pp x v = 10 does not divide 24 layers",
       [](TrainingWorkload& w) { w.layout.pipeline_parallel = 2, w.virtual_pipeline_stages = 5; }, "virtual_stages"},
      {"QLoRA without a rank", [](TrainingWorkload& w) { w.lora.qlora = true; }, "qlora"},
      {"negative LoRA rank", [](TrainingWorkload& w) { w.lora.rank = -1; }, "lora_rank"},
      {"LoRA dropout without a rank", [](TrainingWorkload& w) { w.lora.dropout = true; }, "lora_dropout"},
      {"negative overhead", [](TrainingWorkload& w) { w.framework_overhead_bytes = -1; }, "overhead_gib"},
  };
  for (const Rule& rule : rules) {
    CAPTURE(rule.what);
    TrainingWorkload w;
    rule.change(w);
    CHECK(refusal(w, false) == rule.option);
    CHECK(refusal(w, true) == rule.option);
  }
}

TEST_CASE("uneven pipeline stages: torchtitan splits the layers that do not divide, Megatron-LM refuses") {
  // pp 2 x 5 virtual stages = 10 stages for 24 layers: torchtitan's generate_split_points gives the
  // middle stages the 4 extra layers; Megatron-LM needs the stages to divide the layers.
  TrainingWorkload w;
  w.layout.pipeline_parallel = 2;
  w.virtual_pipeline_stages = 5;
  w.framework = TrainingFramework::megatron;
  CHECK(refusal(w, true) == "virtual_stages");
  w.framework = TrainingFramework::torchtitan;
  CHECK(refusal(w, true) == "none");
}

TEST_CASE("check_training_workload: the step time's own rules, which the memory does not need") {
  const Rule rules[] = {
      {"cp 3 does not divide 4096 tokens", [](TrainingWorkload& w) { w.context_parallel = 3; }, "cp"},
      {"pp 32 is more stages than 24 layers", [](TrainingWorkload& w) { w.layout.pipeline_parallel = 32; }, "pp"},
      {"one sequence for 2 data-parallel ranks",
       [](TrainingWorkload& w) { w.global_batch_tokens = 4096, w.layout.data_parallel = 2; }, "global_batch_tokens"},
      {"negative global batch", [](TrainingWorkload& w) { w.global_batch_tokens = -1; }, "global_batch_tokens"},
      // 6 sequences of 4096 tokens over micro-batch 1 x dp 1: 6 micro-batches, not a multiple of pp 4.
      {"interleaved 1F1B with 6 micro-batches on pp 4",
       [](TrainingWorkload& w) {
         w.layout.pipeline_parallel = 4, w.virtual_pipeline_stages = 2, w.global_batch_tokens = 6 * 4096;
       },
       "virtual_stages"},
      // 5 sequences over micro-batch 2: 3 micro-batches (the last one partial), not a multiple of pp 2.
      {"interleaved 1F1B with a partial last micro-batch",
       [](TrainingWorkload& w) {
         w.layout.pipeline_parallel = 2, w.virtual_pipeline_stages = 2, w.micro_batch_size = 2,
         w.global_batch_tokens = 5 * 4096;
       },
       "virtual_stages"},
  };
  for (const Rule& rule : rules) {
    CAPTURE(rule.what);
    TrainingWorkload w;
    rule.change(w);
    CHECK(refusal(w, false) == "none");
    try {
      check_training_workload(w, kLayers, true);
      FAIL("accepted by the step time");
    } catch (const OptionError& error) {
      CHECK(error.option() == rule.option);
      CHECK(std::string(error.what()).starts_with("option '" + std::string(rule.option) + "': "));
    }
  }
}

TEST_CASE("interleaved 1F1B runs the micro-batches in whole groups of pp") {
  TrainingWorkload w;
  w.layout.pipeline_parallel = 4;
  w.virtual_pipeline_stages = 2;
  w.global_batch_tokens = 8 * 4096;  // 8 micro-batches of one 4096-token sequence: two groups of 4
  CHECK(refusal(w, true) == "none");
  w.global_batch_tokens = 12 * 4096;  // 12: three groups
  CHECK(refusal(w, true) == "none");
  w.global_batch_tokens = 10 * 4096;  // 10: a last group of 2
  CHECK(refusal(w, true) == "virtual_stages");
  w.virtual_pipeline_stages = 1;  // plain 1F1B takes any count
  CHECK(refusal(w, true) == "none");
}

TEST_CASE("global_batch_tokens_or_default: as given, else 4M tokens and at least one micro-batch per rank and step") {
  TrainingWorkload w;
  w.global_batch_tokens = 123'456;
  CHECK(global_batch_tokens_or_default(w) == 123'456);
  w.global_batch_tokens = 0;
  CHECK(global_batch_tokens_or_default(w) == 4'194'304);  // 4 x 2^20 (Llama-2/3 pretraining batches)
  // dp 256 x micro-batch 1 x 8192 tokens x max(0 micro-batches, pp 4) = 8,388,608 > 4M.
  w.layout = {1, 4, 1, 256};
  w.sequence_tokens = 8192;
  CHECK(global_batch_tokens_or_default(w) == 8'388'608);
  // 16 micro-batches per step count over pp: 256 x 8192 x 16 = 33,554,432.
  w.micro_batches_per_step = 16;
  CHECK(global_batch_tokens_or_default(w) == 33'554'432);
}

TEST_CASE("the step time reads the recipe and the sharding as the memory does") {
  CHECK(training_compute_dtype(PrecisionRecipe::bf16_mixed) == ComputeDtype::bf16);
  CHECK(training_compute_dtype(PrecisionRecipe::fp16_mixed) == ComputeDtype::fp16);
  CHECK(training_compute_dtype(PrecisionRecipe::fp32) == ComputeDtype::fp32);
  CHECK(training_compute_dtype(PrecisionRecipe::fp8) == ComputeDtype::fp8);

  TrainingWorkload w;
  CHECK(training_gradient_bytes_per_parameter(w) == 2);  // bf16 gradients
  w.fp32_gradients = true;
  CHECK(training_gradient_bytes_per_parameter(w) == 4);  // Megatron-LM main_grad
  w.fp32_gradients = false;
  w.precision = PrecisionRecipe::fp32;
  CHECK(training_gradient_bytes_per_parameter(w) == 4);

  w = {};
  w.zero_stage = 2;
  CHECK(training_collective_zero_stage(w) == 2);
  w.zero_stage = 0;
  w.fsdp = FsdpMode::no_shard;
  CHECK(training_collective_zero_stage(w) == 0);  // plain data parallel: an all-reduce
  w.fsdp = FsdpMode::shard_grad_op;
  CHECK(training_collective_zero_stage(w) == 2);
  w.fsdp = FsdpMode::full_shard;
  CHECK(training_collective_zero_stage(w) == 3);
  w.fsdp = FsdpMode::hybrid_shard;
  CHECK(training_collective_zero_stage(w) == 3);
}

TEST_CASE("with_training_defaults: LoRA without modules adapts every linear layer of the blocks") {
  TrainingWorkload w;
  CHECK(with_training_defaults(w).lora.target_roles.empty());  // full training: no adapters
  w.lora.rank = 8;
  const auto roles = with_training_defaults(w).lora.target_roles;
  for (TensorRole role : {TensorRole::attention_query, TensorRole::attention_key, TensorRole::attention_value,
                          TensorRole::attention_output, TensorRole::mlp_gate, TensorRole::mlp_up, TensorRole::mlp_down,
                          TensorRole::expert_down, TensorRole::shared_expert_up, TensorRole::attention_kv_up}) {
    CAPTURE(tensor_role_name(role));
    CHECK(std::find(roles.begin(), roles.end(), role) != roles.end());
  }
  CHECK(std::find(roles.begin(), roles.end(), TensorRole::lm_head) == roles.end());
  w.lora.target_roles = {TensorRole::attention_query};
  CHECK(with_training_defaults(w).lora.target_roles == std::vector<TensorRole>{TensorRole::attention_query});
}

TEST_CASE("one recompute enum: names and their lookup") {
  CHECK(std::string(recompute_name(Recompute::none)) == "none");
  CHECK(std::string(recompute_name(Recompute::selective)) == "selective");
  CHECK(std::string(recompute_name(Recompute::full)) == "full");
  CHECK(find_recompute("Selective") == Recompute::selective);
  CHECK(find_recompute("FULL") == Recompute::full);
  CHECK_FALSE(find_recompute("partial").has_value());
}
