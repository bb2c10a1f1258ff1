// SPDX-License-Identifier: MIT
// Seeded fuzz test of the URL-state decoding (src/url/url-state.ts, compress.ts): 20,000 hashes,
// random and mutated (compressed pasted-config payloads, truncated base64, invalid UTF-8
// percent-escapes, huge numbers, script and markup payloads), each of which must decode to a state
// of the same shape as the defaults, or to that with a reported problem; never a throw. Every field
// of the state is text or a flag (the core parses the numbers and names the option it refuses), so
// no field may come back as a number, let alone NaN or Infinity.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { encodeText } from '../src/url/compress';
import { defaultInputs, modes, type Inputs } from '../src/app/inputs';
import { objectives } from '../src/plan/plan-inputs';
import { trainingObjectives } from '../src/plan/training-plan-inputs';
import { decodeInputs, encodeInputs, hashHasState } from '../src/url/url-state';

const presetId = 'meta-llama--llama-3.1-8b';

// xorshift32 (Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8(14), 2003): the same draws on every
// platform, so a failure names an input that reproduces.
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  const below = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)];
  return { next, below, pick };
}
type Random = ReturnType<typeof generator>;

// Every key the page writes, read off the defaults (so keys added to the state are fuzzed too).
const defaults = defaultInputs(presetId);
const knownKeys = [
  'mode',
  'unit',
  'model',
  'preset',
  'cfg',
  'p.kind',
  ...Object.keys(defaults.numbers).map((key) => `m.${key}`),
  ...Object.keys(defaults.workload),
  ...Object.keys(defaults.training).map((key) => `t.${key}`),
  ...Object.keys(defaults.plan).map((key) => `p.${key}`),
  ...Object.keys(defaults.trainingPlan).map((key) => `q.${key}`),
  ...Object.keys(defaults.local).map((key) => `l.${key}`),
  ...Object.keys(defaults.load).map((key) => `s.${key}`),
];

// Values a link may carry by accident or by malice, written as they appear in the hash.
const nastyValues = [
  '',
  '0',
  '-1',
  '1',
  '4.5',
  ' 8 ',
  '1e400',
  '-1e400',
  '1e-400',
  '9'.repeat(400),
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '1_000',
  '%',
  '%%',
  '%G1',
  '%FF',
  '%C3%28',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%C0%AF',
  '%00',
  '%0A%0D',
  '%EF%BB%BF',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '<script>alert(1)</script>',
  '%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
  'javascript:alert(1)',
  '__proto__',
  'constructor',
  'toString',
  '&&',
  '==',
  '#',
  '+',
  '%2B',
  '\u{1F600}',
  '\uD800',
  'a'.repeat(5000),
  'training',
  'plan',
  'inference',
  'pasted',
  'numbers',
  'preset',
  'GB',
  'GiB',
  'custom',
  'h100',
  'lowest_cost',
  'true',
  'z',
  'b',
  'zzzz',
  'b_-_-',
  'x' + 'A'.repeat(40),
];

const configDir = path.join(import.meta.dirname, '../../tests/fixtures/configs');
const configTexts = fs
  .readdirSync(configDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .slice(0, 12)
  .map((name) => fs.readFileSync(path.join(configDir, name), 'utf8'));

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function randomText(random: Random, length: number): string {
  let text = '';
  for (let i = 0; i < length; ++i)
    text += String.fromCharCode(random.below(8) === 0 ? random.below(0x3000) : 32 + random.below(95));
  return text;
}

function randomBytes(random: Random, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => random.below(256));
}

// A cfg payload: a real config compressed ('z') or plain ('b'), then maybe broken.
async function cfgPayload(random: Random): Promise<string> {
  const config = random.pick(configTexts);
  const kind = random.below(10);
  if (kind === 0) return 'b' + base64Url(randomBytes(random, random.below(64))); // invalid UTF-8 text
  if (kind === 1) return 'z' + base64Url(randomBytes(random, random.below(64))); // not a deflate stream
  if (kind === 2)
    return 'b' + base64Url(new TextEncoder().encode('{"model_type":"<script>alert(1)</script>","hidden_size":1e400}'));
  if (kind === 3)
    return random.pick(['', 'z', 'b', 'q' + base64Url(randomBytes(random, 8)), 'z===', 'b%%%', 'z' + '/+'.repeat(8)]);
  const encoded = await encodeText(kind === 4 ? randomText(random, random.below(200)) : config);
  const cut = random.below(4);
  if (cut === 0) return encoded.slice(0, 1 + random.below(encoded.length)); // truncated base64
  if (cut === 1) {
    const at = 1 + random.below(encoded.length - 1);
    return encoded.slice(0, at) + random.pick(['A', '_', '-', '=', '%', '!', ' ', '\u00e9']) + encoded.slice(at + 1);
  }
  return encoded;
}

