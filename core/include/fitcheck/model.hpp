// SPDX-License-Identifier: MIT
// The normalized model description: what fitcheck knows about a model's shapes, independent of
// which Hugging Face family and field names it came from. Every estimate reads only this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fitcheck {

enum class NormKind : std::uint8_t {
  rms_norm,            // weight only (Llama, Mistral, Qwen, Gemma)
  layer_norm,          // weight and bias (GPT-2, BLOOM, Falcon)
  layer_norm_no_bias,  // weight only, LayerNorm statistics (OLMo-1 has no weight at all: see norm_has_weight)
};

enum class PositionEncoding : std::uint8_t {
  rotary,            // no parameters
  learned_absolute,  // a max_positions x hidden table (GPT-2, OPT)
  alibi,             // no parameters (BLOOM, MPT)
  relative_buckets,  // T5: buckets x heads bias table in the first layer of each stack
  none,
};

// Attention of one layer kind. Standard attention uses num_heads, num_kv_heads and head_dim;
// multi-head latent attention (DeepSeek-V2 §2.1) uses the low-rank fields instead.
struct AttentionShape {
  std::int64_t num_heads = 0;
  std::int64_t num_kv_heads = 0;    // == num_heads: MHA; 1: MQA; otherwise GQA
  std::int64_t head_dim = 0;        // query/key head dimension
  std::int64_t value_head_dim = 0;  // value head dimension (== head_dim except in MLA)
  bool qkv_bias = false;
  bool key_without_bias = false;  // Whisper: q_proj and v_proj have biases (qkv_bias), k_proj none
  bool output_bias = false;
  std::int64_t query_norm_size = 0;  // parameters of the q norm (Qwen3: head_dim; OLMo2: heads x head_dim)
  std::int64_t key_norm_size = 0;
  bool qk_norm_has_bias = false;    // LayerNorm-style q/k norms (Cohere uses none; Persimmon has bias)
  std::int64_t sliding_window = 0;  // 0: full attention; else the window in tokens
  bool attention_sinks = false;     // one learned logit per head (gpt-oss)
  // Cross-attention: the layer attends to keys and values of a source other than its own tokens. T5's and
  // Whisper's decoder layers have it besides self-attention (a second block of the same shape); Llama 3.2
  // Vision's cross-attention layers (self_attention false) have it alone. The source is one key/value per
  // input token (T5: the encoder's output, as long as the input) or, with cross_source_per_sequence, a
  // fixed number per sequence computed once (Whisper: the encoder's audio frames; Llama 3.2 Vision: the
  // image tokens), whatever the context.
  bool cross_attention = false;
  bool self_attention = true;
  bool cross_source_per_sequence = false;
  // With cross_source_per_sequence: the source's tokens when the model fixes them (Whisper: the encoder's
  // max_source_positions frames); 0: the request's (Llama 3.2 Vision: its image tokens).
  std::int64_t cross_source_fixed_tokens = 0;
  bool output_gate = false;  // Qwen3-Next: q_proj also emits a sigmoid gate of num_heads x head_dim

  // Multi-head latent attention (DeepSeek-V2/V3). kv_lora_rank > 0 turns it on.
  std::int64_t q_lora_rank = 0;  // 0: queries projected directly from hidden
  std::int64_t kv_lora_rank = 0;
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t qk_rope_head_dim = 0;
  // DeepSeek-V3.2's lightning indexer beside MLA (DeepSeek-V3.2-Exp paper §2.1): index_heads query
  // heads of index_head_dim from the query latent, one shared key of index_head_dim per token (kept
  // in FP8 with a scale), and the index_topk tokens each query then attends to. 0: no indexer.
  std::int64_t index_heads = 0;
  std::int64_t index_head_dim = 0;
  std::int64_t index_topk = 0;

  bool is_multi_latent() const { return kv_lora_rank > 0; }
  bool has_indexer() const { return index_heads > 0; }
  bool operator==(const AttentionShape&) const = default;
};

