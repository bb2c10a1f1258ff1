// SPDX-License-Identifier: MIT
// The classic transformer_mem estimate. Every term is evaluated in the same order and with the
// same int/float mix as the script, so that its 2-decimal GiB printout is reproduced exactly:
// Python multiplies integers exactly and rounds once when a float enters, and int / int is a
// correctly rounded true division; both match IEEE double arithmetic while the integers stay
// below 2^53.
//
// Sources of the formulas:
// - Activations per layer: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//   Transformer Models", Table 2. Without parallelism s*b*h*(34 + 5*a*s/h); with tensor
//   parallelism t: s*b*h*(10 + 24/t + 5*a*s/(h*t)); with selective recomputation
//   s*b*h*(10 + 24/t). The script uses the last one for "--checkpoint-activations".
// - Model states: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
//   Parameter Models", section 3.1: 2 + 2 + 12 bytes per parameter under mixed-precision Adam;
//   stages 1/2/3 shard optimizer states / + gradients / + parameters.
#include "fitcheck/transformer_mem.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <string>

namespace fitcheck {
namespace {

// Integers print without a fraction; anything else in shortest round-trip form.
std::string num(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e18) {
    return std::to_string(static_cast<std::int64_t>(value));
  }
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string num(std::int64_t value) { return std::to_string(value); }

// Product of non-negative integers as Python forms it: exact, then one rounding to double.
// Past int64 the rest is multiplied in doubles (only reachable with absurd inputs).
double exact_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t exact = 1;
  double approx = 0;
  bool overflowed = false;
  for (const std::int64_t factor : factors) {
    if (overflowed) {
      approx *= static_cast<double>(factor);
    } else if (factor != 0 && exact > std::numeric_limits<std::int64_t>::max() / factor) {
      overflowed = true;
      approx = static_cast<double>(exact) * static_cast<double>(factor);
    } else {
      exact *= factor;
    }
  }
  return overflowed ? approx : static_cast<double>(exact);
}

void require_positive(std::int64_t value, const char* field) {
  if (value < 1) {
    throw TransformerMemInputError(field, std::string(field) + " must be at least 1 (got " + num(value) + ")");
  }
}

void require_non_negative(double value, const char* field) {
  if (!(std::isfinite(value) && value >= 0)) {
    throw TransformerMemInputError(field,
                                   std::string(field) + " must be a finite number >= 0 (got " + num(value) + ")");
  }
}

void validate(const TransformerMemInputs& in) {
  if (!(std::isfinite(in.params) && in.params > 0)) {
    throw TransformerMemInputError("params", "params must be a finite number > 0 (got " + num(in.params) + ")");
  }
  require_positive(in.num_gpus, "num_gpus");
  require_positive(in.tensor_parallel_size, "tensor_parallel_size");
  require_positive(in.pipeline_parallel_size, "pipeline_parallel_size");
  if (in.zero_stage < 0 || in.zero_stage > 3) {
    throw TransformerMemInputError("zero_stage",
                                   "zero_stage must be 0, 1, 2 or 3 (got " + std::to_string(in.zero_stage) + ")");
  }
  require_positive(in.batch_size_per_gpu, "batch_size_per_gpu");
  require_positive(in.hidden_size, "hidden_size");
  require_positive(in.num_attention_heads, "num_attention_heads");
  require_positive(in.sequence_length, "sequence_length");
  require_positive(in.num_layers, "num_layers");
  require_non_negative(in.zero_allgather_bucket_size, "zero_allgather_bucket_size");
  require_non_negative(in.zero3_max_live_params, "zero3_max_live_params");
  require_non_negative(in.misc_mem_gb, "misc_mem_gb");
}

}  // namespace

