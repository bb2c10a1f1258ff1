// SPDX-License-Identifier: MIT
// The model as llama.cpp's loader groups it: input layer, repeating layers, output layer.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/local.hpp"
#include "fitcheck/params.hpp"
#include "local/local_graph_ops.hpp"

namespace fitcheck {
namespace {

// Bytes of one tensor stored as a ggml type: whole blocks per row (ggml_row_size).
std::int64_t gguf_tensor_bytes(const WeightTensor& tensor, GgufType type) {
  const GgufTypeInfo& info = gguf_type_info(type);
  const std::int64_t blocks_per_row = (tensor.columns + info.block_elements - 1) / info.block_elements;
  return tensor.rows * tensor.copies * blocks_per_row * info.block_bytes;
}

void set_kv_widths(LocalLayer& layer, const LayerShape& shape) {
  const AttentionShape& a = shape.attention;
  if (a.is_multi_latent()) {
    // llama.cpp caches DeepSeek's compressed latent: K = kv_lora_rank + rope dims, V = kv_lora_rank
    // (llama-model.cpp, LLM_ARCH_DEEPSEEK2: n_embd_head_k_mla / n_embd_head_v_mla with MLA on).
    layer.kv_key_width = a.kv_lora_rank + a.qk_rope_head_dim;
    layer.kv_value_width = a.kv_lora_rank;
    return;
  }
  layer.kv_key_width = a.num_kv_heads * a.head_dim;
  layer.kv_value_width = a.num_kv_heads * (a.value_head_dim > 0 ? a.value_head_dim : a.head_dim);
  layer.sliding_window = a.sliding_window;
}

// llama.cpp keeps a recurrent layer's state in f32 rows of n_embd_r + n_embd_s values
// (ggml-org/llama.cpp src/llama-hparams.cpp): the conv window, (ssm_d_conv - 1) x (ssm_d_inner + 2 x
// ssm_n_group x ssm_d_state), and the SSM state, ssm_d_state x ssm_d_inner. The converter maps every
// mixer fitcheck reads onto those keys: Mamba-1 (no groups: the conv runs over the inner channels),
// Mamba-2, Qwen3-Next's Gated DeltaNet (value heads x value width as ssm_d_inner, key heads as
// groups, the key width as ssm_d_state) and LFM2's short convolution (n_embd x (l_cache - 1), no
// state), which SsmShape describes alike (model.hpp).
void set_recurrent_state(LocalLayer& layer, std::int64_t conv_kernel, std::int64_t inner, std::int64_t groups,
                         std::int64_t state_size) {
  layer.recurrent_conv_values = std::max<std::int64_t>(0, conv_kernel - 1) * (inner + 2 * groups * state_size);
  layer.recurrent_state_values = state_size * inner;
}
void set_recurrent_state(LocalLayer& layer, const SsmShape& m) {
  set_recurrent_state(layer, m.conv_kernel, m.inner(), m.groups, m.state_size);
}

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

// Which layers of a GGUF are recurrent, as each architecture's load_hparams marks them
// (ggml-org/llama.cpp src/models/*.cpp, hparams.is_recr_impl), and their state per cell.
struct GgufRecurrence {
  enum class Rule : std::uint8_t { none, every_layer, no_kv_heads, attention_interval };
  Rule rule_kind = Rule::none;
  std::int64_t interval = 4;
  bool attention_everywhere = false;  // Falcon-H1: attention and Mamba-2 side by side in every layer
  LocalLayer state;                   // the state of one recurrent layer (recurrent_*_values)
  std::string rule;
  bool is_recurrent(std::size_t il, std::int64_t kv_heads) const {
    switch (rule_kind) {
      case Rule::none:
        return false;
      case Rule::every_layer:
        return true;
      case Rule::no_kv_heads:
        return kv_heads == 0;
      case Rule::attention_interval:
        return (static_cast<std::int64_t>(il) + 1) % interval != 0;
    }
    return false;
  }
};

GgufRecurrence gguf_recurrence(const std::string& arch, const GgufHyperparameters& h) {
  GgufRecurrence r;
  using Rule = GgufRecurrence::Rule;
  if (arch == "mamba" || arch == "mamba2") {
    r.rule_kind = Rule::every_layer;
  } else if (arch == "falcon-h1") {
    r.rule_kind = Rule::every_layer;
    r.attention_everywhere = true;
  } else if (arch == "jamba" || arch == "granitehybrid" || arch == "nemotron_h" || arch == "nemotron_h_moe" ||
             arch == "lfm2" || arch == "lfm2moe") {
    r.rule_kind = Rule::no_kv_heads;  // a layer whose head_count_kv is 0
  } else if (arch == "qwen3next" || arch == "qwen35" || arch == "qwen35moe") {
    r.rule_kind = Rule::attention_interval;  // every full_attention_interval-th layer attends (default 4)
    r.interval = std::max<std::int64_t>(1, h.full_attention_interval.value_or(4));
  } else {
    return r;
  }
  // LFM2's short convolution: n_embd channels, a window of l_cache, no groups and no state.
  if (h.shortconv_l_cache)
    set_recurrent_state(r.state, *h.shortconv_l_cache, h.embedding_length.value_or(0), 0, 0);
  else
    set_recurrent_state(r.state, h.ssm_conv_kernel.value_or(0), h.ssm_inner_size.value_or(0),
                        h.ssm_group_count.value_or(0), h.ssm_state_size.value_or(0));
  r.rule = "recurrent layers of " + arch + ": " +
           (r.rule_kind == Rule::every_layer   ? std::string("every layer")
            : r.rule_kind == Rule::no_kv_heads ? std::string("those whose attention.head_count_kv is 0")
                                               : "all but every " + std::to_string(r.interval) + "th") +
           ", each with " + std::to_string(r.state.recurrent_conv_values) + " conv + " +
           std::to_string(r.state.recurrent_state_values) + " state values per cell (ssm.* keys of the header)";
  return r;
}

// Adds a matrix's parameters by its storage type (ggml type names as a GGUF header and gguf_type_info
// print them): f16, bf16 and f32 to the float split, a quantized type fitcheck knows to its count
// (unknown types count in neither: the remainder of the layer's parameters).
void add_stored_parameters(LocalFloatParameters& floats, LocalQuantizedParameters& quantized, std::string_view type,
                           std::int64_t parameters) {
  if (type == "F16")
    floats.f16 += parameters;
  else if (type == "BF16")
    floats.bf16 += parameters;
  else if (type == "F32")
    floats.f32 += parameters;
  else if (const std::optional<GgufType> known = gguf_type_named(type))
    quantized[static_cast<std::size_t>(*known)] += parameters;
}

// The ggml type name a config-sized tensor is stored as: the GGUF preset's choice, or the format's
// own float type (fp16, bf16, fp32); "" for other (quantized) formats.
std::string_view stored_type(WeightFormat format, const std::vector<GgufType>& types, std::size_t i) {
  if (!types.empty()) return gguf_type_info(types[i]).name;
  if (format == WeightFormat::fp16) return "F16";
  if (format == WeightFormat::bf16) return "BF16";
  if (format == WeightFormat::fp32) return "F32";
  return "";
}

// The ggml type names stored as floats; every other matrix type is quantized (MMQ's on CUDA).
bool float_type(std::string_view type) { return type == "F16" || type == "BF16" || type == "F32"; }

// A matrix stored quantized, as MMQ tiles it; `shape` as GGUF lists it: the row length first.
LocalMatrix gguf_matrix(const CheckpointTensor& t, bool routed_experts) {
  return {.rows = t.shape[1],
          .columns = t.shape[0],
          .copies = t.shape.size() >= 3 ? t.shape[2] : 1,
          .bytes = t.bytes,
          .routed_experts = routed_experts};
}

// Keeps the larger of two matrices by bytes (the op offload copies one weight at a time: local_placement.cpp).
void keep_largest(LocalMatrix& largest, const LocalMatrix& matrix) {
  if (matrix.bytes > largest.bytes) largest = matrix;
}

}  // namespace

LocalModel local_model_from_config(const ModelDescription& model, WeightFormat format,
                                   const WeightFormatOptions& options) {
  if (model.num_layers <= 0 || model.layer_kind_of_layer.empty())
    throw std::invalid_argument("model: the config has no decoder layers to place");
  // Upstream llama.cpp (ggml-org/llama.cpp src/llama-arch.cpp) has no mllama architecture (only Ollama's
  // patched copy added LLM_ARCH_MLLAMA), so Llama 3.2 Vision's cross-attention cache and graph cannot be
  // sized as llama.cpp would run them.
  for (const LayerShape& kind : model.layer_kinds)
    if (kind.attention.cross_attention && !kind.attention.self_attention)
      throw std::invalid_argument(
          "model: llama.cpp does not run Llama 3.2 Vision (mllama) and its cross-attention "
          "layers; the local estimate covers the models llama.cpp runs");
  // Mixers with no llama.cpp architecture (src/llama-arch.cpp lists none for RecurrentGemma, MiniMax's
  // lightning attention or Zamba2's shared blocks): their graph and state cannot be sized as it runs them.
  for (const LayerShape& kind : model.layer_kinds) {
    const char* missing = kind.shared_transformer                                 ? "Zamba2's shared transformer blocks"
                          : !kind.is_ssm()                                        ? nullptr
                          : kind.ssm.mixer == RecurrentMixer::rg_lru              ? "RecurrentGemma's RG-LRU layers"
                          : kind.ssm.mixer == RecurrentMixer::lightning_attention ? "MiniMax's lightning attention"
                                                                                  : nullptr;
    if (missing)
      throw std::invalid_argument(std::string("model: llama.cpp has no architecture for ") + missing +
                                  "; the local estimate covers the models llama.cpp runs");
  }
  LocalModel out;
  out.layers.resize(model.layer_kind_of_layer.size());
  const std::vector<WeightTensor> tensors = weight_tensors(model);
  std::vector<GgufType> types;
  if (is_gguf_preset(format)) types = gguf_tensor_types(tensors, format, options);
  // Sized one tensor at a time below: the options the whole inventory implies (MXFP4's scope) come first.
  const WeightFormatOptions per_tensor = inventory_options(tensors, format, options);
  bool has_lm_head = false;
  std::int64_t embedding_bytes = 0, embedding_parameters = 0;
  std::string_view embedding_type;
  LocalMatrix embedding_matrix;
  const LayerOpCount no_ops{.layer_norm = model.norm == NormKind::layer_norm};
  std::vector<LayerOpCount> ops(out.layers.size(), no_ops);
  LayerOpCount output_ops = no_ops;  // the final norm and the head
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const WeightTensor& t = tensors[i];
    const std::int64_t bytes =
        types.empty() ? weight_bytes(std::span(&t, 1), format, per_tensor).total_bytes : gguf_tensor_bytes(t, types[i]);
    const std::int64_t parameters = t.parameters();
    const std::string_view type = t.is_matrix() ? stored_type(format, types, i) : "";
    if (t.layer >= 0 && static_cast<std::size_t>(t.layer) < out.layers.size()) {
      LocalLayer& layer = out.layers[static_cast<std::size_t>(t.layer)];
      // The routed experts' biases (gpt-oss: ffn_{gate,up,down}_exps.bias) go where the experts go: --n-cpu-moe's
      // pattern blk\.N\.ffn_(up|down|gate)_(ch|)exps matches them too (common/arg.cpp, a regex search).
      const bool with_experts = is_routed_expert(t.role) || t.group == ParameterGroup::routed_experts;
      (with_experts ? layer.expert_bytes : layer.dense_bytes) += bytes;
      (with_experts ? layer.expert_parameters : layer.dense_parameters) += parameters;
      if (t.is_matrix())
        keep_largest(is_routed_expert(t.role) ? layer.largest_expert_matrix : layer.largest_dense_matrix,
                     {.rows = t.rows,
                      .columns = t.columns,
                      .copies = t.copies,
                      .bytes = bytes,
                      .routed_experts = is_routed_expert(t.role)});
      if (is_routed_expert(t.role))
        add_stored_parameters(layer.expert_float, layer.expert_quantized, type, parameters);
      else
        add_stored_parameters(layer.dense_float, layer.dense_quantized, type, parameters);
      count_config_tensor(ops[static_cast<std::size_t>(t.layer)], t);
      if (t.is_matrix() && !float_type(type))
        layer.quantized_matrices.push_back({.rows = t.rows,
                                            .columns = t.columns,
                                            .copies = t.copies,
                                            .bytes = bytes,
                                            .routed_experts = is_routed_expert(t.role)});
    } else if (t.role == TensorRole::token_embedding || t.role == TensorRole::position_embedding) {
      out.input_bytes += bytes;
      if (t.role == TensorRole::token_embedding) {
        embedding_bytes = bytes;
        embedding_parameters = parameters;
        embedding_type = type;
        embedding_matrix = {.rows = t.rows, .columns = t.columns, .copies = t.copies, .bytes = bytes};
      }
    } else {
      has_lm_head = has_lm_head || t.role == TensorRole::lm_head;
      if (t.role == TensorRole::lm_head)
        out.head_matrix = {.rows = t.rows, .columns = t.columns, .copies = t.copies, .bytes = bytes};
      if (t.role == TensorRole::norm) output_ops.norm_tensors += t.copies;
      if (t.role == TensorRole::lm_head || t.role == TensorRole::bias) output_ops.tensor_ops += 1;
      out.output_bytes += bytes;
      out.output_parameters += parameters;
      add_stored_parameters(out.output_float, out.output_quantized, type, parameters);
      if (t.is_matrix() && !float_type(type))
        out.output_quantized_matrices.push_back(
            {.rows = t.rows, .columns = t.columns, .copies = t.copies, .bytes = bytes});
    }
  }
  if (!has_lm_head) {
    // Tied embeddings: llama.cpp loads token_embd a second time as the output head
    // (llama-model.cpp load_tensors: output = create_tensor(TOKEN_EMBD, TENSOR_DUPLICATED)).
    out.output_bytes += embedding_bytes;
    out.output_parameters += embedding_parameters;
    add_stored_parameters(out.output_float, out.output_quantized, embedding_type, embedding_parameters);
    if (embedding_matrix.bytes > 0 && !float_type(embedding_type))
      out.output_quantized_matrices.push_back(embedding_matrix);
    out.head_matrix = embedding_matrix;
    output_ops.tensor_ops += 1;
  }
  out.output_graph_ops = output_ops.norm_ops() + output_ops.tensor_ops;
  (output_ops.layer_norms() ? out.output_layer_norms : out.output_rms_norms) = output_ops.norms();
  for (std::size_t il = 0; il < out.layers.size(); ++il) {
    const LayerShape& shape = model.layer_kinds[model.layer_kind_of_layer[il]];
    set_kv_widths(out.layers[il], shape);
    if (shape.is_ssm()) set_recurrent_state(out.layers[il], shape.ssm);
    ops[il].describe_kernels(out.layers[il], shape.is_moe() ? shape.moe.experts_per_token : 0);
    out.num_heads = std::max(out.num_heads, shape.attention.num_heads);
    out.head_dim = std::max(out.head_dim, shape.attention.head_dim);
    out.feed_forward = std::max(out.feed_forward, shape.mlp.intermediate_size);
    if (shape.is_moe()) {
      out.num_experts = shape.moe.num_experts;
      out.experts_per_token = shape.moe.experts_per_token;
      out.expert_feed_forward = shape.moe.expert_intermediate_size;
    }
  }
  out.hidden_size = model.hidden_size;
  out.vocab_size = model.vocab_size;
  out.encoder_parameters = encoder_parameters(model);
  out.weights = std::string(weight_format_info(format).id) + " (from config.json shapes)";
  const bool sixteen_bit = format == WeightFormat::fp16 || format == WeightFormat::bf16 || format == WeightFormat::fp32;
  if (!is_gguf_preset(format) && !sixteen_bit)
    out.assumptions.push_back(std::string("weights: ") + weight_format_info(format).id +
                              " is not a GGUF type; its bytes are sized as the format stores them");
  return out;
}