struct MlpShape {
  std::int64_t intermediate_size = 0;  // width of one branch; 0: the layer has no MLP
  bool gated = false;                  // SwiGLU/GeGLU: gate and up projections
  bool bias = false;
  std::int64_t activation_parameters = 0;  // learned scalars of the activation (Apertus xIELU: alpha_p, alpha_n)
  bool operator==(const MlpShape&) const = default;
};

// Mixture of experts. num_experts == 0: the layer's MLP is dense (MlpShape above).
struct MoeShape {
  std::int64_t num_experts = 0;        // routed experts
  std::int64_t experts_per_token = 0;  // top-k
  std::int64_t expert_intermediate_size = 0;
  std::int64_t num_shared_experts = 0;               // always active
  std::int64_t shared_expert_intermediate_size = 0;  // width of each shared expert
  bool shared_expert_gate = false;                   // Qwen2-MoE: sigmoid gate Linear(hidden, 1)
  bool expert_bias = false;                          // gpt-oss: biases on expert projections
  bool router_bias = false;                          // gpt-oss router has a bias
  bool router_correction_bias = false;               // DeepSeek-V3 e_score_correction_bias (a buffer-like parameter)
  bool gated = true;
  bool operator==(const MoeShape&) const = default;
};

// A Mamba-2 state-space mixer in place of attention (Dao & Gu 2024, arXiv 2405.21060, §7): in_proj
// to [gate z, x, B, C, dt], a depthwise causal conv over [x, B, C], the selective scan, a gated
// RMSNorm and out_proj. It keeps no KV cache: each sequence holds a fixed state (conv_kernel past
// inputs of the conv channels, and heads x head_dim x state_size of SSM state), whatever its length.
// A Mamba-1 mixer (Gu & Dao 2023, arXiv 2312.00752, §3.4; time_step_rank > 0) scans every inner
// channel on its own: it is described as inner heads of width 1 with no B/C groups (conv channels =
// inner, SSM state inner x state_size), and in_proj, x_proj and dt_proj in place of Mamba-2's fused
// projection.
// Other fixed-state mixers reuse the shape (`mixer` says which): Qwen3-Next's Gated DeltaNet (Yang et
// al. 2024, arXiv 2412.06464; value heads as heads, key heads as groups, the key head width as
// state_size: conv channels = 2 x keys + values, recurrent state heads x value width x key width),
// LFM2's gated short convolution (hidden channels as heads of width 1, no groups, state_size 0: a
// conv state only), Griffin's RG-LRU (RecurrentGemma; num_heads gate blocks of head_dim channels,
// state_size 1, no B/C groups: the state is the conv window and one value per channel) and MiniMax's
// lightning attention (a head_dim x state_size matrix per head, no conv).
enum class RecurrentMixer : std::uint8_t { mamba, gated_delta_net, short_convolution, rg_lru, lightning_attention };

struct SsmShape {
  RecurrentMixer mixer = RecurrentMixer::mamba;
  std::int64_t num_heads = 0;  // 0: the layer has no state-space mixer
  std::int64_t head_dim = 0;
  std::int64_t state_size = 0;  // N
  std::int64_t groups = 1;      // B and C are shared by the heads of a group
  std::int64_t conv_kernel = 0;
  bool conv_bias = true;
  bool projection_bias = false;     // in_proj and out_proj biases
  std::int64_t time_step_rank = 0;  // Mamba-1: the rank of dt (x_proj's first outputs); 0 for Mamba-2
  bool time_step_norms = false;     // Jamba's Mamba-1: RMSNorms with weights on dt, B and C
  // Falcon-H1: out_proj's bias has a switch of its own (projectors_bias); unset, projection_bias rules it.
  std::optional<bool> out_projection_bias;
  // Mamba-2's gated RMSNorm over the inner width (Falcon-H1 has it only with mamba_rms_norm).
  bool gated_norm = true;
  bool is_mamba1() const { return time_step_rank > 0; }
  std::int64_t inner() const { return num_heads * head_dim; }
  std::int64_t conv_channels() const { return inner() + 2 * groups * state_size; }
  bool operator==(const SsmShape&) const = default;
};

