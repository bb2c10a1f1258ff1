// SPDX-License-Identifier: MIT
import { describe, expect, test, vi } from 'vitest';
import { decodeText, encodeText } from '../src/url/compress';
import { defaultInputs } from '../src/app/inputs';
import { decodeInputs, encodeInputs, hashHasState } from '../src/url/url-state';

describe('compress', () => {
  test('deflate-raw + base64url round trip, URL-safe', async () => {
    const text = JSON.stringify({ model_type: 'llama', hidden_size: 4096, note: 'ü/+=' }).repeat(20);
    const encoded = await encodeText(text);
    expect(encoded[0]).toBe('z');
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encoded.length).toBeLessThan(text.length / 3);
    expect(await decodeText(encoded)).toBe(text);
  });
  test('plain base64url where CompressionStream is missing', async () => {
    vi.stubGlobal('CompressionStream', undefined);
    try {
      const encoded = await encodeText('{"a":"é"}');
      expect(encoded[0]).toBe('b');
      expect(await decodeText(encoded)).toBe('{"a":"é"}');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('inputs in the hash', () => {
  test('a preset and every knob round-trip', async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    inputs.unit = 'GB';
    inputs.workload = {
      ...inputs.workload,
      gpu: 'a100-sxm-80gb',
      tp: '4',
      weights: 'gptq',
      weight_bits: '3',
      batch: '16',
      context: '32768',
      eager_attention: true,
    };
    const hash = await encodeInputs(inputs);
    expect(hashHasState(hash)).toBe(true);
    const { inputs: back, problem } = await decodeInputs('#' + hash, 'other');
    expect(problem).toBeUndefined();
    expect(back).toEqual(inputs);
  });
  test("the operations table's phase round-trips, is left out at its default, and an unknown one is ignored", async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    expect(await encodeInputs(inputs)).not.toContain('phase=');
    inputs.opsPhase = 'decode_first';
    const hash = await encodeInputs(inputs);
    expect(hash).toContain('phase=decode_first');
    expect((await decodeInputs('#' + hash, 'other')).inputs.opsPhase).toBe('decode_first');
    expect((await decodeInputs('#model=preset&phase=sideways', 'other')).inputs.opsPhase).toBe('prefill');
  });
  test("the Local tab's inputs round-trip under l., defaults left out, a choice outside its list ignored", async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    inputs.mode = 'local';
    expect(await encodeInputs(inputs)).not.toContain('l.');
    inputs.local = {
      ...inputs.local,
      gpu: 'rtx-4090,rtx-3090',
      ramGib: '128',
      kvDtype: 'q8_0',
      flashAttention: 'off',
      kvOffload: 'off',
      mmap: 'off',
      nCpuMoe: '12',
      tensorSplit: '3,1',
      backend: 'vulkan',
      promptLen: '2048',
    };
    const hash = await encodeInputs(inputs);
    expect(hash).toContain('l.tensorSplit=3%2C1');
    expect(hash).not.toContain('l.weights');
    const { inputs: back, problem } = await decodeInputs('#' + hash, 'other');
    expect(problem).toBeUndefined();
    expect(back.mode).toBe('local');
    expect(back.local).toEqual(inputs.local);
    const odd = await decodeInputs('#model=preset&l.kvDtype=q2_x&l.backend=opencl&l.context=abc', 'other');
    expect(odd.inputs.local.kvDtype).toBe('f16');
    expect(odd.inputs.local.backend).toBe('');
    // A typed field travels as typed; the core names the problem when the tab computes.
    expect(odd.inputs.local.context).toBe('abc');
  });
  test("the serving simulation's load round-trips under s., defaults left out, a choice outside its list ignored", async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    expect(await encodeInputs(inputs)).not.toContain('s.');
    inputs.load = { ...inputs.load, open: true, arrival: 'rate', rate: '2.5', requests: '300', lengths: 'normal' };
    const hash = await encodeInputs(inputs);
    expect(hash).toContain('s.open=1');
    expect(hash).toContain('s.rate=2.5');
    expect(hash).not.toContain('s.concurrency');
    const { inputs: back, problem } = await decodeInputs('#' + hash, 'other');
    expect(problem).toBeUndefined();
    expect(back.load).toEqual(inputs.load);
    const odd = await decodeInputs('#model=preset&s.arrival=burst&s.lengths=zipf&s.requests=abc&s.open=yes', 'other');
    expect(odd.inputs.load.arrival).toBe('concurrency');
    expect(odd.inputs.load.lengths).toBe('fixed');
    expect(odd.inputs.load.open).toBe(false);
    // A typed field travels as typed; the core names the problem when the section simulates.
    expect(odd.inputs.load.requests).toBe('abc');
  });
  test('latency knobs, training and planner inputs round-trip, each tab keeping its own', async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    inputs.mode = 'plan';
    inputs.workload = {
      ...inputs.workload,
      prompt_len: '1024',
      gen_len: '64',
      flops_efficiency: '0.5',
      price_per_gpu_hour: '3.1',
      fp8_activations: false,
    };
    inputs.training = {
      ...inputs.training,
      gpus: '8',
      fsdp: 'hybrid_shard',
      fsdp_shard_group: '4',
      qlora: true,
      lora_rank: '16',
      lora_modules: 'q,v',
    };
    inputs.plan = { ...inputs.plan, gpus: 'h200,l40s', weights: 'fp8', ttft: '0.5', objective: 'lowest_cost' };
    const { inputs: back } = await decodeInputs(await encodeInputs(inputs), 'x');
    expect(back).toEqual(inputs);
  });
  test('training and planner inputs at their defaults stay out of the link', async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    inputs.training = { ...inputs.training, gpus: '8' };
    const hash = await encodeInputs(inputs);
    expect(hash).toContain('t.gpus=8');
    expect(hash).not.toMatch(/t\.(tp|zero|precision)=|p\./);
  });
  test('an old link (context, no prompt or output) still reads; an unknown objective keeps the default', async () => {
    const { inputs } = await decodeInputs(
      '#mode=training&model=preset&preset=p&context=32768&p.objective=cheapest',
      'p',
    );
    expect(inputs.mode).toBe('training');
    expect(inputs.workload.context).toBe('32768');
    expect(inputs.plan.objective).toBe('highest_throughput');
  });
  test('a pasted config travels exactly as pasted (#19 D07)', async () => {
    for (const pastedText of [
      '{"model_type":"gpt2","n_layer":12,"n_ctx":1024,"_name_or_path":"gpt2"}',
      '{"hidden_size": 4096, "hidden_size": 8192}',
      '{"vocab_size": 1e400}',
      '{\n  "model_type" : "llama"\t}\n\n',
      'not json [[[[',
      '\uFF5B"model_type":"llama"}',
      '{"a":"\u0000","b":"\\u0000"}',
    ]) {
      const inputs = { ...defaultInputs('x'), modelKind: 'pasted' as const, presetId: '', pastedText };
      const { inputs: back, problem } = await decodeInputs(await encodeInputs(inputs), 'x');
      expect(problem).toBeUndefined();
      expect(back.pastedText).toBe(pastedText);
      expect(back.modelKind).toBe('pasted');
    }
  });
  test('any well-formed text round-trips through a link unchanged (seeded fuzz, #19 D07)', async () => {
    let seed = 0x5eed0019;
    const below = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      ' ',
      '\n',
      '\t',
      '\r',
      '\\',
      '1e400',
      '-0',
      'NaN',
      '"hidden_size"',
      '\u0000',
      '%',
      '&',
      '#',
      '+',
      '=',
    ];
    for (let i = 0; i < 1500; ++i) {
      let text = '';
      const length = below(4) === 0 ? below(3000) : below(60);
      for (let k = 0; k < length; ++k) {
        const kind = below(4);
        if (kind === 0) text += pieces[below(pieces.length)];
        else if (kind === 1) text += String.fromCodePoint(below(0x80));
        else if (kind === 2) text += String.fromCodePoint(0x80 + below(0xd800 - 0x80));
        else text += String.fromCodePoint(below(2) ? 0xe000 + below(0x2000) : 0x10000 + below(0x100000));
      }
      const inputs = { ...defaultInputs('x'), modelKind: 'pasted' as const, presetId: '', pastedText: text };
      const { inputs: back } = await decodeInputs(await encodeInputs(inputs), 'x');
      expect(back.pastedText).toBe(text);
    }
  }, 120_000);
  test('"from numbers" round-trips', async () => {
    const inputs = { ...defaultInputs('x'), modelKind: 'numbers' as const, presetId: '' };
    inputs.numbers = { ...inputs.numbers, hidden_size: '2048', num_local_experts: '8', tie_word_embeddings: true };
    const { inputs: back } = await decodeInputs(await encodeInputs(inputs), 'x');
    expect(back.numbers).toEqual(inputs.numbers);
  });
  test('absent fields keep their defaults; a broken config is reported, the rest applied', async () => {
    const { inputs, problem } = await decodeInputs('#model=pasted&cfg=z!!!&batch=7', 'p');
    expect(inputs.workload.batch).toBe('7');
    // Context empty: the core holds prompt + output tokens (3840 + 256).
    expect(inputs.workload.context).toBe('');
    expect(inputs.workload.prompt_len).toBe('3840');
    expect(problem).toMatch(/could not be read/);
    expect(hashHasState('#section-2')).toBe(false);
  });
  test('a hand-written #mode=plan opens the Plan tab on the default model', async () => {
    expect(hashHasState('#mode=plan')).toBe(true);
    const { inputs, problem } = await decodeInputs('#mode=plan', 'meta-llama--Llama-3.1-8B');
    expect(inputs.mode).toBe('plan');
    expect(inputs.modelKind).toBe('preset');
    expect(inputs.presetId).toBe('meta-llama--Llama-3.1-8B');
    expect(problem).toBeUndefined();
  });
});
