// SPDX-License-Identifier: MIT
// Engine profiles: each engine's defaults as its source states them, the budget rules worked by
// hand, the fixed step costs, chunked prefill, the scheduler traits in the simulation, and the
// --engine option of infer and serve-sim.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "fitcheck/config.hpp"
#include "fitcheck/engine_profile.hpp"
#include "fitcheck/engine_step.hpp"
#include "fitcheck/inference.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/serving.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

using test::cli_json;

ServingLoad closed_loop(std::int64_t requests, std::int64_t concurrency, std::int64_t prompt, std::int64_t output) {
  ServingLoad load;
  load.requests = requests;
  load.concurrency = concurrency;
  load.prompt.tokens = prompt;
  load.output.tokens = output;
  return load;
}

}  // namespace

TEST_CASE("engine names and aliases") {
  CHECK(find_engine_kind("vllm") == EngineKind::vllm);
  CHECK(find_engine_kind("SGLang") == EngineKind::sglang);
  CHECK(find_engine_kind("tensorrt-llm") == EngineKind::trtllm);
  CHECK(find_engine_kind("llama.cpp") == EngineKind::llamacpp);
  CHECK(find_engine_kind("transformers") == EngineKind::hf);
  CHECK(find_engine_kind("vLLM-V0") == EngineKind::vllm_v0);
  CHECK(find_engine_kind("vllm_v0") == EngineKind::vllm_v0);
  CHECK_FALSE(find_engine_kind("tgi").has_value());
  for (EngineKind kind : kEngineKinds) CHECK(find_engine_kind(engine_kind_id(kind)) == kind);
}

TEST_CASE("an engine on an accelerator it does not run on is refused, naming both") {
  const ParallelLayout one{};
  const auto refusal = [&](EngineKind kind, const char* gpu) -> std::string {
    try {
      engine_profile(kind, *find_accelerator(gpu), one);
    } catch (const OptionError& error) {
      CHECK(error.option() == "engine");
      return error.what();
    }
    return "";
  };
  CHECK(refusal(EngineKind::trtllm, "mi300x") ==
        "option 'engine': TensorRT-LLM does not run on AMD Instinct MI300X 192GB; it runs on NVIDIA GPUs");
  CHECK(refusal(EngineKind::trtllm, "m2-max").find("TensorRT-LLM does not run on Apple M2 Max") != std::string::npos);
  CHECK(refusal(EngineKind::llamacpp, "tpu-v5e") ==
        "option 'engine': llama.cpp does not run on Google Cloud TPU v5e; it runs on NVIDIA, AMD, Intel Arc and "
        "Apple GPUs, and on the CPU");
  CHECK(refusal(EngineKind::llamacpp, "gaudi2").find("llama.cpp does not run on Intel Gaudi 2") != std::string::npos);
  // Where they run: accepted.
  for (const char* gpu : {"h100", "rtx-4090", "b200"}) CHECK(refusal(EngineKind::trtllm, gpu).empty());
  for (const char* gpu : {"mi300x", "m2-max", "arc-b580", "rtx-4090"})
    CHECK(refusal(EngineKind::llamacpp, gpu).empty());
  // vLLM, SGLang and transformers have ports to the other vendors' parts.
  for (EngineKind kind : {EngineKind::vllm, EngineKind::sglang, EngineKind::hf})
    for (const char* gpu : {"mi300x", "tpu-v5e", "gaudi2"}) CHECK(refusal(kind, gpu).empty());
  // The CLI names the option.
  const auto run =
      test::run_cli("infer " + test::fixture_configs_dir() +
                    "/meta-llama--Llama-3.1-8B.json --engine trtllm --gpu mi300x --prompt-len 64 --gen-len 8");
  CHECK(run.exit_status == 2);
  CHECK(run.err.find("TensorRT-LLM does not run on AMD Instinct MI300X") != std::string::npos);
}

TEST_CASE("profiles: each engine's defaults as its source gives them") {
  const Accelerator& h100 = *find_accelerator("h100");
  const Accelerator& a100 = *find_accelerator("a100");
  const ParallelLayout one{};
  SUBCASE("vLLM V1: API-server limits by GPU, 16-token blocks, graphs up to min(2 x seqs, 512)") {
    const EngineProfile h = engine_profile(EngineKind::vllm, h100, one);
    CHECK(h.max_num_seqs == 1024);
    CHECK(h.max_num_batched_tokens == 8192);
    CHECK(h.kv_block_tokens == 16);
    CHECK(h.cuda_graph_max_batch == 512);
    CHECK(h.memory_fraction == 0.9);
    CHECK(h.chunked_prefill);
    CHECK(h.request_overhead_seconds == 0);  // no published per-request figure
    CHECK_FALSE(h.reserve_estimated_output);
    const EngineProfile a = engine_profile(EngineKind::vllm, a100, one);
    CHECK(a.max_num_seqs == 256);
    CHECK(a.max_num_batched_tokens == 2048);
    CHECK(a.cuda_graph_max_batch == 512);  // min(2 x 256, 512, 2048)
  }
  SUBCASE("vLLM V0: 256 sequences, whole prompts in steps of their own, graphs up to 256") {
    const EngineProfile v0 = engine_profile(EngineKind::vllm_v0, h100, one);
    CHECK(v0.max_num_seqs == 256);          // EngineArgs.max_num_seqs
    CHECK(v0.cuda_graph_max_batch == 256);  // _BATCH_SIZES_TO_CAPTURE up to max_num_seqs
    CHECK_FALSE(v0.chunked_prefill);        // off for max_model_len up to 32K
    CHECK(v0.prefill_first);                // _schedule_default: prefills, else decodes
    CHECK(v0.kv_block_tokens == 16);
    CHECK(v0.memory_fraction == 0.9);
    CHECK(v0.step_overhead_seconds == 0.86e-3);
    CHECK(v0.kernel_seconds_per_layer == 72e-6);
    // SchedulerConfig: max_num_batched_tokens = max(max_model_len, 2048) without chunked prefill.
    CHECK(engine_token_budget(v0, 1000) == 2048);
    CHECK(engine_token_budget(v0, 20001) == 20001);
    // V1 keeps its fixed budget whatever the context, and no per-layer kernel time.
    const EngineProfile v1 = engine_profile(EngineKind::vllm, h100, one);
    CHECK(engine_token_budget(v1, 20001) == 8192);
    CHECK(v1.kernel_seconds_per_layer == 0);
  }
  SUBCASE("SGLang: mem_fraction_static from the reserve by GPU size, chunk by GPU size") {
    const double h100_gib = static_cast<double>(gpu_memory_limit_bytes(h100)) / kGiB;
    const EngineProfile s = engine_profile(EngineKind::sglang, h100, one);
    CHECK(s.memory_fraction == doctest::Approx((h100_gib - (9.5 + 0.5)) / h100_gib));  // < 90 GiB: 9.5 + tp pp / 2
    CHECK(s.max_num_batched_tokens == 8192);
    CHECK(s.kv_block_tokens == 1);
    CHECK(s.reserve_estimated_output);  // PrefillAdder: new_token_ratio x the running requests' output
    CHECK(s.prefill_first);             // get_next_batch_to_run: "Run prefill first if possible"
    CHECK_FALSE(engine_profile(EngineKind::vllm, h100, one).prefill_first);
    const ParallelLayout tp4{4, 1, 1, 1};
    CHECK(engine_profile(EngineKind::sglang, h100, tp4).memory_fraction ==
          doctest::Approx((h100_gib - (9.5 + 2.0)) / h100_gib));
    const Accelerator& b200 = *find_accelerator("b200");
    const double b200_gib = static_cast<double>(gpu_memory_limit_bytes(b200)) / kGiB;
    const EngineProfile b = engine_profile(EngineKind::sglang, b200, one);
    CHECK(b.max_num_batched_tokens == (b200_gib < 160 ? 8192 : 16384));
    const Accelerator& l4 = *find_accelerator("l4");  // 24 GB: below 35 GiB
    CHECK(engine_profile(EngineKind::sglang, l4, one).max_num_batched_tokens == 2048);
    CHECK(engine_profile(EngineKind::sglang, l4, one).cuda_graph_max_batch == 8);
  }
  SUBCASE("TensorRT-LLM: no chunked prefill, no eviction, 32-token blocks, 8192 tokens, 2048 sequences") {
    const EngineProfile t = engine_profile(EngineKind::trtllm, h100, one);
    CHECK_FALSE(t.chunked_prefill);
    CHECK(t.reserve_whole_request);
    CHECK(t.kv_block_tokens == 32);
    CHECK(t.max_num_batched_tokens == 8192);
    CHECK(t.max_num_seqs == 2048);
    CHECK(t.kv_budget == KvBudgetRule::share_of_free);
    CHECK(t.request_overhead_seconds == 4e-3);  // Triton ensemble estimate, docs/engines-serving.md 3.5
    CHECK(scheduler_limits(t).request_overhead_seconds == 4e-3);
    // The executor captures no CUDA graphs by default (ExtendedRuntimePerfKnobConfig cudaGraphMode false):
    // every step launches every layer.
    CHECK(t.cuda_graph_max_batch == 0);
    CHECK(t.launch_seconds_per_layer == 40e-6);
  }
  SUBCASE("llama.cpp and HF: no paging; HF without continuous batching or GQA-aware decode") {
    const EngineProfile l = engine_profile(EngineKind::llamacpp, h100, one);
    CHECK(l.kv_block_tokens == 0);
    CHECK(l.kv_budget == KvBudgetRule::whole_context_slots);
    CHECK(l.max_num_seqs == 1);
    const EngineProfile h = engine_profile(EngineKind::hf, h100, one);
    CHECK_FALSE(h.continuous_batching);
    CHECK_FALSE(h.gqa_shared_kv_reads);
    CHECK(h.cuda_graph_max_batch == 0);
    CHECK(h.kv_block_tokens == 0);
  }
  for (EngineKind kind : kEngineKinds) {
    CAPTURE(engine_kind_id(kind));
    CHECK_FALSE(engine_profile(kind, h100, one).rules.empty());  // every profile says where its rules come from
  }
}

