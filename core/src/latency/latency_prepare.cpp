// SPDX-License-Identifier: MIT
// The prepare step of the latency model: the weight inventory grouped by layer kind and operation,
// each group sized in the storage format, plus the shapes the evaluate step multiplies.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "fitcheck/latency.hpp"

namespace fitcheck {
namespace {

// Where a layer tensor's time is charged.
enum class Bucket : std::uint8_t {
  query,
  key_value,
  attention_replicated,
  kv_up,
  output,
  mlp,
  router,
  expert,
  shared,
  norms,
  count_
};
constexpr std::size_t kBuckets = static_cast<std::size_t>(Bucket::count_);

Bucket bucket_of(const WeightTensor& t) {
  switch (t.role) {
    case TensorRole::attention_query:
    case TensorRole::ssm_in_projection:  // the mixer's input projection and depthwise conv
    case TensorRole::ssm_convolution:
      return Bucket::query;
    case TensorRole::attention_key:
    case TensorRole::attention_value:
      return Bucket::key_value;
    case TensorRole::attention_query_down:
    case TensorRole::attention_kv_down:
    case TensorRole::attention_sink:
    case TensorRole::relative_position_bias:
      return Bucket::attention_replicated;
    case TensorRole::attention_kv_up:
      return Bucket::kv_up;
    case TensorRole::attention_output:
    case TensorRole::ssm_output:
      return Bucket::output;
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
    case TensorRole::mlp_down:
      return Bucket::mlp;
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down:
      return Bucket::expert;
    case TensorRole::shared_expert_gate:
    case TensorRole::shared_expert_up:
    case TensorRole::shared_expert_down:
      return Bucket::shared;
    case TensorRole::router:
      return Bucket::router;
    case TensorRole::norm:
      return Bucket::norms;
    default:
      break;
  }
  // Biases follow their group (q/k/v/o biases all go with the query: a few vectors per layer).
  switch (t.group) {
    case ParameterGroup::mlp:
      return Bucket::mlp;
    case ParameterGroup::routed_experts:
      return Bucket::expert;
    case ParameterGroup::shared_experts:
      return Bucket::shared;
    case ParameterGroup::router:
      return Bucket::router;
    case ParameterGroup::norms:
      return Bucket::norms;
    default:
      return Bucket::query;
  }
}

MatmulPrecision matmul_precision_of(WeightFormat format) {
  switch (format) {
    case WeightFormat::fp32:
      return MatmulPrecision::fp32;
    case WeightFormat::fp8_e4m3_per_tensor:
    case WeightFormat::fp8_e4m3_block128:
      return MatmulPrecision::fp8;
    case WeightFormat::nvfp4:
      return MatmulPrecision::fp4;  // W4A4 on chips with an fp4 path
    default:
      return MatmulPrecision::activation_16bit;  // 16-bit and weight-only formats
  }
}

// Storage bytes of every tensor. Non-GGUF formats size each tensor on its own with weight_bytes();
// the one whole-inventory rule they have (gpt-oss MXFP4 quantizes experts only when the model has
// experts) is fixed up front through the scope option. GGUF presets pick a type per tensor from
// facts about the whole model, so the types come from gguf_tensor_types() on the full inventory
// and each tensor takes rows x (columns / block elements) blocks of that type.
std::vector<double> bytes_per_tensor(const std::vector<WeightTensor>& tensors, const std::vector<bool>& wanted,
                                     WeightFormat format, const WeightFormatOptions& options) {
  std::vector<double> bytes(tensors.size(), 0.0);
  if (is_gguf_preset(format)) {
    const std::vector<GgufType> types = gguf_tensor_types(tensors, format, options);
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const GgufTypeInfo& info = gguf_type_info(types[i]);
      const WeightTensor& t = tensors[i];
      bytes[i] = static_cast<double>(t.rows * t.copies) *
                 static_cast<double>(t.columns / info.block_elements * info.block_bytes);
    }
    return bytes;
  }
  WeightFormatOptions single = options;
  const bool any_experts =
      std::any_of(tensors.begin(), tensors.end(), [](const WeightTensor& t) { return is_routed_expert(t.role); });
  if (format == WeightFormat::mxfp4 && any_experts) single.scope = QuantScope::routed_experts_only;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (!wanted[i]) continue;
    bytes[i] =
        static_cast<double>(weight_bytes(std::span<const WeightTensor>(&tensors[i], 1), format, single).total_bytes);
  }
  return bytes;
}

double matrix_params(const WeightTensor& t) {
  return t.is_matrix() ? static_cast<double>(t.rows) * static_cast<double>(t.columns) * static_cast<double>(t.copies)
                       : 0.0;
}

