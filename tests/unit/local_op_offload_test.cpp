// SPDX-License-Identifier: MIT
// The compute buffers of a model split between a GPU and the CPU, as llama.cpp's op offload leaves them:
// the first GPU runs the prompt's ops of the weights kept in RAM, one weight copied at a time, and the host
// buffer keeps the graph inputs. Expected bytes are written out by hand from the tensors' shapes and ggml's
// block sizes; each case names the published load log it reproduces.
#include <doctest/doctest.h>

#include <cstdint>

#include "fitcheck/hardware.hpp"
#include "fitcheck/local.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

LocalRequest on_gpu(const char* id) { return test::local_request_on(id, 64); }

// The LM Studio loads of DeepSeek-R1-0528-Qwen3-8B Q8_0 (Qwen3-8B's shapes) on an RTX 3060 Ti, flash attention off.
LocalEstimate qwen3_8b_q8_0_on_3060_ti(std::int64_t context, std::int64_t n_gpu_layers) {
  const LocalModel model = local_model_from_config(test::fixture_model("Qwen--Qwen3-8B.json"), WeightFormat::gguf_q8_0);
  LocalRequest r = on_gpu("rtx-3060-ti");
  r.context = context;
  r.flash_attention = false;
  r.n_gpu_layers = n_gpu_layers;
  return estimate_local(model, r);
}

const LocalDeviceUse& device(const LocalEstimate& e, const char* name) {
  for (const LocalDeviceUse& d : e.placement.devices)
    if (d.name == name) return d;
  FAIL("no device " << name);
  return e.placement.devices.front();
}

}  // namespace

TEST_CASE("op offload: the head in RAM is multiplied on the GPU, its copy beside the logits") {
  // DeepSeek-R1-0528-Qwen3-8B Q8_0 (Qwen3-8B's shapes) in LM Studio at -ngl 0, n_ctx 4096, no flash attention
  // (Nemeca99/AIOS d224de02 docs/archive/CursorLogs/cursor_cursor_issues_with_pytest_perfor.md):
  // "CUDA0 compute buffer size = 935.34 MiB", "CUDA_Host compute buffer size = 16.01 MiB" with no layer on the GPU.
  const LocalEstimate e = qwen3_8b_q8_0_on_3060_ti(4096, 0);
  // output.weight Q8_0: 151936 x 4096 values, 34 bytes per 32; logits 151936 x 512 f32; normed state 4096 x 512 f32.
  const std::int64_t head = std::int64_t{151936} * 4096 / 32 * 34;
  const std::int64_t logits = std::int64_t{151936} * 512 * 4;
  const std::int64_t normed = std::int64_t{4096} * 512 * 4;
  CHECK(device(e, "CUDA0").layers == 0);
  CHECK(device(e, "CUDA0").compute_buffer_bytes == head + logits + normed);
  CHECK(test::mib(device(e, "CUDA0").compute_buffer_bytes) == doctest::Approx(935.34).epsilon(0.0001));
  // The host keeps the inputs: the token embeddings (4096 x 512 f32) and the f32 mask (4096 cells x 512).
  CHECK(device(e, "CPU").compute_buffer_bytes == normed + std::int64_t{4096} * 512 * 4);
}

TEST_CASE("op offload: a quantized head in RAM beside GPU layers (Qwen2.5-32B's shapes, 29 of 65 layers)") {
  // DeepSeek-R1-Distill-Qwen-32B Q4_K_M on an RTX 3060 at 29 of 65 layers, n_ctx 8192, flash attention, q8_0
  // cache: the GPU's own layers peak far lower than the head's copy beside its logits.
  const LocalModel model = local_model_from_config(
      test::fixture_model("deepseek-ai--DeepSeek-R1-Distill-Qwen-32B.json"), WeightFormat::gguf_q4_k_m);
  LocalRequest r = on_gpu("rtx-3060-12gb");
  r.context = 8192;
  r.kv_type = LocalKvType::q8_0;
  r.n_gpu_layers = 29;
  const LocalEstimate e = estimate_local(model, r);
  // Q4_K_M keeps output.weight in Q6_K: 152064 x 5120 values, 210 bytes per 256.
  const std::int64_t head = std::int64_t{152064} * 5120 / 256 * 210;
  const std::int64_t copy_peak = head + (std::int64_t{152064} + 5120) * 512 * 4;
  CHECK(device(e, "CUDA0").compute_buffer_bytes == copy_peak);
  // The host keeps the inputs of a current build: two hidden-sized ones and the f16 mask (8192 cells x 512).
  CHECK(device(e, "CPU").compute_buffer_bytes == 2 * std::int64_t{5120} * 512 * 4 + std::int64_t{8192} * 512 * 2);
  CHECK(test::mentions(e.assumptions, "op offload"));
}