TEST_CASE("kernel efficiencies by weight format and GPU") {
  const Accelerator& h100 = *find_accelerator("h100");
  const Accelerator& a100 = *find_accelerator("a100");
  const Accelerator& b200 = *find_accelerator("b200");
  const Accelerator& l40s = *find_accelerator("l40s");
  CHECK(kernel_efficiency(EngineKind::vllm, h100, WeightFormat::bf16).hbm == 0.8);
  CHECK(kernel_efficiency(EngineKind::vllm, a100, WeightFormat::gptq).hbm == 0.7);
  CHECK(kernel_efficiency(EngineKind::vllm, b200, WeightFormat::nvfp4).hbm == 0.8);
  CHECK(kernel_efficiency(EngineKind::vllm, h100, WeightFormat::mxfp4).hbm == 0.6);
  CHECK_FALSE(kernel_efficiency(EngineKind::trtllm, h100, WeightFormat::awq).source.empty());

  // 16-bit and fp8 products on a chip with a measured achievable matmul share (MAMF): 0.69 / 0.869
  // of it (TensorRT-LLM's A100 first token), fp8 products at the chip's fp8 / bf16 gap on top.
  // H100 SXM: MAMF bf16 0.803, fp8 0.709 (docs/hardware.md).
  const KernelEfficiency h = kernel_efficiency(EngineKind::vllm, h100, WeightFormat::fp8_e4m3_per_tensor);
  CHECK(h.flops == doctest::Approx(0.69 / 0.869 * 0.803).epsilon(1e-12));
  CHECK(h.flops == doctest::Approx(0.6376).epsilon(1e-4));
  CHECK(h.fp8_flops_share == doctest::Approx(0.709 / 0.803).epsilon(1e-12));
  CHECK(h.source.find("0.638 of the 16-bit peak") != std::string::npos);
  // A100 SXM: MAMF bf16 0.869 gives back the 0.69 the cross-check measured; no fp8 path.
  const KernelEfficiency a = kernel_efficiency(EngineKind::trtllm, a100, WeightFormat::fp16);
  CHECK(a.flops == doctest::Approx(0.69).epsilon(1e-12));
  CHECK(a.fp8_flops_share == 1.0);
  // No measured MAMF (L40S): the literature's 0.7 for inference.
  const KernelEfficiency l = kernel_efficiency(EngineKind::vllm, l40s, WeightFormat::fp8_e4m3_per_tensor);
  CHECK(l.flops == 0.7);
  CHECK(l.fp8_flops_share == 1.0);
  // Weight-only 4-bit and fp4 kernels keep their own estimates.
  CHECK(kernel_efficiency(EngineKind::vllm, h100, WeightFormat::awq).flops == 0.5);
  CHECK(kernel_efficiency(EngineKind::vllm, h100, WeightFormat::awq).fp8_flops_share == 1.0);
  CHECK(kernel_efficiency(EngineKind::trtllm, b200, WeightFormat::nvfp4).flops == 0.5);
  CHECK(kernel_efficiency(EngineKind::trtllm, b200, WeightFormat::nvfp4).fp8_flops_share == 1.0);
}

TEST_CASE("GEMM row tiles: 64-row tiles up to 128 rows, 128-row tiles above (vLLM SM90 FP8 dispatch)") {
  CHECK(gemm_tile_rows(0) == 0);
  CHECK(gemm_tile_rows(1) == 64);
  CHECK(gemm_tile_rows(64) == 64);
  CHECK(gemm_tile_rows(65) == 128);
  CHECK(gemm_tile_rows(128) == 128);
  CHECK(gemm_tile_rows(129) == 256);
  CHECK(gemm_tile_rows(200) == 256);
  CHECK(gemm_tile_rows(257) == 384);
  // Tensor-core tiles on Hopper and Blackwell; not weight-only 4-bit kernels, not older chips, not llama.cpp.
  CHECK(kernel_efficiency(EngineKind::trtllm, *find_accelerator("h100"), WeightFormat::fp8_e4m3_per_tensor)
            .gemm_row_tiles);
  CHECK(kernel_efficiency(EngineKind::vllm, *find_accelerator("h100"), WeightFormat::bf16).gemm_row_tiles);
  CHECK(kernel_efficiency(EngineKind::trtllm, *find_accelerator("b200"), WeightFormat::nvfp4).gemm_row_tiles);
  CHECK_FALSE(kernel_efficiency(EngineKind::vllm, *find_accelerator("h100"), WeightFormat::mxfp4).gemm_row_tiles);
  CHECK_FALSE(kernel_efficiency(EngineKind::vllm, *find_accelerator("h100"), WeightFormat::gptq).gemm_row_tiles);
  CHECK_FALSE(kernel_efficiency(EngineKind::vllm, *find_accelerator("a100"), WeightFormat::bf16).gemm_row_tiles);
  CHECK_FALSE(kernel_efficiency(EngineKind::llamacpp, *find_accelerator("h100"), WeightFormat::bf16).gemm_row_tiles);

  // A decode step of 200 sequences computes 256 rows in every weight product: Llama-3.1-8B's MLP is
  // 3 x 4096 x 14336 weights per layer, 32 layers, 2 FLOPs per weight and row.
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  InferenceWorkload w;
  w.batch_size = 200;
  const LatencyRequest lengths{100, 4};
  LatencyAssumptions plain = default_latency_assumptions(h100);
  LatencyAssumptions tiled = plain;
  tiled.gemm_row_tiles = true;
  const auto mlp = static_cast<std::size_t>(LatencyOp::mlp);
  const double mlp_weights = 3.0 * 4096 * 14336 * 32;
  CHECK(estimate_latency(prepared, w, h100, lengths, plain).decode_first.flops[mlp] ==
        doctest::Approx(2 * 200 * mlp_weights));
  CHECK(estimate_latency(prepared, w, h100, lengths, tiled).decode_first.flops[mlp] ==
        doctest::Approx(2 * 256 * mlp_weights));
  // The prefill of 200 x 100 = 20,000 rows pads to 20,096 (157 tiles of 128).
  CHECK(estimate_latency(prepared, w, h100, lengths, tiled).prefill.flops[mlp] ==
        doctest::Approx(2 * 20096 * mlp_weights));
}