// One kind of decoder (or encoder) layer; identical layers share one LayerShape. A layer of a
// hybrid may have no attention (num_heads 0): a state-space mixer, or an MLP alone.
struct LayerShape {
  AttentionShape attention;
  MlpShape mlp;
  MoeShape moe;
  SsmShape ssm;
  std::int64_t hidden_norms = 2;        // norms of width hidden_size in the layer (Gemma-2/3: 4; parallel blocks: 1)
  bool parallel_attention_mlp = false;  // GPT-J, NeoX, Falcon, Phi-1/2, Cohere
  bool is_encoder = false;              // encoder stack of an encoder-decoder model
  bool kv_shared = false;               // Gemma 3n: reads an earlier layer's keys and values, caches none
  std::int64_t layer_count = 0;         // how many layers of the model are of this kind
  // Zamba2's hybrid layers: attention and MLP run one of ModelDescription::shared_blocks (its weights
  // are not this layer's own); the layer keeps its own KV cache, adapters and linear.
  bool shared_transformer = false;
  // Learned scalars of the layer beside its blocks: Llama 3.2 Vision's tanh gates on the cross-attention
  // and MLP outputs (MllamaCrossAttentionDecoderLayer's cross_attn_attn_gate and cross_attn_mlp_gate).
  std::int64_t scalar_gates = 0;

  bool is_moe() const { return moe.num_experts > 0; }
  bool has_attention() const { return attention.num_heads > 0; }
  bool is_ssm() const { return ssm.num_heads > 0; }
  bool operator==(const LayerShape&) const = default;
};

// The checkpoint's own storage, as config.json states it (quantization_config, torch_dtype).
struct StoredPrecision {
  std::string torch_dtype;   // "bfloat16", "float16", "float32" or empty
  std::string quant_method;  // quantization_config.quant_method, empty when absent
  std::string quant_format;  // fmt / bnb_4bit_quant_type / quant_algo
  std::int64_t quant_bits = 0;
  std::int64_t quant_group_size = 0;
  std::int64_t quant_block_rows = 0;  // weight_block_size
  std::int64_t quant_block_columns = 0;
};

