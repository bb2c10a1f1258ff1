// SPDX-License-Identifier: MIT
// The KV cache: bytes per token per layer kind, and the cache of a batch per GPU.
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "fitcheck/inference_memory.hpp"
#include "placement/sharding.hpp"

namespace fitcheck {
namespace {

// Cache element types. int4 follows the quantized cache of Hugging Face transformers
// (QuantizedCacheConfig: nbits 4, q_group_size 64, an fp16 scale and zero point per group).
// fp8 and int8 caches use one scale per tensor (vLLM kv_cache_dtype fp8; TensorRT-LLM int8 KV),
// which is negligible per token.
constexpr KvCacheDtypeInfo kv_dtypes[] = {
    {KvCacheDtype::fp32, "fp32", 32, 0, 0, "IEEE 754 single precision"},
    {KvCacheDtype::bf16, "bf16", 16, 0, 0, "bfloat16: the usual cache type of bf16 models"},
    {KvCacheDtype::fp16, "fp16", 16, 0, 0, "IEEE 754 half precision"},
    {KvCacheDtype::fp8, "fp8", 8, 0, 0, "FP8 E4M3/E5M2 with a per-tensor scale (vLLM kv_cache_dtype=fp8)"},
    {KvCacheDtype::int8, "int8", 8, 0, 0, "INT8 with a per-tensor scale (TensorRT-LLM INT8 KV cache)"},
    {KvCacheDtype::int4, "int4", 4, 64, 4,
     "4-bit with an fp16 scale and zero point per 64 values (transformers QuantizedCacheConfig defaults)"},
};

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Cached values per token of one layer, and whether they are split across tensor-parallel ranks.
std::int64_t cached_elements_per_token(const AttentionShape& attention) {
  if (attention.is_multi_latent()) {
    // DeepSeek-V2 §2.1.2: MLA caches the compressed c_KV (kv_lora_rank) and the shared rotary key
    // (qk_rope_head_dim) per token per layer, the convention of vLLM and SGLang's MLA kernels.
    return attention.kv_lora_rank + attention.qk_rope_head_dim;
  }
  return attention.num_kv_heads * (attention.head_dim + attention.value_head_dim);
}

std::int64_t bytes_for_elements(std::int64_t elements, const KvCacheDtypeInfo& dtype) {
  std::int64_t bytes = ceil_div(elements * dtype.element_bits, 8);
  if (dtype.scale_group_elements > 0) bytes += ceil_div(elements, dtype.scale_group_elements) * dtype.scale_bytes;
  return bytes;
}

// DeepSeek-V3.2's lightning indexer caches one key of index_head_dim per token per layer, in FP8
// with one fp32 scale per 128 values, whatever the cache dtype of the MLA latent: deepseek-ai/
// DeepSeek-V3.2-Exp@3b99a53 inference/model.py Indexer (k_cache float8_e4m3fn, k_scale_cache
// float32 of index_head_dim / block_size), as vLLM's indexer cache stores it (index_head_dim +
// index_head_dim / quant_block_size x 4 bytes). Like the latent, every tensor-parallel rank keeps it.
constexpr std::int64_t kIndexerScaleBlock = 128;
std::int64_t indexer_key_bytes_per_token(const AttentionShape& attention) {
  if (!attention.has_indexer()) return 0;
  return attention.index_head_dim + ceil_div(attention.index_head_dim, kIndexerScaleBlock) * 4;
}

}  // namespace

const KvCacheDtypeInfo& kv_cache_dtype_info(KvCacheDtype dtype) {
  for (const auto& info : kv_dtypes)
    if (info.dtype == dtype) return info;
  throw std::invalid_argument("unknown KV cache dtype");
}

const KvCacheDtypeInfo* find_kv_cache_dtype(const std::string& id) {
  const std::string key = lowercase(id);
  std::string canonical = key;
  if (key == "auto" || key == "bfloat16")
    canonical = "bf16";
  else if (key == "float16" || key == "half")
    canonical = "fp16";
  else if (key == "float32" || key == "float")
    canonical = "fp32";
  else if (key == "fp8_e4m3" || key == "fp8_e5m2" || key == "fp8-e4m3" || key == "fp8-e5m2")
    canonical = "fp8";
  for (const auto& info : kv_dtypes)
    if (canonical == info.id) return &info;
  return nullptr;
}

std::int64_t kv_cache_bytes_per_token_per_layer(const LayerShape& layer, KvCacheDtype dtype) {
  if (layer.is_encoder) return 0;  // encoder layers run once over the input and keep no cache
  if (layer.kv_shared) return 0;   // Gemma 3n: attends over an earlier layer's cache
  const AttentionShape& a = layer.attention;
  if (!a.self_attention) return 0;  // Llama 3.2 Vision's cross-attention layers: no key or value per text token
  const auto& info = kv_cache_dtype_info(dtype);
  std::int64_t elements = cached_elements_per_token(a);
  // T5's decoder cross-attention also caches keys and values of the encoder output, one per input
  // token (the input taken as long as the context). A fixed source (Whisper) is held per sequence.
  if (a.cross_attention && !a.cross_source_per_sequence) elements *= 2;
  return bytes_for_elements(elements, info) + indexer_key_bytes_per_token(a);
}

std::int64_t cross_kv_bytes_per_source_token_per_layer(const LayerShape& layer, KvCacheDtype dtype) {
  if (layer.is_encoder || !layer.attention.cross_attention || !layer.attention.cross_source_per_sequence) return 0;
  return bytes_for_elements(cached_elements_per_token(layer.attention), kv_cache_dtype_info(dtype));
}

std::int64_t cross_source_tokens_per_sequence(const LayerShape& layer, const InferenceWorkload& workload) {
  // Whisper's decoder attends to the encoder's frames of a 30-second window, whatever the prompt
  // (huggingface/transformers@5c48f71a682f modeling_whisper.py: WhisperDecoderLayer.encoder_attn over
  // encoder_hidden_states of max_source_positions, kept in the EncoderDecoderCache's cross-attention cache).
  if (layer.attention.cross_source_fixed_tokens > 0) return layer.attention.cross_source_fixed_tokens;
  return workload.cross_attention_tokens;
}

std::int64_t ssm_state_bytes_per_sequence_per_layer(const LayerShape& layer, std::int64_t element_bytes,
                                                    std::int64_t tensor_parallel,
                                                    std::optional<std::int64_t> conv_columns,
                                                    std::optional<std::int64_t> state_element_bytes) {
  if (!layer.is_ssm()) return 0;
  const SsmShape& m = layer.ssm;
  const std::int64_t tp = std::max<std::int64_t>(1, tensor_parallel);
  // Heads split over the ranks; B and C groups split when they divide, else every rank keeps all
  // of them (vLLM's MambaMixer2 replicates n_groups that tp does not divide).
  const std::int64_t groups = m.groups % tp == 0 ? m.groups / tp : m.groups;
  const std::int64_t heads = m.num_heads / tp;
  const std::int64_t conv_channels = heads * m.head_dim + 2 * groups * m.state_size;
  const char* what = "the state of a state-space layer";
  const std::int64_t conv =
      detail::checked_product(conv_channels * conv_columns.value_or(m.conv_kernel), element_bytes, what);
  const std::int64_t state =
      detail::checked_product(heads * m.head_dim * m.state_size, state_element_bytes.value_or(element_bytes), what);
  return detail::checked_sum(conv, state, what);
}

KvCacheFigure kv_cache(const ModelDescription& model, const InferenceWorkload& workload) {
  const detail::StagePlan stages = detail::plan_stages(model, workload.layout);
  return detail::kv_cache_figure(model, workload, stages.busiest_kv_stage_layers_of_kind, true);
}

KvCacheFigure detail::kv_cache_figure(const ModelDescription& model, const InferenceWorkload& workload,
                                      const std::vector<std::int64_t>& layers_of_kind, bool with_text) {
  KvCacheFigure figure;
  const auto& dtype = kv_cache_dtype_info(workload.kv_cache_dtype);
  const std::int64_t tp = workload.layout.tensor_parallel;
  const std::int64_t context = workload.context_tokens;
  for (std::size_t kind = 0; kind < model.layer_kinds.size(); ++kind) {
    const LayerShape& layer = model.layer_kinds[kind];
    const std::int64_t per_layer = kv_cache_bytes_per_token_per_layer(layer, workload.kv_cache_dtype);
    figure.bytes_per_token = detail::checked_sum(
        figure.bytes_per_token, detail::checked_product(per_layer, layer.layer_count, "the KV cache per token"),
        "the KV cache per token");
    const std::int64_t layers_here = layers_of_kind[kind];
    if (layer.is_ssm()) {
      const std::int64_t element = workload.state_bytes_per_element > 0 ? workload.state_bytes_per_element
                                                                        : workload.activation_bytes_per_element;
      const std::int64_t conv_columns =
          std::max<std::int64_t>(0, layer.ssm.conv_kernel - (workload.state_conv_window_drops_oldest ? 1 : 0));
      const std::optional<std::int64_t> state_element =
          workload.recurrent_state_bytes_per_element > 0
              ? std::optional<std::int64_t>(workload.recurrent_state_bytes_per_element)
              : std::nullopt;
      const std::int64_t whole = ssm_state_bytes_per_sequence_per_layer(layer, element, 1, conv_columns, state_element);
      figure.state_bytes_per_sequence = detail::checked_sum(
          figure.state_bytes_per_sequence, detail::checked_product(whole, layer.layer_count, "the state per sequence"),
          "the state per sequence");
      if (layers_here > 0) {
        constexpr const char* what = "the state of this batch";
        const std::int64_t per_rank =
            ssm_state_bytes_per_sequence_per_layer(layer, element, tp, conv_columns, state_element);
        KvCacheLayerTerm term;
        term.layer_kind = kind;
        term.layers = layers_here;
        term.state_bytes_per_sequence_per_layer = whole;
        term.bytes =
            detail::checked_product(detail::checked_product(per_rank, workload.batch_size, what), layers_here, what);
        figure.bytes = detail::checked_sum(figure.bytes, term.bytes, what);
        if (with_text) {
          const SsmShape& m = layer.ssm;
          const std::string ssm_state =
              m.state_size == 0 ? std::string("no")  // LFM2's short convolution keeps its conv state only
              : m.is_mamba1()   ? std::to_string(m.inner()) + " channels x " + std::to_string(m.state_size)
                                : std::to_string(m.num_heads) + " heads x " + std::to_string(m.head_dim) + " x " +
                                    std::to_string(m.state_size);
          const std::string conv =
              std::to_string(m.conv_channels()) + " conv channels x " + std::to_string(conv_columns);
          const std::string elements =
              state_element && *state_element != element
                  ? conv + " x " + std::to_string(element) + " B + " + ssm_state + " SSM state x " +
                        std::to_string(*state_element) + " B"
                  : "(" + conv + " + " + ssm_state + " SSM state) x " + std::to_string(element) + " B";
          term.formula = "state " + std::to_string(per_rank) + " B/sequence/layer on this rank (" + elements +
                         (tp > 1 ? ", split over tp " + std::to_string(tp) : std::string()) +
                         "; independent of context) x batch " + std::to_string(workload.batch_size) + " x " +
                         std::to_string(layers_here) + " layers";
          figure.terms.push_back(std::move(term));
        }
      }
    }
    const std::int64_t cross_per_token = cross_kv_bytes_per_source_token_per_layer(layer, workload.kv_cache_dtype);
    if (cross_per_token > 0) {
      // Keys and values of a fixed source, computed once per sequence: its tokens, not the context's.
      const std::int64_t source = cross_source_tokens_per_sequence(layer, workload);
      constexpr const char* what = "the cross-attention keys and values of this batch";
      const std::int64_t whole = detail::checked_product(cross_per_token, source, what);
      figure.cross_bytes_per_sequence = detail::checked_sum(
          figure.cross_bytes_per_sequence, detail::checked_product(whole, layer.layer_count, what), what);
      if (layers_here > 0 && source > 0) {
        std::int64_t held = source;
        if (workload.kv_block_tokens > 0) held = ceil_div(held, workload.kv_block_tokens) * workload.kv_block_tokens;
        const std::int64_t heads_here = detail::kv_heads_per_rank(layer.attention, tp);
        const std::int64_t per_rank = cross_per_token * heads_here / layer.attention.num_kv_heads;
        KvCacheLayerTerm term;
        term.layer_kind = kind;
        term.layers = layers_here;
        term.cross_source_tokens_per_sequence = held;
        term.cross_bytes_per_sequence_per_layer = whole;
        term.bytes = detail::checked_product(
            detail::checked_product(detail::checked_product(per_rank, held, what), workload.batch_size, what),
            layers_here, what);
        figure.bytes = detail::checked_sum(figure.bytes, term.bytes, what);
        if (with_text) {
          const char* source_name =
              layer.attention.cross_source_fixed_tokens > 0 ? "the encoder's audio frames" : "the images' tokens";
          term.formula = "cross K/V " + std::to_string(cross_per_token) + " B/source token/layer" +
                         (heads_here != layer.attention.num_kv_heads
                              ? " x " + std::to_string(heads_here) + "/" +
                                    std::to_string(layer.attention.num_kv_heads) + " kv heads on this rank"
                              : std::string()) +
                         " x " + std::to_string(held) + " source tokens (" + source_name +
                         ", fixed per sequence; independent of context) x batch " +
                         std::to_string(workload.batch_size) + " x " + std::to_string(layers_here) + " layers";
          figure.terms.push_back(std::move(term));
        }
      }
    }
    if (per_layer == 0 || layers_here == 0) continue;

    KvCacheLayerTerm term;
    term.layer_kind = kind;
    term.layers = layers_here;
    term.bytes_per_token_per_layer = per_layer;
    std::int64_t tokens =
        layer.attention.sliding_window > 0 ? std::min(context, layer.attention.sliding_window) : context;
    if (workload.kv_block_tokens > 0) tokens = ceil_div(tokens, workload.kv_block_tokens) * workload.kv_block_tokens;
    term.cached_tokens_per_sequence = tokens;
    // Key/value heads split over tensor-parallel ranks; with fewer heads than ranks each rank keeps
    // one (replicated) head, as vLLM does. The MLA latent is shared by all heads: every rank keeps it.
    const std::int64_t share_numerator =
        layer.attention.is_multi_latent() ? 1 : detail::kv_heads_per_rank(layer.attention, tp);
    const std::int64_t share_denominator = layer.attention.is_multi_latent() ? 1 : layer.attention.num_kv_heads;
    const std::int64_t per_rank_per_token = per_layer * share_numerator / share_denominator;
    constexpr const char* what = "the KV cache of this batch and context";
    term.bytes = detail::checked_product(
        detail::checked_product(detail::checked_product(per_rank_per_token, tokens, what), workload.batch_size, what),
        layers_here, what);
    figure.bytes = detail::checked_sum(figure.bytes, term.bytes, "the KV cache of this batch and context");
    if (!with_text) continue;
    term.formula =
        std::to_string(per_layer) + " B/token/layer" +
        (share_numerator != share_denominator ? " x " + std::to_string(share_numerator) + "/" +
                                                    std::to_string(share_denominator) + " kv heads on this rank"
                                              : std::string()) +
        " x " + std::to_string(tokens) + " tokens" +
        (layer.attention.sliding_window > 0 ? " (window " + std::to_string(layer.attention.sliding_window) + ")" : "") +
        " x batch " + std::to_string(workload.batch_size) + " x " + std::to_string(layers_here) + " layers";
    figure.terms.push_back(std::move(term));
  }
  if (!with_text) return figure;
  const bool latent = std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(),
                                  [](const LayerShape& layer) { return layer.attention.is_multi_latent(); });
  figure.convention = latent ? "MLA: kv_lora_rank + qk_rope_head_dim values per token per layer (DeepSeek-V2 §2.1.2), "
                               "kept whole on every tensor-parallel rank"
                             : "K and V: num_kv_heads x (head_dim + value_head_dim) values per token per layer";
  figure.convention += std::string("; ") + dtype.id + " at " + std::to_string(dtype.element_bits) + " bits per value";
  const bool indexer = std::any_of(model.layer_kinds.begin(), model.layer_kinds.end(),
                                   [](const LayerShape& layer) { return layer.attention.has_indexer(); });
  if (indexer)
    figure.convention +=
        "; plus the lightning indexer's key, index_head_dim FP8 values and an fp32 scale per 128 of them per token "
        "per layer (DeepSeek-V3.2), whatever the cache dtype";
  // The first fixed-source cross-attention layer names the source (a model has one kind of it).
  const auto fixed_cross =
      std::find_if(model.layer_kinds.begin(), model.layer_kinds.end(), [&](const LayerShape& layer) {
        return cross_kv_bytes_per_source_token_per_layer(layer, workload.kv_cache_dtype) > 0;
      });
  if (fixed_cross != model.layer_kinds.end())
    figure.convention +=
        fixed_cross->attention.cross_source_fixed_tokens > 0
            ? "; the decoder's cross-attention keeps the keys and values of the encoder's " +
                  std::to_string(fixed_cross->attention.cross_source_fixed_tokens) +
                  " audio frames per sequence (a 30-second window), whatever the context"
            : std::string(
                  "; cross-attention layers keep no key or value per text token but those of the request's "
                  "image tokens, computed once per sequence (none without images)");
  if (figure.state_bytes_per_sequence > 0)
    figure.convention +=
        std::string("; state-space (Mamba) layers keep no KV cache but a fixed state per sequence: conv channels x ") +
        (workload.state_conv_window_drops_oldest ? "(conv_kernel - 1), the window the engine keeps,"
                                                 : "conv_kernel (transformers' Mamba caches)") +
        " + heads x head_dim x state_size values at " +
        std::to_string(workload.state_bytes_per_element > 0 ? workload.state_bytes_per_element
                                                            : workload.activation_bytes_per_element) +
        " bytes each" +
        (workload.recurrent_state_bytes_per_element > 0
             ? " (the SSM state's at " + std::to_string(workload.recurrent_state_bytes_per_element) + ")"
             : std::string()) +
        " (a Mamba-1 layer: its inner channels as heads of 1, no groups; "
        "a Gated DeltaNet layer: value heads x value width x key width, key heads as groups), whatever the context";
  return figure;
}

}  // namespace fitcheck
