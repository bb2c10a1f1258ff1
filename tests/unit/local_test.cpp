// SPDX-License-Identifier: MIT
// Local inference (llama.cpp / Ollama placement). Expected values are llama.cpp load logs' printed
// buffer sizes and hand calculations written out beside each check.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fitcheck/config.hpp"
#include "fitcheck/local.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

constexpr double kMiB = 1048576.0;
double mib(std::int64_t bytes) { return static_cast<double>(bytes) / kMiB; }

ModelDescription llama3_8b() {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json"));
}

LocalRequest one_gpu(const char* id) { return test::local_request_on(id, 32); }

// The hidden state crossing between the CPU and a GPU: 2048 x 4 bytes a token over PCIe 4.0 x16 at
// 0.8 of 32 GB/s (ggml_backend_sched copies each split's input); the token embeddings cross from the
// CPU to the GPU before layer 0.
constexpr double kCrossingSecondsPerToken = 2048 * 4 / (32e9 * 0.8);
// A blocking handoff between backends after a token's first crossing: ggml-org/llama.cpp#17795, gpt-oss-20b
// tg128 295.02 -> 317.25 t/s with one made asynchronous.
constexpr double kHandoffSeconds = 1.0 / 295.02 - 1.0 / 317.25;
// Weights kept in RAM copy from the mapped file's pageable memory at this share of the pinned rate
// (ggml-org/llama.cpp#20978: 298.28 against 543.68 t/s).
constexpr double kPageableShare = 298.28 / 543.68;

// A synthetic dense model: 4 layers of 100 MiB, KV width 1024 for K and for V.
LocalModel toy_model() {
  LocalModel m;
  for (int i = 0; i < 4; ++i) {
    LocalLayer layer;
    layer.dense_bytes = 100 << 20;
    layer.dense_parameters = 50'000'000;
    layer.kv_key_width = 1024;
    layer.kv_value_width = 1024;
    layer.graph_ops = 18;  // a Llama layer's ops besides the attention core
    layer.attention = true;
    m.layers.push_back(layer);
  }
  m.input_bytes = 10 << 20;
  m.output_bytes = 20 << 20;
  m.output_graph_ops = 3;  // RMS_NORM, MUL, MUL_MAT
  m.output_parameters = 10'000'000;
  m.hidden_size = 2048;
  m.num_heads = 16;
  m.head_dim = 128;
  m.vocab_size = 32000;
  m.feed_forward = 8192;
  return m;
}

// The toy as a MoE: each layer's 100 MiB hold 400M routed expert parameters, nothing dense (the output
// layer stays dense).
void make_toy_experts(LocalModel& model, std::int64_t num_experts, std::int64_t experts_per_token) {
  for (auto& layer : model.layers) {
    layer.dense_parameters = 0;
    layer.expert_parameters = 400'000'000;
    layer.expert_bytes = layer.dense_bytes;
    layer.dense_bytes = 0;
  }
  model.num_experts = num_experts;
  model.experts_per_token = experts_per_token;
}

// The toy fully offloaded (4 layers and the output) to one GPU on `backend`, in a 1024-cell context.
LocalRequest toy_offloaded(const char* gpu, LocalBackend backend) {
  LocalRequest r = one_gpu(gpu);
  r.backend = backend;
  r.context = 1024;
  r.n_gpu_layers = 5;
  return r;
}

// The toy's quantized weights over `tokens` on an RTX 4090: 2 x (4 x 50M + 10M) FLOPs a token on MMQ
// at 0.26 of the 660.6 TOP/s dense int8 rate (Ada whitepaper).
double rtx4090_toy_weights_seconds(double tokens) { return 2.0 * 210e6 * tokens / (660.6e12 * 0.26); }

// Attention FLOPs on an RTX 4090 under CUDA: the scores (half the FLOPs) accumulate in f32, at the
// fp16 column's 165.2 TFLOP/s, the weighted values in f16, at 330.3 (fattn-mma-f16.cuh; cuBLAS's
// GGML_PREC_F32 KQ without flash attention), each at cuBLAS's 0.47.
double rtx4090_attention_seconds(double flops) { return flops / 2 / (330.3e12 * 0.47) + flops / 2 / (165.2e12 * 0.47); }

const LocalDeviceUse& device(const LocalPlacement& p, const std::string& name) {
  for (const auto& d : p.devices)
    if (d.name == name) return d;
  FAIL("no device " << name);
  return p.devices.front();
}

// Qwen3-30B-A3B in Q8_0 from its config, and a request that puts all 48 layers and the output on an M2
// Ultra with llama.cpp's Metal backend (the fusion and concurrency tests by build).
LocalModel qwen3_30b_a3b_q8_0() {
  return local_model_from_config(
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-30B-A3B.json")),
      WeightFormat::gguf_q8_0);
}
LocalRequest every_layer_on_m2_ultra() {
  LocalRequest r = one_gpu("m2-ultra");
  r.backend = LocalBackend::metal;
  r.context = 1024;
  r.n_gpu_layers = 49;
  return r;
}

// An F32 tensor of a GGUF header's inventory.
CheckpointTensor f32_tensor(const char* name, std::vector<std::int64_t> shape) {
  CheckpointTensor t;
  t.name = name;
  t.type = "F32";
  t.shape = std::move(shape);
  return t;
}

// A GGUF header of one MoE layer (256 wide, 4 heads, 8 experts of which 2 a token): its norms, Q, K,
// V, O, the router and the three expert tensors, the output norm and head; tests add what they check.
CheckpointSummary one_layer_moe_gguf() {
  CheckpointSummary s;
  s.format = CheckpointFormat::gguf;
  s.hyperparameters.block_count = 1;
  s.hyperparameters.embedding_length = 256;
  s.hyperparameters.head_count = 4;
  s.hyperparameters.expert_count = 8;
  s.hyperparameters.expert_used_count = 2;
  s.tensors = {f32_tensor("blk.0.attn_norm.weight", {256}),
               f32_tensor("blk.0.attn_q.weight", {256, 256}),
               f32_tensor("blk.0.attn_k.weight", {256, 64}),
               f32_tensor("blk.0.attn_v.weight", {256, 64}),
               f32_tensor("blk.0.attn_output.weight", {256, 256}),
               f32_tensor("blk.0.ffn_norm.weight", {256}),
               f32_tensor("blk.0.ffn_gate_inp.weight", {256, 8}),
               f32_tensor("blk.0.ffn_up_exps.weight", {256, 64, 8}),
               f32_tensor("blk.0.ffn_gate_exps.weight", {256, 64, 8}),
               f32_tensor("blk.0.ffn_down_exps.weight", {64, 256, 8}),
               f32_tensor("output_norm.weight", {256}),
               f32_tensor("output.weight", {256, 1000})};
  return s;
}

}  // namespace

TEST_CASE("local: Llama-3-8B Q4_K_M fully offloaded, n_ctx 512, as its llama.cpp load log prints") {
  // developer0hye/llama-3-korean-bllossom-8b-q4-docker README (Llama-3-8B shapes, Q4_K_M, RTX 3070,
  // n_ctx 512, n_ubatch 512, flash_attn 0): CPU buffer 281.81 MiB, CUDA0 buffer 4403.49 MiB,
  // CUDA0 KV 64.00 MiB, CUDA0 compute 258.50 MiB, CUDA_Host compute 9.01 MiB.
  const LocalModel model = local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m);
  LocalRequest r = one_gpu("rtx-3070");
  r.context = 512;
  r.flash_attention = false;
  r.n_gpu_layers = 33;
  const LocalPlacement p = estimate_local(model, r).placement;
  CHECK(p.n_layers == 33);
  CHECK(p.output_device == 0);
  const LocalDeviceUse& gpu = device(p, "CUDA0");
  const LocalDeviceUse& cpu = device(p, "CPU");
  // token_embd as Q4_K: 128256 x 4096 / 256 blocks x 144 bytes = 295,501,824 B = 281.81 MiB.
  CHECK(cpu.model_buffer_bytes == 295'501'824);
  CHECK(mib(gpu.model_buffer_bytes) == doctest::Approx(4403.49).epsilon(0.01));
  // 32 layers x (K + V) x 512 cells x 1024 values x 2 bytes = 64 MiB.
  CHECK(gpu.kv_buffer_bytes == 64 * 1048576);
  // The logits, 128256 x 512 f32 (250.5 MiB), and the normed hidden state, 4096 x 512 f32 (8 MiB).
  CHECK(mib(gpu.compute_buffer_bytes) == doctest::Approx(258.50));
  // Inputs on the host: embeddings 4096 x 512 f32 (8 MiB) and the mask 512 x 512 f32 (1 MiB).
  CHECK(mib(cpu.compute_buffer_bytes) == doctest::Approx(9.01).epsilon(0.002));
}

TEST_CASE("local: the KV buffer and the KQ-bound compute buffer at long contexts (Ollama load logs)") {
  const LocalModel model = local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m);
  LocalRequest r = one_gpu("rtx-4090");
  r.flash_attention = false;
  r.n_gpu_layers = 33;
  SUBCASE("n_ctx 8192: ollama/ollama#8361-style log, KV 1024.00 MiB, compute 560.00, host 24.01") {
    r.context = 8192;
    const LocalPlacement p = place_local(model, r, 33);
    CHECK(mib(device(p, "CUDA0").kv_buffer_bytes) == doctest::Approx(1024.0));
    // KQ 32 heads x 8192 x 512 f32 = 512 MiB, mask 8192 x 512 f32 = 16 MiB, 4 x 8 MiB hidden.
    CHECK(mib(device(p, "CUDA0").compute_buffer_bytes) == doctest::Approx(560.0));
    CHECK(mib(device(p, "CPU").compute_buffer_bytes) == doctest::Approx(24.01).epsilon(0.001));
  }
  SUBCASE("n_ctx 81920: ollama/ollama#9352, KV 10240.00 MiB, compute 5312.00, host 168.01") {
    r.context = 81920;
    const LocalPlacement p = place_local(model, r, 33);
    CHECK(mib(device(p, "CUDA0").kv_buffer_bytes) == doctest::Approx(10240.0));
    CHECK(mib(device(p, "CUDA0").compute_buffer_bytes) == doctest::Approx(5312.0));
    CHECK(mib(device(p, "CPU").compute_buffer_bytes) == doctest::Approx(168.01).epsilon(0.001));
  }
}

TEST_CASE("local: KV types are ggml blocks (q8_0 34 B per 32 values, q4_0 18 B per 32)") {
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 1024;
  r.n_gpu_layers = 5;
  // 4 layers x 2 (K, V) x 1024 cells x row bytes: f16 2048, q8_0 1024/32*34 = 1088, q4_0 576.
  r.kv_type = LocalKvType::f16;
  CHECK(place_local(model, r, 5).devices[0].kv_buffer_bytes == 4 * 2 * 1024 * 2048);
  r.kv_type = LocalKvType::q8_0;
  CHECK(place_local(model, r, 5).devices[0].kv_buffer_bytes == 4 * 2 * 1024 * 1088);
  r.kv_type = LocalKvType::q4_0;
  CHECK(place_local(model, r, 5).devices[0].kv_buffer_bytes == 4 * 2 * 1024 * 576);
  SUBCASE("a quantized V cache needs flash attention, as llama.cpp refuses otherwise") {
    r.flash_attention = false;
    CHECK_THROWS_WITH_AS(estimate_local(model, r), doctest::Contains("--flash-attention on"), std::invalid_argument);
  }
  SUBCASE("flash attention pads the cells to 256, without it to 32") {
    r.kv_type = LocalKvType::f16;
    r.context = 1000;
    r.flash_attention = true;
    CHECK(place_local(model, r, 5).kv_size == 1024);
    r.flash_attention = false;
    CHECK(place_local(model, r, 5).kv_size == 1024);
    r.context = 1010;
    CHECK(place_local(model, r, 5).kv_size == 1024);
    r.context = 970;
    CHECK(place_local(model, r, 5).kv_size == 992);
  }
}

TEST_CASE("local: -ngl offloads the last layers; the output layer needs n_layer + 1") {
  const LocalModel model = toy_model();  // 4 layers, so -ngl 5 is everything
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 256;
  const LocalPlacement two = place_local(model, r, 2);
  // i_gpu_start = 4 - 2 = 2: layers 2 and 3 on the GPU, the output on the CPU.
  CHECK(two.layer_device == std::vector<int>{-1, -1, 0, 0});
  CHECK(two.output_device == -1);
  CHECK(two.devices[0].model_buffer_bytes == 200 << 20);
  CHECK(two.devices[1].model_buffer_bytes == (10 << 20) + (200 << 20) + (20 << 20));
  // KV follows the layer: 2 layers on each side, 2 x 256 cells x 2048 B each.
  CHECK(two.devices[0].kv_buffer_bytes == 2 * 2 * 256 * 2048);
  CHECK(two.devices[1].kv_buffer_bytes == 2 * 2 * 256 * 2048);
  CHECK(place_local(model, r, 4).output_device == -1);
  CHECK(place_local(model, r, 5).output_device == 0);
  CHECK(place_local(model, r, 99).n_gpu_layers == 5);  // -ngl 99 is clamped as llama.cpp does
  CHECK(place_local(model, r, 0).devices[0].model_buffer_bytes == 0);
}

TEST_CASE("local: several GPUs split by --tensor-split, else by free memory") {
  LocalModel model;
  for (int i = 0; i < 32; ++i) {
    LocalLayer layer;
    layer.dense_bytes = 1 << 20;
    model.layers.push_back(layer);
  }
  model.hidden_size = 64;
  model.num_heads = 1;
  LocalRequest r = one_gpu("rtx-4090");
  r.gpus.push_back(*find_accelerator("rtx-4090"));
  r.context = 256;
  r.tensor_split = {1, 3};
  // splits {0.25, 1}: layer il goes to GPU 0 while il / 33 < 0.25, i.e. il <= 8 (8/33 = 0.242,
  // 9/33 = 0.273); GPU 1 takes layers 9..31 and the output layer (32/33).
  const LocalPlacement p = place_local(model, r, 33);
  CHECK(p.devices[0].layers == 9);
  CHECK(p.devices[1].layers == 23);
  CHECK(p.output_device == 1);
  SUBCASE("no split given: by free memory, 24 GB and 12 GB split 2:1") {
    r.tensor_split.clear();
    r.gpus[1] = *find_accelerator("rtx-3060-12gb");
    const LocalPlacement q = place_local(model, r, 33);
    // The 4090's share: 24564 / (24564 + 12288) = 0.6666; il / 33 < 0.6666 holds for il <= 21.
    CHECK(q.devices[0].layers == 22);
    CHECK(q.devices[1].layers == 10);
  }
  SUBCASE("a share per GPU, or a refusal naming the option") {
    r.tensor_split = {1};
    CHECK_THROWS_WITH_AS(place_local(model, r, 33), doctest::Contains("--tensor-split"), std::invalid_argument);
  }
}

TEST_CASE("local: --n-cpu-moe keeps the experts of the first N layers in RAM") {
  const ModelDescription qwen =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-30B-A3B.json"));
  const LocalModel model = local_model_from_config(qwen, WeightFormat::gguf_q8_0);
  REQUIRE(model.layers.size() == 48);
  REQUIRE(model.layers[0].expert_bytes > 0);
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 4096;
  r.n_cpu_moe = 10;
  const LocalPlacement all_gpu = place_local(model, r, 49);
  std::int64_t first_ten = 0;
  for (int i = 0; i < 10; ++i) first_ten += model.layers[static_cast<std::size_t>(i)].expert_bytes;
  r.n_cpu_moe = 0;
  const LocalPlacement none = place_local(model, r, 49);
  CHECK(none.devices[0].model_buffer_bytes - all_gpu.devices[0].model_buffer_bytes == first_ten);
  CHECK(all_gpu.devices[1].model_buffer_bytes - none.devices[1].model_buffer_bytes == first_ten);
  // The KV stays with the layers.
  CHECK(all_gpu.devices[0].kv_buffer_bytes == none.devices[0].kv_buffer_bytes);
}

TEST_CASE("local: Metal's op fusion from llama.cpp b5937 merges norms with their MUL and the experts' ADDs") {
  // Qwen3-30B-A3B: each of the 48 layers has four RMS norms (input, post-attention, q_norm, k_norm) and
  // sums 8 experts' outputs with 7 ADDs; the output layer has one norm. From b5937 each norm's MUL runs
  // in the norm's kernel and the 7 ADDs in one: 4 + 6 = 10 kernels fewer a layer, 481 in all.
  const LocalModel model = qwen3_30b_a3b_q8_0();
  REQUIRE(model.layers.size() == 48);
  CHECK(model.layers[0].rms_norms == 4);
  CHECK(model.layers[0].layer_norms == 0);
  CHECK(model.layers[0].expert_sum_adds == 7);
  CHECK(model.output_rms_norms == 1);
  LocalRequest r = every_layer_on_m2_ultra();
  r.llama_cpp_build = 5937;
  const LocalEstimate fused = estimate_local(model, r);
  r.llama_cpp_build = 5936;
  const LocalEstimate older = estimate_local(model, r);
  CHECK(older.speed.generation_token_time[0].graph_ops - fused.speed.generation_token_time[0].graph_ops == 481);
  r.llama_cpp_build = 6459;  // the last build before Metal's concurrent encoder
  CHECK(estimate_local(model, r).speed.generation_token_time[0].graph_ops ==
        fused.speed.generation_token_time[0].graph_ops);
  // Only Metal's rule: CUDA's op count does not depend on the build.
  r.backend = LocalBackend::cuda;
  r.gpus = {*find_accelerator("rtx-pro-6000-blackwell")};
  r.llama_cpp_build = 5936;
  const std::int64_t cuda_older = estimate_local(model, r).speed.generation_token_time[0].graph_ops;
  r.llama_cpp_build.reset();
  CHECK(estimate_local(model, r).speed.generation_token_time[0].graph_ops == cuda_older);
}

TEST_CASE("local: Metal's concurrent encoder from llama.cpp b6460 pays the time per op once a barrier group") {
  // ggml-org/llama.cpp#15929 traces a layer: MUL_MAT Q, K, V side by side, then their bias ADDs, the two
  // ROPEs, the K and V cache writes, and the FFN's up and gate. Qwen3-30B-A3B's layer by hand: Q, K and V
  // (2 beside the first), q_norm and k_norm (1), ROPE and the cache writes (2), the experts' gate and up
  // MUL_MAT_IDs (1): 6 a layer, 288 over 48 layers; the output layer has none.
  const LocalModel model = qwen3_30b_a3b_q8_0();
  CHECK(model.layers[0].concurrent_kernels == 6);
  LocalRequest r = every_layer_on_m2_ultra();
  r.llama_cpp_build = 6459;
  const LocalEstimate serial = estimate_local(model, r);
  r.llama_cpp_build = 6460;
  const LocalEstimate concurrent = estimate_local(model, r);
  const LocalTokenTime& before = serial.speed.generation_token_time[0];
  const LocalTokenTime& after = concurrent.speed.generation_token_time[0];
  CHECK(before.graph_ops - after.graph_ops == 288);
  CHECK(after.seconds_per_op == before.seconds_per_op);
  CHECK(before.seconds - after.seconds == doctest::Approx(288 * before.seconds_per_op));
  CHECK(std::any_of(concurrent.assumptions.begin(), concurrent.assumptions.end(), [](const std::string& a) {
    return a.find("#15929") != std::string::npos && a.find("288 of") != std::string::npos;
  }));
  // Absent a build, a current one: concurrent.
  r.llama_cpp_build.reset();
  CHECK(estimate_local(model, r).speed.generation_token_time[0].graph_ops == after.graph_ops);
  SUBCASE("by hand, other layers: biases beside each other, a dense FFN's gate and up, MLA's latents") {
    const auto layer_of = [](const char* name) {
      const ModelDescription m = parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + name));
      return local_model_from_config(m, WeightFormat::gguf_q8_0).layers[0];
    };
    // Llama: Q, K, V (2), ROPE and cache writes (2), gate and up (1).
    CHECK(layer_of("meta-llama--Llama-3.1-8B.json").concurrent_kernels == 5);
    // Qwen2: the same and the q, k and v bias ADDs beside each other (2).
    CHECK(layer_of("Qwen--Qwen2-7B-Instruct.json").concurrent_kernels == 7);
    // gpt-oss: Llama's attention with its four biases (Q, K and V's pair: 2), the experts' gate and up
    // (1) and their bias ADD_IDs (1); no dense FFN.
    CHECK(layer_of("openai--gpt-oss-20b.json").concurrent_kernels == 8);
    // DeepSeek-V3's first (dense) layer: MLA's two down-projections (1) and their two norms (1), one
    // ROPE beside the other (1); gate and up (1).
    CHECK(layer_of("deepseek-ai--DeepSeek-V3.json").concurrent_kernels == 4);
  }
  SUBCASE("a GGUF header by tensor names gives the config's count") {
    CheckpointSummary s = one_layer_moe_gguf();
    s.tensors.push_back(f32_tensor("blk.0.attn_q_norm.weight", {64}));
    s.tensors.push_back(f32_tensor("blk.0.attn_k_norm.weight", {64}));
    CHECK(local_model_from_gguf(s).layers[0].concurrent_kernels == 6);
  }
  SUBCASE("only Metal: CUDA's and the CPU's op counts do not change") {
    r.backend = LocalBackend::cuda;
    r.gpus = {*find_accelerator("rtx-pro-6000-blackwell")};
    r.llama_cpp_build = 6459;
    const std::int64_t cuda_before = estimate_local(model, r).speed.generation_token_time[0].graph_ops;
    r.llama_cpp_build = 6460;
    CHECK(estimate_local(model, r).speed.generation_token_time[0].graph_ops == cuda_before);
  }
}

