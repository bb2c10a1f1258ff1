// SPDX-License-Identifier: MIT
// Exact parameter counts. The model is first expanded into its weight tensors (the shapes a
// checkpoint would hold); counts and per-format weight bytes are sums over that one inventory.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "fitcheck/model.hpp"

namespace fitcheck {

// What a tensor does; quantization formats keep some roles in 16-bit or give them more bits.
enum class TensorRole : std::uint8_t {
  token_embedding,
  position_embedding,
  lm_head,
  attention_query,       // q_proj (MLA: q_b_proj when q_lora_rank > 0)
  attention_query_down,  // MLA q_a_proj
  attention_key,
  attention_value,
  attention_kv_down,  // MLA kv_a_proj_with_mqa
  attention_kv_up,    // MLA kv_b_proj
  attention_output,
  mlp_gate,
  mlp_up,
  mlp_down,
  expert_gate,  // routed experts (copies = number of experts)
  expert_up,
  expert_down,
  shared_expert_gate,  // always-active shared experts
  shared_expert_up,
  shared_expert_down,
  router,  // expert routing matrix and shared-expert gate
  norm,
  bias,
  attention_sink,
  relative_position_bias,
  ssm_in_projection,  // Mamba-2 in_proj: hidden -> [z, x, B, C, dt]
  ssm_convolution,    // depthwise causal conv1d weight (channels x kernel)
  ssm_output,         // out_proj
  ssm_parameter,      // per-head A_log, D, dt_bias
};

// The routed experts' matrices (expert_gate, expert_up, expert_down), which MoE rules treat apart.
constexpr bool is_routed_expert(TensorRole role) {
  return role == TensorRole::expert_gate || role == TensorRole::expert_up || role == TensorRole::expert_down;
}

// Breakdown buckets shown to the user.
enum class ParameterGroup : std::uint8_t {
  embedding,
  attention,
  mlp,
  routed_experts,
  shared_experts,
  router,
  norms,
  lm_head,
  ssm,    // state-space mixers (Mamba-2 layers of hybrids)
  count_  // number of groups
};

const char* parameter_group_name(ParameterGroup group);
const char* tensor_role_name(TensorRole role);

struct WeightTensor {
  TensorRole role;
  ParameterGroup group;
  std::int32_t layer;    // -1 outside the layer stack
  std::int64_t rows;     // output features (vocabulary rows for embeddings); 1 for vectors
  std::int64_t columns;  // input features; the length for vectors
  std::int64_t copies;   // identical tensors (routed experts: number of experts)
  bool is_matrix() const { return rows > 1 && columns > 1; }
  std::int64_t parameters() const { return rows * columns * copies; }
};

struct ParameterBreakdown {
  std::int64_t embedding = 0;       // token (and learned position) embeddings
  std::int64_t attention = 0;       // projections, their biases, q/k norms, sinks
  std::int64_t mlp = 0;             // dense MLPs
  std::int64_t routed_experts = 0;  // all routed experts
  std::int64_t shared_experts = 0;
  std::int64_t router = 0;
  std::int64_t norms = 0;    // hidden-size norms in layers, final and embedding norms
  std::int64_t lm_head = 0;  // 0 when tied to the embedding
  std::int64_t ssm = 0;      // state-space mixers: projections, conv, scalars and their gated norm
};

struct ParameterCount {
  std::int64_t total = 0;                   // unique parameters, tied weights once
  std::int64_t active_per_token = 0;        // == total for dense models
  std::int64_t non_embedding = 0;           // total minus token/position embeddings and lm_head
  std::int64_t multi_token_prediction = 0;  // DeepSeek-V3 MTP module(s), not in total
  // With tied embeddings: the parameters of the output head a checkpoint may store anyway
  // (Qwen3-0.6B's safetensors hold lm_head.weight although it is tied); 0 when untied.
  std::int64_t tied_output_head = 0;
  ParameterBreakdown breakdown;
  // A multimodal checkpoint's vision encoder and projector (0 without one): not in total, which is
  // the language model; total + both is the whole checkpoint.
  std::int64_t vision_tower = 0;
  std::int64_t multimodal_projector = 0;
  std::int64_t total_with_vision() const { return total + vision_tower + multimodal_projector; }
  // A multimodal checkpoint's audio encoder and its projector (0 without one): total_with_audio is
  // the whole checkpoint, the language model with every counted tower and projector.
  std::int64_t audio_tower = 0;
  std::int64_t audio_projector = 0;
  std::int64_t total_with_audio() const { return total_with_vision() + audio_tower + audio_projector; }
  // How active_per_token was counted, for display next to the number.
  const char* active_convention = "";
};

// The tensors of the counted model (MTP modules excluded; see multi_token_prediction_tensors).
std::vector<WeightTensor> weight_tensors(const ModelDescription& model);

ParameterCount count_parameters(const ModelDescription& model);

// The counted encoders beside the language model: vision tower, multimodal projector, audio tower
// and audio projector (count_parameters' vision_tower + multimodal_projector + audio_tower +
// audio_projector); 0 for a text-only model.
std::int64_t encoder_parameters(const ModelDescription& model);

// Whether an assumption is a config reader's note that a model's encoders are counted with their
// weights in the inference memory; each such note names the count it adds to (total_params_with_vision
// or total_params_with_audio). An engine that loads the language model alone (MLX LM) leaves it out.
bool is_encoder_weights_note(std::string_view assumption);

}  // namespace fitcheck
