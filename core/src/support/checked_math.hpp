// SPDX-License-Identifier: MIT
// Overflow-checked products of sizes, cheap in the common case.
#pragma once

#include <bit>
#include <cstdint>

namespace fitcheck::detail {

// a x b into `product`; true when it does not fit in 64 bits. When the factors' bit lengths add
// up to at most 63 the product cannot overflow and is formed directly: WebAssembly has no
// overflow-detecting multiply, and __builtin_mul_overflow there is a 128-bit multiply call
// (__multi3), about a sixth of a full estimate's time in the WASM bench before this check.
inline bool product_overflows(std::int64_t a, std::int64_t b, std::int64_t& product) {
  const auto magnitude = [](std::int64_t v) {
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  };
  if (std::countl_zero(magnitude(a)) + std::countl_zero(magnitude(b)) >= 65) {
    product = a * b;
    return false;
  }
  return __builtin_mul_overflow(a, b, &product);
}

// a x b of training memory figures, or std::overflow_error ("the workload needs more than 2^63 bytes").
[[noreturn]] void refuse_training_overflow();
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (product_overflows(a, b, product)) refuse_training_overflow();
  return product;
}

}  // namespace fitcheck::detail