void fill_shapes(LatencyLayerKind& kind, const LayerShape& layer) {
  const AttentionShape& a = layer.attention;
  kind.layers = layer.layer_count;
  kind.encoder = layer.is_encoder;
  kind.parallel_attention_mlp = layer.parallel_attention_mlp;
  kind.cross_attention = a.cross_attention;
  kind.self_attention = a.self_attention;
  kind.cross_source_per_sequence = a.cross_source_per_sequence;
  kind.multi_latent = a.is_multi_latent();
  kind.moe = layer.is_moe();
  kind.heads = static_cast<double>(a.num_heads);
  kind.kv_heads = static_cast<double>(a.is_multi_latent() ? a.num_heads : a.num_kv_heads);
  kind.qk_head_dim = static_cast<double>(a.head_dim);
  kind.v_head_dim = static_cast<double>(a.value_head_dim > 0 ? a.value_head_dim : a.head_dim);
  kind.sliding_window = static_cast<double>(a.sliding_window);
  if (a.has_indexer()) {
    // DeepSeek-V3.2's sparse attention (DeepSeek-V3.2-Exp paper §2.1; deepseek-ai/DeepSeek-V3.2-Exp@3b99a53
    // inference/model.py MLA.forward: the indexer's topk_indices mask every other key): each query
    // attends at most index_topk keys, which the MLA core reads as a window reads its keys.
    kind.sliding_window = static_cast<double>(a.index_topk);
    kind.index_heads = static_cast<double>(a.index_heads);
    kind.index_head_dim = static_cast<double>(a.index_head_dim);
  }
  kind.q_lora_rank = static_cast<double>(a.q_lora_rank);
  kind.kv_lora_rank = static_cast<double>(a.kv_lora_rank);
  kind.rope_head_dim = static_cast<double>(a.qk_rope_head_dim);
  kind.nope_head_dim = static_cast<double>(a.qk_nope_head_dim);
  kind.mlp_width = static_cast<double>(layer.mlp.intermediate_size);
  kind.gated_mlp = layer.is_moe() ? layer.moe.gated : layer.mlp.gated;
  kind.expert_width = static_cast<double>(layer.moe.expert_intermediate_size);
  kind.shared_width = static_cast<double>(layer.moe.num_shared_experts * layer.moe.shared_expert_intermediate_size);
  kind.experts = static_cast<double>(layer.moe.num_experts);
  kind.experts_per_token = static_cast<double>(layer.moe.experts_per_token);
  kind.hidden_norms = static_cast<double>(layer.hidden_norms);
  kind.ssm_heads = static_cast<double>(layer.ssm.num_heads);
  kind.ssm_head_dim = static_cast<double>(layer.ssm.head_dim);
  kind.ssm_state_size = static_cast<double>(layer.ssm.state_size);
  kind.ssm_groups = static_cast<double>(layer.ssm.groups);
  kind.ssm_conv_kernel = static_cast<double>(layer.ssm.conv_kernel);
  constexpr KvCacheDtype dtypes[] = {KvCacheDtype::fp32, KvCacheDtype::bf16, KvCacheDtype::fp16,
                                     KvCacheDtype::fp8,  KvCacheDtype::int8, KvCacheDtype::int4};
  LayerShape reader = layer;
  reader.kv_shared = false;  // a Gemma 3n KV-sharing layer still reads an earlier layer's cache
  for (KvCacheDtype dtype : dtypes) {
    double per_token = static_cast<double>(kv_cache_bytes_per_token_per_layer(reader, dtype));
    // T5: the cache doubles for the encoder's keys; self share only (the cross share is as wide).
    if (a.cross_attention && !a.cross_source_per_sequence) per_token /= 2;
    kind.kv_cache_bytes_per_token[static_cast<std::size_t>(dtype)] = per_token;
    kind.cross_kv_bytes_per_source_token[static_cast<std::size_t>(dtype)] =
        static_cast<double>(cross_kv_bytes_per_source_token_per_layer(reader, dtype));
  }
  if (a.has_indexer()) {
    // The indexer's key is stored whatever the cache dtype: the same bytes in every entry.
    LayerShape without_indexer = reader;
    without_indexer.attention.index_heads = 0;
    const double key = static_cast<double>(kv_cache_bytes_per_token_per_layer(reader, KvCacheDtype::bf16) -
                                           kv_cache_bytes_per_token_per_layer(without_indexer, KvCacheDtype::bf16));
    kind.index_key_bytes_per_token = key;
    for (double& per_token : kind.kv_cache_bytes_per_token) per_token -= key;
  }
}

}  // namespace

