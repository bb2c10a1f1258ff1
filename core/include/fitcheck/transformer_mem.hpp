// SPDX-License-Identifier: MIT
// The classic per-GPU memory estimate for 3D-parallel transformer training and inference, as
// computed by the widely used `transformer_mem.py` calculator (EleutherAI cookbook,
// calc/calc_transformer_mem.py). Number-for-number compatible with it, quirks included; see
// docs/transformer-mem.md for where fitcheck's own estimates differ. Pure function, no I/O.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace fitcheck {

// Inputs, named and defaulted as the classic script's flags.
struct TransformerMemInputs {
  double params = 20e9;
  std::int64_t num_gpus = 1;
  std::int64_t tensor_parallel_size = 1;
  std::int64_t pipeline_parallel_size = 1;
  bool partition_activations = false;  // ZeRO-R: activations split again over tp
  int zero_stage = 1;                  // 0..3
  bool checkpoint_activations = false;
  std::int64_t batch_size_per_gpu = 1;
  std::int64_t hidden_size = 6144;
  std::int64_t num_attention_heads = 64;
  std::int64_t sequence_length = 2048;
  std::int64_t num_layers = 44;
  bool fp32_model = false;
  bool fp32_grads = false;
  double zero_allgather_bucket_size = 5e8;  // elements
  double zero3_max_live_params = 1e9;       // elements
  double misc_mem_gb = 0;                   // GiB (the script says "GB" but divides by 1024^3)
  bool infer = false;
};

// One term of the estimate: bytes per GPU and the formula with the inputs substituted.
struct TransformerMemTerm {
  double bytes = 0;
  std::string formula;
};

// Every term is filled whatever the mode; `total` sums the training terms (activations,
// gradients, model, optimizer, communication, misc) or, when `infer`, kv_cache + model + misc.
// The script sums GiB values, not bytes; total.bytes is that GiB sum times 1024^3, so
// total.bytes / 1024^3 reproduces the script's total exactly.
struct TransformerMemReport {
  TransformerMemTerm model, gradients, activations, optimizer, communication, kv_cache, miscellaneous, total;
  bool infer = false;
};

// Thrown for inputs that make no sense (a non-positive size, a ZeRO stage outside 0..3, ...).
// field() is the TransformerMemInputs member name, e.g. "num_gpus".
class TransformerMemInputError : public std::invalid_argument {
 public:
  TransformerMemInputError(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// Positive sizes (params, num_gpus, tp, pp, batch, hidden, heads, sequence, layers) are
// required; bucket, live params and misc must be >= 0. Throws TransformerMemInputError.
TransformerMemReport transformer_mem_report(const TransformerMemInputs& inputs);

inline constexpr double kTransformerMemBytesPerGib = 1024.0 * 1024.0 * 1024.0;

}  // namespace fitcheck
