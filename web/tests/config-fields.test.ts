// SPDX-License-Identifier: MIT
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { keepReadFields, nestedFields, readFields } from '../src/state/config-fields';

const script = fs.readFileSync(path.resolve(import.meta.dirname, '../../scripts/make-presets.py'), 'utf8');

function pythonSet(name: string): string[] {
  const match = new RegExp(`${name} = \\{([\\s\\S]*?)\\n\\}`).exec(script);
  if (!match) throw new Error(`${name} not found in make-presets.py`);
  return [...match[1].matchAll(/"([a-z0-9_]+)"/g)].map((m) => m[1]);
}

describe('the link whitelist', () => {
  test('is the same list as scripts/make-presets.py READ_FIELDS', () => {
    expect([...readFields].sort()).toEqual(pythonSet('READ_FIELDS').sort());
  });
  test('keeps the same nested fields as NESTED_FIELDS', () => {
    const block = /NESTED_FIELDS = \{([\s\S]*?)\}\}/.exec(script)![1];
    for (const [key, fields] of Object.entries(nestedFields)) {
      const entry = new RegExp(`"${key}": \\{([^}]*)\\}`).exec(block + '}')![1];
      expect([...fields].sort()).toEqual([...entry.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]).sort());
    }
  });
  test('drops fields the core does not read, keeps nested ones it reads', () => {
    const kept = keepReadFields({
      model_type: 'llama',
      hidden_size: 4096,
      rope_scaling: { factor: 8 },
      transformers_version: '4.43',
      quantization_config: { quant_method: 'gptq', bits: 4, damp_percent: 0.01 },
      text_config: { hidden_size: 8, bos_token_id: 1 },
      vision_config: { hidden_size: 1152 },
    });
    expect(kept).toEqual({
      model_type: 'llama',
      hidden_size: 4096,
      quantization_config: { quant_method: 'gptq', bits: 4 },
      text_config: { hidden_size: 8 },
      vision_config: {},
    });
  });
});