TransformerMemReport transformer_mem_report(const TransformerMemInputs& in) {
  validate(in);
  const std::int64_t tp = in.tensor_parallel_size;
  const std::int64_t pp = in.pipeline_parallel_size;
  const std::int64_t gpus = in.num_gpus;
  const std::int64_t s = in.sequence_length;
  const std::int64_t b = in.batch_size_per_gpu;
  const std::int64_t h = in.hidden_size;
  const std::int64_t a = in.num_attention_heads;
  const std::int64_t layers = in.num_layers;
  const int zero = in.zero_stage;
  const std::string params = "params " + num(in.params);
  const std::string gpus_text = "num_gpus " + num(gpus);

  TransformerMemReport r;
  r.infer = in.infer;

  // Weights: 2 bytes (fp16/bf16) or 4 (fp32), split by tp*pp; ZeRO-3 then also divides by
  // every GPU, not by the data-parallel degree.
  const std::int64_t bytes_per_param = in.fp32_model ? 4 : 2;
  r.model.bytes = in.params * static_cast<double>(bytes_per_param) / exact_product({tp, pp});
  r.model.formula = params + " x " + num(bytes_per_param) + " bytes / (tp " + num(tp) + " x pp " + num(pp) + ")";
  if (zero == 3) {
    r.model.bytes /= static_cast<double>(gpus);
    r.model.formula += " / " + gpus_text + " (ZeRO-3)";
  }

  // Gradients: ZeRO-2+ shards over all GPUs; split by pp but not by tp.
  const std::int64_t bytes_per_grad = in.fp32_grads ? 4 : 2;
  r.gradients.bytes = in.params * static_cast<double>(bytes_per_grad);
  r.gradients.formula = params + " x " + num(bytes_per_grad) + " bytes";
  if (zero >= 2) {
    r.gradients.bytes /= static_cast<double>(gpus);
    r.gradients.formula += " / " + gpus_text + " (ZeRO-2+)";
  }
  r.gradients.bytes /= static_cast<double>(pp);
  r.gradients.formula += " / pp " + num(pp);

  // Adam states: fp32 master copy + momentum + variance = 12 bytes under mixed precision,
  // momentum + variance = 8 bytes for an fp32 model. Not split by tp or pp.
  const std::int64_t optimizer_bytes_per_param = in.fp32_model ? 8 : 12;
  r.optimizer.bytes = in.params * static_cast<double>(optimizer_bytes_per_param);
  r.optimizer.formula = params + " x " + num(optimizer_bytes_per_param) + " bytes";
  if (zero >= 1) {
    r.optimizer.bytes /= static_cast<double>(gpus);
    r.optimizer.formula += " / " + gpus_text + " (ZeRO-1+)";
  }

  // DeepSpeed's allgather bucket (ZeRO-1+) and ZeRO-3's live-parameter window.
  r.communication.bytes = 0;
  r.communication.formula = "0 (ZeRO-0)";
  if (zero >= 1) {
    r.communication.bytes += in.zero_allgather_bucket_size * static_cast<double>(bytes_per_param);
    r.communication.formula = "bucket " + num(in.zero_allgather_bucket_size) + " x " + num(bytes_per_param) + " bytes";
  }
  if (zero == 3) {
    r.communication.bytes += in.zero3_max_live_params * static_cast<double>(bytes_per_param);
    r.communication.formula +=
        " + live params " + num(in.zero3_max_live_params) + " x " + num(bytes_per_param) + " bytes";
  }

  // Activations for all layers on one GPU (pp does not divide them: with a 1F1B schedule the
  // first stage holds pp micro-batches of layers/pp layers each).
  const double sbhl = exact_product({s, b, h, layers});
  const std::string sbhl_text = "s " + num(s) + " x b " + num(b) + " x h " + num(h) + " x L " + num(layers);
  const double per_element = 10.0 + 24.0 / static_cast<double>(tp);
  if (in.checkpoint_activations) {
    r.activations.bytes = sbhl * per_element;
    r.activations.formula = sbhl_text + " x (10 + 24/tp " + num(tp) + ")";
  } else {
    const double attention_scores = exact_product({a, s}) / exact_product({h, tp});
    r.activations.bytes = sbhl * (per_element + 5.0 * attention_scores);
    r.activations.formula = sbhl_text + " x (10 + 24/tp " + num(tp) + " + 5 x a " + num(a) + " x s " + num(s) +
                            " / (h " + num(h) + " x tp " + num(tp) + "))";
  }
  if (in.partition_activations) {
    r.activations.bytes /= static_cast<double>(tp);
    r.activations.formula += " / tp " + num(tp) + " (partitioned)";
  }

  // K and V for every layer and head at the full sequence; no batch factor, no GQA.
  r.kv_cache.bytes = exact_product({bytes_per_param, 2, layers, a}) *
                     (static_cast<double>(h) / static_cast<double>(a)) * static_cast<double>(s);
  r.kv_cache.formula = num(bytes_per_param) + " bytes x 2 x L " + num(layers) + " x a " + num(a) + " x (h " + num(h) +
                       " / a " + num(a) + ") x s " + num(s);

  r.miscellaneous.bytes = in.misc_mem_gb * kTransformerMemBytesPerGib;
  r.miscellaneous.formula = "misc " + num(in.misc_mem_gb) + " GiB";

  // The script adds GiB values in this order; scaling by 2^30 is exact both ways.
  const auto gib = [](const TransformerMemTerm& term) { return term.bytes / kTransformerMemBytesPerGib; };
  double total_gib = 0;
  if (in.infer) {
    total_gib = gib(r.kv_cache) + gib(r.model) + in.misc_mem_gb;
    r.total.formula = "kv_cache + model + misc";
  } else {
    total_gib =
        gib(r.activations) + gib(r.gradients) + gib(r.model) + gib(r.optimizer) + gib(r.communication) + in.misc_mem_gb;
    r.total.formula = "activations + gradients + model + optimizer + communication + misc";
  }
  r.total.bytes = total_gib * kTransformerMemBytesPerGib;
  return r;
}

}  // namespace fitcheck
