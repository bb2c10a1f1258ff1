// SPDX-License-Identifier: MIT
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { keepReadFields } from '../src/model/config-fields';
import type { CoreError } from '../src/core/types';
import { core, fixtureConfig, fixtureConfigs } from './support/core';

const table = core.configFields();

// What the core makes of a config: its reports, or its error.
function outcome(text: string): string {
  try {
    return JSON.stringify([
      core.parameterReport(text),
      core.inferenceReport(text, {}),
      core.inferenceReport(text, { gpu: 'h100' }),
    ]);
  } catch (error) {
    return `error ${(error as CoreError).field}: ${(error as Error).message}`;
  }
}

describe('the preset cut: the core table of the keys it reads', () => {
  test('drops fields the core does not read, keeps nested ones it reads', () => {
    const kept = keepReadFields(
      {
        model_type: 'llama',
        hidden_size: 4096,
        dtype: 'float32',
        rope_scaling: { factor: 8 },
        transformers_version: '4.43',
        quantization_config: { quant_method: 'gptq', bits: 4, damp_percent: 0.01 },
        text_config: { n_embed: 8, bos_token_id: 1 },
        vision_config: { hidden_size: 1152, layer_norm_eps: 1e-6 },
      },
      table,
    );
    expect(kept).toEqual({
      model_type: 'llama',
      hidden_size: 4096,
      dtype: 'float32',
      quantization_config: { quant_method: 'gptq', bits: 4 },
      text_config: { n_embed: 8 },
      vision_config: { hidden_size: 1152 },
    });
  });
  test('keeps a value of the wrong type as it is, so that the preset reproduces the error', () => {
    expect(keepReadFields({ quantization_config: 'gptq', text_config: [1] }, table)).toEqual({
      quantization_config: 'gptq',
      text_config: [1],
    });
  });
  test('every fixture config, cut down, gives the same reports (or the same error) as the whole config', () => {
    const files = fs.readdirSync(fixtureConfigs).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const text = fixtureConfig(file);
      let compact = text;
      try {
        compact = JSON.stringify(keepReadFields(JSON.parse(text), table));
      } catch {
        // NaN/Infinity literals (Nemotron-H): not JSON to the page, kept as they are
      }
      expect(outcome(compact), file).toBe(outcome(text));
      let parsed = true;
      try {
        JSON.parse(text);
      } catch {
        parsed = false; // NaN/Infinity literals (Nemotron-H): not JSON to the page, sent as they are
      }
      if (parsed) expect(compact.length, file).toBeLessThan(text.length);
      else expect(compact, file).toBe(text);
    }
  });
});