async function randomHash(random: Random): Promise<string> {
  const pairs: string[] = [];
  if (random.below(3) > 0) pairs.push(`model=${random.pick(['pasted', 'preset', 'numbers', 'other'])}`);
  for (let n = random.below(14); n > 0; --n) {
    const key = random.below(6) === 0 ? randomText(random, random.below(12)) : random.pick(knownKeys);
    let value: string;
    if (key === 'cfg') value = await cfgPayload(random);
    else if (random.below(5) === 0) value = randomText(random, random.below(40));
    else value = random.pick(nastyValues);
    pairs.push(random.below(20) === 0 ? key : `${key}=${value}`);
  }
  const joined = pairs.join(random.below(10) === 0 ? '&&' : '&');
  return (random.below(2) ? '#' : '') + joined;
}

// A valid link of the page, then a few edits as a paste or a chat client makes them.
async function mutatedHash(random: Random, bases: string[]): Promise<string> {
  let hash = random.pick(bases);
  for (let n = 1 + random.below(4); n > 0; --n) {
    const at = random.below(hash.length + 1);
    const edit = random.below(6);
    if (edit === 0)
      hash = hash.slice(0, at) + hash.slice(at + 1 + random.below(20)); // bytes lost
    else if (edit === 1)
      hash = hash.slice(0, at); // cut short
    else if (edit === 2) hash = hash.slice(0, at) + random.pick(nastyValues) + hash.slice(at);
    else if (edit === 3)
      hash = hash.slice(0, at) + '&' + random.pick(knownKeys) + '=' + random.pick(nastyValues) + hash.slice(at);
    else if (edit === 4)
      hash = hash.slice(0, at) + '%' + random.below(256).toString(16).toUpperCase().padStart(2, '0') + hash.slice(at);
    else hash = hash.slice(0, at) + hash.slice(at, at + 1 + random.below(30)).repeat(2) + hash.slice(at); // doubled
  }
  return hash;
}

async function baseHashes(): Promise<string[]> {
  const preset = defaultInputs(presetId);
  const pasted = {
    ...defaultInputs(presetId),
    modelKind: 'pasted' as const,
    presetId: '',
    pastedText: configTexts[0],
    mode: 'training' as const,
  };
  const numbers = { ...defaultInputs(presetId), modelKind: 'numbers' as const, presetId: '', mode: 'plan' as const };
  numbers.workload = {
    ...numbers.workload,
    gpu: 'custom',
    custom_gpu_base: 'h100-sxm-80gb',
    custom_gpu_memory_gib: '96',
    tp: '2',
  };
  numbers.training = { ...numbers.training, gpus: '8', qlora: true };
  numbers.trainingPlan = { ...numbers.trainingPlan, kind: 'training', objective: 'lowest_cost' };
  return Promise.all([preset, pasted, numbers].map((inputs) => encodeInputs(inputs)));
}

function describeHash(hash: string): string {
  return JSON.stringify(hash.length > 300 ? hash.slice(0, 300) + '...' : hash);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// The decoded state has the defaults' shape: the same keys at every level, text where the
// defaults hold text, flags where they hold flags, every string well-formed UTF-16 (it crosses
// into the WebAssembly module), and choices among the page's own.
function shapeProblems(value: unknown, reference: unknown, where: string, out: string[]): void {
  if (typeof reference === 'object' && reference !== null) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      out.push(`${where} is not an object`);
      return;
    }
    const keys = Object.keys(value).sort().join(',');
    if (keys !== Object.keys(reference).sort().join(',')) out.push(`${where} has keys ${keys}`);
    for (const key of Object.keys(reference))
      shapeProblems(
        (value as Record<string, unknown>)[key],
        (reference as Record<string, unknown>)[key],
        `${where}.${key}`,
        out,
      );
    return;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) out.push(`${where} is ${value}`);
  if (typeof value !== typeof reference) out.push(`${where} is a ${typeof value}, not a ${typeof reference}`);
  else if (typeof value === 'string' && loneSurrogate.test(value)) out.push(`${where} holds a lone surrogate`);
}

