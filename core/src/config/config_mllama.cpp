// SPDX-License-Identifier: MIT
// Llama 3.2 Vision (model_type mllama; its text_config a mllama_text_model, its vision_config a
// mllama_vision_model), as huggingface/transformers@befb7955722e src/transformers/models/mllama/
// modeling_mllama.py builds MllamaForConditionalGeneration, with the defaults of MllamaTextConfig and
// MllamaVisionConfig (configuration_mllama.py at 996a40179607).
#include <algorithm>
#include <string>
#include <vector>

#include "config/config_families.hpp"
#include "config/config_vision.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

std::string list_text(const std::vector<std::int64_t>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i > 0 ? ", " : "") + std::to_string(items[i]);
  return text + "]";
}

// Each index of `field` in [0, limit): a distinct layer that exists.
void check_layer_indices(const ConfigFields& fields, Field field, const std::vector<std::int64_t>& indices,
                         std::int64_t limit, const std::string& what) {
  const std::string path = fields.path_of(field);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0 || indices[i] >= limit)
      throw ConfigError(path, "field '" + path + "' item " + std::to_string(i) + " (" + std::to_string(indices[i]) +
                                  ") is not " + what + " (0 to " + std::to_string(limit - 1) + ")");
    if (std::count(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(i), indices[i]) > 0)
      throw ConfigError(path, "field '" + path + "' names layer " + std::to_string(indices[i]) + " twice");
  }
}

}  // namespace

// MllamaTextModel: embed_tokens of vocab_size + 8 rows; num_hidden_layers layers, those listed in
// cross_attention_layers a MllamaCrossAttentionDecoderLayer and the others a
// MllamaSelfAttentionDecoderLayer; norm. MllamaForCausalLM: lm_head (vocab_size rows, untied by
// default). A self-attention layer is Llama's (q/k/v/o without biases, head_dim = hidden / heads, the
// head_dim field unread; a gated SiLU MLP; input and post-attention RMSNorms). A cross-attention layer
// has no self-attention: MllamaTextCrossAttention projects queries from the text and keys and values
// from the image tokens (cross_attention_states), RMSNorms q_norm and k_norm of head_dim, then the same
// MLP and norms, and two tanh gates (cross_attn_attn_gate, cross_attn_mlp_gate) of one value each. Its
// keys and values are computed once per sequence from the image tokens and cached (past_key_value), not
// one per text token.
void read_mllama_text(const ConfigFields& fields, ModelDescription& model) {
  model.hidden_size = read_hidden_size(fields);
  model.vocab_size = read_vocab_size(fields);
  model.num_layers = read_layer_count(fields);
  model.max_position_embeddings = fields.optional_count("max_position_embeddings", 1, max_positions).value_or(131072);
  if (!fields.has("max_position_embeddings"))
    model.assumptions.push_back("max_position_embeddings absent: 131072, as MllamaTextConfig");
  model.tie_word_embeddings = read_tie(fields, false, model);
  model.norm = NormKind::rms_norm;
  model.position_encoding = PositionEncoding::rotary;
  model.extra_embedding_rows = 8;  // MllamaTextModel.embed_tokens: nn.Embedding(vocab_size + 8, hidden)

  AttentionShape attention;
  attention.num_heads = read_head_count(fields);
  if (model.hidden_size % attention.num_heads != 0)
    throw ConfigError(fields.path_of("num_attention_heads"),
                      "hidden_size (" + std::to_string(model.hidden_size) + ") is not a multiple of " +
                          fields.path_of("num_attention_heads") + " (" + std::to_string(attention.num_heads) +
                          "): Llama 3.2 Vision's attention takes head_dim = hidden_size / num_attention_heads");
  attention.head_dim = attention.value_head_dim = model.hidden_size / attention.num_heads;
  attention.num_kv_heads = fields.optional_count("num_key_value_heads", 1, max_heads).value_or(8);
  if (!fields.has("num_key_value_heads"))
    model.assumptions.push_back("num_key_value_heads absent: 8, as MllamaTextConfig");
  MlpShape mlp{fields.required_count("intermediate_size", 1, max_intermediate_size), true, false};

  std::vector<std::int64_t> cross_layers{3, 8, 13, 18, 23, 28, 33, 38};  // MllamaTextConfig's default
  if (auto listed = fields.integer_list("cross_attention_layers"))
    cross_layers = *listed;
  else
    model.assumptions.push_back(
        "cross_attention_layers absent: layers 3, 8, 13, 18, 23, 28, 33 and 38 cross-attend to the image tokens, "
        "as MllamaTextConfig");
  check_layer_indices(fields, "cross_attention_layers", cross_layers, model.num_layers,
                      "a layer of the " + std::to_string(model.num_layers) + " of num_hidden_layers");

  LayerShape self_layer;
  self_layer.attention = attention;
  self_layer.mlp = mlp;
  LayerShape cross_layer = self_layer;
  cross_layer.attention.cross_attention = true;
  cross_layer.attention.self_attention = false;
  cross_layer.attention.cross_source_per_sequence = true;
  cross_layer.attention.query_norm_size = cross_layer.attention.key_norm_size = attention.head_dim;
  cross_layer.scalar_gates = 2;
  for (std::int64_t i = 0; i < model.num_layers; ++i) {
    const bool cross = std::find(cross_layers.begin(), cross_layers.end(), i) != cross_layers.end();
    append_layer(model, cross ? cross_layer : self_layer);
  }
  model.assumptions.push_back(
      "Llama 3.2 Vision: the " + std::to_string(cross_layers.size()) + " cross-attention layers " +
      list_text(cross_layers) +
      " keep no cache per text token; their keys and values are the images' tokens, held once per sequence (the "
      "images option; none without images, when they are skipped)");
}