TEST_CASE("fixed step costs: overhead every step, launches outside a CUDA graph") {
  LatencyAssumptions a;
  a.step_overhead_seconds = 1e-3;
  a.launch_seconds_per_layer = 40e-6;
  a.cuda_graph_max_batch = 512;
  // 32 layers: 1 ms + 32 x 40 us = 2.28 ms for a prefill or a decode of more than 512 sequences.
  CHECK(fixed_step_seconds(a, 32, true, 0) == doctest::Approx(2.28e-3));
  CHECK(fixed_step_seconds(a, 32, false, 600) == doctest::Approx(2.28e-3));
  CHECK(fixed_step_seconds(a, 32, false, 512) == doctest::Approx(1e-3));
  CHECK(fixed_step_seconds(LatencyAssumptions{}, 32, true, 0) == 0);
  // vLLM V0's small kernels are paid in a graph too: 24 layers (Qwen2.5-0.5B) at batch 1,
  // 0.86 ms + 24 x 72 us = 2.588 ms; above 256 sequences 24 x 40 us of launches more.
  LatencyAssumptions v0;
  v0.step_overhead_seconds = 0.86e-3;
  v0.kernel_seconds_per_layer = 72e-6;
  v0.launch_seconds_per_layer = 40e-6;
  v0.cuda_graph_max_batch = 256;
  CHECK(fixed_step_seconds(v0, 24, false, 1) == doctest::Approx(2.588e-3));
  CHECK(fixed_step_seconds(v0, 24, false, 300) == doctest::Approx(3.548e-3));
}

TEST_CASE("vLLM V0 at batch 1: a token is the V1 token plus the fixed costs' difference") {
  // Qwen2.5-0.5B on A100, batch 1, 2,048 tokens from a 1-token prompt (the Qwen2.5 speed table's
  // setting): each decode step costs (0.86 + 24 x 0.072) - 1.4 = 1.188 ms more than under V1,
  // whose 1.4 ms step overhead is its only fixed cost in a graph.
  const std::string config = test::fixture_configs_dir() + "/Qwen--Qwen2.5-0.5B-Instruct.json";
  const std::string args = " --gpu a100-sxm-80gb --weights bf16 --batch 1 --prompt-len 1 --gen-len 2048 --json";
  const auto v1 = test::run_cli("infer '" + config + "'" + args + " --engine vllm");
  const auto v0 = test::run_cli("infer '" + config + "'" + args + " --engine vllm-v0");
  REQUIRE(v1.exit_status == 0);
  REQUIRE(v0.exit_status == 0);
  const auto j1 = nlohmann::json::parse(v1.out), j0 = nlohmann::json::parse(v0.out);
  CHECK(j0["engine"] == "vllm-v0");
  const auto& l1 = j1["latency"];
  const auto& l0 = j0["latency"];
  CHECK(l0["decode_step_first_seconds"].get<double>() - l1["decode_step_first_seconds"].get<double>() ==
        doctest::Approx(1.188e-3));
  // The one-token prefill pays V0's step and kernels as well as V1's launches outside a graph:
  // (0.86 + 24 x 0.072 + 24 x 0.04) - (1.4 + 24 x 0.04) = 1.188 ms.
  CHECK(l0["prefill_seconds"].get<double>() - l1["prefill_seconds"].get<double>() == doctest::Approx(1.188e-3));
  // 2,047 decode steps after the first token.
  CHECK(l0["decode_total_seconds"].get<double>() - l1["decode_total_seconds"].get<double>() ==
        doctest::Approx(2047 * 1.188e-3));
}

TEST_CASE("infer: the prefill runs in the chunks its activations are sized for, each paying the step cost") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  InferenceWorkload w;
  w.batch_size = 4;
  const LatencyRequest lengths{1000, 10};
  LatencyAssumptions plain = default_latency_assumptions(h100);
  LatencyAssumptions costly = plain;
  costly.step_overhead_seconds = 2e-3;
  // Whole batch in one step: the overhead is added once to prefill and once per decode step.
  const LatencyTotals one = estimate_latency_totals(prepared, w, h100, lengths, plain);
  const LatencyTotals one_costly = estimate_latency_totals(prepared, w, h100, lengths, costly);
  CHECK(one_costly.prefill_seconds - one.prefill_seconds == doctest::Approx(2e-3));
  CHECK(one_costly.decode_total_seconds - one.decode_total_seconds == doctest::Approx(9 * 2e-3));
  // 4 x 1000 tokens in chunks of 1024: ceil(4000 / 1024) = 4 steps, 4 overheads.
  w.prefill_chunk_tokens = 1024;
  const LatencyTotals chunked = estimate_latency_totals(prepared, w, h100, lengths, plain);
  const LatencyTotals chunked_costly = estimate_latency_totals(prepared, w, h100, lengths, costly);
  CHECK(chunked_costly.prefill_seconds - chunked.prefill_seconds == doctest::Approx(4 * 2e-3));
  // Each chunk reads the weights again: at least the 3 extra weight reads of 16 GB at 0.8 x HBM.
  const double weight_read = 16.06e9 / (h100.memory_bandwidth_bytes_per_second * 0.8);
  CHECK(chunked.prefill_seconds > one.prefill_seconds);
  CHECK(chunked.prefill_seconds - one.prefill_seconds < 3 * weight_read * 1.5);
  const ChunkedPrefill direct =
      chunked_prefill_seconds(prepared, w, latency_rates(prepared, h100, w.layout, plain), plain, 4, 1000, 1024);
  CHECK(direct.steps == 4);
  CHECK(direct.seconds == doctest::Approx(chunked.prefill_seconds));
}

TEST_CASE("infer --engine vllm-v0: the profile run's step is the token budget, as V1's chunk") {
  // The RTX 3090 load logs (validation/serving.json vllm-v0-*-kvcap): max_model_len 20,000, so
  // V0's profile run is one 20,000-token step, no more: the same step as V1 given that chunk (both
  // profile 256 sampler rows on a 24 GB card), not the longest prompt plus a decode token per
  // sequence that a TensorRT-LLM engine is built for (20,256). V1 charges its non-torch memory
  // (0.13 GiB, 133 MiB) where V0 charges the 1 GiB overhead: (1,073,741,824 - 139,460,608) B /
  // 131,072 B a token (Llama-3.1-8B bf16) = 7,128 tokens more, to a 16-token block.
  const std::string config = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
  const std::string args =
      " --gpu rtx-3090 --weights bf16 --batch 1 --prompt-len 20000 --gen-len 1 --prefill-chunk 20000 --json";
  const auto v0 = test::run_cli("infer '" + config + "'" + args + " --engine vllm-v0");
  const auto v1 = test::run_cli("infer '" + config + "'" + args + " --engine vllm");
  REQUIRE(v0.exit_status == 0);
  REQUIRE(v1.exit_status == 0);
  const auto tokens = [](const std::string& out) {
    return nlohmann::json::parse(out)["engine_capacity"]["kv_capacity_tokens"].get<std::int64_t>();
  };
  CHECK(std::abs(tokens(v1.out) - tokens(v0.out) - 7128) <= 16);
  CHECK(tokens(v0.out) > 0);
}

TEST_CASE("serve-sim --engine vllm-v0: whole prompts, alone while the budget holds one, then decodes") {
  // 8 requests of 3,000 + 100 tokens at concurrency 4: max_num_batched_tokens = max(3,100, 2048) =
  // 3,100 (the longest request stands for max_model_len), so each 3,000-token prompt takes a step of
  // its own, and decodes wait while prompts are waiting: per wave 4 prefill steps, then the first
  // token is out and 99 decode steps follow; two waves, 2 x (4 + 99) = 206 steps.
  const std::string config = test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json";
  const auto run = test::run_cli("serve-sim '" + config +
                                 "' --gpu a100-sxm-80gb --engine vllm-v0 --prompt-len 3000 --gen-len 100 "
                                 "--concurrency 4 --requests 8 --json");
  REQUIRE(run.exit_status == 0);
  const auto j = nlohmann::json::parse(run.out);
  CHECK(j["engine"] == "vllm-v0");
  const auto& scheduler = j["scheduler"];
  CHECK(scheduler["max_num_seqs"] == 256);
  CHECK(scheduler["max_num_batched_tokens"] == 3100);
  CHECK(scheduler["chunked_prefill"] == false);
  CHECK(scheduler["prefill_first"] == true);
  CHECK(scheduler["cuda_graph_max_batch"] == 256);
  CHECK(scheduler["kernel_seconds_per_layer"].get<double>() == doctest::Approx(72e-6));
  CHECK(j["steps"] == 206);
}

