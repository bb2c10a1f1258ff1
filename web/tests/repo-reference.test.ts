// SPDX-License-Identifier: MIT
// A model's name or hub URL pasted where its config.json belongs.
import { describe, expect, test } from 'vitest';
import { repoReference } from '../src/model/repo-reference';

describe('a pasted model name or hub URL', () => {
  test('a hub URL names the repository, the config.json to copy and the bundled preset', () => {
    const reference = repoReference('https://huggingface.co/openai/gpt-oss-120b/tree/main\n');
    expect(reference?.repo).toBe('openai/gpt-oss-120b');
    expect(reference?.configUrl).toBe('https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json');
    expect(reference?.preset?.id).toBe('openai--gpt-oss-120b');
    expect(reference?.message).toBe(
      '"openai/gpt-oss-120b" names a model; fitcheck needs its config.json text and never downloads anything. ' +
        "Open https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json, copy the file's text and paste it here, " +
        'or use the bundled preset gpt-oss-120b.',
    );
  });
  test('org/name alone, in any case; a model without a preset gets no offer', () => {
    expect(repoReference('meta-llama/Llama-3.1-70B')?.preset?.id).toBe('meta-llama--llama-3.1-70b');
    expect(repoReference('hf.co/Qwen/Qwen3-8B')?.preset?.label).toBe('Qwen3-8B');
    const unknown = repoReference('someone/model-we-do-not-bundle');
    expect(unknown?.preset).toBeUndefined();
    expect(unknown?.message).toMatch(/paste it here\.$/);
  });
  test('JSON and other text are not names', () => {
    expect(repoReference('{"model_type": "llama"}')).toBeUndefined();
    expect(repoReference('not json at all')).toBeUndefined();
    expect(repoReference('https://example.com/a/b')).toBeUndefined();
  });
});
