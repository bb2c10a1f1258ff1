// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/plan_options.hpp"
#include "fitcheck/planner.hpp"
#include "fitcheck/report.hpp"
#include "fitcheck/training_estimate.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_request.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// A Llama-style model whose weights are almost all in its four wide layers. Parameters by hand:
//   per layer: q, o 8192 x 8192 = 67,108,864 each; k, v 8192 x 1024 = 8,388,608 each;
//   gate, up, down 8192 x 28672 = 234,881,024 each; two norms 2 x 8192 = 16,384
//   = 134,217,728 + 16,777,216 + 704,643,072 + 16,384 = 855,654,400; x 4 = 3,422,617,600
//   embedding + lm_head 2 x 1024 x 8192 = 16,777,216; final norm 8,192
//   total P = 3,439,403,008.
// bf16 mixed precision with AdamW keeps 2 + 2 + 12 = 16 bytes per parameter (ZeRO paper §3.1):
//   whole 16 P = 55.0 GB; halved (tp 2, pp 2, or ZeRO-3 over 2 ranks) about 27.5 GB.
constexpr const char* kWideConfig = R"({
  "model_type": "llama", "architectures": ["LlamaForCausalLM"],
  "hidden_size": 8192, "intermediate_size": 28672, "num_hidden_layers": 4,
  "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 1024,
  "max_position_embeddings": 4096, "tie_word_embeddings": false, "torch_dtype": "bfloat16"
})";

ModelDescription llama_8b() {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
}

TrainingPlanRequest small_llama_request() {
  TrainingPlanRequest request;
  request.base.workload.framework = TrainingFramework::torchtitan;  // runs every parallelism
  request.gpus = {find_accelerator("h100-sxm-80gb"), find_accelerator("a100-sxm-80gb")};
  request.max_gpus = 16;
  request.global_batch_tokens = 256 * 4096;  // 256 sequences of 4096 tokens
  request.micro_batch_sizes = {1, 2, 4};
  request.zero_stages = {0, 1, 3};
  request.keep = 1000;
  return request;
}

// A plan of kWideConfig on at most two H100s in one node: 64-token sequences, two per step, one
// micro-batch size, full recomputation, no interleaving.
TrainingPlanRequest two_gpu_wide_request() {
  TrainingPlanRequest request;
  request.gpus = {find_accelerator("h100-sxm-80gb")};
  request.max_gpus = 2;
  request.max_gpus_per_node = 2;
  request.base.workload.sequence_tokens = 64;
  request.global_batch_tokens = 2 * 64;
  request.micro_batch_sizes = {1};
  request.recompute_modes = {Recompute::full};
  request.virtual_stages = {1};
  return request;
}

}  // namespace

