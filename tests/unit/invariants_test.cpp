// SPDX-License-Identifier: MIT
// Invariants as property tests over synthetic Llama, MoE and MLA configs drawn from a fixed seed
// (splitmix64, the same sequence on every platform), and a grid over every bundled config: every
// number in every report is finite and exact in JavaScript.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fitcheck/config.hpp"
#include "fitcheck/inference_memory.hpp"
#include "fitcheck/params.hpp"
#include "fitcheck/quantization.hpp"
#include "fitcheck/report.hpp"
#include "test_support.hpp"

using namespace fitcheck;
using Json = nlohmann::ordered_json;

namespace {

// splitmix64 (Steele, Lea, Flood 2014): fully specified, unlike the std distributions.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::int64_t pick(std::int64_t low, std::int64_t high) {  // inclusive
    return low + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(high - low + 1));
  }
  bool coin() { return next() & 1; }
};

// Shapes in multiples of 64/256, as every published model has them (the quantized-size invariant
// needs matrices wider than a quantization block).
struct Synthetic {
  Json config;
  std::int64_t hidden = 0, vocab = 0, layers = 0;
  std::int64_t kv_values_per_token_per_layer = 0;  // hand formula: 2 x kv heads x head_dim, or MLA latent + rope
};

Synthetic synthetic(Random& random, int kind) {
  Synthetic s;
  const std::int64_t head_dim = random.coin() ? 64 : 128;
  const std::int64_t heads = std::int64_t{1} << random.pick(2, 5);
  const std::int64_t kv_heads = std::int64_t{1} << random.pick(0, 2);
  s.hidden = heads * head_dim;
  s.vocab = 256 * random.pick(4, 300);
  s.layers = random.pick(2, 24);
  Json& c = s.config;
  c["hidden_size"] = s.hidden;
  c["num_hidden_layers"] = s.layers;
  c["num_attention_heads"] = heads;
  c["vocab_size"] = s.vocab;
  c["intermediate_size"] = 256 * random.pick(2, 40);
  c["tie_word_embeddings"] = random.coin();
  c["max_position_embeddings"] = 1 << 17;
  if (kind == 0) {  // Llama / Mistral, sometimes with a sliding window
    c["model_type"] = random.coin() ? "llama" : "mistral";
    if (c["model_type"] == "mistral" && random.coin()) c["sliding_window"] = 512 * random.pick(1, 8);
    c["num_key_value_heads"] = kv_heads;
    s.kv_values_per_token_per_layer = 2 * kv_heads * head_dim;
  } else if (kind == 1) {  // Mixtral / Qwen3-MoE
    c["model_type"] = random.coin() ? "mixtral" : "qwen3_moe";
    const std::int64_t experts = std::int64_t{1} << random.pick(2, 6);
    c["num_local_experts"] = experts;
    c["num_experts_per_tok"] = random.pick(1, std::min<std::int64_t>(experts, 8));
    c["moe_intermediate_size"] = 256 * random.pick(1, 8);
    c["num_key_value_heads"] = kv_heads;
    s.kv_values_per_token_per_layer = 2 * kv_heads * head_dim;
  } else {  // DeepSeek-V3 multi-head latent attention
    c["model_type"] = "deepseek_v3";
    const std::int64_t latent = 128 * random.pick(1, 4), rope = 64;
    c["kv_lora_rank"] = latent;
    if (random.coin()) c["q_lora_rank"] = 256;
    c["qk_nope_head_dim"] = 128;
    c["qk_rope_head_dim"] = rope;
    c["v_head_dim"] = 128;
    c["n_routed_experts"] = 8 * random.pick(1, 8);
    c["num_experts_per_tok"] = random.pick(1, 8);
    c["n_shared_experts"] = random.pick(0, 2);
    c["moe_intermediate_size"] = 256 * random.pick(1, 4);
    c["first_k_dense_replace"] = random.pick(0, 2);
    s.kv_values_per_token_per_layer = latent + rope;
  }
  return s;
}

std::vector<Synthetic> synthetic_models() {
  Random random{20260101};
  std::vector<Synthetic> models;
  for (int i = 0; i < 60; ++i) models.push_back(synthetic(random, i % 3));
  return models;
}

std::int64_t weights_per_gpu(const ModelDescription& model, const std::vector<WeightTensor>& tensors, std::int64_t tp,
                             WeightFormat format) {
  ParallelLayout layout;
  layout.tensor_parallel = tp;
  return weight_bytes(tensors_on_busiest_gpu(model, tensors, layout), format).total_bytes;
}

