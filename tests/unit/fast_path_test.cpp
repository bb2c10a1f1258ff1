// SPDX-License-Identifier: MIT
// The numbers-only evaluate functions (inference_memory_totals, training_memory_totals) against
// the report paths that add formulas, over grids of models and workloads; and a 4,096-stage
// pipeline whose figures are derived by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/training_memory.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// Dense GQA, MoE with shared experts, alternating sliding window, encoder-decoder.
const char* const kModels[] = {"meta-llama--Llama-3.2-1B-Instruct.json", "Qwen--Qwen1.5-MoE-A2.7B.json",
                               "google--gemma-2-9b.json", "google-t5--t5-small.json"};

}  // namespace

TEST_CASE("inference_memory_totals gives inference_memory's figures") {
  for (const char* file : kModels) {
    CAPTURE(file);
    const ModelDescription model = test::fixture_model(file);
    const auto tensors = weight_tensors(model);
    for (std::int64_t tp : {1, 2}) {
      for (std::int64_t pp : {1, 3}) {
        InferenceWorkload w;
        w.layout = {tp, pp, 1, 1};
        w.weight_format = pp == 3 ? WeightFormat::gguf_q4_k_m : WeightFormat::bf16;
        const LayoutWeights weights = layout_weights(model, tensors, w);
        for (std::int64_t batch : {1, 7, 64}) {
          for (std::int64_t context : {1, 1000, 9000}) {
            for (bool flash : {true, false}) {
              CAPTURE(tp);
              CAPTURE(pp);
              CAPTURE(batch);
              CAPTURE(context);
              w.batch_size = batch;
              w.context_tokens = context;
              w.flash_attention = flash;
              w.kv_cache_dtype = flash ? KvCacheDtype::bf16 : KvCacheDtype::int4;
              w.kv_block_tokens = context == 1000 ? 16 : 0;
              const InferenceMemory shown = inference_memory(model, weights, w);
              const InferenceMemoryTotals fast = inference_memory_totals(model, weights, w);
              CHECK(fast.weight_bytes == shown.totals.weight_bytes);
              CHECK(fast.kv_cache_bytes == shown.totals.kv_cache_bytes);
              CHECK(fast.kv_cache_bytes_per_token == shown.totals.kv_cache_bytes_per_token);
              CHECK(fast.activation_bytes == shown.totals.activation_bytes);
              CHECK(fast.logits_bytes == shown.totals.logits_bytes);
              CHECK(fast.overhead_bytes == shown.totals.overhead_bytes);
              CHECK(fast.total_bytes_per_gpu == shown.totals.total_bytes_per_gpu);
              // The figures come from the tensor list too, not only from prepared weights.
              CHECK(inference_memory(model, tensors, w).totals.total_bytes_per_gpu == fast.total_bytes_per_gpu);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("inference_memory_totals refuses what inference_memory refuses") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.2-1B-Instruct.json");
  InferenceWorkload w;
  const LayoutWeights weights = layout_weights(model, weight_tensors(model), w);
  w.batch_size = 0;
  CHECK_THROWS_WITH_AS(inference_memory_totals(model, weights, w), "batch size must be at least 1",
                       std::invalid_argument);
  w.batch_size = 1;
  w.layout.tensor_parallel = 2;
  CHECK_THROWS_AS(inference_memory_totals(model, weights, w), std::invalid_argument);  // weights made for tp 1
}

TEST_CASE("training_memory_totals gives training_memory's figures") {
  for (const char* file : kModels) {
    CAPTURE(file);
    const ModelDescription model = test::fixture_model(file);
    const auto tensors = weight_tensors(model);
    for (int zero = 0; zero <= 3; ++zero) {
      for (std::int64_t pp : {1, 2}) {
        for (Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
          TrainingWorkload w;
          w.zero_stage = zero;
          w.layout.pipeline_parallel = pp;
          w.layout.data_parallel = 4;
          w.recompute = recompute;
          w.dropout = zero == 1;
          w.flash_attention = zero != 2;
          w.lora.rank = zero == 3 && pp == 1 ? 16 : 0;
          const PreparedTrainingMemory prepared = prepare_training_memory(model, tensors, w);
          for (std::int64_t micro_batch : {1, 3}) {
            for (std::int64_t sequence : {1, 511, 4096}) {
              CAPTURE(zero);
              CAPTURE(pp);
              CAPTURE(micro_batch);
              CAPTURE(sequence);
              w.micro_batch_size = micro_batch;
              w.sequence_tokens = sequence;
              const TrainingMemory shown = training_memory(model, tensors, w);
              const TrainingMemoryTotals fast = training_memory_totals(model, prepared, micro_batch, sequence);
              CHECK(fast.weight_bytes == shown.totals.weight_bytes);
              CHECK(fast.gradient_bytes == shown.totals.gradient_bytes);
              CHECK(fast.optimizer_bytes == shown.totals.optimizer_bytes);
              CHECK(fast.master_weight_bytes == shown.totals.master_weight_bytes);
              CHECK(fast.activation_bytes == shown.totals.activation_bytes);
              CHECK(fast.communication_bytes == shown.totals.communication_bytes);
              CHECK(fast.overhead_bytes == shown.totals.overhead_bytes);
              CHECK(fast.total_bytes_per_gpu == shown.totals.total_bytes_per_gpu);
              CHECK(fast.cpu_offload_bytes == shown.totals.cpu_offload_bytes);
              CHECK(fast.busiest_stage == shown.totals.busiest_stage);
              CHECK(fast.micro_batches_in_flight == shown.totals.micro_batches_in_flight);
              // The shown terms add up to the total the fast path gives.
              std::int64_t sum = 0;
              for (const MemoryTerm& term : shown.terms) sum += term.bytes;
              CHECK(sum == fast.total_bytes_per_gpu);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("training_memory_totals refuses sizes that cannot run, naming the option") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.2-1B-Instruct.json");
  TrainingWorkload w;
  w.context_parallel = 2;
  const PreparedTrainingMemory prepared = prepare_training_memory(model, weight_tensors(model), w);
  const auto option_of = [&](std::int64_t micro_batch, std::int64_t sequence) {
    try {
      training_memory_totals(model, prepared, micro_batch, sequence);
    } catch (const OptionError& error) {
      return error.option();
    }
    return std::string("none");
  };
  CHECK(option_of(0, 4096) == "micro_batch");
  CHECK(option_of(1, 0) == "seq_len");
  CHECK(option_of(1, 1) == "cp");  // cp 2 > 1 token
  CHECK(option_of(1, 2) == "none");
}

TEST_CASE("4,096 layers on 4,096 pipeline stages: figures by hand") {
  // tests/fuzz/regressions/training/pp-4096-of-4096-layers.txt: each stage holds one layer.
  const ModelDescription model =
      parse_hf_config(R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":4096,)"
                      R"("num_attention_heads":8,"num_key_value_heads":8,"vocab_size":1000})");
  TrainingWorkload w;
  w.layout.pipeline_parallel = 4096;
  const TrainingMemory m = training_memory(model, weight_tensors(model), w);
  // Stage 0: one layer (q, k, v, o 4 x 64 x 64 = 16384; gate, up, down 3 x 64 x 128 = 24576;
  // two norms 128: 41088) + embedding 1000 x 64 = 64000 + final norm 64 = 105152 parameters.
  CHECK(m.totals.busiest_stage == 0);
  CHECK(m.totals.weight_bytes == 105152 * 2);
  CHECK(m.totals.gradient_bytes == 105152 * 2);
  CHECK(m.totals.master_weight_bytes == 105152 * 4);
  CHECK(m.totals.optimizer_bytes == 105152 * 4 + 105152 * 8);  // fp32 masters + AdamW's two fp32 moments
  // Per token: norm inputs 2 x 64 x 2 = 256, q/k/v input 128, q and k 16 heads x 8 x 2 = 256,
  // v 128, log-sum-exp 8 x 4 = 32, output projection input 128, MLP input 128, gate and up
  // 2 x 128 x 2 = 512, down input 256: 1824 B; x 4096 tokens = 7,471,104 B per layer; stage 0
  // holds 4096 micro-batches in flight (1F1B).
  CHECK(m.totals.micro_batches_in_flight == 4096);
  CHECK(m.totals.activation_bytes == std::int64_t{7'471'104} * 4096);
  CHECK(m.totals.total_bytes_per_gpu == 105152 * 16 + std::int64_t{7'471'104} * 4096 + (std::int64_t{1} << 30));
}