TEST_CASE("training planner: exactly the layouts that hold half the model states fit (hand-derived)") {
  const ModelDescription model = parse_hf_config(kWideConfig);
  const auto tensors = weight_tensors(model);
  REQUIRE(count_parameters(model).total == 3'439'403'008);
  TrainingPlanRequest request;
  request.gpus = {find_accelerator("h100-sxm-80gb")};  // 80 GiB
  request.max_gpus = 2;
  request.max_gpus_per_node = 2;
  // Budget (1 - 0.5) x 80 GiB = 42.9 GB: 16 P = 55.0 GB does not fit, 8 P = 27.5 GB (plus 1 GiB
  // overhead and buffers, activations of 64-token sequences a few MB) does.
  request.memory_headroom = 0.5;
  request.base.workload.framework = TrainingFramework::torchtitan;  // runs every parallelism
  request.base.workload.sequence_tokens = 64;
  request.global_batch_tokens = 2 * 64;  // two sequences per step
  request.micro_batch_sizes = {1};
  request.zero_stages = {0, 3};
  request.recompute_modes = {Recompute::full};
  request.virtual_stages = {1};  // interleaving: its own test below
  request.keep = 100;
  const TrainingPlan plan = plan_training(model, tensors, request);
  // Layouts of at most 2 GPUs (tp, cp, pp, dp): 1111, 1112, 1121, 1211, 2111; unsharded and stage 3
  // where dp x cp = 2 (1112, 1211), unsharded only on a single replica (nothing to shard): 7 in all.
  CHECK(plan.evaluated == 7);
  // Fit: stage 3 (torchtitan shards with FSDP: FULL_SHARD) over dp 2 or cp 2 (shards over dp x cp),
  // and pp 2 or tp 2.
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, FsdpMode>> fits;
  for (const auto& c : plan.best)
    fits.insert({c.tensor_parallel, c.context_parallel, c.pipeline_parallel, c.data_parallel, c.zero_stage, c.fsdp});
  const decltype(fits) expected{{1, 1, 1, 2, 0, FsdpMode::full_shard},
                                {1, 1, 2, 1, 0, FsdpMode::off},
                                {1, 2, 1, 1, 0, FsdpMode::full_shard},
                                {2, 1, 1, 1, 0, FsdpMode::off}};
  CHECK(fits == expected);
  CHECK(plan.feasible == 4);
  for (const auto& c : plan.best) {
    CHECK(c.memory_bytes_per_gpu > 27'000'000'000);
    CHECK(c.memory_bytes_per_gpu < 34'000'000'000);
    CHECK(c.sequence_parallel == (c.tensor_parallel > 1));
  }
}

TEST_CASE("training planner: interleaved stages where the layers and the micro-batch groups allow (hand-derived)") {
  const ModelDescription model = parse_hf_config(kWideConfig);  // 4 layers
  const auto tensors = weight_tensors(model);
  TrainingPlanRequest request;
  request.gpus = {find_accelerator("h100-sxm-80gb")};
  request.max_gpus = 2;
  request.max_gpus_per_node = 2;
  request.memory_headroom = 0.5;  // as above: only halved model states fit
  // Megatron-Core: pp x v must divide the layers (torchtitan would split them unevenly).
  request.base.workload.framework = TrainingFramework::megatron;
  request.base.workload.sequence_tokens = 64;
  request.micro_batch_sizes = {1};
  request.zero_stages = {0};
  request.recompute_modes = {Recompute::full};
  request.virtual_stages = {1, 2, 4};
  request.keep = 100;
  // Two sequences per step: pp 2 runs m = 2 micro-batches, one group of pp. v = 2 puts one layer in
  // each of 2 x 2 chunks; v = 4 would need 8 layers (refused by the core, not evaluated).
  request.global_batch_tokens = 2 * 64;
  TrainingPlan plan = plan_training(model, tensors, request);
  // 1111, 1112, 1121 (v 1 and 2), 1211, 2111.
  CHECK(plan.evaluated == 6);
  std::vector<const TrainingPlanCandidate*> pipelined;
  for (const auto& c : plan.best)
    if (c.pipeline_parallel == 2) pipelined.push_back(&c);
  REQUIRE(pipelined.size() == 2);
  for (const TrainingPlanCandidate* c : pipelined) {
    const TrainingEstimate train = estimate_training(model, tensors, training_request_of(*c, request));
    REQUIRE(train.time);
    const TrainingTime& time = train.time->explained.time;
    CHECK(time.step_seconds == doctest::Approx(c->step_seconds).epsilon(1e-12));
    CHECK(train.memory.totals.total_bytes_per_gpu == c->memory_bytes_per_gpu);
    // Bubble (pp - 1) / v slots beside m = 2: 1/3 of the step with v = 1, 0.5 / 2.5 with v = 2.
    CHECK(time.pipeline_bubble_fraction == doctest::Approx(c->virtual_pipeline_stages == 1 ? 1.0 / 3 : 0.2));
  }
  CHECK(pipelined[0]->virtual_pipeline_stages != pipelined[1]->virtual_pipeline_stages);

  // Three sequences: m = 3 is not a whole number of groups of pp = 2, so only 1F1B is tried.
  request.global_batch_tokens = 3 * 64;
  plan = plan_training(model, tensors, request);
  for (const auto& c : plan.best) CHECK(c.virtual_pipeline_stages == 1);
  CHECK(std::any_of(plan.best.begin(), plan.best.end(), [](const auto& c) { return c.pipeline_parallel == 2; }));

  // The zero-bubble schedule modelled runs one chunk per GPU: no interleaving tried with it.
  request.global_batch_tokens = 2 * 64;
  request.base.workload.zero_bubble_schedule = true;
  plan = plan_training(model, tensors, request);
  CHECK(plan.evaluated == 5);
  for (const auto& c : plan.best) CHECK(c.virtual_pipeline_stages == 1);
}

TEST_CASE("training planner: only the parallelisms the framework runs are searched (hand-derived)") {
  const ModelDescription model = parse_hf_config(kWideConfig);
  const auto tensors = weight_tensors(model);
  TrainingPlanRequest request = two_gpu_wide_request();
  request.memory_headroom = 0.5;  // as in the first test: only halved model states fit
  request.zero_stages = {0, 3};
  request.keep = 100;
  // tp, cp, pp, dp, zero, FSDP mode
  using Fit = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, FsdpMode>;
  const auto fits_of = [](const TrainingPlan& plan) {
    std::set<Fit> fits;
    for (const auto& c : plan.best)
      fits.insert({c.tensor_parallel, c.context_parallel, c.pipeline_parallel, c.data_parallel, c.zero_stage, c.fsdp});
    return fits;
  };
  constexpr FsdpMode off = FsdpMode::off;
  // Hugging Face (Accelerate: no pipeline): the first test's 7 runs less 1121.
  request.base.workload.framework = TrainingFramework::hf;
  TrainingPlan plan = plan_training(model, tensors, request);
  CHECK(plan.evaluated == 6);
  CHECK(fits_of(plan) == std::set<Fit>{{1, 1, 1, 2, 3, off}, {1, 2, 1, 1, 3, off}, {2, 1, 1, 1, 0, off}});
  REQUIRE(!plan.notes.empty());
  CHECK(plan.notes[0].rfind("1 layout is not searched: Hugging Face", 0) == 0);
  CHECK(plan.notes[0].find("parallelism_config.py") != std::string::npos);
  // LitGPT (FSDP only): 1111 and 1112 unsharded and FULL_SHARD (stage 3); 1121, 1211 (both) and
  // 2111 left out. FULL_SHARD over dp 2 halves the model states as ZeRO-3 does: it fits.
  request.base.workload.framework = TrainingFramework::litgpt;
  plan = plan_training(model, tensors, request);
  CHECK(plan.evaluated == 3);
  CHECK(fits_of(plan) == std::set<Fit>{{1, 1, 1, 2, 0, FsdpMode::full_shard}});
  REQUIRE(plan.notes.size() >= 2);
  CHECK(plan.notes[0].rfind("4 layouts are not searched: LitGPT", 0) == 0);
  CHECK(plan.notes[1].rfind("LitGPT (Lightning Fabric) shards with FSDP: ZeRO stage 2 runs as FSDP SHARD_GRAD_OP", 0) ==
        0);
  // Megatron-DeepSpeed: a pipeline with sharded gradients is refused; 4 GPUs allow pp 2 x dp 2.
  request.base.workload.framework = TrainingFramework::deepspeed;
  request.max_gpus = 4;
  request.max_gpus_per_node = 4;
  request.global_batch_tokens = 4 * 64;
  plan = plan_training(model, tensors, request);
  REQUIRE(!plan.best.empty());
  for (const auto& c : plan.best) CHECK_FALSE((c.pipeline_parallel > 1 && c.zero_stage > 1));
  request.base.workload.framework = TrainingFramework::megatron;
  const TrainingPlan megatron = plan_training(model, tensors, request);
  CHECK(std::any_of(megatron.best.begin(), megatron.best.end(),
                    [](const auto& c) { return c.pipeline_parallel > 1 && c.zero_stage == 3; }));
}

TEST_CASE("training planner: frameworks that shard with FSDP get FSDP's modes, never ZeRO-1 (hand-derived)") {
  const ModelDescription model = parse_hf_config(kWideConfig);
  const auto tensors = weight_tensors(model);
  TrainingPlanRequest request = two_gpu_wide_request();
  request.zero_stages = {0, 1, 2, 3};
  request.keep = 1000;
  const auto shardings_at_dp2 = [](const TrainingPlan& plan) {
    std::set<std::pair<int, FsdpMode>> out;
    for (const auto& c : plan.best)
      if (c.data_parallel == 2) out.insert({c.zero_stage, c.fsdp});
    return out;
  };
  // Without a memory limit every layout fits: the rows of dp 2 show which shardings were run.
  request.memory_headroom = 0.0;
  request.base.workload.framework = TrainingFramework::torchtitan;
  TrainingPlan plan = plan_training(model, tensors, request);
  for (const auto& c : plan.best) {
    CHECK(c.zero_stage == 0);
    CHECK((c.fsdp == FsdpMode::off || c.fsdp == FsdpMode::shard_grad_op || c.fsdp == FsdpMode::full_shard));
    const TrainingRequest training = training_request_of(c, request);
    CHECK(training.workload.fsdp == c.fsdp);
    CHECK(training.workload.zero_stage == 0);
    // The row is what `fitcheck train --framework torchtitan --fsdp MODE` computes.
    CHECK(training_memory(model, tensors, training.workload).totals.total_bytes_per_gpu == c.memory_bytes_per_gpu);
  }
  CHECK_FALSE(shardings_at_dp2(plan).empty());
  const bool zero_one_note = std::any_of(plan.notes.begin(), plan.notes.end(), [](const std::string& note) {
    return note.find("stage 1 (optimizer states only) has no FSDP counterpart and is not searched") !=
           std::string::npos;
  });
  CHECK(zero_one_note);
  // Megatron-Core keeps ZeRO's stages (its distributed optimizer is ZeRO-1).
  request.base.workload.framework = TrainingFramework::megatron;
  plan = plan_training(model, tensors, request);
  for (const auto& c : plan.best) CHECK(c.fsdp == FsdpMode::off);
  CHECK(std::any_of(plan.best.begin(), plan.best.end(), [](const auto& c) { return c.zero_stage == 1; }));
}

// torchtitan on up to `gpus` H100s (8 a node), one 4096-token sequence per GPU per step, ZeRO 3
// (FULL_SHARD or HYBRID_SHARD), micro-batch 1, every fitting row kept; 100 Gb/s Ethernet per GPU, so
// gathers across nodes cost more than within one.
namespace {

TrainingPlanRequest hsdp_request(std::int64_t gpus) {
  TrainingPlanRequest request;
  request.base.workload.framework = TrainingFramework::torchtitan;
  request.gpus = {find_accelerator("h100-sxm-80gb")};
  request.max_gpus = gpus;
  request.global_batch_tokens = gpus * 4096;
  request.micro_batch_sizes = {1};
  request.zero_stages = {3};
  request.recompute_modes = {Recompute::none};
  request.virtual_stages = {1};
  request.memory_headroom = 0.0;
  request.keep = 1000;
  request.base.network_bytes_per_second_per_gpu = 12.5e9;
  return request;
}

}  // namespace

TEST_CASE("training planner: HYBRID_SHARD within a node where the framework runs HSDP (hand-derived)") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  TrainingPlanRequest request = hsdp_request(16);
  const TrainingPlan plan = plan_training(model, tensors, request);
  // The shard group is a node's GPUs over tp (8 / tp), and HYBRID_SHARD is tried only where dp x cp
  // spans more than one group: 16 GPUs as tp 1 x dp 16 (group 8), tp 2 x dp 8 (group 4), tp 1 x
  // cp 2 x dp 8 (group 8, cp divides it), tp 4 x dp 4 (group 2)...
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> hybrid;  // (tp, cp, dp)
  for (const auto& c : plan.best) {
    if (c.fsdp != FsdpMode::hybrid_shard) {
      CHECK(c.fsdp_shard_group == 0);
      continue;
    }
    hybrid.insert({c.tensor_parallel, c.context_parallel, c.data_parallel});
    CHECK(c.fsdp_shard_group * c.tensor_parallel == 8);
    CHECK(c.fsdp_shard_group % c.context_parallel == 0);
    CHECK(c.data_parallel * c.context_parallel > c.fsdp_shard_group);
    CHECK((c.data_parallel * c.context_parallel) % c.fsdp_shard_group == 0);
    // The row is what `fitcheck train --fsdp hybrid_shard --fsdp-shard-group N` computes.
    const TrainingRequest training = training_request_of(c, request);
    CHECK(training.workload.fsdp == FsdpMode::hybrid_shard);
    CHECK(training.workload.fsdp_shard_group == c.fsdp_shard_group);
    CHECK(training_memory(model, tensors, training.workload).totals.total_bytes_per_gpu == c.memory_bytes_per_gpu);
    // Sharded over the group, not every replica: more memory than FULL_SHARD of the same layout.
    TrainingWorkload full = training.workload;
    full.fsdp = FsdpMode::full_shard;
    CHECK(training_memory(model, tensors, full).totals.total_bytes_per_gpu < c.memory_bytes_per_gpu);
  }
  CHECK(hybrid.count({1, 1, 16}) == 1);
  CHECK(hybrid.count({2, 1, 8}) == 1);
  CHECK(hybrid.count({2, 1, 4}) == 0);  // 8 GPUs, one node: dp 4 is the whole group
  const auto noted = [](const TrainingPlan& p) {
    return std::any_of(p.notes.begin(), p.notes.end(), [](const std::string& note) {
      return note.find("3 as FULL_SHARD and as HYBRID_SHARD over whole nodes of 8 GPUs") != std::string::npos;
    });
  };
  CHECK(noted(plan));
  // LitGPT's fine-tuning scripts run FSDPStrategy's default FULL_SHARD; Megatron-Core keeps ZeRO.
  for (auto framework : {TrainingFramework::litgpt, TrainingFramework::megatron}) {
    request.base.workload.framework = framework;
    const TrainingPlan other = plan_training(model, tensors, request);
    CHECK(std::none_of(other.best.begin(), other.best.end(),
                       [](const auto& c) { return c.fsdp == FsdpMode::hybrid_shard; }));
    CHECK_FALSE(noted(other));
  }
}

TEST_CASE("training planner: HYBRID_SHARD groups of one node, two nodes... below the dp ranks (hand-derived)") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  const TrainingPlanRequest request = hsdp_request(32);
  const TrainingPlan plan = plan_training(model, tensors, request);
  // 32 GPUs as tp 1 x dp 32: groups of 8 (a node) and 16 (two nodes); 32 is every rank, FULL_SHARD.
  // tp 2 x dp 16: 4 and 8 GPUs' ranks (one node's 8 GPUs over tp 2, two nodes'). tp 8 x dp 4: a
  // node holds one rank, so the groups are 2 (two nodes); 4 is every rank.
  std::map<std::pair<std::int64_t, std::int64_t>, std::map<std::int64_t, std::int64_t>> memory;  // (tp, dp) -> group
  for (const auto& c : plan.best) {
    if (c.pipeline_parallel != 1 || c.context_parallel != 1) continue;
    const std::int64_t group = c.fsdp == FsdpMode::hybrid_shard ? c.fsdp_shard_group : c.data_parallel;
    if (c.fsdp == FsdpMode::hybrid_shard) {
      const TrainingRequest training = training_request_of(c, request);
      CHECK(training.workload.fsdp_shard_group == group);
      CHECK(training_memory(model, tensors, training.workload).totals.total_bytes_per_gpu == c.memory_bytes_per_gpu);
    } else {
      REQUIRE(c.fsdp == FsdpMode::full_shard);
    }
    memory[{c.tensor_parallel, c.data_parallel}][group] = c.memory_bytes_per_gpu;
  }
  using Groups = std::vector<std::int64_t>;
  const auto groups_of = [&](std::int64_t tp, std::int64_t dp) {
    Groups out;
    for (const auto& [group, bytes] : memory[{tp, dp}]) out.push_back(group);
    return out;
  };
  CHECK(groups_of(1, 32) == Groups{8, 16, 32});
  CHECK(groups_of(2, 16) == Groups{4, 8, 16});
  CHECK(groups_of(8, 4) == Groups{2, 4});
  // Each doubling of the group shards the parameters, gradients and optimizer states over twice the
  // ranks: less memory per GPU, down to FULL_SHARD over all of them.
  for (const auto& [layout, by_group] : memory) {
    std::int64_t previous = std::numeric_limits<std::int64_t>::max();
    for (const auto& [group, bytes] : by_group) {
      CHECK(bytes < previous);
      previous = bytes;
    }
  }
}

TEST_CASE("training options: the network each GPU has to other nodes") {
  const TrainingRequest given = parse_training_options({{"gpu", "h100-sxm-80gb"}, {"network_gb_per_s", "12.5"}});
  CHECK(given.network_bytes_per_second_per_gpu == 12.5e9);
  CHECK(training_assumptions(given, *given.gpu).communication.inter_node_bytes_per_second_per_gpu == 12.5e9);
  // Not given: a 400 Gb/s NIC per GPU, 50 GB/s.
  const TrainingRequest plain = parse_training_options({{"gpu", "h100-sxm-80gb"}});
  CHECK(training_assumptions(plain, *plain.gpu).communication.inter_node_bytes_per_second_per_gpu == 50e9);
  std::string refused;
  try {
    parse_training_options({{"network_gb_per_s", "0"}});
  } catch (const OptionError& error) {
    refused = error.option();
  }
  CHECK(refused == "network_gb_per_s");
  // The planner takes it as the run's option and reports what it timed with.
  const std::string json =
      training_plan_report_json(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"),
                                {{"gpus", "h100-sxm-80gb"}, {"max_gpus", "2"}, {"network_gb_per_s", "12.5"}});
  CHECK(json.find("\"network_gb_per_s\":12.5") != std::string::npos);
}

TEST_CASE("framework parallelism: what a layout asks beyond the framework is named with its source") {
  TrainingWorkload w;
  w.layout = {2, 1, 1, 4};  // tp 2
  w.framework = TrainingFramework::torchtune;
  CHECK(framework_parallelism_gap(w).empty());
  w.lora.rank = 8;  // torchtune's LoRA recipe asserts tensor_parallel_dim 1
  const std::string lora = framework_parallelism_gap(w);
  CHECK(lora.rfind("torchtune recipes does not run tp 2 with LoRA (", 0) == 0);
  CHECK(lora.find("lora_finetune_distributed.py") != std::string::npos);
  w.lora.rank = 0;
  w.framework = TrainingFramework::hf;
  w.layout = {8, 16, 1, 4};
  w.context_parallel = 2;
  CHECK(framework_parallelism_gap(w).rfind("Hugging Face Trainer / Accelerate + PEFT does not run pp 16 (", 0) == 0);
  w.framework = TrainingFramework::litgpt;
  CHECK(framework_parallelism_gap(w).rfind("LitGPT (Lightning Fabric) does not run tp 8, pp 16, cp 2 (", 0) == 0);
  w.fsdp = FsdpMode::hybrid_shard;  // its fine-tuning scripts run FSDPStrategy's FULL_SHARD
  CHECK(framework_parallelism_gap(w).find("cp 2, FSDP HYBRID_SHARD (") != std::string::npos);
  w.framework = TrainingFramework::torchtune;  // data_parallel_replicate_dim
  CHECK(framework_parallelism_gap(w).find("HYBRID_SHARD") == std::string::npos);
  w.fsdp = FsdpMode::off;
  w.framework = TrainingFramework::deepspeed;
  w.zero_stage = 2;
  CHECK(framework_parallelism_gap(w).find("ZeRO 2 with pp 16") != std::string::npos);
  w.zero_stage = 1;
  CHECK(framework_parallelism_gap(w).empty());
  w.framework = TrainingFramework::megatron;
  w.zero_stage = 3;
  w.layout.expert_parallel = 2;
  CHECK(framework_parallelism_gap(w).empty());
  // torchtitan and AutoModel run every parallelism but shard with FSDP: a ZeRO stage is named.
  for (auto framework : {TrainingFramework::torchtitan, TrainingFramework::automodel}) {
    w.framework = framework;
    w.zero_stage = 3;
    w.fsdp = FsdpMode::off;
    CHECK(framework_parallelism_gap(w).find("does not run ZeRO 3 (it shards with --fsdp) (") != std::string::npos);
    w.zero_stage = 0;
    w.fsdp = FsdpMode::full_shard;
    CHECK(framework_parallelism_gap(w).empty());
  }
  w.fsdp = FsdpMode::off;
  // The training report names the gap beside the framework, and still computes the layout.
  const ModelDescription model = llama_8b();
  TrainingWorkload hf;
  hf.framework = TrainingFramework::hf;
  hf.layout = {1, 2, 1, 1};
  const TrainingMemory memory = training_memory(model, weight_tensors(model), hf);
  CHECK(std::any_of(memory.assumptions.begin(), memory.assumptions.end(), [](const std::string& a) {
    return a.rfind("layout: Hugging Face Trainer / Accelerate + PEFT does not run pp 2 (", 0) == 0;
  }));
}

TEST_CASE("training planner: every layout fits, fills the global batch and matches fitcheck train") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  const TrainingPlanRequest request = small_llama_request();
  const TrainingPlan plan = plan_training(model, tensors, request);
  REQUIRE(plan.feasible > 0);
  REQUIRE(!plan.best.empty());
  CHECK(plan.best.size() <= std::min<std::size_t>(request.keep, static_cast<std::size_t>(plan.feasible)));
  for (const auto& c : plan.best) {
    const TrainingRequest training = training_request_of(c, request);
    CHECK(training_memory(model, tensors, training.workload).totals.total_bytes_per_gpu == c.memory_bytes_per_gpu);
    CHECK(c.memory_bytes_per_gpu <= c.budget_bytes_per_gpu);
    CHECK(c.data_parallel * c.micro_batch_size * c.gradient_accumulation_steps * 4096 == request.global_batch_tokens);
    CHECK(c.gradient_accumulation_steps >= c.pipeline_parallel);
    CHECK(c.gpus == c.tensor_parallel * c.pipeline_parallel * c.context_parallel * c.data_parallel);
    CHECK(c.gpus <= request.max_gpus);
    CHECK(c.tensor_parallel * c.context_parallel <= request.gpus[c.gpu]->gpus_per_node);
  }
  // The first layouts' step times are those `fitcheck train` reports for the same flags.
  for (std::size_t i = 0; i < 3; ++i) {
    const TrainingPlanCandidate& c = plan.best[i];
    const TrainingEstimate train = estimate_training(model, tensors, training_request_of(c, request));
    CHECK(train.memory.totals.total_bytes_per_gpu == c.memory_bytes_per_gpu);
    REQUIRE(train.time);
    CHECK(train.time->explained.time.step_seconds == doctest::Approx(c.step_seconds).epsilon(1e-12));
    CHECK(train.time->explained.time.train_cost_usd == doctest::Approx(c.train_cost_usd).epsilon(1e-12));
  }
}

