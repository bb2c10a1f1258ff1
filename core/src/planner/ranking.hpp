// SPDX-License-Identifier: MIT
// The ranking and the frontier both planners keep (planner.cpp, planner_training.cpp): the best
// `keep` candidates by an objective's order, and the candidates no other covers on the two axes
// a user trades (speed and cost). Each planner says only what its order and its axes are.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace fitcheck::detail {

// The `keep` best candidates offered so far. `better(a, b)`: a strict weak order, a ranks before b.
// A heap with the worst kept candidate on top, so each offer costs O(log keep).
template <class Candidate, class Better>
class BestCandidates {
 public:
  BestCandidates(std::size_t keep, Better better) : keep_(keep), better_(std::move(better)) {}

  void offer(const Candidate& candidate) {
    if (kept_.size() < keep_) {
      kept_.push_back(candidate);
      std::push_heap(kept_.begin(), kept_.end(), better_);
    } else if (!kept_.empty() && better_(candidate, kept_.front())) {
      std::pop_heap(kept_.begin(), kept_.end(), better_);
      kept_.back() = candidate;
      std::push_heap(kept_.begin(), kept_.end(), better_);
    }
  }

  // The kept candidates, best first.
  std::vector<Candidate> take_sorted() {
    std::sort(kept_.begin(), kept_.end(), better_);
    return std::move(kept_);
  }

 private:
  std::size_t keep_;
  Better better_;
  std::vector<Candidate> kept_;
};

// Adds `candidate` to the frontier unless a kept one covers it, and drops the kept ones it covers.
// `covers(a, b)`: a is at least as good as b on both axes (so equal candidates keep the first).
template <class Candidate, class Covers>
void add_to_frontier(std::vector<Candidate>& frontier, const Candidate& candidate, Covers covers) {
  for (const auto& kept : frontier)
    if (covers(kept, candidate)) return;
  frontier.erase(
      std::remove_if(frontier.begin(), frontier.end(), [&](const Candidate& kept) { return covers(candidate, kept); }),
      frontier.end());
  frontier.push_back(candidate);
}

}  // namespace fitcheck::detail