function stateProblems(inputs: Inputs, problem: string | undefined): string[] {
  const out: string[] = [];
  shapeProblems(inputs, defaults, 'inputs', out);
  if (!modes.includes(inputs.mode)) out.push(`mode ${inputs.mode}`);
  if (inputs.unit !== 'GiB' && inputs.unit !== 'GB') out.push(`unit ${inputs.unit}`);
  if (!['preset', 'pasted', 'numbers'].includes(inputs.modelKind)) out.push(`model ${inputs.modelKind}`);
  if (inputs.modelKind !== 'preset' && inputs.presetId !== '') out.push('a preset id outside preset mode');
  if (!objectives.some(([id]) => id === inputs.plan.objective)) out.push(`plan objective ${inputs.plan.objective}`);
  if (!trainingObjectives.some(([id]) => id === inputs.trainingPlan.objective))
    out.push(`training objective ${inputs.trainingPlan.objective}`);
  if (!['inference', 'training'].includes(inputs.trainingPlan.kind)) out.push(`plan kind ${inputs.trainingPlan.kind}`);
  if (problem !== undefined && !problem.startsWith('The config in the link could not be read: '))
    out.push(`problem ${problem}`);
  return out;
}

// Decodes, checks, and for every `roundTripEvery`-th input encodes the state again: decoding that
// link must give the same state back (what the page writes after it reads a link).
async function check(hashes: string[], roundTripEvery: number): Promise<string[]> {
  const failures: string[] = [];
  for (const [i, hash] of hashes.entries()) {
    try {
      if (typeof hashHasState(hash) !== 'boolean') failures.push(`hashHasState ${describeHash(hash)}`);
      const { inputs, problem } = await decodeInputs(hash, presetId);
      const problems = stateProblems(inputs, problem);
      if (problems.length > 0) failures.push(`${describeHash(hash)}: ${problems.slice(0, 3).join('; ')}`);
      if (i % roundTripEvery === 0) {
        const again = await decodeInputs(await encodeInputs(inputs), presetId);
        const twice = await decodeInputs(await encodeInputs(again.inputs), presetId);
        // (a pasted config travels exactly, so one pass would do; two catch any drift)
        expect.soft(twice.inputs, `round trip of ${describeHash(hash)}`).toEqual(again.inputs);
      }
    } catch (error) {
      failures.push(`${describeHash(hash)} threw ${(error as Error).stack ?? String(error)}`);
    }
    if (failures.length >= 5) break;
  }
  return failures;
}

describe('URL-state decoding under 20,000 seeded inputs', () => {
  test('8,000 random hashes', async () => {
    const random = generator(0x5eed0001);
    const hashes: string[] = [];
    for (let i = 0; i < 8000; ++i) hashes.push(await randomHash(random));
    expect(await check(hashes, 8)).toEqual([]);
  }, 300_000);

  test('8,000 mutations of the links the page writes', async () => {
    const random = generator(0x5eed0002);
    const bases = await baseHashes();
    const hashes: string[] = [];
    for (let i = 0; i < 8000; ++i) hashes.push(await mutatedHash(random, bases));
    expect(await check(hashes, 8)).toEqual([]);
  }, 300_000);

  test('4,000 pasted-config payloads, whole, truncated, corrupted or not a config at all', async () => {
    const random = generator(0x5eed0003);
    const hashes: string[] = [];
    for (let i = 0; i < 4000; ++i) {
      const extra = random.below(3) === 0 ? `&mode=${random.pick(['training', 'plan', '%FF'])}` : '';
      hashes.push(`#model=pasted&cfg=${await cfgPayload(random)}${extra}`);
    }
    expect(await check(hashes, 4)).toEqual([]);
  }, 300_000);

  test('a broken payload is reported and the rest of the link still applies', async () => {
    // A real config compressed, its base64 cut to half: the inflate stream ends early.
    const encoded = await encodeText(configTexts[0]);
    const { inputs, problem } = await decodeInputs(
      `#model=pasted&mode=training&t.gpus=8&cfg=${encoded.slice(0, encoded.length >> 1)}`,
      presetId,
    );
    expect(problem).toMatch(/^The config in the link could not be read: /);
    expect(inputs.mode).toBe('training');
    expect(inputs.training.gpus).toBe('8');
    expect(inputs.pastedText).toBe('');
    // Invalid UTF-8 in a percent-escape becomes U+FFFD, never a throw or a lone byte.
    const odd = await decodeInputs('#model=numbers&m.hidden_size=%C3%28&tp=%ED%A0%80&gpu=%3Cscript%3E', presetId);
    expect(odd.problem).toBeUndefined();
    expect(odd.inputs.numbers.hidden_size).toBe('\uFFFD(');
    expect(odd.inputs.workload.tp).toBe('\uFFFD\uFFFD\uFFFD');
    expect(odd.inputs.workload.gpu).toBe('<script>'); // text, handed to the core as typed; rendered as text
  });
});