TEST_CASE("local: two unequal GPUs with every expert in RAM, as a llama.cpp b5622 load log prints") {
  // ik_llama.cpp issue #514, the mainline run: Qwen3-30B-A3B Q4_K_M, RTX 4090 (9862 MiB free) +
  // RTX 5090 (31518 MiB free), -ngl 99 -ot ".ffn_.*_exps.=CPU" (= --n-cpu-moe 48), -c 16384, FA off.
  const ModelDescription qwen =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-30B-A3B.json"));
  const LocalModel model = local_model_from_config(qwen, WeightFormat::gguf_q4_k_m);
  LocalRequest r = one_gpu("rtx-4090");
  r.gpus.push_back(*find_accelerator("rtx-5090"));
  r.ram_bytes = std::int64_t{128} << 30;
  r.tensor_split = {9862, 31518};
  r.context = 16384;
  r.flash_attention = false;
  r.n_cpu_moe = 48;
  const LocalPlacement p = place_local(model, r, 99);
  // 9862 / 41380 = 0.2383: layers with il / 49 below it (il <= 11) go to CUDA0, 12 layers;
  // KV per layer 16384 cells x 512 x 2 B x 2 (K and V) = 32 MiB: 384 and 1152 MiB.
  CHECK(device(p, "CUDA0").layers == 12);
  CHECK(mib(device(p, "CUDA0").kv_buffer_bytes) == doctest::Approx(384.0));
  CHECK(mib(device(p, "CUDA1").kv_buffer_bytes) == doctest::Approx(1152.0));
  CHECK(mib(device(p, "CUDA0").model_buffer_bytes) == doctest::Approx(135.76).epsilon(0.0001));
  CHECK(mib(device(p, "CUDA1").model_buffer_bytes) == doctest::Approx(648.66).epsilon(0.0001));
  // Without flash attention: KQ 32 heads x 16384 x 512 x 4 B = 1024 MiB, the f32 mask 32 MiB, the
  // residual and normed input (2048 wide, 4 MiB each) and Q and the attention output (32 x 128 =
  // 4096 wide, 8 MiB each): 1080 MiB on each GPU, as printed.
  CHECK(mib(device(p, "CUDA0").compute_buffer_bytes) == doctest::Approx(1080.0));
  CHECK(mib(device(p, "CUDA1").compute_buffer_bytes) == doctest::Approx(1080.0));
  // The mapped CPU buffer spans token_embd through blk.47: everything but output_norm and the
  // output head (151936 x 2048 q6_K = 243.43 MiB), printed as 17447.91 MiB; the RAM it needs is
  // the CPU's own tensors.
  const LocalDeviceUse& cpu = device(p, "CPU");
  CHECK(mib(cpu.mapped_model_buffer_bytes) == doctest::Approx(17447.91).epsilon(0.0001));
  CHECK(cpu.model_buffer_bytes < cpu.mapped_model_buffer_bytes);
  std::int64_t gpu_dense = 0;
  for (const LocalLayer& layer : model.layers) gpu_dense += layer.dense_bytes;
  CHECK(cpu.mapped_model_buffer_bytes - cpu.model_buffer_bytes == gpu_dense);
  SUBCASE("layers and the output left on the CPU, no experts overridden: the span is the CPU's own tensors") {
    // -ngl 30: blocks 0..17, token_embd and the output layer (il 48 - 18 >= 30) stay on the CPU;
    // the file stores output and token_embd before blk.0, so the CPU's tensors are contiguous.
    r.n_cpu_moe = 0;
    const LocalPlacement q = place_local(model, r, 30);
    CHECK(device(q, "CPU").mapped_model_buffer_bytes == device(q, "CPU").model_buffer_bytes);
  }
}

TEST_CASE("local: gpt-oss in llama.cpp's MXFP4 MoE type is the size llama-bench prints for ggml-org's files") {
  // llama-bench prints the sum of the tensors' bytes: 'gpt-oss ?B MXFP4 MoE | 11.27 GiB | 20.91 B'
  // (ikawrakow/ik_llama.cpp PR #683) and 'gpt-oss 120B MXFP4 MoE | 59.02 GiB | 116.83 B'
  // (ggml-org/llama.cpp PR #19922).
  const auto gib = [](const LocalModel& m) {
    double bytes = static_cast<double>(m.input_bytes + m.output_bytes);
    for (const LocalLayer& layer : m.layers) bytes += static_cast<double>(layer.dense_bytes + layer.expert_bytes);
    return std::round(bytes / 1073741824.0 * 100) / 100;
  };
  const ModelDescription small =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/openai--gpt-oss-20b.json"));
  const ModelDescription large =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/openai--gpt-oss-120b.json"));
  CHECK(gib(local_model_from_config(small, WeightFormat::gguf_mxfp4_moe)) == doctest::Approx(11.27));
  CHECK(gib(local_model_from_config(large, WeightFormat::gguf_mxfp4_moe)) == doctest::Approx(59.02));
  // --weights mxfp4 is the Hugging Face checkpoint's own layout, tensor by tensor as for the whole model:
  // the routed experts MXFP4, every other matrix bf16 (weight_bytes over the inventory).
  const LocalModel checkpoint = local_model_from_config(small, WeightFormat::mxfp4);
  std::int64_t bytes = checkpoint.input_bytes + checkpoint.output_bytes;
  for (const LocalLayer& layer : checkpoint.layers) bytes += layer.dense_bytes + layer.expert_bytes;
  CHECK(bytes == weight_bytes(weight_tensors(small), WeightFormat::mxfp4).total_bytes);
}

TEST_CASE("local: a MoE model that does not fit keeps every layer on the GPU, experts in RAM, as llama.cpp's --fit") {
  // The toy with 1 GiB of routed experts a layer, on a GPU sized so that the experts of two layers must
  // stay in RAM: --fit leaves 1024 MiB of free memory (fit_params_target), so the GPU's buffers with the
  // experts of layers 0 and 1 in RAM take exactly its memory less 1024 MiB.
  LocalModel model = toy_model();
  make_toy_experts(model, 128, 8);
  for (LocalLayer& layer : model.layers) layer.expert_bytes = std::int64_t{1} << 30;
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 1024;
  r.n_cpu_moe = 2;
  const std::int64_t two_in_ram = place_local(model, r, 5).devices[0].total_bytes();
  r.n_cpu_moe = 0;
  r.gpus[0].memory_bytes = two_in_ram + (std::int64_t{1024} << 20);
  const LocalEstimate fitted = estimate_local(model, r);
  CHECK(fitted.placement.fitted);
  CHECK(fitted.placement.n_gpu_layers == 5);
  CHECK(fitted.placement.n_cpu_moe == 2);
  CHECK(fitted.placement.devices[0].total_bytes() == two_in_ram);
  CHECK(fitted.placement.devices[1].model_buffer_bytes >= 2 * (std::int64_t{1} << 30));
  CHECK(fitted.llama_cpp_command.find(" -ngl 5 --n-cpu-moe 2 ") != std::string::npos);
  // Ollama's num_gpu is the most whole layers that fit (Ollama's own reserve), which every version runs as written.
  LocalRequest whole_layers = r;
  whole_layers.llama_cpp_build = 7406;  // the build before --fit: the most whole layers, as before
  const LocalEstimate before = estimate_local(model, whole_layers);
  CHECK_FALSE(before.placement.fitted);
  CHECK(before.placement.n_cpu_moe == 0);
  CHECK(before.placement.n_gpu_layers < 5);
  CHECK(fitted.ollama_num_gpu == before.placement.n_gpu_layers);
  // Generation reads the experts of two layers from RAM (the touched share) and the rest from the GPU, the
  // token going to the CPU and back in each of those layers: 4 handoffs. The whole-layer split reads more
  // from RAM (its CPU layers' dense weights too) and crosses once more (its output layer on the CPU).
  std::int64_t handoffs = 0;
  for (const LocalTokenTime& t : fitted.speed.generation_token_time) handoffs += t.handoffs;
  CHECK(handoffs == 4);
  CHECK(fitted.speed.generation_token_time.back().bytes < before.speed.generation_token_time.back().bytes);
  // Anything the user sets is left alone, as --fit leaves it.
  LocalRequest given = r;
  given.n_gpu_layers = 3;
  CHECK_FALSE(estimate_local(model, given).placement.fitted);
  given = r;
  given.n_cpu_moe = 1;
  CHECK_FALSE(estimate_local(model, given).placement.fitted);
  // A dense model that leaves the target with every layer offloaded is placed whole.
  LocalModel dense = toy_model();
  CHECK_FALSE(estimate_local(dense, r).placement.fitted);
}

TEST_CASE("local: a dense model that leaves a GPU under --fit's target fills the GPUs from the last") {
  // common/fit.cpp step 3: the last GPU takes the model's last layers, as many as leave it 1024 MiB free; then the
  // GPU before it takes the layers before those; -ngl is their sum, --tensor-split their counts. The toy's 4
  // layers and output layer on two GPUs sized so that each takes exactly two: CUDA1 layers 2 and 3, CUDA0
  // layers 0 and 1, and the output layer, which llama.cpp offloads only with -ngl above the layer count, stays
  // on the CPU: -ngl 4 --tensor-split 2,2.
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.gpus.push_back(r.gpus[0]);
  r.context = 1024;
  const auto device_total = [&](std::vector<double> layers, std::size_t d) {
    LocalRequest split = r;
    split.tensor_split = layers;
    return place_local(model, split, static_cast<std::int64_t>(layers[0] + layers[1])).devices[d].total_bytes();
  };
  constexpr std::int64_t kTarget = std::int64_t{1024} << 20;
  r.gpus[1].memory_bytes = device_total({0, 2}, 1) + kTarget;
  r.gpus[0].memory_bytes = device_total({2, 2}, 0) + kTarget;
  const LocalEstimate fitted = estimate_local(model, r);
  CHECK(fitted.placement.fitted);
  CHECK(fitted.placement.n_gpu_layers == 4);
  CHECK(fitted.placement.devices[0].layers == 2);
  CHECK(fitted.placement.devices[1].layers == 2);
  CHECK(fitted.placement.devices[2].holds_output);
  // Each GPU is left exactly the target (its limit keeps CUDA's 457 MiB of it already).
  CHECK(fitted.placement.devices[0].total_bytes() == r.gpus[0].memory_bytes - kTarget);
  CHECK(fitted.placement.devices[1].total_bytes() == r.gpus[1].memory_bytes - kTarget);
  CHECK(fitted.llama_cpp_command.find(" -ngl 4 --tensor-split 2,2 ") != std::string::npos);
  CHECK(test::mentions(fitted.assumptions, "llama.cpp's --fit"));
  CHECK(test::mentions(fitted.assumptions, "(2 on CUDA0, 2 on CUDA1)"));
  // A byte less on CUDA1 and it takes only layer 3; CUDA0 still takes two (1 and 2), layer 0 joining the CPU.
  LocalRequest tighter = r;
  tighter.gpus[1].memory_bytes -= 1;
  const LocalEstimate shifted = estimate_local(model, tighter);
  CHECK(shifted.placement.n_gpu_layers == 3);
  CHECK(shifted.placement.devices[1].layers == 1);
  CHECK(shifted.placement.devices[0].layers == 2);
  CHECK(shifted.llama_cpp_command.find(" -ngl 3 --tensor-split 2,1 ") != std::string::npos);
  // Before --fit (b7406), or with the layers or split given, the most layers within each GPU's limit.
  LocalRequest before = r;
  before.llama_cpp_build = 7406;
  CHECK_FALSE(estimate_local(model, before).placement.fitted);
  CHECK(estimate_local(model, before).placement.n_gpu_layers > 4);
  LocalRequest given = r;
  given.tensor_split = {1, 1};
  CHECK_FALSE(estimate_local(model, given).placement.fitted);
}

TEST_CASE("local: the most layers that fit, and generation speed from bandwidth") {
  LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 256;
  r.prompt_len = 0;
  r.gen_len = 1;
  const LocalEstimate all = estimate_local(model, r);
  CHECK(all.placement.n_gpu_layers == 5);
  CHECK(all.llama_cpp_command == "llama-server -m model.gguf -ngl 5 -c 256 -ctk f16 -ctv f16 -fa on");
  CHECK(all.ollama_num_gpu == 5);
  CHECK(all.ollama_num_ctx == 256);
  // A token reads 4 x 100 MiB + 20 MiB (output) = 420 MiB at 1008 GB/s x 0.88 (CUDA), plus half a
  // cell of KV (the middle of one generated token: 0.5 x 4 layers x 4096 B), plus 30 us / 19 for each
  // op: 19 per layer with flash attention (30 us a Llama layer) and the output layer's 3; and the
  // token's embedding crossing to the GPU.
  const double bytes = 420.0 * kMiB + 0.5 * 4 * 4096;
  CHECK(all.speed.generation_tokens_per_second ==
        doctest::Approx(1.0 / (bytes / (1008e9 * 0.88) + (4 * 19 + 3) * 30e-6 / 19 + kCrossingSecondsPerToken)));
  SUBCASE("a GPU that holds two layers only") {
    // 4 GiB card: memory less Ollama's 457 MiB; layers of 1500 MiB: two fit, not three.
    for (auto& layer : model.layers) layer.dense_bytes = std::int64_t{1500} << 20;
    Accelerator small = *find_accelerator("rtx-4090");
    small.memory_bytes = std::int64_t{4096} << 20;
    r.gpus = {small};
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.placement.n_gpu_layers == 2);
    CHECK(e.placement.devices[0].fits());
  }
  SUBCASE("the context fills: slower") {
    r.context = 8192;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.generation_tokens_per_second_full < e.speed.generation_tokens_per_second_empty);
  }
}

TEST_CASE("local: a GGUF header's tensors by name") {
  CheckpointSummary s;
  s.format = CheckpointFormat::gguf;
  s.hyperparameters.block_count = 2;
  s.hyperparameters.embedding_length = 256;
  s.hyperparameters.head_count = 4;
  s.hyperparameters.head_count_kv = 2;
  s.hyperparameters.vocab_size = 1000;
  const auto typed_tensor = [](const char* name, const char* type, std::int64_t bytes) {
    CheckpointTensor t;
    t.name = name;
    t.type = type;
    t.shape = {256, 256};
    t.elements = 65536;
    t.bytes = bytes;
    return t;
  };
  s.tensors = {typed_tensor("token_embd.weight", "Q4_K", 1000),  typed_tensor("blk.0.attn_q.weight", "Q4_K", 300),
               typed_tensor("blk.1.attn_q.weight", "Q6_K", 400), typed_tensor("blk.1.ffn_up_exps.weight", "Q4_K", 700),
               typed_tensor("output_norm.weight", "F32", 8),     typed_tensor("blk.0.ffn_down.weight", "F16", 50)};
  const LocalModel m = local_model_from_gguf(s);
  REQUIRE(m.layers.size() == 2);
  CHECK(m.input_bytes == 1000);
  CHECK(m.layers[0].dense_bytes == 300 + 50);
  // The F16 matrix goes to cuBLAS f16, the Q4_K one to MMQ: the split counts the F16 one only.
  CHECK(m.layers[0].dense_parameters == 2 * 65536);
  CHECK(m.layers[0].dense_float.f16 == 65536);
  CHECK(m.layers[1].dense_float.f16 + m.layers[1].expert_float.f16 == 0);
  CHECK(m.layers[1].dense_bytes == 400);
  CHECK(m.layers[1].expert_bytes == 700);
  CHECK(m.output_bytes == 8 + 1000);  // no output.weight: token_embd is loaded again as the head
  CHECK(m.layers[0].kv_key_width == 2 * 64);
  s.hyperparameters.block_count.reset();
  CHECK_THROWS_WITH_AS(local_model_from_gguf(s), doctest::Contains("block_count"), std::invalid_argument);
}

