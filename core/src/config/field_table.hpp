// SPDX-License-Identifier: MIT
// Every config.json key the core reads, in one table: each field under its transformers name with
// the other spellings real configs use for it (the rows: field_row.hpp; the checks and the lookup
// by name: field_names.hpp).
#pragma once

#include "config/field_row.hpp"

namespace fitcheck::detail {

// Order within a row matters: the first spelling present (and not null) is read. The aliases are
// the attribute_map entries of the transformers configuration classes (GPT2Config, BloomConfig,
// T5Config, OPTConfig, FalconConfig, MptConfig...) and the names of models' own remote code.
inline constexpr FieldNames field_table[] = {
    // What the config is.
    {FieldScope::model, "model_type"},
    {FieldScope::model, "architectures"},
    {FieldScope::model, "text_config", {}, FieldScope::model},  // Gemma-3, LLaVA, Mistral-3 wrappers
    {FieldScope::model,
     "vision_config",
     {},
     FieldScope::vision_config},  // counted (Gemma-3, Qwen2-VL, Llama 4, LLaVA), else not counted
    {FieldScope::model, "audio_config", {}, FieldScope::audio_config},  // counted (Gemma 3n), else not counted
    // Stored precision: transformers 4.56 writes `dtype` where earlier versions wrote `torch_dtype`.
    {FieldScope::model, "torch_dtype", {"dtype"}},
    {FieldScope::model, "quantization_config", {}, FieldScope::quantization_config},

    // Shapes. GPT-2 and BLOOM: n_embd/n_embed, n_layer, n_head, n_positions; MPT: d_model, n_layers,
    // n_heads, max_seq_len; T5: d_model, num_layers, num_heads, d_kv, d_ff; OPT: ffn_dim; Falcon:
    // num_kv_heads (n_head_kv in the RefinedWeb code), ffn_hidden_size; Qwen (v1): kv_channels,
    // seq_length; Megatron exports (ChatGLM): padded_vocab_size, ffn_hidden_size, seq_length.
    {FieldScope::model, "hidden_size", {"n_embd", "n_embed", "d_model"}},
    {FieldScope::model, "num_hidden_layers", {"n_layer", "num_layers", "n_layers"}},
    {FieldScope::model, "num_decoder_layers"},  // T5: decoder depth when it differs from the encoder's
    {FieldScope::model, "num_attention_heads", {"n_head", "n_heads", "num_heads"}},
    {FieldScope::model, "num_key_value_heads", {"num_kv_heads", "n_head_kv"}},
    {FieldScope::model, "multi_query"},
    {FieldScope::model, "head_dim", {"kv_channels", "attention_head_dim", "d_kv"}},
    {FieldScope::model, "intermediate_size", {"n_inner", "ffn_dim", "d_ff", "ffn_hidden_size"}},
    {FieldScope::model, "expansion_ratio"},  // MPT: MLP width as a multiple of d_model
    {FieldScope::model, "vocab_size", {"padded_vocab_size"}},
    {FieldScope::model, "max_position_embeddings", {"n_positions", "max_seq_len", "seq_length"}},
    {FieldScope::model, "tie_word_embeddings"},
    {FieldScope::model, "word_embed_proj_dim"},  // OPT-350m

    // Biases and norms. InternLM2 and Falcon name the switch `bias`, Starcoder2 `use_bias` (its own
    // row: Nemotron-H's use_bias is the Mamba projections' switch beside its attention_bias).
    {FieldScope::model, "attention_bias", {"bias"}},
    {FieldScope::model, "use_bias"},
    {FieldScope::model, "mlp_bias"},
    {FieldScope::model, "attention_out_bias"},  // Seed-OSS: o_proj's bias apart from q/k/v's
    {FieldScope::model, "hidden_act"},          // Apertus: "xielu" has learned parameters
    {FieldScope::model, "no_bias"},             // MPT
    {FieldScope::model, "enable_bias"},         // OPT
    {FieldScope::model, "do_layer_norm_before"},
    {FieldScope::model, "qk_layernorm"},  // Phi
    {FieldScope::model, "use_qk_norm"},   // Cohere (Llama 4's is a weightless L2 norm: no parameters)

    // Block layout and positions.
    {FieldScope::model, "new_decoder_architecture"},  // Falcon
    {FieldScope::model, "num_ln_in_parallel_attn"},
    {FieldScope::model, "parallel_attn"},
    {FieldScope::model, "use_parallel_residual"},  // GPT-NeoX
    {FieldScope::model, "alibi"},
    {FieldScope::model, "learned_pos_emb"},    // MPT
    {FieldScope::model, "feed_forward_proj"},  // T5
    {FieldScope::model, "relative_attention_num_buckets"},
    // Whisper (WhisperConfig): encoder and decoder stacks apart, the audio stem's mel bins, the
    // encoder's audio frames and the decoder's learned positions.
    {FieldScope::model, "encoder_layers"},
    {FieldScope::model, "decoder_layers"},
    {FieldScope::model, "encoder_attention_heads"},
    {FieldScope::model, "decoder_attention_heads"},
    {FieldScope::model, "encoder_ffn_dim"},
    {FieldScope::model, "decoder_ffn_dim"},
    {FieldScope::model, "num_mel_bins"},
    {FieldScope::model, "max_source_positions"},
    {FieldScope::model, "max_target_positions"},

    // Sliding windows.
    {FieldScope::model, "sliding_window"},
    {FieldScope::model, "layer_types"},
    {FieldScope::model, "sliding_window_pattern"},
    {FieldScope::model, "use_sliding_window"},
    {FieldScope::model, "max_window_layers"},
    // Llama 4: chunked attention on its RoPE layers, full attention on its NoPE layers.
    {FieldScope::model, "attention_chunk_size"},
    {FieldScope::model, "no_rope_layers"},
    {FieldScope::model, "no_rope_layer_interval"},

    // Mixture of experts. Mixtral: num_local_experts; Qwen2-MoE/OLMoE: num_experts; DeepSeek:
    // n_routed_experts; ERNIE 4.5: moe_num_experts and moe_k; HunYuan MoE: moe_topk; gpt-oss:
    // experts_per_token beside num_experts_per_tok.
    {FieldScope::model, "num_local_experts", {"num_experts", "n_routed_experts", "moe_num_experts"}},
    {FieldScope::model, "num_experts_per_tok", {"experts_per_token", "moe_k", "moe_topk"}},
    {FieldScope::model, "moe_intermediate_size"},
    {FieldScope::model, "shared_expert_intermediate_size"},
    {FieldScope::model, "shared_intermediate_size"},  // GraniteMoeShared
    {FieldScope::model, "n_shared_experts"},
    {FieldScope::model, "first_k_dense_replace"},
    {FieldScope::model, "moe_layer_freq"},
    {FieldScope::model, "decoder_sparse_step"},
    {FieldScope::model, "mlp_only_layers"},
    {FieldScope::model, "topk_method"},
    // ERNIE 4.5 MoE: moe_num_experts and moe_k (aliases above), shared experts and the range and step
    // of its MoE layers.
    {FieldScope::model, "moe_num_shared_experts"},
    {FieldScope::model, "moe_layer_start_index"},
    {FieldScope::model, "moe_layer_end_index"},
    {FieldScope::model, "moe_layer_interval"},
    // Llama 4: MoE layers every interleave_moe_layer_step-th layer (or listed in moe_layers), dense
    // layers of intermediate_size_mlp between them.
    {FieldScope::model, "interleave_moe_layer_step"},
    {FieldScope::model, "moe_layers"},
    {FieldScope::model, "intermediate_size_mlp"},

    // State-space (Mamba-2) mixers of hybrids: Nemotron-H spells the layer order as
    // hybrid_override_pattern ('M' Mamba-2, '*' attention, '-' MLP, 'E' MoE) or layers_block_type.
    {FieldScope::model, "hybrid_override_pattern"},
    {FieldScope::model, "layers_block_type"},
    {FieldScope::model, "mamba_num_heads"},
    {FieldScope::model, "mamba_head_dim"},
    {FieldScope::model, "ssm_state_size"},
    {FieldScope::model, "n_groups"},
    {FieldScope::model, "conv_kernel"},
    {FieldScope::model, "use_conv_bias"},
    // Mamba-1 and Mamba-2 (MambaConfig, Mamba2Config): state_size, expand (inner width = expand x
    // hidden_size), and Mamba-2's num_heads, read through the num_attention_heads row (where
    // `num_heads` is an alias).
    {FieldScope::model, "state_size"},
    {FieldScope::model, "expand"},
    {FieldScope::model, "time_step_rank"},  // Mamba-1 (MambaConfig, FalconMambaConfig): the rank of dt
    // Bamba and Granite-4.0-H (BambaConfig, GraniteMoeHybridConfig) spell the mixer mamba_*;
    // Bamba names its attention layers in attn_layer_indices, Granite-4.0-H every layer in
    // layer_types, and position_embedding_type says whether its attention is rotary ("rope").
    {FieldScope::model, "mamba_d_state"},
    {FieldScope::model, "mamba_d_conv"},
    {FieldScope::model, "mamba_expand"},
    {FieldScope::model, "mamba_n_heads"},
    {FieldScope::model, "mamba_d_head"},
    {FieldScope::model, "mamba_n_groups"},
    {FieldScope::model, "mamba_conv_bias"},
    {FieldScope::model, "mamba_proj_bias"},
    {FieldScope::model, "attn_layer_indices"},
    // Falcon-H1 (FalconH1Config): the mixer's inner width apart from mamba_expand, the optional gated
    // norm, and out_proj's own bias switch.
    {FieldScope::model, "mamba_d_ssm"},
    {FieldScope::model, "mamba_rms_norm"},
    {FieldScope::model, "projectors_bias"},
    // Zamba2 (Zamba2Config): its Mamba-2 heads and groups, and the shared transformer blocks with
    // their per-use adapters.
    {FieldScope::model, "n_mamba_heads"},
    {FieldScope::model, "mamba_ngroups"},
    {FieldScope::model, "add_bias_linear"},
    {FieldScope::model, "num_mem_blocks"},
    {FieldScope::model, "use_shared_attention_adapter"},
    {FieldScope::model, "adapter_rank"},
    {FieldScope::model, "use_mem_rope"},
    // Jamba (JambaConfig): attention every attn_layer_period layers from attn_layer_offset, routed
    // experts every expert_layer_period layers from expert_layer_offset, and mamba_dt_rank.
    {FieldScope::model, "attn_layer_offset"},
    {FieldScope::model, "expert_layer_period"},
    {FieldScope::model, "expert_layer_offset"},
    {FieldScope::model, "mamba_dt_rank"},
    {FieldScope::model, "position_embedding_type"},
    // RecurrentGemma (RecurrentGemmaConfig): the RG-LRU width, its temporal conv, the local
    // attention window and the repeating pattern of recurrent and attention blocks.
    {FieldScope::model, "lru_width"},
    {FieldScope::model, "conv1d_width"},
    {FieldScope::model, "attention_window_size"},
    {FieldScope::model, "block_types"},
    // MiniMax-M1 and MiniMax-Text-01's own configs: 0 (lightning) or 1 (softmax) attention per layer.
    {FieldScope::model, "attn_type_list"},
    // Qwen3-Next's Gated DeltaNet layers (Qwen3NextConfig), full attention every
    // full_attention_interval layers when layer_types is absent.
    {FieldScope::model, "linear_num_key_heads"},
    {FieldScope::model, "linear_num_value_heads"},
    {FieldScope::model, "linear_key_head_dim"},
    {FieldScope::model, "linear_value_head_dim"},
    {FieldScope::model, "linear_conv_kernel_dim"},
    {FieldScope::model, "full_attention_interval"},
    // Qwen3.5 (Qwen3_5TextConfig, Qwen3_5MoeTextConfig): the attention's output gate, always built, and
    // the multi-token-prediction layers its checkpoints store beside the model.
    {FieldScope::model, "attn_output_gate"},
    {FieldScope::model, "mtp_num_hidden_layers"},
    {FieldScope::model, "mtp_use_dedicated_embeddings"},
    {FieldScope::model, "mamba_ssm_dtype"},
    // LFM2 (Lfm2Config): its short convolutions, the attention layers' indices when layer_types is
    // absent, and the MLP width rule (block_ff_dim is read before intermediate_size).
    {FieldScope::model, "conv_L_cache"},
    {FieldScope::model, "conv_bias"},
    {FieldScope::model, "full_attn_idxs"},
    {FieldScope::model, "block_ff_dim"},
    {FieldScope::model, "block_auto_adjust_ff_dim"},
    {FieldScope::model, "block_ffn_dim_multiplier"},
    {FieldScope::model, "block_multiple_of"},
    {FieldScope::model, "tie_embedding"},
    // LFM2-MoE (Lfm2MoeConfig): dense feed-forward in the first num_dense_layers layers, then experts
    // with a per-expert routing bias (use_expert_bias).
    {FieldScope::model, "num_dense_layers"},
    {FieldScope::model, "use_expert_bias"},
    // Read only to refuse an unknown model_type that has it: Jamba's attention period.
    {FieldScope::model, "attn_layer_period"},

    // Multi-head latent attention (DeepSeek-V2/V3) and multi-token prediction.
    {FieldScope::model, "q_lora_rank"},
    {FieldScope::model, "kv_lora_rank"},
    {FieldScope::model, "qk_nope_head_dim"},
    {FieldScope::model, "qk_rope_head_dim"},
    {FieldScope::model, "v_head_dim"},
    {FieldScope::model, "num_nextn_predict_layers"},
    // DeepSeek-V3.2's lightning indexer.
    {FieldScope::model, "index_n_heads"},
    {FieldScope::model, "index_head_dim"},
    {FieldScope::model, "index_topk"},

    // Gemma 3n (Gemma3nTextConfig): per-layer embeddings, AltUp, LAuReL and KV-sharing layers;
    // intermediate_size may be a list, one width per layer.
    {FieldScope::model, "hidden_size_per_layer_input"},
    {FieldScope::model, "vocab_size_per_layer_input"},
    {FieldScope::model, "altup_num_inputs"},
    {FieldScope::model, "laurel_rank"},
    {FieldScope::model, "num_kv_shared_layers"},

    // MPT and DBRX nest some settings.
    {FieldScope::model, "attn_config", {}, FieldScope::attn_config},
    {FieldScope::model, "ffn_config", {}, FieldScope::ffn_config},
    {FieldScope::attn_config, "alibi"},
    {FieldScope::attn_config, "kv_n_heads"},
    {FieldScope::attn_config, "attn_type"},
    {FieldScope::attn_config, "qk_ln"},
    {FieldScope::ffn_config, "ffn_hidden_size"},
    {FieldScope::ffn_config, "moe_num_experts"},
    {FieldScope::ffn_config, "moe_top_k"},

    // A vision encoder counted beside the language model (Gemma-3's SigLIP), and the image tokens
    // its projector hands the language model.
    {FieldScope::model, "mm_tokens_per_image"},
    {FieldScope::vision_config, "model_type"},
    {FieldScope::vision_config, "hidden_size"},
    {FieldScope::vision_config, "intermediate_size"},
    {FieldScope::vision_config, "num_hidden_layers"},
    {FieldScope::vision_config, "num_attention_heads"},
    {FieldScope::vision_config, "patch_size"},
    {FieldScope::vision_config, "image_size"},
    {FieldScope::vision_config, "num_channels"},
    {FieldScope::vision_config, "vision_use_head"},
    // Qwen2-VL's vision_config (Qwen2VLVisionConfig).
    {FieldScope::vision_config, "embed_dim"},
    {FieldScope::vision_config, "mlp_ratio"},
    {FieldScope::vision_config, "depth"},
    {FieldScope::vision_config, "num_heads"},
    {FieldScope::vision_config, "in_chans"},
    {FieldScope::vision_config, "temporal_patch_size"},
    {FieldScope::vision_config, "spatial_merge_size"},
    // Qwen3-VL's vision_config (Qwen3VLVisionConfig): the merger's output width, the learned position
    // table, and the encoder layers feeding DeepStack mergers.
    {FieldScope::vision_config, "in_channels"},
    {FieldScope::vision_config, "out_hidden_size"},
    {FieldScope::vision_config, "num_position_embeddings"},
    {FieldScope::vision_config, "deepstack_visual_indexes"},
    // Llama 4's vision_config (Llama4VisionConfig): the pixel-shuffle adapter and the projector's input.
    {FieldScope::vision_config, "vision_output_dim"},
    {FieldScope::vision_config, "projector_input_dim"},
    {FieldScope::vision_config, "projector_output_dim"},
    {FieldScope::vision_config, "pixel_shuffle_ratio"},
    // LLaVA (LlavaConfig): which encoder layers feed the projector, whether the class token is kept,
    // and the projector's biases.
    {FieldScope::model, "vision_feature_layer"},
    {FieldScope::model, "vision_feature_select_strategy"},
    {FieldScope::model, "multimodal_projector_bias"},
    {FieldScope::model, "image_grid_pinpoints"},  // LLaVA-NeXT: the canvases an image is tiled to
    // PaliGemma: the projector's output width (PaliGemmaConfig copies it into vision_config).
    {FieldScope::model, "projection_dim"},
    {FieldScope::vision_config, "projection_dim"},
    // Mistral-3 (Mistral3Config): the patch merger's side, and Pixtral's head width.
    {FieldScope::model, "spatial_merge_size"},
    {FieldScope::vision_config, "head_dim"},
    // Idefics3 / SmolVLM (Idefics3Config, SmolVLMConfig): the connector's pixel-shuffle factor per side.
    {FieldScope::model, "scale_factor"},
    // InternVL (InternVLConfig, InternVLVisionConfig): the projector's pixel shuffle, the image tokens of a
    // tile, and the InternViT tower's switches.
    {FieldScope::model, "downsample_ratio"},
    {FieldScope::model, "image_seq_length"},
    {FieldScope::vision_config, "attention_bias"},
    {FieldScope::vision_config, "use_qk_norm"},
    {FieldScope::vision_config, "norm_type"},
    {FieldScope::vision_config, "use_mask_token"},
    {FieldScope::vision_config, "use_absolute_position_embeddings"},
    {FieldScope::vision_config, "use_mean_pooling"},
    // Gemma 3n (Gemma3nConfig): the timm vision tower and the USM audio encoder (Gemma3nVisionConfig,
    // Gemma3nAudioConfig), their multimodal embedders' tables, and the soft tokens of one image or clip.
    {FieldScope::model, "vision_soft_tokens_per_image"},
    {FieldScope::model, "audio_soft_tokens_per_image"},
    {FieldScope::vision_config, "architecture"},
    {FieldScope::vision_config, "model_args"},
    {FieldScope::vision_config, "vocab_size"},
    // Llama 3.2 Vision (MllamaTextConfig, MllamaVisionConfig): the text layers that cross-attend to the
    // image tokens, the tower's gated global encoder, its tiles, aspect ratios and feature layers.
    {FieldScope::model, "cross_attention_layers"},
    {FieldScope::vision_config, "attention_heads"},  // MllamaVisionConfig's attribute for num_attention_heads
    {FieldScope::vision_config, "num_global_layers"},
    {FieldScope::vision_config, "max_num_tiles"},
    {FieldScope::vision_config, "supported_aspect_ratios"},
    {FieldScope::vision_config, "intermediate_layers_indices"},
    {FieldScope::audio_config, "model_type"},
    {FieldScope::audio_config, "hidden_size"},
    {FieldScope::audio_config, "vocab_size"},
    {FieldScope::audio_config, "input_feat_size"},
    {FieldScope::audio_config, "conf_num_attention_heads"},
    {FieldScope::audio_config, "conf_num_hidden_layers"},
    {FieldScope::audio_config, "conf_conv_kernel_size"},
    {FieldScope::audio_config, "sscp_conv_channel_size"},
    {FieldScope::audio_config, "sscp_conv_kernel_size"},
    {FieldScope::audio_config, "sscp_conv_stride_size"},
    // Phi-4-multimodal (Phi4MultimodalAudioConfig): the conformer's sizes, its NeMo subsampling, the
    // convolution module's channels, the relative attention bias and the projectors' input rate.
    {FieldScope::audio_config, "intermediate_size"},
    {FieldScope::audio_config, "num_blocks"},
    {FieldScope::audio_config, "num_attention_heads"},
    {FieldScope::audio_config, "kernel_size"},
    {FieldScope::audio_config, "input_size"},
    {FieldScope::audio_config, "time_reduction"},
    {FieldScope::audio_config, "nemo_conv_channels"},
    {FieldScope::audio_config, "ext_pw_out_channel"},
    {FieldScope::audio_config, "depthwise_separable_out_channel"},
    {FieldScope::audio_config, "depthwise_multiplier"},
    {FieldScope::audio_config, "bias_max_distance"},
    {FieldScope::audio_config, "bias_symmetric"},
    {FieldScope::audio_config, "downsample_rate"},

    // Quantization. GPTQ and AWQ: bits (AutoAWQ: w_bit), group_size (q_group_size); the format's
    // variant: fmt (FP8), bnb_4bit_quant_type (bitsandbytes), quant_algo (ModelOpt), format
    // (compressed-tensors); block-wise FP8 (DeepSeek-V3): weight_block_size.
    {FieldScope::quantization_config, "quant_method"},
    {FieldScope::quantization_config, "fmt", {"bnb_4bit_quant_type", "quant_algo", "format"}},
    {FieldScope::quantization_config, "bits", {"w_bit"}},
    {FieldScope::quantization_config, "load_in_4bit"},
    {FieldScope::quantization_config, "load_in_8bit"},
    {FieldScope::quantization_config, "group_size", {"q_group_size"}},
    {FieldScope::quantization_config, "weight_block_size"},

    // DeciLM / Llama-Nemotron (nemotron-nas): one block config per layer (config_nemotron_nas.cpp).
    {FieldScope::model, "block_configs", {}, FieldScope::nas_block},
    {FieldScope::nas_block, "attention", {}, FieldScope::nas_attention},
    {FieldScope::nas_block, "ffn", {}, FieldScope::nas_ffn},
    {FieldScope::nas_attention, "no_op"},
    {FieldScope::nas_attention, "replace_with_linear"},
    {FieldScope::nas_attention, "n_heads_in_group"},
    {FieldScope::nas_attention, "window_length"},
    {FieldScope::nas_attention, "num_sink_tokens"},
    {FieldScope::nas_attention, "sparsify"},
    {FieldScope::nas_ffn, "no_op"},
    {FieldScope::nas_ffn, "replace_with_linear"},
    {FieldScope::nas_ffn, "ffn_mult"},
    {FieldScope::nas_ffn, "sparsify"},
};

}  // namespace fitcheck::detail
