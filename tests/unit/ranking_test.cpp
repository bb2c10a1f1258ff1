// SPDX-License-Identifier: MIT
// The planners' shared ranking and frontier (core/src/planner/ranking.hpp) on hand-made candidates.
#include <doctest/doctest.h>

#include <vector>

#include "planner/ranking.hpp"

namespace {

struct Candidate {
  int id = 0;
  double speed = 0;  // higher is better
  double cost = 0;   // lower is better
};

bool faster(const Candidate& a, const Candidate& b) { return a.speed > b.speed; }
bool covers(const Candidate& a, const Candidate& b) { return a.speed >= b.speed && a.cost <= b.cost; }

std::vector<int> ids(const std::vector<Candidate>& candidates) {
  std::vector<int> out;
  for (const auto& c : candidates) out.push_back(c.id);
  return out;
}

}  // namespace

TEST_CASE("BestCandidates keeps the best `keep` offered, best first") {
  fitcheck::detail::BestCandidates<Candidate, decltype(&faster)> best(3, &faster);
  for (const Candidate& c : {Candidate{1, 5, 0}, Candidate{2, 9, 0}, Candidate{3, 1, 0}, Candidate{4, 7, 0},
                             Candidate{5, 8, 0}, Candidate{6, 2, 0}})
    best.offer(c);
  // Speeds 5, 9, 1, 7, 8, 2: the three fastest are 9 (id 2), 8 (id 5), 7 (id 4).
  CHECK(ids(best.take_sorted()) == std::vector<int>{2, 5, 4});
  fitcheck::detail::BestCandidates<Candidate, decltype(&faster)> fewer(5, &faster);
  fewer.offer({1, 3, 0});
  fewer.offer({2, 4, 0});
  CHECK(ids(fewer.take_sorted()) == std::vector<int>{2, 1});  // fewer offered than kept: all of them
}

TEST_CASE("add_to_frontier keeps what no other covers, the first of equals, and drops what a newcomer covers") {
  std::vector<Candidate> frontier;
  fitcheck::detail::add_to_frontier(frontier, {1, 10, 5}, covers);
  fitcheck::detail::add_to_frontier(frontier, {2, 5, 2}, covers);   // slower but cheaper: kept
  fitcheck::detail::add_to_frontier(frontier, {3, 4, 3}, covers);   // slower and dearer than 2: not kept
  fitcheck::detail::add_to_frontier(frontier, {4, 10, 5}, covers);  // equal to 1: the first stays
  CHECK(ids(frontier) == std::vector<int>{1, 2});
  fitcheck::detail::add_to_frontier(frontier, {5, 12, 2}, covers);  // faster and as cheap as both: replaces them
  CHECK(ids(frontier) == std::vector<int>{5});
}
