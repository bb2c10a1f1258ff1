// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../../cli/train_command.hpp"
#include "fitcheck/config.hpp"
#include "fitcheck/plan_options.hpp"
#include "fitcheck/training_memory.hpp"
#include "fitcheck/training_request.hpp"
#include "placement/sharding.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::int64_t model_states(const TrainingMemory& m) {
  return m.totals.weight_bytes + m.totals.gradient_bytes + m.totals.optimizer_bytes;
}

std::int64_t term_bytes(const std::vector<MemoryTerm>& terms, const std::string& name) {
  for (const auto& t : terms)
    if (t.name == name) return t.bytes;
  FAIL("no term named " << name);
  return -1;
}

// GPT-3 175B layer shapes (Brown et al. 2020, Table 2.1): h 12288, 96 heads of 128, 4h MLP, LayerNorm.
ModelDescription gpt3(std::int64_t layers) {
  ModelDescription m;
  m.model_type = "gpt3";
  m.hidden_size = 12288;
  m.vocab_size = 51200;
  m.num_layers = layers;
  m.norm = NormKind::layer_norm;
  m.position_encoding = PositionEncoding::learned_absolute;
  m.learned_position_count = 2048;
  LayerShape layer;
  layer.attention.num_heads = 96;
  layer.attention.num_kv_heads = 96;
  layer.attention.head_dim = 128;
  layer.attention.value_head_dim = 128;
  layer.attention.qkv_bias = layer.attention.output_bias = true;
  layer.mlp = {49152, false, true};
  layer.layer_count = layers;
  m.layer_kinds = {layer};
  m.layer_kind_of_layer.assign(static_cast<std::size_t>(layers), 0);
  return m;
}

// Korthikanti et al. 2022's setting: 16-bit activations, dropout, attention scores kept, s 2048, b 1.
TrainingWorkload korthikanti(std::int64_t tp, bool sp, Recompute recompute) {
  TrainingWorkload w;
  w.sequence_tokens = 2048;
  w.micro_batch_size = 1;
  w.dropout = true;
  w.flash_attention = false;
  w.layout.tensor_parallel = tp;
  w.sequence_parallel = sp;
  w.recompute = recompute;
  return w;
}

const char* kTinyLlama = "TinyLlama--TinyLlama-1.1B-Chat-v1.0.json";

}  // namespace

