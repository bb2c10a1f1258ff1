// SPDX-License-Identifier: MIT
// A hybrid model's cache as serving engines lay it out: vLLM V1's shared block pool with the attention
// block grown to the recurrent state's page, SGLang's state pool beside its KV pool. Expected values are
// worked by hand from the engines' source (cited in core/src/serving/serving_engine.cpp) and checked
// against the figures the engines print for Qwen3.5 (noted at each check), never the code's output.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/engine_profile.hpp"
#include "fitcheck/serving.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

std::string qwen3_5_08b() { return test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3.5-0.8B.json"); }

// Qwen3.5-9B's text model as Qwen3_5TextConfig's defaults build it (the 9B's: 32 layers, 4 KV heads of
// 256, Gated DeltaNet of 16 key and 32 value heads of 128, kernel 4, attention every 4th layer), with the
// checkpoint's mamba_ssm_dtype. Written out here, not a copy of the checkpoint's file.
std::string qwen3_5_9b_text() {
  return R"({"model_type":"qwen3_5_text","vocab_size":248320,"hidden_size":4096,"intermediate_size":12288,
    "num_hidden_layers":32,"num_attention_heads":16,"num_key_value_heads":4,"head_dim":256,
    "linear_num_key_heads":16,"linear_num_value_heads":32,"linear_key_head_dim":128,"linear_value_head_dim":128,
    "linear_conv_kernel_dim":4,"full_attention_interval":4,"attn_output_gate":true,"mamba_ssm_dtype":"float32",
    "tie_word_embeddings":false})";
}

struct Sized {
  KvCapacity capacity;
  SchedulerLimits limits;
};

// The engine's capacity on one H100 for a bf16 checkpoint, the profile's state rules applied.
Sized sized(EngineKind kind, const std::string& config) {
  const ModelDescription model = parse_hf_config(config);
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const Accelerator& h100 = *find_accelerator("h100-sxm-80gb");
  InferenceWorkload w;
  const EngineProfile profile = engine_profile(kind, h100, w.layout);
  apply_engine_state_rules(profile, model, w);
  Sized s;
  s.limits = scheduler_limits(profile);
  s.capacity = engine_kv_capacity(profile, profile.memory_fraction, model, tensors, w, h100, s.limits);
  apply_kv_capacity(s.capacity, s.limits);
  return s;
}

}  // namespace

TEST_CASE("vLLM hybrid cache: Qwen3.5-0.8B's attention block grows to 544 tokens, four groups share the pool") {
  // State page of one Gated DeltaNet layer (vLLM: conv window at the model's bf16, the SSM state at the
  // config's mamba_ssm_dtype float32): conv (16 x 128 + 2 x 16 x 128) x (4 - 1) x 2 B = 36,864; state
  // 16 heads x 128 x 128 x 4 B = 1,048,576; 1,085,440 B. Attention page of a token: 2 x 2 KV heads x 256
  // x 2 B = 2,048 B. Block: 16 x cdiv(1,085,440, 16 x 2,048) = 16 x 34 = 544 tokens, the figure LMCache's
  // Qwen3.5 recipe gives for this model from vLLM's "Setting attention block size" line.
  const Sized s = sized(EngineKind::vllm, qwen3_5_08b());
  const KvCapacity& c = s.capacity;
  CHECK(c.block_tokens == 544);
  // 6 attention and 18 Gated DeltaNet layers: groups of 6 (6 < 1.5 x 18 fails, so the smaller count),
  // 1 attention group and 3 state groups; 6 tensors of num_blocks pages of 544 x 2,048 = 1,114,112 B.
  CHECK(c.block_bytes == 6 * 1'114'112);
  CHECK(c.blocks_per_token_block == 1);
  CHECK(c.fixed_blocks_per_sequence == 3);
  CHECK(c.blocks == (c.budget_bytes - c.non_kv_bytes) / (6 * 1'114'112));
  // vLLM's log: num_blocks // 4 groups x 544.
  CHECK(c.tokens == c.blocks / 4 * 544);
  CHECK(s.limits.kv_block_tokens == 544);
  // A 2,000-token request: cdiv(2000, 544) = 4 attention blocks and 3 state blocks.
  CHECK(kv_blocks_for_sequence(s.limits, 2000) == 7);
  CHECK(kv_blocks_for_sequence(s.limits, 0) == 0);
  CHECK(c.rule.find("attention block 544 tokens") != std::string::npos);
}

