// SPDX-License-Identifier: MIT
// A model split between GPUs and the CPU as llama.cpp runs it: the blocking handoffs between backends a
// token makes, the op offload's copies of weights kept in RAM (pageable from a mapped file, pinned with
// --no-mmap; only the experts a ubatch uses), and llama.cpp's default threads on a hybrid part. Expected
// values are written out from the published figures beside each check.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "fitcheck/cpu.hpp"
#include "fitcheck/hardware.hpp"
#include "fitcheck/local.hpp"
#include "test_support.hpp"

using namespace fitcheck;

namespace {

// ggml-org/llama.cpp#17795: gpt-oss-20b tg128 295.02 -> 317.25 t/s with one handoff made asynchronous.
constexpr double kHandoff = 1.0 / 295.02 - 1.0 / 317.25;
// ggml-org/llama.cpp#20978: pp2048 at n_ubatch 128 with gpt-oss-20b's experts in RAM, mapped against pinned.
constexpr double kPageableShare = 298.28 / 543.68;

LocalModel model_of(const char* file, WeightFormat weights) {
  return local_model_from_config(test::fixture_model(file), weights);
}

LocalRequest on_gpus(std::initializer_list<const char*> ids) {
  LocalRequest r;
  for (const char* id : ids) r.gpus.push_back(*find_accelerator(id));
  r.backend = LocalBackend::cuda;
  r.ram_bytes = std::int64_t{128} << 30;
  r.context = 640;
  r.prompt_len = 512;
  r.gen_len = 128;
  return r;
}

// gpt-oss-120b as ggml-org's MXFP4 MoE GGUF: 36 layers, 128 routed experts, 4 a token.
LocalModel gpt_oss_120b() { return model_of("openai--gpt-oss-120b.json", WeightFormat::gguf_mxfp4_moe); }

// Every layer on `gpu`, every layer's routed experts in RAM (--n-cpu-moe 36).
LocalRequest experts_in_ram(const char* gpu) {
  LocalRequest r = on_gpus({gpu});
  r.n_gpu_layers = 99;
  r.n_cpu_moe = 36;
  return r;
}

std::int64_t token_handoffs(const LocalEstimate& e) {
  std::int64_t n = 0;
  for (const LocalTokenTime& t : e.speed.generation_token_time) n += t.handoffs;
  return n;
}

double token_handoff_seconds(const LocalEstimate& e) {
  double s = 0;
  for (const LocalTokenTime& t : e.speed.generation_token_time) s += t.handoff_seconds;
  return s;
}

double prompt_handoff_seconds(const LocalEstimate& e) {
  double s = 0;
  for (const LocalPromptTime& t : e.speed.prompt_time) s += t.handoff_seconds;
  return s;
}

bool stated(const LocalEstimate& e, const std::string& text) { return test::mentions(e.assumptions, text); }

}  // namespace

TEST_CASE("local handoffs: a token's first crossing is free, each later one costs #17795's 0.2375 ms") {
  const LocalModel llama = model_of("meta-llama--Llama-3.1-8B.json", WeightFormat::gguf_q4_0);
  SUBCASE("fully offloaded on one GPU: only the token embedding crosses, into CUDA0") {
    LocalRequest r = on_gpus({"rtx-4090"});
    r.n_gpu_layers = 99;
    const LocalEstimate e = estimate_local(llama, r);
    CHECK(token_handoffs(e) == 0);
    CHECK(prompt_handoff_seconds(e) == 0);
    CHECK_FALSE(stated(e, "handoffs between backends"));
  }
  SUBCASE("-ngl below the layer count: the first layers and the output layer on the CPU, one handoff back") {
    // -ngl 20 puts the last 20 of the 32 layers on the GPU; the output layer needs -ngl 33. A token goes
    // CPU -> CUDA0 (its first crossing) -> CPU for the output layer: one handoff.
    LocalRequest r = on_gpus({"rtx-4090"});
    r.n_gpu_layers = 20;
    const LocalEstimate e = estimate_local(llama, r);
    CHECK(token_handoffs(e) == 1);
    CHECK(e.speed.generation_token_time.back().handoffs == 1);
  }
  SUBCASE("two GPUs splitting the layers: CUDA0 to CUDA1 is one handoff, a token and a ubatch") {
    LocalRequest r = on_gpus({"rtx-4090", "rtx-4090"});
    r.n_gpu_layers = 99;
    const LocalEstimate e = estimate_local(llama, r);
    REQUIRE(e.placement.devices[1].layers > 0);
    CHECK(e.speed.generation_token_time[1].handoffs == 1);
    CHECK(token_handoff_seconds(e) == doctest::Approx(0.2375e-3).epsilon(1e-3));
    CHECK(token_handoff_seconds(e) == doctest::Approx(kHandoff));
    // One ubatch of 512 tokens crosses the same boundary once.
    CHECK(prompt_handoff_seconds(e) == doctest::Approx(kHandoff));
    CHECK(stated(e, "handoffs between backends: a token crosses 2 device boundaries"));
  }
  SUBCASE("-nkvo: every layer's attention runs on the CPU, two handoffs a layer") {
    LocalRequest r = on_gpus({"rtx-4090"});
    r.n_gpu_layers = 99;
    r.kv_offload = false;
    CHECK(token_handoffs(estimate_local(llama, r)) == 2 * 32);
  }
  SUBCASE("Apple silicon's unified memory: no boundary is counted") {
    LocalRequest r;
    r.gpus.push_back(*find_accelerator("m2-ultra"));
    r.backend = LocalBackend::metal;
    r.ram_bytes = std::int64_t{64} << 30;
    r.n_gpu_layers = 20;
    CHECK(token_handoffs(estimate_local(llama, r)) == 0);
  }
}