TEST_CASE("mixed-precision Adam costs 16 bytes per parameter at ZeRO-0 (ZeRO paper §3.1: 2 + 2 + 12)") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const TrainingMemory m = training_memory(model, weight_tensors(model), TrainingWorkload{});
  // 1,100,048,384 params: weights 2 B, gradients 2 B, fp32 master 4 B + two fp32 moments 8 B.
  CHECK(m.totals.weight_bytes == 2'200'096'768);
  CHECK(m.totals.gradient_bytes == 2'200'096'768);
  CHECK(m.totals.master_weight_bytes == 4'400'193'536);
  CHECK(m.totals.optimizer_bytes == 13'200'580'608);
  CHECK(model_states(m) == 17'600'774'144);
  CHECK(m.model_state_bytes_per_parameter == doctest::Approx(16.0));
}

TEST_CASE("ZeRO Figure 1: 7.5B parameters on 64 GPUs, K = 12") {
  // A stand-in model with exactly 7.5e9 parameters: 30 layers of one 10000 x 25000 matrix.
  ModelDescription model = gpt3(30);
  std::vector<WeightTensor> tensors;
  for (int l = 0; l < 30; ++l) tensors.push_back({TensorRole::mlp_up, ParameterGroup::mlp, l, 10000, 25000, 1});
  TrainingWorkload w;
  w.layout.data_parallel = 64;
  // Rajbhandari et al. 2020, Figure 1: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB (decimal GB, one decimal).
  // Exact: 16 x 7.5e9; 4 x 7.5e9 + 12 x 7.5e9 / 64; 2 x 7.5e9 + 14 x 7.5e9 / 64; 16 x 7.5e9 / 64.
  // Against the printed figures: 0, +0.02 %, +0.24 %, -1.3 %, all the rounding to one decimal;
  // tolerance 3 % relative.
  const std::int64_t exact[] = {120'000'000'000, 31'406'250'000, 16'640'625'000, 1'875'000'000};
  const double published_gb[] = {120.0, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    w.zero_stage = stage;
    const TrainingMemory m = training_memory(model, tensors, w);
    CAPTURE(stage);
    CHECK(model_states(m) == exact[stage]);
    CHECK(static_cast<double>(model_states(m)) / 1e9 == doctest::Approx(published_gb[stage]).epsilon(0.03));
  }
}

TEST_CASE("Korthikanti et al. 2022 Table 2, GPT-3 175B layer, s 2048, b 1, t 8") {
  const ModelDescription model = gpt3(96);
  const LayerShape& layer = model.layer_kinds[0];
  // sbh = 2048 x 12288 = 25,165,824; as^2b = 96 x 2048^2 = 402,653,184.
  // No parallelism: sbh(34 + 5as/h) = 855,638,016 + 2,013,265,920.
  CHECK(layer_activations(model, layer, korthikanti(1, false, Recompute::none)).bytes == 2'868'903'936);
  // Tensor parallel: sbh(10 + 24/t + 5as/(ht)) = 251,658,240 + 75,497,472 + 251,658,240.
  CHECK(layer_activations(model, layer, korthikanti(8, false, Recompute::none)).bytes == 578'813'952);
  // Tensor + sequence parallel: sbh(34/t + 5as/(ht)) = 106,954,752 + 251,658,240.
  CHECK(layer_activations(model, layer, korthikanti(8, true, Recompute::none)).bytes == 358'612'992);
  // Tensor parallel + selective recomputation: sbh(10 + 24/t) = 251,658,240 + 75,497,472.
  CHECK(layer_activations(model, layer, korthikanti(8, false, Recompute::selective)).bytes == 327'155'712);
  // Tensor + sequence parallel + selective: sbh(34/t).
  CHECK(layer_activations(model, layer, korthikanti(8, true, Recompute::selective)).bytes == 106'954'752);
  // Full recomputation: 2sbh; with sequence parallelism 2sbh/t.
  CHECK(layer_activations(model, layer, korthikanti(8, false, Recompute::full)).bytes == 50'331'648);
  CHECK(layer_activations(model, layer, korthikanti(8, true, Recompute::full)).bytes == 6'291'456);
}

TEST_CASE("sequence parallelism through DTensor (torchtitan) keeps the all-gathered block inputs") {
  const ModelDescription model = gpt3(96);
  const LayerShape& layer = model.layer_kinds[0];
  const auto bytes = [&](TrainingFramework framework, bool sp) {
    TrainingWorkload w = korthikanti(8, sp, Recompute::none);
    w.framework = framework;
    return layer_activations(model, layer, w).bytes;
  };
  // Megatron saves the sequence shard of the attention and MLP inputs (Korthikanti §4.2.2):
  // Table 2's sbh(34/t + 5as/(ht)). torchtitan's column-parallel matmuls save the gathered
  // whole: 2 inputs x 2 B x sbh instead of / t, 2 x 2 x 25,165,824 x 7/8 = 88,080,384 B more.
  CHECK(bytes(TrainingFramework::megatron, true) == 358'612'992);
  CHECK(bytes(TrainingFramework::torchtitan, true) - bytes(TrainingFramework::megatron, true) == 88'080'384);
  // Without sequence parallelism both keep the whole inputs on every rank.
  CHECK(bytes(TrainingFramework::torchtitan, false) == bytes(TrainingFramework::megatron, false));
  // The report says so.
  TrainingWorkload w = korthikanti(8, true, Recompute::none);
  w.framework = TrainingFramework::torchtitan;
  const TrainingMemory m = training_memory(model, weight_tensors(model), w);
  bool stated = false;
  for (const std::string& line : m.assumptions)
    stated = stated || line.find("saved block inputs: sequence parallelism through DTensor") == 0;
  CHECK(stated);
  bool gathered = false;
  for (const MemoryTerm& term : m.layer_activation_terms)
    gathered = gathered || (term.name == "q/k/v input (norm output, 2sbh)" &&
                            term.formula ==
                                "2048 tokens x 12288 hidden x 2 B (all-gathered by sequence parallelism) = "
                                "50331648 B");
  CHECK(gathered);
}

TEST_CASE("pipeline schedules: 1F1B first stage holds L layers, interleaved L(1 + (p-1)/(pv))") {
  const ModelDescription model = gpt3(96);
  TrainingWorkload w = korthikanti(8, true, Recompute::selective);  // 106,954,752 B per layer
  w.layout.pipeline_parallel = 8;
  const auto plain = detail::stage_activations(model, w, 0, 12, 0);
  CHECK(plain.in_flight == 8);
  CHECK(term_bytes(plain.terms, "layer activations") == 96 * std::int64_t{106'954'752});
  const auto last = detail::stage_activations(model, w, 84, 96, 7);
  CHECK(last.in_flight == 1);
  // Last stage, Megatron's vocab-parallel loss: b s V/t = 2048 x 6400 logits x 6 B (bf16 logits +
  // one fp32 softmax reused as the gradient) = 78,643,200 B.
  w.framework = TrainingFramework::megatron;
  const auto last_megatron = detail::stage_activations(model, w, 84, 96, 7);
  CHECK(term_bytes(last_megatron.terms, "logits and cross-entropy (megatron loss)") == 78'643'200);
  w.virtual_pipeline_stages = 3;  // 96 x (1 + 7/24) = 124 layers
  const auto interleaved = detail::stage_activations(model, w, 0, 12, 0);
  CHECK(term_bytes(interleaved.terms, "layer activations") == 124 * std::int64_t{106'954'752});
}

TEST_CASE("optimizer state bytes per tensor") {
  TrainingWorkload w;
  const WeightTensor matrix{TensorRole::attention_query, ParameterGroup::attention, 0, 4096, 4096, 1};
  const WeightTensor embedding{TensorRole::token_embedding, ParameterGroup::embedding, -1, 32000, 4096, 1};
  const WeightTensor norm{TensorRole::norm, ParameterGroup::norms, 0, 1, 1000, 1};
  const std::int64_t n = 16'777'216;
  w.optimizer = OptimizerKind::adamw;
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 8 * n);
  w.optimizer = OptimizerKind::adam_8bit;  // 2 x n uint8 + 2 x 4 B x n/2048 blocks
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 2 * n + 8 * 8192);
  CHECK(detail::optimizer_state_bytes(norm, w, 4) == 8000);  // under 4096 elements: 32-bit states
  w.optimizer = OptimizerKind::adafactor;                    // (rows + columns) x 4 B
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 8192 * 4);
  CHECK(detail::optimizer_state_bytes(norm, w, 4) == 4000);
  w.adafactor_first_moment = true;
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 8192 * 4 + 4 * n);
  w.optimizer = OptimizerKind::sgd;
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 0);
  w.optimizer = OptimizerKind::sgd_momentum;
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 4 * n);
  w.optimizer = OptimizerKind::lion;
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 4 * n);
  w.optimizer = OptimizerKind::muon;  // momentum for hidden matrices, AdamW for the embedding
  CHECK(detail::optimizer_state_bytes(matrix, w, 4) == 4 * n);
  CHECK(detail::optimizer_state_bytes(embedding, w, 4) == 8 * 32000 * std::int64_t{4096});
}

TEST_CASE("invariants: ZeRO-3 per-GPU memory never rises with more GPUs") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w;
  w.zero_stage = 3;
  std::int64_t previous = INT64_MAX;
  for (std::int64_t dp : {1, 2, 3, 4, 8, 16, 64, 256}) {
    w.layout.data_parallel = dp;
    const std::int64_t total = training_memory(model, tensors, w).totals.total_bytes_per_gpu;
    CAPTURE(dp);
    CHECK(total <= previous);
    previous = total;
  }
}

TEST_CASE("invariants: memory grows with micro-batch and sequence length") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const auto tensors = weight_tensors(model);
  for (auto recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
    for (bool flash : {true, false}) {
      TrainingWorkload w;
      w.recompute = recompute;
      w.flash_attention = flash;
      w.sequence_tokens = 512;
      std::int64_t previous = 0;
      for (std::int64_t b : {1, 2, 3, 8}) {
        w.micro_batch_size = b;
        const std::int64_t total = training_memory(model, tensors, w).totals.total_bytes_per_gpu;
        CHECK(total > previous);
        previous = total;
      }
      w.micro_batch_size = 1;
      previous = 0;
      for (std::int64_t s : {128, 1000, 2048, 4096}) {
        w.sequence_tokens = s;
        const std::int64_t total = training_memory(model, tensors, w).totals.total_bytes_per_gpu;
        CHECK(total > previous);
        previous = total;
      }
    }
  }
}