PreparedLatencyModel prepare_latency_model(const ModelDescription& model, const std::vector<WeightTensor>& tensors,
                                           WeightFormat format, const WeightFormatOptions& options) {
  if (model.layer_kinds.empty() || model.hidden_size <= 0 || model.layer_kind_of_layer.empty())
    throw std::invalid_argument("the model has no layers to time");
  PreparedLatencyModel prepared;
  prepared.weight_format = format;
  prepared.matmul_precision = matmul_precision_of(format);
  prepared.hidden = static_cast<double>(model.hidden_size);
  prepared.vocab = static_cast<double>(model.vocab_size);
  prepared.layers = static_cast<std::int64_t>(model.layer_kind_of_layer.size());
  prepared.final_norms = static_cast<double>(model.final_norms);  // computed even without weights (OLMo-1)
  prepared.tied_embeddings = model.tie_word_embeddings;
  prepared.rms_norm = model.norm == NormKind::rms_norm;
  prepared.rotary = model.position_encoding == PositionEncoding::rotary;
  prepared.encoder_frames = model.audio_stem ? model.audio_stem->encoder_positions : 0;

  // Non-GGUF formats size the layers of a kind from its first layer: they are identical.
  const std::size_t kinds = model.layer_kinds.size();
  std::vector<std::int64_t> first_layer_of_kind(kinds, -1);
  for (std::size_t i = 0; i < model.layer_kind_of_layer.size(); ++i) {
    auto& first = first_layer_of_kind[model.layer_kind_of_layer[i]];
    if (first < 0) first = static_cast<std::int64_t>(i);
  }
  std::vector<bool> wanted(tensors.size(), true);
  if (!is_gguf_preset(format)) {
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const WeightTensor& t = tensors[i];
      if (t.layer < 0) continue;
      wanted[i] = first_layer_of_kind[model.layer_kind_of_layer[static_cast<std::size_t>(t.layer)]] == t.layer;
    }
  }
  const std::vector<double> bytes = bytes_per_tensor(tensors, wanted, format, options);

  std::vector<std::array<OpWeights, kBuckets>> sums(kinds);
  std::vector<std::vector<bool>> layer_seen(kinds);
  std::vector<double> layers_counted(kinds, 0.0);
  double position_row_bytes = 0;
  bool embedding_found = false;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (!wanted[i]) continue;
    const WeightTensor& t = tensors[i];
    if (t.layer < 0) {
      if (t.role == TensorRole::token_embedding && !embedding_found && t.rows == model.vocab_size) {
        embedding_found = true;  // OPT's project_in/out (also token_embedding) are not rows read
        prepared.embedding_bytes = bytes[i];
        prepared.embedding_row_bytes += bytes[i] / static_cast<double>(t.rows);
        if (model.tie_word_embeddings) prepared.lm_head = {matrix_params(t), bytes[i]};
      } else if (t.role == TensorRole::position_embedding) {
        position_row_bytes = bytes[i] / static_cast<double>(t.rows);
      } else if (t.group == ParameterGroup::lm_head) {
        prepared.lm_head.matrix_params += matrix_params(t);
        prepared.lm_head.bytes += bytes[i];
      } else if (t.role == TensorRole::norm) {
        prepared.final_norm_bytes += bytes[i];
      }
      continue;
    }
    const std::size_t kind = model.layer_kind_of_layer[static_cast<std::size_t>(t.layer)];
    auto& seen = layer_seen[kind];
    if (seen.size() <= static_cast<std::size_t>(t.layer)) seen.resize(static_cast<std::size_t>(t.layer) + 1, false);
    if (!seen[static_cast<std::size_t>(t.layer)]) {
      seen[static_cast<std::size_t>(t.layer)] = true;
      layers_counted[kind] += 1;
    }
    OpWeights& w = sums[kind][static_cast<std::size_t>(bucket_of(t))];
    w.matrix_params += matrix_params(t);
    w.bytes += bytes[i];
  }
  prepared.embedding_row_bytes += position_row_bytes;

  prepared.kinds.resize(kinds);
  for (std::size_t k = 0; k < kinds; ++k) {
    LatencyLayerKind& kind = prepared.kinds[k];
    fill_shapes(kind, model.layer_kinds[k]);
    const double n = std::max(1.0, layers_counted[k]);
    auto average = [&](Bucket b) {
      const OpWeights& s = sums[k][static_cast<std::size_t>(b)];
      return OpWeights{s.matrix_params / n, s.bytes / n};
    };
    kind.query = average(Bucket::query);
    kind.key_value = average(Bucket::key_value);
    kind.attention_replicated = average(Bucket::attention_replicated);
    kind.kv_up = average(Bucket::kv_up);
    kind.output = average(Bucket::output);
    kind.mlp = average(Bucket::mlp);
    kind.router = average(Bucket::router);
    kind.shared = average(Bucket::shared);
    kind.norms = average(Bucket::norms);
    const OpWeights all_experts = average(Bucket::expert);
    if (kind.experts > 0) kind.expert = {all_experts.matrix_params / kind.experts, all_experts.bytes / kind.experts};
  }
  return prepared;
}

}  // namespace fitcheck