// A vision encoder counted beside the language model and its projector to the language model:
// Gemma-3's SigLIP (patch embedding, learned positions, pre-norm encoder layers, post-layernorm),
// Qwen2-VL's ViT (a 3-D patch embedding over temporal_patch_size frames, rotary positions, pre-norm
// blocks, a patch merger of spatial_merge_size^2 patches) or Llama 4's ViT (tiles of image_size, a
// class token, a pixel-shuffle adapter, a linear projector).
struct VisionTower {
  std::string kind;  // "siglip", "paligemma", "qwen2_vl", "qwen3_vl", "llama4", "clip", "llava_next", "pixtral",
                     // "idefics3", "internvl", "mllama"
  std::int64_t hidden_size = 0;
  std::int64_t intermediate_size = 0;
  std::int64_t layers = 0;
  std::int64_t heads = 0;
  std::int64_t patch_size = 0;
  std::int64_t image_size = 0;  // siglip: the side every image is resized to
  std::int64_t channels = 3;
  std::int64_t temporal_patch_size = 1;  // qwen2_vl: frames per patch (an image is repeated)
  std::int64_t spatial_merge_size = 1;   // qwen2_vl: patches merged per side into one token
  std::int64_t projector_output = 0;     // the language model's hidden size
  std::int64_t tokens_per_image = 0;     // siglip: image tokens one image adds, at any resolution
  // qwen2_vl, qwen3_vl: smart_resize's pixel bounds (the image processor's min_pixels and max_pixels).
  std::int64_t min_pixels = 0;
  std::int64_t max_pixels = 0;
  // qwen3_vl: the learned position table (num_position_embeddings rows, interpolated to the patch grid)
  // and the DeepStack mergers, one per deepstack_visual_indexes entry.
  std::int64_t position_embeddings = 0;
  std::int64_t deepstack_mergers = 0;
  // llama4: the pixel-shuffle adapter (vision_adapter: fc1 intermediate_size -> projector_input_dim, fc2
  // projector_output_dim -> projector_output_dim), the projector's input (vision_output_dim), the image
  // tokens of one tile after the pixel shuffle, and the most tiles the image processor cuts (max_patches).
  std::int64_t adapter_hidden = 0;
  std::int64_t adapter_output = 0;
  std::int64_t vision_output = 0;
  std::int64_t tokens_per_tile = 0;
  std::int64_t max_tiles = 0;
  // clip (LLaVA): the encoder layers whose features are concatenated into the projector
  // (vision_feature_layer), whether the class token is kept (vision_feature_select_strategy "full")
  // and whether the projector's two linears have biases (multimodal_projector_bias).
  std::int64_t feature_layers = 1;
  bool keeps_class_token = false;
  bool projector_bias = true;
  // llava_next: a CLIP tower as LLaVA's, the learned image_newline (text hidden) beside the projector,
  // and the canvases (height, width) an image is tiled to (image_grid_pinpoints).
  std::vector<std::pair<std::int64_t, std::int64_t>> grid_pinpoints;
  // idefics3 (Idefics3 / SmolVLM): a SigLIP-style tower whose connector pixel-shuffles spatial_merge_size^2
  // patches into one token; the processor resizes an image to this longest edge, then cuts tiles of
  // image_size (tokens_per_tile each) and adds a global image.
  std::int64_t resize_longest_edge = 0;
  // internvl (InternViT): q/k/v biases, RMSNorms on q and k, RMSNorm (not LayerNorm) layer norms, a mask
  // token, learned absolute positions, and a final LayerNorm (absent with mean pooling); the processor
  // tiles an image into min_tiles..max_tiles tiles of image_size (tokens_per_tile each) and a thumbnail.
  bool attention_bias = false;
  bool qk_norm = false;
  bool rms_norm = false;
  bool mask_token = false;
  bool absolute_positions = true;
  bool final_layer_norm = false;
  std::int64_t min_tiles = 1;
  // mobilenetv5 (Gemma 3n): timm's mobilenetv5_300m_enc, whose block list is fixed by its name; the
  // projector is Gemma3nMultimodalEmbedder, with a table of embedder_vocab rows of hidden_size.
  std::int64_t embedder_vocab = 0;
  // mllama (Llama 3.2 Vision): a local encoder of `layers` and a gated global encoder of global_layers,
  // position and aspect-ratio tables of aspect_ratio_ids + 1 rows (max_aspect_ratio_id: the supported
  // aspect ratios, row 0 for padding), max_tiles tiles of image_size; vision_output is the width of the
  // concatenated features (the last state and the intermediate layers') that the projector reads.
  std::int64_t global_layers = 0;
  std::int64_t aspect_ratio_ids = 0;
};

// An audio encoder counted beside the language model and its projector to the language model:
// Gemma 3n's USM conformer (Gemma3nAudioEncoder: a two-convolution subsampler, conformer blocks)
// and its Gemma3nMultimodalEmbedder (embedder_vocab rows of hidden_size, projected to the text width).
// Gemma 3n's USM conformer ("gemma3n_usm") and Phi-4-multimodal's conformer ("phi4_multimodal_conformer");
// the fields a kind does not use stay 0 or empty.
struct AudioTower {
  std::string kind;  // "gemma3n_usm" or "phi4_multimodal_conformer"
  std::int64_t hidden_size = 0;
  std::int64_t layers = 0;
  std::int64_t heads = 0;
  std::int64_t input_features = 0;               // mel bins (input_feat_size)
  std::int64_t conv_kernel_size = 0;             // the light conv1d's depthwise kernel (conf_conv_kernel_size)
  std::vector<std::int64_t> subsample_channels;  // sscp_conv_channel_size, one per convolution
  std::vector<std::pair<std::int64_t, std::int64_t>> subsample_kernels;  // (time, frequency)
  std::vector<std::pair<std::int64_t, std::int64_t>> subsample_strides;  // (time, frequency)
  std::int64_t embedder_vocab = 0;
  std::int64_t projector_output = 0;  // the language model's hidden size
  std::int64_t tokens_per_clip = 0;   // audio soft tokens one clip adds (audio_soft_tokens_per_image); 0: per length
  // Phi-4-multimodal: the feed-forward width, the NeMo subsampling's time reduction (a power of two),
  // the depthwise convolution's channel multiplier, the relative attention bias's buckets, and the
  // projectors' input width (hidden_size x downsample_rate).
  std::int64_t intermediate_size = 0;
  std::int64_t time_reduction = 0;
  std::int64_t depthwise_multiplier = 0;
  std::int64_t relative_bias_buckets = 0;
  std::int64_t projector_input = 0;
};

