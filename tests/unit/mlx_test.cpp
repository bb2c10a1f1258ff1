// SPDX-License-Identifier: MIT
// MLX LM on Apple silicon (fitcheck local --engine mlx). Expected values are worked out by hand from
// the config's shapes and the rules docs/local.md ("MLX") cites, written out beside each check.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/mlx.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/params.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

MlxRequest on(const char* chip, int bits, std::int64_t prompt, std::int64_t gen) {
  MlxRequest r;
  r.gpu = *find_accelerator(chip);
  r.quantization.bits = bits;
  r.prompt_len = prompt;
  r.gen_len = gen;
  return r;
}

// Qwen3-8B: 36 layers of hidden 4096, 32 query and 8 key/value heads of 128, MLP 12288, vocabulary
// 151936, untied head; 8,190,735,360 parameters, of which the norms are 36 x (2 x 4096 + 2 x 128) +
// 4096 = 308,224 and the rest are matrices whose input widths divide by 64.
constexpr std::int64_t kQwen3_8bParameters = 8190735360;
constexpr std::int64_t kNormParameters = 36 * (2 * 4096 + 2 * 128) + 4096;
constexpr std::int64_t kEmbeddingParameters = std::int64_t{151936} * 4096;
// 4-bit, group 64, bf16 scales and biases: 4 / 8 + 2 x 2 / 64 = 0.5625 B a weight.
constexpr std::int64_t quantized_4bit(std::int64_t parameters) { return parameters * 9 / 16; }
constexpr std::int64_t kWeights4bit = quantized_4bit(kQwen3_8bParameters - kNormParameters) + kNormParameters * 2;
// K and V of 8 heads x 128 in bf16, 36 layers: bytes a cached token.
constexpr std::int64_t kKvBytesPerSlot = 36 * 8 * (128 + 128) * 2;

}  // namespace

TEST_CASE("mlx: Qwen3-8B in 4 bits on an M4 Max, every figure by hand") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  const MlxEstimate e = estimate_mlx(model, on("m4-max-64gb", 4, 2048, 128));

  CHECK(e.quantized_parameters == kQwen3_8bParameters - kNormParameters);
  CHECK(e.unquantized_parameters == kNormParameters);
  CHECK(e.weight_bytes == 4607731712);  // 8,190,427,136 x 9 / 16 + 308,224 x 2
  CHECK(e.weight_bytes == kWeights4bit);

  // The prompt: one chunk of 2047 tokens (2048 slots), the last prompt token, then 128 generated tokens
  // and the step computed ahead: 2,048 + 1 overflows once, by a block of 256.
  CHECK(e.kv_cache_slots == 2304);
  CHECK(e.kv_cache_bytes == 2304 * kKvBytesPerSlot);

  // The peak is the prefill's: the cache after the chunk, the MLP's live temporaries of 2047 tokens
  // ((2 x 4096 + 3 x 12288) x 2047 x 2 B, above the attention's (2 x 4096 + 2 x 6144 + 4096) x 2047 x 2 B),
  // and eleven 50 MiB command buffers of used inputs (a Max chip), far below the chunk's temporaries.
  const std::int64_t live = (2 * 4096 + 3 * 12288) * std::int64_t{2047} * 2;
  const std::int64_t held = 11 * 50 * (std::int64_t{1} << 20);
  CHECK(e.prefill_peak_bytes == 2048 * kKvBytesPerSlot + live + held);
  CHECK(e.peak_memory_bytes == kWeights4bit + 2048 * kKvBytesPerSlot + live + held);
  CHECK(e.peak_memory_bytes == 5670897664);
  CHECK(e.working_set_bytes == find_accelerator("m4-max-64gb")->gpu_working_set_bytes);
  CHECK(e.fits);

  // Generation at the middle token (2048 + 64 in the cache): every weight but the input embedding's,
  // and the cache, at 0.905 of 546 GB/s, plus 36 layers x 20 kernels x 3.2 us; mlx_lm.benchmark
  // divides 128 tokens by the 127 steps after the first.
  const double read = static_cast<double>(kWeights4bit - quantized_4bit(kEmbeddingParameters)) +
                      2112.0 * static_cast<double>(kKvBytesPerSlot);
  const double token_seconds = read / (546e9 * 0.905) + 720 * 3.2e-6;
  CHECK(e.generation_token_time.kernels == 720);
  CHECK(e.generation_token_time.seconds == doctest::Approx(token_seconds).epsilon(1e-12));
  CHECK(e.generation_tokens_per_second == doctest::Approx(128 / (127 * token_seconds)).epsilon(1e-12));

  // The prompt: 2 x the layers' matrices (embedding and head apart) x 2047 tokens, plus causal attention
  // (2047 x 2048 / 2 query-key pairs x 32 heads x (128 + 128) x 2 per layer), at 0.78 of the fp16 rate
  // (quantized weights), one chunk's 720 kernels, and the first token's step at a 2048-token cache.
  const double matrices = static_cast<double>(kQwen3_8bParameters - 2 * kEmbeddingParameters - kNormParameters);
  const double flops = 2 * matrices * 2047 + 36 * 2 * (2047.0 * 2048 / 2) * 32 * 256;
  const double rate =
      find_accelerator("m4-max-64gb")->dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp16)] * 0.78;
  const double first = (read - 64.0 * kKvBytesPerSlot) / (546e9 * 0.905) + 720 * 3.2e-6;
  CHECK(e.prompt_time.flops == doctest::Approx(flops).epsilon(1e-12));
  CHECK(e.prompt_time.chunks == 1);
  CHECK(e.prompt_tokens_per_second == doctest::Approx(2048 / (flops / rate + 720 * 3.2e-6 + first)).epsilon(1e-9));
  CHECK(e.mlx_command == "mlx_lm.benchmark --model model -p 2048 -g 128");
}

