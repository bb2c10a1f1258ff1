// SPDX-License-Identifier: MIT
// Expert-parallel dispatch copies.
//
// Megatron-Core's alltoall dispatcher (NVIDIA/Megatron-LM d98e8a64 megatron/core/transformer/moe/
// token_dispatcher.py MoEAlltoAllTokenDispatcher) permutes the tokens by expert and all-to-alls the
// permuted tensor: a token goes out once per expert it is routed to (top-k copies), to whichever rank
// holds the expert, over NVLink within the node and through the NIC beyond it.
//
// DeepEP (deepseek-ai/DeepEP README, "normal kernels": NVLink and RDMA forwarding; Megatron-Core's
// flex dispatcher, megatron/core/transformer/moe/fused_a2a.py, hands it the routing map) computes a
// dispatch layout first (Buffer.get_dispatch_layout: num_tokens_per_rank, num_tokens_per_rdma_rank,
// is_token_in_rank) and sends a token once to each rank that holds any of its experts; across nodes
// it sends one RDMA copy per destination node, to the GPU of the same local index, which forwards it
// over NVLink to the ranks of its node that need it. The combine returns the same copies.
#include "fitcheck/expert_dispatch.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <string>

namespace fitcheck {
namespace {

std::string normalized(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Probability that none of a token's k distinct experts, drawn uniformly from E, is among a set of
// `held` experts: C(E - held, k) / C(E, k).
double miss_probability(double experts, double top_k, double held) {
  if (held <= 0) return 1;
  if (experts - held < top_k) return 0;
  double p = 1;
  for (int i = 0; i < static_cast<int>(top_k); ++i) p *= (experts - held - i) / (experts - i);
  return p;
}

// Round robin: a token's experts are k consecutive ones from t*k (mod E); the mean number of
// distinct groups of `group` consecutive experts they touch, over the start positions t*k takes.
double round_robin_groups(double experts, double top_k, double group) {
  const long e = std::lround(experts), k = std::lround(top_k), g = std::max(1L, std::lround(group));
  if (e <= 0 || k <= 0) return 0;
  const long starts = e / std::gcd(e, k);  // t*k mod E cycles through this many positions
  double total = 0;
  for (long t = 0; t < starts; ++t) {
    // The experts are an arc of the circle of E, so their groups are visited in order, each once,
    // except that an arc wrapping round may end in the group it started in.
    const long first = (t * k % e) / g;
    long groups = 1, previous = first;
    for (long j = 1; j < std::min(k, e); ++j) {
      const long current = ((t * k + j) % e) / g;
      if (current != previous) ++groups;
      previous = current;
    }
    if (groups > 1 && previous == first) --groups;
    total += static_cast<double>(groups);
  }
  return total / static_cast<double>(starts);
}

}  // namespace

const char* moe_dispatcher_name(MoeDispatcher dispatcher) {
  return dispatcher == MoeDispatcher::deepep ? "deepep" : "alltoall";
}

std::optional<MoeDispatcher> find_moe_dispatcher(std::string_view id) {
  const std::string key = normalized(id);
  if (key == "alltoall" || key == "all-to-all") return MoeDispatcher::all_to_all;
  // HybridEP (DeepEP's hybrid-ep branch) and Megatron's flex dispatcher send the same copies.
  if (key == "deepep" || key == "hybridep" || key == "flex") return MoeDispatcher::deepep;
  return std::nullopt;
}

const char* moe_routing_name(MoeRouting routing) {
  return routing == MoeRouting::round_robin ? "round-robin" : "random";
}

std::optional<MoeRouting> find_moe_routing(std::string_view id) {
  const std::string key = normalized(id);
  if (key == "random") return MoeRouting::random;
  if (key == "round-robin" || key == "roundrobin") return MoeRouting::round_robin;
  return std::nullopt;
}

ExpertCopies expert_dispatch_copies(double experts, double top_k, double ep, double ranks_per_node,
                                    MoeDispatcher dispatcher, MoeRouting routing) {
  ExpertCopies c;
  if (ep <= 1 || experts <= 0 || top_k <= 0) return c;
  const double g = std::clamp(ranks_per_node, 1.0, ep);  // ep ranks on one node
  if (dispatcher == MoeDispatcher::all_to_all) {
    // One copy per expert; the experts' ranks spread evenly over the ep group.
    c.nvlink = top_k * (g - 1) / ep;
    c.network = top_k * (ep - g) / ep;
    return c;
  }
  const double per_rank = experts / ep, per_node = per_rank * g, nodes = ep / g;
  // Distinct destination ranks and nodes of one token (its own among them with chance 1/ep, 1/nodes).
  double ranks = 0, node_count = 0;
  if (routing == MoeRouting::round_robin) {
    ranks = round_robin_groups(experts, top_k, per_rank);
    node_count = round_robin_groups(experts, top_k, per_node);
  } else {
    ranks = ep * (1 - miss_probability(experts, top_k, per_rank));
    node_count = nodes * (1 - miss_probability(experts, top_k, per_node));
  }
  // RDMA: one copy per other node. NVLink: every delivery to a rank that is not the GPU the copy
  // arrived at (a send within the node, or a forward on the destination node): (g - 1) / g of them.
  c.network = node_count * (nodes - 1) / nodes;
  c.nvlink = ranks * (g - 1) / g;
  return c;
}

}  // namespace fitcheck
