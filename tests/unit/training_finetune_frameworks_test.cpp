// SPDX-License-Identifier: MIT
// The torchtune and LitGPT profiles (docs/frameworks-training.md §11): their losses, gradients
// allocated during backward, the optimizer step in backward, activation offloading, adapter dtype
// and paged optimizer states. Hand figures use Llama 3.1 8B's published shapes: hidden 4096, 32
// heads of 128, 8 KV heads, FFN 14336, vocab 128256, 32 layers, 8,030,261,248 parameters.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/plan_options.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_request.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

const char* kLlama8b = "meta-llama--Llama-3.1-8B.json";

ModelDescription llama8b() { return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + kLlama8b)); }

// 1024 tokens of one sequence; the global batch left at its default (4 Mi tokens: accumulation).
TrainingWorkload workload(TrainingFramework framework) {
  TrainingWorkload w;
  w.framework = framework;
  w.sequence_tokens = 1024;
  w.micro_batch_size = 1;
  return w;
}

std::int64_t term_bytes(const TrainingMemory& m, const std::string& name) {
  for (const auto& t : m.terms)
    if (t.name == name) return t.bytes;
  FAIL("no term named " << name);
  return -1;
}

std::string refused_option(const TrainingWorkload& w) {
  const ModelDescription model = llama8b();
  try {
    training_memory(model, weight_tensors(model), w);
  } catch (const OptionError& error) {
    return error.option();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("torchtitan: training.compile compiles the loss from bbb1b616e on; --eager-loss for earlier commits") {
  // Eager: 12 B per logit (fp32 log-softmax, nll gradient and log-softmax gradient); compiled: the
  // bf16 logits kept for the fused backward and their bf16 gradient, 4 B. Over 1024 x 128256 =
  // 131,334,144 logits: (12 - 4) x 131,334,144 = 1,050,673,152 B less.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  const auto activations = [&](const TrainingWorkload& w) {
    return training_memory(model, tensors, w).totals.activation_bytes;
  };
  TrainingWorkload titan = workload(TrainingFramework::torchtitan);
  const std::int64_t eager = activations(titan);
  titan.compile = true;
  CHECK(eager - activations(titan) == 1'050'673'152);
  titan.eager_loss = true;
  CHECK(activations(titan) == eager);
  CHECK(parse_training_options({{"compile", "true"}, {"eager_loss", "true"}}).workload.eager_loss);
  CHECK_FALSE(parse_training_options({{"compile", "true"}}).workload.eager_loss);
  CHECK(parse_training_plan_options({{"compile", "true"}, {"eager_loss", "true"}}).base.workload.eager_loss);
}

TEST_CASE("torchtune and LitGPT: the loss bytes their sources hold, chunked and compiled") {
  // 1024 tokens x 128256 vocab = 131,334,144 logits. Megatron holds 6 B per logit.
  // torchtune, not compiled: 6 B (bf16 chunks + fp32 log-softmax) and the fp32 upcast of one of 8
  // chunks: 128 tokens x 128256 x 4 B = 65,667,072 B more than Megatron.
  // torchtune, compiled: 2 B and one chunk's bf16 gradient: (6 - 2) x 131,334,144 - 128 x 128256 x 2
  // = 525,336,576 - 32,833,536 = 492,503,040 B less than Megatron.
  // LitGPT: full.py 6 B, as Megatron; lora.py 4 B. LitGPT's model code keeps more per token and
  // layer than the generic count: both RMSNorms keep their fp32 input and (the weight trains) the
  // fp32 normalized output, 8 B instead of 2: 6 x 2 x 4096 = 49,152 B; k and v expanded from 8 to
  // 32 heads: 2 x 24 x 128 x 2 B = 12,288 B; silu(fc_1) kept for the product: 14336 x 2 B = 28,672
  // B; SDPA's output kept beside the reshaped copy proj reads: 4096 x 2 B = 8,192 B. 98,304 B x
  // 1024 tokens x 32 layers = 3,221,225,472 B, and the final norm 6 x 4096 x 1024 = 25,165,824 B:
  // 3,246,391,296 B over Megatron.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  const auto activations = [&](const TrainingWorkload& w) {
    return training_memory(model, tensors, w).totals.activation_bytes;
  };
  const std::int64_t megatron = activations(workload(TrainingFramework::megatron));
  TrainingWorkload tune = workload(TrainingFramework::torchtune);
  CHECK(activations(tune) - megatron == 65'667'072);
  tune.compile = true;
  CHECK(megatron - activations(tune) == 492'503'040);
  CHECK(activations(workload(TrainingFramework::litgpt)) - megatron == 3'246'391'296);
  TrainingWorkload megatron_compiled = workload(TrainingFramework::megatron);
  megatron_compiled.compile = true;  // compile changes no other profile's loss
  CHECK(activations(megatron_compiled) == megatron);

  // LoRA on q, v: LitGPT 4 B against torchtune's 6 B + the chunk: 2 x 131,334,144 + 65,667,072 =
  // 328,335,360 B less; its model code keeps more: the frozen norms keep only the fp32 input (4 B
  // instead of 2: 2 x 2 x 4096 = 16,384 B), + 12,288 + 28,672 = 57,344 B x 1024 x 32 =
  // 1,879,048,192 B, and the final norm 2 x 4096 x 1024 = 8,388,608 B: 1,887,436,800 B more.
  TrainingWorkload lit_lora = workload(TrainingFramework::litgpt);
  lit_lora.lora.rank = 8;
  lit_lora.lora.target_roles = lora_target_roles("q,v");
  TrainingWorkload tune_lora = lit_lora;
  tune_lora.framework = TrainingFramework::torchtune;
  CHECK(activations(lit_lora) - activations(tune_lora) == 1'887'436'800 - 328'335'360);
}

TEST_CASE("torchtune and LitGPT: gradients allocated during backward overlap the activations") {
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::torchtune);
  w.global_batch_tokens = 1024;  // one micro-batch per optimizer step
  const TrainingMemoryTotals one = training_memory(model, tensors, w).totals;
  // bf16 gradients of every parameter: 8,030,261,248 x 2 B; far more than 1024 tokens' activations.
  CHECK(one.gradient_bytes == 16'060'522'496);
  REQUIRE(one.activation_bytes < one.gradient_bytes);
  CHECK(one.backward_overlap_bytes == one.activation_bytes);
  CHECK(one.allocated_bytes_per_gpu ==
        one.weight_bytes + one.gradient_bytes + one.optimizer_bytes + one.communication_bytes + one.overhead_bytes);
  w.global_batch_tokens = 2048;  // two micro-batches: the first one's gradients live through the second forward
  CHECK(training_memory(model, tensors, w).totals.backward_overlap_bytes == 0);
  w.global_batch_tokens = 1024;
  w.framework = TrainingFramework::litgpt;  // its own loss, the same rule
  const TrainingMemoryTotals lit = training_memory(model, tensors, w).totals;
  CHECK(lit.backward_overlap_bytes == lit.activation_bytes);
  w.framework = TrainingFramework::hf;  // the hf profile keeps the sum
  CHECK(training_memory(model, tensors, w).totals.backward_overlap_bytes == 0);
  // The terms still add up to the total: the overlap is a negative line.
  w.framework = TrainingFramework::torchtune;
  const TrainingMemory m = training_memory(model, tensors, w);
  std::int64_t sum = 0;
  for (const auto& t : m.terms) sum += t.bytes;
  CHECK(sum == m.totals.total_bytes_per_gpu);
  CHECK(term_bytes(m, "gradients allocated as activations are freed") == -one.activation_bytes);
}

TEST_CASE("torchtune: the optimizer step in backward keeps one gradient, the largest") {
  // The largest trainable matrix is the embedding (or lm_head): 128256 x 4096 = 525,336,576
  // params x 2 B bf16 = 1,050,673,152 B.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::torchtune);
  w.fp32_master_weights = false;
  w.optimizer_in_backward = true;
  CHECK(training_memory(model, tensors, w).totals.gradient_bytes == 1'050'673'152);
  w.optimizer_in_backward = false;
  CHECK(training_memory(model, tensors, w).totals.gradient_bytes == 16'060'522'496);
  w.optimizer_in_backward = true;
  w.layout.pipeline_parallel = 2;
  CHECK(refused_option(w) == "optimizer_in_backward");
}

TEST_CASE("torchtune: activation offloading moves the checkpointed layer inputs to CPU memory") {
  // Whole-layer recompute keeps 32 layer inputs of 1024 tokens x 4096 x 2 B = 268,435,456 B.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::torchtune);
  w.recompute = Recompute::full;
  const TrainingMemory kept = training_memory(model, tensors, w);
  CHECK(term_bytes(kept, "layer activations") == 268'435'456);
  w.offload_activations = true;
  const TrainingMemory offloaded = training_memory(model, tensors, w);
  CHECK(term_bytes(offloaded, "layer activations") == 0);
  CHECK(offloaded.totals.cpu_offload_bytes - kept.totals.cpu_offload_bytes == 268'435'456);
  CHECK(kept.totals.activation_bytes - offloaded.totals.activation_bytes == 268'435'456);
  w.recompute = Recompute::none;
  CHECK(refused_option(w) == "offload_activations");
}

TEST_CASE("torchtune and LitGPT: adapters in the model's bf16, PEFT's in fp32") {
  // LoRA r8 on q and v: q 8 x (4096 + 4096) + v 8 x (4096 + 1024) = 106,496 params per layer,
  // x 32 layers = 3,407,872 params: 6,815,744 B in bf16, 13,631,488 B in fp32.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::torchtune);
  w.lora.rank = 8;
  w.lora.target_roles = lora_target_roles("q,v");
  CHECK(term_bytes(training_memory(model, tensors, w), "LoRA adapters (rank 8)") == 6'815'744);
  CHECK(term_bytes(training_memory(model, tensors, w), "adapter gradients") == 6'815'744);
  w.framework = TrainingFramework::litgpt;
  CHECK(term_bytes(training_memory(model, tensors, w), "LoRA adapters (rank 8)") == 6'815'744);
  w.framework = TrainingFramework::hf;
  CHECK(term_bytes(training_memory(model, tensors, w), "LoRA adapters (rank 8)") == 13'631'488);
}

TEST_CASE("paged optimizer states live outside PyTorch's allocator") {
  // AdamW8bit: two 1-byte states per parameter plus block statistics, all off the GPU total.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::torchtune);
  w.fp32_master_weights = false;
  w.optimizer = OptimizerKind::adam_8bit;
  const TrainingMemoryTotals resident = training_memory(model, tensors, w).totals;
  CHECK(resident.optimizer_bytes >= 2 * std::int64_t{8'030'261'248});
  w.paged_optimizer = true;
  const TrainingMemoryTotals paged = training_memory(model, tensors, w).totals;
  CHECK(paged.optimizer_bytes == 0);
  CHECK(paged.cpu_offload_bytes - resident.cpu_offload_bytes == resident.optimizer_bytes);
  w.optimizer = OptimizerKind::sgd;
  CHECK(refused_option(w) == "paged_optimizer");
}

TEST_CASE("torchtune and LitGPT: options and the JSON report") {
  const auto parse = [](OptionList options) { return parse_training_options(options).workload; };
  CHECK(parse({{"framework", "torchtune"}}).framework == TrainingFramework::torchtune);
  CHECK(parse({{"framework", "LitGPT"}}).framework == TrainingFramework::litgpt);
  CHECK(parse({{"framework", "lit-gpt"}}).framework == TrainingFramework::litgpt);
  CHECK_FALSE(parse({{"framework", "torchtune"}}).fp32_gradients);
  CHECK(parse({{"recompute", "activation-checkpointing"}}).recompute == Recompute::full);
  const TrainingWorkload flags = parse({{"recompute", "full"},
                                        {"optimizer_in_backward", "true"},
                                        {"offload_activations", "true"},
                                        {"compile", "true"},
                                        {"paged_optimizer", "true"}});
  CHECK(flags.optimizer_in_backward);
  CHECK(flags.offload_activations);
  CHECK(flags.compile);
  CHECK(flags.paged_optimizer);
  // The training planner hands compile and the paged optimizer to the same parser.
  const TrainingPlanRequest plan = parse_training_plan_options(
      {{"framework", "torchtune"}, {"compile", "true"}, {"paged_optimizer", "true"}, {"optimizer", "adam8bit"}});
  CHECK(plan.base.workload.framework == TrainingFramework::torchtune);
  CHECK(plan.base.workload.compile);
  CHECK(plan.base.workload.paged_optimizer);
  // QLoRA turns on PEFT's gradient checkpointing under hf only.
  CHECK(parse({{"framework", "torchtune"}, {"lora_rank", "8"}, {"qlora", "true"}}).recompute == Recompute::none);

  const auto result = test::run_cli("train " + test::fixture_configs_dir() + "/" + kLlama8b +
                                    " --framework torchtune --recompute activation-checkpointing --seq-len 1024 "
                                    "--optimizer-in-backward --offload-activations --compile --master-weights none "
                                    "--global-batch-tokens 1024 --json");
  REQUIRE(result.exit_status == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["framework"] == "torchtune");
  CHECK(report["memory_statistic"] == "allocated");
  CHECK(report["workload"]["optimizer_in_backward"] == true);
  CHECK(report["workload"]["offload_activations"] == true);
  CHECK(report["workload"]["compile"] == true);
  CHECK(report["gradient_bytes"] == 1'050'673'152);
  // The one gradient the optimizer step in backward keeps is the lm_head's, made at the start of
  // backward beside every activation: no overlap. Without it, one micro-batch per step overlaps.
  CHECK(report["backward_overlap_bytes"] == 0);
  const auto plain = test::run_cli("train " + test::fixture_configs_dir() + "/" + kLlama8b +
                                   " --framework torchtune --seq-len 1024 --master-weights none "
                                   "--global-batch-tokens 1024 --json");
  REQUIRE(plain.exit_status == 0);
  const auto plain_report = nlohmann::json::parse(plain.out);
  const std::int64_t gradients = plain_report["gradient_bytes"], activations = plain_report["activation_bytes"];
  CHECK(plain_report["backward_overlap_bytes"] == std::min(gradients, activations));
}

TEST_CASE("LitGPT QLoRA: every Linear in NF4 without double quantization, the lm_head included") {
  // Llama 3.1 8B per layer: q and o 4096 x 4096 = 16,777,216; k and v 1024 x 4096 = 4,194,304;
  // gate, up, down 14336 x 4096 = 58,720,256. NF4 with compress_statistics=False: n/2 packed bytes
  // + one fp32 absmax per 64 weights + the 16-entry fp32 code (64 B):
  //   q, o:  8,388,608 + 262,144 x 4 + 64 = 9,437,248
  //   k, v:  2,097,152 +  65,536 x 4 + 64 = 2,359,360
  //   mlp:  29,360,128 + 917,504 x 4 + 64 = 33,030,208
  //   layer: 2 x 9,437,248 + 2 x 2,359,360 + 3 x 33,030,208 = 122,683,840; x 32 = 3,925,882,880.
  // lm_head 128256 x 4096 = 525,336,576: 262,668,288 + 8,208,384 x 4 + 64 = 295,501,888.
  // bf16: the embedding 525,336,576 x 2 = 1,050,673,152 and 266,240 norm weights x 2 = 532,480.
  // Total 3,925,882,880 + 295,501,888 + 1,050,673,152 + 532,480 = 5,272,590,400 B.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::litgpt);
  w.lora.rank = 8;
  w.lora.target_roles = lora_target_roles("q,v");
  w.lora.qlora = true;
  const TrainingMemory lit = training_memory(model, tensors, w);
  CHECK(term_bytes(lit, "frozen base weights") == 5'272'590'400);
  // The lm_head is the largest quantized matrix; the float16 dequantized copy and its bf16 cast
  // are alive together: 525,336,576 x (2 + 2) B.
  CHECK(term_bytes(lit, "dequantized weight workspace") == 2'101'346'304);
  // Hugging Face's bitsandbytes path keeps lm_head bf16, double-quantizes and casts once: the
  // largest quantized matrix is an MLP matrix, 58,720,256 x 2 B.
  w.framework = TrainingFramework::hf;
  CHECK(term_bytes(training_memory(model, tensors, w), "dequantized weight workspace") == 117'440'512);
}

TEST_CASE("LitGPT QLoRA: bitsandbytes' MatMul4Bit keeps the input of every quantized matmul") {
  // LoRA r8 on q and v, no dropout, 1024 tokens. bf16 LoRA keeps the q/k/v input (adapters read
  // it) and the attention output (flash attention); QLoRA adds per layer the output projection's
  // input (LitGPT's reshaped copy of the attention output, 4096 x 2 B), the MLP input (4096 x 2 B)
  // and the down-projection input (14336 x 2 B) = 45,056 B per token, x 1024 x 32 layers =
  // 1,476,395,008 B, and the lm_head input 1024 x 4096 x 2 B = 8,388,608 B: 1,484,783,616 B.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::litgpt);
  w.lora.rank = 8;
  w.lora.target_roles = lora_target_roles("q,v");
  const std::int64_t lora = training_memory(model, tensors, w).totals.activation_bytes;
  w.lora.qlora = true;
  const TrainingMemory qlora = training_memory(model, tensors, w);
  CHECK(qlora.totals.activation_bytes - lora == 1'484'783'616);
  CHECK(term_bytes(qlora, "lm_head input") == 8'388'608);
  // With LoRA dropout the adapters read their own dropped copies, yet the quantized matmuls still
  // keep theirs: the q/k/v input (4096 x 2 B) comes back too.
  w.lora.dropout = true;
  const std::int64_t dropped = training_memory(model, tensors, w).totals.activation_bytes;
  w.lora.qlora = false;
  const std::int64_t dropped_lora = training_memory(model, tensors, w).totals.activation_bytes;
  // bf16 LoRA with dropout keeps the attention output for flash attention and no matmul input;
  // QLoRA keeps q/k/v, output projection, MLP and down inputs: (4096 + 4096 + 4096 + 14336) x 2 B
  // = 53,248 B per token, x 1024 x 32 = 1,744,830,464, + the lm_head input 8,388,608 =
  // 1,753,219,072 B.
  CHECK(dropped - dropped_lora == 1'753'219'072);
}

TEST_CASE("LitGPT: the output head stays apart from a tied embedding") {
  // Llama 3.2 1B ties lm_head to the 128256 x 2048 embedding; LitGPT's GPT holds a copy:
  // 262,668,288 more parameters. LoRA: bf16 base 525,336,576 B more than torchtune's. Full
  // fine-tuning in pure bf16: weights 2 B + gradients 2 B + AdamW states 2 x 2 B = 8 B per
  // parameter, 2,101,346,304 B more.
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.2-1B-Instruct.json"));
  REQUIRE(model.tie_word_embeddings);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::litgpt);
  w.fp32_master_weights = false;
  const TrainingMemory lit_full = training_memory(model, tensors, w);
  w.framework = TrainingFramework::torchtune;
  const TrainingMemory tune_full = training_memory(model, tensors, w);
  CHECK(lit_full.total_parameters - tune_full.total_parameters == 262'668'288);
  const auto states = [](const TrainingMemoryTotals& t) {
    return t.weight_bytes + t.gradient_bytes + t.optimizer_bytes;
  };
  CHECK(states(lit_full.totals) - states(tune_full.totals) == 2'101'346'304);
  w.lora.rank = 8;
  w.lora.target_roles = lora_target_roles("q,v");
  const std::int64_t tune_base = term_bytes(training_memory(model, tensors, w), "frozen base weights");
  w.framework = TrainingFramework::litgpt;
  CHECK(term_bytes(training_memory(model, tensors, w), "frozen base weights") - tune_base == 525'336'576);
}

TEST_CASE("LitGPT: LoRA on q and v reads one dropped copy of the attention input") {
  // LoRAQKVLinear holds one lora_A for the adapted q/k/v and feeds it one dropped input: per token
  // 4096 x (2 B + 1 B mask) = 12,288 B, x 1024 tokens = 12,582,912 B per layer. torchtune's (and
  // PEFT's) separate q and v adapters drop the input twice: 25,165,824 B.
  const ModelDescription model = llama8b();
  const auto tensors = weight_tensors(model);
  const auto dropout_bytes = [&](const TrainingWorkload& w) -> std::int64_t {
    for (const auto& t : training_memory(model, tensors, w).layer_activation_terms)
      if (t.name == "LoRA dropout (dropped inputs and masks)") return t.bytes;
    return -1;
  };
  TrainingWorkload w = workload(TrainingFramework::litgpt);
  w.lora.rank = 8;
  w.lora.target_roles = lora_target_roles("q,v");
  w.lora.dropout = true;
  CHECK(dropout_bytes(w) == 12'582'912);
  w.framework = TrainingFramework::torchtune;
  CHECK(dropout_bytes(w) == 25'165'824);
}

TEST_CASE("DoRA: PEFT's magnitude vectors and the outputs kept for their gradient") {
  // PEFT's MetaMathQA benchmark, Llama-3.2-3B with DoRA r32 on q_proj and v_proj
  // (huggingface/peft 51c2ff66 method_comparison/MetaMathQA/results/lora--llama-3.2-3B-rank32-dora.json):
  // num_trainable_params 9,289,728 and num_total_params 3,222,039,552. LoRA alone trains
  // 9,175,040 (lora--llama-3.2-3B-rank32.json); the magnitudes add (3072 + 1024) x 28 layers.
  const ModelDescription model =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.2-3B.json"));
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = workload(TrainingFramework::hf);
  w.micro_batch_size = 4;
  w.sequence_tokens = 768;
  w.lora.rank = 32;
  w.lora.target_roles = lora_target_roles("q,v");
  const TrainingMemory lora = training_memory(model, tensors, w);
  CHECK(lora.trainable_parameters == 9'175'040);
  w.lora.dora = true;
  const TrainingMemory dora = training_memory(model, tensors, w);
  CHECK(dora.trainable_parameters == 9'289'728);
  CHECK(dora.total_parameters + dora.trainable_parameters == 3'222'039'552);
  // Per layer the base outputs (bf16, 2 B) and the fp32 adapter outputs (4 B) of q (3072 wide)
  // and v (1024): 3072 tokens x 4096 x 6 B = 75,497,472 B, x 28 layers = 2,113,929,216 B. The
  // benchmark's peaks differ by 2,239,758,336 B (24,532,484,096 - 22,292,725,760).
  CHECK(dora.totals.activation_bytes - lora.totals.activation_bytes == 2'113'929'216);
  // torchtune's DoRALinear keeps the same two outputs in bf16: 4 B per output feature.
  w.framework = TrainingFramework::torchtune;
  const std::int64_t tune_dora = training_memory(model, tensors, w).totals.activation_bytes;
  w.lora.dora = false;
  CHECK(tune_dora - training_memory(model, tensors, w).totals.activation_bytes == 1'409'286'144);
}

TEST_CASE("DoRA: refused without adapters and where the framework has no DoRA rule") {
  TrainingWorkload w = workload(TrainingFramework::hf);
  w.lora.dora = true;
  CHECK(refused_option(w) == "dora");
  w.lora.rank = 8;
  CHECK(refused_option(w) == "accepted");
  w.framework = TrainingFramework::litgpt;
  CHECK(refused_option(w) == "dora");
  w.framework = TrainingFramework::megatron;
  CHECK(refused_option(w) == "dora");
}
