// SPDX-License-Identifier: MIT
// Vision towers and their projectors, counted as each family's transformers modeling code builds them.
#include "model/vision_params.hpp"

#include "model/gemma3n_towers_params.hpp"

namespace fitcheck::detail {
namespace {

// Qwen2-VL's vision transformer (huggingface/transformers src/transformers/models/qwen2_vl/
// modeling_qwen2_vl.py): PatchEmbed, a Conv3d in_chans -> embed_dim over temporal_patch_size x patch
// x patch without bias; per Qwen2VLVisionBlock two LayerNorms (weight and bias), VisionAttention's
// qkv (embed_dim -> 3 x embed_dim) and proj with biases, VisionMlp's fc1 (embed_dim -> embed_dim x
// mlp_ratio) and fc2 with biases; rotary positions without parameters. PatchMerger: ln_q (a
// LayerNorm of embed_dim) and an MLP over merge^2 concatenated patches, Linear(embed_dim x merge^2,
// same) and Linear(embed_dim x merge^2, hidden_size), both with biases.
void count_qwen2_vl_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t e = v.hidden_size, m = v.intermediate_size;
  const std::int64_t patch_embedding = e * v.channels * v.temporal_patch_size * v.patch_size * v.patch_size;
  const std::int64_t block = 2 * (2 * e) + (e * 3 * e + 3 * e) + (e * e + e) + (e * m + m) + (m * e + e);
  // Bounded by the config reader (embed_dim <= 2^16, mlp_ratio <= 64, depth <= 1024): below 2^52.
  count.vision_tower = checked_add(patch_embedding, block * v.layers);
  const std::int64_t merged = e * v.spatial_merge_size * v.spatial_merge_size;
  count.multimodal_projector = 2 * e + (merged * merged + merged) + (merged * v.projector_output + v.projector_output);
}

// Llama 4's vision model (huggingface/transformers@63210d0e3b74 src/transformers/models/llama4/
// modeling_llama4.py, Llama4VisionModel): Llama4UnfoldConvolution, a Linear(channels x patch^2, hidden)
// without bias; class_embedding (hidden); positional_embedding_vlm ((image / patch)^2 + 1 rows);
// layernorm_pre and layernorm_post (LayerNorms with bias); per Llama4VisionEncoderLayer two LayerNorms,
// q/k/v/o_proj with biases and fc1/fc2 with biases; vision_adapter (Llama4VisionPixelShuffleMLP's
// Llama4VisionMLP2): fc1 Linear(intermediate_size, projector_input_dim) and fc2
// Linear(projector_output_dim, projector_output_dim), no biases; rotary positions without parameters.
// Llama4MultiModalProjector: linear_1 Linear(vision_output_dim, text hidden_size), no bias.
void count_llama4_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size, side = v.image_size / v.patch_size;
  const std::int64_t embeddings = v.channels * v.patch_size * v.patch_size * h + h + (side * side + 1) * h + 4 * h;
  const std::int64_t layer = 4 * (h * h + h) + (h * m + m) + (m * h + h) + 4 * h;
  const std::int64_t adapter = m * v.adapter_hidden + v.adapter_output * v.adapter_output;
  // Bounded by the config reader (sizes <= 2^20, side <= 2^16, layers <= 1024): far below 2^63.
  count.vision_tower = checked_add(checked_add(embeddings, layer * v.layers), adapter);
  count.multimodal_projector = v.vision_output * v.projector_output;
}

// SigLIP vision encoder (huggingface/transformers@1c51a62f5861 src/transformers/models/siglip/
// modeling_siglip.py): SiglipVisionEmbeddings (Conv2d channels -> hidden, patch x patch, with bias;
// one learned position per patch), SiglipEncoderLayer (layer_norm1, q/k/v/out_proj with biases,
// layer_norm2, fc1 and fc2 with biases), SiglipVisionTransformer's post_layernorm; no pooling head
// (vision_use_head false). Gemma3MultiModalProjector (huggingface/transformers@f14d0cbc824e
// src/transformers/models/gemma3/modeling_gemma3.py): mm_input_projection_weight (vision hidden x
// text hidden) and mm_soft_emb_norm (an RMSNorm of the vision hidden size).
// The SigLIP tower alone (Idefics3VisionTransformer and SmolVLMVisionTransformer build the same modules;
// their position table has (image_size // patch_size)^2 rows, a floor where the sizes do not divide).
std::int64_t siglip_tower(const VisionTower& v) {
  const std::int64_t h = v.hidden_size, side = v.image_size / v.patch_size;
  const std::int64_t embeddings = v.channels * v.patch_size * v.patch_size * h + h + side * side * h;
  const std::int64_t layer =
      4 * (h * h + h) + 2 * (2 * h) + (h * v.intermediate_size + v.intermediate_size) + (v.intermediate_size * h + h);
  return checked_add(embeddings, checked_add(layer * v.layers, 2 * h));
}