TEST_CASE("local options: every refusal names its option") {
  const auto refused = [](OptionList options, const char* option) {
    try {
      parse_local_options(options);
      FAIL("accepted");
    } catch (const OptionError& error) {
      CHECK(error.option() == option);
    }
  };
  refused({{"gpu", "rtx-4090"}}, "ram_gib");
  refused({{"gpu", "no-such-gpu"}, {"ram_gib", "32"}}, "gpu");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"kv_dtype", "fp8"}}, "kv_dtype");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"flash_attention", "maybe"}}, "flash_attention");
  refused({{"gpu", "rtx-4090,rtx-4090"}, {"ram_gib", "32"}, {"tensor_split", "1"}}, "tensor_split");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"backend", "opencl"}}, "backend");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"tensor_split", std::string("1\0x", 3)}}, "tensor_split");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"kv_offload", "sometimes"}}, "kv_offload");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"cuda_mmq", "auto"}}, "cuda_mmq");
  CHECK_FALSE(parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"cuda_mmq", "off"}}).request.cuda_mmq);
  CHECK(parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}}).request.cuda_mmq);
  refused({{"gpu", "m2-ultra"}, {"ram_gib", "32"}, {"llama_cpp_build", "x12"}}, "llama_cpp_build");
  refused({{"gpu", "m2-ultra"}, {"ram_gib", "32"}, {"llama_cpp_build", "b"}}, "llama_cpp_build");
  refused({{"gpu", "m2-ultra"}, {"ram_gib", "32"}, {"llama_cpp_build", "0"}}, "llama_cpp_build");
  CHECK(parse_local_options({{"gpu", "m2-ultra"}, {"ram_gib", "32"}, {"llama_cpp_build", "b5937"}})
            .request.llama_cpp_build == 5937);
  CHECK(parse_local_options({{"gpu", "m2-ultra"}, {"ram_gib", "32"}, {"llama_cpp_build", "4011"}})
            .request.llama_cpp_build == 4011);
  CHECK_FALSE(parse_local_options({{"gpu", "m2-ultra"}, {"ram_gib", "32"}}).request.llama_cpp_build.has_value());
  // MMQ became ggml-cuda's default for a prompt's quantized weights in b3216 (#8075): an older build dequantizes
  // them for cuBLAS unless --cuda-mmq says otherwise.
  const auto mmq = [](OptionList options) { return parse_local_options(options).request.cuda_mmq; };
  CHECK_FALSE(mmq({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b3215"}}));
  CHECK(mmq({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b3216"}}));
  CHECK(mmq({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b3215"}, {"cuda_mmq", "on"}}));
  CHECK_FALSE(mmq({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b3216"}, {"cuda_mmq", "off"}}));
  // b7668-b7852 read the model file with direct I/O by default (#18166, #19109): unmapped unless --mmap says so.
  const auto mapped = [](OptionList options) { return parse_local_options(options).request.mmap; };
  CHECK(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}}));
  CHECK(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b7667"}}));
  CHECK_FALSE(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b7668"}}));
  CHECK(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b7700"}, {"mmap", "on"}}));
  CHECK(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"llama_cpp_build", "b7853"}}));
  CHECK_FALSE(mapped({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"mmap", "off"}}));
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"parallel", "0"}}, "parallel");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"n_gpu_layers", "-1"}}, "n_gpu_layers");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"n_cpu_moe", "x"}}, "n_cpu_moe");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"cpu", "no-such-cpu"}}, "cpu");
  // The installed RAM describes the CPU's memory: refused without --cpu, and outside DDR's range.
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"ram_mts", "6000"}}, "ram_mts");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"ram_channels", "4"}}, "ram_channels");
  refused({{"ram_gib", "32"}, {"cpu", "ryzen-9-7950x"}, {"ram_mts", "100"}}, "ram_mts");
  refused({{"ram_gib", "32"}, {"cpu", "ryzen-9-7950x"}, {"ram_channels", "0"}}, "ram_channels");
  {
    const LocalRequest r =
        parse_local_options({{"ram_gib", "64"}, {"cpu", "ryzen-9-7950x"}, {"ram_mts", "6000"}}).request;
    CHECK_FALSE(cpu_memory_as_specified(*r.cpu));
    CHECK(r.cpu->memory_transfers_per_second == 6000e6);
    CHECK(r.cpu->memory_channels == 2);  // the specification's, not given
    CHECK(cpu_memory_bandwidth_bytes_per_second(*r.cpu) == doctest::Approx(96e9));
    CHECK(cpu_memory_as_specified(*parse_local_options({{"ram_gib", "64"}, {"cpu", "ryzen-9-7950x"}}).request.cpu));
  }
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"ubatch", "0"}}, "ubatch");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"batch", "0"}}, "batch");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"ubatch", "4096"}}, "ubatch");
  refused({{"ram_gib", "32"}, {"backend", "cuda"}}, "gpu");
  // No ggml backend runs on a TPU or a Gaudi: refused, not timed as a CUDA GPU.
  refused({{"gpu", "tpu-v5e"}, {"ram_gib", "32"}}, "gpu");
  refused({{"gpu", "rtx-4090,gaudi2"}, {"ram_gib", "32"}}, "gpu");
  refused({{"gpu", "gaudi3"}, {"ram_gib", "32"}, {"backend", "sycl"}}, "gpu");
  // A backend that does not run on the GPU given: refused at the backend, naming the GPU's own.
  refused({{"gpu", "rx-7900-xtx"}, {"ram_gib", "32"}, {"backend", "cuda"}}, "backend");
  refused({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"backend", "metal"}}, "backend");
  refused({{"gpu", "m2-max"}, {"ram_gib", "32"}, {"backend", "rocm"}}, "backend");
  refused({{"gpu", "rtx-4090,rx-7900-xtx"}, {"ram_gib", "32"}, {"backend", "cuda"}}, "backend");
  try {
    parse_local_options({{"gpu", "rx-7900-xtx"}, {"ram_gib", "32"}, {"backend", "cuda"}});
    FAIL("CUDA on an AMD GPU was accepted");
  } catch (const OptionError& error) {
    CHECK(std::string(error.what()) ==
          "option 'backend': llama.cpp's cuda backend does not run on AMD Radeon RX 7900 XTX 24GB; its default there "
          "is rocm, and vulkan runs on it too");
  }
  // Where they run: Vulkan on every vendor's GPU, SYCL on Intel, NVIDIA and AMD (oneAPI's plugins).
  for (const char* gpu : {"rtx-4090", "rx-7900-xtx", "arc-b580", "m2-max"})
    CHECK(parse_local_options({{"gpu", gpu}, {"ram_gib", "32"}, {"backend", "vulkan"}}).request.backend ==
          LocalBackend::vulkan);
  for (const char* gpu : {"rtx-4090", "rx-7900-xtx", "arc-b580"})
    CHECK(parse_local_options({{"gpu", gpu}, {"ram_gib", "32"}, {"backend", "sycl"}}).request.backend ==
          LocalBackend::sycl);
  try {
    parse_local_options({{"gpu", "tpu-v5e"}, {"ram_gib", "32"}});
    FAIL("a TPU was accepted");
  } catch (const OptionError& error) {
    CHECK(std::string(error.what()) ==
          "option 'gpu': llama.cpp has no backend for Google Cloud TPU v5e; it runs on NVIDIA, AMD, Intel Arc and "
          "Apple GPUs, and on the CPU");
  }
  const LocalOptions ok = parse_local_options({{"gpu", "m2-ultra"},
                                               {"ram_gib", "192"},
                                               {"context", "8192"},
                                               {"kv_dtype", "q8_0"},
                                               {"n_gpu_layers", "10"},
                                               {"n_cpu_moe", "2"},
                                               {"prompt_len", "256"},
                                               {"gen_len", "64"},
                                               {"weights", "q4_k_m"}});
  CHECK(ok.request.backend == LocalBackend::metal);
  CHECK(ok.request.kv_type == LocalKvType::q8_0);
  CHECK(*ok.request.n_gpu_layers == 10);
  CHECK(ok.request.n_cpu_moe == 2);
  CHECK(ok.request.ram_bytes == std::int64_t{192} << 30);
}

TEST_CASE("fitcheck local on the command line: JSON keys and the command") {
  const auto result = test::run_cli("local " + test::fixture_configs_dir() +
                                    "/meta-llama--Llama-3.1-8B.json --gpu rtx-4090 --ram-gib 64 --weights q4_k_m "
                                    "--context 8192 --kv-dtype q8_0 --json");
  REQUIRE(result.exit_status == 0);
  for (const char* key : {"\"n_gpu_layers\":33",
                          "\"n_layers\":33",
                          "\"devices\"",
                          "\"model_buffer_bytes\"",
                          "\"kv_buffer_bytes\"",
                          "\"compute_buffer_bytes\"",
                          "\"prompt_tokens_per_second\"",
                          "\"generation_tokens_per_second\"",
                          "\"llama_cpp_command\"",
                          "\"ollama_parameters\"",
                          "\"num_gpu\":33",
                          "\"num_ctx\":8192",
                          "-ctk q8_0 -ctv q8_0 -fa on",
                          "\"generation_token_time\"",
                          "\"graph_ops\":",
                          "\"seconds_per_op\":",
                          "\"prompt_tokens\":512",
                          "\"prompt_ubatches\":1",
                          "\"prompt_time\":{\"multiply_seconds\":",
                          "\"weight_read_seconds\":",
                          "\"offload_copy_seconds\":",
                          "\"offloaded\":false,\"offload_device\":\"\"",
                          "\"expert_combine_seconds\":"})
    CHECK_MESSAGE(result.out.find(key) != std::string::npos, key);
  // The backend the speeds are for: the first GPU's vendor's, a given --backend, or the CPU without GPUs.
  CHECK(result.out.find("\"backend\":\"cuda\"") != std::string::npos);
  const auto vulkan =
      test::run_cli("local " + test::fixture_configs_dir() +
                    "/meta-llama--Llama-3.1-8B.json --gpu rtx-4090 --backend vulkan --ram-gib 64 --json");
  CHECK(vulkan.out.find("\"backend\":\"vulkan\"") != std::string::npos);
  const auto mac = test::run_cli("local " + test::fixture_configs_dir() +
                                 "/meta-llama--Llama-3.1-8B.json --gpu m2-max --ram-gib 64 --json");
  CHECK(mac.out.find("\"backend\":\"metal\"") != std::string::npos);
  const auto cpu_only =
      test::run_cli("local " + test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json --ram-gib 64 --json");
  CHECK(cpu_only.out.find("\"backend\":\"cpu\"") != std::string::npos);
  // The text report shows how each device's share of a token is made.
  const auto text = test::run_cli("local " + test::fixture_configs_dir() +
                                  "/meta-llama--Llama-3.1-8B.json --gpu rtx-4090 --ram-gib 64 --weights q4_k_m");
  REQUIRE(text.exit_status == 0);
  CHECK(text.out.find("CUDA0") != std::string::npos);
  CHECK(text.out.find("ops x 1.58 us") != std::string::npos);
  // ... and how each device's share of the prompt is.
  CHECK(text.out.find("prompt, 512 tokens in 1 ubatch:\n  CUDA0      max(multiplies ") != std::string::npos);
  CHECK(result.out.find("\"n_cpu_moe\":0,\"fitted\":false") != std::string::npos);
  // A MoE model too large for the GPU: the text says where --fit put the experts.
  const auto moe = test::run_cli("local " + test::fixture_configs_dir() +
                                 "/openai--gpt-oss-120b.json --gpu rtx-4090 --ram-gib 96 --weights mxfp4_moe");
  REQUIRE(moe.exit_status == 0);
  CHECK(moe.out.find("offloaded 37/37 layers to the GPU(s); routed experts of ") != std::string::npos);
  CHECK(moe.out.find(" layers in RAM (llama.cpp's --fit)") != std::string::npos);
  // The experts left in RAM travel to the GPU for each ubatch of the prompt (op offload).
  CHECK(moe.out.find("  CPU        weights copied to CUDA0 over PCIe ") != std::string::npos);
  CHECK(moe.out.find(" + experts' combine ") != std::string::npos);
  // The headline: where the model runs and which device a generated token waits on.
  CHECK(result.out.find("\"verdict\":{\"runs_on\":\"gpus\",\"layers_on_gpus\":32,\"layers_in_ram\":0,") !=
        std::string::npos);
  CHECK(text.out.rfind("runs wholly on the GPU(s): ", 0) == 0);
  CHECK(moe.out.rfind("runs split: 36 of 36 layers on the GPU(s), 0 in RAM, routed experts of ", 0) == 0);
  CHECK(moe.out.find("; a generated token waits on the CPU for ") != std::string::npos);
  const auto short_of_ram = test::run_cli("local " + test::fixture_configs_dir() +
                                          "/meta-llama--Llama-3.1-8B.json --ram-gib 2 --weights q4_k_m");
  REQUIRE(short_of_ram.exit_status == 0);
  CHECK(short_of_ram.out.rfind("does not fit: CPU needs ", 0) == 0);
  CHECK(short_of_ram.out.find(" more than its limit of 2.00 GiB (2.15 GB)\n") != std::string::npos);
  const auto bad = test::run_cli("local " + test::fixture_configs_dir() +
                                 "/meta-llama--Llama-3.1-8B.json --gpu rtx-4090 --ram-gib 64 --context 0");
  CHECK(bad.exit_status == 2);
  CHECK(bad.err.find("--context") != std::string::npos);
}

TEST_CASE("local: the ops of llama.cpp's graph per layer at one token, by hand") {
  const auto config = [](const char* name) {
    return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + name));
  };
  // Llama: attn_norm and ffn_norm (RMS_NORM + MUL each: 4), q, k, v, o, gate, up, down (7 MUL_MAT),
  // ROPE of Q and K and the K and V writes (4), SWIGLU (1), two residual ADDs (2): 18, plus the
  // attention core. Output: output_norm (2) and the head (1).
  const LocalModel llama = local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m);
  CHECK(llama.layers[0].graph_ops == 18);
  CHECK(llama.layers[31].attention);
  CHECK(llama.output_graph_ops == 3);
  // Qwen2: the same and an ADD for each of the q, k and v biases: 21. Tied head: 3 as well.
  const LocalModel qwen2 = local_model_from_config(config("Qwen--Qwen2-7B-Instruct.json"), WeightFormat::gguf_q4_k_m);
  CHECK(qwen2.layers[0].graph_ops == 21);
  // Qwen3-30B-A3B: 4 norms with q_norm and k_norm (8), q, k, v, o and the router (5 MUL_MAT), three
  // MUL_MAT_ID, ROPE x 2 and K/V writes (4), two residual ADDs, and build_moe_ffn's SOFT_MAX,
  // ARGSORT, GET_ROWS, SUM_ROWS, CLAMP, DIV, SWIGLU, MUL and 8 - 1 ADDs (15): 37.
  const LocalModel qwen3 = local_model_from_config(config("Qwen--Qwen3-30B-A3B.json"), WeightFormat::gguf_q4_k_m);
  CHECK(qwen3.layers[0].graph_ops == 37);
  SUBCASE("a MoE layer's ops cost generation time: 30 us / 19 each on CUDA") {
    LocalRequest r = one_gpu("rtx-pro-6000-blackwell");
    r.context = 640;
    r.n_gpu_layers = 99;
    r.prompt_len = 0;
    r.gen_len = 1;
    LocalModel dense_ops = qwen3;
    for (LocalLayer& layer : dense_ops.layers) layer.graph_ops = 18;
    const double moe = 1.0 / estimate_local(qwen3, r).speed.generation_tokens_per_second;
    const double dense = 1.0 / estimate_local(dense_ops, r).speed.generation_tokens_per_second;
    // 48 layers x (37 - 18) ops x 30 us / 19 = 1.44 ms a token.
    CHECK(moe - dense == doctest::Approx(48 * 19 * 30e-6 / 19));
  }
  SUBCASE("from a GGUF header: the same rules by tensor name") {
    CheckpointSummary s = one_layer_moe_gguf();
    s.tensors.push_back(f32_tensor("blk.0.attn_q.bias", {256}));
    s.tensors.push_back(f32_tensor("blk.0.attn_sinks.weight", {4}));
    s.tensors.push_back(f32_tensor("rope_freqs.weight", {32}));
    const LocalModel m = local_model_from_gguf(s);
    // Norms 2 x 2, q, k, v, o, router (5), bias (1), sinks (0), experts (3), ROPE and K/V writes (4),
    // residuals (2), routing with 2 experts a token (8 + 1): 28. Output 3; rope_freqs is not an op.
    CHECK(m.layers[0].graph_ops == 28);
    CHECK(m.layers[0].attention);
    CHECK(m.output_graph_ops == 3);
  }
}

TEST_CASE("local: each option's effect on the toy model, by hand") {
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 1024;
  r.n_gpu_layers = 5;
  SUBCASE("--kv-offload off: the cache stays on the CPU, and the command says -nkvo") {
    r.kv_offload = false;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.placement.devices[0].kv_buffer_bytes == 0);
    CHECK(e.placement.devices[1].kv_buffer_bytes == 4 * 2 * 1024 * 2048);  // 16 MiB
    CHECK(e.llama_cpp_command.find(" -nkvo") != std::string::npos);
  }
  SUBCASE("--ubatch: the compute buffer follows the tokens of one ubatch") {
    // Without flash attention, the output layer's peak: (32000 + 2048) x T x 4 B: 66.5 MiB at
    // T = 512, 33.25 MiB at T = 256.
    r.flash_attention = false;
    CHECK(place_local(model, r, 5).devices[0].compute_buffer_bytes == 34048 * 512 * 4);
    r.ubatch = 256;
    CHECK(place_local(model, r, 5).devices[0].compute_buffer_bytes == 34048 * 256 * 4);
    CHECK(estimate_local(model, r).llama_cpp_command.find(" -ub 256") != std::string::npos);
    // With flash attention, in a build before b9410, the logits go above the f16 mask cast from the f32
    // input (1024 cells x T x 2 B) and two hidden states (2048 x T x 4 B each): 66.5 + 1 + 8 MiB at T = 512.
    r.flash_attention = true;
    r.ubatch = 512;
    r.llama_cpp_build = 9409;
    CHECK(place_local(model, r, 5).devices[0].compute_buffer_bytes == (34048 * 4 + 1024 * 2 + 2 * 2048 * 4) * 512);
    // From b9410 the mask is an f16 input, not a cast under the logits: the output layer's peak alone, and
    // the host holds two hidden-sized inputs beside the f16 mask.
    r.llama_cpp_build = 9410;
    CHECK(place_local(model, r, 5).devices[0].compute_buffer_bytes == 34048 * 512 * 4);
    CHECK(place_local(model, r, 5).devices[1].compute_buffer_bytes == (2 * 2048 * 4 + 1024 * 2) * 512);
  }
  SUBCASE("--parallel: Ollama's num_ctx is per slot") {
    r.context = 8192;
    r.parallel = 4;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.ollama_num_ctx == 2048);
    CHECK(e.llama_cpp_command.find(" -c 8192 -np 4") != std::string::npos);
  }
  SUBCASE("--backend: device names and rates") {
    r.backend = LocalBackend::vulkan;
    r.prompt_len = 0;
    r.gen_len = 1;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.placement.devices[0].name == "Vulkan0");
    const double bytes = 420.0 * kMiB + 0.5 * 4 * 4096;
    // Vulkan generates at CUDA's factors: 0.88 of the bandwidth, 30 us a Llama layer of 19 ops; this one
    // runs 4 x 19 + 3.
    CHECK(e.speed.generation_tokens_per_second ==
          doctest::Approx(1.0 / (bytes / (1008e9 * 0.88) + (4 * 19 + 3) * 30e-6 / 19 + kCrossingSecondsPerToken)));
  }
  SUBCASE("--prompt-len: quantized weights on MMQ at 0.26 of the 4090's int8 rate, attention on cuBLAS f16") {
    r.prompt_len = 512;
    // The toy's weights are quantized: 2 x (4 x 50M + 10M) x 512 = 215.04 GFLOP at 0.26 x 660.6 TOP/s
    // (Ada whitepaper, INT8 dense) = 1.2520 ms; causal attention 4 x 2048 x 4 layers x 512^2 / 2 =
    // 4.295 GFLOP, half at 0.47 x 330.3 TFLOP/s (FP16 with FP16 accumulate) and half at 0.47 x 165.2
    // (FP32 accumulate) = 0.0415 ms. Slower than reading 420 MiB once (0.50 ms).
    const double weights = rtx4090_toy_weights_seconds(512);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * 512.0 * 512.0 / 2);
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights + attention + 512 * kCrossingSecondsPerToken)));
    // How the GPU's part is made: the multiplies, the 420 MiB read once in the one ubatch (the shorter),
    // the embeddings' crossing; the CPU holds only the input layer and runs nothing.
    CHECK(e.speed.prompt_tokens == 512);
    CHECK(e.speed.prompt_ubatches == 1);
    const LocalPromptTime& gpu = e.speed.prompt_time[0];
    CHECK(gpu.multiply_seconds == doctest::Approx(weights + attention));
    CHECK(gpu.weight_read_seconds == doctest::Approx(420.0 * kMiB / (1008e9 * 0.88)));
    CHECK(gpu.offload_copy_seconds == 0);
    CHECK_FALSE(gpu.offloaded());
    CHECK(gpu.expert_combine_seconds == 0);
    CHECK(gpu.scores_seconds == 0);
    CHECK(gpu.crossing_seconds == doctest::Approx(512 * kCrossingSecondsPerToken));
    CHECK(gpu.seconds == doctest::Approx(weights + attention + 512 * kCrossingSecondsPerToken));
    CHECK(e.speed.prompt_time[1].seconds == 0);
  }
  SUBCASE("a partial offload's prompt: the CPU's weights copied over PCIe each ubatch, multiplied on the GPU") {
    r.n_gpu_layers = 2;
    r.prompt_len = 1024;
    const LocalEstimate e = estimate_local(model, r);
    // Two ubatches of 512. GPU: layers 2 and 3 (200 MiB), its multiplies 2 x 100M x 1024 at 0.26 x 660.6 TOP/s
    // and their attention; the CPU: layers 0 and 1 and the output (220 MiB), of which the 210 MiB of matrices
    // cross PCIe 4.0 x16 (0.8 x 32 GB/s, x 298.28 / 543.68 from the mapped file) in each ubatch and are
    // multiplied on the GPU; each ubatch's hidden state comes back to the CPU for the output layer, a
    // second boundary and so a handoff. Per head and layer 512 x (512 + 1024) scores are kept by flash
    // attention's causal half: 512^2/2 + 512 x 512 + 512^2/2.
    const double per_layer_attention = 4.0 * 2048 * (512.0 * 512 / 2 + 512.0 * 512 + 512.0 * 512 / 2);
    const double gpu_multiplies =
        2.0 * 100e6 * 1024 / (660.6e12 * 0.26) + rtx4090_attention_seconds(2 * per_layer_attention);
    const double cpu_multiplies =
        2.0 * 110e6 * 1024 / (660.6e12 * 0.26) + rtx4090_attention_seconds(2 * per_layer_attention);
    const double copies = 2 * 210.0 * kMiB / (32e9 * 0.8 * kPageableShare);
    CHECK(e.speed.prompt_ubatches == 2);
    const LocalPromptTime& gpu = e.speed.prompt_time[0];
    const LocalPromptTime& cpu = e.speed.prompt_time[1];
    CHECK(gpu.multiply_seconds == doctest::Approx(gpu_multiplies));
    CHECK(gpu.weight_read_seconds == doctest::Approx(2 * 200.0 * kMiB / (1008e9 * 0.88)));
    CHECK(gpu.crossing_seconds == doctest::Approx(1024 * kCrossingSecondsPerToken));
    CHECK(cpu.offloaded());
    CHECK(cpu.offload_gpu == 0);
    CHECK(cpu.weight_read_seconds == 0);
    CHECK(cpu.offload_copy_seconds == doctest::Approx(copies));
    CHECK(cpu.multiply_seconds == doctest::Approx(cpu_multiplies));
    CHECK(cpu.crossing_seconds == doctest::Approx(1024 * kCrossingSecondsPerToken));
    CHECK(cpu.handoff_seconds == doctest::Approx(2 * kHandoffSeconds));
    CHECK(cpu.seconds ==
          doctest::Approx(copies + cpu_multiplies + 1024 * kCrossingSecondsPerToken + 2 * kHandoffSeconds));
    const double total = gpu_multiplies + 1024 * kCrossingSecondsPerToken + cpu.seconds;
    CHECK(e.speed.prompt_tokens_per_second == doctest::Approx(1024 / total));
  }
  SUBCASE("--cpu: CPU layers read RAM at the CPU's bandwidth") {
    r.gpus.clear();
    r.backend = LocalBackend::cpu;
    r.cpu = *find_cpu("ryzen-9-7950x");  // 2 channels of DDR5-5200: 83.2 GB/s; two dies read up to 128
    r.prompt_len = 0;
    r.gen_len = 1;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.placement.n_gpu_layers == 0);
    CHECK(e.placement.devices.size() == 1);
    const double bytes = 420.0 * kMiB + 0.5 * 4 * 4096;
    // 4 layers of 19 ops and the output's 3, each at test-barrier's 16-thread time (474 ns on one thread
    // and (1039.47 - 474) / 7 ns more for each other thread, i9-13900K, OpenMP build, llama.cpp#9461).
    const double node_seconds = (474 + 15 * (1039.47 - 474) / 7) * 1e-9;
    CHECK(e.speed.generation_token_time[0].graph_ops == 79);
    CHECK(e.speed.generation_token_time[0].seconds_per_op == doctest::Approx(node_seconds));
    CHECK(e.speed.generation_tokens_per_second == doctest::Approx(1.0 / (bytes / (83.2e9 * 0.90) + 79 * node_seconds)));
    // RAM as installed: one DIMM of DDR5-6000 is 1 x 8 B x 6000 MT/s = 48 GB/s, and the report says so.
    r.cpu->memory_channels = 1;
    r.cpu->memory_transfers_per_second = 6000e6;
    const LocalEstimate one_dimm = estimate_local(model, r);
    CHECK(one_dimm.speed.generation_tokens_per_second ==
          doctest::Approx(1.0 / (bytes / (48e9 * 0.90) + 79 * node_seconds)));
    bool stated = false;
    for (const std::string& line : one_dimm.assumptions)
      stated = stated || line.find(
                             "1 channel x 8 B x 6000 MT/s = 48 GB/s, not the AMD Ryzen 9 7950X "
                             "specification's DDR5-5200") != std::string::npos;
    CHECK(stated);
  }
  SUBCASE("a partial offload: the GPU's and the CPU's times add up; RAM weights cross PCIe for prompts") {
    r.n_gpu_layers = 2;
    r.cpu = *find_cpu("ryzen-9-7950x");
    r.prompt_len = 0;
    r.gen_len = 1;
    const LocalEstimate e = estimate_local(model, r);
    // GPU: 2 layers (200 MiB) and their KV; CPU: 2 layers and the output (220 MiB) and their KV.
    // The hidden state crosses to the GPU before layer 2 and back to the CPU for the output layer: the
    // second boundary is a handoff.
    const double gpu = (200.0 * kMiB + 0.5 * 2 * 4096) / (1008e9 * 0.88) + 2 * 30e-6 + kCrossingSecondsPerToken;
    // CPU: its bytes at 0.90 of 83.2 GB/s, 2 layers x 19 ops and the output's 3 at the 16-thread node time.
    const double node_seconds = (474 + 15 * (1039.47 - 474) / 7) * 1e-9;
    const double cpu = (220.0 * kMiB + 0.5 * 2 * 4096) / (83.2e9 * 0.90) + 41 * node_seconds +
                       kCrossingSecondsPerToken + kHandoffSeconds;
    CHECK(e.speed.generation_tokens_per_second == doctest::Approx(1.0 / (gpu + cpu)));
    CHECK(e.speed.generation_time_share[1] == doctest::Approx(cpu / (gpu + cpu)));
    // How the GPU's part is made: its bytes at 0.88 of 1008 GB/s, 2 layers x 19 ops at 30/19 us, one
    // crossing in.
    const LocalTokenTime& t = e.speed.generation_token_time[0];
    CHECK(t.bytes == doctest::Approx(200.0 * kMiB + 0.5 * 2 * 4096));
    CHECK(t.bandwidth_fraction == doctest::Approx(0.88));
    CHECK(t.bandwidth_bytes_per_second == doctest::Approx(1008e9 * 0.88));
    CHECK(t.graph_ops == 38);
    CHECK(t.seconds_per_op == doctest::Approx(30e-6 / 19));
    CHECK(t.crossing_seconds == doctest::Approx(kCrossingSecondsPerToken));
    CHECK(t.seconds == doctest::Approx(gpu));
  }
}

