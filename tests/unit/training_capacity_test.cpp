// SPDX-License-Identifier: MIT
// The training capacity answers: the largest micro-batch and the longest sequence each fit, and the
// next size does not; what stops them when nothing fits or the config's positions run out.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/training_memory.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

const char* kTinyLlama = "TinyLlama--TinyLlama-1.1B-Chat-v1.0.json";

}  // namespace

TEST_CASE("largest micro-batch fits and the next one does not") {
  const ModelDescription model = test::fixture_model(kTinyLlama);
  const auto tensors = weight_tensors(model);
  const Accelerator& gpu = *find_accelerator("h100");
  TrainingWorkload w;
  w.sequence_tokens = 2048;
  const CapacityAnswer answer = max_micro_batch_size(model, tensors, w, gpu);
  REQUIRE(answer.value > 0);
  w.micro_batch_size = answer.value;
  CHECK(training_memory(model, tensors, w).totals.total_bytes_per_gpu <= gpu.memory_bytes);
  w.micro_batch_size = answer.value + 1;
  CHECK(training_memory(model, tensors, w).totals.total_bytes_per_gpu > gpu.memory_bytes);
}

TEST_CASE("longest sequence fits at the micro-batch and one context-parallel step more does not") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  const Accelerator& gpu = *find_accelerator("rtx-4090");
  TrainingWorkload w;
  w.framework = TrainingFramework::hf;
  w.recompute = Recompute::full;
  w.lora.rank = 16;
  w.lora.qlora = true;
  w.micro_batch_size = 2;
  for (const std::int64_t cp : {1, 2}) {
    CAPTURE(cp);
    w.context_parallel = cp;
    w.layout.data_parallel = 1;
    const CapacityAnswer answer = max_sequence_tokens(model, prepare_training_memory(model, tensors, w), gpu);
    REQUIRE(answer.value > cp);
    CHECK(answer.value % cp == 0);
    TrainingWorkload at = w;
    at.sequence_tokens = answer.value;
    CHECK(training_memory(model, tensors, at).totals.total_bytes_per_gpu <= gpu.memory_bytes);
    at.sequence_tokens = answer.value + cp;
    CHECK(training_memory(model, tensors, at).totals.total_bytes_per_gpu > gpu.memory_bytes);
    CHECK(answer.limited_by.rfind("activations (GPU memory ", 0) == 0);
  }
  // A full fine-tune of an 8B model holds 16 B of states per parameter: no sequence fits in 24 GB.
  TrainingWorkload full;
  const CapacityAnswer none = max_sequence_tokens(model, prepare_training_memory(model, tensors, full), gpu);
  CHECK(none.value == 0);
  CHECK(none.limited_by == "model states, buffers and overhead alone exceed GPU memory");
  // Pythia's config allows 2,048 positions; a LoRA micro-batch on an H100 holds far more: the answer
  // stops there, as the inference context does.
  const ModelDescription pythia = test::fixture_model("EleutherAI--pythia-2.8b.json");
  TrainingWorkload lora;
  lora.framework = TrainingFramework::hf;
  lora.recompute = Recompute::full;
  lora.lora.rank = 8;
  const auto prepared_pythia = prepare_training_memory(pythia, weight_tensors(pythia), lora);
  const Accelerator& h100 = *find_accelerator("h100");
  const CapacityAnswer capped = max_sequence_tokens(pythia, prepared_pythia, h100);
  CHECK(capped.value == 2048);
  CHECK(capped.limited_by == "max_position_embeddings");
  CHECK(training_memory_totals(pythia, prepared_pythia, 1, 4096).total_bytes_per_gpu < h100.memory_bytes);
}
