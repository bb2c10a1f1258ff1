// SPDX-License-Identifier: MIT
// The capacity search against every threshold of small ranges: both ways find the last value that
// passes, and doubling from below tests no more sizes than twice the answer's bit length.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "support/largest_passing.hpp"

TEST_CASE("largest_passing and largest_passing_from_below find the last size that passes") {
  for (std::int64_t low = 1; low <= 3; ++low) {
    for (std::int64_t high = low; high <= 70; ++high) {
      for (std::int64_t threshold = low; threshold <= high; ++threshold) {
        CAPTURE(low);
        CAPTURE(high);
        CAPTURE(threshold);
        int tests = 0;
        const auto passes = [&](std::int64_t v) {
          ++tests;
          REQUIRE(v >= low);
          REQUIRE(v <= high);
          return v <= threshold;
        };
        CHECK(fitcheck::detail::largest_passing(low, high, passes) == threshold);
        tests = 0;
        CHECK(fitcheck::detail::largest_passing_from_below(low, high, passes) == threshold);
        CHECK(tests <= 2 * std::bit_width(static_cast<std::uint64_t>(threshold)) + 1);
      }
    }
  }
}

TEST_CASE("largest_passing_from_below under a cap of 2^24 finds a small answer in a few tests") {
  int tests = 0;
  const std::int64_t answer =
      fitcheck::detail::largest_passing_from_below(1, std::int64_t{1} << 24, [&](std::int64_t v) {
        ++tests;
        return v <= 13;
      });
  CHECK(answer == 13);
  CHECK(tests <= 8);  // 2, 4, 8, 16, then 12, 14, 13 between 8 and 15
  tests = 0;
  CHECK(fitcheck::detail::largest_passing_from_below(1, std::int64_t{1} << 24, [&](std::int64_t) {
          ++tests;
          return true;
        }) == std::int64_t{1} << 24);
  CHECK(tests == 24);  // doubling reaches the cap exactly: 2, 4, ..., 2^24
}