TEST_CASE("context parallelism divides the sequence; FSDP FULL_SHARD and ZeRO-3 hold the same states") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w;
  const auto one = layer_activations(model, model.layer_kinds[0], w).bytes;
  w.context_parallel = 2;
  CHECK(layer_activations(model, model.layer_kinds[0], w).bytes * 2 == one);
  TrainingWorkload zero3, fsdp;
  zero3.layout.data_parallel = fsdp.layout.data_parallel = 8;
  zero3.zero_stage = 3;
  fsdp.fsdp = FsdpMode::full_shard;
  zero3.zero3_param_persistence_threshold = 0;
  const TrainingMemory a = training_memory(model, tensors, zero3), b = training_memory(model, tensors, fsdp);
  // ZeRO-3: (2 + 2 + 12) / 8 per parameter; FSDP: (4 fp32 parameters + 4 + 8) / 8.
  CHECK(model_states(a) == model_states(b));
  CHECK(model_states(a) == 2'200'096'768);  // 16 B x 1,100,048,384 / 8
}

TEST_CASE("invariants: the terms add up to the total for every recipe, optimizer and sharding") {
  const ModelDescription model = test::fixture_model("ibm-granite--granite-3.1-1b-a400m-instruct.json");
  const auto tensors = weight_tensors(model);
  std::vector<TrainingWorkload> cases;
  for (auto precision :
       {PrecisionRecipe::fp32, PrecisionRecipe::bf16_mixed, PrecisionRecipe::fp16_mixed, PrecisionRecipe::fp8})
    for (auto optimizer : {OptimizerKind::adamw, OptimizerKind::adam_8bit, OptimizerKind::adafactor, OptimizerKind::sgd,
                           OptimizerKind::sgd_momentum, OptimizerKind::lion, OptimizerKind::muon}) {
      TrainingWorkload w;
      w.precision = precision;
      w.optimizer = optimizer;
      w.layout.data_parallel = 4;
      cases.push_back(w);
    }
  for (int zero = 0; zero <= 3; ++zero)
    for (bool offload : {false, true}) {
      TrainingWorkload w;
      w.layout.data_parallel = 4;
      w.layout.pipeline_parallel = 2;
      w.zero_stage = zero;
      w.offload_optimizer = offload && zero > 0;
      w.offload_params = offload && zero == 3;
      w.lora.rank = zero == 2 ? 8 : 0;
      cases.push_back(w);
    }
  for (auto mode : {FsdpMode::no_shard, FsdpMode::shard_grad_op, FsdpMode::full_shard, FsdpMode::hybrid_shard}) {
    TrainingWorkload w;
    w.layout.data_parallel = 16;
    w.fsdp = mode;
    w.lora.rank = mode == FsdpMode::full_shard ? 16 : 0;
    w.lora.qlora = w.lora.rank > 0;
    cases.push_back(w);
  }
  TrainingWorkload moe;
  moe.layout = {2, 2, 4, 4};  // tp, pp, ep, dp
  moe.sequence_parallel = true;
  moe.context_parallel = 2;
  moe.zero_stage = 1;
  moe.recompute = Recompute::full;
  moe.virtual_pipeline_stages = 2;
  cases.push_back(moe);
  for (const auto& w : cases) {
    const TrainingMemory m = training_memory(model, tensors, w);
    std::int64_t sum = 0;
    for (const auto& t : m.terms) sum += t.bytes;
    CHECK(sum == m.totals.total_bytes_per_gpu);
    const TrainingMemoryTotals& t = m.totals;
    CHECK(t.weight_bytes + t.gradient_bytes + t.optimizer_bytes + t.activation_bytes + t.communication_bytes +
              t.overhead_bytes ==
          t.total_bytes_per_gpu);
  }
}

TEST_CASE("LoRA and QLoRA") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w;
  w.lora.rank = 16;
  const TrainingMemory lora = training_memory(model, tensors, w);
  // Per layer, r (rows + columns): q 16 x 4096, k and v 16 x 2304, o 16 x 4096, gate and up and
  // down 16 x 7680 = 573,440; 22 layers = 12,615,680.
  CHECK(lora.trainable_parameters == 12'615'680);
  CHECK(lora.trainable_parameters * 50 < lora.total_parameters);
  // Adapters, gradients, AdamW states in fp32: 4 + 4 + 8 bytes per adapter parameter.
  CHECK(term_bytes(lora.terms, "LoRA adapters (rank 16)") == 4 * 12'615'680);
  CHECK(lora.totals.gradient_bytes == 4 * 12'615'680);
  CHECK(lora.totals.optimizer_bytes == 8 * 12'615'680);
  w.lora.qlora = true;
  const TrainingMemory qlora = training_memory(model, tensors, w);
  const std::int64_t bf16_base = term_bytes(lora.terms, "frozen base weights");
  CHECK(bf16_base == std::int64_t{2} * 1'100'048'384);
  // NF4 matrices (about 4.13 bits) with embeddings and lm_head left 16-bit: about a third of bf16.
  CHECK(term_bytes(qlora.terms, "frozen base weights") < bf16_base / 2);
  CHECK(qlora.totals.total_bytes_per_gpu < lora.totals.total_bytes_per_gpu);
  CHECK(lora.totals.total_bytes_per_gpu <
        training_memory(model, tensors, TrainingWorkload{}).totals.total_bytes_per_gpu);
  // Adapting only q and v keeps fewer matmul inputs than adapting every linear layer.
  w.lora.target_roles = lora_target_roles("q,v");
  CHECK(training_memory(model, tensors, w).totals.activation_bytes < qlora.totals.activation_bytes);
  CHECK_THROWS_AS(lora_target_roles("q,banana"), std::invalid_argument);
}

TEST_CASE("expert parallel sharding group and workload checks") {
  const ModelDescription model = test::fixture_model("ibm-granite--granite-3.1-1b-a400m-instruct.json");
  const auto tensors = weight_tensors(model);
  TrainingWorkload w;
  w.zero_stage = 1;
  w.layout.tensor_parallel = 2;
  w.layout.data_parallel = 4;
  w.layout.expert_parallel = 8;
  w.sequence_parallel = true;
  const TrainingMemory m = training_memory(model, tensors, w);
  CHECK(m.sharding_degree == 4);         // dp x cp
  CHECK(m.expert_sharding_degree == 1);  // tp x dp x cp / ep = 2 x 4 / 8
  w.layout.expert_parallel = 16;         // 16 does not divide 8
  CHECK_THROWS_AS(training_memory(model, tensors, w), OptionError);
  TrainingWorkload bad;
  bad.zero_stage = 2;
  bad.fsdp = FsdpMode::full_shard;
  try {
    training_memory(model, tensors, bad);
    FAIL("expected an error");
  } catch (const OptionError& error) {
    CHECK(error.option() == "fsdp");
  }
  TrainingWorkload offload;
  offload.offload_params = true;
  offload.zero_stage = 2;
  CHECK_THROWS_AS(training_memory(model, tensors, offload), OptionError);
}

