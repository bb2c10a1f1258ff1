// SPDX-License-Identifier: MIT
import { describe, expect, test } from 'vitest';
import { defaultWorkload } from '../src/inference/inference-inputs';
import { defaultLoadInputs, servingOptions } from '../src/serving/serving-inputs';

describe('the serving simulation options', () => {
  test("without an engine they are vLLM's, the scheduler's own keys left out, the profile's defaults not overridden", () => {
    const options = servingOptions(
      {
        ...defaultWorkload,
        batch: '16',
        context: '8192',
        prefill_chunk: '2048',
        kv_block: '32',
        max_model_len: '4096',
      },
      defaultLoadInputs,
    ) as unknown as Record<string, unknown>;
    expect(options.engine).toBe('vllm');
    for (const key of ['batch', 'context', 'prefill_chunk', 'kv_block', 'max_model_len'])
      expect(options).not.toHaveProperty(key);
    // The form's plain defaults stay out so vLLM's budget and efficiencies apply.
    for (const key of ['gpu_memory_utilization', 'flops_efficiency', 'hbm_efficiency'])
      expect(options).not.toHaveProperty(key);
    expect(options).toMatchObject({
      gpu: 'h100-sxm-80gb',
      prompt_len: '3840',
      gen_len: '256',
      concurrency: '64',
      requests: '1000',
      length_distribution: 'fixed',
    });
    expect(options).not.toHaveProperty('prompt_spread');
    expect(options).not.toHaveProperty('arrival_rate');
  });
  test('an engine picked, a rate and a spread given: as typed', () => {
    const options = servingOptions(
      { ...defaultWorkload, engine: 'sglang', hbm_efficiency: '0.7' },
      { ...defaultLoadInputs, arrival: 'rate', rate: ' 3 ', lengths: 'uniform', spread: '0.25' },
    ) as unknown as Record<string, unknown>;
    expect(options).toMatchObject({
      engine: 'sglang',
      hbm_efficiency: '0.7',
      arrival_rate: '3',
      length_distribution: 'uniform',
      prompt_spread: '0.25',
      gen_spread: '0.25',
    });
    expect(options).not.toHaveProperty('concurrency');
  });
  test("HF's static cache goes to the core, which says the simulation does not model it", () => {
    const options = servingOptions({ ...defaultWorkload, engine: 'hf', hf_cache: 'static' }, defaultLoadInputs);
    expect((options as unknown as Record<string, unknown>).hf_cache).toBe('static');
  });
});