TEST_CASE("local options: the prompt and the generated tokens fit one slot") {
  const LocalOptions small = parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"context", "512"}});
  CHECK(small.request.prompt_len == 256);  // the defaults 512 and 128 shrink to fit a 512-token slot
  CHECK(small.request.gen_len == 128);
  const LocalOptions slots =
      parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"context", "8192"}, {"parallel", "4"}});
  CHECK(slots.request.prompt_len == 512);
  CHECK(slots.request.gen_len == 128);
  try {
    parse_local_options(
        {{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"context", "1024"}, {"prompt_len", "1000"}, {"gen_len", "100"}});
    FAIL("accepted");
  } catch (const OptionError& error) {
    CHECK(error.option() == "prompt_len");
    CHECK(std::string(error.what()).find("one slot") != std::string::npos);
  }
}

TEST_CASE("local: on Apple silicon the CPU's buffers share the unified memory with the GPU's") {
  const LocalModel model = toy_model();
  LocalRequest r;
  r.gpus.push_back(*find_accelerator("m2-ultra"));
  r.backend = LocalBackend::metal;
  r.context = 256;
  r.ram_bytes = std::int64_t{192} << 30;
  const LocalPlacement p = place_local(model, r, 5);
  CHECK(p.devices[0].name == "Metal");
  CHECK(p.devices[1].limit_bytes == r.ram_bytes - p.devices[0].total_bytes());
}

TEST_CASE("local: the peak each CUDA matrix-multiply path runs against, GeForce and data center") {
  // RTX 4090 (Ada whitepaper, Appendix A, dense): INT8 Tensor 660.6 TOPS; FP16 Tensor with FP16
  // accumulate 330.3 TFLOPS, with FP32 accumulate 165.2 (GeForce: half rate); FP32 82.6.
  const Accelerator& ada = *find_accelerator("rtx-4090");
  CHECK(local_matmul_peak_flops(ada, LocalMatmulPath::mmq) == doctest::Approx(660.6e12));
  CHECK(local_matmul_peak_flops(ada, LocalMatmulPath::cublas_f16) == doctest::Approx(330.3e12));
  CHECK(local_matmul_peak_flops(ada, LocalMatmulPath::cublas_bf16) == doctest::Approx(165.2e12));
  CHECK(local_matmul_peak_flops(ada, LocalMatmulPath::cublas_f32) == doctest::Approx(82.6e12));
  // RTX 3090 (GA102 whitepaper, Table 9, dense): INT8 284, FP16 with FP16 accumulate 142, BF16 71.
  const Accelerator& ampere = *find_accelerator("rtx-3090");
  CHECK(local_matmul_peak_flops(ampere, LocalMatmulPath::mmq) == doctest::Approx(284e12));
  CHECK(local_matmul_peak_flops(ampere, LocalMatmulPath::cublas_f16) == doctest::Approx(142e12));
  CHECK(local_matmul_peak_flops(ampere, LocalMatmulPath::cublas_bf16) == doctest::Approx(71e12));
  // A100 SXM (datasheet, dense: half the starred sparse figures): INT8 624 TOPS, FP16 and BF16 312
  // (full-rate FP32 accumulate on data-center parts, so the FP16-accumulate rate is the same 312).
  const Accelerator& a100 = *find_accelerator("a100-sxm-80gb");
  CHECK(local_matmul_peak_flops(a100, LocalMatmulPath::mmq) == doctest::Approx(624e12));
  CHECK(local_matmul_peak_flops(a100, LocalMatmulPath::cublas_f16) == doctest::Approx(312e12));
  CHECK(local_matmul_peak_flops(a100, LocalMatmulPath::cublas_bf16) == doctest::Approx(312e12));
  // H100 SXM (datasheet, dense): INT8 1978.9 TOPS, FP16 989.4 (the int8 rule gives 989.45), BF16 989.4.
  // Hopper: llama.cpp's mma.sync paths run at half of those wgmma peaks (1978.9 / 2, 989.45 / 2); cuBLAS
  // bf16 keeps the peak.
  const Accelerator& h100 = *find_accelerator("h100-sxm-80gb");
  CHECK(local_matmul_peak_flops(h100, LocalMatmulPath::mmq) == doctest::Approx(989.45e12));
  CHECK(local_matmul_peak_flops(h100, LocalMatmulPath::cublas_f16) == doctest::Approx(494.7e12).epsilon(1e-4));
  CHECK(local_matmul_peak_flops(h100, LocalMatmulPath::cublas_bf16) == doctest::Approx(989.4e12).epsilon(1e-4));
  // H100 PCIe (datasheet, dense): INT8 1513 TOPS: MMQ at 756.5, cuBLAS f16 at 378.25.
  const Accelerator& h100_pcie = *find_accelerator("h100-pcie-80gb");
  CHECK(local_matmul_peak_flops(h100_pcie, LocalMatmulPath::mmq) == doctest::Approx(756.5e12).epsilon(1e-3));
  CHECK(local_matmul_peak_flops(h100_pcie, LocalMatmulPath::cublas_f16) == doctest::Approx(378.25e12).epsilon(1e-3));
  // V100: no int8 tensor cores (no MMQ peak); cuBLAS f16 accumulates in fp32 there, at 125 TFLOPS.
  const Accelerator& v100 = *find_accelerator("v100-sxm2-32gb");
  CHECK(local_matmul_peak_flops(v100, LocalMatmulPath::mmq) == 0);
  CHECK(local_matmul_peak_flops(v100, LocalMatmulPath::cublas_f16) == doctest::Approx(125e12));
  // Not NVIDIA: no MMQ rate (the ROCm and other backends keep their own prompt factor). A custom GPU
  // based on the 4090 keeps its int8 rate for MMQ, and its fp16 column (no vendor rule) for cuBLAS.
  CHECK(local_matmul_peak_flops(*find_accelerator("rx-7900-xtx"), LocalMatmulPath::mmq) == 0);
  const auto custom = make_custom_accelerator(ada, "my 4090", "PCIe 4.0 x16", &ada);
  CHECK(local_matmul_peak_flops(*custom, LocalMatmulPath::mmq) == doctest::Approx(660.6e12));
  CHECK(local_matmul_peak_flops(*custom, LocalMatmulPath::cublas_f16) == doctest::Approx(165.2e12));
  CHECK(std::string(local_matmul_path_name(LocalMatmulPath::cublas_f16)) == "cublas_f16");
}

TEST_CASE("local: prompt speed by storage type on CUDA, by hand") {
  LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 1024;
  r.n_gpu_layers = 5;
  r.prompt_len = 512;
  // The causal attention, and the prompt's embeddings crossing to the GPU.
  const double attention =
      rtx4090_attention_seconds(4.0 * 2048 * 4 * 512.0 * 512.0 / 2) + 512 * kCrossingSecondsPerToken;
  SUBCASE("f16 weights: cuBLAS with fp16 accumulate, 0.47 of 330.3 TFLOP/s") {
    for (auto& layer : model.layers) layer.dense_float.f16 = layer.dense_parameters;
    model.output_float.f16 = model.output_parameters;
    const double weights = 2.0 * 210e6 * 512 / (330.3e12 * 0.47);  // 1.3851 ms
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second == doctest::Approx(512 / (weights + attention)));
    // The same weights on an A100: its fp16 figure, 312 TFLOP/s, is already the fp16-accumulate rate.
    r.gpus = {*find_accelerator("a100-sxm-80gb")};
    const double a100 =
        (2.0 * 210e6 * 512 + 4.0 * 2048 * 4 * 512.0 * 512.0 / 2) / (312e12 * 0.47) + 512 * kCrossingSecondsPerToken;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second == doctest::Approx(512 / a100));
  }
  SUBCASE("bf16 weights: cuBLAS with fp32 compute, 0.47 of 165.2 TFLOP/s") {
    for (auto& layer : model.layers) layer.dense_float.bf16 = layer.dense_parameters;
    model.output_float.bf16 = model.output_parameters;
    const double weights = 2.0 * 210e6 * 512 / (165.2e12 * 0.47);
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second == doctest::Approx(512 / (weights + attention)));
  }
  SUBCASE("--cuda-mmq off: quantized weights dequantized to f16 for cuBLAS, each ubatch") {
    r.cuda_mmq = false;
    // Multiplies at 0.47 x 330.3 TFLOP/s, plus one ubatch reading the 420 MiB of quantized weights
    // and writing 210M weights x 2 bytes of f16 at 1008 GB/s x 0.88.
    const double weights = 2.0 * 210e6 * 512 / (330.3e12 * 0.47);
    const double dequantize = (420.0 * kMiB + 2.0 * 210e6) / (1008e9 * 0.88);
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights + attention + dequantize)));
  }
  SUBCASE("--cuda-mmq off on an HBM part: the dequantize kernels read HBM at 0.53, as the mat-vec kernels do") {
    r.cuda_mmq = false;
    r.gpus = {*find_accelerator("a100-sxm-80gb")};
    // A100 SXM: multiplies and attention at 0.47 x 312 TFLOP/s, the embeddings over PCIe 4.0 x16, and
    // one ubatch's dequantization (420 MiB read, 210M x 2 bytes written) at 0.53 of 2039 GB/s, not 0.88.
    const double compute = (2.0 * 210e6 * 512 + 4.0 * 2048 * 4 * 512.0 * 512.0 / 2) / (312e12 * 0.47);
    const double dequantize = (420.0 * kMiB + 2.0 * 210e6) / (2039e9 * 0.53);
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (compute + 512 * kCrossingSecondsPerToken + dequantize)));
  }
  SUBCASE("routed experts on MMQ: whole column tiles of 128 for 32 tokens an expert") {
    // 4 layers of 128 experts, 8 a token, 400M expert parameters a layer (no dense weights but the
    // output): a ubatch of 512 tokens picks mmq_x = 128; an expert gets 512 x 8 / 128 = 32 tokens,
    // one tile of 128 columns, so its multiplies cost 128 / 32 = 4 times the work they need
    // (2.39 ms, slower than reading the 420 MiB once, 0.50 ms). Then each layer combines the 8 experts'
    // outputs through memory: 262,176 bytes a token (local: the routed experts' combine, below) at 0.88 of
    // 1008 GB/s.
    make_toy_experts(model, 128, 8);
    const double experts = 4 * 2.0 * 400e6 * (8.0 / 128) * 512 * 4;  // touched share, 4x the work
    const double output = 2.0 * 10e6 * 512;
    const double combine = 4 * 262176.0 * 512 / (1008e9 * 0.88);
    const double seconds = (experts + output) / (660.6e12 * 0.26) + attention + combine;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second == doctest::Approx(512 / seconds));
    CHECK(e.speed.prompt_time[0].expert_combine_seconds == doctest::Approx(combine));
    CHECK(e.speed.prompt_time[0].seconds == doctest::Approx(seconds));
  }
}

TEST_CASE("local: a MoE layer combines its routed experts' outputs through memory, by backend and build") {
  // build_moe_ffn writes each token's k expert outputs (f32, 2048 values), a MUL scales them by the routing
  // weights and k - 1 ADDs sum them; a dense FFN writes one output. Beyond it, a token and layer moves
  // 4 x ((k - 1) x 2048 + 2 x k x 2048 + k + (k - 1 + 2 x kernels) x 2048) bytes, the ADDs run as `kernels`
  // kernels. With 10 experts a token (9 ADDs): 458,792 bytes one ADD to a kernel, 344,104 in two kernels
  // (up to 8 or 6 to a kernel), 327,720 in one (up to 9). The time share times the prompt's time is that
  // traffic over the 4 layers and 512 tokens at the streaming share of the GPU's bandwidth.
  LocalModel model = toy_model();
  make_toy_experts(model, 128, 10);
  LocalRequest r = toy_offloaded("rtx-4090", LocalBackend::cuda);
  r.prompt_len = 512;
  const auto combine_seconds = [&](const LocalRequest& request) {
    const LocalEstimate e = estimate_local(model, request);
    return e.speed.prompt_expert_combine_time_share * 512 / e.speed.prompt_tokens_per_second;
  };
  const auto traffic = [](double bytes, double bandwidth) { return 4 * bytes * 512 / bandwidth; };
  const double rtx4090 = 1008e9 * 0.88;
  SUBCASE("CUDA fuses up to 8 consecutive ADDs from b6316 (#15631); ROCm, its HIP build, too") {
    CHECK(combine_seconds(r) == doctest::Approx(traffic(344104, rtx4090)));
    r.llama_cpp_build = 6316;
    CHECK(combine_seconds(r) == doctest::Approx(traffic(344104, rtx4090)));
    r.llama_cpp_build = 6315;
    CHECK(combine_seconds(r) == doctest::Approx(traffic(458792, rtx4090)));
    LocalRequest rocm = toy_offloaded("rx-7900-xtx", LocalBackend::rocm);
    rocm.prompt_len = 512;
    CHECK(combine_seconds(rocm) == doctest::Approx(traffic(344104, 960e9 * 0.80)));
    const LocalEstimate e = estimate_local(model, toy_offloaded("rtx-4090", LocalBackend::cuda));
    bool stated = false;
    for (const std::string& a : e.assumptions)
      stated = stated || (a.find("10 f32 outputs of 2048 values") != std::string::npos &&
                          a.find("(8 to a kernel in this build): 344104 bytes a token") != std::string::npos);
    CHECK(stated);
  }
  SUBCASE("Vulkan: up to 6 from b6182 (#15252), 9 from b6258 (#15281)") {
    r.backend = LocalBackend::vulkan;
    CHECK(combine_seconds(r) == doctest::Approx(traffic(327720, rtx4090)));
    r.llama_cpp_build = 6257;
    CHECK(combine_seconds(r) == doctest::Approx(traffic(344104, rtx4090)));
    r.llama_cpp_build = 6181;
    CHECK(combine_seconds(r) == doctest::Approx(traffic(458792, rtx4090)));
  }
  SUBCASE("Metal: up to 8 from b5937 (#14596); SYCL: one by one") {
    LocalRequest metal = toy_offloaded("m2-ultra", LocalBackend::metal);
    metal.prompt_len = 512;
    CHECK(combine_seconds(metal) == doctest::Approx(traffic(344104, 800e9 * 0.85)));
    metal.llama_cpp_build = 5936;
    CHECK(combine_seconds(metal) == doctest::Approx(traffic(458792, 800e9 * 0.85)));
    LocalRequest sycl = toy_offloaded("arc-b580", LocalBackend::sycl);
    sycl.prompt_len = 512;
    CHECK(combine_seconds(sycl) == doctest::Approx(traffic(458792, 456e9 * 0.70)));
  }
  SUBCASE("none for a dense model, none on the CPU (its routed-expert share was read off MoE rows)") {
    const LocalEstimate dense = estimate_local(toy_model(), r);
    CHECK(dense.speed.prompt_expert_combine_time_share == 0);
    for (const std::string& a : dense.assumptions) CHECK(a.find("combines its routed experts") == std::string::npos);
    LocalRequest cpu = r;
    cpu.gpus.clear();
    cpu.backend = LocalBackend::cpu;
    cpu.n_gpu_layers = 0;
    CHECK(estimate_local(model, cpu).speed.prompt_expert_combine_time_share == 0);
  }
}

