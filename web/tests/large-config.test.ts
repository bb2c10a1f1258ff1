// SPDX-License-Identifier: MIT
// A large pasted config is read once and cut to the keys the core reads (model/large-config.ts):
// the cut answers exactly as the whole text, refusals of the whole text are kept, and small texts
// never take this path.
import { describe, expect, test } from 'vitest';
import { largeConfigLength, readLargeConfig } from '../src/model/large-config';
import { core, fixtureConfig } from './support/core';

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');

/** The config with an ignored table as large as a tokenizer's vocabulary beside its fields. */
function padded(text: string, entries: number): string {
  const config = JSON.parse(text) as Record<string, unknown>;
  const labels: Record<string, string> = {};
  for (let i = 0; i < entries; i++) labels[String(i)] = `LABEL_${i}`;
  return JSON.stringify({ ...config, id2label: labels }, null, 2);
}

describe('reading a large pasted config', () => {
  const big = padded(llama, 40_000);

  test('the padded text is over the limit that sends it to this path', () => {
    expect(big.length).toBeGreaterThan(largeConfigLength);
  });

  test('the cut is small and gives the same parameter and inference reports as the whole text', () => {
    const read = readLargeConfig(core, big);
    expect(read.error).toBeUndefined();
    expect(read.cut).toBe(true);
    expect(read.coreText.length).toBeLessThan(2_000);
    expect(JSON.stringify(core.parameterReport(read.coreText))).toBe(JSON.stringify(core.parameterReport(big)));
    for (const options of [{}, { gpu: 'h100', batch: 8, context: 8192 }, { weights: 'fp8', kv_dtype: 'fp8' }])
      expect(JSON.stringify(core.inferenceReport(read.coreText, options))).toBe(
        JSON.stringify(core.inferenceReport(big, options)),
      );
    // 8,030,261,248: Llama-3.1-8B's published parameter count.
    expect(core.parameterReport(read.coreText).total_params).toBe(8_030_261_248);
  });

  test("the core's refusal of the whole text is kept, with its field (a duplicate key here)", () => {
    const duplicated = big.replace('"hidden_size": 4096', '"hidden_size": 4096,\n  "hidden_size": 8192');
    const read = readLargeConfig(core, duplicated);
    expect(read.cut).toBe(false);
    expect(read.error?.message).toMatch(/hidden_size/);
  });

  test('a large text that is not JSON is refused by the core, not by JSON.parse', () => {
    const read = readLargeConfig(core, `{"model_type": "llama", ${'x'.repeat(100_000)}}`);
    expect(read.error?.message).toBeTruthy();
    expect(read.error?.message).not.toMatch(/JSON\.parse|Unexpected token/);
  });
});
