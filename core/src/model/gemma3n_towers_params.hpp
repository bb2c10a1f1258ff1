// SPDX-License-Identifier: MIT
// Gemma 3n's vision tower (timm's MobileNet-v5), audio tower (the USM conformer) and their
// multimodal embedders, counted apart from the language model. Internal to the core.
#pragma once

#include <cstdint>

#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck::detail {

// Gemma3nMultimodalEmbedder (huggingface/transformers@00aa0f5dc1cc modeling_gemma3n.py): embedding
// Embedding(vocab, width), hard_embedding_norm and soft_embedding_norm (width each), embedding_projection
// Linear(width, text hidden) without bias; embedding_post_projection_norm has no scale (with_scale=False).
std::int64_t gemma3n_embedder_params(std::int64_t vocab, std::int64_t width, std::int64_t text_hidden);

// Sets count.vision_tower (mobilenetv5_300m_enc) and count.multimodal_projector (embed_vision).
void count_mobilenetv5_vision(const VisionTower& tower, ParameterCount& count);

// Sets count.audio_tower (Gemma3nAudioEncoder) and count.audio_projector (embed_audio).
void count_gemma3n_audio(const AudioTower& tower, ParameterCount& count);

}  // namespace fitcheck::detail
