// SPDX-License-Identifier: MIT
// MLX LM on Apple silicon (docs/local.md, "MLX LM on Apple silicon"): weights as mlx_lm.convert
// quantizes them, the KV cache as mlx-lm's caches grow, the prefill's temporaries, and the speed of
// prompt and generation. Source: ml-explore/mlx-lm d78bf58e (0.32.0) and ml-explore/mlx 846d1762
// (0.32.1 + 26 commits).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "fitcheck/mlx.hpp"
#include "fitcheck/params.hpp"
#include "local/mlx_rules.hpp"

namespace fitcheck {
namespace {

// mlx-lm models/cache.py KVCache.step: the cache grows in blocks of 256 tokens.
constexpr std::int64_t kCacheStep = 256;
constexpr std::int64_t kMaxPromptChunks = 65536;

// Speed, read off published mlx_lm.benchmark runs (docs/local.md, "MLX LM on Apple silicon"). A
// generated token reads its weights and cache at a share of the chip's bandwidth and pays a fixed cost
// per kernel of its graph (mlx-lm builds each step's graph in Python and MLX encodes every kernel): both solved from
// the bf16 and 4-bit Qwen3-4B rows of mlx-lm's BENCHMARKS.md (M4 Max, p 2048, g 128; t = bytes /
// (546 GB/s x f) + 36 layers x c gives f = 0.905 and c = 64 us a layer of 20 kernels, mlx_layer_kernels).
// A prompt chunk runs at a share of the GPU's fp16 rate: the same table's bf16 row (MLX's steel GEMM on
// float weights) and its 4- and 8-bit rows (the quantized qmm kernels) give 0.88 and 0.78.
constexpr double kGenerationBandwidthFraction = 0.905;
constexpr double kSecondsPerKernel = 64e-6 / 20;
constexpr double kPromptComputeFloat = 0.88;
constexpr double kPromptComputeQuantized = 0.78;

// Buffers MLX holds after their last use: an op's inputs are released when its command buffer completes
// (mlx 846d1762 mlx/backend/metal/eval.cpp l.47-68), a command buffer is committed once its inputs pass
// max_mb MiB (device.cpp l.512-513: 40 on base and Pro chips, 50 on Max and Ultra, l.604-623), and eval
// waits only when more than MAX_ACTIVE_TASKS = 10 are in flight (transforms.cpp l.25, l.271). A prefill
// chunk whose temporaries are large holds up to eleven such buffers' inputs beside the live ones.
constexpr std::int64_t kCommandBuffersInFlight = 10 + 1;
std::int64_t command_buffer_bytes(const Accelerator& gpu) {
  const std::string_view name = gpu.name;
  const bool large = name.find(" Max") != std::string_view::npos || name.find(" Ultra") != std::string_view::npos;
  return (large ? 50 : 40) * (std::int64_t{1} << 20);
}

// Head dims for which mlx's fused prefill attention (the steel kernel) runs; the others fall back to
// materialized scores (mlx 846d1762 mlx/backend/metal/scaled_dot_product_attention.cpp l.633-767:
// the full kernel takes 64, 72, 80, 96 and 128, and use_fallback forces 192 and 256 off it).
bool fused_prefill_attention(std::int64_t head_dim) {
  return head_dim == 64 || head_dim == 72 || head_dim == 80 || head_dim == 96 || head_dim == 128;
}

std::string num(std::int64_t value) { return std::to_string(value); }

std::string gb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", bytes / 1e9);
  return text;
}

// The model's dtype for unquantized tensors, scales, biases, activations and the KV cache: convert casts
// every float parameter to the config's torch_dtype (mlx_lm/convert.py l.130-159); bf16 when it is absent.
std::string model_dtype(const ModelDescription& model, const std::string& requested) {
  if (!requested.empty()) return requested;
  if (model.stored_precision.torch_dtype == "float32") return "fp32";
  if (model.stored_precision.torch_dtype == "float16") return "fp16";
  return "bf16";
}

// One mlx-lm KVCache's slots after a sequence of updates (cache.py KVCache.update_and_fetch l.325-355):
// an update of S tokens that does not fit allocates ceil(S / 256) x 256 more slots, after trimming the
// buffer to the tokens it holds when that count is not a multiple of 256.
struct CacheGrowth {
  std::int64_t slots = 0;
  std::int64_t offset = 0;
  std::int64_t previous_slots = 0;  // the buffer the last growth copied (alive during the concatenate)
  void update(std::int64_t tokens) {
    if (slots > 0 && offset + tokens <= slots) {
      offset += tokens;
      return;
    }
    if (slots > 0 && offset % kCacheStep != 0) slots = offset;
    previous_slots = slots;
    slots += (tokens + kCacheStep - 1) / kCacheStep * kCacheStep;
    offset += tokens;
  }
};

// The prompt as generate_step feeds it (generate.py l.415-444): chunks of min(prefill_step, remaining - 1)
// while more than one token remains, then the last token alone.
std::vector<std::int64_t> prompt_chunks(std::int64_t prompt, std::int64_t step) {
  std::vector<std::int64_t> chunks;
  std::int64_t remaining = prompt;
  while (remaining > 1) {
    const std::int64_t size = std::min(step, remaining - 1);
    chunks.push_back(size);
    remaining -= size;
  }
  return chunks;
}

// The kernels one decoder layer of mlx-lm runs at one token (mlx_lm/models/qwen3.py, llama.py,
// qwen3_moe.py, switch_layers.py): the input norm and the residual add; the q, k and v products, the q
// and k norms where the model has them, RoPE on q and k, the cache's two slice updates, the fused
// attention, the copy that gathers the heads and the output product; then the MLP's norm, gate, up, the
// fused activation, down and the add (no gate: one fewer); or the MoE block's norm, router product,
// softmax, argpartition, take_along_axis, the top-k renormalization (sum and divide), the gate and up
// gather_qmm, the activation, the down gather_qmm, the weighting, the sum over experts and the add, with
// a shared expert's four kernels and add, and its sigmoid gate's three. A quantized product with a bias
// adds it in a kernel of its own (mlx nn/layers/quantized.py QuantizedLinear.__call__).
std::int64_t mlx_layer_kernels(const LayerShape& shape, bool quantized) {
  std::int64_t kernels = 2 + 3 + 2 + 2 + 1 + 1 + 1;  // norm, add; q k v; rope; cache; attention; heads copy; o
  if (shape.attention.query_norm_size > 0) kernels += 2;
  if (quantized && shape.attention.qkv_bias) kernels += shape.attention.key_without_bias ? 2 : 3;
  if (quantized && shape.attention.output_bias) kernels += 1;
  if (shape.is_moe()) {
    kernels += 14;
    if (shape.moe.num_shared_experts > 0) kernels += 5 + (shape.moe.shared_expert_gate ? 3 : 0);
  } else if (shape.mlp.intermediate_size > 0) {
    kernels += shape.mlp.gated ? 6 : 5;
  }
  return kernels;
}

struct LayerFigures {
  std::int64_t kv_width = 0;  // K and V values a token caches (kv heads x (head_dim + value_head_dim))
  std::int64_t window = 0;
  std::int64_t heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t value_head_dim = 0;
  std::int64_t kernels = 0;
};

}  // namespace

