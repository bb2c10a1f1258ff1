// SPDX-License-Identifier: MIT
// The capacity answers' search (largest batch, context, micro-batch, sequence): the largest size a
// monotone test of the memory model passes.
#pragma once

#include <algorithm>
#include <cstdint>

namespace fitcheck::detail {

// The largest value in [low, high] that `passes`, given that `passes(low)` holds and that a value
// passes whenever a larger one does: bisection, about log2(high - low) tests.
template <class Predicate>
std::int64_t largest_passing(std::int64_t low, std::int64_t high, Predicate passes) {
  while (low < high) {
    const std::int64_t middle = low + (high - low + 1) / 2;
    if (passes(middle))
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

// The same answer, found by doubling from `low` until a test fails and then bisecting: about
// 2 log2(answer / low) tests, fewer than bisection when the answer is far below `high` (a largest
// micro-batch of 13 under a cap of 2^24).
template <class Predicate>
std::int64_t largest_passing_from_below(std::int64_t low, std::int64_t high, Predicate passes) {
  for (std::int64_t step = 1; low < high; step *= 2) {
    const std::int64_t next = low + std::min(step, high - low);
    if (!passes(next)) return largest_passing(low, next - 1, passes);
    low = next;
  }
  return low;
}

}  // namespace fitcheck::detail