TEST_CASE("HF repeat_kv: decode attention reads 1 + 2 x heads / kv_heads times the cache") {
  // Llama-3.1-8B: 32 query heads over 8 KV heads, head_dim 128, 32 layers, bf16 cache:
  // 2 x 8 x 128 x 2 B = 4096 B per token per layer; repeat_kv reads it, writes 4 copies, reads them.
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  InferenceWorkload w;
  w.batch_size = 2;
  const LatencyRequest lengths{3000, 4};
  LatencyAssumptions gqa = default_latency_assumptions(h100);
  LatencyAssumptions repeat = gqa;
  repeat.repeat_kv_per_query_head = true;
  const auto attention = static_cast<std::size_t>(LatencyOp::attention);
  const double shared = estimate_latency(prepared, w, h100, lengths, gqa).decode_first.bytes[attention];
  const double repeated = estimate_latency(prepared, w, h100, lengths, repeat).decode_first.bytes[attention];
  // decode_first attends prompt + 1 = 3001 tokens; extra = (9 - 1) x 3001 x 4096 B x 2 sequences x 32 layers.
  CHECK(repeated - shared == doctest::Approx(8.0 * 3001 * 4096 * 2 * 32));
  // DynamicCache's torch.cat reads the cache and writes it again: 2 more passes over the same bytes.
  LatencyAssumptions concatenated = repeat;
  concatenated.kv_cache_concatenated = true;
  const double copied = estimate_latency(prepared, w, h100, lengths, concatenated).decode_first.bytes[attention];
  CHECK(copied - repeated == doctest::Approx(2.0 * 3001 * 4096 * 2 * 32));
  // The HF profile sets both; vLLM neither.
  const EngineProfile hf = engine_profile(EngineKind::hf, h100, ParallelLayout{});
  CHECK(hf.kv_cache_concatenated);
  CHECK_FALSE(hf.gqa_shared_kv_reads);
  CHECK_FALSE(engine_profile(EngineKind::vllm, h100, ParallelLayout{}).kv_cache_concatenated);
}

// LLaMA-7B (decapoda config) with fp16 weights and cache on an A10G, a 1,000-token prompt and 200
// generated tokens: the HF cache tests' case. 32 heads over 32 KV heads, 2 x 32 x 128 x 2 B = 16 KiB
// per token per layer, 32 layers.
struct Llama7bOnA10g {
  ModelDescription model = test::fixture_model("decapoda-research--llama-7b-hf.json");
  std::vector<WeightTensor> tensors = weight_tensors(model);
  PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::fp16);
  const Accelerator& a10g = *find_accelerator("a10g");
  InferenceWorkload w = [] {
    InferenceWorkload fp16;
    fp16.weight_format = WeightFormat::fp16;
    fp16.kv_cache_dtype = KvCacheDtype::fp16;
    return fp16;
  }();
  LatencyRequest lengths{1000, 200};
  LatencyEstimate latency(const LatencyAssumptions& assumptions) const {
    return estimate_latency(prepared, w, a10g, lengths, assumptions);
  }
};

TEST_CASE("HF DynamicCache: an MHA model's decode copies its cache, repeat_kv or not") {
  // Llama-7B (decapoda config): 32 heads over 32 KV heads, so repeat_kv copies nothing; 2 x 32 x 128
  // x 2 B = 16 KiB per token per layer. One sequence, decode_first attends 1001 tokens.
  const Llama7bOnA10g c;
  LatencyAssumptions plain = default_latency_assumptions(c.a10g);
  plain.repeat_kv_per_query_head = true;
  LatencyAssumptions concatenated = plain;
  concatenated.kv_cache_concatenated = true;
  const auto attention = static_cast<std::size_t>(LatencyOp::attention);
  const double once = c.latency(plain).decode_first.bytes[attention];
  const double copied = c.latency(concatenated).decode_first.bytes[attention];
  CHECK(copied - once == doctest::Approx(2.0 * 1001 * 16384 * 32));
}

TEST_CASE("HF StaticCache: every step attends the whole preallocated cache, without a copy") {
  // Llama-7B, fp16 cache: 2 x 32 x 128 x 2 B = 16 KiB per token per layer, 32 layers. A 1000-token
  // prompt and 200 generated tokens preallocate 1200 positions; the dynamic cache's first step
  // attends 1001, its last 1199.
  const Llama7bOnA10g c;
  LatencyAssumptions grown = default_latency_assumptions(c.a10g);
  LatencyAssumptions preallocated = grown;
  preallocated.kv_cache_preallocated = true;
  const auto attention = static_cast<std::size_t>(LatencyOp::attention);
  const LatencyEstimate dynamic_cache = c.latency(grown);
  const LatencyEstimate static_cache = c.latency(preallocated);
  CHECK(static_cache.decode_first.bytes[attention] - dynamic_cache.decode_first.bytes[attention] ==
        doctest::Approx((1200.0 - 1001) * 16384 * 32));
  CHECK(static_cache.decode_last.bytes[attention] - dynamic_cache.decode_last.bytes[attention] ==
        doctest::Approx((1200.0 - 1199) * 16384 * 32));
  // Every step costs the same: the 199 decode steps take 199 first steps.
  CHECK(static_cache.totals.decode_step_first_seconds == static_cache.totals.decode_step_last_seconds);
  CHECK(static_cache.totals.decode_total_seconds ==
        doctest::Approx(199 * static_cache.totals.decode_step_first_seconds));
  // The prefill's 1,000 queries score all 1,200 positions under the mask (FlashAttention's causal
  // run scores 1000 x 1001 / 2), and read their keys and values: 32 heads x (128 + 128) per pair.
  CHECK(static_cache.prefill.flops[attention] - dynamic_cache.prefill.flops[attention] ==
        doctest::Approx(2.0 * 32 * (1000.0 * 1200 - 1000.0 * 1001 / 2) * 256 * 32));
  CHECK(static_cache.prefill.bytes[attention] - dynamic_cache.prefill.bytes[attention] ==
        doctest::Approx((1200.0 - 1000) * 16384 * 32));
  CHECK(static_cache.totals.prefill_seconds > dynamic_cache.totals.prefill_seconds);

  // infer --engine hf --hf-cache static: no torch.cat, the whole cache read, reported as such.
  const std::string config = test::fixture_configs_dir() + "/decapoda-research--llama-7b-hf.json";
  const std::string run = "infer '" + config +
                          "' --gpu a10g --weights fp16 --kv-dtype fp16 --batch 1 --prompt-len 1000 --gen-len 200 "
                          "--engine hf --json";
  const auto d = cli_json(run), s = cli_json(run + " --hf-cache static");
  CHECK(d["hf_cache"] == "dynamic");
  CHECK(s["hf_cache"] == "static");
  // The dynamic cache's first step moves 3 x 1001 tokens' cache (read, torch.cat's read and write);
  // the static one reads 1200 once: at the A10G's bandwidth share the step is shorter by the bytes.
  const double dynamic_first = d["latency"]["decode_step_first_seconds"].get<double>();
  const double static_first = s["latency"]["decode_step_first_seconds"].get<double>();
  const double static_last = s["latency"]["decode_step_last_seconds"].get<double>();
  CHECK(static_first < dynamic_first);
  CHECK(static_first == doctest::Approx(static_last));
  CHECK(s["assumptions"].dump().find("StaticCache") != std::string::npos);
  CHECK(d["assumptions"].dump().find("StaticCache") == std::string::npos);
  // Refused where it means nothing or is not modelled.
  for (const std::string& bad :
       {"infer '" + config + "' --gpu a10g --engine vllm --hf-cache static",
        "infer '" + config + "' --gpu a10g --hf-cache static",
        "infer '" + config + "' --gpu a10g --engine hf --hf-cache paged",
        "infer '" + config + "' --gpu a10g --engine hf --hf-cache static --spec-tokens 2 --spec-acceptance 0.5",
        "infer '" + config + "' --gpu a10g --engine hf --hf-cache static --prefill-chunk 512",
        "serve-sim '" + config + "' --gpu a10g --engine hf --hf-cache static --concurrency 2 --requests 4"}) {
    CAPTURE(bad);
    const auto refused = test::run_cli(bad);
    CHECK(refused.exit_status == 2);
    CHECK(refused.err.find("option 'hf_cache'") != std::string::npos);
  }
}