// Every number finite, every integer exact as a JavaScript number, nothing null but the answers
// that need a GPU.
void check_numbers(const nlohmann::json& value, const std::string& key) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) check_numbers(it.value(), it.key());
  } else if (value.is_array()) {
    for (const auto& item : value) check_numbers(item, key);
  } else if (value.is_null()) {
    CHECK_MESSAGE((key == "max_micro_batch_size" || key == "max_sequence_tokens"), "null (NaN or Infinity) at " << key);
  } else if (value.is_number_float()) {
    CHECK_MESSAGE(std::isfinite(value.get<double>()), key);
  } else if (value.is_number_integer() && key.find("flops") == std::string::npos) {  // FLOP counts are estimates
    CHECK_MESSAGE(std::llabs(value.get<std::int64_t>()) <= (std::int64_t{1} << 53), key);
  }
}

}  // namespace

TEST_CASE("the inventory is the count, active never exceeds total, tying saves exactly vocab x hidden") {
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    const ModelDescription model = parse_hf_config(s.config.dump());
    const ParameterCount count = count_parameters(model);
    std::int64_t inventory = 0;
    for (const auto& tensor : weight_tensors(model)) inventory += tensor.parameters();
    CHECK(inventory == count.total);
    const ParameterBreakdown& b = count.breakdown;
    CHECK(b.embedding + b.attention + b.mlp + b.routed_experts + b.shared_experts + b.router + b.norms + b.lm_head +
              b.ssm ==
          count.total);
    CHECK(count.active_per_token <= count.total);
    CHECK(count.active_per_token > 0);

    Json tied = s.config, untied = s.config;
    tied["tie_word_embeddings"] = true;
    untied["tie_word_embeddings"] = false;
    const std::int64_t tied_total = count_parameters(parse_hf_config(tied.dump())).total;
    const std::int64_t untied_total = count_parameters(parse_hf_config(untied.dump())).total;
    CHECK(untied_total - tied_total == s.vocab * s.hidden);
  }
}

TEST_CASE("KV per token is the sum over layer kinds, and matches the hand formula") {
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    const ModelDescription model = parse_hf_config(s.config.dump());
    std::int64_t per_token = 0;
    for (const auto& kind : model.layer_kinds)
      per_token += kv_cache_bytes_per_token_per_layer(kind, KvCacheDtype::bf16) * kind.layer_count;
    InferenceWorkload workload;
    workload.context_tokens = 1000;
    workload.batch_size = 3;
    const KvCacheFigure figure = kv_cache(model, workload);
    CHECK(figure.bytes_per_token == per_token);
    CHECK(per_token == s.kv_values_per_token_per_layer * 2 * s.layers);  // bf16: 2 B per value
    std::int64_t cache = 0;  // the whole batch: each layer keeps min(context, window) tokens
    for (const auto& kind : model.layer_kinds) {
      const std::int64_t window = kind.attention.sliding_window;
      cache += kv_cache_bytes_per_token_per_layer(kind, KvCacheDtype::bf16) * kind.layer_count * 3 *
               (window > 0 ? std::min<std::int64_t>(1000, window) : 1000);
    }
    CHECK(figure.bytes == cache);
  }
}

TEST_CASE("more GPUs under tensor parallelism never raise per-GPU weight bytes") {
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    const ModelDescription model = parse_hf_config(s.config.dump());
    const auto tensors = weight_tensors(model);
    for (const WeightFormat format : {WeightFormat::bf16, WeightFormat::fp8_e4m3_block128, WeightFormat::gptq,
                                      WeightFormat::gguf_q4_k_m, WeightFormat::bnb_nf4}) {
      std::int64_t previous = weights_per_gpu(model, tensors, 1, format);
      for (std::int64_t tp = 2; tp <= 64; tp *= 2) {
        std::int64_t bytes = 0;
        try {
          bytes = weights_per_gpu(model, tensors, tp, format);
        } catch (const std::invalid_argument&) {
          break;  // tp no longer divides the heads
        }
        CAPTURE(tp);
        CHECK(bytes <= previous);
        previous = bytes;
      }
    }
  }
}

