// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

ModelDescription shared_model(const char* file) {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + file));
}

InferenceWorkload workload(std::int64_t batch, std::int64_t context, KvCacheDtype dtype = KvCacheDtype::bf16) {
  InferenceWorkload w;
  w.batch_size = batch;
  w.context_tokens = context;
  w.kv_cache_dtype = dtype;
  return w;
}

// Mistral-7B-v0.1 shapes (mistralai/Mistral-7B-v0.1 config.json): 4096-token sliding window on every layer.
const char* mistral_7b = R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
  "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,"sliding_window":4096,"tie_word_embeddings":false,
  "max_position_embeddings":32768})";

// DeepSeek-V2-Lite shapes (deepseek-ai/DeepSeek-V2-Lite config.json): MLA without a q low-rank.
const char* deepseek_v2_lite = R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,
  "num_hidden_layers":27,"num_attention_heads":16,"num_key_value_heads":16,"q_lora_rank":null,"kv_lora_rank":512,
  "qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"n_routed_experts":64,"num_experts_per_tok":6,
  "n_shared_experts":2,"moe_intermediate_size":1408,"first_k_dense_replace":1,"moe_layer_freq":1,"vocab_size":102400,
  "tie_word_embeddings":false,"topk_method":"greedy"})";

}  // namespace