TEST_CASE("mlx: the cache grows in blocks of 256 and a chunk's tokens in whole blocks") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  // 299 tokens in one chunk take two blocks (512 slots); the last prompt token and 10 + 1 steps fit.
  CHECK(estimate_mlx(model, on("m4-max-64gb", 4, 300, 10)).kv_cache_slots == 512);
  // 5000 tokens: chunks of 2048, 2048 and 903 (4096 + 1024 slots); the last prompt token makes 5000
  // in 5120 slots; 120 generated tokens end at 5120, 121 pass it once (5121 > 5120: + 256).
  CHECK(estimate_mlx(model, on("m4-max-64gb", 4, 5000, 120)).kv_cache_slots == 5120);
  CHECK(estimate_mlx(model, on("m4-max-64gb", 4, 5000, 121)).kv_cache_slots == 5376);
  // A prefill step of 512: 4 chunks of 512 and one of 511 fill 2560 slots exactly, then the rest fits.
  MlxRequest small_steps = on("m4-max-64gb", 4, 2560, 2);
  small_steps.prefill_step = 512;
  CHECK(estimate_mlx(model, small_steps).kv_cache_slots == 2816);
}

TEST_CASE("mlx: unquantized weights keep the config's dtype; base and Pro chips hold 40 MiB buffers") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  const MlxEstimate bf16 = estimate_mlx(model, on("m4-pro-48gb", 0, 2048, 128));
  CHECK(bf16.weight_bytes == kQwen3_8bParameters * 2);
  CHECK(bf16.quantized_parameters == 0);
  const std::int64_t live = (2 * 4096 + 3 * 12288) * std::int64_t{2047} * 2;
  CHECK(bf16.peak_memory_bytes == kQwen3_8bParameters * 2 + 2048 * kKvBytesPerSlot + live + 11 * 40 * (1 << 20));
  // Float weights run the prompt at 0.88 of the fp16 rate.
  CHECK(bf16.prompt_time.compute_fraction == doctest::Approx(0.88));
}

TEST_CASE("mlx: a short prompt's chunk reads every layer's weights, so its time is the read's") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  const MlxEstimate e = estimate_mlx(model, on("m4-max-64gb", 4, 16, 100));
  // 15 tokens: 2 x 6.9e9 x 15 FLOP = 0.21 TFLOP, 16 ms at 0.78 x 16.2 TFLOP/s; the layers' 3.9 GB
  // (weights without the embedding and head) take 7.9 ms at 494 GB/s, so compute still wins here...
  const double layers = static_cast<double>(kWeights4bit - 2 * quantized_4bit(kEmbeddingParameters));
  const double read_seconds = layers / (546e9 * 0.905);
  CHECK(e.prompt_time.seconds > read_seconds);
  // ...and with 3 tokens the read sets the chunk's time: 2 tokens of compute take 2.2 ms.
  // The first token's step then reads every weight but the input embedding's and 3 cached tokens.
  const MlxEstimate tiny = estimate_mlx(model, on("m4-max-64gb", 4, 3, 2));
  const double first_token = (static_cast<double>(kWeights4bit - quantized_4bit(kEmbeddingParameters)) +
                              3.0 * static_cast<double>(kKvBytesPerSlot)) /
                                 (546e9 * 0.905) +
                             720 * 3.2e-6;
  CHECK(tiny.prompt_time.first_token_seconds == doctest::Approx(first_token).epsilon(1e-12));
  CHECK(tiny.prompt_time.seconds == doctest::Approx(read_seconds + 720 * 3.2e-6 + first_token).epsilon(1e-12));
}