TEST_CASE("local: CPU prompts run on ggml-cpu's kernels, by hand") {
  // The toy on the CPU alone (flash attention on, 512-token prompt): 2 x 210M x 512 = 215.04 GFLOP of
  // weights, and 4 x 2048 x 4 layers x 512^2 / 2 = 4.295 GFLOP of attention, one query row at a time in
  // fp32 (row-by-row dot products at 0.165). Reading the 430 MiB once (8.3 ms) is far below either.
  // Ryzen 9 7950X: 16 cores x 4.5 GHz x 128 int8 ops (AVX512_VNNI) = 9.216 TOP/s, x 32 fp32 FLOPs =
  // 2.304 TFLOP/s.
  LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.gpus.clear();
  r.backend = LocalBackend::cpu;
  r.cpu = *find_cpu("ryzen-9-7950x");
  r.context = 1024;
  r.prompt_len = 512;
  const double weights = 2.0 * 210e6 * 512;
  const double attention = 4.0 * 2048 * 4 * 512.0 * 512.0 / 2;
  const double int8 = 16 * 4.5e9 * 128;
  const double fp32 = 16 * 4.5e9 * 32;
  const auto set_type = [&](GgufType type) {
    for (auto& layer : model.layers) layer.dense_quantized[static_cast<std::size_t>(type)] = layer.dense_parameters;
    model.output_quantized[static_cast<std::size_t>(type)] = model.output_parameters;
  };
  SUBCASE("a type without a tiled kernel: int8 dot products row by row at 0.165") {
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights / (int8 * 0.165) + attention / (fp32 * 0.165))));
  }
  SUBCASE("Q4_0: tinyBLAS, then the repacked GEMM, at 0.27") {
    set_type(GgufType::q4_0);
    const double seconds = weights / (int8 * 0.27) + attention / (fp32 * 0.165);
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second == doctest::Approx(512 / seconds));
    bool stated = false;
    for (const std::string& a : estimate_local(model, r).assumptions)
      stated = stated || a.find("16 threads (llama.cpp's default") != std::string::npos;
    CHECK(stated);
  }
  SUBCASE("Q4_K: row by row before b4929, repacked and tiled since") {
    set_type(GgufType::q4_k);
    r.llama_cpp_build = 4384;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights / (int8 * 0.165) + attention / (fp32 * 0.165))));
    r.llama_cpp_build = 4929;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights / (int8 * 0.27) + attention / (fp32 * 0.165))));
  }
  SUBCASE("without flash attention the KQ and KQV multiplies go to tinyBLAS's F16 kernel at 0.27") {
    r.flash_attention = false;
    set_type(GgufType::q8_0);
    // The scores also move through RAM: 16 heads x 4 layers x 512 x 512 of them, f32, written and read
    // (local_attention_scores.cpp), at 0.65 of 83.2 GB/s.
    const double time = 512 / estimate_local(model, r).speed.prompt_tokens_per_second;
    CHECK(time > weights / (int8 * 0.27) + attention / (fp32 * 0.27));
    r.flash_attention = true;
    CHECK(512 / estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(weights / (int8 * 0.27) + attention / (fp32 * 0.165)));
  }
  SUBCASE("routed experts (MUL_MAT_ID) never reach the tiled kernels: 0.12") {
    make_toy_experts(model, 128, 8);
    set_type(GgufType::q4_0);  // the output layer's 10M; the experts' types do not matter
    const double experts = 4 * 2.0 * 400e6 * (8.0 / 128) * 512;
    const double output = 2.0 * 10e6 * 512;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (experts / (int8 * 0.12) + output / (int8 * 0.27) + attention / (fp32 * 0.165))));
  }
  SUBCASE("a hybrid Intel part: equal shares run at the E-cores' pace") {
    // Core i5-13600K: 6 P-cores at 3.5 GHz (128 int8 ops, 32 fp32 FLOPs a cycle, AVX-VNNI) and 8
    // E-cores at 2.6 GHz (64 and 16). llama.cpp's default takes the 6 P-cores only.
    set_type(GgufType::q4_0);
    r.cpu = *find_cpu("core-i5-13600k");
    r.llama_cpp_build = 4067;  // tinyBLAS's Q4_0 kernel: every thread an equal share of the tiles
    const double p_int8 = 3.5e9 * 128, e_int8 = 2.6e9 * 64, p_fp32 = 3.5e9 * 32, e_fp32 = 2.6e9 * 16;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights / (6 * p_int8 * 0.27) + attention / (6 * p_fp32 * 0.165))));
    // -t 14: the 8 E-cores join; the tiled kernel runs 14 threads at the E-core rate, the attention's
    // chunks each core at its own.
    r.threads = 14;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights / (14 * e_int8 * 0.27) + attention / ((6 * p_fp32 + 8 * e_fp32) * 0.165))));
    // The repacked GEMM hands out chunks from b6889: every core at its own rate.
    r.llama_cpp_build = 6889;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(
              512 / (weights / ((6 * p_int8 + 8 * e_int8) * 0.27) + attention / ((6 * p_fp32 + 8 * e_fp32) * 0.165))));
    CHECK(estimate_local(model, r).llama_cpp_command.find(" -t 14 ") != std::string::npos);
  }
}

TEST_CASE("local: Metal runs quantized weights at 0.60 of the fp16 peak, float weights and attention at 0.72") {
  // The toy on an M2 Ultra: 76 cores x 128 lanes x 2 x 1.398 GHz = 27.20 TFLOP/s of fp16. A 512-token
  // prompt multiplies 2 x 210M x 512 = 215 GFLOP of weights and 4 x 2048 x 4 layers x 512^2 / 2 = 4.29
  // GFLOP of attention (f16 K and Q); unified memory, so nothing crosses. Reading the 420 MiB once
  // (0.65 ms at 0.85 x 800 GB/s) is far below either.
  LocalModel model = toy_model();
  LocalRequest r = toy_offloaded("m2-ultra", LocalBackend::metal);
  r.prompt_len = 512;
  const double peak = 76 * 128 * 2 * 1.398e9;
  const double weights = 2.0 * 210e6 * 512;
  const double attention = 4.0 * 2048 * 4 * 512.0 * 512.0 / 2;
  CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
        doctest::Approx(512 / (weights / (peak * 0.60) + attention / (peak * 0.72))));
  for (auto& layer : model.layers) layer.dense_float.f16 = layer.dense_parameters;
  model.output_float.f16 = model.output_parameters;
  CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
        doctest::Approx(512 / ((weights + attention) / (peak * 0.72))));
}

TEST_CASE("local: Metal's routed experts run in whole 32-token tiles, from 32 tokens a batch") {
  // The toy as a MoE on an M2 Ultra (27.20 TFLOP/s of fp16): 4 layers of 400M expert parameters,
  // nothing dense but the 10M-parameter output; quantized weights at 0.60 of the peak, attention at
  // 0.72. An expert routed n tokens runs ceil(n / 32) tiles of 32; with balanced random routing n is
  // Binomial(batch, experts_per_token / num_experts). Each layer's combine of the experts' outputs streams
  // at 0.85 of 800 GB/s (Metal fuses up to 8 ADDs).
  LocalModel model = toy_model();
  LocalRequest r = toy_offloaded("m2-ultra", LocalBackend::metal);
  const double peak = 76 * 128 * 2 * 1.398e9;
  const double stream = 800e9 * 0.85;
  SUBCASE("512 experts, 10 a token: about 10 tokens each, one tile of 32") {
    // n <= 32 but for a chance of about 1e-8, so the tiles an expert runs are P(n >= 1) =
    // 1 - (502/512)^512, against the 10 tokens of work it needs: 3.2 x that.
    make_toy_experts(model, 512, 10);
    r.prompt_len = 512;
    const double factor = 32.0 * (1.0 - std::pow(502.0 / 512.0, 512.0)) / 10.0;
    const double attention = 4.0 * 2048 * 4 * 512.0 * 512.0 / 2 / (peak * 0.72);
    const double output = 2.0 * 10e6 * 512 / (peak * 0.60);
    const double experts = 4 * 2.0 * 400e6 * (10.0 / 512) * 512 * factor / (peak * 0.60);
    // 10 outputs of 2048 f32: 4 x (9 x 2048 beyond the dense one + 2 x 10 x 2048 + 10 for the MUL + (9 + 2 x 2)
    // x 2048 for the 9 ADDs in two kernels, 8 and 1) = 344,104 bytes a token and layer.
    const double combine = 4 * 344104.0 * 512 / stream;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second == doctest::Approx(512 / (experts + output + attention + combine)));
    bool stated = false;  // the report says so, with the factor
    for (const std::string& a : e.assumptions)
      stated = stated ||
               (a.find("whole 32-token tiles (Metal kernel_mul_mm_id): 10 tokens an expert") != std::string::npos &&
                a.find("3.20 x the expert multiplies") != std::string::npos);
    CHECK(stated);
  }
  SUBCASE("2 experts, 1 a token, 64 tokens: a mean of one tile still runs 1.45 tiles an expert") {
    // n ~ Binomial(64, 1/2): one tile for 1 <= n <= 32, two above; P(n > 32) = (1 - C(64,32) / 2^64) / 2
    // = 0.450330, so 1.450330 tiles of 32 for a mean of 32 tokens.
    make_toy_experts(model, 2, 1);
    r.prompt_len = 64;
    const double factor = 1.0 + (1.0 - 1832624140942590534.0 / 18446744073709551616.0) / 2;
    const double attention = 4.0 * 2048 * 4 * 64.0 * 64.0 / 2 / (peak * 0.72);
    const double output = 2.0 * 10e6 * 64 / (peak * 0.60);
    const double experts = 4 * 2.0 * 400e6 * 0.5 * 64 * factor / (peak * 0.60);
    // One expert a token: no ADD, only the MUL by its weight, 4 x (2 x 2048 + 1) = 16,388 bytes.
    const double combine = 4 * 16388.0 * 64 / stream;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(64 / (experts + output + attention + combine)));
  }
}

TEST_CASE("local: Vulkan on an NVIDIA GPU multiplies weights with f16 accumulators, experts in 128-token tiles") {
  // ggml-vulkan's coopmat2 pipelines at the default precision (f16acc): on an RTX 3090 the weights run at
  // the fp16-accumulate rate, 284 / 2 = 142 TFLOP/s, twice the catalog's fp16 column (71, fp32
  // accumulate); flash attention asks for f32 precision and stays at 71. Vulkan's prompt fraction is 0.40
  // of either. The toy's 512-token prompt: 2 x 210M x 512 of weights, 4 x 2048 x 4 x 512^2 / 2 of
  // attention, and the hidden state crossing into the GPU once a token.
  LocalModel model = toy_model();
  LocalRequest r = toy_offloaded("rtx-3090", LocalBackend::vulkan);
  r.prompt_len = 512;
  const double attention = 4.0 * 2048 * 4 * 512.0 * 512.0 / 2;
  SUBCASE("dense weights at 142 TFLOP/s, attention at 71") {
    const double weights = 2.0 * 210e6 * 512;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 /
                          (weights / (142e12 * 0.40) + attention / (71e12 * 0.40) + 512 * kCrossingSecondsPerToken)));
    // An RX 7900 XTX on Vulkan has no coopmat2: every multiply at its fp16 column, 122.8 TFLOP/s.
    r.gpus = {*find_accelerator("rx-7900-xtx")};
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / ((weights + attention) / (122.8e12 * 0.40) + 512 * kCrossingSecondsPerToken)));
  }
  SUBCASE("32 experts, 4 a token: 64 tokens an expert, one 128-token tile, twice the work") {
    // n ~ Binomial(512, 1/8): P(n = 0) and P(n > 128) are below 1e-29, so every expert runs exactly one
    // tile of 128 for its mean of 64 tokens.
    make_toy_experts(model, 32, 4);
    const double experts = 4 * 2.0 * 400e6 * (4.0 / 32) * 512 * 2.0;
    const double output = 2.0 * 10e6 * 512;
    // The combine: 4 x (3 x 2048 + 2 x 4 x 2048 + 4 + (3 + 2) x 2048) = 131,088 bytes a token and layer
    // at 0.88 of 936 GB/s (ggml-vulkan's multi_add runs the 3 ADDs as one).
    const double combine = 4 * 131088.0 * 512 / (936e9 * 0.88);
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second ==
          doctest::Approx(512 / ((experts + output) / (142e12 * 0.40) + attention / (71e12 * 0.40) +
                                 512 * kCrossingSecondsPerToken + combine)));
    bool stated = false;
    for (const std::string& a : e.assumptions)
      stated = stated ||
               (a.find("whole 128-token tiles (Vulkan coopmat2 mul_mm_id): 64 tokens an expert") != std::string::npos &&
                a.find("2.00 x the expert multiplies") != std::string::npos);
    CHECK(stated);
  }
}

TEST_CASE("local: the hidden state crosses the link between devices, once per device boundary") {
  // Two RTX 4090s splitting the toy's layers: the prompt's embeddings cross to GPU 0, and the hidden
  // state from GPU 0's last layer to GPU 1 (PCIe 4.0 x16 on both): one crossing more than one GPU,
  // 512 tokens x 2048 x 4 bytes at 0.8 of 32 GB/s = 0.164 ms, and one handoff (0.2375 ms). Each GPU's
  // multiplies are compute-bound, so the split adds nothing else.
  const LocalModel model = toy_model();
  LocalRequest one = one_gpu("rtx-4090");
  one.context = 1024;
  one.n_gpu_layers = 5;
  one.prompt_len = 512;
  LocalRequest two = one;
  two.gpus.push_back(*find_accelerator("rtx-4090"));
  const LocalEstimate a = estimate_local(model, one);
  const LocalEstimate b = estimate_local(model, two);
  REQUIRE(b.placement.devices[0].layers > 0);
  REQUIRE(b.placement.devices[1].layers > 0);
  CHECK(512 / b.speed.prompt_tokens_per_second - 512 / a.speed.prompt_tokens_per_second ==
        doctest::Approx(512 * kCrossingSecondsPerToken + kHandoffSeconds));
  SUBCASE("unified memory: nothing crosses") {
    LocalRequest mac = one;
    mac.gpus = {*find_accelerator("m2-ultra")};
    mac.backend = LocalBackend::metal;
    mac.prompt_len = 0;
    mac.gen_len = 1;
    const double bytes = 420.0 * kMiB + 0.5 * 4 * 4096;
    // Metal: 200 us a Llama layer of 22 ops; flash attention on: 4 x 19 + 3 ops.
    CHECK(estimate_local(model, mac).speed.generation_tokens_per_second ==
          doctest::Approx(1.0 / (bytes / (800e9 * 0.85) + (4 * 19 + 3) * 200e-6 / 22)));
  }
}

TEST_CASE("local: CUDA generation on an HBM data-center GPU reads at 0.53 of its bandwidth") {
  // The toy on one A100 SXM 80GB (2039 GB/s): 420 MiB and half a cell of KV at 0.53 of the peak (the
  // GDDR cards' 0.88 does not hold for llama.cpp's mat-vec kernels on HBM), the 79 ops, and the
  // embedding crossing to the GPU (the host link is PCIe 4.0 x16: the catalog's link is NVLink).
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("a100-sxm-80gb");
  r.context = 256;
  r.n_gpu_layers = 5;
  r.prompt_len = 0;
  r.gen_len = 1;
  const double bytes = 420.0 * kMiB + 0.5 * 4 * 4096;
  CHECK(estimate_local(model, r).speed.generation_tokens_per_second ==
        doctest::Approx(1.0 / (bytes / (2039e9 * 0.53) + (4 * 19 + 3) * 30e-6 / 19 + kCrossingSecondsPerToken)));
  CHECK(is_nvidia_hbm_part(*find_accelerator("h100-pcie-80gb")));
  CHECK_FALSE(is_nvidia_hbm_part(*find_accelerator("rtx-6000-ada")));
}

TEST_CASE("local: which weights are stored as floats (the CUDA path of each)") {
  const ModelDescription m = llama3_8b();
  // Llama-3-8B: per layer q (4096^2), k and v (1024 x 4096 each), o (4096^2), gate, up, down
  // (3 x 14336 x 4096) = 218,103,808 matrix parameters; the norms are vectors.
  const LocalModel f16 = local_model_from_config(m, WeightFormat::fp16);
  CHECK(f16.layers[0].dense_float.f16 == 218'103'808);
  CHECK(f16.output_float.f16 == 128256LL * 4096);
  const LocalModel bf16 = local_model_from_config(m, WeightFormat::bf16);
  CHECK(bf16.layers[0].dense_float.bf16 == 218'103'808);
  const LocalModel q4 = local_model_from_config(m, WeightFormat::gguf_q4_k_m);
  CHECK(q4.layers[0].dense_float.f16 + q4.layers[0].dense_float.bf16 + q4.layers[0].dense_float.f32 == 0);
  CHECK(q4.output_float.f16 == 0);
}

TEST_CASE("local: several GPUs overlap the ubatches of one batch (llama.cpp's pipeline parallelism), by hand") {
  // Two RTX 4090s holding every layer of the toy and its output, a 2048-token prompt in ubatches of
  // 512. With n_batch 512 each llama_decode call is one ubatch and the devices take turns: the serial
  // time T. With n_batch 2048 the four ubatches of the one batch overlap: each device's time per
  // ubatch is its share of T over 4, and the batch takes their sum plus 3 x the slowest one's.
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.gpus.push_back(*find_accelerator("rtx-4090"));
  r.context = 4096;
  r.n_gpu_layers = 5;
  r.prompt_len = 2048;
  r.batch = 512;
  const LocalEstimate serial = estimate_local(model, r);
  CHECK_FALSE(serial.speed.prompt_pipelined);
  const double t = 2048 / serial.speed.prompt_tokens_per_second;
  const std::vector<double>& share = serial.speed.prompt_time_share;
  REQUIRE(share.size() == 3);  // CUDA0, CUDA1, CPU
  CHECK(share[0] + share[1] + share[2] == doctest::Approx(1.0));
  const double slowest = std::max(share[0], share[1]);

  r.batch = 2048;
  const LocalEstimate one_batch = estimate_local(model, r);
  CHECK(one_batch.speed.prompt_pipelined);
  CHECK(2048 / one_batch.speed.prompt_tokens_per_second == doctest::Approx(t / 4 + 3 * slowest * t / 4));
  CHECK(one_batch.speed.prompt_pipeline_speedup == doctest::Approx(t / (t / 4 + 3 * slowest * t / 4)));
  CHECK(one_batch.speed.prompt_time_share == share);
  CHECK(one_batch.llama_cpp_command.find(" -b ") == std::string::npos);

  SUBCASE("two batches of two ubatches: the pipeline starts again at each batch") {
    r.batch = 1024;
    const LocalEstimate two = estimate_local(model, r);
    CHECK(2048 / two.speed.prompt_tokens_per_second == doctest::Approx(2 * (t / 4) + 2 * slowest * t / 4));
    CHECK(two.llama_cpp_command.find(" -b 1024") != std::string::npos);
  }
  SUBCASE("no overlap without every layer on the GPUs, with -nkvo, with Vulkan's synchronous copies, or one GPU") {
    LocalRequest partial = r;
    partial.n_gpu_layers = 4;  // the output layer stays on the CPU
    CHECK_FALSE(estimate_local(model, partial).speed.prompt_pipelined);
    LocalRequest nkvo = r;
    nkvo.kv_offload = false;
    CHECK_FALSE(estimate_local(model, nkvo).speed.prompt_pipelined);
    LocalRequest vulkan = r;
    vulkan.backend = LocalBackend::vulkan;
    CHECK_FALSE(estimate_local(model, vulkan).speed.prompt_pipelined);
    LocalRequest single = r;
    single.gpus.pop_back();
    CHECK_FALSE(estimate_local(model, single).speed.prompt_pipelined);
    LocalRequest rocm = r;
    rocm.backend = LocalBackend::rocm;
    CHECK(estimate_local(model, rocm).speed.prompt_pipelined);
  }
}