TEST_CASE("fitcheck train CLI") {
  const std::string path = test::fixture_configs_dir() + "/" + kTinyLlama;
  std::string out, err;
  REQUIRE(cli::run_train({path, "--json", "--gpu", "h100", "--zero", "1", "--gpus", "8"}, out, err) == 0);
  const auto report = nlohmann::json::parse(out);
  for (const char* key :
       {"weight_bytes", "gradient_bytes", "optimizer_bytes", "activation_bytes", "communication_bytes",
        "overhead_bytes", "total_bytes_per_gpu", "max_micro_batch_size", "assumptions", "terms"})
    CHECK(report.contains(key));
  CHECK(report["parallel"]["dp"] == 8);
  CHECK(report["max_micro_batch_size"].get<std::int64_t>() > 0);
  std::int64_t sum = 0;
  for (const auto& term : report["terms"]) sum += term["bytes"].get<std::int64_t>();
  CHECK(sum == report["total_bytes_per_gpu"].get<std::int64_t>());

  out.clear();
  CHECK(cli::run_train({path, "--zero", "5"}, out, err) == 2);
  CHECK(err.find("--zero") != std::string::npos);
  CHECK(err.find('\n') == err.size() - 1);
  CHECK(cli::run_train({path, "--optimizer", "adamax"}, out, err) == 2);
  CHECK(err.find("--optimizer") != std::string::npos);
  CHECK(cli::run_train({path, "--frobnicate", "1"}, out, err) == 2);
  CHECK(err.find("--frobnicate") != std::string::npos);
  CHECK(cli::run_train({path, "--tp"}, out, err) == 2);
  CHECK(cli::run_train({path, "--qlora"}, out, err) == 2);
  CHECK(err.find("--qlora") != std::string::npos);
  CHECK(cli::run_train({path, "--lora-rank", "8", "--lora-modules", "q,v", "--qlora", "--optimizer", "adam8bit"}, out,
                       err) == 0);
  CHECK(out.find("frozen base weights") != std::string::npos);
}