std::string mlx_conversion_suffix(const ModelDescription& model, const MlxRequest& request) {
  const MlxQuantization& q = request.quantization;
  if (q.bits == 0) return model_dtype(model, request.dtype);
  return std::to_string(q.bits) + "bit" + (q.group_size != 64 ? "-g" + std::to_string(q.group_size) : std::string());
}

MlxEstimate estimate_mlx(const ModelDescription& model, const MlxRequest& request) {
  if (!request.gpu.unified_memory || std::string_view(request.gpu.vendor) != "Apple")
    throw OptionError("gpu", std::string("option 'gpu': --engine mlx runs on Apple silicon; ") + request.gpu.name +
                                 " is not an Apple chip (see fitcheck gpus)");
  const MlxQuantization& q = request.quantization;
  if (q.bits != 0 && q.bits != 2 && q.bits != 3 && q.bits != 4 && q.bits != 5 && q.bits != 6 && q.bits != 8)
    throw OptionError("weights", "option 'weights': MLX's affine quantization takes 2, 3, 4, 5, 6 or 8 bits");
  if (q.group_size != 32 && q.group_size != 64 && q.group_size != 128)
    throw OptionError("group_size", "option 'group_size': MLX's affine quantization takes groups of 32, 64 or 128");
  if (request.prompt_len < 1) throw OptionError("prompt_len", "option 'prompt_len' must be at least 1");
  if (request.gen_len < 2)
    throw OptionError("gen_len",
                      "option 'gen_len' must be at least 2 (generation_tps times the tokens after the first)");
  if (request.prefill_step < 1) throw OptionError("prefill_step", "option 'prefill_step' must be at least 1");
  // Each chunk is timed layer by layer: a bound on the work (a 16M-token prompt in 1-token chunks is not a run).
  if ((request.prompt_len - 1) / request.prefill_step > kMaxPromptChunks)
    throw OptionError("prefill_step", "option 'prefill_step': the prompt would take more than " +
                                          std::to_string(kMaxPromptChunks) + " chunks; give a larger step");

  std::vector<LayerFigures> layers;
  for (std::uint16_t kind : model.layer_kind_of_layer) {
    const LayerShape& shape = model.layer_kinds[kind];
    const AttentionShape& a = shape.attention;
    const char* unmodelled = shape.is_ssm()           ? "state-space or linear-attention mixers"
                             : shape.is_encoder       ? "encoder-decoder models"
                             : !shape.has_attention() ? "layers without attention"
                             : a.is_multi_latent()    ? "multi-latent attention"
                             : a.cross_attention      ? "cross-attention layers"
                                                      : nullptr;
    if (unmodelled)
      throw OptionError("engine", std::string("option 'engine': fitcheck does not model MLX's caches for ") +
                                      unmodelled + " (model_type " + model.model_type + "); use --engine llamacpp");
    LayerFigures f;
    f.heads = a.num_heads;
    f.head_dim = a.head_dim;
    f.value_head_dim = a.value_head_dim > 0 ? a.value_head_dim : a.head_dim;
    f.kv_width = shape.kv_shared ? 0 : a.num_kv_heads * (f.head_dim + f.value_head_dim);
    f.window = a.sliding_window;
    f.kernels = mlx_layer_kernels(shape, q.bits > 0);
    layers.push_back(f);
  }
  if (layers.empty()) throw std::invalid_argument("the model has no decoder layers");

  MlxEstimate e;
  const std::string dtype_name = model_dtype(model, request.dtype);
  const std::int64_t dtype = dtype_name == "fp32" ? 4 : 2;

  const MlxWeights w = mlx_weights(model, q, dtype);
  e.quantized_parameters = w.quantized_parameters;
  e.unquantized_parameters = w.unquantized_parameters;
  e.weight_bytes = w.bytes;
  e.bits_per_weight = static_cast<double>(w.bytes) * 8 /
                      static_cast<double>(std::max<std::int64_t>(1, w.quantized_parameters + w.unquantized_parameters));
  e.weights = q.bits > 0 ? std::to_string(q.bits) + "-bit affine, group " + num(q.group_size) +
                               ", scales and biases in " + dtype_name
                         : std::string(dtype_name) + " (unquantized)";

  // The KV cache: a KVCache per full-attention layer; a RotatingKVCache of the window per sliding one,
  // which holds window - 1 + S tokens while a prompt chunk of S goes in (cache.py l.410-515).
  const std::vector<std::int64_t> chunks = prompt_chunks(request.prompt_len, request.prefill_step);
  CacheGrowth full;
  std::int64_t last_chunk_offset = 0, kv_before_last_chunk_slots = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i + 1 == chunks.size()) {
      last_chunk_offset = full.offset;
      kv_before_last_chunk_slots = full.slots;
    }
    full.update(chunks[i]);
  }
  const CacheGrowth after_prefill = full;
  const std::int64_t largest_chunk = chunks.empty() ? 1 : *std::max_element(chunks.begin(), chunks.end());
  // The last prompt token, then the generated ones; generate_step evaluates one step ahead (l.446-461).
  for (std::int64_t token = 0; token < request.gen_len + 1; ++token) full.update(1);
  e.kv_cache_slots = full.slots;
  const auto layer_slots = [&](const LayerFigures& f, std::int64_t slots, std::int64_t chunk) {
    if (f.window <= 0) return slots;
    return std::min(slots, f.window - 1 + chunk);
  };
  std::int64_t kv_end_bytes = 0, kv_prefill_bytes = 0, growth_copy_bytes = 0;
  for (const LayerFigures& f : layers) {
    kv_end_bytes += f.kv_width * layer_slots(f, full.slots, 1) * dtype;
    kv_prefill_bytes += f.kv_width * layer_slots(f, after_prefill.slots, largest_chunk) * dtype;
    // The last chunk grows the cache only when it does not fit the slots already allocated.
    if (after_prefill.slots > kv_before_last_chunk_slots)
      growth_copy_bytes =
          std::max(growth_copy_bytes, f.kv_width * layer_slots(f, kv_before_last_chunk_slots, largest_chunk) * dtype);
  }
  e.kv_cache_bytes = kv_end_bytes;

  // The last prefill chunk's live temporaries, the largest layer's: the residual and normed input, the
  // MLP's gate, up and their product (or the routed experts' k outputs each), or the attention's q, k,
  // v and output, with scores and the mask where the fused kernel does not run. MLX frees each array
  // when nothing refers to it, and the chunk's logits are never computed (only the caches' state is
  // evaluated, generate.py l.433). Beside them, the command buffers in flight hold inputs already used:
  // up to eleven buffers of max_mb each, or what the chunk's layers produce when that is less.
  const std::int64_t h = model.hidden_size;
  const std::int64_t chunk = chunks.empty() ? 1 : chunks.back();
  const std::int64_t span = last_chunk_offset + chunk;
  std::int64_t live_bytes = 0, produced_bytes = 0;
  bool scores_materialized = false;
  for (std::uint16_t kind : model.layer_kind_of_layer) {
    const LayerShape& shape = model.layer_kinds[kind];
    const AttentionShape& a = shape.attention;
    const std::int64_t value_dim = a.value_head_dim > 0 ? a.value_head_dim : a.head_dim;
    const std::int64_t projections = a.num_heads * a.head_dim + a.num_kv_heads * (a.head_dim + value_dim);
    std::int64_t attention_bytes = (2 * h + 2 * projections + a.num_heads * value_dim) * chunk * dtype;
    std::int64_t layer_produced_bytes = (2 * h + 2 * projections + a.num_heads * value_dim + 2 * h) * chunk * dtype;
    if (!fused_prefill_attention(a.head_dim)) {
      const std::int64_t keys = a.sliding_window > 0 ? std::min(span, a.sliding_window - 1 + chunk) : span;
      const std::int64_t scores_bytes =
          2 * a.num_heads * chunk * keys * dtype + chunk * keys;  // scores, softmax, bool mask
      attention_bytes += scores_bytes;
      layer_produced_bytes += scores_bytes;
      scores_materialized = true;
    }
    std::int64_t mlp_bytes = 0;
    if (shape.is_moe()) {
      const std::int64_t k = shape.moe.experts_per_token;
      mlp_bytes = (2 * h + 3 * k * shape.moe.expert_intermediate_size + k * h) * chunk * dtype;
    } else if (shape.mlp.intermediate_size > 0) {
      mlp_bytes = (2 * h + 3 * shape.mlp.intermediate_size) * chunk * dtype;
    }
    layer_produced_bytes += mlp_bytes + h * chunk * dtype;
    live_bytes = std::max({live_bytes, attention_bytes, mlp_bytes});
    produced_bytes += layer_produced_bytes;
  }
  const std::int64_t held_bytes = std::min(kCommandBuffersInFlight * command_buffer_bytes(request.gpu), produced_bytes);
  e.prefill_peak_bytes = kv_prefill_bytes + live_bytes + held_bytes + growth_copy_bytes;
  const std::int64_t logits_bytes = 2 * model.vocab_size * dtype;  // the last position's logits and log-probabilities
  const std::int64_t end_peak_bytes = kv_end_bytes + logits_bytes;
  const bool prefill_peaks = e.prefill_peak_bytes >= end_peak_bytes;
  e.peak_memory_bytes = w.bytes + std::max(e.prefill_peak_bytes, end_peak_bytes);
  e.working_set_bytes = request.gpu.gpu_working_set_bytes;
  e.fits = e.working_set_bytes <= 0 || e.peak_memory_bytes <= e.working_set_bytes;

  e.terms.push_back({"weights", w.bytes,
                     num(w.quantized_parameters) + " quantized parameters" +
                         (q.bits > 0 ? " x (" + std::to_string(q.bits) + " bits + 2 x " + num(dtype) + " B per " +
                                           num(q.group_size) + ")"
                                     : std::string()) +
                         " + " + num(w.unquantized_parameters) + " in " + dtype_name + " = " + num(w.bytes) + " B"});
  if (prefill_peaks) {
    e.terms.push_back({"KV cache after the prompt", kv_prefill_bytes,
                       num(after_prefill.slots) + " slots a full-attention layer (steps of 256) x K and V widths x " +
                           num(dtype) + " B = " + num(kv_prefill_bytes) + " B"});
    e.terms.push_back(
        {"last prefill chunk's live temporaries", live_bytes,
         num(chunk) + " tokens through the largest layer" +
             (scores_materialized ? std::string(", scores materialized (head_dim outside the fused kernel)")
                                  : std::string()) +
             " = " + num(live_bytes) + " B"});
    e.terms.push_back({"used inputs held by command buffers in flight", held_bytes,
                       "min(11 buffers x " + num(command_buffer_bytes(request.gpu) >> 20) + " MiB, the chunk's " +
                           num(produced_bytes) + " B of temporaries) = " + num(held_bytes) + " B"});
    if (growth_copy_bytes > 0)
      e.terms.push_back({"one layer's K and V during a cache growth", growth_copy_bytes,
                         "mx.concatenate copies the old buffer into a larger one = " + num(growth_copy_bytes) + " B"});
  } else {
    e.terms.push_back({"KV cache at the last token", kv_end_bytes,
                       num(full.slots) + " slots a full-attention layer (steps of 256) x K and V widths x " +
                           num(dtype) + " B = " + num(kv_end_bytes) + " B"});
    e.terms.push_back({"last token's logits and log-probabilities", logits_bytes,
                       "2 x " + num(model.vocab_size) + " vocabulary x " + num(dtype) + " B"});
  }

  // Generation: a token at the middle of the generation reads the weights it multiplies and the cache.
  const double gpu_bandwidth = request.gpu.memory_bandwidth_bytes_per_second;
  const auto kv_read = [&](double context) {
    double total = 0;
    for (const LayerFigures& f : layers)
      total += static_cast<double>(f.kv_width * dtype) *
               (f.window > 0 ? std::min(context, static_cast<double>(f.window)) : context);
    return total;
  };
  const double bandwidth = gpu_bandwidth * kGenerationBandwidthFraction;
  std::int64_t step_kernels = 0;
  for (const LayerFigures& f : layers) step_kernels += f.kernels;
  const double per_step = static_cast<double>(step_kernels) * kSecondsPerKernel;
  const auto step_seconds = [&](double context) {
    return (w.decode_weight_bytes + kv_read(context)) / bandwidth + per_step;
  };
  MlxTokenTime& token = e.generation_token_time;
  const double middle = static_cast<double>(request.prompt_len) + static_cast<double>(request.gen_len) / 2;
  token.weight_bytes = w.decode_weight_bytes;
  token.kv_bytes = kv_read(middle);
  token.bandwidth_fraction = kGenerationBandwidthFraction;
  token.bandwidth_bytes_per_second = bandwidth;
  token.kernels = step_kernels;
  token.seconds_per_kernel = kSecondsPerKernel;
  token.seconds = step_seconds(middle);
  // generation_tps counts the first token but times the gen_len - 1 steps after it (generate.py l.727).
  const auto gen = static_cast<double>(request.gen_len);
  e.generation_tokens_per_second = gen / ((gen - 1) * token.seconds);

  // Prompt: each chunk multiplies its tokens by every active matrix but the output head (its logits are
  // never evaluated) and attends causally to the cache, at the fp16 rate's share for float or quantized
  // weights, unless reading the layers' weights takes longer (short chunks); then the last token's step
  // yields the first token.
  MlxPromptTime& prompt = e.prompt_time;
  const double quantized_share =
      w.matrix_parameters_per_token > 0 ? w.quantized_matrix_parameters / w.matrix_parameters_per_token : 0;
  prompt.compute_fraction = kPromptComputeQuantized * quantized_share + kPromptComputeFloat * (1 - quantized_share);
  prompt.flops_per_second =
      request.gpu.dense_flops_per_second[static_cast<std::size_t>(ComputeDtype::fp16)] * prompt.compute_fraction;
  double chunk_compute_seconds = 0;
  std::int64_t offset = 0;
  for (std::int64_t size : chunks) {
    double chunk_flops = 2 * w.matrix_parameters_per_token * static_cast<double>(size);
    for (const LayerFigures& f : layers) {
      const double keys_before = f.window > 0
                                     ? std::min<double>(static_cast<double>(offset), static_cast<double>(f.window))
                                     : static_cast<double>(offset);
      const double pairs =
          static_cast<double>(size) * keys_before + static_cast<double>(size) * static_cast<double>(size + 1) / 2;
      chunk_flops += 2 * pairs * static_cast<double>(f.heads * (f.head_dim + f.value_head_dim));
    }
    prompt.flops += chunk_flops;
    chunk_compute_seconds += std::max(chunk_flops / prompt.flops_per_second, w.layer_weight_bytes / bandwidth);
    offset += size;
  }
  prompt.chunks = static_cast<std::int64_t>(chunks.size());
  prompt.chunk_seconds = per_step;
  prompt.first_token_seconds = step_seconds(static_cast<double>(request.prompt_len));
  prompt.seconds =
      chunk_compute_seconds + static_cast<double>(prompt.chunks) * prompt.chunk_seconds + prompt.first_token_seconds;
  e.prompt_tokens_per_second = static_cast<double>(request.prompt_len) / prompt.seconds;

  e.mlx_command = "mlx_lm.benchmark --model " + request.model_name + " -p " + num(request.prompt_len) + " -g " +
                  num(request.gen_len) +
                  (request.prefill_step != 2048 ? " --prefill-step-size " + num(request.prefill_step) : std::string());
  // The config readers' notes that the encoders' weights are in the inference memory do not hold here.
  for (const std::string& note : model.assumptions)
    if (!is_encoder_weights_note(note)) e.assumptions.push_back(note);
  e.assumptions.push_back(
      "MLX LM as ml-explore/mlx-lm d78bf58e runs it: weights quantized by mlx_lm.convert (Linear, Embedding and expert "
      "matrices whose input width divides into groups; routers at 8 bits), a KVCache growing in 256-token steps, the "
      "prompt in chunks of prefill_step_size whose logits are never computed");
  e.assumptions.push_back(
      "peak memory is mx.get_peak_memory(), active bytes (mlx_lm.benchmark prints it in GB = 1e9 B); MLX's allocator "
      "rounding and temporaries inside one kernel are not counted");
  if (model.vision || model.audio)
    e.assumptions.push_back("the language model alone: mlx-lm loads no vision or audio tower (mlx-vlm does)");
  e.assumptions.push_back(
      "speed: the bandwidth and compute fractions and the cost per kernel are read off published mlx_lm.benchmark "
      "runs (estimates; docs/local.md, \"MLX LM on Apple silicon\")");
  if (!e.fits)
    e.assumptions.push_back("the peak is above the GPU's working set (" + gb(static_cast<double>(e.working_set_bytes)) +
                            " GB): mlx-lm warns and macOS pages; raise it with sudo sysctl iogpu.wired_limit_mb");
  return e;
}

std::vector<MlxFormatRow> compare_mlx_formats(const ModelDescription& model, const MlxRequest& request) {
  // mlx-community's usual conversions: unquantized (the request's dtype if it asked for one) and mlx_lm.convert -q
  // at 8, 6, 5, 4 and 3 bits, largest first.
  std::vector<MlxFormatRow> rows;
  for (const int bits : {0, 8, 6, 5, 4, 3}) {
    MlxRequest each = request;
    each.quantization.bits = bits;
    MlxFormatRow row;
    const std::string suffix = mlx_conversion_suffix(model, each);
    row.weights = bits == 0 ? suffix : std::to_string(bits) + "bit";
    row.chosen = bits == request.quantization.bits;
    each.model_name = request.model_name + "-" + suffix;
    row.estimate = estimate_mlx(model, each);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fitcheck