TEST_CASE("training planner: a higher ZeRO stage that only saves memory is not listed again") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  TrainingPlanRequest request = small_llama_request();
  request.base.workload.framework = TrainingFramework::megatron;  // ZeRO's stages (torchtitan's are FSDP's)
  request.zero_stages = {1, 2, 3};
  request.keep = 100000;
  const TrainingPlan plan = plan_training(model, tensors, request);
  REQUIRE(!plan.best.empty());
  // No two listed rows differ only in the ZeRO stage at the same step time.
  const auto same_run = [](const TrainingPlanCandidate& a, const TrainingPlanCandidate& b) {
    return a.gpu == b.gpu && a.tensor_parallel == b.tensor_parallel && a.pipeline_parallel == b.pipeline_parallel &&
           a.data_parallel == b.data_parallel && a.context_parallel == b.context_parallel &&
           a.micro_batch_size == b.micro_batch_size && a.recompute == b.recompute &&
           a.virtual_pipeline_stages == b.virtual_pipeline_stages && a.step_seconds == b.step_seconds;
  };
  for (std::size_t i = 0; i < plan.best.size(); ++i)
    for (std::size_t j = i + 1; j < plan.best.size(); ++j) CHECK_FALSE(same_run(plan.best[i], plan.best[j]));
  // Each layout left out is counted in a note: feasible counts every run that fits.
  const auto left_out = plan.feasible - static_cast<std::int64_t>(plan.best.size());
  REQUIRE(left_out > 0);
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].rfind(std::to_string(left_out) + " layouts that fit are not listed", 0) == 0);
  // The stage kept is the lowest that fits: with ZeRO-1 also tried alone, every listed ZeRO-2 or 3
  // run is one whose ZeRO-1 run did not fit or ran at another step time.
  TrainingPlanRequest first_only = request;
  first_only.zero_stages = {1};
  const TrainingPlan stage_one = plan_training(model, tensors, first_only);
  for (const auto& c : plan.best) {
    if (c.zero_stage == 1) continue;
    for (const auto& one : stage_one.best) CHECK_FALSE(same_run(c, one));
  }
}

