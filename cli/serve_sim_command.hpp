// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace fitcheck::cli {

// fitcheck serve-sim CONFIG.json --gpu NAME --prompt-len N --gen-len N (--concurrency N |
//   --arrival-rate R) [--requests N --max-num-seqs N --max-num-batched-tokens N --seed N ... --json]:
// a continuous-batching simulation (docs/serving.md). Returns the exit status.
int run_serve_sim(const std::vector<std::string>& args);

}  // namespace fitcheck::cli