// The image tokens one image of width x height pixels adds to the prompt, as the model's image
// processor sizes it (Gemma-3: mm_tokens_per_image at any size; Qwen2-VL: smart_resize to a
// multiple of patch x merge within its pixel bounds, one token per merged patch; Llama 4: the tiles of
// its best-fit canvas, a global tile when there are several, and their separator tokens; LLaVA: one
// token per patch of the image_size crop, and the class token with the "full" strategy; LLaVA-NeXT:
// those of the crop, then the patches of its best-fit canvas without padding and a newline per row; Mistral-3:
// one token per merged patch of the image within image_size, and a break or end token per row; Idefics3 /
// SmolVLM: image_seq_len per tile of the resized image and for the global image, with their wrapper tokens;
// InternVL: image_seq_length per tile of the grid closest in aspect ratio and for the thumbnail, and <img></img>;
// Llama 3.2 Vision: (image_size / patch_size)^2 + 1 per tile of its best-fit canvas, tokens its cross-attention
// layers attend to rather than tokens of the prompt).
std::int64_t image_tokens(const VisionTower& tower, std::int64_t width, std::int64_t height);
// The image side, in pixels, taken when none is given (the images options' default; the parameter
// report's image_tokens_per_image): a choice of fitcheck's, not a processor's.
constexpr std::int64_t kDefaultImageSidePixels = 1024;

// Gemma 3n's modules beside attention and MLP (Gemma3nTextModel, Gemma3nTextDecoderLayer): per-layer
// embeddings and their projection, AltUp's extra streams and LAuReL's low-rank residual.
struct Gemma3nModules {
  std::int64_t per_layer_input_size = 0;  // hidden_size_per_layer_input
  std::int64_t per_layer_vocab_size = 0;  // vocab_size_per_layer_input
  std::int64_t altup_inputs = 0;          // altup_num_inputs
  std::int64_t laurel_rank = 0;
};

// Zamba2's shared transformer blocks (Zamba2AttentionDecoderLayer): `count` blocks taken in turn by
// the hybrid layers, each over the concatenation of the layer's input and the token embeddings. Each
// use adds its own LoRA-style adapters and a hidden x hidden linear.
struct SharedTransformerBlocks {
  std::int64_t count = 0;           // num_mem_blocks
  std::int64_t input_width = 0;     // attention_hidden_size: 2 x hidden
  std::int64_t adapter_rank = 0;    // adapter_rank
  bool attention_adapters = false;  // use_shared_attention_adapter: q, k and v adapters per use
  bool mlp_bias = false;            // add_bias_linear on gate_up_proj and down_proj
};

// Whisper's audio encoder stem (WhisperEncoder): conv1 num_mel_bins -> hidden and conv2 hidden ->
// hidden, kernel 3, with biases, and the encoder's sinusoidal position table (max_source_positions x
// hidden), an nn.Embedding the checkpoint stores. The encoder layers are LayerShapes (is_encoder).
struct AudioEncoderStem {
  std::int64_t mel_bins = 0;
  std::int64_t conv_kernel = 3;
  std::int64_t encoder_positions = 0;  // audio frames after conv2's stride 2: 1500 for 30 s of audio
};

