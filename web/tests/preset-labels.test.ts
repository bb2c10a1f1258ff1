// SPDX-License-Identifier: MIT
// Every bundled preset's label and source line reads cleanly (scripts/make-presets.py), and the
// preset search matches version numbers as whole tokens.
import { describe, expect, test } from 'vitest';
import { presets } from '../src/model/presets';
import { matchesQuery, nameTokens, rankedMatches } from '../src/model/preset-search';

describe('preset labels', () => {
  test.each(presets.map((preset) => [preset.id, preset.label] as const))('%s: %s', (_, label) => {
    expect(label).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(label).not.toMatch(/[()[\],;\s]/);
  });
  test('labels are unique', () => {
    const labels = presets.map((preset) => preset.label.toLowerCase());
    expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
  });
  test('each label is the model name in its id', () => {
    for (const preset of presets) expect(preset.id, preset.label).toContain(preset.label.toLowerCase());
  });
  test('the source line is plain whole sentences, never cut', () => {
    for (const preset of presets) {
      expect(preset.source, preset.id).toMatch(
        /^Shapes: config\.json .*\. Parameter count: [\d,]+, from published figures\.$/,
      );
      expect(preset.source, preset.id).not.toMatch(/RECONSTRUCTED|DERIVED|file id|copied|@[0-9a-f]{6}/);
    }
  });
});

describe('preset search', () => {
  const find = (query: string) => presets.filter((preset) => matchesQuery(preset, query)).map((p) => p.id);
  test('tokens split names at punctuation and at a letter-digit boundary', () => {
    expect(nameTokens('gemma3_text Llama-3.1-8B')).toEqual(
      expect.arrayContaining(['gemma3', 'gemma', '3', 'text', 'llama', '3.1', '8b']),
    );
  });
  test('"gemma 3 27b" never finds gemma-2-27b', () => {
    expect(find('gemma 3 27b')).not.toContain('google--gemma-2-27b');
    expect(find('gemma 3 27b').sort()).toEqual(['google--gemma-3-27b-it', 'google--medgemma-27b-it']);
    expect(find('gemma 2 27b')).toEqual(['google--gemma-2-27b']);
    // Ranked: the label that names "gemma", "3" and "27b" itself before medgemma (whose 3 is its family's).
    expect(rankedMatches(presets, 'gemma 3 27b')[0].id).toBe('google--gemma-3-27b-it');
  });
  test('the models people ask for are found by the words they type', () => {
    const best = (query: string) => rankedMatches(presets, query)[0]?.id;
    expect(best('mistral nemo')).toBe('mistralai--mistral-nemo-instruct-2407');
    expect(best('qwen2.5 72b')).toBe('qwen--qwen2.5-72b-instruct');
    expect(best('qwen 2.5 7b')).toBe('qwen--qwen2.5-7b-instruct');
    expect(best('gemma 3 4b')).toBe('google--gemma-3-4b-it');
    expect(best('phi 4 mini')).toBe('microsoft--phi-4-mini-instruct');
    expect(best('phi 3 mini')).toBe('microsoft--phi-3-mini-4k-instruct');
    expect(best('mistral small 24b')).toBe('mistralai--mistral-small-24b-instruct-2501');
    expect(find('r1 distill').sort()).toEqual([
      'deepseek-ai--deepseek-r1-distill-llama-8b',
      'deepseek-ai--deepseek-r1-distill-qwen-1.5b',
      'deepseek-ai--deepseek-r1-distill-qwen-32b',
      'deepseek-ai--deepseek-r1-distill-qwen-7b',
    ]);
    expect(best('r1 distill llama')).toBe('deepseek-ai--deepseek-r1-distill-llama-8b');
    // A bare number is a version: "gemma 4" is not gemma-3-4b.
    expect(find('gemma 4')).toEqual([]);
  });
  test('a size matches whole ("7b" is not 27b or 70b), a version its point releases', () => {
    expect(find('llama 70b')).toEqual(['meta-llama--llama-3.1-70b']);
    expect(find('7b').some((id) => /27b|70b|17b/.test(id))).toBe(false);
    expect(find('llama 3')).toEqual(
      expect.arrayContaining(['meta-llama--llama-3.1-8b', 'meta-llama--llama-3.2-1b-instruct']),
    );
    expect(find('llama 3')).not.toContain('meta-llama--llama-2-7b-chat-hf');
    expect(find('qwen')).toContain('qwen--qwen2.5-0.5b-instruct');
    expect(find('moe')).toContain('qwen--qwen3-30b-a3b');
    expect(find('gemma 4')).toEqual([]);
    // A count is a size: found with its unit ("4.46b", gemma-3n-E2B's 4.46 B), never as a version.
    expect(find('gemma 4.46b')).toEqual(['google--gemma-3n-e2b-it']);
  });
});