TEST_CASE("inference memory never shrinks as batch or context grows") {
  Random random{7};
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    const ModelDescription model = parse_hf_config(s.config.dump());
    const auto tensors = weight_tensors(model);
    InferenceWorkload workload;
    workload.kv_cache_dtype = random.coin() ? KvCacheDtype::bf16 : KvCacheDtype::int4;
    workload.kv_block_tokens = random.coin() ? 16 : 0;
    workload.prefill_chunk_tokens = random.coin() ? 2048 : 0;
    workload.flash_attention = random.coin();
    workload.context_tokens = random.pick(1, 8192);
    workload.batch_size = random.pick(1, 16);
    const std::int64_t base = inference_memory(model, tensors, workload).totals.total_bytes_per_gpu;
    InferenceWorkload more_batch = workload, more_context = workload;
    more_batch.batch_size += random.pick(1, 16);
    more_context.context_tokens += random.pick(1, 8192);
    CHECK(inference_memory(model, tensors, more_batch).totals.total_bytes_per_gpu >= base);
    CHECK(inference_memory(model, tensors, more_context).totals.total_bytes_per_gpu >= base);
    CHECK(kv_cache(model, more_context).bytes >= kv_cache(model, workload).bytes);
  }
}

TEST_CASE("formats under 16 bits never store more than bf16") {
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    const auto tensors = weight_tensors(parse_hf_config(s.config.dump()));
    const std::int64_t bf16 = weight_bytes(tensors, WeightFormat::bf16).total_bytes;
    for (const WeightFormatInfo& format : weight_formats()) {
      if (format.base_bits_per_weight >= 16) continue;
      CAPTURE(format.id);
      CHECK(weight_bytes(tensors, format.format).total_bytes <= bf16);
    }
  }
}

TEST_CASE("more GPUs under ZeRO-3 never raise per-GPU training memory") {
  for (const Synthetic& s : synthetic_models()) {
    CAPTURE(s.config.dump());
    std::int64_t previous = INT64_MAX;
    for (const char* gpus : {"1", "2", "4", "8", "16", "64", "256"}) {
      CAPTURE(gpus);
      const auto report = nlohmann::json::parse(training_report_json(s.config.dump(), {{"zero", "3"}, {"gpus", gpus}}));
      const auto total = report["total_bytes_per_gpu"].get<std::int64_t>();
      CHECK(total <= previous);
      previous = total;
    }
  }
}

TEST_CASE("every number in every report over a grid of configs and workloads is finite and exact") {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(test::fixture_configs_dir()))
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  REQUIRE(paths.size() > 40);
  const std::vector<OptionList> inference = {
      {},
      {{"gpu", "h100-sxm-80gb"}, {"batch", "8"}, {"context", "32768"}, {"weights", "q4_k_m"}, {"kv_dtype", "fp8"}},
      {{"gpu", "v100-sxm2-16gb"},
       {"weights", "gptq"},
       {"weight_bits", "3"},
       {"kv_block", "16"},
       {"prefill_chunk", "512"}},
      {{"gpu", "t4"},
       {"eager_attention", "true"},
       {"logits_all_positions", "true"},
       {"kv_dtype", "int4"},
       {"prompt_len", "1"},
       {"gen_len", "1"}},
      {{"gpu", "tpu-v5e"}, {"weights", "nf4"}, {"overhead_gib", "0"}, {"price_per_gpu_hour", "0"}},
      {{"gpu", "m3-ultra"}, {"batch", "16777216"}, {"context", "1"}},
  };
  const std::vector<OptionList> training = {
      {},
      {{"gpus", "64"}, {"zero", "3"}, {"gpu", "h100-sxm-80gb"}, {"recompute", "full"}},
      {{"lora_rank", "16"}, {"qlora", "true"}, {"gpu", "rtx-4090"}, {"optimizer", "adafactor"}},
  };
  for (std::size_t i = 0; i < paths.size(); ++i) {
    CAPTURE(paths[i]);
    const std::string text = test::read_file(paths[i]);
    std::string report;
    try {
      report = parameter_report_json(text);
    } catch (const ConfigError&) {
      continue;  // families fitcheck refuses are covered elsewhere
    }
    check_numbers(nlohmann::json::parse(report), "");
    // Each config meets two inference workloads and one training workload, in rotation.
    for (const OptionList& options : {inference[i % inference.size()], inference[(i + 3) % inference.size()]}) {
      try {
        check_numbers(nlohmann::json::parse(inference_report_json(text, options)), "");
      } catch (const std::overflow_error&) {
      } catch (const std::invalid_argument&) {  // a layout the model cannot take
      }
    }
    try {
      check_numbers(nlohmann::json::parse(training_report_json(text, training[i % training.size()])), "");
    } catch (const std::invalid_argument&) {
    } catch (const ConfigError&) {  // training refuses state-space layers (Nemotron-H): hybrid_test.cpp
    }
  }
}
