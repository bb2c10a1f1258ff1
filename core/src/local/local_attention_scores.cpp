// SPDX-License-Identifier: MIT
// A prompt's attention: with flash attention the query/key pairs it attends, masked tiles skipped; without
// it the scores llama.cpp materializes for every ubatch, and what moving them through memory costs a
// prompt (docs/local.md, "Attention scores without flash attention"). Both after `depth` cached tokens.
#include <algorithm>
#include <cmath>
#include <string>

#include "local/local_rules.hpp"

namespace fitcheck {
namespace {

// Without flash attention llama.cpp materializes each attention layer's scores, KQ (n_kv x n_tokens x
// n_head, f32), for every ubatch (src/llama-graph.cpp build_attn_mha: MUL_MAT k q at GGML_PREC_F32,
// SOFT_MAX, MUL_MAT v kq), and they pass through memory: 4 bytes written by the KQ product, 4 read and
// 4 written by the softmax, and on CUDA (ROCm builds the same file) 4 read and 2 written converting them
// to f16 for cuBLAS, which reads those 2 (ggml-cuda.cu ggml_cuda_mul_mat_batched_cublas: src1 to f16):
// 20 bytes a score. Metal's kernel_mul_mm reads the f32 scores itself, once per 64-row tile of the
// 128-row head: 4 + 8 + 8, the same 20; the CPU converts them to f16 like CUDA. Vulkan and SYCL are
// taken alike. The mask the softmax reads, shared by every head, is left out.
constexpr double kMaterializedScoreBytes = 20;

}  // namespace

// Each ubatch's tokens x the cells it attends to (the cache up to its last token, at most the layer's
// cells; llama.cpp's n_kv), all of them multiplied, masked or not. Full ubatches j = 1..F end at
// depth + j x ubatch; the last, partial one ends at the prompt's end.
double materialized_scores_per_head(double tokens, double ubatch, double layer_cells, double depth) {
  const double full = std::floor(tokens / ubatch);
  // Full ubatches that end within the cells: depth + j x ubatch <= layer_cells.
  const double below_cells = std::clamp(std::floor((layer_cells - depth) / ubatch), 0.0, full);
  const double remainder = tokens - full * ubatch;
  return ubatch * (below_cells * depth + ubatch * below_cells * (below_cells + 1) / 2) +
         (full - below_cells) * ubatch * layer_cells + remainder * std::min(layer_cells, depth + tokens);
}

// Query/key pairs of a causal prompt of `tokens` after `depth` cached ones, each query attending at
// most `layer_cells` keys: the sum over i in (0, tokens] of min(depth + i, layer_cells), in the
// continuous form (tokens^2 / 2 for an uncapped prompt from an empty cache).
double prompt_attention_pairs(double tokens, double depth, double layer_cells) {
  if (layer_cells <= depth) return tokens * layer_cells;
  const double uncapped = std::min(tokens, layer_cells - depth);  // queries below the cap
  return uncapped * depth + uncapped * uncapped / 2 + (tokens - uncapped) * layer_cells;
}

double materialized_score_bytes(double scores) { return kMaterializedScoreBytes * scores; }

std::string materialized_scores_rule(double prompt_time_share) {
  return "prompt: without flash attention each ubatch writes every layer's attention scores (n_kv x tokens x "
         "n_head, f32) to memory and reads them back, " +
         std::to_string(static_cast<int>(kMaterializedScoreBytes)) +
         " bytes a score through the softmax and the KQV product (llama-graph.cpp build_attn_mha): " +
         std::to_string(static_cast<int>(std::lround(100 * prompt_time_share))) + "% of the prompt's work";
}

}  // namespace fitcheck