struct ModelDescription {
  std::string model_type;    // as in config.json (after unwrapping text_config)
  std::string architecture;  // architectures[0] when present
  std::int64_t hidden_size = 0;
  std::int64_t vocab_size = 0;
  std::int64_t num_layers = 0;  // decoder layers (+ encoder layers for encoder-decoder models)
  std::int64_t max_position_embeddings = 0;
  // Width of the token embedding when it differs from hidden_size (OPT-350m word_embed_proj_dim:
  // project_in and project_out matrices bridge the two); 0 means hidden_size.
  std::int64_t word_embedding_dim = 0;
  // Rows of the token embedding beyond vocab_size (Llama 3.2 Vision: vocab_size + 8; its lm_head has
  // vocab_size rows).
  std::int64_t extra_embedding_rows = 0;
  bool tie_word_embeddings = false;
  bool lm_head_bias = false;
  PositionEncoding position_encoding = PositionEncoding::rotary;
  std::int64_t learned_position_count = 0;  // rows of a learned position table
  std::int64_t relative_attention_num_buckets = 0;
  NormKind norm = NormKind::rms_norm;
  bool norm_has_weight = true;       // OLMo-1 uses non-parametric LayerNorm
  std::int64_t final_norms = 1;      // norms after the last layer (encoder-decoder: 2)
  std::int64_t embedding_norms = 0;  // BLOOM word_embeddings_layernorm
  // Multi-token-prediction modules the checkpoint stores beside the model (DeepSeek-V3's
  // num_nextn_predict_layers, Qwen3.5's mtp_num_hidden_layers), each one more layer of the last main
  // layer's shape, three norms and a 2h -> h projection; counted apart from total_params.
  std::int64_t multi_token_prediction_layers = 0;
  // Whether each module's checkpoint tensors also repeat the shared embedding and output head
  // (DeepSeek-V3 does; Qwen3.5 with mtp_use_dedicated_embeddings false does not).
  bool multi_token_prediction_repeats_embeddings = true;
  const char* multi_token_prediction_field = "num_nextn_predict_layers";  // the config key they come from
  // The recurrent (SSM) state's element size the config asks engines to keep (Qwen3.5's mamba_ssm_dtype
  // "float32": 4); 0 when the config names none.
  std::int64_t recurrent_state_bytes_per_element = 0;

  StoredPrecision stored_precision;
  std::optional<VisionTower> vision;      // counted apart from the language model (total_with_vision)
  std::optional<AudioTower> audio;        // counted apart from the language model (total_with_audio)
  std::optional<Gemma3nModules> gemma3n;  // counted with the language model
  // Zamba2's shared blocks, counted with the language model; the layers using them say shared_transformer.
  std::optional<SharedTransformerBlocks> shared_blocks;
  std::optional<AudioEncoderStem> audio_stem;  // Whisper: counted with the model (encoder and decoder)

  // Distinct layer kinds and, for every layer in order, the index of its kind.
  std::vector<LayerShape> layer_kinds;
  std::vector<std::uint16_t> layer_kind_of_layer;
  // Whether any layer keeps a recurrent (state-space or linear-attention) state per sequence.
  bool has_recurrent_layers() const {
    for (const LayerShape& kind : layer_kinds)
      if (kind.is_ssm()) return true;
    return false;
  }

  // Defaults fitcheck applied and facts it could not read; each one shown to the user.
  std::vector<std::string> assumptions;
  // Parts of the checkpoint that are not counted (vision towers, audio encoders).
  std::vector<std::string> not_counted;
  // What fitcheck guessed rather than read by the family's modeling code (an unknown model_type
  // read as a generic decoder), each with its reason; empty when the count is exact.
  std::vector<std::string> guessed_fields;
  bool parameter_count_exact() const { return guessed_fields.empty(); }
};

}  // namespace fitcheck