TEST_CASE("local handoffs: routed experts in RAM send a token to the CPU and back in every such layer") {
  // gpt-oss-120b: 36 layers; --n-cpu-moe 36 keeps every layer's experts in RAM. One token is below the op
  // offload's 32, so each layer leaves CUDA0 for the CPU and comes back: 72 handoffs, 36 into each.
  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-5090");
  const LocalEstimate e = estimate_local(oss, r);
  CHECK(token_handoffs(e) == 72);
  CHECK(e.speed.generation_token_time[0].handoffs == 36);
  CHECK(e.speed.generation_token_time[1].handoffs == 36);
  CHECK(token_handoff_seconds(e) == doctest::Approx(72 * kHandoff));
  // The prompt's 512-token ubatch multiplies the experts on the GPU (op offload): no CPU split, no handoff.
  CHECK(prompt_handoff_seconds(e) == 0);
  CHECK(stated(e, "73 device boundaries"));
  CHECK(stated(e, "0 a prompt ubatch"));
  // The last 4 layers' experts on the GPU: 32 layers go to the CPU and back.
  r.n_cpu_moe = 32;
  CHECK(token_handoffs(estimate_local(oss, r)) == 64);
}

TEST_CASE("local generation: experts in RAM on 4 threads wait on their multiplies, not on the RAM") {
  // gpt-oss-120b with every routed expert in RAM beside an RTX 5090, on a Core Ultra 9 285K at llama.cpp's default
  // 4 threads (one per two P-cores without SMT). A token multiplies 4 experts of 3 x 2880 x 2880 MXFP4 values in
  // each of 36 layers: 2 x 4 x 24,883,200 x 36 = 7.166 GFLOP, run row by row (MUL_MAT_ID) at 0.12 of 4 Lion Cove
  // cores' int8 peak at the base clock. Its reads, 1.90 GB at 0.9 of DDR5-6400's 102.4 GB/s, take 20.7 ms.
  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-5090");
  r.cpu = *find_cpu("core-ultra-9-285k");
  const CpuCoreCluster& p_core = r.cpu->performance;
  const double flops = 2.0 * 4 * (3.0 * 2880 * 2880) * 36;
  const double expected = flops / (4 * p_core.int8_ops_per_cycle * p_core.base_clock_hz * 0.12);
  const LocalEstimate e = estimate_local(oss, r);
  const LocalTokenTime& cpu = e.speed.generation_token_time.back();
  CHECK(cpu.compute_seconds == doctest::Approx(expected).epsilon(0.001));
  CHECK(cpu.bytes / cpu.bandwidth_bytes_per_second == doctest::Approx(cpu.bytes / (0.9 * 102.4e9)));
  CHECK(cpu.compute_seconds > cpu.bytes / cpu.bandwidth_bytes_per_second);
  CHECK(cpu.seconds == doctest::Approx(cpu.compute_seconds + static_cast<double>(cpu.graph_ops) * cpu.seconds_per_op +
                                       cpu.crossing_seconds + cpu.handoff_seconds));
  CHECK(test::mentions(e.assumptions, "CPU generation: a token's multiplies on 4 threads take"));
  // With all 24 cores the multiplies take less than the reads, which set the pace again.
  r.threads = 24;
  const LocalTokenTime all = estimate_local(oss, r).speed.generation_token_time.back();
  CHECK(all.compute_seconds < all.bytes / all.bandwidth_bytes_per_second);
  CHECK(all.seconds == doctest::Approx(all.bytes / all.bandwidth_bytes_per_second +
                                       static_cast<double>(all.graph_ops) * all.seconds_per_op + all.crossing_seconds +
                                       all.handoff_seconds));
}

