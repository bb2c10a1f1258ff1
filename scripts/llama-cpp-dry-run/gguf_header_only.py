#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A GGUF with a config.json's real tensor shapes and types but no data: the header, then a sparse
hole of the data section's size (the file takes a few KiB on disk). llama.cpp loads it with
no_alloc and sizes every buffer as it would for the real file (README.md here).

usage: gguf_header_only.py CONFIG.json ARCH OUT.gguf [TYPE]
  ARCH: llama, qwen2, qwen3 (a dense Llama-style stack), qwen3moe or gpt-oss
  TYPE: the matrices' ggml type (f16, q8_0, q4_0, q4_k, ...; default f16); gpt-oss takes ggml-org's
        file layout instead (attention and embeddings q8_0, routed experts mxfp4)"""
import json, os, struct, sys

# ggml type: (GGML_TYPE_* id, values per block, bytes per block)
GGML_TYPES = {'f32': (0, 1, 4), 'f16': (1, 1, 2), 'q4_0': (2, 32, 18), 'q8_0': (8, 32, 34), 'q4_k': (12, 256, 144),
     'q6_k': (14, 256, 210), 'q5_k': (13, 256, 176), 'mxfp4': (39, 32, 17), 'bf16': (30, 1, 2)}

def gguf_string(text):
    b = text.encode(); return struct.pack('<Q', len(b)) + b

def kv(key, val):
    out = gguf_string(key)
    if isinstance(val, bool): return out + struct.pack('<IB', 7, val)
    if isinstance(val, int): return out + struct.pack('<II', 4, val)
    if isinstance(val, float): return out + struct.pack('<If', 6, val)
    if isinstance(val, str): return out + struct.pack('<I', 8) + gguf_string(val)
    if isinstance(val, list):
        if all(isinstance(v, bool) for v in val):
            return out + struct.pack('<IIQ', 9, 7, len(val)) + b''.join(struct.pack('<B', v) for v in val)
        return out + struct.pack('<IIQ', 9, 5, len(val)) + b''.join(struct.pack('<i', v) for v in val)
    raise TypeError(key)

def write(path, meta, tensors):
    """tensors: list of (name, shape (ggml order: ne0 first), type)."""
    align = 32
    infos = b''; off = 0
    for name, shape, typ in tensors:
        tid, blk, bb = GGML_TYPES[typ]
        n = 1
        for d in shape: n *= d
        assert shape[0] % blk == 0, (name, shape, typ)
        size = n // blk * bb
        infos += gguf_string(name) + struct.pack('<I', len(shape)) + b''.join(struct.pack('<Q', d) for d in shape) + struct.pack('<IQ', tid, off)
        off += (size + align - 1) // align * align
    kvs = b''.join(kv(k, v) for k, v in meta.items())
    head = b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(meta)) + kvs + infos
    head += b'\0' * ((-len(head)) % align)
    with open(path, 'wb') as f:
        f.write(head)
    os.truncate(path, len(head) + off)
    return len(head) + off

def header_meta(arch, vocab, context, hidden, layers, ff, heads, kv_heads, head_dim, rope_base, rms_eps):
    """The keys every architecture here reads; no vocabulary ('none' with <arch>.vocab_size)."""
    return {'general.architecture': arch, 'general.alignment': 32, 'tokenizer.ggml.model': 'none',
            f'{arch}.vocab_size': vocab, f'{arch}.context_length': context, f'{arch}.embedding_length': hidden,
            f'{arch}.block_count': layers, f'{arch}.feed_forward_length': ff,
            f'{arch}.attention.head_count': heads, f'{arch}.attention.head_count_kv': kv_heads,
            f'{arch}.attention.key_length': head_dim, f'{arch}.attention.value_length': head_dim,
            f'{arch}.rope.dimension_count': head_dim, f'{arch}.rope.freq_base': rope_base,
            f'{arch}.attention.layer_norm_rms_epsilon': rms_eps}

def llama_like(cfg, arch, wt='f16', ot='f16', et='f16'):
    h = cfg['hidden_size']; L = cfg['num_hidden_layers']; nh = cfg['num_attention_heads']
    kvh = cfg.get('num_key_value_heads', nh); hd = cfg.get('head_dim') or h // nh; ff = cfg['intermediate_size']
    V = cfg['vocab_size']
    meta = header_meta(arch, V, cfg.get('max_position_embeddings', 4096), h, L, ff, nh, kvh, hd,
                       float(cfg.get('rope_theta', 10000.0)), float(cfg.get('rms_norm_eps', 1e-5)))
    t = [('token_embd.weight', [h, V], et), ('output_norm.weight', [h], 'f32')]
    if not cfg.get('tie_word_embeddings', False): t.append(('output.weight', [h, V], ot))
    for i in range(L):
        p = f'blk.{i}.'
        t += [(p + 'attn_norm.weight', [h], 'f32'), (p + 'attn_q.weight', [h, nh * hd], wt),
              (p + 'attn_k.weight', [h, kvh * hd], wt), (p + 'attn_v.weight', [h, kvh * hd], wt),
              (p + 'attn_output.weight', [nh * hd, h], wt), (p + 'ffn_norm.weight', [h], 'f32'),
              (p + 'ffn_gate.weight', [h, ff], wt), (p + 'ffn_up.weight', [h, ff], wt), (p + 'ffn_down.weight', [ff, h], wt)]
        if arch == 'qwen2':
            t += [(p + 'attn_q.bias', [nh * hd], 'f32'), (p + 'attn_k.bias', [kvh * hd], 'f32'), (p + 'attn_v.bias', [kvh * hd], 'f32')]
        if arch in ('qwen3', 'qwen3moe'):
            t += [(p + 'attn_q_norm.weight', [hd], 'f32'), (p + 'attn_k_norm.weight', [hd], 'f32')]
    if arch == 'qwen3moe':
        # The dense FFN tensors become a router and the routed experts (ffn_*_exps: all experts in one tensor).
        E, k, ffx = cfg['num_experts'], cfg['num_experts_per_tok'], cfg['moe_intermediate_size']
        meta.update({f'{arch}.expert_count': E, f'{arch}.expert_used_count': k, f'{arch}.expert_feed_forward_length': ffx})
        dense = ('ffn_gate.weight', 'ffn_up.weight', 'ffn_down.weight')
        t = [x for x in t if not x[0].endswith(dense)]
        for i in range(L):
            p = f'blk.{i}.'
            t += [(p + 'ffn_gate_inp.weight', [h, E], 'f32'), (p + 'ffn_gate_exps.weight', [h, ffx, E], wt),
                  (p + 'ffn_up_exps.weight', [h, ffx, E], wt), (p + 'ffn_down_exps.weight', [ffx, h, E], wt)]
    return meta, t


def gpt_oss(cfg, et='q8_0', at='q8_0', xt='mxfp4'):
    arch = 'gpt-oss'
    h = cfg['hidden_size']; L = cfg['num_hidden_layers']; nh = cfg['num_attention_heads']
    kvh = cfg['num_key_value_heads']; hd = cfg['head_dim']; ffx = cfg['intermediate_size']
    E = cfg.get('num_local_experts', cfg.get('num_experts')); k = cfg.get('num_experts_per_tok', cfg.get('experts_per_token'))
    V = cfg['vocab_size']
    meta = header_meta(arch, V, 131072, h, L, ffx, nh, kvh, hd, 150000.0, 1e-5)
    meta.update({f'{arch}.expert_feed_forward_length': ffx, f'{arch}.expert_count': E,
                 f'{arch}.expert_used_count': k, f'{arch}.attention.sliding_window': cfg['sliding_window']})
    t = [('token_embd.weight', [h, V], et), ('output_norm.weight', [h], 'f32'), ('output.weight', [h, V], et)]
    for i in range(L):
        p = f'blk.{i}.'
        t += [(p + 'attn_norm.weight', [h], 'f32'), (p + 'post_attention_norm.weight', [h], 'f32'),
              (p + 'attn_q.weight', [h, nh * hd], at), (p + 'attn_k.weight', [h, kvh * hd], at),
              (p + 'attn_v.weight', [h, kvh * hd], at), (p + 'attn_q.bias', [nh * hd], 'f32'),
              (p + 'attn_k.bias', [kvh * hd], 'f32'), (p + 'attn_v.bias', [kvh * hd], 'f32'),
              (p + 'attn_output.weight', [nh * hd, h], at), (p + 'attn_output.bias', [h], 'f32'),
              (p + 'attn_sinks.weight', [nh], 'f32'),
              (p + 'ffn_gate_inp.weight', [h, E], 'f32'), (p + 'ffn_gate_inp.bias', [E], 'f32'),
              (p + 'ffn_gate_exps.weight', [h, ffx, E], xt), (p + 'ffn_down_exps.weight', [ffx, h, E], xt),
              (p + 'ffn_up_exps.weight', [h, ffx, E], xt), (p + 'ffn_gate_exps.bias', [ffx, E], 'f32'),
              (p + 'ffn_down_exps.bias', [h, E], 'f32'), (p + 'ffn_up_exps.bias', [ffx, E], 'f32')]
    return meta, t


if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cfg = json.load(open(sys.argv[1]))
    arch, out = sys.argv[2], sys.argv[3]
    wt = sys.argv[4] if len(sys.argv) > 4 else 'f16'
    if arch == 'gpt-oss':
        meta, t = gpt_oss(cfg)
    else:
        meta, t = llama_like(cfg, arch, wt, 'q6_k' if wt == 'q4_k' else wt, wt)
    print(write(out, meta, t), 'bytes')