TEST_CASE("vLLM and SGLang hybrid caches: Qwen3.5-9B's pages as the engines print them") {
  // One layer's state: conv (32 x 128 + 2 x 16 x 128) x 3 x 2 B = 49,152; state 32 x 128 x 128 x 4 B =
  // 2,097,152; 2,146,304 B, the cell a SGLang 0.5.13+ run of Qwen3.5-9B logs ("raw=2146304B",
  // ovg-project/kvcached#459). vLLM: attention page of a token 2 x 4 x 256 x 2 = 4,096 B, block 16 x
  // cdiv(2,146,304, 65,536) = 16 x 33 = 528 tokens, as vLLM 0.25.1 prints for this model.
  const Sized vllm = sized(EngineKind::vllm, qwen3_5_9b_text());
  CHECK(vllm.capacity.block_tokens == 528);
  CHECK(vllm.capacity.block_bytes == 8 * 528 * 4096);  // 8 attention and 24 state layers: groups of 8
  CHECK(vllm.capacity.fixed_blocks_per_sequence == 3);

  // SGLang: the state pool takes 0.9 / 1.9 of what mem_fraction_static leaves, in slots of 24 x
  // 2,146,304 = 51,511,296 B; the KV pool the rest, 8 layers x 4,096 = 32,768 B a token; at most a third of
  // the slots run at once.
  const Sized sglang = sized(EngineKind::sglang, qwen3_5_9b_text());
  const KvCapacity& c = sglang.capacity;
  const std::int64_t rest = c.budget_bytes - c.non_kv_bytes;
  const std::int64_t slots = static_cast<std::int64_t>(static_cast<double>(rest) * 0.9 / 1.9) / 51'511'296;
  CHECK(c.state_slots == slots);
  CHECK(c.state_bytes == slots * 51'511'296);
  CHECK(c.tokens == (rest - slots * 51'511'296) / 32'768);
  CHECK(c.blocks == c.tokens);
  CHECK(c.max_running_sequences == slots / 3);
  CHECK(sglang.limits.max_num_seqs == std::min<std::int64_t>(2048, slots / 3));
  CHECK(sglang.limits.kv_block_tokens == 1);
  CHECK(c.rule.find("SGLang hybrid pools") != std::string::npos);
}

TEST_CASE("SGLang keeps the SSM state in float32 unless the config names another dtype") {
  // Qwen3-Next names no mamba_ssm_dtype: SGLang's default float32 (mamba_utils.py mamba2_state_dtype),
  // where vLLM keeps the model's bf16. One layer: conv (32 x 128 + 2 x 16 x 128) x 3 x 2 B = 49,152 in
  // both; state 32 x 128 x 128 heads at 4 B (SGLang) or 2 B (vLLM).
  const std::string next = test::read_file(test::fixture_configs_dir() + "/Qwen--Qwen3-Next-80B-A3B-Instruct.json");
  const ModelDescription model = parse_hf_config(next);
  const Accelerator& h100 = *find_accelerator("h100-sxm-80gb");
  InferenceWorkload sglang_w, vllm_w;
  apply_engine_state_rules(engine_profile(EngineKind::sglang, h100, sglang_w.layout), model, sglang_w);
  apply_engine_state_rules(engine_profile(EngineKind::vllm, h100, vllm_w.layout), model, vllm_w);
  sglang_w.context_tokens = vllm_w.context_tokens = 1;
  const std::int64_t sglang_state = kv_cache(model, sglang_w).state_bytes_per_sequence;
  const std::int64_t vllm_state = kv_cache(model, vllm_w).state_bytes_per_sequence;
  CHECK(sglang_state == 36 * (49'152 + 32 * 128 * 128 * 4));
  CHECK(vllm_state == 36 * (49'152 + 32 * 128 * 128 * 2));
  // A config's bfloat16 is taken by both.
  std::string bf16 = qwen3_5_9b_text();
  const std::string float32 = "\"float32\"";
  bf16.replace(bf16.find(float32), float32.size(), "\"bfloat16\"");
  const ModelDescription bf16_model = parse_hf_config(bf16);
  InferenceWorkload w;
  apply_engine_state_rules(engine_profile(EngineKind::sglang, h100, w.layout), bf16_model, w);
  w.context_tokens = 1;
  CHECK(kv_cache(bf16_model, w).state_bytes_per_sequence == 24 * (49'152 + 32 * 128 * 128 * 2));
}

namespace {

// serve-sim of Qwen3.5-0.8B on one H100 with `engine`, prompts of 1,000 and outputs of 200 tokens.
nlohmann::json serve_sim_08b(const std::string& engine, int concurrency, const std::string& extra = "") {
  return test::cli_json("serve-sim " + test::fixture_configs_dir() +
                        "/Qwen--Qwen3.5-0.8B.json --gpu h100-sxm-80gb --engine " + engine +
                        " --prompt-len 1000 --gen-len 200 --concurrency " + std::to_string(concurrency) +
                        " --requests " + std::to_string(2 * concurrency) + " --json" + extra);
}

std::vector<std::string> assumptions(const nlohmann::json& report) {
  return report["assumptions"].get<std::vector<std::string>>();
}

}  // namespace

TEST_CASE("serve-sim on a hybrid model: the engine's layout in the simulation and the report") {
  const nlohmann::json v = serve_sim_08b("vllm", 32);
  CHECK(v["scheduler"]["kv_block_tokens"] == 544);
  const std::int64_t blocks = v["scheduler"]["kv_capacity_blocks"];
  CHECK(v["scheduler"]["kv_capacity_tokens"] == blocks / 4 * 544);
  // 32 requests of 1,200 tokens hold 32 x (3 + 3) blocks, far under the pool: nothing is evicted.
  CHECK(v["preemptions"] == 0);

  const nlohmann::json g = serve_sim_08b("sglang", 32);
  CHECK(g["scheduler"]["kv_block_tokens"] == 1);
  CHECK(test::mentions(assumptions(g), "SGLang hybrid pools"));

  // vLLM runs hybrid models without prefix caching (MambaModelConfig); SGLang's radix cache keeps the prefix.
  const nlohmann::json shared = serve_sim_08b("vllm", 32, " --shared-prefix 800");
  CHECK(test::mentions(assumptions(shared), "prefix caching: off"));
  CHECK(test::mentions(assumptions(serve_sim_08b("sglang", 32, " --shared-prefix 800")), "every prompt starts"));

  // An engine without a hybrid rule here keeps the upper bound and says so.
  CHECK(test::mentions(assumptions(serve_sim_08b("trtllm", 8)), "an upper bound"));
}