TEST_CASE("training planner: the ranking is monotone in each objective; the frontier is undominated") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  for (auto objective : {TrainingPlanObjective::shortest_time, TrainingPlanObjective::highest_throughput,
                         TrainingPlanObjective::lowest_cost, TrainingPlanObjective::fewest_gpus}) {
    TrainingPlanRequest request = small_llama_request();
    request.objective = objective;
    request.keep = 30;
    const TrainingPlan plan = plan_training(model, tensors, request);
    REQUIRE(plan.best.size() == 30);
    for (std::size_t i = 1; i < plan.best.size(); ++i) {
      const auto &a = plan.best[i - 1], &b = plan.best[i];
      if (objective == TrainingPlanObjective::shortest_time) CHECK(a.train_seconds <= b.train_seconds);
      if (objective == TrainingPlanObjective::highest_throughput) CHECK(a.tokens_per_second >= b.tokens_per_second);
      if (objective == TrainingPlanObjective::lowest_cost) CHECK(a.train_cost_usd <= b.train_cost_usd);
      if (objective == TrainingPlanObjective::fewest_gpus) CHECK(a.gpus <= b.gpus);
    }
    for (const auto& f : plan.frontier)
      for (const auto& c : plan.best)
        CHECK_FALSE((c.train_seconds < f.train_seconds && c.train_cost_usd < f.train_cost_usd));
  }
}