TEST_CASE("op offload: the attention of a layer in RAM runs on the GPU with its K and V copied in") {
  // The same Qwen3-8B file at -ngl 19 and n_ctx 131072 without flash attention prints 9240.00 MiB on CUDA0 and
  // 264.01 MiB on the host; the GPU's peak is a layer's scores with the mask, and for a layer in RAM its cache.
  const LocalEstimate e = qwen3_8b_q8_0_on_3060_ti(131072, 19);
  const std::int64_t scores = std::int64_t{32} * 131072 * 512 * 4;           // KQ, 32 heads
  const std::int64_t mask = std::int64_t{131072} * 512 * 4;                  // f32 without flash attention
  const std::int64_t states = 2 * std::int64_t{4096} * 512 * 4 * 2;          // two hidden states, Q and the output
  const std::int64_t cache_copy = std::int64_t{131072} * (1024 + 1024) * 2;  // one layer's K and V, f16
  CHECK(device(e, "CUDA0").compute_buffer_bytes == scores + mask + states + cache_copy);
  CHECK(test::mib(device(e, "CUDA0").compute_buffer_bytes) == doctest::Approx(9240.0).epsilon(0.03));
  CHECK(device(e, "CPU").compute_buffer_bytes == std::int64_t{4096} * 512 * 4 + mask);
}

TEST_CASE("op offload: routed-expert biases stay in RAM with their experts, and below 32 tokens nothing moves") {
  // gpt-oss-20b (ggml-org's MXFP4 MoE GGUF) with --n-cpu-moe 99 on an RTX 3070 (ikawrakow/ik_llama.cpp#822, a
  // mainline b6699 log): "CUDA0 model buffer size = 1242.03 MiB"; ffn_{gate,up,down}_exps.bias match the
  // override's pattern and load into the CPU buffer with the experts.
  const LocalModel model =
      local_model_from_config(test::fixture_model("openai--gpt-oss-20b.json"), WeightFormat::gguf_mxfp4_moe);
  // Per layer: three MXFP4 expert tensors of 32 x 2880 x 2880 (17 bytes per 32) and three f32 bias tables of
  // 32 x 2880.
  CHECK(model.layers[0].expert_bytes ==
        3 * (std::int64_t{32} * 2880 * 2880 / 32 * 17) + 3 * std::int64_t{32} * 2880 * 4);
  LocalRequest r = on_gpu("rtx-3070");
  r.context = 131072;
  r.n_gpu_layers = 99;
  r.n_cpu_moe = 99;
  const LocalEstimate e = estimate_local(model, r);
  CHECK(test::mib(device(e, "CUDA0").model_buffer_bytes) == doctest::Approx(1242.03).epsilon(0.0001));

  // A ubatch under 32 tokens stays below ggml-cuda's offload_op batch: the head is multiplied where it is.
  const LocalModel qwen = local_model_from_config(test::fixture_model("Qwen--Qwen3-8B.json"), WeightFormat::gguf_q8_0);
  LocalRequest small = on_gpu("rtx-3060-ti");
  small.context = 4096;
  small.n_gpu_layers = 0;
  small.ubatch = 16;
  CHECK(device(estimate_local(qwen, small), "CUDA0").compute_buffer_bytes == 0);
}