TEST_CASE("KV cache of Llama-3.1-8B: GQA 8 kv heads x 128") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  // K and V: 2 x 8 heads x 128 x 2 B = 4,096 B per token per layer; x 32 layers = 131,072 B.
  CHECK(kv_cache_bytes_per_token_per_layer(model.layer_kinds[0], KvCacheDtype::bf16) == 4096);
  const KvCacheFigure cache = kv_cache(model, workload(1, 8192));
  CHECK(cache.bytes_per_token == 131'072);
  CHECK(cache.bytes == 131'072LL * 8192);  // exactly 1 GiB
  CHECK(kv_cache(model, workload(4, 8192, KvCacheDtype::fp8)).bytes == 4 * 65'536LL * 8192);
  // int4: 2,048 values x 4 bits = 1,024 B, plus 2,048/64 = 32 groups x 4 B of scale and zero = 1,152 B.
  CHECK(kv_cache_bytes_per_token_per_layer(model.layer_kinds[0], KvCacheDtype::int4) == 1152);
}

TEST_CASE("KV cache of Qwen3-8B with explicit head_dim") {
  const ModelDescription model = shared_model("Qwen--Qwen3-8B.json");
  // 2 x 8 kv heads x 128 x 2 B x 36 layers = 147,456 B per token.
  CHECK(kv_cache(model, workload(1, 1)).bytes_per_token == 147'456);
}

TEST_CASE("sliding windows cap the cache: Mistral-7B") {
  const ModelDescription model = parse_hf_config(mistral_7b);
  // 32,768 tokens, but each layer keeps 4,096: 4,096 B x 4,096 tokens x 32 layers = 536,870,912 B.
  CHECK(kv_cache(model, workload(1, 32768)).bytes == 536'870'912);
  // Below the window the whole context is cached: 4,096 B x 1,000 x 32.
  CHECK(kv_cache(model, workload(1, 1000)).bytes == 4096LL * 1000 * 32);
}

TEST_CASE("alternating local/global layers: Gemma-2 2B and Gemma-3 27B") {
  // Gemma-2 2B: 26 layers, 4 kv heads x 256: 4,096 B per token per layer; even layers see 4,096 tokens.
  // At 8,192 tokens: 13 x 4,096 x 4,096 + 13 x 8,192 x 4,096 = 654,311,424 B.
  CHECK(kv_cache(shared_model("Ayush2006128--mithoon-2b.json"), workload(1, 8192)).bytes == 654'311'424);
  // Gemma-3 27B: 62 layers, 16 kv heads x 128 = 8,192 B per token per layer, window 1,024, every 6th global.
  // At 32,768 tokens: 52 x 1,024 x 8,192 + 10 x 32,768 x 8,192 = 3,120,562,176 B (all-global would be 16,642,998,272).
  const KvCacheFigure gemma3 = kv_cache(shared_model("google--medgemma-27b-it.json"), workload(1, 32768));
  CHECK(gemma3.bytes == 3'120'562'176);
  CHECK(gemma3.bytes_per_token == 62 * 8192);
}

TEST_CASE("chunked attention caps the cache of Llama 4's RoPE layers at attention_chunk_size") {
  // Llama 4 Scout: 48 layers, 8 kv heads x 128 = 4,096 B per token per layer. 36 chunked layers keep at
  // most 8,192 tokens (vLLM's local attention of attention_chunk_size); the 12 NoPE layers (every 4th)
  // keep the whole context. At 131,072 tokens: 36 x 8,192 x 4,096 + 12 x 131,072 x 4,096 =
  // 7,650,410,496 B (all-global would be 25,769,803,776).
  const ModelDescription scout = shared_model("meta-llama--Llama-4-Scout-17B-16E-Instruct.json");
  CHECK(kv_cache(scout, workload(1, 131072)).bytes == 7'650'410'496);
  // Below the chunk every layer keeps the whole context: 4,096 B x 48 layers x 4,000 tokens.
  CHECK(kv_cache(scout, workload(1, 4000)).bytes == 4096LL * 48 * 4000);
}

TEST_CASE("MLA caches the latent: DeepSeek-V3 and DeepSeek-V2-Lite") {
  // (kv_lora_rank 512 + qk_rope_head_dim 64) x 2 B = 1,152 B per token per layer.
  const ModelDescription v3 = shared_model("deepseek-ai--DeepSeek-V3.json");
  CHECK(kv_cache_bytes_per_token_per_layer(v3.layer_kinds[0], KvCacheDtype::bf16) == 1152);
  CHECK(kv_cache(v3, workload(1, 4096)).bytes == 1152LL * 61 * 4096);  // 287,834,112 B
  const ModelDescription lite = parse_hf_config(deepseek_v2_lite);
  CHECK(kv_cache(lite, workload(2, 1000)).bytes_per_token == 1152 * 27);
  CHECK(kv_cache(lite, workload(2, 1000)).bytes == 1152LL * 27 * 1000 * 2);
  // Tensor parallelism does not split the latent: every rank keeps all of it.
  InferenceWorkload tp8 = workload(1, 4096);
  tp8.layout.tensor_parallel = 8;
  CHECK(kv_cache(v3, tp8).bytes == 1152LL * 61 * 4096);
}

TEST_CASE("tensor parallelism splits KV heads, and replicates them when ranks outnumber heads") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  InferenceWorkload w = workload(1, 1024);
  w.layout.tensor_parallel = 2;
  CHECK(kv_cache(model, w).bytes == 131'072LL * 1024 / 2);
  w.layout.tensor_parallel = 16;  // 8 kv heads over 16 ranks: one head per rank, 1/8 of the cache
  CHECK(kv_cache(model, w).bytes == 131'072LL * 1024 / 8);
}

TEST_CASE("paged allocation rounds each sequence up to whole blocks") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  InferenceWorkload w = workload(3, 100);
  w.kv_block_tokens = 16;  // 100 tokens occupy 7 blocks = 112 token slots
  CHECK(kv_cache(model, w).bytes == 131'072LL * 112 * 3);
}

TEST_CASE("weights per GPU under tensor and pipeline parallelism") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  InferenceWorkload w = workload(1, 1);
  CHECK(inference_memory(model, tensors, w).totals.weight_bytes == 16'060'522'496);
  // tp 2 halves every matrix (vocab-parallel embedding and lm_head too); the 266,240 norm weights
  // stay whole: ((8,030,261,248 - 266,240) / 2 + 266,240) x 2 B = 8,030,527,488 B.
  w.layout.tensor_parallel = 2;
  CHECK(inference_memory(model, tensors, w).totals.weight_bytes == 8'030'527'488);
  // pp 2: 16 layers per stage. A layer is 2 x 4096^2 + 2 x 4096 x 1024 + 3 x 4096 x 14336 + 2 x 4096
  // = 218,112,000 parameters; stage 0 adds the 525,336,576 embedding and the final norm (4,096, kept
  // on both end stages): 4,015,132,672 parameters x 2 B.
  w.layout.tensor_parallel = 1;
  w.layout.pipeline_parallel = 2;
  CHECK(inference_memory(model, tensors, w).totals.weight_bytes == 8'030'265'344);
}

TEST_CASE("a multimodal checkpoint's encoders load with the language model, unquantized, split over tp") {
  // medgemma-27b-it (params_test.cpp): language model 27,009,346,304; SigLIP tower 416,866,032 and
  // projector 6,194,304 = 423,060,336 encoder parameters x 2 B = 846,120,672 B.
  const ModelDescription model = shared_model("google--medgemma-27b-it.json");
  const auto tensors = weight_tensors(model);
  InferenceWorkload w = workload(1, 1);
  InferenceMemory memory = inference_memory(model, tensors, w);
  CHECK(memory.totals.encoder_weight_bytes == 846'120'672);
  CHECK(memory.totals.weight_bytes == 27'009'346'304LL * 2 + 846'120'672);
  CHECK(memory.terms[0].formula.find("423060336 params x 2 B unquantized = 846120672 B") != std::string::npos);
  // tp 2: half of the encoders on each rank.
  w.layout.tensor_parallel = 2;
  CHECK(inference_memory(model, tensors, w).totals.encoder_weight_bytes == 423'060'336);
  // A 4-bit format quantizes the language model only: the encoders stay 2 B a parameter.
  w.layout.tensor_parallel = 1;
  w.weight_format = WeightFormat::awq;
  memory = inference_memory(model, tensors, w);
  CHECK(memory.totals.encoder_weight_bytes == 846'120'672);
  CHECK(memory.totals.weight_bytes == weight_bytes(tensors, WeightFormat::awq).total_bytes + 846'120'672);
  // A text model has none: Llama-3.1-8B's weights as above.
  const ModelDescription text = shared_model("meta-llama--Llama-3.1-8B.json");
  const InferenceMemory text_memory = inference_memory(text, weight_tensors(text), workload(1, 1));
  CHECK(text_memory.totals.encoder_weight_bytes == 0);
  CHECK(text_memory.totals.weight_bytes == 16'060'522'496);
}

TEST_CASE("expert parallelism splits routed experts") {
  const ModelDescription model = shared_model("mistralai--Mixtral-8x7B-v0.1.json");
  const auto tensors = weight_tensors(model);
  InferenceWorkload w = workload(1, 1);
  const std::int64_t whole = inference_memory(model, tensors, w).totals.weight_bytes;
  w.layout.expert_parallel = 8;
  const std::int64_t split = inference_memory(model, tensors, w).totals.weight_bytes;
  // 8 experts over 8 ranks: each keeps 1 of 8 experts; experts are 3 x 4096 x 14336 x 8 x 32 layers.
  const std::int64_t expert_params = 3LL * 4096 * 14336 * 8 * 32;
  CHECK(whole - split == expert_params / 8 * 7 * 2);
}

TEST_CASE("layouts that cannot run are refused") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  InferenceWorkload w = workload(1, 1);
  w.layout.tensor_parallel = 3;
  CHECK_THROWS_WITH_AS(inference_memory(model, tensors, w), doctest::Contains("does not divide"),
                       std::invalid_argument);
  w.layout.tensor_parallel = 1;
  w.layout.pipeline_parallel = 33;
  CHECK_THROWS_WITH_AS(inference_memory(model, tensors, w), doctest::Contains("33"), std::invalid_argument);
  w.layout.pipeline_parallel = 1;
  w.layout.expert_parallel = 2;
  CHECK_THROWS_AS(inference_memory(model, tensors, w), std::invalid_argument);
  w.layout.expert_parallel = 1;
  w.batch_size = 0;
  CHECK_THROWS_AS(inference_memory(model, tensors, w), std::invalid_argument);
}

TEST_CASE("memory is monotone in batch and context, and tensor parallelism never adds weight bytes per GPU") {
  const ModelDescription model = shared_model("Qwen--Qwen3-30B-A3B.json");
  const auto tensors = weight_tensors(model);
  std::int64_t previous = 0;
  for (std::int64_t batch : {1, 2, 5, 16, 64}) {
    const auto total = inference_memory(model, tensors, workload(batch, 2048)).totals.total_bytes_per_gpu;
    CHECK(total > previous);
    previous = total;
  }
  previous = 0;
  for (std::int64_t context : {1, 100, 4096, 32768}) {
    const auto total = inference_memory(model, tensors, workload(2, context)).totals.total_bytes_per_gpu;
    CHECK(total > previous);
    previous = total;
  }
  std::int64_t weights = INT64_MAX;
  for (std::int64_t tp : {1, 2, 4}) {
    InferenceWorkload w = workload(1, 1);
    w.layout.tensor_parallel = tp;
    const auto per_gpu = inference_memory(model, tensors, w).totals.weight_bytes;
    CHECK(per_gpu < weights);
    weights = per_gpu;
  }
}

TEST_CASE("capacity answers sit exactly at the budget edge") {
  const ModelDescription model = shared_model("meta-llama--Llama-3.1-8B.json");
  const auto tensors = weight_tensors(model);
  const Accelerator& gpu = *find_accelerator("h100-sxm-80gb");
  InferenceWorkload w = workload(1, 8192);
  w.prefill_chunk_tokens = 2048;
  const auto budget = static_cast<std::int64_t>(0.9 * static_cast<double>(gpu.memory_bytes));
  const CapacityAnswer batch = max_batch_size(model, tensors, w, gpu);
  REQUIRE(batch.value > 1);
  CHECK(batch.limited_by == "kv_cache");
  w.batch_size = batch.value;
  CHECK(inference_memory(model, tensors, w).totals.total_bytes_per_gpu <= budget);
  w.batch_size = batch.value + 1;
  CHECK(inference_memory(model, tensors, w).totals.total_bytes_per_gpu > budget);

  w.batch_size = 1;
  const CapacityAnswer context = max_context_tokens(model, tensors, w, gpu);
  CHECK(context.value == 131072);  // an 80 GB GPU holds more than the model's 131,072 positions
  CHECK(context.limited_by == "max_position_embeddings");

  // Llama-3.1-405B at bf16 (811.7 GB of weights) needs at least 12 x 80 GB; the answer must fit and one fewer must not.
  const ModelDescription big = shared_model("meta-llama--Llama-3.1-405B.json");
  const auto big_tensors = weight_tensors(big);
  const CapacityAnswer gpus = min_gpus(big, big_tensors, workload(1, 4096), gpu);
  CHECK(gpus.value >= 12);
  CHECK(gpus.value <= 16);
}