TEST_CASE("local op offload: weights in a mapped file copy at #20978's pageable share, --no-mmap pins them") {
  // gpt-oss-120b with every expert in RAM on an RTX 4090 (PCIe 4.0 x16, 32 GB/s): a 512-token ubatch copies
  // the experts it uses (all of them: 1 - (1 - 4/128)^512 = 1 - 9e-8) from the CPU's buffer, the token
  // embeddings staying behind, at 0.8 of 32 GB/s pinned or that x 298.28 / 543.68 mapped.
  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-4090");
  r.mmap = false;
  const LocalEstimate pinned = estimate_local(oss, r);
  const LocalDeviceUse& cpu = pinned.placement.devices.back();
  const double experts = static_cast<double>(cpu.model_buffer_bytes - oss.input_bytes);
  const double used = 1.0 - std::pow(1.0 - 4.0 / 128.0, 512.0);
  CHECK(pinned.speed.prompt_time.back().offload_copy_seconds == doctest::Approx(experts * used / (32e9 * 0.8)));
  r.mmap = true;
  const LocalEstimate mapped = estimate_local(oss, r);
  CHECK(mapped.speed.prompt_time.back().offload_copy_seconds ==
        doctest::Approx(experts * used / (32e9 * 0.8 * kPageableShare)));
  CHECK(stated(mapped, "x 0.549 from the mapped file's pageable memory"));
  CHECK(stated(pinned, "from the pinned host buffer a file read without mapping puts them in (--no-mmap)"));
  // The command and Ollama's parameters say --no-mmap / use_mmap false only when it is off.
  CHECK(pinned.llama_cpp_command.find(" --no-mmap") != std::string::npos);
  CHECK(mapped.llama_cpp_command.find("mmap") == std::string::npos);
  const std::string json = local_report_json(oss, pinned);
  CHECK(json.find("\"mmap\":false") != std::string::npos);
  CHECK(json.find("\"use_mmap\":false") != std::string::npos);
  CHECK(local_report_json(oss, mapped).find("\"use_mmap\":") == std::string::npos);
  // Ollama unmaps the file itself on Windows with CUDA (server/sched.go): said where its prompts copy weights.
  CHECK(stated(mapped, "Ollama reads the model file without mapping on Windows with CUDA"));
  CHECK_FALSE(stated(pinned, "Ollama reads the model file without mapping"));
}

TEST_CASE("local mmap: b7668-b7852 read the file with direct I/O by default, mapping nothing") {
  // #18166 (b7668) made direct I/O the default, which turns mapping off; #19109 (b7853) made mapping the default
  // again. Only the options' default follows the build: an explicit --mmap stays as given.
  CHECK(local_maps_model_file_by_default(std::nullopt));
  CHECK(local_maps_model_file_by_default(7667));
  CHECK_FALSE(local_maps_model_file_by_default(7668));
  CHECK_FALSE(local_maps_model_file_by_default(7852));
  CHECK(local_maps_model_file_by_default(7853));

  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-4090");
  r.llama_cpp_build = 7700;
  r.mmap = false;  // as the options give it for b7700 when --mmap is unset
  const LocalEstimate direct = estimate_local(oss, r);
  CHECK(stated(direct, "llama.cpp b7668-b7852 reads the model file with direct I/O by default"));
  // The build's default needs no flag; mapping it there needs --mmap.
  CHECK(direct.llama_cpp_command.find("mmap") == std::string::npos);
  r.mmap = true;
  CHECK(estimate_local(oss, r).llama_cpp_command.find(" --mmap") != std::string::npos);
  r.llama_cpp_build = 7853;
  CHECK_FALSE(stated(estimate_local(oss, r), "reads the model file with direct I/O by default"));
}

TEST_CASE("local mmap: a file read without mapping has no mapped span") {
  // With the experts of every layer in RAM the mapped span is the whole file (GPU tensors between them
  // included); read without mapping, the CPU's tensors sit in the host buffer and nothing is mapped.
  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-4090");
  const LocalDeviceUse mapped_cpu = estimate_local(oss, r).placement.devices.back();
  CHECK(mapped_cpu.mapped_model_buffer_bytes > mapped_cpu.model_buffer_bytes);
  r.mmap = false;
  const LocalDeviceUse read_cpu = estimate_local(oss, r).placement.devices.back();
  CHECK(read_cpu.mapped_model_buffer_bytes == 0);
  CHECK(read_cpu.model_buffer_bytes == mapped_cpu.model_buffer_bytes);
}