// MllamaVisionModel: patch_embedding (Conv2d channels -> hidden, patch x patch, no bias);
// class_embedding (hidden); gated_positional_embedding (MllamaPrecomputedPositionEmbedding: gate, an
// embedding of num_patches = (image_size / patch_size)^2 + 1 rows, and tile_embedding, an nn.Embedding of
// max_aspect_ratio_id + 1 rows of max_num_tiles x num_patches x hidden); pre_ and
// post_tile_positional_embedding (MllamaPrecomputedAspectRatioEmbedding, gated: max_aspect_ratio_id + 1
// rows of max_num_tiles x hidden, and a gate); layernorm_pre and layernorm_post (LayerNorms); transformer,
// num_hidden_layers MllamaVisionEncoderLayers (LayerNorms, q/k/v/o without biases, fc1 and fc2 with
// biases), and global_transformer, num_global_layers of them gated (gate_attn, gate_ffn). The last state
// and intermediate_layers_indices' states are concatenated: vision_output_dim = hidden x (1 + indices).
// multi_modal_projector: Linear(vision_output_dim, text hidden) with bias. max_aspect_ratio_id is the
// count of supported_aspect_ratios (MllamaVisionConfig).
VisionTower read_mllama_vision(const ConfigFields& root, ModelDescription& model) {
  const ConfigFields vision = *root.object("vision_config");
  check_vision_tower_type(vision, "mllama_vision_model", "Llama 3.2 Vision");
  VisionTower v;
  v.kind = "mllama";
  read_encoder_widths(vision, {1280, 5120, 32, 16}, v);
  // MllamaVisionConfig keeps num_attention_heads as attention_heads, the key its config.json holds (and
  // the one PretrainedConfig sets last when both are written).
  if (auto heads = vision.optional_count("vision_config.attention_heads", 1, 1 << 16)) {
    v.heads = *heads;
    check_heads_divide_hidden(vision, v, "vision_config.attention_heads");
  }
  v.global_layers = vision.optional_count("vision_config.num_global_layers", 0, 1024).value_or(8);
  read_patch_grid(vision, 14, 448, v);
  if (!vision.has("vision_config.image_size"))
    model.assumptions.push_back("vision_config.image_size absent: tiles of 448 pixels, as MllamaVisionConfig");
  v.max_tiles = vision.optional_count("vision_config.max_num_tiles", 1, 64).value_or(4);
  if (auto ratios = vision.integer_pair_list("vision_config.supported_aspect_ratios")) {
    v.aspect_ratio_ids = static_cast<std::int64_t>(ratios->size());
    if (v.aspect_ratio_ids == 0 || v.aspect_ratio_ids > 4096)
      throw ConfigError(
          vision.path_of("vision_config.supported_aspect_ratios"),
          "field 'vision_config.supported_aspect_ratios' must list 1 to 4096 aspect ratios, but it lists " +
              std::to_string(v.aspect_ratio_ids));
  } else if (v.max_tiles == 4) {
    v.aspect_ratio_ids = 8;  // MllamaVisionConfig: (1,1) (1,2) (1,3) (1,4) (2,1) (2,2) (3,1) (4,1)
  } else {
    throw ConfigError(vision.path_of("vision_config.supported_aspect_ratios"),
                      "vision_config.supported_aspect_ratios is absent and max_num_tiles is " +
                          std::to_string(v.max_tiles) +
                          ": MllamaVisionConfig has default aspect ratios for 4 tiles only");
  }
  std::vector<std::int64_t> indices{3, 7, 15, 23, 30};  // MllamaVisionConfig's default
  if (auto listed = vision.integer_list("vision_config.intermediate_layers_indices")) indices = *listed;
  check_layer_indices(vision, "vision_config.intermediate_layers_indices", indices, v.layers + 1,
                      "a hidden state of the " + std::to_string(v.layers) + "-layer local encoder");
  const std::int64_t concatenated = v.hidden_size * (1 + static_cast<std::int64_t>(indices.size()));
  v.vision_output = vision.optional_count("vision_config.vision_output_dim", 1, 1 << 24).value_or(7680);
  if (v.vision_output != concatenated)
    throw ConfigError(vision.path_of("vision_config.vision_output_dim"),
                      "vision_config.vision_output_dim (" + std::to_string(v.vision_output) +
                          ") is not vision_config.hidden_size x (1 + the intermediate_layers_indices) = " +
                          std::to_string(concatenated) + ", the width of the features MllamaVisionModel concatenates");
  const std::int64_t side = v.image_size / v.patch_size;
  v.tokens_per_tile = side * side + 1;
  v.projector_output = model.hidden_size;
  // vLLM sizes the cross-attention source by the tiles of each image's best-fit canvas
  // (vllm-project/vllm@005ad95003ff vllm/model_executor/models/mllama.py input_processor_for_mllama:
  // get_optimal_tiled_canvas, then tiles x ((image_size / 14)^2 + 1)); transformers pads every image to
  // max_num_tiles (MllamaImageProcessor pack_images), masked in cross-attention but held in its cache.
  model.assumptions.push_back(
      "Llama 3.2 Vision images: each image is cut into the tiles of its best-fit canvas of at most " +
      std::to_string(v.max_tiles) + " tiles of " + std::to_string(v.image_size) + " pixels, " +
      std::to_string(v.tokens_per_tile) +
      " image tokens per tile, as vLLM sizes the cross-attention source (transformers pads each image to " +
      std::to_string(v.max_tiles) + " tiles, more tokens for an image of fewer tiles)");
  model.assumptions.push_back(
      "the vision tower and projector are counted (total_params_with_vision), and their weights are in the "
      "inference memory (unquantized, with the language model); time and training estimates cover the language "
      "model: the tower's compute is not included (the images option's image tokens become the cross-attention "
      "layers' keys and values)");
  return v;
}

}  // namespace fitcheck::detail