TEST_CASE("local: without flash attention every ubatch writes its attention scores to memory, by hand") {
  // The toy on an RTX 4090 (1008 GB/s; MMQ at 0.26 of 660.6 TOP/s int8; attention's products half at
  // 0.47 of 330.3 TFLOP/s, half at 0.47 of 165.2), n_ctx 2048, 16 heads of 128 in each of its 4 layers.
  const LocalModel model = toy_model();
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 2048;
  r.n_gpu_layers = 5;
  r.flash_attention = false;
  SUBCASE("1536 tokens: three ubatches of 512 attend to 512, 1024 and 1536 cells") {
    r.prompt_len = 1536;
    // Per head and layer 512 x (512 + 1024 + 1536) = 1,572,864 scores, all of them multiplied (no
    // masked tiles skipped): 4 x 2048 x 4 layers x 1,572,864 = 51.54 GFLOP of QK^T and PV. Through
    // memory: x 16 heads x 4 layers x 20 bytes = 2,013,265,920 bytes at 0.88 x 1008 GB/s = 2.270 ms.
    const double weights = rtx4090_toy_weights_seconds(1536);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * 1572864);
    const double scores = 2013265920.0 / (1008e9 * 0.88);
    const double seconds = weights + attention + scores + 1536 * kCrossingSecondsPerToken;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second == doctest::Approx(1536 / seconds));
    CHECK(e.speed.prompt_scores_time_share == doctest::Approx(scores / seconds));
    CHECK(e.speed.prompt_ubatches == 3);
    CHECK(e.speed.prompt_time[0].multiply_seconds == doctest::Approx(weights + attention));
    CHECK(e.speed.prompt_time[0].scores_seconds == doctest::Approx(scores));
    CHECK(e.speed.prompt_time[0].seconds == doctest::Approx(seconds));
    bool stated = false;
    for (const std::string& a : e.assumptions) stated = stated || a.find("20 bytes a score") != std::string::npos;
    CHECK(stated);
  }
  SUBCASE("1000 tokens: the last ubatch of 488 tokens attends to all 1000 cells") {
    r.prompt_len = 1000;
    const double per_head = 512.0 * 512 + 488.0 * 1000;  // 750,144
    const double weights = rtx4090_toy_weights_seconds(1000);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * per_head);
    const double scores = 20.0 * 16 * 4 * per_head / (1008e9 * 0.88);
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(1000 / (weights + attention + scores + 1000 * kCrossingSecondsPerToken)));
  }
  SUBCASE("a sliding window caps the cells a ubatch attends to") {
    // Two layers with a 512-token window keep 512 + 512 = 1024 cells (llama_kv_cache_iswa, padded to
    // 32): their third ubatch attends to 1024, not 1536. Per head 512 x (512 + 1024 + 1024) on those.
    LocalModel windowed = model;
    windowed.layers[0].sliding_window = 512;
    windowed.layers[1].sliding_window = 512;
    r.prompt_len = 1536;
    const double per_head = 2 * 512.0 * (512 + 1024 + 1024) + 2 * 512.0 * (512 + 1024 + 1536);
    const double weights = rtx4090_toy_weights_seconds(1536);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * per_head);
    const double scores = 20.0 * 16 * per_head / (1008e9 * 0.88);
    CHECK(estimate_local(windowed, r).speed.prompt_tokens_per_second ==
          doctest::Approx(1536 / (weights + attention + scores + 1536 * kCrossingSecondsPerToken)));
  }
  SUBCASE("flash attention keeps the scores on chip and skips the masked half") {
    r.flash_attention = true;
    r.prompt_len = 1536;
    const double weights = rtx4090_toy_weights_seconds(1536);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * 1536.0 * 1536.0 / 2);
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second ==
          doctest::Approx(1536 / (weights + attention + 1536 * kCrossingSecondsPerToken)));
    CHECK(e.speed.prompt_scores_time_share == 0);
  }
}

namespace {

ModelDescription olmocr_7b() {
  return parse_hf_config(test::read_file(test::fixture_configs_dir() + "/allenai--olmOCR-7B-0225-preview.json"));
}

// Qwen2-VL's encoders by hand (Qwen2VisionTransformerPretrainedModel, 1280 wide, 32 blocks, MLP ratio 4):
// patch embedding Conv3d 3 x 1280 x 2 x 14 x 14 without bias = 1,505,280; a block: two LayerNorms
// 2 x 2 x 1280 = 5,120, qkv 1280 x 3840 + 3840 = 4,919,040, proj 1280 x 1280 + 1280 = 1,639,680,
// fc1 1280 x 5120 + 5120 = 6,558,720, fc2 5120 x 1280 + 1280 = 6,554,880: 19,677,440, x 32 = 629,678,080.
constexpr std::int64_t kQwen2VlTower = 1'505'280 + 32 * std::int64_t{19'677'440};  // 631,183,360
// The merger into the language model's width w: ln_q 2 x 1280, Linear 5120 -> 5120 with bias, Linear 5120 -> w.
constexpr std::int64_t qwen2_vl_merger(std::int64_t width) { return 2'560 + 26'219'520 + 5'120 * width + width; }

}  // namespace