TEST_CASE("model states: figures by hand, and the formulas written from them") {
  // Two layers of 41,088 parameters (q, k, v, o 4 x 64 x 64; gate, up, down 3 x 64 x 128; two
  // norms), embedding and untied lm_head 1000 x 64 each, final norm 64: 210,240 parameters.
  const ModelDescription model = parse_hf_config(
      R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,)"
      R"("num_attention_heads":8,"num_key_value_heads":8,"vocab_size":1000,"tie_word_embeddings":false})");
  TrainingWorkload w;
  w.zero_stage = 1;
  w.layout.data_parallel = 4;
  const PreparedTrainingMemory prepared = prepare_training_memory(model, weight_tensors(model), w);
  REQUIRE(prepared.stages.size() == 1);
  const detail::StageStates& s = prepared.stages[0].states;
  CHECK(s.dense.params == 210'240);
  CHECK(s.expert.params == 0);
  // ZeRO-1 shards the fp32 masters and AdamW's two fp32 moments over the 4 data-parallel ranks.
  CHECK(s.dense.weights.divided_by == 1);
  CHECK(s.dense.weights.bytes_per_rank == 210'240 * 2);
  CHECK(s.dense.master.divided_by == 4);
  CHECK(s.dense.master.bytes_per_rank == 210'240);  // x 4 B / 4 ranks
  CHECK(s.dense.states.bytes == 210'240 * 8);
  CHECK(s.dense.states.bytes_per_rank == 210'240 * 2);  // x 8 B / 4 ranks
  CHECK(s.communication_bytes == 210'240 * 2);          // the reduce bucket holds every bf16 gradient
  CHECK(s.allgather_bucket_bytes == 210'240 * 2);

  const std::vector<MemoryTerm> terms = detail::stage_state_terms(s, prepared.workload);
  CHECK(term_bytes(terms, "master weights") == 210'240);
  for (const MemoryTerm& term : terms) {
    if (term.name == "master weights") {
      CHECK(term.formula == "210240 params x 4 B fp32 / 4 ranks = 210240 B");
    } else if (term.name == "optimizer states") {
      CHECK(term.formula == "1681920 B of adamw states / 4 ranks = 420480 B");
    }
  }
  const MemoryTerm communication = detail::communication_term(s, prepared.workload);
  CHECK(communication.bytes == 210'240 * 2);
  CHECK(communication.formula ==
        "reduce bucket min(500000000, 210240) x 2 B; the allgather bucket (420480 B) runs after the optimizer step, "
        "when activations are freed: not in the peak");

  // ZeRO-Offload moves the shards to CPU memory: the same figures, off the GPU.
  w.offload_optimizer = true;
  const detail::StageStates offloaded = prepare_training_memory(model, weight_tensors(model), w).stages[0].states;
  CHECK(offloaded.dense.master.in_cpu_memory);
  CHECK(offloaded.dense.master.gpu_bytes() == 0);
  CHECK(offloaded.master_bytes == 0);
  CHECK(offloaded.optimizer_bytes == 0);
  CHECK(offloaded.cpu_bytes == 210'240 + 210'240 * 2);
}

TEST_CASE("model state formulas add up to the figures they are written from") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen1.5-MoE-A2.7B.json");
  const auto tensors = weight_tensors(model);
  std::vector<TrainingWorkload> cases;
  for (int zero = 0; zero <= 3; ++zero) {
    TrainingWorkload w;
    w.zero_stage = zero;
    w.layout = {1, 2, 4, 8};
    w.offload_optimizer = zero >= 1;
    w.offload_params = zero == 3;
    cases.push_back(w);
  }
  for (FsdpMode mode : {FsdpMode::no_shard, FsdpMode::shard_grad_op, FsdpMode::full_shard, FsdpMode::hybrid_shard}) {
    TrainingWorkload w;
    w.fsdp = mode;
    w.layout.data_parallel = 16;
    w.precision = PrecisionRecipe::fp8;
    cases.push_back(w);
  }
  TrainingWorkload qlora;
  qlora.lora.rank = 16;
  qlora.lora.qlora = true;
  qlora.zero_stage = 3;
  qlora.layout.data_parallel = 2;
  cases.push_back(qlora);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const PreparedTrainingMemory prepared = prepare_training_memory(model, tensors, cases[i]);
    for (const auto& stage : prepared.stages) {
      const detail::StageStates& s = stage.states;
      std::int64_t sum = 0;
      for (const MemoryTerm& term : detail::stage_state_terms(s, prepared.workload)) {
        CAPTURE(term.name);
        CHECK_FALSE(term.formula.empty());
        sum += term.bytes;
      }
      CHECK(sum == s.weight_bytes + s.gradient_bytes + s.master_bytes + s.optimizer_bytes);
      CHECK(detail::communication_term(s, prepared.workload).bytes == s.communication_bytes);
    }
  }
}

// Framework profiles (docs/training-memory.md, "Framework profiles"). Hand figures below use
// Llama 3.1 8B's published shapes: hidden 4096, 32 heads of 128, 8 KV heads, FFN 14336, vocab
// 128256, 32 layers.
namespace {

const char* kLlama8b = "meta-llama--Llama-3.1-8B.json";

// `fitcheck train ARGS` refused: exit 2 and the error text.
std::string refusal(const std::vector<std::string>& args) {
  std::string out, err;
  CHECK(cli::run_train(args, out, err) == 2);
  return err;
}

TrainingWorkload framework_workload(TrainingFramework framework) {
  TrainingWorkload w;
  w.framework = framework;
  w.sequence_tokens = 1024;
  w.micro_batch_size = 1;
  return w;
}

}  // namespace

TEST_CASE("framework: the loss buffers differ by the bytes per logit each framework's source holds") {
  // Hugging Face 20 B (measured), torchtitan 12 B (3 fp32 buffers), Megatron 6 B (bf16 + one fp32):
  // 1024 tokens x 128256 vocab = 131,334,144 logits; x (20 - 6) = 1,838,678,016 B, x (12 - 6) = 788,004,864 B.
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  const auto total = [&](TrainingFramework f) {
    return training_memory(model, tensors, framework_workload(f)).totals.activation_bytes;
  };
  CHECK(total(TrainingFramework::hf) - total(TrainingFramework::megatron) == 1'838'678'016);
  CHECK(total(TrainingFramework::torchtitan) - total(TrainingFramework::megatron) == 788'004'864);
  CHECK(total(TrainingFramework::deepspeed) == total(TrainingFramework::megatron));
  CHECK(kDefaultTrainingFramework == TrainingFramework::hf);
}

TEST_CASE("framework: Megatron 'selective' with flash attention keeps what 'none' keeps") {
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::megatron);
  const std::int64_t none = training_memory(model, tensors, w).totals.total_bytes_per_gpu;
  w.recompute = Recompute::selective;
  CHECK(training_memory(model, tensors, w).totals.total_bytes_per_gpu == none);
  w.flash_attention = false;  // eager attention: selective drops the 32 x 1024 x 1024 x 2 B scores per layer
  const std::int64_t eager_selective = training_memory(model, tensors, w).totals.activation_bytes;
  w.recompute = Recompute::none;
  const std::int64_t eager_none = training_memory(model, tensors, w).totals.activation_bytes;
  CHECK(eager_none - eager_selective >= 32 * std::int64_t{32} * 1024 * 1024 * 2);
}

TEST_CASE("framework: torchtitan selective-op keeps the block input, odd matmul outputs and SDPA's output") {
  // Per token: input 4096 + wq 4096 + wv 1024 + w1 14336 + w2 4096 + SDPA output 4096 = 31,744
  // elements x 2 B + log-sum-exp 32 heads x 4 B = 63,616 B; x 1024 tokens = 65,142,784 B.
  const ModelDescription model = test::fixture_model(kLlama8b);
  TrainingWorkload w = framework_workload(TrainingFramework::torchtitan);
  w.recompute = Recompute::selective_op;
  CHECK(layer_activations(model, model.layer_kinds[0], w).bytes == 65'142'784);
  CHECK(find_recompute("selective-op") == Recompute::selective_op);
  CHECK(find_recompute("selective_layer") == Recompute::selective_layer);
  CHECK(find_recompute("gradient-checkpointing") == Recompute::full);
  CHECK(std::string(recompute_name(Recompute::selective_op)) == "selective-op");
}

TEST_CASE("framework: selective-layer and Megatron's uniform / block methods mix checkpointed and whole layers") {
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::torchtitan);
  const std::int64_t whole = layer_activations(model, model.layer_kinds[0], w).bytes;
  w.recompute = Recompute::full;
  const std::int64_t input = layer_activations(model, model.layer_kinds[0], w).bytes;
  CHECK(input == 1024 * 4096 * 2);  // the layer input, bf16
  const auto layers_term = [&](const TrainingWorkload& workload) {
    return term_bytes(training_memory(model, tensors, workload).terms, "layer activations");
  };
  const auto rebuilt_term = [&](const TrainingWorkload& workload) {
    return term_bytes(training_memory(model, tensors, workload).terms, "recomputed layer");
  };
  // torchtitan selective_ac_option 2: 16 of 32 blocks checkpointed.
  w.recompute = Recompute::selective_layer;
  w.recompute_frequency = 2;
  CHECK(layers_term(w) == 16 * input + 16 * whole);
  CHECK(rebuilt_term(w) == whole);
  // Megatron uniform, 4 layers per group: 8 checkpoints, a group of 4 rebuilt together.
  w.recompute = Recompute::full;
  w.recompute_method = RecomputeMethod::uniform;
  w.recompute_num_layers = 4;
  CHECK(layers_term(w) == 8 * input);
  CHECK(rebuilt_term(w) == 4 * whole);
  // Megatron block, 10 layers: 10 checkpointed, 22 keep everything.
  w.recompute_method = RecomputeMethod::block;
  w.recompute_num_layers = 10;
  CHECK(layers_term(w) == 10 * input + 22 * whole);
}

TEST_CASE("framework: torchtitan FSDP under pp keeps the stage unsharded and accumulates fp32 gradients") {
  // Last of 2 stages: 16 layers x 218,112,000 + final norm 4,096 + lm_head 525,336,576 =
  // 4,015,132,672 params; their unsharded fp32 gradients 16,060,530,688 B, their bf16 copy
  // 8,030,265,344 B beside the fp32 shards (/ 4 ranks).
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::torchtitan);
  w.sequence_tokens = 256;
  w.recompute = Recompute::full;
  w.layout.pipeline_parallel = 2;
  w.layout.data_parallel = 4;
  w.fsdp = FsdpMode::full_shard;
  const TrainingMemory titan = training_memory(model, tensors, w);
  REQUIRE(titan.totals.busiest_stage == 1);
  CHECK(titan.totals.communication_bytes == 16'060'530'688);
  CHECK(titan.totals.weight_bytes == 4'015'132'672 * 4 / 4 + 8'030'265'344);
  CHECK(fsdp_unsharded_for_step(w));
  w.framework = TrainingFramework::hf;  // other frameworks reshard after forward
  CHECK_FALSE(fsdp_unsharded_for_step(w));
  CHECK(training_memory(model, tensors, w).totals.communication_bytes < 16'060'530'688 / 4);
}

TEST_CASE("framework: torchtitan under tp runs loss_parallel, 16 B per logit element at its backward") {
  // Saved fp32 log-softmax, the scattered nll gradient, exp(log-softmax), their sum: 4 x 4 B.
  // 1024 tokens x 128256 / 2 = 64,128 vocab entries per rank: 65,667,072 logits.
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  const auto loss = [&](const TrainingWorkload& w) {
    return term_bytes(training_memory(model, tensors, w).terms,
                      std::string("logits and cross-entropy (") + training_framework(w).id + " loss)");
  };
  TrainingWorkload w = framework_workload(TrainingFramework::torchtitan);
  CHECK(loss(w) == 1024 * std::int64_t{128'256} * 12);  // tp 1: plain cross-entropy, 3 x 4 B
  w.layout.tensor_parallel = 2;
  CHECK(loss(w) == 1024 * std::int64_t{64'128} * 16);
  CHECK(training_loss(w).bytes_per_logit == 16);
  w.compile = true;  // torchtitan from bbb1b616e compiles the loss: the compiled rule wins
  CHECK(loss(w) == 1024 * std::int64_t{64'128} * 4);
  w.eager_loss = true;
  CHECK(loss(w) == 1024 * std::int64_t{64'128} * 16);
  w = framework_workload(TrainingFramework::megatron);  // Megatron's own vocab-parallel loss: 6 B
  w.layout.tensor_parallel = 2;
  CHECK(loss(w) == 1024 * std::int64_t{64'128} * 6);
}

TEST_CASE("framework: torchtitan's last pipeline stage keeps the logits of every micro-batch of the step") {
  // 8 micro-batches per schedule step, each 1024 x 128256 bf16 logits: 8 x 262,668,288 =
  // 2,101,346,304 B on stage 1; without --micro-batches the schedule runs pp = 2 of them.
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::torchtitan);
  w.recompute = Recompute::full;
  w.layout.pipeline_parallel = 2;
  w.global_batch_tokens = 8192;  // 8 sequences of 1,024 / (micro-batch 1 x dp 1)
  w.micro_batches_per_step = 8;
  CHECK(step_micro_batches(w) == 8);
  const TrainingMemory titan = training_memory(model, tensors, w);
  REQUIRE(titan.totals.busiest_stage == 1);
  CHECK(term_bytes(titan.terms, "pipeline outputs kept (logits of every micro-batch)") == 2'101'346'304);
  w.micro_batches_per_step = 0;
  w.global_batch_tokens = 0;  // the 4 Mi-token default batch: gradient accumulation over schedule steps
  CHECK(term_bytes(training_memory(model, tensors, w).terms, "pipeline outputs kept (logits of every micro-batch)") ==
        2 * std::int64_t{262'668'288});
  w.micro_batches_per_step = 8;
  const auto named = [](const TrainingMemory& m) {
    return std::any_of(m.terms.begin(), m.terms.end(), [](const MemoryTerm& t) {
      return t.name == "pipeline outputs kept (logits of every micro-batch)";
    });
  };
  w.framework = TrainingFramework::megatron;  // Megatron's schedules free each output after its send
  CHECK_FALSE(named(training_memory(model, tensors, w)));
  w.framework = TrainingFramework::torchtitan;
  w.layout.pipeline_parallel = 1;
  CHECK_FALSE(named(training_memory(model, tensors, w)));
}

TEST_CASE("framework: torchtitan splits layers that do not divide as generate_split_points does") {
  // Over pp x v stages: the first takes layers / stages, the middle ones one more while the remainder
  // lasts, the last the rest. 10 layers / 4: 2, 3, 3, 2; 7 / 4: 1, 2, 2, 2; 126 / 8: 15, 16 x 6, 15,
  // and over 16 virtual stages (7, 8 x 14, 7) rank r holds stages r and r + 8: the same counts.
  const auto split = [](std::int64_t layers, std::int64_t pp, std::int64_t v) {
    return detail::middle_extra_first_layers(layers, pp, v);
  };
  CHECK(split(10, 4, 1) == std::vector<std::int64_t>{0, 2, 5, 8, 10});
  CHECK(split(7, 4, 1) == std::vector<std::int64_t>{0, 1, 3, 5, 7});
  CHECK(split(8, 4, 1) == std::vector<std::int64_t>{0, 2, 4, 6, 8});
  CHECK(split(126, 8, 1) == std::vector<std::int64_t>{0, 15, 31, 47, 63, 79, 95, 111, 126});
  CHECK(split(126, 8, 2) == std::vector<std::int64_t>{0, 15, 31, 47, 63, 79, 95, 111, 126});
  CHECK(split(5, 2, 2) == std::vector<std::int64_t>{0, 2, 5});  // stages 1, 2, 1, 1: ranks 1 + 1, 2 + 1
  CHECK(split(5, 1, 1) == std::vector<std::int64_t>{0, 5});
  CHECK(split(5, 2, 1) == std::vector<std::int64_t>{0, 2, 5});  // the last stage takes what is left
  // torchtitan's 405B at pp 8: stage 0 holds 15 layers (and the embedding), the last 15.
  const ModelDescription llama405b = test::fixture_model("meta-llama--Llama-3.1-405B.json");
  TrainingWorkload w405 = framework_workload(TrainingFramework::torchtitan);
  w405.layout.pipeline_parallel = 8;
  w405.layout.tensor_parallel = 8;
  const PreparedTrainingMemory prepared = prepare_training_memory(llama405b, weight_tensors(llama405b), w405);
  REQUIRE(prepared.stages.size() == 8);
  CHECK(prepared.stages[0].end_layer == 15);
  CHECK(prepared.stages[1].end_layer == 31);
  CHECK(prepared.stages[7].first_layer == 111);
  CHECK(training_framework_profile(TrainingFramework::torchtitan).middle_stages_take_extra_layers);
  CHECK_FALSE(training_framework_profile(TrainingFramework::automodel).middle_stages_take_extra_layers);
  // The default split (Megatron-style remainder on the first stages) for comparison: 3, 3, 2, 2.
  ModelDescription m = test::fixture_model(kLlama8b);
  m.num_layers = 10;
  m.layer_kind_of_layer.assign(10, 0);
  CHECK(detail::plan_stages(m, {1, 4, 1, 1}).first_layer == std::vector<std::int64_t>{0, 3, 6, 8, 10});
}

TEST_CASE("framework: reserved adds the caching allocator's block rounding; allocated is the default for hf") {
  // CUDACachingAllocator: 10 MiB and up round to 2 MiB, smaller requests to 512 B.
  CHECK(detail::allocator_block_bytes(1000) == 1024);
  CHECK(detail::allocator_block_bytes((std::int64_t{10} << 20) + 1) == std::int64_t{12} << 20);
  CHECK(detail::allocator_block_bytes(std::int64_t{20} << 20) == std::int64_t{20} << 20);
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::hf);
  const TrainingMemoryTotals allocated = training_memory(model, tensors, w).totals;
  CHECK(allocated.memory_statistic == MemoryStatistic::allocated);
  CHECK(allocated.total_bytes_per_gpu == allocated.allocated_bytes_per_gpu);
  w.memory_statistic = MemoryStatistic::reserved;
  const TrainingMemoryTotals reserved = training_memory(model, tensors, w).totals;
  CHECK(reserved.total_bytes_per_gpu == reserved.reserved_bytes_per_gpu);
  CHECK(reserved.reserved_bytes_per_gpu > reserved.allocated_bytes_per_gpu);
  CHECK(reserved.allocated_bytes_per_gpu == allocated.allocated_bytes_per_gpu);
  w.framework = TrainingFramework::torchtitan;  // torchtitan prints reserved
  w.memory_statistic.reset();
  CHECK(training_memory(model, tensors, w).totals.memory_statistic == MemoryStatistic::reserved);
}

TEST_CASE("framework: options --framework, --memory-statistic, Megatron's fp32 gradients, recompute flags") {
  const auto parse = [](OptionList options) { return parse_training_options(options).workload; };
  CHECK(parse({}).framework == TrainingFramework::hf);
  CHECK(parse({{"framework", "torchtitan"}}).framework == TrainingFramework::torchtitan);
  CHECK(parse({{"framework", "Megatron"}}).fp32_gradients);
  CHECK_FALSE(parse({{"framework", "megatron"}, {"fp32_gradients", "false"}}).fp32_gradients);
  CHECK_FALSE(parse({{"framework", "hf"}}).fp32_gradients);
  CHECK(parse({{"memory_statistic", "reserved"}}).memory_statistic == MemoryStatistic::reserved);
  const TrainingWorkload block =
      parse({{"recompute", "full"}, {"recompute_method", "block"}, {"recompute_num_layers", "3"}});
  CHECK(block.recompute_method == RecomputeMethod::block);
  CHECK(block.recompute_num_layers == 3);
  CHECK(parse({{"recompute", "selective-layer"}, {"recompute_frequency", "4"}}).recompute_frequency == 4);
  CHECK(parse({{"recompute", "gradient-checkpointing"}}).recompute == Recompute::full);
  const auto refused_option = [&](OptionList options) {
    try {
      parse(options);
    } catch (const OptionError& error) {
      return error.option();
    }
    return std::string("accepted");
  };
  CHECK(refused_option({{"framework", "jax"}}) == "framework");
  CHECK(refused_option({{"memory_statistic", "nvidia-smi"}}) == "memory_statistic");
  CHECK(refused_option({{"recompute_method", "block"}}) == "recompute_method");
  CHECK(refused_option({{"recompute", "full"}, {"recompute_method", "every"}}) == "recompute_method");
  CHECK(refused_option({{"recompute_num_layers", "2"}}) == "recompute_num_layers");
  CHECK(refused_option({{"recompute", "full"}, {"recompute_num_layers", "0"}}) == "recompute_num_layers");
  CHECK(refused_option({{"recompute", "full"}, {"recompute_frequency", "2"}}) == "recompute_frequency");
  CHECK(refused_option({{"attention_efficiency", "0"}}) == "attention_efficiency");
  // The training planner hands the framework options to the same parser.
  const TrainingPlanRequest plan =
      parse_training_plan_options({{"framework", "megatron"}, {"memory_statistic", "reserved"}});
  CHECK(plan.base.workload.framework == TrainingFramework::megatron);
  CHECK(plan.base.workload.memory_statistic == MemoryStatistic::reserved);
}

TEST_CASE("framework: the JSON report names the framework and the statistic the total is") {
  const auto result = test::run_cli("train " + test::fixture_configs_dir() + "/" + kLlama8b +
                                    " --framework torchtitan --recompute selective-op --json");
  REQUIRE(result.exit_status == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["framework"] == "torchtitan");
  CHECK(report["memory_statistic"] == "reserved");
  CHECK(report["total_bytes_per_gpu"] == report["reserved_bytes_per_gpu"]);
  CHECK(report["workload"]["recompute"] == "selective-op");
}

TEST_CASE("framework: Megatron's --recompute-modules drop what each module discards") {
  // 1024 tokens, bf16, tp 1, ep 1. Qwen3-30B-A3B's MoE layer: hidden 2048, 128 experts of 768, top 8.
  const ModelDescription qwen = test::fixture_model("Qwen--Qwen3-30B-A3B.json");
  TrainingWorkload w = framework_workload(TrainingFramework::megatron);
  const auto dropped = [&](const ModelDescription& model, const LayerShape& layer, const char* modules) {
    TrainingWorkload selective = w;
    selective.recompute = Recompute::selective;
    selective.recompute_modules = parse_recompute_modules(modules);
    return layer_activations(model, layer, w).bytes - layer_activations(model, layer, selective).bytes;
  };
  const LayerShape& moe_layer = qwen.layer_kinds[0];
  REQUIRE(moe_layer.is_moe());
  // core_attn with flash attention: nothing (the default module).
  CHECK(dropped(qwen, moe_layer, "core_attn") == 0);
  // moe_act: the routed experts' down-projection input, 8 x 768 x 2 B a token.
  CHECK(dropped(qwen, moe_layer, "moe_act") == 1024 * 8 * 768 * 2);
  // layernorm: the pre-MLP norm's output, 2048 x 2 B (the attention's norm is inside linear_qkv).
  CHECK(dropped(qwen, moe_layer, "layernorm") == 1024 * 2048 * 2);
  // moe: router probabilities 128 x 4, dispatched inputs 8 x 2048 x 2, activation inputs 2 x 8 x 768 x 2,
  // down input 8 x 768 x 2, expert outputs 8 x 2048 x 2 = 102,912 B a token; the layer input stays.
  CHECK(dropped(qwen, moe_layer, "moe") == 1024 * 102'912);
  CHECK(dropped(qwen, moe_layer, "moe,layernorm") == 1024 * (102'912 + 4096));
  CHECK(dropped(qwen, moe_layer, "shared_experts") == 0);  // Qwen3-30B-A3B has no shared expert

  // DeepSeek-V3: hidden 7168, MLA with q_lora_rank 1536, kv_lora_rank 512, 128 heads of 128 + 64 (values
  // 128); three dense layers of 18432, then MoE layers with one shared expert of 2048.
  const ModelDescription deepseek = test::fixture_model("deepseek-ai--DeepSeek-V3.json");
  const auto kind = [&](bool moe) -> const LayerShape& {
    for (const LayerShape& layer : deepseek.layer_kinds)
      if (layer.is_moe() == moe) return layer;
    FAIL("no such layer");
    return deepseek.layer_kinds[0];
  };
  // mla_up_proj: q up-projection input 1536 x 2, kv up-projection input 512 x 2, q and k 2 x 128 x 192 x 2,
  // v 128 x 128 x 2 = 135,168 B a token, in every layer.
  CHECK(dropped(deepseek, kind(false), "mla_up_proj") == 1024 * 135'168);
  CHECK(dropped(deepseek, kind(true), "mla_up_proj") == 1024 * 135'168);
  // layernorm: MLA's input norm is a module of its own (7168 x 2); a MoE layer's pre-MLP norm too.
  CHECK(dropped(deepseek, kind(false), "layernorm") == 1024 * 14'336);
  CHECK(dropped(deepseek, kind(true), "layernorm") == 1024 * 2 * 14'336);
  // mlp: a dense layer's MLP input 7168 x 2, activation inputs 2 x 18432 x 2, down input 18432 x 2.
  CHECK(dropped(deepseek, kind(false), "mlp") == 1024 * (14'336 + 73'728 + 36'864));
  CHECK(dropped(deepseek, kind(true), "mlp") == 0);
  // shared_experts: the shared expert's activation inputs 2 x 2048 x 2 and down input 2048 x 2.
  CHECK(dropped(deepseek, kind(true), "shared_experts") == 1024 * 12'288);

  // The stage rebuilds one layer's dropped tensors during backward.
  const auto tensors = weight_tensors(qwen);
  TrainingWorkload stage = w;
  stage.recompute = Recompute::selective;
  stage.recompute_modules = parse_recompute_modules("moe");
  CHECK(term_bytes(training_memory(qwen, tensors, stage).terms, "recomputed layer") == 1024 * 102'912);
  // 48 layers drop it, one layer's comes back while it is rebuilt.
  CHECK(training_memory(qwen, tensors, w).totals.activation_bytes -
            training_memory(qwen, tensors, stage).totals.activation_bytes ==
        std::int64_t{48 - 1} * 1024 * 102'912);

  // Names as Megatron spells them; the default is the attention core.
  CHECK(recompute_module_names(RecomputeModules{}) == std::vector<std::string>{"core_attn"});
  CHECK(recompute_module_names(parse_recompute_modules("layernorm moe_act")) ==
        std::vector<std::string>{"moe_act", "layernorm"});
  CHECK_THROWS_WITH_AS(parse_recompute_modules("gdn_norm_out"), doctest::Contains("gdn_norm_out"),
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_recompute_modules(","), std::invalid_argument);
}

TEST_CASE("framework: --recompute-modules is Megatron's, under selective, for the modules the model has") {
  const std::string llama = test::fixture_configs_dir() + "/" + kLlama8b;
  CHECK(refusal({llama, "--framework", "hf", "--recompute", "selective", "--recompute-modules", "mlp"})
            .find("needs --framework megatron") != std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--recompute-modules", "mlp"}).find("needs --recompute selective") !=
        std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--recompute", "selective", "--recompute-modules", "moe_act"})
            .find("moe_act needs routed experts") != std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--recompute", "selective", "--recompute-modules", "mla_up_proj"})
            .find("mla_up_proj needs multi-latent attention") != std::string::npos);
}

TEST_CASE("framework: partitioned checkpoints keep a tp-th of each checkpointed layer input") {
  // Llama 3.1 8B, 1024 tokens, bf16, tp 4: the layer input 1024 x 4096 x 2 B = 8,388,608 B, a quarter
  // on each rank with DeepSpeed's partition_activations or Megatron's distribute_saved_activations.
  const ModelDescription model = test::fixture_model(kLlama8b);
  for (TrainingFramework framework : {TrainingFramework::deepspeed, TrainingFramework::megatron}) {
    TrainingWorkload w = framework_workload(framework);
    w.layout.tensor_parallel = 4;
    w.recompute = Recompute::full;
    CHECK(layer_activations(model, model.layer_kinds[0], w).bytes == 8'388'608);
    w.partition_checkpoints = true;
    CHECK(layer_activations(model, model.layer_kinds[0], w).bytes == 2'097'152);
  }
  const std::string llama = test::fixture_configs_dir() + "/" + kLlama8b;
  CHECK(refusal({llama, "--framework", "megatron", "--recompute", "full", "--partition-activations"})
            .find("needs --framework deepspeed") != std::string::npos);
  CHECK(refusal({llama, "--framework", "deepspeed", "--distribute-saved-activations"})
            .find("needs --framework megatron") != std::string::npos);
  CHECK(refusal({llama, "--framework", "deepspeed", "--partition-activations"}).find("needs --recompute full") !=
        std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--tp", "2", "--sequence-parallel", "--recompute", "full",
                 "--distribute-saved-activations"})
            .find("sequence parallelism") != std::string::npos);
}

TEST_CASE("framework: Megatron's CPU offloading keeps the activations of N layers in CPU memory") {
  // Llama 3.1 8B, 1024 tokens, pp 1: 32 layers of equal activations; offloading 12 keeps 20 on the GPU
  // and one more in transit (Megatron --cpu-offloading-num-layers, Transformer Engine's offload context).
  const ModelDescription model = test::fixture_model(kLlama8b);
  const auto tensors = weight_tensors(model);
  TrainingWorkload w = framework_workload(TrainingFramework::megatron);
  const std::int64_t layer = layer_activations(model, model.layer_kinds[0], w).bytes;
  w.cpu_offloaded_layers = 12;
  const TrainingMemory m = training_memory(model, tensors, w);
  CHECK(term_bytes(m.terms, "layer activations") == 20 * layer);
  CHECK(term_bytes(m.terms, "offloaded layer in transit") == layer);
  CHECK(m.totals.cpu_offload_bytes == 12 * layer);
  const std::string llama = test::fixture_configs_dir() + "/" + kLlama8b;
  CHECK(refusal({llama, "--framework", "hf", "--cpu-offloading-num-layers", "4"}).find("--framework megatron") !=
        std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--recompute", "full", "--cpu-offloading-num-layers", "4"})
            .find("recomputation") != std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--pp", "2", "--cpu-offloading-num-layers", "4"})
            .find("pipeline parallelism") != std::string::npos);
  CHECK(refusal({llama, "--framework", "megatron", "--cpu-offloading-num-layers", "32"}).find("fewer layers") !=
        std::string::npos);
}
