// SPDX-License-Identifier: MIT
import { describe, expect, test } from 'vitest';
import { configFromNumbers } from '../src/model/from-numbers';
import { defaultNumbers } from '../src/model/model-inputs';
import { defaultWorkload, inferenceOptions } from '../src/inference/inference-inputs';
import { geometricGrid, sweep } from '../src/inference/sweep';
import { fixtureConfig } from './support/core';
import { core } from './support/core';

describe('inferenceOptions', () => {
  test('passes the values as typed and leaves empty ones to the core', () => {
    const options = inferenceOptions({ ...defaultWorkload, batch: ' 8 ', context: '', gpu: '' });
    expect(options.batch).toBe('8');
    expect('context' in options).toBe(false);
    expect('gpu' in options).toBe(false);
    expect('eager_attention' in options).toBe(false);
  });
  test('weight bits and group size go only with GPTQ/AWQ, also through overrides', () => {
    expect('weight_bits' in inferenceOptions(defaultWorkload)).toBe(false);
    const gptq = inferenceOptions({ ...defaultWorkload, weights: 'gptq' });
    expect(gptq.weight_bits).toBe('4');
    expect(gptq.group_size).toBe('128');
    expect(inferenceOptions(defaultWorkload, { weights: 'awq' }).weight_bits).toBe('4');
    expect(inferenceOptions(defaultWorkload, { gpu: '', context: 1024 })).toMatchObject({ context: 1024 });
  });
  test('an engine picked reaches the core; the fields it owns go only when the user changed them', () => {
    expect('engine' in inferenceOptions(defaultWorkload)).toBe(false);
    const sglang = inferenceOptions({ ...defaultWorkload, engine: 'sglang' });
    expect(sglang.engine).toBe('sglang');
    expect('gpu_memory_utilization' in sglang).toBe(false);
    expect('prefill_chunk' in sglang).toBe(false);
    expect('hbm_efficiency' in sglang).toBe(false);
    expect(inferenceOptions({ ...defaultWorkload, engine: 'sglang', gpu_memory_utilization: '0.8' })).toMatchObject({
      gpu_memory_utilization: '0.8',
    });
    // The core applies SGLang's profile on the default H100: mem_fraction_static = (memory - 10 GiB) / memory,
    // 8192-token prefill chunks, 1-token pages.
    const report = core.inferenceReport(JSON.stringify(configFromNumbers(defaultNumbers)), sglang);
    expect(report.engine).toBe('sglang');
    expect(report.workload.prefill_chunk).toBe(8192);
    expect(report.workload.kv_block).toBe(1);
    const gib = report.gpu!.memory_bytes / 2 ** 30;
    expect(report.workload.gpu_memory_utilization).toBeCloseTo((gib - 10) / gib, 6);
  });
  test('the expert dispatcher reaches the core only while ep is wider than tp', () => {
    const deepep = { ...defaultWorkload, moe_dispatcher: 'deepep' };
    expect('moe_dispatcher' in inferenceOptions(deepep)).toBe(false);
    expect(inferenceOptions({ ...deepep, ep: '16' }).moe_dispatcher).toBe('deepep');
    expect('moe_dispatcher' in inferenceOptions({ ...deepep, ep: '8', tp: '8' })).toBe(false);
    expect('moe_dispatcher' in inferenceOptions({ ...defaultWorkload, ep: '16' })).toBe(false);
  });
});

describe('from numbers', () => {
  test("Llama-3.1-8B's shape gives its published count, 8,030,261,248 (meta-llama model card)", () => {
    expect(core.parameterReport(JSON.stringify(configFromNumbers(defaultNumbers))).total_params).toBe(8030261248);
  });
  test('with experts the config is Mixtral-style; Mixtral-8x7B gives 46,702,792,704', () => {
    const config = configFromNumbers({
      ...defaultNumbers,
      vocab_size: '32000',
      intermediate_size: '14336',
      max_position_embeddings: '32768',
      num_local_experts: '8',
      num_experts_per_tok: '2',
    });
    expect(config.model_type).toBe('mixtral');
    expect(core.parameterReport(JSON.stringify(config)).total_params).toBe(46702792704);
  });
  test('text that is not a number reaches the core, which names the field', () => {
    const config = configFromNumbers({ ...defaultNumbers, hidden_size: 'lots' });
    expect(() => core.parameterReport(JSON.stringify(config))).toThrow(
      expect.objectContaining({ field: 'hidden_size' }),
    );
  });
});

describe('sweep grid', () => {
  test('two points per doubling, includes the current value, bounded', () => {
    expect(geometricGrid(1, 16, 5)).toEqual([1, 2, 3, 4, 5, 6, 8, 12, 16]);
    const grid = geometricGrid(256, 131072, 4096, 26);
    expect(grid[0]).toBe(256);
    expect(grid.at(-1)).toBe(131072);
    expect(grid).toContain(4096);
    expect(grid.length).toBeLessThanOrEqual(26);
  });
});

describe('memory sweeps', () => {
  const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
  // The GPU (a custom one here, with its keys) and the request's lengths stay with the report.
  const workload = {
    ...defaultWorkload,
    gpu: 'custom',
    custom_gpu_base: 'h100-sxm-80gb',
    custom_gpu_memory_gib: '96',
    weights: 'bf16',
    batch: '4',
    context: '8192',
    prompt_len: '1000',
    gen_len: '500',
  };
  test('a context chart point is the report without GPU at that sequence length', () => {
    const points = sweep(core, llama, workload, 'context', [256, 4096, 131072]);
    expect(points.map((p) => p.x)).toEqual([256, 4096, 131072]);
    // 4 sequences x 131,072 B per token (32 layers x 8 KV heads x 128 x 2 x 2 B).
    expect(points.map((p) => p.kv_cache_bytes)).toEqual([256, 4096, 131072].map((x) => 4 * x * 131072));
    for (const point of points) {
      const report = core.inferenceReport(llama, { weights: 'bf16', batch: 4, context: point.x });
      expect(point.total_bytes).toBe(report.total_bytes_per_gpu);
      expect(point.weight_bytes).toBe(16_060_522_496);
    }
  });
  test('a batch chart leaves out the batches the core refuses', () => {
    const points = sweep(core, llama, workload, 'batch', [1, 64, 16_777_217]);
    expect(points.map((p) => p.x)).toEqual([1, 64]);
    expect(points[1].kv_cache_bytes).toBe(64 * 8192 * 131072);
    expect(points[1].total_bytes).toBe(
      core.inferenceReport(llama, { weights: 'bf16', batch: 64, context: 8192, prompt_len: 1000, gen_len: 500 })
        .total_bytes_per_gpu,
    );
  });
  test('options the core refuses give no points', () => {
    expect(sweep(core, llama, { ...workload, kv_dtype: 'int3' }, 'batch', [1, 2])).toEqual([]);
  });
});