TEST_CASE("mlx: refusals name the option") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  const auto refused = [&](const MlxRequest& request, const char* option) {
    try {
      (void)estimate_mlx(model, request);
      FAIL("accepted");
    } catch (const OptionError& error) {
      CHECK(error.option() == option);
    }
  };
  refused(on("h100-sxm-80gb", 4, 512, 128), "gpu");
  refused(on("m4-max-64gb", 7, 512, 128), "weights");
  MlxRequest group = on("m4-max-64gb", 4, 512, 128);
  group.quantization.group_size = 48;
  refused(group, "group_size");
  refused(on("m4-max-64gb", 4, 512, 1), "gen_len");
  MlxRequest tiny_steps = on("m4-max-64gb", 4, 1 << 20, 2);
  tiny_steps.prefill_step = 1;
  refused(tiny_steps, "prefill_step");
  // State-space and linear-attention mixers keep caches fitcheck does not model under MLX.
  try {
    (void)estimate_mlx(test::fixture_model("Qwen--Qwen3-Next-80B-A3B-Instruct.json"), on("m3-ultra", 4, 512, 128));
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "engine");
    CHECK(std::string(error.what()).find("linear-attention") != std::string::npos);
  }
}

TEST_CASE("mlx: options and the report") {
  const std::string config = test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json");
  const OptionList options = {{"engine", "mlx"},    {"gpu", "m4-max-64gb"}, {"weights", "8bit"},
                              {"group_size", "32"}, {"prompt_len", "1024"}, {"gen_len", "64"}};
  const MlxRequest r = parse_mlx_options(options);
  CHECK(r.quantization.bits == 8);
  CHECK(r.quantization.group_size == 32);
  CHECK(r.prompt_len == 1024);
  CHECK(parse_mlx_options({{"engine", "mlx"}, {"gpu", "m4-max"}, {"weights", "fp32"}}).dtype == "fp32");
  // fp16 weights: the label and the name say fp16, the bytes stay 2 a weight.
  MlxRequest fp16 = on("m4-max-64gb", 0, 512, 128);
  fp16.dtype = "fp16";
  const MlxEstimate half = estimate_mlx(test::fixture_model("Qwen--Qwen3-8B.json"), fp16);
  CHECK(half.weights == "fp16 (unquantized)");
  CHECK(half.weight_bytes == kQwen3_8bParameters * 2);
  MlxRequest fp32 = fp16;
  fp32.dtype = "fp32";
  CHECK(estimate_mlx(test::fixture_model("Qwen--Qwen3-8B.json"), fp32).weight_bytes == kQwen3_8bParameters * 4);
  const std::string json = mlx_report_json(config, options, "qwen3-8b");
  CHECK(json.find("\"engine\":\"mlx\"") != std::string::npos);
  CHECK(json.find("\"mlx_command\":\"mlx_lm.benchmark --model qwen3-8b-8bit-g32 -p 1024 -g 64\"") != std::string::npos);
  // An unquantized conversion is named after its dtype, the config's when none is asked for: Pythia's
  // config says float16.
  const std::string pythia = test::read_file(test::fixture_configs_dir() + "/EleutherAI--pythia-160m.json");
  CHECK(mlx_report_json(pythia, {{"engine", "mlx"}, {"gpu", "m4-max"}, {"weights", "bf16"}}, "pythia")
            .find("--model pythia-bf16 ") != std::string::npos);
  CHECK(mlx_report_json(pythia, {{"engine", "mlx"}, {"gpu", "m4-max"}, {"weights", "fp16"}}, "pythia")
            .find("--model pythia-fp16 ") != std::string::npos);
  MlxRequest config_dtype = on("m4-max", 0, 512, 128);
  CHECK(mlx_conversion_suffix(parse_hf_config(pythia), config_dtype) == "fp16");
  try {
    (void)parse_mlx_options({{"engine", "mlx"}, {"gpu", "m4-max"}, {"weights", "q4_k_m"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "weights");
  }
  try {
    (void)parse_mlx_options({{"engine", "mlx"}, {"gpu", "m4-max"}, {"ram_gib", "64"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "ram_gib");
  }
  // The installed RAM times llama.cpp's CPU layers; MLX runs on the chip's unified memory.
  CHECK_THROWS_WITH_AS(parse_mlx_options({{"engine", "mlx"}, {"gpu", "m4-max"}, {"ram_mts", "6000"}}),
                       doctest::Contains("option 'ram_mts' is llama.cpp's"), OptionError);
  // llama-bench's -d has no mlx_lm.benchmark counterpart.
  CHECK_THROWS_WITH_AS(parse_mlx_options({{"engine", "mlx"}, {"gpu", "m4-max"}, {"depth", "4096"}}),
                       "option 'depth' is llama.cpp's; --engine mlx takes gpu, weights, group_size, prompt_len, "
                       "gen_len and prefill_step (the chip's unified memory holds everything)",
                       OptionError);
}

TEST_CASE("mlx: kernels a layer, as mlx-lm's models run them at one token") {
  // Qwen2.5-7B: 28 layers of q, k, v with biases and no q/k norms. Quantized, each bias is an add of
  // its own: 12 attention kernels + 3 bias adds + 6 for the gated MLP = 21; in bf16 the adds are fused
  // into the products (nn.Linear's addmm): 18.
  const ModelDescription model = test::fixture_model("Qwen--Qwen2.5-7B-Instruct.json");
  CHECK(estimate_mlx(model, on("m4-max-64gb", 4, 512, 128)).generation_token_time.kernels == 28 * 21);
  CHECK(estimate_mlx(model, on("m4-max-64gb", 0, 512, 128)).generation_token_time.kernels == 28 * 18);
  // Qwen3-30B-A3B: 48 MoE layers with q/k norms: 14 + 14 for the routed block = 28.
  CHECK(estimate_mlx(test::fixture_model("Qwen--Qwen3-30B-A3B.json"), on("m4-max-64gb", 4, 512, 128))
            .generation_token_time.kernels == 48 * 28);
}

TEST_CASE("mlx: a last chunk that fits the slots already allocated copies no cache") {
  // Chunks of 100: the first allocates 256 slots, the second ends at 200 inside them, so no layer's K
  // and V are copied. The peak's prefill side: the cache's 256 slots, the MLP's live temporaries of 100
  // tokens ((2 x 4096 + 3 x 12288) x 100 x 2 B), and the held inputs capped at 11 x 50 MiB (the chunk's
  // layers produce 36 x 16,384,000 B, above it).
  MlxRequest r = on("m4-max-64gb", 4, 201, 2);
  r.prefill_step = 100;
  const MlxEstimate e = estimate_mlx(test::fixture_model("Qwen--Qwen3-8B.json"), r);
  CHECK(e.prefill_peak_bytes == 256 * kKvBytesPerSlot + (2 * 4096 + 3 * 12288) * 100 * 2 + 11 * 50 * (1 << 20));
  for (const MlxMemoryTerm& term : e.terms) CHECK(term.name != "one layer's K and V during a cache growth");
}

TEST_CASE("mlx: a vision model's report keeps the language model's figures and drops the encoders' weights note") {
  // Every config reader that counts encoders says their weights are in the inference memory, in a note
  // is_encoder_weights_note finds; a text-only config has none. MLX LM loads the language model alone.
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(test::fixture_configs_dir()))
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  int with_encoders = 0;
  for (const std::string& path : paths) {
    ModelDescription model;
    try {
      model = parse_hf_config(test::read_file(path));
    } catch (const ConfigError&) {
      continue;  // configs kept as bad-input cases
    }
    const auto notes = std::count_if(model.assumptions.begin(), model.assumptions.end(),
                                     [](const std::string& a) { return is_encoder_weights_note(a); });
    const bool encoders = encoder_parameters(model) > 0;
    with_encoders += encoders ? 1 : 0;
    CHECK_MESSAGE((notes > 0) == encoders, path);
  }
  CHECK(with_encoders >= 10);
  const std::string report =
      mlx_report_json(test::read_file(test::fixture_configs_dir() + "/allenai--olmOCR-7B-0225-preview.json"),
                      {{"engine", "mlx"}, {"gpu", "m4-max"}}, "olmOCR-7B");
  CHECK(report.find("total_params_with_vision") == std::string::npos);
  CHECK(report.find("mlx-lm loads no vision or audio tower") != std::string::npos);
}
