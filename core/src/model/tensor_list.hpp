// SPDX-License-Identifier: MIT
// The weight-tensor list the parameter inventory is built in (params.cpp and the mixers of
// params_recurrent.cpp): a tensor of rows x columns (or a vector) per role, group and layer.
#pragma once

#include <cstdint>
#include <vector>

#include "fitcheck/params.hpp"

namespace fitcheck::detail {

class TensorList {
 public:
  explicit TensorList(std::vector<WeightTensor>& tensors) : tensors_(tensors) {}
  void add(TensorRole role, ParameterGroup group, std::int32_t layer, std::int64_t rows, std::int64_t columns,
           std::int64_t copies = 1) {
    if (rows > 0 && columns > 0 && copies > 0) tensors_.push_back({role, group, layer, rows, columns, copies});
  }
  // A vector parameter (norm weight, bias, sink logits).
  void vector(TensorRole role, ParameterGroup group, std::int32_t layer, std::int64_t length, std::int64_t copies = 1) {
    add(role, group, layer, 1, length, copies);
  }

 private:
  std::vector<WeightTensor>& tensors_;
};

}  // namespace fitcheck::detail