TEST_CASE("training planner: more GPUs available never lengthen the best time to train") {
  const ModelDescription model = llama_8b();
  const auto tensors = weight_tensors(model);
  double previous = 0;
  for (std::int64_t available : {1, 2, 4, 8, 16, 32}) {
    TrainingPlanRequest request = small_llama_request();
    request.gpus = {find_accelerator("h100-sxm-80gb")};
    request.max_gpus = available;
    request.keep = 1;
    const TrainingPlan plan = plan_training(model, tensors, request);
    if (plan.best.empty()) continue;  // 8B with AdamW does not fit one 80 GB GPU
    if (previous > 0) CHECK(plan.best.front().train_seconds <= previous);
    previous = plan.best.front().train_seconds;
  }
  CHECK(previous > 0);
}

TEST_CASE("training planner options: errors name the option") {
  auto field_of = [](const OptionList& options) {
    try {
      parse_training_plan_options(options);
    } catch (const OptionError& error) {
      return error.option();
    }
    return std::string("no error");
  };
  CHECK(field_of({{"tp", "2"}}) == "tp");  // searched by the planner
  CHECK(field_of({{"gpus", "h100-sxm-80gb,nope"}}) == "gpus");
  CHECK(field_of({{"zero_stages", "0,4"}}) == "zero_stages");
  CHECK(field_of({{"recompute_modes", "some"}}) == "recompute_modes");
  CHECK(field_of({{"objective", "fastest"}}) == "objective");
  CHECK(field_of({{"virtual_stages", "1,0"}}) == "virtual_stages");
  CHECK(field_of({{"virtual_stages", "two"}}) == "virtual_stages");
  CHECK(parse_training_plan_options({{"virtual_stages", "4,1,2,1"}}).virtual_stages ==
        std::vector<std::int64_t>{4, 1, 2});
  CHECK(field_of({{"optimizer", "adam9"}}) == "optimizer");
  const TrainingPlanRequest request =
      parse_training_plan_options({{"seq_len", "4096"}, {"global_batch_tokens", "6000"}});
  const ModelDescription model = llama_8b();
  try {
    plan_training(model, weight_tensors(model), request);
    FAIL("a global batch of 6000 tokens is not a whole number of 4096-token sequences");
  } catch (const OptionError& error) {
    CHECK(error.option() == "global_batch_tokens");
  }
}

TEST_CASE("training planner: LoRA options no layout can make valid are refused before the search") {
  // Without this, every candidate failed alone and the plan came back empty, with no reason.
  const std::string config = test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json");
  const auto refused = [&](const std::vector<std::pair<std::string, std::string>>& options) {
    try {
      training_plan_report_json(config, options);
    } catch (const OptionError& error) {
      return error.option();
    }
    return std::string("accepted");
  };
  CHECK(refused({{"gpus", "h100-sxm-80gb"}, {"max_gpus", "2"}, {"lora_dropout", "true"}}) == "lora_dropout");
  CHECK(refused({{"gpus", "h100-sxm-80gb"},
                 {"max_gpus", "2"},
                 {"lora_rank", "8"},
                 {"dora", "true"},
                 {"framework", "litgpt"}}) == "dora");
  CHECK(refused({{"gpus", "h100-sxm-80gb"}, {"max_gpus", "2"}, {"lora_rank", "8"}, {"dora", "true"}}) == "accepted");
}
