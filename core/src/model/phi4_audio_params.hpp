// SPDX-License-Identifier: MIT
// Phi-4-multimodal's conformer audio encoder and its projectors, counted apart from the language
// model. Internal to the core.
#pragma once

#include "fitcheck/model.hpp"
#include "fitcheck/params.hpp"

namespace fitcheck::detail {

// Sets count.audio_tower (Phi4MultimodalAudioModel) and count.audio_projector (the speech and
// vision-speech projector pairs of Phi4MultimodalAudioEmbedding).
void count_phi4_multimodal_audio(const AudioTower& tower, ParameterCount& count);

}  // namespace fitcheck::detail
