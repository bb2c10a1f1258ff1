// SPDX-License-Identifier: MIT
// Prompt matrix multiplies on an x86 CPU as ggml-cpu runs them (ggml-org/llama.cpp, read at
// unslothai/llama.cpp d32676d77, build 9749, and its history):
//   - ggml_compute_forward_mul_mat (ggml/src/ggml-cpu/ggml-cpu.c) first offers a multiply to
//     llamafile_sgemm (ggml-cpu/llamafile/sgemm.cpp), whose tiled kernels take F32, F16, BF16 and, as
//     int8 dot products against activations quantized to Q8_0, Q8_0, Q4_0, Q5_0 and IQ4_NL;
//   - weights of a type with a runtime repack (ggml-cpu/repack.cpp ggml_repack_get_optimal_repack_type,
//     on AVX2: Q4_0 from b4081 (#9921), Q4_K from b4929 (#12332), MXFP4 from b8175 (#19738), on AVX-512
//     Q2_K from b6056 (#14373)) are interleaved at load and multiplied by tiled GEMM kernels;
//   - every other type runs one dot product of a weight row with an activation row at a time
//     (vec_dot, in 16 x 16 blocks);
//   - routed experts (MUL_MAT_ID) never reach the tiled kernels: the repack path runs a GEMV per token
//     (repack.cpp forward_mul_mat_id), the others vec_dot (ggml_compute_forward_mul_mat_id).
// Quantized weights multiply in int8 (VNNI or AVX2), F16 weights are widened to FP32 and multiplied
// with FP32 FMAs, BF16 with AVX512_BF16 dot products where the CPU has them.
//
// Work is split over threads in two ways. tinyBLAS's quantized kernels (tinyBLAS_Q0_AVX::gemm: `duty`
// tiles a thread) and, before b6889 (#16833), the repack GEMM give every thread an equal share, so
// the slowest core sets the time: a hybrid Intel part runs at threads x its E-core rate. The others
// hand out chunks as threads free up (an atomic counter: vec_dot since 2024, tinyBLAS's float kernels
// from b4390 (#10714), the repack GEMM from b6889), so each core adds its own rate.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "fitcheck/cpu.hpp"
#include "local/local_rules.hpp"
#include "support/number_text.hpp"

