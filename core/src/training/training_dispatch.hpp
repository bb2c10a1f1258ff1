// SPDX-License-Identifier: MIT
// The copies of one token an expert-parallel dispatch sends, by dispatcher and routing.
#pragma once

#include "fitcheck/training_workload.hpp"

namespace fitcheck::detail {

// Per token and per dispatch (or combine), in token-sized messages: those a GPU sends over NVLink
// (to ranks of its own node, or forwarding RDMA arrivals to them) and those that leave through its NIC.
struct ExpertCopies {
  double nvlink = 0, network = 0;
};

// experts and top_k of the layer; ep ranks, of which ranks_per_node share one node's NVLink.
ExpertCopies expert_dispatch_copies(double experts, double top_k, double ep, double ranks_per_node,
                                    MoeDispatcher dispatcher, MoeRouting routing);

}  // namespace fitcheck::detail
