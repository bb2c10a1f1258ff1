// SPDX-License-Identifier: MIT
// Qwen3-VL's vision model and its mergers, counted as transformers builds them.
#include "model/vision_params.hpp"

namespace fitcheck::detail {

// Qwen3VLVisionModel (huggingface/transformers@000c33fdfde1 src/transformers/models/qwen3_vl/
// modeling_qwen3_vl.py; Qwen3-VL-MoE's is the same): Qwen3VLVisionPatchEmbed, a Conv3d channels ->
// hidden over temporal_patch_size x patch x patch WITH bias (Qwen2-VL's has none); pos_embed, an
// Embedding of num_position_embeddings x hidden; per Qwen3VLVisionBlock norm1 and norm2 (LayerNorms with
// bias), attn.qkv (hidden -> 3 x hidden) and attn.proj with biases, mlp.linear_fc1 (hidden ->
// intermediate) and linear_fc2 with biases; rotary positions without parameters. The mergers
// (Qwen3VLVisionPatchMerger) are counted as the projector: `merger` normalizes each patch (a LayerNorm
// of hidden) before the merge^2 patches are concatenated, then linear_fc1 (hidden x merge^2 -> same) and
// linear_fc2 (-> out_hidden_size), with biases; each of deepstack_merger_list (one per
// deepstack_visual_indexes entry) is the same with use_postshuffle_norm, its LayerNorm over the
// concatenated hidden x merge^2.
void count_qwen3_vl_vision(const VisionTower& v, ParameterCount& count) {
  const std::int64_t h = v.hidden_size, m = v.intermediate_size;
  const std::int64_t patch_embedding = h * v.channels * v.temporal_patch_size * v.patch_size * v.patch_size + h;
  const std::int64_t positions = v.position_embeddings * h;
  const std::int64_t block = 2 * (2 * h) + (h * 3 * h + 3 * h) + (h * h + h) + (h * m + m) + (m * h + h);
  // Bounded by the config reader (hidden <= 2^16, intermediate <= 2^20, depth <= 1024, positions <= 2^24).
  count.vision_tower = checked_add(checked_add(patch_embedding, positions), block * v.layers);
  const std::int64_t merged = h * v.spatial_merge_size * v.spatial_merge_size, out = v.projector_output;
  const std::int64_t linears = (merged * merged + merged) + (merged * out + out);
  std::int64_t deepstack = 0;  // merged^2 alone may reach 2^56: the product is checked
  if (__builtin_mul_overflow(v.deepstack_mergers, 2 * merged + linears, &deepstack))
    throw ConfigError("vision_config.deepstack_visual_indexes",
                      "the parameter count of this config does not fit in 64 bits; check the sizes");
  count.multimodal_projector = checked_add(2 * h + linears, deepstack);
}

}  // namespace fitcheck::detail