TEST_CASE("KV budget rules worked by hand") {
  const ModelDescription model = test::fixture_model("Qwen--Qwen3-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const Accelerator& h100 = *find_accelerator("h100");
  const double total = static_cast<double>(gpu_memory_limit_bytes(h100));
  InferenceWorkload w;
  SUBCASE("TensorRT-LLM: fraction of what weights and one step's buffers leave") {
    const EngineProfile p = engine_profile(EngineKind::trtllm, h100, w.layout);
    const KvCapacity c = engine_kv_capacity(p, 0.9, model, tensors, w, h100, scheduler_limits(p));
    CHECK(c.block_bytes == 32 * 147456);  // Qwen3-8B bf16: 36 layers x 2 x 8 x 128 x 2 B = 147,456 B per token
    CHECK(c.blocks == static_cast<std::int64_t>(std::floor(0.9 * (total - static_cast<double>(c.non_kv_bytes)) /
                                                           static_cast<double>(c.block_bytes))));
  }
  SUBCASE("SGLang: mem_fraction_static x memory less weights and overhead, per token") {
    const EngineProfile p = engine_profile(EngineKind::sglang, h100, w.layout);
    const KvCapacity c = engine_kv_capacity(p, p.memory_fraction, model, tensors, w, h100, scheduler_limits(p));
    CHECK(c.block_bytes == 147456);
    const InferenceMemoryTotals weights_only = inference_memory_totals(model, layout_weights(model, tensors, w), w);
    CHECK(c.non_kv_bytes == weights_only.weight_bytes + weights_only.overhead_bytes);
    CHECK(c.budget_bytes == static_cast<std::int64_t>(p.memory_fraction * total));
  }
  SUBCASE("vLLM: the profile run samples max_num_seqs rows, sorting them for top-k/top-p") {
    const EngineProfile p = engine_profile(EngineKind::vllm, h100, w.layout);
    SchedulerLimits limits = scheduler_limits(p);
    REQUIRE(limits.max_num_seqs == 1024);
    const KvCapacity one_row = vllm_kv_capacity(model, tensors, w, h100, limits);
    // FlashInfer's sampler sorts nothing: 1023 more rows of 151,936 fp32 logits than one row, and
    // the non-torch memory (133 MiB on one GPU) in place of the 1 GiB overhead.
    EngineProfile flashinfer = p;
    use_flashinfer_sampler(flashinfer);
    const KvCapacity unsorted = engine_kv_capacity(flashinfer, 0.9, model, tensors, w, h100, limits);
    CHECK(unsorted.sampler_bytes == 0);
    CHECK(unsorted.non_kv_bytes - one_row.non_kv_bytes == 1023LL * 151936 * 4 - (1073741824LL - 139460608LL));
    // The budget: 0.9 x CUDA's total on an H100 SXM, 79.18 GiB (81,080 MiB), not nvidia-smi's 81,559 MiB.
    CHECK(unsorted.budget_bytes == static_cast<std::int64_t>(0.9 * 81080.0 * 1048576.0));
    // PyTorch's sort: 38 B a logit (bf16 2, fp32 4, values 4, indices 8, iota 8, cub's buffers 4 + 8),
    // 1024 x 151,936 x 38 = 5,912,133,632 B, more than the step's activations and logits, so it is the
    // profile's peak beside the weights and the non-torch memory.
    const KvCapacity sorted = engine_kv_capacity(p, 0.9, model, tensors, w, h100, limits);
    CHECK(sorted.sampler_bytes == 5'912'133'632LL);
    const InferenceMemoryTotals weights_only = inference_memory_totals(model, layout_weights(model, tensors, w), w);
    const std::int64_t step = unsorted.non_kv_bytes - weights_only.weight_bytes - 139460608LL;
    REQUIRE(step < sorted.sampler_bytes);
    CHECK(sorted.non_kv_bytes == weights_only.weight_bytes + 139460608LL + 5'912'133'632LL);
    // At TP 2 the non-torch memory is 563 MiB a rank (NCCL and the custom all-reduce join it).
    InferenceWorkload tp2 = w;
    tp2.layout.tensor_parallel = 2;
    const EngineProfile p2 = engine_profile(EngineKind::vllm, h100, tp2.layout);
    CHECK(p2.non_torch_bytes == 563LL * 1048576);
    // A GPU whose CUDA total the catalog lacks: the budget is 0.9 x its memory.
    const Accelerator& a100 = *find_accelerator("a100-sxm-80gb");
    CHECK(a100.cuda_total_bytes == 0);
    const EngineProfile pa = engine_profile(EngineKind::vllm, a100, w.layout);
    CHECK(engine_kv_capacity(pa, 0.9, model, tensors, w, a100, scheduler_limits(pa)).budget_bytes ==
          static_cast<std::int64_t>(0.9 * 81920.0 * 1048576.0));
  }
  SUBCASE("vLLM V0: the driver worker's sampler sorts max_num_seqs rows too") {
    // V0's profile run: 256 sequences sharing a 2,048-token step, top_k = vocab - 1 and top_p 0.99;
    // its Sampler casts to fp32 and sorts, 256 x 151,936 x 38 = 1,478,033,408 B, more than the step.
    const EngineProfile p = engine_profile(EngineKind::vllm_v0, h100, w.layout);
    const SchedulerLimits limits = scheduler_limits(p);
    REQUIRE(limits.max_num_seqs == 256);
    const KvCapacity sorted = engine_kv_capacity(p, 0.9, model, tensors, w, h100, limits);
    CHECK(sorted.sampler_bytes == 1'478'033'408LL);
    const InferenceMemoryTotals weights_only = inference_memory_totals(model, layout_weights(model, tensors, w), w);
    CHECK(sorted.non_kv_bytes == weights_only.weight_bytes + weights_only.overhead_bytes + 1'478'033'408LL);
    EngineProfile flashinfer = p;
    use_flashinfer_sampler(flashinfer);
    CHECK(engine_kv_capacity(flashinfer, 0.9, model, tensors, w, h100, limits).sampler_bytes == 0);
  }
}

TEST_CASE("scheduler traits in the simulation") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  const InferenceWorkload w;
  const LatencyAssumptions a = default_latency_assumptions(h100);
  SchedulerLimits limits = vllm_default_limits(h100);
  limits.kv_capacity_blocks = 100000;
  SUBCASE("static batches: 8 requests at concurrency 4 run as two batches of 1 prefill + 19 decodes") {
    limits.continuous_batching = false;
    const ServingResult r = simulate_serving(prepared, w, h100, a, limits, closed_loop(8, 4, 100, 20));
    CHECK(r.steps == 2 * 20);
    CHECK(r.max_running == 4);
  }
  SUBCASE("no eviction: a reservation of prompt + output blocks never preempts") {
    limits.kv_capacity_blocks = 40;  // 640 tokens; prompts of 100 grow to 400
    const ServingResult paged = simulate_serving(prepared, w, h100, a, limits, closed_loop(12, 6, 100, 300));
    CHECK(paged.preemptions > 0);
    limits.reserve_whole_request = true;
    const ServingResult reserved = simulate_serving(prepared, w, h100, a, limits, closed_loop(12, 6, 100, 300));
    CHECK(reserved.preemptions == 0);
    CHECK(reserved.max_running == 1);  // 400 tokens = 25 blocks: one request at a time fits 40
    CHECK(reserved.output_tokens == 12 * 300);
  }
  SUBCASE("no chunked prefill: a prompt longer than the budget runs whole, alone") {
    limits.chunked_prefill = false;
    limits.max_num_batched_tokens = 256;
    const ServingResult r = simulate_serving(prepared, w, h100, a, limits, closed_loop(1, 1, 1000, 2));
    CHECK(r.steps == 2);  // one whole prefill, one decode (chunked: 4 + 1)
  }
}

TEST_CASE("infer --engine and serve-sim --engine") {
  const std::string config = test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json";
  const auto plain = test::run_cli("infer '" + config + "' --gpu h100 --batch 8 --json");
  REQUIRE(plain.exit_status == 0);
  CHECK(nlohmann::json::parse(plain.out)["engine"] == "none");
  const auto vllm = test::run_cli("infer '" + config + "' --gpu h100 --batch 8 --engine vllm --json");
  REQUIRE(vllm.exit_status == 0);
  const auto v = nlohmann::json::parse(vllm.out);
  CHECK(v["engine"] == "vllm");
  CHECK(v["workload"]["prefill_chunk"] == 8192);
  CHECK(v["workload"]["kv_block"] == 16);
  // The profile's 1.4 ms per step shows in the time per token against the plain roofline.
  const auto p = nlohmann::json::parse(plain.out);
  const double plain_step = p["latency"]["decode_total_seconds"].get<double>() / 255;
  const double vllm_step = v["latency"]["decode_total_seconds"].get<double>() / 255;
  CHECK(vllm_step - plain_step == doctest::Approx(1.4e-3).epsilon(1e-6));
  const auto given = test::run_cli("infer '" + config + "' --gpu h100 --engine trtllm --prefill-chunk 512 --json");
  REQUIRE(given.exit_status == 0);
  CHECK(nlohmann::json::parse(given.out)["workload"]["prefill_chunk"] == 512);  // the option wins
  const auto bad = test::run_cli("infer '" + config + "' --gpu h100 --engine tgi");
  CHECK(bad.exit_status == 2);
  CHECK(bad.err.find("option 'engine'") != std::string::npos);

  for (const char* engine : {"vllm", "sglang", "trtllm", "llamacpp", "hf"}) {
    CAPTURE(engine);
    const auto run =
        test::run_cli("serve-sim '" + config + "' --gpu h100 --prompt-len 256 --gen-len 32 --concurrency 4 " +
                      "--requests 8 --engine " + engine + " --json");
    REQUIRE(run.exit_status == 0);
    const auto r = nlohmann::json::parse(run.out);
    CHECK(r["engine"] == engine);
    CHECK(r["output_tokens_per_second"].get<double>() > 0);
  }
  // Static batches under Poisson arrivals: the step holds the waiting prompts (50 x 256), not a million.
  const auto poisson = test::run_cli("serve-sim '" + config +
                                     "' --gpu h100 --engine hf --arrival-rate 2 --requests 50 --prompt-len 256 "
                                     "--gen-len 16 --json");
  REQUIRE(poisson.exit_status == 0);
  CHECK(nlohmann::json::parse(poisson.out)["scheduler"]["max_num_batched_tokens"] == 50 * 256);
  // TensorRT-LLM without CUDA graphs: one request alone decodes in steps that each launch Qwen3-8B's
  // 36 layers at 40 us; with cuda_graph_max_batch 8 (the PyTorch backend's graphs) the decode steps
  // replay a graph, so the time per output token is 36 x 40 us = 1.44 ms shorter.
  const std::string one =
      "serve-sim '" + config +
      "' --gpu h100 --engine trtllm --prompt-len 256 --gen-len 32 --concurrency 1 --requests 1 --json";
  const auto e = cli_json(one), g = cli_json(one + " --cuda-graph-max-batch 8");
  CHECK(e["scheduler"]["cuda_graph_max_batch"] == 0);
  CHECK(g["scheduler"]["cuda_graph_max_batch"] == 8);
  CHECK(e["tpot_seconds_mean"].get<double>() - g["tpot_seconds_mean"].get<double>() ==
        doctest::Approx(36 * 40e-6).epsilon(1e-6));
  CHECK(e["ttft_seconds_mean"].get<double>() == doctest::Approx(g["ttft_seconds_mean"].get<double>()));
  const auto bad_graph =
      test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --cuda-graph-max-batch -1");
  CHECK(bad_graph.exit_status == 2);
  const auto bad_sim = test::run_cli("serve-sim '" + config + "' --gpu h100 --concurrency 2 --engine tgi");
  CHECK(bad_sim.exit_status == 2);
  CHECK(bad_sim.err.find("--engine") != std::string::npos);
}

TEST_CASE("vLLM stores MXFP4 experts padded for its MoE kernel (mxfp4.py create_weights)") {
  // gpt-oss-120b: 36 layers of 128 experts, hidden 2880 and intermediate 2880, each expert a gate, an
  // up and a down matrix. MXFP4 stores 17 B per 32 inputs of a row: unpadded, a matrix is 2880 rows x
  // 90 blocks x 17 B = 4,406,400 B, and the checkpoint 65,248,815,744 B (its index's total_size).
  const std::string big = test::fixture_configs_dir() + "/openai--gpt-oss-120b.json";
  const std::string small = test::fixture_configs_dir() + "/openai--gpt-oss-20b.json";
  const auto weights = [](const std::string& config, const std::string& options) {
    return cli_json("infer '" + config + "' --weights mxfp4 --json " + options)["weight_bytes"].get<std::int64_t>();
  };
  const std::int64_t checkpoint = 65'248'815'744;
  CHECK(weights(big, "--gpu h100") == checkpoint);
  // Marlin (H100, and the SM120 RTX PRO 6000): hidden to 256, intermediate per rank to 128. Gate and up
  // 2944 rows x 96 blocks, down 3072 rows x 92 blocks: 4,804,608 B each, 398,208 B more, x 3 x 128 x 36.
  CHECK(weights(big, "--gpu h100 --engine vllm") - checkpoint == 398'208LL * 3 * 128 * 36);
  CHECK(weights(big, "--gpu rtx-pro-6000-blackwell --engine vllm") - checkpoint == 398'208LL * 3 * 128 * 36);
  // Tensor parallel 2: 1440 intermediate per rank padded to 1536. Gate and up 1536 rows x 96 blocks,
  // down 3072 rows x 48 blocks: 2,506,752 B each against 1440 x 90 x 17 = 2,203,200.
  CHECK(weights(big, "--gpu h100 --tp 2 --engine vllm") - weights(big, "--gpu h100 --tp 2") ==
        (2'506'752LL - 2'203'200) * 3 * 128 * 36);
  // FlashInfer on SM100 (B200): both sizes to 256, 3072 rows x 96 blocks = 5,013,504 B a matrix.
  CHECK(weights(big, "--gpu b200 --engine vllm") - checkpoint == (5'013'504LL - 4'406'400) * 3 * 128 * 36);
  // gpt-oss-20b on an A100 (24 layers of 32 experts): Marlin.
  CHECK(weights(small, "--gpu a100-sxm-80gb --engine vllm") - weights(small, "--gpu a100-sxm-80gb") ==
        398'208LL * 3 * 32 * 24);
  // Other engines and other formats store the checkpoint's layout.
  for (const char* engine : {"sglang", "trtllm", "hf"}) {
    CAPTURE(engine);
    CHECK(weights(big, std::string("--gpu h100 --engine ") + engine) == checkpoint);
  }
  CHECK(weights(big, "--gpu h100 --engine vllm --weights bf16") == weights(big, "--gpu h100 --weights bf16"));
  const auto report = test::run_cli("infer '" + big + "' --gpu h100 --engine vllm --json");
  REQUIRE(report.exit_status == 0);
  CHECK(report.out.find("mxfp4.py at 007d5005") != std::string::npos);
  const auto rocm = test::run_cli("infer '" + big + "' --gpu mi300x --engine vllm --json");
  REQUIRE(rocm.exit_status == 0);
  CHECK(rocm.out.find("get_padding_alignment() (not modelled)") != std::string::npos);
  // serve-sim sizes the KV pool after the padded weights: the H100's non-KV bytes exceed an MI300X's
  // (vLLM's ROCm alignment is not modelled, and the report says so; the same 8192-token profile step)
  // by the padding alone.
  const auto non_kv = [&](const char* gpu) {
    // FlashInfer's sampler (v0.10): with the sort the H100's KV pool would be empty.
    const auto r = cli_json("serve-sim '" + big + "' --gpu " + gpu +
                            " --engine vllm --vllm-sampler flashinfer --prompt-len 256 --gen-len 32 --concurrency 4 "
                            "--requests 8 --json");
    CHECK(r["scheduler"]["max_num_batched_tokens"] == 8192);
    return r["scheduler"]["non_kv_bytes"].get<std::int64_t>();
  };
  CHECK(non_kv("h100") - non_kv("mi300x") == 398'208LL * 3 * 128 * 36);
}

TEST_CASE("vLLM's start-up check: the KV cache must hold one request of max_model_len") {
  const std::string dir = test::fixture_configs_dir();
  // Llama-3.1-8B on an H100: 32 full-attention layers, a 16-token page of one layer 16 x 8 KV heads x
  // 128 x 2 (K, V) x 2 B = 65,536 B; max_model_len 131,072 (the config's) is 8192 pages a layer.
  const auto llama = cli_json("infer '" + dir + "/meta-llama--Llama-3.1-8B.json' --gpu h100 --engine vllm --json");
  const auto& l = llama["engine_start"];
  CHECK(l["max_model_len"] == 131072);
  CHECK(l["max_model_len_from_config"] == true);
  CHECK(l["needed_bytes"] == 32LL * 65'536 * 8192);
  CHECK(l["starts"] == true);
  CHECK(l["longest_max_model_len"] == 131072);
  // gpt-oss-120b on one H100 (vLLM 0.10.1 refused to start this way, vllm#23278): 18 full layers and
  // 18 of a 128-token window, a page 16 x 8 x 64 x 2 x 2 = 32,768 B. Full: 8192 pages; windowed:
  // cdiv(min(127 + 8192, 131072), 16) + 1 = 521 pages.
  // vLLM 0.10 sampled with FlashInfer (no sort of the logits in the profile run).
  const std::string sorted_big = "infer '" + dir + "/openai--gpt-oss-120b.json' --gpu h100 --engine vllm --json";
  const std::string big = sorted_big + " --vllm-sampler flashinfer";
  const auto refused = cli_json(big)["engine_start"];
  const std::int64_t windowed = 18LL * 32'768 * 521;
  CHECK(refused["needed_bytes"] == 18LL * 32'768 * 8192 + windowed);
  CHECK(refused["starts"] == false);
  // The longest that starts: its full layers' pages fit beside the windowed ones, one more page does not.
  const std::int64_t available = refused["available_bytes"].get<std::int64_t>();
  const std::int64_t longest = refused["longest_max_model_len"].get<std::int64_t>();
  const auto needed = [&](std::int64_t length) { return 18LL * 32'768 * ((length + 15) / 16) + windowed; };
  CHECK(longest > 8319);  // past the window's reach, so the windowed pages are as above
  CHECK(needed(longest) <= available);
  CHECK(needed(longest + 1) > available);
  // --max-model-len 32768 (GPUStack's command, vLLM v0.10.2, which sampled with FlashInfer): 2048 pages
  // a full layer. With v0.11's sort of 1024 x 201,088 logits (7.29 GiB) nothing is left.
  CHECK(cli_json(sorted_big + " --max-model-len 32768")["engine_start"]["available_bytes"].get<std::int64_t>() < 0);
  const auto given = cli_json(big + " --max-model-len 32768")["engine_start"];
  CHECK(given["max_model_len"] == 32768);
  CHECK(given["max_model_len_from_config"] == false);
  CHECK(given["needed_bytes"] == 18LL * 32'768 * 2048 + windowed);
  CHECK(given["starts"] == true);
  // The same budget whatever max_model_len: the check does not move the KV cache.
  CHECK(given["available_bytes"] == refused["available_bytes"]);
  // vLLM V0 checks tokens: max_model_len <= num_gpu_blocks x 16. A Qwen2.5-14B on two RTX 4090s at
  // utilization 0.98 (vllm#13061: "larger than the maximum number of tokens that can be stored in KV
  // cache (81536)"): a block of 16 tokens x 48 layers x 4 KV heads a rank x 128 x 2 x 2 B = 1,572,864 B,
  // and 131,072 tokens need 8192 of them.
  const std::string v0 = "infer '" + dir +
                         "/deepcogito--cogito-v1-preview-qwen-14B.json' --gpu rtx-4090 --tp 2 --engine vllm-v0 "
                         "--gpu-memory-utilization 0.98 --prefill-chunk 2048 --json";
  const auto old_engine = cli_json(v0);
  const auto& o = old_engine["engine_start"];
  CHECK(o["needed_bytes"] == 8192LL * 1'572'864);
  CHECK(o["starts"] == false);
  CHECK(o["longest_max_model_len"] == old_engine["engine_capacity"]["kv_capacity_tokens"]);
  CHECK(o["rule"].get<std::string>().find("raise_if_cache_size_invalid") != std::string::npos);
  const auto shorter = cli_json(v0 + " --max-model-len 32768")["engine_start"];
  CHECK(shorter["starts"] == true);
  CHECK(shorter["longest_max_model_len"] == 32768);
  // Other engines, and state-space layers (not modelled): no check.
  CHECK_FALSE(cli_json("infer '" + dir + "/meta-llama--Llama-3.1-8B.json' --gpu h100 --engine sglang --json")
                  .contains("engine_start"));
  CHECK_FALSE(cli_json("infer '" + dir + "/nvidia--Nemotron-H-56B-Base-8K.json' --gpu h100 --engine vllm --json")
                  .contains("engine_start"));
  // The option is vLLM's, and a count.
  for (const char* bad :
       {" --engine sglang --max-model-len 4096", " --max-model-len 4096", " --engine vllm --max-model-len 0"}) {
    CAPTURE(bad);
    const auto run = test::run_cli("infer '" + dir + "/meta-llama--Llama-3.1-8B.json' --gpu h100" + bad);
    CHECK(run.exit_status == 2);
    CHECK(run.err.find("max_model_len") != std::string::npos);
  }
  // serve-sim takes the longest request it draws as max_model_len, and says so.
  const auto sim =
      test::run_cli("serve-sim '" + dir +
                    "/meta-llama--Llama-3.1-8B.json' --gpu h100 --engine vllm --concurrency 2 --requests 4 "
                    "--max-model-len 4096");
  CHECK(sim.exit_status == 2);
  CHECK(sim.err.find("max_model_len") != std::string::npos);
  const auto text = test::run_cli("infer '" + dir + "/openai--gpt-oss-120b.json' --gpu h100 --engine vllm");
  REQUIRE(text.exit_status == 0);
  CHECK(text.out.find("REFUSES TO START") != std::string::npos);
}

TEST_CASE("speculative decoding: tokens per step (Leviathan et al. 2023, eq. 1)") {
  CHECK(expected_tokens_per_step({}) == 1);
  CHECK(expected_tokens_per_step({3, 0.7, 1}) == doctest::Approx((1 - 0.2401) / 0.3));  // 0.7^4 = 0.2401
  CHECK(expected_tokens_per_step({3, 1.0, 1}) == 4);
  CHECK(expected_tokens_per_step({3, 0.0, 1}) == 1);
}

TEST_CASE("speculative decoding and prefix caching in infer") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  const LatencyAssumptions a = default_latency_assumptions(h100);
  InferenceWorkload w;
  w.batch_size = 1;
  const LatencyTotals plain = estimate_latency_totals(prepared, w, h100, {1000, 201}, a);
  SUBCASE("all drafts accepted, a free draft: a 4-token verify pass per 4 tokens, about a quarter of a step") {
    LatencyRequest request{1000, 201};
    request.speculative = {3, 1.0, 0};
    const LatencyTotals spec = estimate_latency_totals(prepared, w, h100, request, a);
    const double ratio = spec.decode_total_seconds / plain.decode_total_seconds;
    CHECK(ratio > 0.25);  // the verify pass reads the weights once, as a decode step, and computes 4 tokens
    CHECK(ratio < 0.30);
  }
  SUBCASE("nothing accepted: one token per step at the cost of the verify pass and the drafts") {
    LatencyRequest request{1000, 201};
    request.speculative = {3, 0.0, 1};
    CHECK(estimate_latency_totals(prepared, w, h100, request, a).decode_total_seconds > plain.decode_total_seconds);
  }
  SUBCASE("a shared prefix: one sequence alone prefills as before; eight prefill less") {
    LatencyRequest request{1000, 201};
    request.shared_prefix_tokens = 800;
    CHECK(estimate_latency_totals(prepared, w, h100, request, a).prefill_seconds ==
          doctest::Approx(plain.prefill_seconds).epsilon(1e-9));
    w.batch_size = 8;
    const LatencyTotals eight = estimate_latency_totals(prepared, w, h100, {1000, 201}, a);
    CHECK(estimate_latency_totals(prepared, w, h100, request, a).prefill_seconds < eight.prefill_seconds);
  }
  SUBCASE("CLI: the prefix's cache is held once; the draft adds its layers' memory") {
    const std::string config = test::fixture_configs_dir() + "/meta-llama--Llama-3.1-8B.json";
    const std::string base = "infer '" + config + "' --gpu h100 --batch 8 --prompt-len 2000 --gen-len 256 --json";
    const auto none = nlohmann::json::parse(test::run_cli(base).out);
    const auto prefix = nlohmann::json::parse(test::run_cli(base + " --shared-prefix 1000").out);
    const auto kv = none["kv_cache_bytes"].get<std::int64_t>();
    // 1000 of 2256 tokens, held by 1 of 8 sequences instead of 8.
    const auto saved = static_cast<std::int64_t>(1000.0 / 2256 * 7 / 8 * static_cast<double>(kv));
    CHECK(prefix["kv_cache_bytes"].get<std::int64_t>() == kv - saved);
    const auto spec =
        nlohmann::json::parse(test::run_cli(base + " --spec-tokens 3 --spec-acceptance 0.7 --spec-draft-layers 1").out);
    // One of 32 layers: 1/32 of weights and cache.
    const double draft = spec["total_bytes_per_gpu"].get<double>() - none["total_bytes_per_gpu"].get<double>();
    CHECK(draft == doctest::Approx((none["weight_bytes"].get<double>() + static_cast<double>(kv)) / 32).epsilon(1e-6));
    const auto missing = test::run_cli(base + " --spec-tokens 3");
    CHECK(missing.exit_status == 2);
    CHECK(missing.err.find("spec_acceptance") != std::string::npos);
    const auto too_long = test::run_cli(base + " --shared-prefix 2000");
    CHECK(too_long.exit_status == 2);
    CHECK(too_long.err.find("shared_prefix") != std::string::npos);
  }
}

TEST_CASE("speculative decoding and prefix caching in the simulation") {
  const ModelDescription model = test::fixture_model("meta-llama--Llama-3.1-8B.json");
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  const PreparedLatencyModel prepared = prepare_latency_model(model, tensors, WeightFormat::bf16);
  const Accelerator& h100 = *find_accelerator("h100");
  const InferenceWorkload w;
  const LatencyAssumptions a = default_latency_assumptions(h100);
  SchedulerLimits limits = vllm_default_limits(h100);
  limits.kv_capacity_blocks = 100000;
  SUBCASE("every draft accepted: 200 tokens after the first in ceil(200 / 4) = 50 steps") {
    limits.speculative = {3, 1.0, 1};
    const ServingResult r = simulate_serving(prepared, w, h100, a, limits, closed_loop(1, 1, 500, 201));
    CHECK(r.steps == 1 + 50);
    CHECK(r.output_tokens == 201);
  }
  SUBCASE("acceptance 0.7: about 2.53 tokens per decode step") {
    limits.speculative = {3, 0.7, 1};
    const ServingResult r = simulate_serving(prepared, w, h100, a, limits, closed_loop(1, 1, 500, 1001));
    CHECK(static_cast<double>(r.steps - 1) == doctest::Approx(1000 / 2.533).epsilon(0.01));
  }
  SUBCASE("a shared prefix: the second request prefills the rest, and holds the prefix blocks shared") {
    ServingLoad load = closed_loop(2, 1, 2000, 2);
    const ServingResult plain = simulate_serving(prepared, w, h100, a, limits, load);
    load.shared_prefix_tokens = 1600;  // 100 blocks of 16
    const ServingResult cached = simulate_serving(prepared, w, h100, a, limits, load);
    CHECK(cached.ttft_seconds_p50 < plain.ttft_seconds_p50);
    CHECK(cached.peak_kv_blocks_used == plain.peak_kv_blocks_used);  // ceil(2002 / 16) = 126 blocks either way
    ServingLoad two = closed_loop(4, 2, 2000, 50);
    two.shared_prefix_tokens = 1600;
    const ServingResult together = simulate_serving(prepared, w, h100, a, limits, two);
    CHECK(together.output_tokens == 4 * 50);
  }
}

TEST_CASE("infer --engine: max concurrency and offline throughput from the engine's scheduler") {
  const std::string config = test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json";
  const auto long_run = nlohmann::json::parse(
      test::run_cli("infer '" + config +
                    "' --gpu h100 --batch 64 --prompt-len 2048 --gen-len 2048 --engine vllm --json")
          .out);
  const auto& e = long_run["engine_capacity"];
  CHECK(e["limited_by"] == "kv_cache");
  // 2048 + 2048 tokens take ceil(4096 / 16) = 256 blocks; the cache holds kv_capacity_tokens / 4096 whole
  // requests, and vLLM admits past that (blocks are taken as tokens come), preempting later.
  CHECK(e["max_running_sequences"].get<std::int64_t>() >= e["kv_capacity_tokens"].get<std::int64_t>() / 4096);
  CHECK(e["offline_output_tokens_per_second"].get<double>() > 0);
  const auto short_run = nlohmann::json::parse(
      test::run_cli("infer '" + config + "' --gpu h100 --batch 8 --prompt-len 100 --gen-len 50 --engine vllm --json")
          .out);
  CHECK(short_run["engine_capacity"]["limited_by"] == "max_num_seqs");
  CHECK(short_run["engine_capacity"]["max_running_sequences"] == 1024);  // vLLM's max_num_seqs on an H100
  const auto plain = nlohmann::json::parse(test::run_cli("infer '" + config + "' --gpu h100 --batch 8 --json").out);
  CHECK_FALSE(plain.contains("engine_capacity"));
}

TEST_CASE("--vllm-sampler takes torch or flashinfer, with engine vllm or vllm-v0 only, and names itself when refused") {
  const std::string infer = "infer '" + test::fixture_configs_dir() + "/Qwen--Qwen3-8B.json' --gpu h100 ";
  for (const char* bad : {"--engine sglang --vllm-sampler flashinfer", "--engine vllm --vllm-sampler cub",
                          "--vllm-sampler torch", "--engine trtllm --vllm-sampler torch"}) {
    CAPTURE(bad);
    const auto run = test::run_cli(infer + bad);
    CHECK(run.exit_status != 0);
    CHECK(run.err.find("vllm_sampler") != std::string::npos);
  }
  // The report names the sampler rule it applied.
  const auto sorted = cli_json(infer + "--engine vllm --json").dump();
  CHECK(sorted.find("38 B a logit") != std::string::npos);
  const auto flashinfer = cli_json(infer + "--engine vllm --vllm-sampler flashinfer --json").dump();
  CHECK(flashinfer.find("38 B a logit") == std::string::npos);
  CHECK(flashinfer.find("FlashInfer's sampler (--vllm-sampler flashinfer: v0.10 with FlashInfer installed") !=
        std::string::npos);
  // vLLM V0 takes it as well (VLLM_USE_FLASHINFER_SAMPLER=1).
  CHECK(cli_json(infer + "--engine vllm-v0 --json").dump().find("38 B a logit") != std::string::npos);
  CHECK(cli_json(infer + "--engine vllm-v0 --vllm-sampler flashinfer --json").dump().find("38 B a logit") ==
        std::string::npos);
}