namespace fitcheck {
namespace {

constexpr std::int64_t kRepackQ4_0Build = 4081;
constexpr std::int64_t kRepackQ4_KBuild = 4929;
constexpr std::int64_t kRepackQ2_KBuild = 6056;
constexpr std::int64_t kRepackMxfp4Build = 8175;
constexpr std::int64_t kRepackChunkingBuild = 6889;
constexpr std::int64_t kTinyBlasFloatChunkingBuild = 4390;

// The share of the kernels' instruction peak (at the base clock) they reach over a 512-token ubatch,
// read off one CPU's llama-bench rows (docs/local.md, "Efficiencies": Ryzen 9 7950X, LLaMA-3.1-8B Q4_0,
// Q8_0 and BF16 for the tiled kernels, Q4_K_S and Q6_K at b4384 for vec_dot, Qwen3-30B-A3B and
// gpt-oss-20b for MUL_MAT_ID); other CPUs' rows test them (docs/validation.md).
constexpr double kTiledEfficiency = 0.27;
constexpr double kRowDotEfficiency = 0.165;
constexpr double kExpertRowDotEfficiency = 0.12;

enum class Kernel : std::uint8_t { tiled, row_dot, expert_row_dot };
enum class Unit : std::uint8_t { int8, bf16, fp32 };

struct KernelChoice {
  Kernel kernel = Kernel::row_dot;
  bool equal_shares = false;  // every thread an equal share (static split)
};

KernelChoice quantized_kernel(GgufType type, bool avx512, std::int64_t build) {
  const bool repack_chunked = build >= kRepackChunkingBuild;
  switch (type) {
    case GgufType::q4_0:
      return {Kernel::tiled, build < kRepackQ4_0Build || !repack_chunked};
    case GgufType::q8_0:
    case GgufType::q5_0:
    case GgufType::iq4_nl:
      return {Kernel::tiled, true};
    case GgufType::q4_k:
      return build >= kRepackQ4_KBuild ? KernelChoice{Kernel::tiled, !repack_chunked} : KernelChoice{};
    case GgufType::q2_k:
      return avx512 && build >= kRepackQ2_KBuild ? KernelChoice{Kernel::tiled, !repack_chunked} : KernelChoice{};
    case GgufType::mxfp4:
      return build >= kRepackMxfp4Build ? KernelChoice{Kernel::tiled, !repack_chunked} : KernelChoice{};
    default:
      return {};
  }
}

double efficiency(Kernel kernel) {
  switch (kernel) {
    case Kernel::tiled:
      return kTiledEfficiency;
    case Kernel::row_dot:
      return kRowDotEfficiency;
    case Kernel::expert_row_dot:
      return kExpertRowDotEfficiency;
  }
  return kRowDotEfficiency;
}

double ops_per_cycle(const CpuCoreCluster& cluster, Unit unit) {
  switch (unit) {
    case Unit::int8:
      return cluster.int8_ops_per_cycle;
    case Unit::bf16:
      return cpu_cluster_vector_bf16_flops_per_cycle(cluster);
    case Unit::fp32:
      return cluster.fp32_flops_per_cycle;
  }
  return cluster.fp32_flops_per_cycle;
}

struct ThreadPlacement {
  int performance = 0;  // threads on performance cores (one per core; SMT siblings add no vector units)
  int efficiency = 0;
};

ThreadPlacement place_threads(const CpuDevice& cpu, int threads) {
  ThreadPlacement t;
  t.performance = std::min(threads, cpu.performance.cores);
  t.efficiency = std::min(threads - t.performance, cpu.efficiency.cores);
  return t;
}

// The unit's ops/s over the threads: each core's own rate when chunks are handed out, the slowest
// core's rate times the threads when every thread has an equal share.
double unit_rate(const CpuDevice& cpu, ThreadPlacement t, Unit unit, bool equal_shares) {
  const double p = ops_per_cycle(cpu.performance, unit) * cpu.performance.base_clock_hz;
  const double e = ops_per_cycle(cpu.efficiency, unit) * cpu.efficiency.base_clock_hz;
  if (!equal_shares) return t.performance * p + t.efficiency * e;
  double slowest = std::numeric_limits<double>::infinity();
  if (t.performance > 0) slowest = std::min(slowest, p);
  if (t.efficiency > 0) slowest = std::min(slowest, e);
  return std::isfinite(slowest) ? (t.performance + t.efficiency) * slowest : 0.0;
}

}  // namespace

int local_cpu_default_threads(const CpuDevice& cpu) {
  // common/common.cpp common_cpu_get_num_math: on a hybrid x86 part under Linux, cpu_count_math_cpus
  // pins itself to each logical CPU, skips the efficiency cores ("efficiency cores harm lockstep
  // threading") and steps over the next CPU as the performance core's Hyper-Threading sibling: one thread
  // per performance core, or one per two where the performance cores have no SMT (Arrow Lake: 8 P-cores,
  // CPUs 0-7, count as 4). Otherwise one per physical core.
  if (cpu.efficiency.cores > 0) return cpu.performance.smt ? cpu.performance.cores : (cpu.performance.cores + 1) / 2;
  return cpu.performance.cores > 0 ? cpu.performance.cores : cpu_core_count(cpu);
}

LocalCpuMatmulTime local_cpu_matmul_seconds(const LocalCpuMatmulFlops& flops, const CpuDevice& cpu,
                                            const LocalRequest& request) {
  const std::int64_t build = request.llama_cpp_build.value_or(std::numeric_limits<std::int64_t>::max());
  const bool avx512 = cpu_has_avx512(cpu);
  LocalCpuMatmulTime out;
  out.threads = request.threads.value_or(local_cpu_default_threads(cpu));
  const ThreadPlacement placement = place_threads(cpu, out.threads);
  double tiled_share_flops = 0, row_flops = 0, expert_flops = 0;
  const auto run = [&](double work, Kernel kernel, Unit unit, bool equal_shares) {
    if (work <= 0) return;
    const double rate = unit_rate(cpu, placement, unit, equal_shares) * efficiency(kernel);
    if (rate > 0) out.seconds += work / rate;
    (kernel == Kernel::tiled ? tiled_share_flops : kernel == Kernel::row_dot ? row_flops : expert_flops) += work;
  };
  for (std::size_t k = 0; k < kGgufTypeCount; ++k) {
    const KernelChoice choice = quantized_kernel(static_cast<GgufType>(k), avx512, build);
    run(flops.dense_quantized[k], choice.kernel, Unit::int8, choice.equal_shares);
  }
  run(flops.dense_other_quantized, Kernel::row_dot, Unit::int8, false);
  const bool float_equal_shares = build < kTinyBlasFloatChunkingBuild;
  run(flops.dense_f16, Kernel::tiled, Unit::fp32, float_equal_shares);
  run(flops.dense_bf16, Kernel::tiled, Unit::bf16, float_equal_shares);
  run(flops.dense_f32, Kernel::tiled, Unit::fp32, float_equal_shares);
  run(flops.expert_quantized, Kernel::expert_row_dot, Unit::int8, false);
  run(flops.expert_f16, Kernel::expert_row_dot, Unit::fp32, false);
  run(flops.expert_bf16, Kernel::expert_row_dot, Unit::bf16, false);
  run(flops.expert_f32, Kernel::expert_row_dot, Unit::fp32, false);
  // Attention against the f16 cache: flash attention one query row at a time (ops.cpp
  // ggml_compute_forward_flash_attn_ext_f16, vec_dot_f16); without it the KQ and KQV multiplies of
  // each head go to tinyBLAS's F16 kernel.
  if (request.flash_attention)
    run(flops.attention, Kernel::row_dot, Unit::fp32, false);
  else
    run(flops.attention, Kernel::tiled, Unit::fp32, float_equal_shares);

  const double total = tiled_share_flops + row_flops + expert_flops;
  const auto share = [&](double part) { return detail::four_significant_digits(total > 0 ? 100.0 * part / total : 0); };
  const bool hybrid = cpu.efficiency.cores > 0;
  out.rule = "CPU prompt (ggml-cpu): " + std::to_string(out.threads) + " threads (" +
             (request.threads ? "-t"
              : hybrid        ? (cpu.performance.smt ? "llama.cpp's default: one per performance core"
                                                     : "llama.cpp's default on a hybrid part without SMT: one per "
                                                       "two performance cores")
                              : "llama.cpp's default: one per core") +
             "; " + std::to_string(placement.performance) +
             (hybrid ? " performance, " + std::to_string(placement.efficiency) + " efficiency cores" : " cores") +
             "); tiled GEMM (tinyBLAS, repacked types) " + share(tiled_share_flops) + "% of the FLOPs at " +
             detail::two_decimals(kTiledEfficiency) + ", row-by-row dot products " + share(row_flops) + "% at " +
             detail::as_given(kRowDotEfficiency) + ", routed experts (MUL_MAT_ID) " + share(expert_flops) + "% at " +
             detail::as_given(kExpertRowDotEfficiency) +
             " of the int8 (VNNI/AVX2), bf16 or fp32 peak at the base clock" +
             (hybrid && placement.efficiency > 0
                  ? "; tinyBLAS's quantized kernels (and the repacked GEMM before b6889) give every thread an equal "
                    "share, so the efficiency cores set their pace"
                  : "");
  return out;
}

std::string local_cpu_generation_compute_rule(double compute_seconds, double read_seconds, int threads) {
  return "CPU generation: a token's multiplies on " + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads") + " take " + detail::three_significant_digits(compute_seconds * 1e3) +
         " ms at the CPU prompt's kernel rates (one token's activations), longer than its reads (" +
         detail::three_significant_digits(read_seconds * 1e3) +
         " ms), so the token waits on them (docs/local.md, \"Speed\")";
}

}  // namespace fitcheck
