// SPDX-License-Identifier: MIT
// The latency keys of an inference request.
#include "fitcheck/options.hpp"

#include <string>

#include "config/config_fields.hpp"

namespace fitcheck {

void read_latency_options(OptionReader& reader, InferenceRequest& request, bool context_given) {
  InferenceWorkload& w = request.workload;
  const bool prompt_given = reader.text("prompt_len").has_value();
  const bool generated_given = reader.text("gen_len").has_value();
  const std::int64_t generated = reader.count("gen_len", 256, 1, std::int64_t{1} << 31);
  const std::int64_t prompt_default = context_given ? std::max<std::int64_t>(1, w.context_tokens - generated) : 3840;
  const std::int64_t prompt = reader.count("prompt_len", prompt_default, 1, std::int64_t{1} << 31);
  request.lengths = {prompt, generated};
  if (!context_given) {
    w.context_tokens = prompt + generated;  // the cache holds the prompt and every generated token
  } else if ((prompt_given || generated_given) && w.context_tokens < prompt + generated) {
    throw OptionError("context", "option 'context' (" + std::to_string(w.context_tokens) +
                                     " tokens) is shorter than prompt_len + gen_len (" +
                                     std::to_string(prompt + generated) + ")");
  }
  request.lengths.shared_prefix_tokens = reader.count("shared_prefix", 0, 0, std::int64_t{1} << 31);
  if (request.lengths.shared_prefix_tokens >= prompt)
    throw OptionError("shared_prefix", "option 'shared_prefix' (" +
                                           std::to_string(request.lengths.shared_prefix_tokens) +
                                           " tokens) must be shorter than prompt_len (" + std::to_string(prompt) + ")");
  SpeculativeDecoding& spec = request.lengths.speculative;
  spec.draft_tokens = reader.count("spec_tokens", 0, 0, 64);
  const bool acceptance_given = reader.text("spec_acceptance").has_value();
  spec.acceptance_rate = reader.number("spec_acceptance", 0, 0, 1);
  spec.draft_layers = reader.number("spec_draft_layers", 1, 0, 1000);
  if (spec.draft_tokens > 0 && !acceptance_given)
    throw OptionError("spec_acceptance",
                      "option 'spec_acceptance' is required with spec_tokens: the share of draft tokens the target "
                      "accepts (published for EAGLE and MTP per model and dataset)");
  if (spec.draft_tokens == 0 && (acceptance_given || reader.text("spec_draft_layers")))
    throw OptionError("spec_tokens", "option 'spec_tokens' is required with spec_acceptance or spec_draft_layers");
  auto& overrides = request.latency_overrides;
  overrides.flops_efficiency = reader.number("flops_efficiency", -1, 0.01, 1.0);
  overrides.hbm_efficiency = reader.number("hbm_efficiency", -1, 0.01, 1.0);
  overrides.interconnect_efficiency = reader.number("interconnect_efficiency", -1, 0.01, 1.0);
  request.efficiency_given = overrides.flops_efficiency > 0 || overrides.hbm_efficiency > 0;
  overrides.price_per_gpu_hour_usd = reader.number("price_per_gpu_hour", -1, 0.0, 1e6);
  if (reader.text("fp8_activations")) overrides.fp8_activations = reader.flag("fp8_activations", true) ? 1 : 0;
  if (auto dispatcher = reader.text("moe_dispatcher")) {
    const auto found = find_moe_dispatcher(*dispatcher);
    if (!found)
      throw OptionError("moe_dispatcher", "option 'moe_dispatcher' must be alltoall or deepep, got '" +
                                              detail::printable(*dispatcher) + "'");
    if (*found == MoeDispatcher::deepep && w.layout.expert_parallel <= w.layout.tensor_parallel)
      throw OptionError("moe_dispatcher",
                        "option 'moe_dispatcher' deepep dispatches tokens to expert-parallel ranks: it needs ep (" +
                            std::to_string(w.layout.expert_parallel) + ") larger than tp (" +
                            std::to_string(w.layout.tensor_parallel) + ")");
    overrides.moe_dispatcher = *found;
  }
}

LatencyAssumptions latency_assumptions_for(const InferenceRequest& request, const Accelerator& gpu) {
  LatencyAssumptions assumptions = default_latency_assumptions(gpu);
  const auto& overrides = request.latency_overrides;
  if (overrides.flops_efficiency > 0) assumptions.flops_efficiency = overrides.flops_efficiency;
  if (overrides.hbm_efficiency > 0) assumptions.hbm_efficiency = overrides.hbm_efficiency;
  if (overrides.interconnect_efficiency > 0) assumptions.interconnect_efficiency = overrides.interconnect_efficiency;
  if (overrides.price_per_gpu_hour_usd >= 0) assumptions.price_per_gpu_hour_usd = overrides.price_per_gpu_hour_usd;
  if (overrides.fp8_activations >= 0) assumptions.fp8_activations = overrides.fp8_activations == 1;
  assumptions.moe_dispatcher = overrides.moe_dispatcher;
  return assumptions;
}

}  // namespace fitcheck
