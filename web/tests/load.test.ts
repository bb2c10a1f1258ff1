// SPDX-License-Identifier: MIT
// core/load.ts: the inference module and the full core, each instantiated once; functions the
// inference module lacks fail with a message naming the full core. vitest.config.ts points both
// imports at one wrapper, as the single-file builds do; here a stand-in factory replaces it.
import path from 'node:path';
import { beforeEach, expect, test, vi } from 'vitest';

const wrapper = path.join(import.meta.dirname, 'support/core-node.ts');

function inferenceOnly() {
  return {
    parameterReport: (text: string) => ({ total_params: text.length }),
    inferenceReport: () => ({}),
    acceleratorCatalog: () => [],
    formatCatalog: () => ({}),
    version: () => 'test',
  };
}

beforeEach(() => {
  vi.resetModules();
  vi.doUnmock(wrapper);
});

test('both loaders share one instance when both imports name the same module', async () => {
  const factory = vi.fn(async () => inferenceOnly());
  vi.doMock(wrapper, () => ({ default: factory }));
  const { loadCore, loadInferenceCore } = await import('../src/core/load');
  const inference = await loadInferenceCore();
  const full = await loadCore();
  expect(factory).toHaveBeenCalledTimes(1);
  expect(await loadInferenceCore()).toBe(inference);
  expect(inference.parameterReport('{"a":1}')).toEqual({ total_params: 7 });
  expect(full.parameterReport('{}')).toEqual({ total_params: 2 });
});

test('the inference module names the full core for what it leaves out', async () => {
  vi.doMock(wrapper, () => ({ default: async () => inferenceOnly() }));
  const { loadInferenceCore } = await import('../src/core/load');
  const core = await loadInferenceCore();
  expect(() => core.trainingReport('{}', {})).toThrow(/trainingReport is not in the inference module/);
  expect(() => core.transformerMemReport({})).toThrow(/transformerMemReport/);
  expect(core.version()).toBe('test');
});

test('the real module (full) answers through loadInferenceCore unchanged', async () => {
  const { loadInferenceCore } = await import('../src/core/load');
  const core = await loadInferenceCore();
  expect(typeof core.trainingReport).toBe('function');
  expect(
    core.parameterReport(
      '{"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"n_positions":1024}',
    ).total_params,
  ).toBe(124439808);
});