LocalModel local_model_from_gguf(const CheckpointSummary& summary) {
  if (summary.format != CheckpointFormat::gguf) throw std::invalid_argument("model: not a GGUF file");
  const GgufHyperparameters& h = summary.hyperparameters;
  if (!h.block_count || *h.block_count <= 0)
    throw std::invalid_argument("model: the GGUF header has no <arch>.block_count");
  // Mamba and Mamba-2 files have no attention: their converter writes attention.head_count 0.
  const GgufRecurrence recurrence = gguf_recurrence(summary.architecture, h);
  const bool attention_free =
      recurrence.rule_kind == GgufRecurrence::Rule::every_layer && !recurrence.attention_everywhere;
  if (!h.embedding_length || !h.head_count || *h.head_count < 0 || (*h.head_count == 0 && !attention_free))
    throw std::invalid_argument("model: the GGUF header has no <arch>.embedding_length or attention.head_count");
  LocalModel out;
  out.layers.resize(static_cast<std::size_t>(*h.block_count));
  bool has_output = false;
  std::int64_t output_norms = 0;  // output_norm weights; with output_norm.bias a LayerNorm
  bool output_norm_bias = false;
  std::int64_t embedding_bytes = 0, embedding_parameters = 0;
  std::string embedding_type;
  LocalMatrix embedding_matrix;
  std::vector<LayerOpCount> ops(out.layers.size());
  for (const CheckpointTensor& t : summary.tensors) {
    if (starts_with(t.name, "blk.")) {
      char* end = nullptr;
      const long il = std::strtol(t.name.c_str() + 4, &end, 10);
      if (end == t.name.c_str() + 4 || il < 0 || il >= *h.block_count) continue;  // not a layer tensor
      LocalLayer& layer = out.layers[static_cast<std::size_t>(il)];
      const bool expert = t.name.find("_exps") != std::string::npos;  // ffn_{gate,up,down}_exps
      (expert ? layer.expert_bytes : layer.dense_bytes) += t.bytes;
      (expert ? layer.expert_parameters : layer.dense_parameters) += t.elements;
      if (t.shape.size() >= 2 && expert)
        add_stored_parameters(layer.expert_float, layer.expert_quantized, t.type, t.elements);
      else if (t.shape.size() >= 2)
        add_stored_parameters(layer.dense_float, layer.dense_quantized, t.type, t.elements);
      if (t.shape.size() >= 2 && !float_type(t.type)) layer.quantized_matrices.push_back(gguf_matrix(t, expert));
      // Matrices, not the experts' 2-D bias tables (ffn_*_exps.bias: n_ff x n_expert).
      if (t.shape.size() >= 2 && t.name.ends_with(".weight"))
        keep_largest(expert ? layer.largest_expert_matrix : layer.largest_dense_matrix, gguf_matrix(t, expert));
      count_gguf_tensor(ops[static_cast<std::size_t>(il)], t.name, t.shape.size());
    } else if (starts_with(t.name, "token_embd.") || starts_with(t.name, "position_embd.")) {
      out.input_bytes += t.bytes;
      if (starts_with(t.name, "token_embd.weight")) {
        embedding_bytes = t.bytes;
        embedding_parameters = t.elements;
        embedding_type = t.type;
        if (t.shape.size() >= 2) embedding_matrix = gguf_matrix(t, false);
      }
    } else {
      has_output = has_output || t.name == "output.weight";
      out.output_graph_ops += t.name == "output_norm.weight"                              ? 2
                              : t.name == "output.weight" || t.name == "output_norm.bias" ? 1
                                                                                          : 0;
      if (t.name == "output_norm.weight") output_norms += 1;
      if (t.name == "output_norm.bias") output_norm_bias = true;
      out.output_bytes += t.bytes;
      out.output_parameters += t.elements;
      if (t.shape.size() >= 2) add_stored_parameters(out.output_float, out.output_quantized, t.type, t.elements);
      if (t.shape.size() >= 2 && !float_type(t.type)) out.output_quantized_matrices.push_back(gguf_matrix(t, false));
      if (t.name == "output.weight" && t.shape.size() >= 2) out.head_matrix = gguf_matrix(t, false);
    }
  }
  (output_norm_bias ? out.output_layer_norms : out.output_rms_norms) = output_norms;
  if (!has_output) {
    out.output_bytes += embedding_bytes;  // tied: token_embd duplicated as the output head
    out.output_parameters += embedding_parameters;
    add_stored_parameters(out.output_float, out.output_quantized, embedding_type, embedding_parameters);
    if (embedding_matrix.bytes > 0 && !float_type(embedding_type))
      out.output_quantized_matrices.push_back(embedding_matrix);
    out.head_matrix = embedding_matrix;
    out.output_graph_ops += 1;
  }
  out.hidden_size = *h.embedding_length;
  out.num_heads = *h.head_count;
  // llama.cpp's defaults (llama-model.cpp load_hparams): n_embd_head_k = key_length, else
  // n_embd / n_head; n_embd_head_v = value_length, else the same.
  out.head_dim = h.key_length.value_or(out.num_heads > 0 ? out.hidden_size / out.num_heads : 0);
  const std::int64_t value_dim = h.value_length.value_or(out.head_dim);
  const std::int64_t kv_heads = h.head_count_kv.value_or(out.num_heads);
  out.vocab_size = h.vocab_size.value_or(0);
  out.feed_forward = h.feed_forward_length.value_or(0);
  out.num_experts = h.expert_count.value_or(0);
  out.experts_per_token = h.expert_used_count.value_or(0);
  for (std::size_t il = 0; il < out.layers.size(); ++il) {
    LocalLayer& layer = out.layers[il];
    const std::int64_t layer_kv_heads =
        il < h.head_count_kv_per_layer.size() ? h.head_count_kv_per_layer[il] : kv_heads;
    const bool recurrent = recurrence.is_recurrent(il, layer_kv_heads);
    // A recurrent layer keeps no KV cache, except in Falcon-H1, whose layers run both mixers.
    const bool caches = !recurrent || recurrence.attention_everywhere;
    layer.kv_key_width = caches ? layer_kv_heads * out.head_dim : 0;
    layer.kv_value_width = caches ? layer_kv_heads * value_dim : 0;
    if (recurrent) {
      layer.recurrent_conv_values = recurrence.state.recurrent_conv_values;
      layer.recurrent_state_values = recurrence.state.recurrent_state_values;
    }
    ops[il].describe_kernels(layer, out.experts_per_token);
  }
  if (!recurrence.rule.empty()) out.assumptions.push_back(recurrence.rule);
  if (out.num_experts > 0) {
    std::int64_t expert_parameters = 0;
    for (const LocalLayer& layer : out.layers) expert_parameters = std::max(expert_parameters, layer.expert_parameters);
    // ffn_{gate,up,down}_exps: 3 x n_expert x n_embd x n_ff_exp per layer
    out.expert_feed_forward = expert_parameters / std::max<std::int64_t>(1, 3 * out.num_experts * out.hidden_size);
  }
  const char* file_type = h.file_type ? gguf_file_type_name(*h.file_type) : "";
  out.weights = std::string("GGUF ") + (*file_type ? file_type : "(file type not stated)") + " (exact tensor bytes)";
  out.assumptions.push_back(
      "KV widths from the GGUF header: head_count_kv (per layer when the header stores an array) x key_length "
      "(embedding_length / head_count when absent); sliding windows are not read: every attention layer caches the "
      "whole context");
  return out;
}

}  // namespace fitcheck
