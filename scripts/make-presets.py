#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes web/src/model/presets/presets.json: the architecture facts of real models, as fitcheck's own
data. Each preset keeps only the config fields the core reads, plus where they came from.

Usage: python3 scripts/make-presets.py [CONFIG_DIR ...]   (default:
tests/fixtures/configs). Run it when a config is added; the output is committed.
"""
import csv
import json
import os
import sys

# The fields fitcheck's parser reads (core/src/config_*.cpp). Everything else is left out.
READ_FIELDS = {
    "model_type", "architectures", "hidden_size", "n_embd", "n_embed", "d_model", "num_hidden_layers", "n_layer",
    "num_layers", "n_layers", "num_decoder_layers", "num_attention_heads", "n_head", "n_heads", "num_heads",
    "num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query", "head_dim", "kv_channels", "d_kv",
    "intermediate_size", "n_inner", "ffn_dim", "d_ff", "ffn_hidden_size", "expansion_ratio", "vocab_size",
    "padded_vocab_size", "max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
    "tie_word_embeddings", "attention_bias", "mlp_bias", "bias", "use_bias", "no_bias", "enable_bias",
    "sliding_window", "layer_types", "sliding_window_pattern", "use_sliding_window", "max_window_layers",
    "num_local_experts", "num_experts", "n_routed_experts", "num_experts_per_tok", "experts_per_token",
    "moe_intermediate_size", "shared_expert_intermediate_size", "n_shared_experts", "first_k_dense_replace",
    "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers", "topk_method", "shared_intermediate_size",
    "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
    "num_nextn_predict_layers", "new_decoder_architecture", "num_ln_in_parallel_attn", "parallel_attn", "alibi",
    "use_parallel_residual", "word_embed_proj_dim", "do_layer_norm_before", "learned_pos_emb", "qk_layernorm",
    "use_qk_norm", "feed_forward_proj", "relative_attention_num_buckets", "attn_config", "ffn_config",
    "quantization_config", "torch_dtype", "text_config", "vision_config", "audio_config",
}
NESTED_FIELDS = {"attn_config": {"alibi", "kv_n_heads", "attn_type", "qk_ln"},
                 "ffn_config": {"ffn_hidden_size", "moe_num_experts", "moe_top_k"},
                 "quantization_config": {"quant_method", "bits", "group_size", "fmt", "weight_block_size",
                                         "modules_to_not_convert"}}


def keep(config):
    out = {}
    for key, value in config.items():
        if key not in READ_FIELDS:
            continue
        if key == "text_config":
            out[key] = keep(value)
        elif key in ("vision_config", "audio_config"):
            out[key] = {}  # presence only: the tower is reported as not counted
        elif key in NESTED_FIELDS and isinstance(value, dict):
            out[key] = {k: v for k, v in value.items() if k in NESTED_FIELDS[key]}
        else:
            out[key] = value
    return out


def main(directories):
    presets = []
    for directory in directories:
        with open(os.path.join(directory, "MANIFEST.tsv"), newline="") as manifest:
            for row in csv.DictReader(manifest, delimiter="\t"):
                if not row.get("total_params"):
                    continue  # only models whose count is established
                with open(os.path.join(directory, row["file"])) as f:
                    config = json.load(f)
                repo = row["hf_repo_id"]
                label = repo.split("/")[-1] if "/" in repo and not repo.startswith("(") else row["file"][:-5].split("--")[-1]
                presets.append({
                    "id": row["file"][:-5].lower(),
                    "label": label,
                    "family": row["model_type"],
                    "total_params": int(row["total_params"]),
                    "source": "config: " + row["source_of_config"].split(":")[0] + "; count: " + row["source_of_count"][:160],
                    "config": keep(config),
                })
    presets.sort(key=lambda p: (p["family"].lower(), p["total_params"]))
    out_path = os.path.join(os.path.dirname(__file__), "..", "web", "src", "model", "presets", "presets.json")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as out:
        json.dump(presets, out, indent=1, sort_keys=False)
        out.write("\n")
    print(f"wrote {len(presets)} presets to {os.path.normpath(out_path)}")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    default = [os.path.join(here, "..", "tests", "fixtures", "configs")]
    main(sys.argv[1:] or default)