void count_siglip_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size;
  count.vision_tower = siglip_tower(v);
  // PaliGemmaMultiModalProjector (huggingface/transformers src/transformers/models/paligemma/
  // modeling_paligemma.py): linear, Linear(vision hidden, projection_dim) with bias.
  if (v.kind == "paligemma")
    count.multimodal_projector = h * v.projector_output + v.projector_output;
  else
    count.multimodal_projector = h * v.projector_output + h;
}

// CLIP's vision model (huggingface/transformers src/transformers/models/clip/modeling_clip.py,
// CLIPVisionTransformer): CLIPVisionEmbeddings (patch_embedding, a Conv2d channels -> hidden without
// bias; class_embedding; position_embedding of (image / patch)^2 + 1 rows), pre_layrnorm, per
// CLIPEncoderLayer layer_norm1, q/k/v/out_proj with biases, layer_norm2, fc1 and fc2 with biases, and
// post_layernorm (LayerNorms with bias). LlavaMultiModalProjector (huggingface/transformers@e33ea883d6dd
// src/transformers/models/llava/modeling_llava.py): linear_1 Linear(vision hidden x feature layers, text
// hidden) and linear_2 Linear(text hidden, text hidden), with biases when multimodal_projector_bias;
// LLaVA-NeXT adds image_newline (text hidden), counted with the projector.
void count_clip_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size, side = v.image_size / v.patch_size;
  const std::int64_t embeddings = v.channels * v.patch_size * v.patch_size * h + h + (side * side + 1) * h;
  const std::int64_t layer = 4 * (h * h + h) + 2 * (2 * h) + (h * m + m) + (m * h + h);
  count.vision_tower = checked_add(checked_add(embeddings, 2 * (2 * h)), layer * v.layers);
  const std::int64_t t = v.projector_output, bias = v.projector_bias ? 1 : 0;
  count.multimodal_projector = (h * v.feature_layers * t + bias * t) + (t * t + bias * t);
  if (v.kind == "llava_next") count.multimodal_projector += t;  // LlavaNextModel's image_newline
}

// Pixtral's vision model (huggingface/transformers src/transformers/models/pixtral/modeling_pixtral.py,
// PixtralVisionModel): patch_conv, a Conv2d channels -> hidden without bias; ln_pre (an RMSNorm); per
// PixtralAttentionLayer attention_norm and ffn_norm (RMSNorms), q/k/v/o_proj and a gated MLP (gate, up,
// down) without biases; rotary positions without parameters. Mistral3MultiModalProjector
// (models/mistral3/modeling_mistral3.py): norm (an RMSNorm of the vision hidden), the patch merger's
// merging_layer Linear(hidden x merge^2, hidden) without bias, linear_1 Linear(hidden x feature layers,
// text hidden) and linear_2 Linear(text hidden, text hidden), with biases when multimodal_projector_bias.
void count_pixtral_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size;
  const std::int64_t layer = 4 * h * h + 3 * h * m + 2 * h;
  count.vision_tower = checked_add(v.channels * v.patch_size * v.patch_size * h + h, layer * v.layers);
  const std::int64_t t = v.projector_output, bias = v.projector_bias ? 1 : 0;
  const std::int64_t merged = h * v.spatial_merge_size * v.spatial_merge_size;
  count.multimodal_projector = h + merged * h + (h * v.feature_layers * t + bias * t) + (t * t + bias * t);
}

// Idefics3 / SmolVLM (huggingface/transformers src/transformers/models/idefics3/modeling_idefics3.py):
// the SigLIP-style tower and Idefics3Connector, whose modality_projection (Idefics3SimpleMLP) is one
// Linear(vision hidden x scale_factor^2, text hidden) without bias after the pixel shuffle.
void count_idefics3_vision(const VisionTower& v, ParameterCount& count) {
  count.vision_tower = siglip_tower(v);
  count.multimodal_projector = v.hidden_size * v.spatial_merge_size * v.spatial_merge_size * v.projector_output;
}

// InternVL (huggingface/transformers@00779a6b506f src/transformers/models/internvl/modeling_internvl.py):
// InternVLVisionEmbeddings (cls_token; mask_token with use_mask_token; the patch projection, a Conv2d with
// bias; position_embeddings of (image / patch)^2 + 1 rows with use_absolute_position_embeddings); per
// InternVLVisionLayer q/k/v_proj (biases with attention_bias), projection_layer with bias, q_norm and k_norm
// (RMSNorms of hidden) with use_qk_norm, fc1 and fc2 with biases, layernorm_before and layernorm_after
// (LayerNorm, or RMSNorm with norm_type "rms_norm") and the layer scales lambda_1 and lambda_2; a final
// LayerNorm without mean pooling. InternVLMultiModalProjector: layer_norm (a LayerNorm of hidden x r^2,
// r = 1 / downsample_ratio), linear_1 Linear(hidden x r^2, text hidden) and linear_2 Linear(text hidden,
// text hidden), with biases.
void count_internvl_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size, side = v.image_size / v.patch_size;
  const std::int64_t embeddings = h + (v.mask_token ? h : 0) + v.channels * v.patch_size * v.patch_size * h + h +
                                  (v.absolute_positions ? (side * side + 1) * h : 0);
  const std::int64_t norm = v.rms_norm ? h : 2 * h;
  const std::int64_t layer = 3 * h * h + (v.attention_bias ? 3 * h : 0) + (h * h + h) + (v.qk_norm ? 2 * h : 0) +
                             (h * m + m) + (m * h + h) + 2 * norm + 2 * h;
  // Bounded by the config reader (sizes <= 2^20, side <= 2^16, layers <= 1024): far below 2^63.
  count.vision_tower = checked_add(embeddings, layer * v.layers + (v.final_layer_norm ? 2 * h : 0));
  const std::int64_t folded = h * v.spatial_merge_size * v.spatial_merge_size, t = v.projector_output;
  count.multimodal_projector = 2 * folded + (folded * t + t) + (t * t + t);
}

