// SPDX-License-Identifier: MIT
// The weights of a model as mlx_lm.convert stores them (mlx_weights.cpp), for the MLX LM estimate
// (mlx_estimate.cpp). Internal to the core.
#pragma once

#include <cstdint>

#include "fitcheck/mlx.hpp"
#include "fitcheck/model.hpp"

namespace fitcheck {

struct MlxWeights {
  std::int64_t quantized_parameters = 0;
  std::int64_t unquantized_parameters = 0;
  std::int64_t bytes = 0;                  // every tensor as stored: packed bits, scales and biases, the rest
  double matrix_parameters_per_token = 0;  // active weights a token multiplies, the output head apart
  double quantized_matrix_parameters = 0;  // of those, stored quantized (the qmm kernels' share)
  double decode_weight_bytes = 0;          // what a generated token reads
  double layer_weight_bytes = 0;           // what a prompt chunk reads: every layer's tensors, once
};

// `dtype_bytes`: the model's dtype (2 or 4), in which unquantized tensors, scales and biases are stored.
MlxWeights mlx_weights(const ModelDescription& model, const MlxQuantization& q, std::int64_t dtype_bytes);

}  // namespace fitcheck