TEST_CASE("local: a vision model's encoders load from llama.cpp's mmproj file onto the first GPU") {
  const ModelDescription description = olmocr_7b();
  const LocalModel model = local_model_from_config(description, WeightFormat::gguf_q4_k_m);
  const std::int64_t encoders = kQwen2VlTower + qwen2_vl_merger(3584);  // 675,759,104
  CHECK(model.encoder_parameters == encoders);

  // Absent --mmproj: f16 (2 B a parameter) for a model with encoders, in CUDA0's buffers and total.
  LocalRequest request = one_gpu("rtx-4090");
  request.context = 8192;
  const LocalEstimate e = estimate_local(model, request);
  CHECK(e.placement.mmproj == LocalMmprojType::f16);
  const LocalDeviceUse& gpu = device(e.placement, "CUDA0");
  CHECK(gpu.mmproj_buffer_bytes == 2 * encoders);  // 1,351,518,208 B = 1288.91 MiB
  CHECK(gpu.total_bytes() ==
        gpu.model_buffer_bytes + gpu.kv_buffer_bytes + gpu.compute_buffer_bytes + std::int64_t{1'351'518'208});
  CHECK(device(e.placement, "CPU").mmproj_buffer_bytes == 0);
  CHECK(e.llama_cpp_command.find(" --mmproj mmproj-model-f16.gguf") != std::string::npos);

  // q8_0: 34 B per block of 32 values; --no-mmproj-offload keeps the file in RAM.
  request.mmproj = LocalMmprojType::q8_0;
  request.mmproj_offload = false;
  const LocalEstimate in_ram = estimate_local(model, request);
  CHECK(device(in_ram.placement, "CPU").mmproj_buffer_bytes == (encoders + 31) / 32 * 34);  // 717,994,048
  CHECK(device(in_ram.placement, "CUDA0").mmproj_buffer_bytes == 0);
  CHECK(in_ram.llama_cpp_command.find("--no-mmproj-offload") != std::string::npos);
  CHECK(in_ram.llama_cpp_command.find(" --mmproj mmproj-model-q8_0.gguf") != std::string::npos);

  // off: nothing loaded, and the report says what is left out.
  request.mmproj = LocalMmprojType::off;
  const LocalEstimate off = estimate_local(model, request);
  CHECK(off.placement.mmproj_device == -1);
  CHECK(off.llama_cpp_command.find("--mmproj") == std::string::npos);
  bool said = false;
  for (const std::string& line : off.assumptions) said = said || line.find("mmproj off") == 0;
  CHECK(said);
}

TEST_CASE("local: the f32 mmproj rule against a published llama.cpp load log (Qwen2-VL-2B)") {
  // gpustack/gpustack#998 (a ROCm RX 7800 XT log of Qwen2-VL-2B-Instruct's f32 mmproj, 521 f32 tensors):
  // "params backend buffer size =  2537.81 MB" (clip.cpp prints MiB). Qwen2-VL-2B has the 7B's tower
  // and a merger into 1536: 631,183,360 + 34,087,936 = 665,271,296 parameters x 4 B = 2,661,085,184 B.
  const std::int64_t bytes = local_mmproj_bytes(kQwen2VlTower + qwen2_vl_merger(1536), LocalMmprojType::f32);
  CHECK(bytes == 2'661'085'184);
  CHECK(mib(bytes) == doctest::Approx(2537.81).epsilon(0.005 / 2537.81));
  CHECK(local_mmproj_bytes(1000, LocalMmprojType::bf16) == 2000);
  CHECK(local_mmproj_bytes(33, LocalMmprojType::q8_0) == 68);  // two blocks of 32
  CHECK(local_mmproj_bytes(1000, LocalMmprojType::off) == 0);
}

TEST_CASE("local: the mmproj file counts against the first GPU when fitting layers") {
  const LocalModel model = local_model_from_config(olmocr_7b(), WeightFormat::gguf_q8_0);
  LocalRequest request = one_gpu("rtx-4060-ti-8gb");
  request.context = 16384;
  // Before --fit (b7407): the most layers within the GPU's limit.
  request.llama_cpp_build = 7406;
  request.mmproj = LocalMmprojType::off;
  const LocalEstimate without = estimate_local(model, request);
  request.mmproj = LocalMmprojType::f16;
  const LocalEstimate with = estimate_local(model, request);
  const LocalDeviceUse& gpu = device(with.placement, "CUDA0");
  CHECK(gpu.fits());
  CHECK(with.placement.n_gpu_layers < without.placement.n_gpu_layers);
  // One layer more would not fit beside the 1288.91 MiB file.
  const LocalPlacement one_more = place_local(model, request, with.placement.n_gpu_layers + 1);
  CHECK_FALSE(device(one_more, "CUDA0").fits());
  // --fit counts the file too: fewer layers with it, and one more would leave less than its 1024 MiB target.
  request.llama_cpp_build.reset();
  const LocalEstimate fitted = estimate_local(model, request);
  request.mmproj = LocalMmprojType::off;
  CHECK(fitted.placement.fitted);
  CHECK(fitted.placement.n_gpu_layers < estimate_local(model, request).placement.n_gpu_layers);
  request.mmproj = LocalMmprojType::f16;
  const LocalPlacement one_layer_more = place_local(model, request, fitted.placement.n_gpu_layers + 1);
  const LocalDeviceUse& beyond = device(one_layer_more, "CUDA0");
  // The limit already keeps CUDA's 457 MiB free: the target is 1024 - 457 MiB below it.
  CHECK(beyond.total_bytes() > beyond.limit_bytes - ((std::int64_t{1024} - 457) << 20));
  SUBCASE("--fit before b9251 (ggml-org/llama.cpp#21489) leaves the mmproj out and the GPU short") {
    request.llama_cpp_build = 9250;
    const LocalEstimate old_fit = estimate_local(model, request);
    // --fit fills the GPU with the layers that leave its target free without the file; the 1288.91 MiB file loaded
    // after them leaves CUDA0 over its limit.
    const LocalDeviceUse& over = device(old_fit.placement, "CUDA0");
    REQUIRE(over.mmproj_buffer_bytes == 1'351'518'208);
    const std::int64_t target = (std::int64_t{1024} - 457) << 20;
    CHECK(old_fit.placement.fitted);
    CHECK(over.total_bytes() - over.mmproj_buffer_bytes <= over.limit_bytes - target);
    const LocalPlacement one_more_layer = place_local(model, request, old_fit.placement.n_gpu_layers + 1);
    const LocalDeviceUse& next = device(one_more_layer, "CUDA0");
    CHECK(next.total_bytes() - next.mmproj_buffer_bytes > next.limit_bytes - target);
    CHECK(old_fit.placement.n_gpu_layers > fitted.placement.n_gpu_layers);
    CHECK_FALSE(old_fit.placement.fits);
    CHECK(old_fit.verdict.runs_on == LocalRunsOn::does_not_fit);
    CHECK(old_fit.verdict.short_device == 0);
    CHECK(old_fit.verdict.shortfall_bytes == over.total_bytes() - over.limit_bytes);
    CHECK(std::any_of(old_fit.assumptions.begin(), old_fit.assumptions.end(), [](const std::string& line) {
      return line.find("builds before b9251 (ggml-org/llama.cpp#21489) fit the model's layers without the mmproj") !=
             std::string::npos;
    }));
    request.llama_cpp_build = 9251;
    CHECK(estimate_local(model, request).placement.fits);
  }
}

TEST_CASE("local: --mmproj is refused for a model without encoders, naming the option") {
  LocalRequest request = one_gpu("rtx-4090");
  request.mmproj = LocalMmprojType::f16;
  const LocalModel text_only = local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m);
  CHECK(text_only.encoder_parameters == 0);
  CHECK_THROWS_WITH_AS(estimate_local(text_only, request), doctest::Contains("no vision or audio encoder"),
                       OptionError);
  try {
    estimate_local(text_only, request);
  } catch (const OptionError& error) {
    CHECK(std::string(error.option()) == "mmproj");
  }
  request.mmproj.reset();
  CHECK(estimate_local(text_only, request).placement.mmproj == LocalMmprojType::off);
  CHECK_THROWS_WITH_AS(parse_local_options({{"ram_gib", "32"}, {"mmproj", "q4_0"}}), doctest::Contains("mmproj"),
                       OptionError);
  CHECK_THROWS_WITH_AS(parse_local_options({{"ram_gib", "32"}, {"mmproj_offload", "maybe"}}),
                       doctest::Contains("mmproj_offload"), OptionError);
}

TEST_CASE("local report: the mmproj object, its buffer per device, and its file in the command") {
  const std::string json =
      local_report_json(test::read_file(test::fixture_configs_dir() + "/allenai--olmOCR-7B-0225-preview.json"),
                        {{"gpu", "rtx-4090"}, {"ram_gib", "64"}, {"weights", "q4_k_m"}}, "olmOCR-7B");
  CHECK(json.find(R"("mmproj":{"type":"f16","encoder_parameters":675759104,"device":"CUDA0","bytes":1351518208})") !=
        std::string::npos);
  CHECK(json.find(R"("mmproj_buffer_bytes":1351518208)") != std::string::npos);
  CHECK(json.find("--mmproj mmproj-olmOCR-7B-f16.gguf") != std::string::npos);
}

TEST_CASE("local: Ollama's server environment for flash attention, the KV type and the slots") {
  const LocalModel model = local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m);
  LocalRequest request = one_gpu("rtx-4090");
  request.context = 16384;
  const LocalEstimate plain = estimate_local(model, request);
  CHECK(plain.ollama_environment == std::vector<std::string>{"OLLAMA_FLASH_ATTENTION=1", "OLLAMA_NUM_PARALLEL=1"});
  request.kv_type = LocalKvType::q8_0;
  request.parallel = 4;
  const LocalEstimate slots = estimate_local(model, request);
  CHECK(slots.ollama_environment ==
        std::vector<std::string>{"OLLAMA_FLASH_ATTENTION=1", "OLLAMA_KV_CACHE_TYPE=q8_0", "OLLAMA_NUM_PARALLEL=4"});
  CHECK(slots.ollama_num_ctx == 4096);  // per slot: 16384 / 4
  // Settings Ollama has no equivalent for are named.
  request.n_cpu_moe = 2;
  request.kv_offload = false;
  bool named = false;
  for (const std::string& line : estimate_local(model, request).assumptions)
    named = named || line.find("Ollama has no setting for --n-cpu-moe, -nkvo") == 0;
  CHECK(named);
}

namespace {

LocalModel fixture_local_model(const char* file, WeightFormat format = WeightFormat::gguf_q4_k_m) {
  return local_model_from_config(
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/" + std::string(file))), format);
}

TEST_CASE("local: --fit keeps every routed expert in RAM when a MoE model's dense weights do not fit with them there") {
  // Qwen3-235B-A22B Q4_K_M on an 8 GB RTX 3070 at a 65,536-token context: the 94 layers' attention, norms and
  // KV cache do not fit beside each other, so --fit (step 3) puts every routed expert in RAM and fills the GPU
  // with the last layers' dense tensors.
  const LocalModel model = fixture_local_model("Qwen--Qwen3-235B-A22B.json");
  LocalRequest r = one_gpu("rtx-3070");
  r.ram_bytes = std::int64_t{192} << 30;
  r.context = 65536;
  const LocalEstimate e = estimate_local(model, r);
  CHECK(e.placement.fitted);
  CHECK(e.placement.n_cpu_moe == 94);
  CHECK(e.placement.n_gpu_layers > 0);
  CHECK(e.placement.n_gpu_layers < 94);
  CHECK(e.llama_cpp_command.find(" --n-cpu-moe 94 ") != std::string::npos);
  CHECK(test::mentions(e.assumptions, "every routed expert in RAM (its dense weights do not fit with them there)"));
  // It leaves the GPU the target (1024 MiB, of which the limit keeps CUDA's 457), and one more layer would not.
  constexpr std::int64_t kBelowLimit = (std::int64_t{1024} - 457) << 20;
  const LocalDeviceUse& gpu = e.placement.devices[0];
  CHECK(gpu.total_bytes() <= gpu.limit_bytes - kBelowLimit);
  LocalRequest experts_in_ram = r;
  experts_in_ram.n_cpu_moe = 94;
  const LocalDeviceUse more = place_local(model, experts_in_ram, e.placement.n_gpu_layers + 1).devices[0];
  CHECK(more.total_bytes() > more.limit_bytes - kBelowLimit);
}

std::int64_t recurrent_layers(const LocalModel& model) {
  std::int64_t n = 0;
  for (const LocalLayer& layer : model.layers) n += layer.recurrent_conv_values + layer.recurrent_state_values > 0;
  return n;
}

}  // namespace

TEST_CASE("local: a recurrent layer's state per cell, by hand, as llama.cpp's n_embd_r and n_embd_s") {
  // Qwen3-Next-80B-A3B: 48 layers, every 4th full attention; the Gated DeltaNet's conv runs over
  // 2 x 16 key heads x 128 + 32 value heads x 128 = 8192 channels with a kernel of 4, and its state
  // is 32 heads x 128 x 128. r = 3 x 8192 = 24,576; s = 128 x 4096 = 524,288.
  const LocalModel next = fixture_local_model("Qwen--Qwen3-Next-80B-A3B-Instruct.json");
  CHECK(recurrent_layers(next) == 36);
  CHECK(next.layers[0].recurrent_conv_values == 24'576);
  CHECK(next.layers[0].recurrent_state_values == 524'288);
  CHECK(next.layers[3].recurrent_conv_values == 0);  // layer 4 attends: a KV cache, no state
  CHECK(next.layers[3].kv_key_width == 512);         // 2 KV heads x 256
  // Mamba-1 (state-spaces/mamba-2.8b-hf): d_inner 5120, d_state 16, d_conv 4, no groups:
  // r = 3 x 5120 = 15,360; s = 16 x 5120 = 81,920; no layer attends.
  const LocalModel mamba = fixture_local_model("state-spaces--mamba-2.8b-hf.json");
  CHECK(recurrent_layers(mamba) == 64);
  CHECK(mamba.layers[10].recurrent_conv_values == 15'360);
  CHECK(mamba.layers[10].recurrent_state_values == 81'920);
  CHECK(mamba.layers[10].kv_key_width == 0);
  // Mamba-2 (Mamba-Codestral-7B): 128 heads x 64 = 8192 inner, 8 groups of state 128, d_conv 4:
  // r = 3 x (8192 + 2 x 8 x 128) = 30,720; s = 128 x 8192 = 1,048,576.
  const LocalModel codestral = fixture_local_model("mistralai--Mamba-Codestral-7B-v0.1.json");
  CHECK(codestral.layers[0].recurrent_conv_values == 30'720);
  CHECK(codestral.layers[0].recurrent_state_values == 1'048'576);
  // LFM2-8B-A1B's gated short convolution: n_embd x (L_cache - 1) = 2048 x 2 = 4,096, no state;
  // 18 of its 24 layers convolve, 6 attend.
  const LocalModel lfm2 = fixture_local_model("LiquidAI--LFM2-8B-A1B.json");
  CHECK(recurrent_layers(lfm2) == 18);
  CHECK(lfm2.layers[0].recurrent_conv_values == 4'096);
  CHECK(lfm2.layers[0].recurrent_state_values == 0);
  // A transformer has none.
  CHECK(recurrent_layers(local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m)) == 0);
}

TEST_CASE("local: the RS buffer, one f32 row per slot, on each recurrent layer's device") {
  const LocalModel next = fixture_local_model("Qwen--Qwen3-Next-80B-A3B-Instruct.json");
  LocalRequest request = one_gpu("rtx-pro-6000");
  request.context = 32768;
  const LocalEstimate all = estimate_local(next, request);
  CHECK(all.placement.n_gpu_layers == 49);
  CHECK(all.placement.recurrent_cells == 1);
  // 36 x (24,576 + 524,288) x 4 B = 79,036,416 B = 75.38 MiB; it does not grow with the context.
  CHECK(device(all.placement, "CUDA0").recurrent_state_buffer_bytes == 79'036'416);
  CHECK(device(all.placement, "CPU").recurrent_state_buffer_bytes == 0);
  CHECK(device(all.placement, "CUDA0").total_bytes() ==
        device(all.placement, "CUDA0").model_buffer_bytes + device(all.placement, "CUDA0").kv_buffer_bytes +
            device(all.placement, "CUDA0").compute_buffer_bytes + 79'036'416);
  CHECK(all.llama_cpp_command.find(" -np 1 ") != std::string::npos);
  // Four slots, four rows; the command asks for them.
  request.parallel = 4;
  const LocalEstimate four = estimate_local(next, request);
  CHECK(four.placement.recurrent_cells == 4);
  CHECK(device(four.placement, "CUDA0").recurrent_state_buffer_bytes == 4 * std::int64_t{79'036'416});
  CHECK(four.llama_cpp_command.find(" -np 4 ") != std::string::npos);
  // -ngl 25: the last 24 layers on the GPU (18 recurrent), the first 24 (18 recurrent) on the CPU.
  request.parallel = 1;
  const LocalPlacement half = place_local(next, request, 25);
  CHECK(device(half, "CUDA0").recurrent_state_buffer_bytes == 18 * std::int64_t{548'864} * 4);
  CHECK(device(half, "CPU").recurrent_state_buffer_bytes == 18 * std::int64_t{548'864} * 4);
  // -nkvo keeps the state with the KV cache, on the CPU.
  request.kv_offload = false;
  CHECK(device(place_local(next, request, 49), "CPU").recurrent_state_buffer_bytes == 79'036'416);
  // A transformer's command leaves -np to the default.
  CHECK(estimate_local(local_model_from_config(llama3_8b(), WeightFormat::gguf_q4_k_m), one_gpu("rtx-4090"))
            .llama_cpp_command.find("-np") == std::string::npos);
}

TEST_CASE("local: a generated token moves each recurrent state four times (scan, then the copy into the cache)") {
  // Mamba-2.8B fully on the GPU: no KV cache, so the GPU's bytes for one token are its weights (its
  // model buffer: every layer and the output; the token embedding stays on the CPU) plus 4 x the state,
  // 64 x (15,360 + 81,920) x 4 B = 24,903,680 B.
  const LocalModel mamba = fixture_local_model("state-spaces--mamba-2.8b-hf.json");
  const LocalEstimate e = estimate_local(mamba, one_gpu("rtx-4090"));
  const LocalDeviceUse& gpu = device(e.placement, "CUDA0");
  CHECK(gpu.recurrent_state_buffer_bytes == 24'903'680);
  CHECK(gpu.kv_buffer_bytes == 0);
  CHECK(e.speed.generation_token_time[0].bytes ==
        doctest::Approx(static_cast<double>(gpu.model_buffer_bytes) + 4.0 * 24'903'680));
  // Its generation speed does not depend on the context: no cache grows.
  CHECK(e.speed.generation_tokens_per_second_empty == doctest::Approx(e.speed.generation_tokens_per_second_full));
}

TEST_CASE("local: mixers llama.cpp has no architecture for are refused, naming llama.cpp") {
  CHECK_THROWS_WITH_AS(fixture_local_model("google--recurrentgemma-2b.json"),
                       doctest::Contains("llama.cpp has no architecture for RecurrentGemma"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(fixture_local_model("MiniMaxAI--MiniMax-M1.json"), doctest::Contains("lightning attention"),
                       std::invalid_argument);
}

TEST_CASE("local report: the recurrent cells and each device's RS buffer") {
  const std::string json =
      local_report_json(test::read_file(test::fixture_configs_dir() + "/state-spaces--mamba-2.8b-hf.json"),
                        {{"gpu", "rtx-4090"}, {"ram_gib", "64"}, {"weights", "q4_k_m"}, {"parallel", "2"}}, "mamba");
  CHECK(json.find(R"("recurrent_cells":2)") != std::string::npos);
  CHECK(json.find(R"("recurrent_state_buffer_bytes":49807360)") != std::string::npos);  // 2 x 24,903,680
  CHECK(json.find(R"("recurrent_state_bytes":49807360)") != std::string::npos);         // every device's, together
}

TEST_CASE("the report says where each backend's speed factors come from") {
  // CUDA, Metal and the CPU were read off published llama-bench tables; ROCm and SYCL are estimates, and
  // so is Vulkan's prompt fraction, which the Vulkan and ROCm validation rows measured afterwards; Vulkan
  // generates at CUDA's factors (batched command buffers, as a CUDA graph).
  const auto assumptions = [](const std::string& flags) {
    const auto result = test::run_cli("local " + test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json " +
                                      flags + " --ram-gib 64 --json");
    REQUIRE(result.exit_status == 0);
    return result.out;
  };
  for (const char* read_off : {"--gpu rtx-3090", "--gpu m2-max", ""}) {
    CAPTURE(read_off);
    CHECK(assumptions(read_off).find("read off published llama-bench tables") != std::string::npos);
  }
  for (const char* backend : {"rocm", "sycl"}) {
    CAPTURE(backend);
    CHECK(assumptions(std::string("--gpu rx-7900-xtx --backend ") + backend)
              .find(std::string("speed: bandwidth and compute fractions for ") + backend +
                    " are estimates placed below CUDA's, not read off published tables") != std::string::npos);
  }
  const std::string vulkan = assumptions("--gpu rx-7900-xtx --backend vulkan");
  CHECK(vulkan.find("speed: generation at CUDA's bandwidth share and time per op (ggml-vulkan submits recorded "
                    "command buffers in batches") != std::string::npos);
  CHECK(vulkan.find("the prompt's compute fraction is an estimate placed below CUDA's") != std::string::npos);
}

TEST_CASE("local: Vulkan generates at CUDA's bandwidth share and time per op, by hand") {
  // ggml-vulkan submits recorded command buffers in batches, as a CUDA graph replays: a token reads the
  // toy's bytes at 0.88 of the bandwidth and pays 30 us / 19 per graph op, on any GPU. The toy on an RX
  // 7900 XTX (960 GB/s): 4 layers of 100 MiB and 18 ops each plus one attention op (flash attention), the
  // 20 MiB output layer with 3 ops, nothing on the CPU but the input rows; the hidden state crosses once.
  LocalModel model = toy_model();
  LocalRequest r = one_gpu("rx-7900-xtx");
  r.backend = LocalBackend::vulkan;
  r.context = 1024;
  r.n_gpu_layers = 5;
  r.flash_attention = true;
  r.prompt_len = 1;
  r.gen_len = 1;
  const LocalEstimate e = estimate_local(model, r);
  const LocalTokenTime& t = e.speed.generation_token_time.front();
  CHECK(t.bandwidth_fraction == 0.88);
  CHECK(t.seconds_per_op == doctest::Approx(30e-6 / 19));
  CHECK(t.graph_ops == 4 * 19 + 3);
  // Every layer's K and V (1024 wide each, f16) over the mean cache of the generated token: 1 + 1 / 2 cells.
  const double bytes = 4.0 * (100 << 20) + (20 << 20) + 1.5 * 4 * 2 * 1024 * 2;
  CHECK(t.bytes == doctest::Approx(bytes));
  CHECK(t.seconds == doctest::Approx(bytes / (960e9 * 0.88) + (4 * 19 + 3) * 30e-6 / 19 + kCrossingSecondsPerToken));
}

TEST_CASE("the GPUs llama.cpp runs on, with the backend it picks (the page's GPU picker)") {
  const std::string json = local_gpu_catalog_json();
  for (const char* entry :
       {R"({"id":"rtx-4090","name":"NVIDIA GeForce RTX 4090 24GB","vendor":"NVIDIA","backend":"cuda"})",
        R"("id":"m2-max",)",
        R"("id":"rx-7900-xtx","name":"AMD Radeon RX 7900 XTX 24GB","vendor":"AMD","backend":"rocm")",
        R"("id":"arc-b580","name":"Intel Arc B580 12GB","vendor":"Intel","backend":"sycl")"})
    CHECK_MESSAGE(json.find(entry) != std::string::npos, entry);
  CHECK(json.find(R"("id":"m2-max","name":"Apple M2 Max)") != std::string::npos);
  CHECK(json.find(R"("backend":"metal")") != std::string::npos);
  // No ggml backend runs on them: left out, as parse_local_options refuses them.
  for (const char* absent : {"tpu-v5e", "tpu-v6e", "gaudi2", "gaudi3"})
    CHECK_MESSAGE(json.find(std::string("\"") + absent + "\"") == std::string::npos, absent);
}

TEST_CASE("local: --depth, a prompt and generation after tokens already cached (llama-bench -d), by hand") {
  // The toy on an RTX 4090, flash attention on, 512-token prompt after 3000 cached tokens.
  const LocalModel model = toy_model();
  LocalRequest r = toy_offloaded("rtx-4090", LocalBackend::cuda);
  r.context = 4096;
  r.prompt_len = 512;
  r.gen_len = 128;
  r.depth = 3000;
  SUBCASE("flash attention: token i of the prompt attends 3000 + i keys") {
    // Per layer 512 x 3000 + 512^2 / 2 = 1,667,072 query/key pairs, 4 x 2048 FLOPs each, 4 layers.
    const double weights = rtx4090_toy_weights_seconds(512);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * 1667072.0);
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights + attention + 512 * kCrossingSecondsPerToken)));
    bool stated = false;
    for (const std::string& a : e.assumptions) stated = stated || a.starts_with("depth: 3000 tokens");
    CHECK(stated);
  }
  SUBCASE("generation runs after depth + prompt: the same as a prompt of depth + prompt tokens") {
    LocalRequest flat = r;
    flat.depth = 0;
    flat.prompt_len = 3512;
    CHECK(estimate_local(model, r).speed.generation_tokens_per_second ==
          doctest::Approx(estimate_local(model, flat).speed.generation_tokens_per_second).epsilon(1e-12));
    LocalRequest shallow = r;
    shallow.depth = 0;
    CHECK(estimate_local(model, r).speed.generation_tokens_per_second <
          estimate_local(model, shallow).speed.generation_tokens_per_second);
  }
  SUBCASE("a sliding window caps the keys: 1024 cells, so every query of the prompt attends 1024") {
    // Window 512 + ubatch 512 = 1024 cells (padded to 256 with flash attention) <= the depth: 512 x 1024 pairs.
    LocalModel windowed = model;
    for (auto& layer : windowed.layers) layer.sliding_window = 512;
    const double weights = rtx4090_toy_weights_seconds(512);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * 512.0 * 1024);
    CHECK(estimate_local(windowed, r).speed.prompt_tokens_per_second ==
          doctest::Approx(512 / (weights + attention + 512 * kCrossingSecondsPerToken)));
  }
  SUBCASE("without flash attention: each ubatch multiplies every cell up to its end, from the depth on") {
    r.flash_attention = false;
    r.prompt_len = 1024;
    // Two ubatches end at 3512 and 4024 cells: per head 512 x (3512 + 4024) = 3,858,432 scores.
    const double per_head = 512.0 * (3512 + 4024);
    const double weights = rtx4090_toy_weights_seconds(1024);
    const double attention = rtx4090_attention_seconds(4.0 * 2048 * 4 * per_head);
    const double scores = 20.0 * 16 * 4 * per_head / (1008e9 * 0.88);
    r.gen_len = 64;
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second ==
          doctest::Approx(1024 / (weights + attention + scores + 1024 * kCrossingSecondsPerToken)));
  }
}

TEST_CASE("local options: --depth takes room from the slot, and a depth that leaves none is refused") {
  const LocalOptions shrunk =
      parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"context", "4096"}, {"depth", "3584"}});
  CHECK(shrunk.request.depth == 3584);
  CHECK(shrunk.request.prompt_len == 256);  // the default 512 shrinks to half of the 512 left
  CHECK(shrunk.request.gen_len == 128);
  CHECK_THROWS_WITH_AS(
      parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"context", "4096"}, {"depth", "4096"}}),
      doctest::Contains("option 'depth': the cached depth, the prompt and the generated tokens (4096 + 0 + 1)"),
      OptionError);
  CHECK_THROWS_WITH_AS(parse_local_options({{"gpu", "rtx-4090"}, {"ram_gib", "32"}, {"depth", "-1"}}),
                       doctest::Contains("depth"), OptionError);
}

// What an op costs more when the host launches it than when a CUDA graph replays it: three published tg
// timings of Llama-2-7B with and without graphs (ggml-org/llama.cpp#6766: RTX 3090 Q4_0 116.31 / 128.27 t/s,
// RTX 4090 138.31 / 146.81; #6763: H100 PCIe Q4_K_M 143.35 / 163.83), each pair's per-token gap over the
// 707 ops of its graph (32 layers of 22 without flash attention, the output's 3), averaged.
static double ungraphed_increment_seconds_per_op() {
  return ((1 / 116.31 - 1 / 128.27) + (1 / 138.31 - 1 / 146.81) + (1 / 143.35 - 1 / 163.83)) / 707 / 3;
}

TEST_CASE("local: CUDA generation launches every op from the host before llama.cpp's CUDA graphs (b2822)") {
  // Llama-2-7B without flash attention, 707 ops a token (32 layers of 22, the output's 3). Without a graph
  // each op costs what a replayed one does plus the published pairs' mean increment.
  const double increment = ungraphed_increment_seconds_per_op();
  const ModelDescription llama2 =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/meta-llama--Llama-2-7b-chat-hf.json"));
  const LocalModel model = local_model_from_config(llama2, WeightFormat::gguf_q4_0);
  LocalRequest r = one_gpu("rtx-3090");
  r.context = 1024;
  r.flash_attention = false;
  r.llama_cpp_build = 2822;
  const LocalTokenTime graphed = estimate_local(model, r).speed.generation_token_time[0];
  REQUIRE(graphed.graph_ops == 707);
  r.llama_cpp_build = 2821;
  const LocalEstimate ungraphed = estimate_local(model, r);
  const LocalTokenTime& token = ungraphed.speed.generation_token_time[0];
  CHECK(token.graph_ops == 707);
  CHECK(token.seconds_per_op - graphed.seconds_per_op == doctest::Approx(increment).epsilon(1e-3));
  CHECK(token.seconds - graphed.seconds == doctest::Approx(707 * increment).epsilon(1e-3));
  bool stated = false;
  for (const std::string& a : ungraphed.assumptions) stated = stated || a.find("no CUDA graph") != std::string::npos;
  CHECK(stated);
  // Below compute capability 8.0 graphs stay off until b10042 (#25749): a Turing card.
  r.gpus = {*find_accelerator("rtx-2080-ti")};
  r.llama_cpp_build = 10041;
  const double turing_off = estimate_local(model, r).speed.generation_token_time[0].seconds_per_op;
  r.llama_cpp_build = 10042;
  const double turing_on = estimate_local(model, r).speed.generation_token_time[0].seconds_per_op;
  CHECK(turing_off - turing_on == doctest::Approx(increment).epsilon(1e-3));
  // Other backends keep their own time per op whatever the build.
  r.gpus = {*find_accelerator("rtx-3090")};
  r.backend = LocalBackend::vulkan;
  r.llama_cpp_build = 2000;
  const double vulkan_old = estimate_local(model, r).speed.generation_token_time[0].seconds_per_op;
  r.llama_cpp_build.reset();
  CHECK(estimate_local(model, r).speed.generation_token_time[0].seconds_per_op == vulkan_old);
}

TEST_CASE("local: CUDA's MUL_MAT_ID copies the expert ids to the host before b5170 (one token) and b5237 (a batch)") {
  const ModelDescription qwen =
      parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-30B-A3B.json"));
  const LocalModel model = local_model_from_config(qwen, WeightFormat::gguf_q4_0);
  REQUIRE(model.layers.size() == 48);
  CHECK(model.layers[0].expert_matrices == 3);  // ffn_gate_exps, ffn_up_exps, ffn_down_exps
  LocalRequest r = one_gpu("rtx-pro-6000-blackwell");
  r.context = 1024;
  r.n_gpu_layers = 49;
  r.llama_cpp_build = 5170;
  const LocalTokenTime device = estimate_local(model, r).speed.generation_token_time[0];
  r.llama_cpp_build = 5169;
  const LocalEstimate host = estimate_local(model, r);
  const LocalTokenTime& token = host.speed.generation_token_time[0];
  // Each of the 144 MUL_MAT_IDs becomes the ids' copy and synchronization (2 launches' time) and a quantize
  // and a mat-vec for each of the 8 experts used: 1 op becomes 18, with no CUDA graph.
  CHECK(token.graph_ops - device.graph_ops == 48 * 3 * 17);
  CHECK(token.seconds_per_op > device.seconds_per_op);
  // A batch: from b5237 MMQ multiplies the routed experts in whole tiles; before it each expert with tokens
  // is multiplied alone after a memset and a gather, and scattered back: at least 5 launches an expert.
  const auto has = [](const LocalEstimate& e, const char* text) {
    for (const std::string& a : e.assumptions)
      if (a.find(text) != std::string::npos) return true;
    return false;
  };
  r.llama_cpp_build = 5237;
  const LocalEstimate tiled = estimate_local(model, r);
  CHECK(has(tiled, "whole 128-token tiles"));
  CHECK_FALSE(has(tiled, "copies the expert ids"));
  r.llama_cpp_build = 5236;
  const LocalEstimate looped = estimate_local(model, r);
  CHECK_FALSE(has(looped, "whole 128-token tiles"));
  CHECK(has(looped, "prompt: each MUL_MAT_ID copies the expert ids"));
  // 512 tokens, 8 of 128 experts each: all 128 experts get tokens (1 - (120/128)^512 rounds to 1), so one
  // ubatch launches 144 x (2 + 128 x 5) kernels at the ungraphed time per op, at least.
  // A launch costs the replayed op's time (30 us over a 19-op layer, read off RTX PRO 6000 rows) plus the
  // published graph on/off pairs' mean increment.
  const double per_launch = 30e-6 / 19 + ungraphed_increment_seconds_per_op();
  CHECK(token.seconds_per_op == doctest::Approx(per_launch).epsilon(1e-6));
  const double loop_seconds = 144 * (2 + 128.0 * 5) * per_launch;
  CHECK(looped.speed.prompt_tokens_per_second <= 512 / loop_seconds);
  CHECK(looped.speed.prompt_tokens_per_second < tiled.speed.prompt_tokens_per_second);
}

namespace {

// One layer holding a single Q8_0 matrix (rows x 3584 inputs, 34 bytes a block of 32), nothing else, every
// layer on a DGX Spark (48 SMs, 24 MiB of L2) with a 2048-token prompt in one ubatch, as its llama-bench runs.
LocalModel one_q8_0_matrix(std::int64_t rows, std::int64_t columns) {
  LocalModel m;
  LocalLayer layer;
  layer.dense_parameters = rows * columns;
  layer.dense_bytes = rows * columns / 32 * 34;
  layer.quantized_matrices.push_back({.rows = rows, .columns = columns, .copies = 1, .bytes = layer.dense_bytes});
  m.layers.push_back(layer);
  m.hidden_size = columns;
  m.num_heads = 28;
  m.head_dim = 128;
  return m;
}
LocalRequest dgx_spark_pp2048() {
  LocalRequest r = one_gpu("dgx-spark");
  r.ram_bytes = std::int64_t{128} << 30;
  r.n_gpu_layers = 99;
  r.prompt_len = 2048;
  r.ubatch = 2048;
  r.context = 2049;
  return r;
}

}  // namespace

TEST_CASE("local: MMQ reads every tile from memory where its stream-K working set exceeds the L2, by hand") {
  // The FFN up matrix of Qwen2.5-7B: 18944 x 3584 in Q8_0, 72,138,752 bytes; 148 row tiles of 128.
  const LocalModel model = one_q8_0_matrix(18944, 3584);
  LocalRequest r = dgx_spark_pp2048();
  r.llama_cpp_build = 7941;  // ggml-org's DGX Spark benches; stream-K for every multiply before b8931
  // MMQ's compute: 2 x 67,895,296 x 2048 at 0.26 of GB10's int8 rate, 2048 x 48 SMs x 2.418 GHz.
  const double compute = 2.0 * 18944 * 3584 * 2048 / (2048 * 48 * 2.418e9 * 0.26);
  // Stream-K: each of the 48 SMs holds its own 487,424-byte row tile (48 x 487,424 = 23,396,352 B) while all
  // read the q8_1 activations, 2048 x 3584 x 1.125 = 8,257,536 B: 31,653,888 B, over the 25,165,824 of L2. So
  // the weights are read once for each of the 16 column tiles of 128 tokens, the activations once for each of
  // the 148 row tiles: 1,154,220,032 + 1,222,115,328 = 2,376,335,360 bytes at 0.88 of 273 GB/s.
  const double traffic = 2376335360.0 / (273e9 * 0.88);
  REQUIRE(traffic > compute);
  const LocalEstimate stream_k = estimate_local(model, r);
  CHECK(stream_k.speed.prompt_tokens_per_second == doctest::Approx(2048 / traffic));
  CHECK(std::any_of(stream_k.assumptions.begin(), stream_k.assumptions.end(), [](const std::string& a) {
    return a.find("MMQ reads every weight and activation tile from memory") != std::string::npos &&
           a.find("before b8931") != std::string::npos;
  }));
  SUBCASE("from b8931 a multiply filling 90% of its last wave runs one block per tile: compute-bound") {
    // 148 x 16 = 2368 tiles over 48 SMs: 50 waves, 98.7% full.
    r.llama_cpp_build = 8931;
    const LocalEstimate tiled = estimate_local(model, r);
    CHECK(tiled.speed.prompt_tokens_per_second == doctest::Approx(2048 / compute));
    CHECK(std::none_of(tiled.assumptions.begin(), tiled.assumptions.end(),
                       [](const std::string& a) { return a.find("MMQ reads every") != std::string::npos; }));
    r.llama_cpp_build.reset();  // a current build
    CHECK(estimate_local(model, r).speed.prompt_tokens_per_second == doctest::Approx(2048 / compute));
  }
  SUBCASE("a matrix whose working set fits the L2 is read once") {
    // Q of the same model: 3584 x 3584, 28 row tiles, fewer than the SMs: the whole 13,647,872-byte matrix
    // and the 8,257,536 bytes of activations, 21,905,408 B, fit in 24 MiB.
    const LocalModel q = one_q8_0_matrix(3584, 3584);
    const double q_compute = 2.0 * 3584 * 3584 * 2048 / (2048 * 48 * 2.418e9 * 0.26);
    CHECK(estimate_local(q, r).speed.prompt_tokens_per_second == doctest::Approx(2048 / q_compute));
  }
  SUBCASE("each multiply takes the longer of its compute and its traffic, one after another") {
    // The FFN up matrix (traffic-bound) and Q (3584 x 3584, in L2, compute-bound) in one layer: the up
    // matrix's traffic plus Q's compute, not the longer of the two totals.
    LocalModel both = one_q8_0_matrix(18944, 3584);
    const LocalModel q = one_q8_0_matrix(3584, 3584);
    LocalLayer& layer = both.layers[0];
    layer.dense_parameters += q.layers[0].dense_parameters;
    layer.dense_bytes += q.layers[0].dense_bytes;
    layer.quantized_matrices.push_back(q.layers[0].quantized_matrices[0]);
    const double q_compute = 2.0 * 3584 * 3584 * 2048 / (2048 * 48 * 2.418e9 * 0.26);
    CHECK(estimate_local(both, r).speed.prompt_tokens_per_second == doctest::Approx(2048 / (traffic + q_compute)));
  }
  SUBCASE("a GPU without SM and L2 figures is not bound by it, and the report says so") {
    r.gpus = {*find_accelerator("rtx-5070")};
    const LocalEstimate unknown = estimate_local(model, r);
    CHECK(std::any_of(unknown.assumptions.begin(), unknown.assumptions.end(), [](const std::string& a) {
      return a.find("MMQ's tile traffic not checked on NVIDIA GeForce RTX 5070") != std::string::npos;
    }));
    // A model without quantized matrices has no tile traffic to check.
    const LocalEstimate floats = estimate_local(toy_model(), one_gpu("rtx-5070"));
    CHECK(std::none_of(floats.assumptions.begin(), floats.assumptions.end(),
                       [](const std::string& a) { return a.find("tile traffic") != std::string::npos; }));
  }
  SUBCASE("a GPU whose L2 holds the working set (RTX PRO 6000: 188 SMs, 128 MiB) is not bound by it") {
    r.gpus = {*find_accelerator("rtx-pro-6000-blackwell")};
    const LocalEstimate pro = estimate_local(model, r);
    CHECK(std::none_of(pro.assumptions.begin(), pro.assumptions.end(),
                       [](const std::string& a) { return a.find("MMQ reads every") != std::string::npos; }));
  }
}

TEST_CASE("local: routed experts' MMQ traffic, in one launch over every expert or one launch per expert") {
  // Qwen3-30B-A3B's gate experts: 128 copies of 768 x 2048 in Q8_0 (213,909,504 bytes), 8 a token, one layer,
  // a 2048-token ubatch on the DGX Spark.
  LocalModel model;
  LocalLayer layer;
  layer.expert_parameters = std::int64_t{128} * 768 * 2048;
  layer.expert_bytes = layer.expert_parameters / 32 * 34;
  layer.expert_matrices = 1;
  layer.quantized_matrices.push_back(
      {.rows = 768, .columns = 2048, .copies = 128, .bytes = layer.expert_bytes, .routed_experts = true});
  model.layers.push_back(layer);
  model.hidden_size = 2048;
  model.num_heads = 32;
  model.head_dim = 128;
  model.num_experts = 128;
  model.experts_per_token = 8;
  LocalRequest r = dgx_spark_pp2048();
  const auto bound = [&](std::int64_t build) {
    r.llama_cpp_build = build;
    const LocalEstimate e = estimate_local(model, r);
    return std::any_of(e.assumptions.begin(), e.assumptions.end(),
                       [](const std::string& a) { return a.find("MMQ reads every") != std::string::npos; });
  };
  // b7941, MMQ with the expert ids: 48 SMs on 48 of the 768 row tiles (278,528 B each: 13,369,344 B) while all
  // read the 2048 x 8 gathered tokens' activations (37,748,736 B): 51 MB, over the 24 MiB L2.
  CHECK(bound(7941));
  // b5236, the MUL_MAT_ID host loop: each expert is its own multiply of its 128 tokens on average, 6 row tiles
  // (1,671,168 B) and 294,912 B of activations: in L2.
  CHECK_FALSE(bound(5236));
}

TEST_CASE("local: the quantized matrices MMQ tiles, from config.json shapes and from a GGUF header") {
  SUBCASE("Qwen2.5-7B in Q8_0: Q, K, V, O, gate, up and down in every layer, and its own head") {
    const LocalModel model = local_model_from_config(
        parse_hf_config(test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen2.5-7B-Instruct.json")),
        WeightFormat::gguf_q8_0);
    const std::vector<LocalMatrix>& m = model.layers[0].quantized_matrices;
    REQUIRE(m.size() == 7);
    std::int64_t bytes = 0;
    for (const LocalMatrix& matrix : m) {
      CHECK(matrix.copies == 1);
      CHECK_FALSE(matrix.routed_experts);
      bytes += matrix.bytes;
    }
    // 3584 x (3584 + 512 + 512 + 3584) + 3 x 3584 x 18944 = 233,046,016 weights, 34 bytes each 32.
    CHECK(bytes == std::int64_t{233046016} / 32 * 34);
    CHECK(std::any_of(m.begin(), m.end(), [](const LocalMatrix& x) { return x.rows == 18944 && x.columns == 3584; }));
    CHECK(std::any_of(m.begin(), m.end(), [](const LocalMatrix& x) { return x.rows == 3584 && x.columns == 18944; }));
    REQUIRE(model.output_quantized_matrices.size() == 1);
    CHECK(model.output_quantized_matrices[0].rows == 152064);
    CHECK(model.output_quantized_matrices[0].columns == 3584);
  }
  SUBCASE("Qwen3-30B-A3B: the routed experts as one matrix of 128 copies") {
    const LocalModel model = qwen3_30b_a3b_q8_0();
    const std::vector<LocalMatrix>& m = model.layers[0].quantized_matrices;
    const auto experts = std::count_if(m.begin(), m.end(), [](const LocalMatrix& x) { return x.routed_experts; });
    CHECK(experts == 3);
    for (const LocalMatrix& x : m)
      if (x.routed_experts) CHECK(x.copies == 128);
  }
  SUBCASE("a float model has none") {
    const LocalModel model = local_model_from_config(llama3_8b(), WeightFormat::fp16);
    CHECK(model.layers[0].quantized_matrices.empty());
    CHECK(model.output_quantized_matrices.empty());
  }
  SUBCASE("GGUF: ne[0] is the row length, ne[2] the experts; F32 tensors are not MMQ's") {
    CheckpointSummary s = one_layer_moe_gguf();
    for (CheckpointTensor& t : s.tensors)
      if (t.name == "blk.0.ffn_up_exps.weight" || t.name == "output.weight") {
        t.type = "Q8_0";
        t.bytes = 42;
      }
    const LocalModel model = local_model_from_gguf(s);
    REQUIRE(model.layers[0].quantized_matrices.size() == 1);
    const LocalMatrix& up = model.layers[0].quantized_matrices[0];
    CHECK(up.rows == 64);
    CHECK(up.columns == 256);
    CHECK(up.copies == 8);
    CHECK(up.routed_experts);
    CHECK(up.bytes == 42);
    REQUIRE(model.output_quantized_matrices.size() == 1);
    CHECK(model.output_quantized_matrices[0].rows == 1000);
  }
}

TEST_CASE("local verdict: where the toy runs, what a token waits on, and the device short of memory") {
  const LocalModel model = toy_model();  // 4 layers of 100 MiB, a 20 MiB output layer
  LocalRequest r = one_gpu("rtx-4090");
  r.context = 256;
  SUBCASE("every layer and the output on the GPU") {
    r.n_gpu_layers = 5;
    const LocalVerdict v = estimate_local(model, r).verdict;
    CHECK(v.runs_on == LocalRunsOn::gpus);
    CHECK(v.layers_on_gpus == 4);
    CHECK(v.layers_in_ram == 0);
    CHECK_FALSE(v.output_in_ram);
    CHECK(v.generation_bound_device == 0);
    CHECK(v.short_device == -1);
    CHECK(v.shortfall_bytes == 0);
  }
  SUBCASE("-ngl 3: layers 1-3 on the GPU; layer 0 and the output in RAM, which a token waits on most") {
    r.n_gpu_layers = 3;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.verdict.runs_on == LocalRunsOn::gpus_and_ram);
    CHECK(e.verdict.layers_on_gpus == 3);
    CHECK(e.verdict.layers_in_ram == 1);
    CHECK(e.verdict.output_in_ram);
    // The CPU reads 120 MiB a token from dual-channel DDR5 (89.6 GB/s), the 4090 300 MiB at 1008 GB/s:
    // about 1.4 ms against 0.35 ms, so the CPU (device 1) holds most of the token.
    CHECK(e.verdict.generation_bound_device == 1);
    CHECK(e.verdict.generation_bound_share > 0.7);
    CHECK(e.verdict.generation_bound_share == doctest::Approx(e.speed.generation_time_share[1]));
  }
  SUBCASE("-ngl 0: every layer in RAM") {
    r.n_gpu_layers = 0;
    const LocalVerdict v = estimate_local(model, r).verdict;
    CHECK(v.runs_on == LocalRunsOn::cpu);
    CHECK(v.layers_on_gpus == 0);
    CHECK(v.layers_in_ram == 4);
  }
  SUBCASE("the routed experts of two layers in RAM, every layer on the GPU") {
    LocalModel moe = model;
    make_toy_experts(moe, 8, 2);
    r.n_gpu_layers = 5;
    r.n_cpu_moe = 2;
    const LocalVerdict v = estimate_local(moe, r).verdict;
    CHECK(v.runs_on == LocalRunsOn::gpus_and_ram);
    CHECK(v.layers_in_ram == 0);
    CHECK(v.expert_layers_in_ram == 2);
  }
  SUBCASE("RAM short: 64 MiB of RAM for the toy's 10 MiB embedding and 400 MiB of layers on the CPU") {
    r.n_gpu_layers = 0;
    r.ram_bytes = std::int64_t{64} << 20;
    const LocalEstimate e = estimate_local(model, r);
    CHECK(e.verdict.runs_on == LocalRunsOn::does_not_fit);
    CHECK(e.verdict.short_device == 1);
    const LocalDeviceUse& cpu = e.placement.devices[1];
    CHECK(cpu.model_buffer_bytes == (10 << 20) + (400 << 20) + (20 << 20));
    CHECK(e.verdict.shortfall_bytes == cpu.total_bytes() - (std::int64_t{64} << 20));
  }
}

TEST_CASE("local formats: each common GGUF type placed as llama.cpp fits it on the same machine") {
  const ModelDescription llama = llama3_8b();
  LocalRequest r = one_gpu("rtx-4090");
  r.ram_bytes = std::int64_t{64} << 30;
  r.context = 8192;
  r.n_gpu_layers = 3;  // dropped: every type is placed as --fit places it
  const std::vector<LocalFormatRow> rows = compare_local_formats(llama, r);
  std::vector<std::string> ids;
  for (const LocalFormatRow& row : rows) ids.push_back(weight_format_info(row.format).id);
  CHECK(ids == std::vector<std::string>{"fp16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "iq4_xs", "q3_k_m", "q2_k"});
  // No type chosen, no row marked; the request's own type marks its row alone.
  CHECK(std::none_of(rows.begin(), rows.end(), [](const LocalFormatRow& row) { return row.chosen; }));
  const std::vector<LocalFormatRow> marked = compare_local_formats(llama, r, WeightFormat::gguf_iq4_xs);
  for (std::size_t i = 0; i < marked.size(); ++i) CHECK(marked[i].chosen == (i == 5));
  // Q8_0: 8,029,995,008 matrix parameters in 34-byte blocks of 32, and 266,240 norm weights in f32 (32 layers x 2
  // x 4096 + 4096): 8,531,869,696 + 1,064,960 B, the 532.31 MiB CPU and 7,605.33 MiB CUDA0 buffers of llama.cpp's
  // load log for Meta-Llama-3-8B Q8_0 together.
  CHECK(rows[1].model_buffer_bytes == 8'532'934'656);
  for (const LocalFormatRow& row : rows) {
    CHECK(row.estimate.placement.n_gpu_layers == 33);  // each fits wholly on the 4090 at n_ctx 8192
    CHECK(row.estimate.verdict.runs_on == LocalRunsOn::gpus);
  }
  // A row is the report of its type: the same placement and speeds as estimate_local with those weights.
  LocalRequest fitted = r;
  fitted.n_gpu_layers.reset();
  const LocalEstimate q4 = estimate_local(local_model_from_config(llama, WeightFormat::gguf_q4_k_m), fitted);
  CHECK(rows[4].estimate.speed.generation_tokens_per_second == q4.speed.generation_tokens_per_second);
  // Smaller types read fewer bytes a token, so each generates faster than the one above it (iq4_xs after q4_k_m).
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CHECK(rows[i].model_buffer_bytes < rows[i - 1].model_buffer_bytes);
    CHECK(rows[i].estimate.speed.generation_tokens_per_second >
          rows[i - 1].estimate.speed.generation_tokens_per_second);
  }
  SUBCASE("a MoE model adds MXFP4_MOE; a model too large splits, f16 beyond the machine") {
    const ModelDescription gpt_oss =
        parse_hf_config(test::read_file(test::fixture_configs_dir() + "/openai--gpt-oss-120b.json"));
    r.ram_bytes = std::int64_t{96} << 30;
    const std::vector<LocalFormatRow> moe = compare_local_formats(gpt_oss, r);
    REQUIRE(moe.size() == 9);
    CHECK(moe.back().format == WeightFormat::gguf_mxfp4_moe);
    // 117 B parameters in f16 are about 218 GiB against 24 GiB of GPU and 96 GiB of RAM.
    CHECK(moe.front().estimate.verdict.runs_on == LocalRunsOn::does_not_fit);
    CHECK(moe.back().estimate.verdict.runs_on == LocalRunsOn::gpus_and_ram);
    CHECK(moe.back().estimate.placement.n_cpu_moe > 0);  // --fit keeps routed experts of some layers in RAM
  }
}

TEST_CASE(
    "fitcheck local --compare-formats: a table or JSON from a config.json (llama.cpp or MLX), refused for a GGUF") {
  const std::string config = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
  const auto text = test::run_cli("local " + config + " --gpu rtx-4090 --ram-gib 64 --compare-formats");
  REQUIRE(text.exit_status == 0);
  CHECK(text.out.rfind("weights       model GiB             -ngl runs", 0) == 0);
  CHECK(text.out.find("\nq8_0               7.95            33/33 gpus ") != std::string::npos);
  const auto json =
      test::run_cli("local " + config + " --gpu rtx-4090 --ram-gib 64 --weights q8_0 --compare-formats --json");
  REQUIRE(json.exit_status == 0);
  CHECK(json.out.find("{\"formats\":[{\"weights\":\"fp16\",") == 0);
  CHECK(json.out.find("{\"weights\":\"q8_0\",\"model_buffer_bytes\":8532934656,\"n_gpu_layers\":33,\"n_layers\":33,"
                      "\"n_cpu_moe\":0,\"fits\":true,\"runs_on\":\"gpus\",") != std::string::npos);
  // --weights q8_0 marks its row; without --weights the config's bf16 is none of the types compared.
  const auto llama_rows = nlohmann::json::parse(json.out)["formats"];
  CHECK(llama_rows[1]["chosen"] == true);
  CHECK(llama_rows[4]["chosen"] == false);
  CHECK(text.out.find("(chosen)") == std::string::npos);
  // MLX LM: mlx-community's conversions, the chosen one marked; each row is that conversion's own report.
  const auto mlx = test::run_cli("local " + config + " --gpu m4-max --engine mlx --weights 6bit --compare-formats");
  REQUIRE(mlx.exit_status == 0);
  CHECK(mlx.out.rfind("weights     weights GiB       peak GiB", 0) == 0);
  CHECK(mlx.out.find("\n6bit ") != std::string::npos);
  CHECK(mlx.out.find("  (chosen)\n3bit ") == std::string::npos);
  const std::size_t six = mlx.out.find("\n6bit ");
  REQUIRE(six != std::string::npos);
  CHECK(mlx.out.substr(six, mlx.out.find('\n', six + 1) - six).find("(chosen)") != std::string::npos);
  const auto mlx_json =
      test::run_cli("local " + config + " --gpu m4-max --engine mlx --weights 6bit --compare-formats --json");
  REQUIRE(mlx_json.exit_status == 0);
  const auto rows = nlohmann::json::parse(mlx_json.out)["formats"];
  std::vector<std::string> weights;
  for (const auto& row : rows) weights.push_back(row["weights"].get<std::string>());
  CHECK(weights == std::vector<std::string>{"bf16", "8bit", "6bit", "5bit", "4bit", "3bit"});
  CHECK(rows[2]["chosen"] == true);
  CHECK(rows[4]["chosen"] == false);
  const auto own =
      nlohmann::json::parse(test::run_cli("local " + config + " --gpu m4-max --engine mlx --weights 6bit --json").out);
  CHECK(rows[2]["peak_memory_bytes"] == own["peak_memory_bytes"]);
  CHECK(rows[2]["generation_tokens_per_second"] == own["generation_tokens_per_second"]);
  // 6 bits and a bf16 scale and bias per group of 64: 6.5 bits a quantized weight against bf16's 16 (8bit: 8.5); the
  // norms, kept in bf16, move the ratio by under 0.01%.
  const auto bf16_bytes = rows[0]["weight_bytes"].get<double>();
  CHECK(rows[2]["weight_bytes"].get<double>() / bf16_bytes == doctest::Approx(6.5 / 16).epsilon(1e-4));
  CHECK(rows[1]["weight_bytes"].get<double>() / bf16_bytes == doctest::Approx(8.5 / 16).epsilon(1e-4));
}