// Phi-4-multimodal's vision tower (huggingface/transformers@00d4b3d2142c src/transformers/models/
// phi4_multimodal/modeling_phi4_multimodal.py): Phi4MultimodalVisionEmbeddings (patch_embedding, a
// Conv2d channels -> hidden with bias; position_embedding of (image / patch)^2 rows), SigLIP's encoder
// layers, post_layernorm, and Phi4MultimodalVisionMultiheadAttentionPoolingHead (probe; nn.MultiheadAttention
// in_proj 3 x hidden x hidden and out_proj, with biases; layernorm; the layers' MLP). The projector
// (Phi4MultimodalImageEmbedding): img_projection_up Linear(hidden, text hidden) and img_projection_down
// Linear(text hidden, text hidden), with biases, and the global and sub-image feature extensors (hidden each).
void count_phi4_multimodal_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size, side = v.image_size / v.patch_size;
  const std::int64_t embeddings = v.channels * v.patch_size * v.patch_size * h + h + side * side * h;
  const std::int64_t mlp = (h * m + m) + (m * h + h);
  const std::int64_t layer = 4 * (h * h + h) + 2 * (2 * h) + mlp;
  const std::int64_t head = h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + mlp;
  count.vision_tower = checked_add(checked_add(embeddings, layer * v.layers), 2 * h + head);
  const std::int64_t t = v.projector_output;
  count.multimodal_projector = (h * t + t) + (t * t + t) + 2 * h;
}

// Llama 3.2 Vision's tower (huggingface/transformers@befb7955722e src/transformers/models/mllama/
// modeling_mllama.py, MllamaVisionModel; the modules in config_mllama.cpp's read_mllama_vision), its
// tables of aspect_ratio_ids + 1 rows (max_aspect_ratio_id + 1), and multi_modal_projector,
// Linear(vision_output_dim, text hidden) with bias.
void count_mllama_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size, side = v.image_size / v.patch_size;
  const std::int64_t patches = side * side + 1, rows = v.aspect_ratio_ids + 1;
  const auto product = [](std::int64_t a, std::int64_t b) {
    std::int64_t result = 0;
    if (__builtin_mul_overflow(a, b, &result))
      throw ConfigError("vision_config.image_size",
                        "the vision tower of this config has more than 2^63 parameters; check its sizes");
    return result;
  };
  const std::int64_t patch_embedding = v.channels * v.patch_size * v.patch_size * h;  // Conv2d, no bias
  const std::int64_t gated_positions =
      1 + patches * h + product(product(rows, v.max_tiles), product(patches, h));  // gate, embedding, tile_embedding
  const std::int64_t tile_positions = 2 * (rows * v.max_tiles * h + 1);            // pre_ and post_, each gated
  const std::int64_t layer = 4 * h * h + (h * m + m) + (m * h + h) + 2 * (2 * h);
  const std::int64_t stems = checked_add(patch_embedding + h + tile_positions + 2 * (2 * h), gated_positions);
  count.vision_tower = checked_add(stems, layer * v.layers + (layer + 2) * v.global_layers);
  count.multimodal_projector = v.vision_output * v.projector_output + v.projector_output;
}

}  // namespace

void count_vision(const VisionTower& v, ParameterCount& count) {
  if (v.kind == "qwen2_vl")
    count_qwen2_vl_vision(v, count);
  else if (v.kind == "qwen3_vl")
    count_qwen3_vl_vision(v, count);
  else if (v.kind == "llama4")
    count_llama4_vision(v, count);
  else if (v.kind == "clip" || v.kind == "llava_next")
    count_clip_vision(v, count);
  else if (v.kind == "pixtral")
    count_pixtral_vision(v, count);
  else if (v.kind == "idefics3")
    count_idefics3_vision(v, count);
  else if (v.kind == "internvl")
    count_internvl_vision(v, count);
  else if (v.kind == "mobilenetv5")
    count_mobilenetv5_vision(v, count);
  else if (v.kind == "phi4_multimodal")
    count_phi4_multimodal_vision(v, count);
  else if (v.kind == "mllama")
    count_mllama_vision(v, count);
  else
    count_siglip_vision(v, count);
}

}  // namespace fitcheck::detail
