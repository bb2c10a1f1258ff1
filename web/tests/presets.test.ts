// SPDX-License-Identifier: MIT
// Every bundled preset (scripts/make-presets.py) gives the same figures as the config.json it was
// cut from (tests/fixtures/configs), so that a key the core reads cannot be lost on the way.
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { presetConfigText, presets, type Preset } from '../src/model/presets';
import { keepReadFields } from '../src/model/config-fields';
import { core, fixtureConfig, fixtureConfigs } from './support/core';

const files = fs.readdirSync(fixtureConfigs).filter((file) => file.endsWith('.json'));

// make-presets.py: the id is the file name without .json, lowercased.
function sourceText(preset: Preset): string {
  const file = files.find((name) => name.slice(0, -'.json'.length).toLowerCase() === preset.id);
  if (!file) throw new Error(`no config in tests/fixtures/configs for preset ${preset.id}`);
  return fixtureConfig(file);
}

describe('every bundled preset reproduces its config.json', () => {
  test('there are presets', () => {
    expect(presets.length).toBeGreaterThan(50);
  });
  test.each(presets.map((preset) => [preset.id, preset] as const))(
    '%s: parameter and inference reports',
    (_, preset) => {
      const full = sourceText(preset);
      const compact = presetConfigText(preset);
      expect(JSON.stringify(core.parameterReport(compact))).toBe(JSON.stringify(core.parameterReport(full)));
      expect(JSON.stringify(core.inferenceReport(compact, {}))).toBe(JSON.stringify(core.inferenceReport(full, {})));
      expect(JSON.stringify(core.inferenceReport(compact, { gpu: 'h100' }))).toBe(
        JSON.stringify(core.inferenceReport(full, { gpu: 'h100' })),
      );
    },
  );
  test('each preset is the page cut of its config (the same rule in make-presets.py and config-fields.ts)', () => {
    const table = core.configFields();
    for (const preset of presets)
      expect(preset.config, preset.id).toEqual(keepReadFields(JSON.parse(sourceText(preset)), table));
  });
});