TEST_CASE("local op offload: from b6220 (#15346) a ubatch copies only the experts its tokens use") {
  // A 32-token prompt (the op offload's least batch) over gpt-oss-120b's 128 experts, 4 a token: an expert is
  // left out with probability (1 - 4/128)^32 = 0.3618, so 63.82% of them travel; b6219 copies them all.
  const LocalModel oss = gpt_oss_120b();
  LocalRequest r = experts_in_ram("rtx-4090");
  r.prompt_len = 32;
  r.llama_cpp_build = 6219;
  const LocalEstimate all = estimate_local(oss, r);
  r.llama_cpp_build = 6220;
  const LocalEstimate used = estimate_local(oss, r);
  const double share = 1.0 - std::pow(1.0 - 4.0 / 128.0, 32.0);
  CHECK(share == doctest::Approx(0.6382).epsilon(1e-3));
  CHECK(used.speed.prompt_time.back().offload_copy_seconds ==
        doctest::Approx(share * all.speed.prompt_time.back().offload_copy_seconds));
  CHECK(stated(used, "only those a ubatch uses (63.8% under balanced routing"));
  CHECK_FALSE(stated(all, "only those a ubatch uses"));
}

TEST_CASE("local CPU threads: llama.cpp counts one per two performance cores on a hybrid part without SMT") {
  // common_cpu_get_num_math (common/common.cpp): on a hybrid x86 part under Linux it steps over every other
  // logical CPU as a Hyper-Threading sibling. Core Ultra 9 285K: 8 P-cores, no SMT: 4 threads; Core i9-14900K:
  // 8 P-cores with SMT: 8; a Ryzen 9 7950X (not hybrid): its 16 cores.
  const LocalModel llama = model_of("meta-llama--Llama-3.1-8B.json", WeightFormat::gguf_q4_0);
  const auto rule_for = [&](const char* id) {
    LocalRequest r;
    r.backend = LocalBackend::cpu;
    r.cpu = *find_cpu(id);
    r.ram_bytes = std::int64_t{64} << 30;
    r.context = 640;
    return estimate_local(llama, r);
  };
  CHECK(stated(rule_for("core-ultra-9-285k"),
               "CPU prompt (ggml-cpu): 4 threads (llama.cpp's default on a hybrid part "
               "without SMT: one per two performance cores"));
  CHECK(
      stated(rule_for("core-i9-14900k"), "CPU prompt (ggml-cpu): 8 threads (llama.cpp's default: one per performance"));
  CHECK(stated(rule_for("ryzen-9-7950x"), "CPU prompt (ggml-cpu): 16 threads"));
}

TEST_CASE("CPU catalog: the Core Ultra 9 285K and the Ryzen 9 7900 from their specification pages") {
  const CpuDevice& arrow = *find_cpu("285k");
  CHECK(std::string(arrow.id) == "core-ultra-9-285k");
  CHECK(arrow.performance.cores == 8);
  CHECK(arrow.efficiency.cores == 16);
  CHECK_FALSE(arrow.performance.smt);
  CHECK_FALSE(arrow.performance.avx512);
  // DDR5-6400, 2 channels: 2 x 8 B x 6400e6 = 102.4 GB/s.
  CHECK(cpu_memory_bandwidth_bytes_per_second(arrow) == doctest::Approx(102.4e9));
  // fp32: 8 x 32 x 3.7 GHz + 16 x 32 x 3.2 GHz = 947.2 + 1638.4 = 2585.6 GFLOP/s.
  CHECK(cpu_peak_fp32_flops_per_second(arrow) == doctest::Approx(2585.6e9));
  const CpuDevice& ryzen = *find_cpu("ryzen-9-7900");
  CHECK(ryzen.performance.cores == 12);
  CHECK(ryzen.compute_dies == 2);
  // 12 x 32 x 3.7 GHz = 1420.8 GFLOP/s; DDR5-5200 x 2 channels = 83.2 GB/s.
  CHECK(cpu_peak_fp32_flops_per_second(ryzen) == doctest::Approx(1420.8e9));
  CHECK(cpu_memory_bandwidth_bytes_per_second(ryzen) == doctest::Approx(83.2e9));
}
