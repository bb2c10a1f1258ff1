// SPDX-License-Identifier: MIT
// Expert-parallel dispatch: how a MoE layer's tokens reach the ranks that hold their experts, and
// the copies of one token that leave a GPU over NVLink and through its NIC. Training's step time
// and serving's latency both time their dispatch and combine from expert_dispatch_copies().
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fitcheck {

// How MoE tokens reach the ranks that hold their experts: NCCL all-to-all with one copy per
// (token, expert) pair (Megatron-Core's alltoall dispatcher permutes the tokens by expert), or
// DeepEP's dispatch (and NVIDIA's HybridEP, Megatron's flex dispatcher, NeMo AutoModel's default):
// one copy per destination rank, and across nodes one RDMA copy per destination node that the
// receiving GPU forwards over NVLink.
enum class MoeDispatcher : std::uint8_t { all_to_all, deepep };

// How the router spreads a token's top-k experts: independently at random over the experts (a
// trained, balanced router; Megatron's moe_router_force_load_balancing draws random logits), or
// round robin (NeMo AutoModel's FakeBalancedGate: a rank's token t gets experts t*k ... t*k+k-1,
// modulo the expert count).
enum class MoeRouting : std::uint8_t { random, round_robin };

const char* moe_dispatcher_name(MoeDispatcher dispatcher);              // "alltoall", "deepep"
std::optional<MoeDispatcher> find_moe_dispatcher(std::string_view id);  // also "hybridep", "flex"
const char* moe_routing_name(MoeRouting routing);                       // "random", "round-robin"
std::optional<MoeRouting> find_moe_routing(std::string_view id);

// Per token and per dispatch (or combine), in token-sized messages: those a GPU sends over NVLink
// (to ranks of its own node, or forwarding RDMA arrivals to them) and those that leave through its NIC.
struct ExpertCopies {
  double nvlink = 0, network = 0;
};

// experts and top_k of the layer; ep ranks, of which ranks_per_node share one node's NVLink.
ExpertCopies expert_dispatch_copies(double experts, double top_k, double ep, double ranks_per_node,
                                    MoeDispatcher dispatcher, MoeRouting routing);

// DeepEP's transfers reach this share of a link: its README (deepseek-ai/DeepEP docs/legacy.md,
// "Performance", H800 with CX7 400 Gb/s NICs, ~50 GB/s) measures 43 GB/s through the NIC for the
// normal kernels at EP 16 and for the low-latency dispatch at EP 64 (normal 43-58 GB/s from EP 16
// to 64, low-latency 39-53 GB/s from EP 32 to 256), and 153-158 GB/s over NVLink within a node of
// ~160 GB/s.
inline constexpr double kDeepEpLinkShare = 0.86;

// Bytes per element of an FP8 dispatch: one byte and a float32 scale per 128 elements (SGLang's
// sglang_per_token_group_quant_fp8(hidden_states, 128) before DeepEP's normal dispatch; DeepEP's
// low_latency_dispatch(use_fp8=True) packs the same scales).
inline constexpr double kFp8DispatchBytesPerElement = 1.0 + 4.0 / 128.0;

}  // namespace fitcheck
