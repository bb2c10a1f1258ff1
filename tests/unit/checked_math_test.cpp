// SPDX-License-Identifier: MIT
// The cheap overflow check against the compiler's: same verdict and product on edges and at random.
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <vector>

#include "support/checked_math.hpp"

TEST_CASE("product_overflows agrees with __builtin_mul_overflow") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::vector<std::int64_t> values = {0, 1, -1, 2, -2, 3, kMax, kMin, kMax - 1, kMin + 1};
  for (int bits = 1; bits < 63; ++bits) {
    const std::int64_t power = std::int64_t{1} << bits;
    for (std::int64_t v : {power - 1, power, power + 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  std::mt19937_64 engine(20261130);
  for (int i = 0; i < 2000; ++i)
    values.push_back(static_cast<std::int64_t>(engine() >> (engine() % 64)) * (i % 2 ? 1 : -1));
  std::int64_t pairs = 0, disagreements = 0;
  for (const std::int64_t a : values) {
    for (const std::int64_t b : values) {
      std::int64_t expected = 0;
      std::int64_t product = 0;
      const bool overflow = __builtin_mul_overflow(a, b, &expected);
      const bool agree =
          fitcheck::detail::product_overflows(a, b, product) == overflow && (overflow || product == expected);
      if (!agree && disagreements++ == 0) FAIL_CHECK("a = " << a << ", b = " << b);
      ++pairs;
    }
  }
  CHECK(disagreements == 0);
  CHECK(pairs > 5'000'000);
}
