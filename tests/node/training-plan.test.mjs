// SPDX-License-Identifier: MIT
// The WebAssembly trainingPlanReport against the native CLI's `fitcheck plan --mode training --json`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureConfigs = path.join(repo, 'tests/fixtures/configs');
const { default: create } = await import(path.join(repo, 'build-wasm/fitcheck.mjs'));
const module = await create({ wasmBinary: fs.readFileSync(path.join(repo, 'build-wasm/fitcheck.wasm')) });

function cliPlan(text, options) {
  const args = ['plan', '-', '--mode', 'training', '--json'];
  for (const [key, value] of Object.entries(options)) args.push(`--${key.replaceAll('_', '-')}`, String(value));
  return JSON.parse(execFileSync(path.join(repo, 'build/fitcheck'), args, { input: text }).toString());
}

const cases = [
  ['meta-llama--Llama-3.1-8B.json', { gpus: 'h100-sxm-80gb,a100-sxm-80gb,l40s', max_gpus: 32, keep: 15 }],
  [
    'meta-llama--Llama-3.1-8B.json',
    {
      gpus: 'h200',
      max_gpus: 16,
      objective: 'lowest_cost',
      micro_batch_sizes: '1,2',
      zero_stages: '1,3',
      recompute_modes: 'selective,full',
      seq_len: 8192,
      global_batch_tokens: 2097152,
      train_tokens: 2e11,
      precision: 'fp8',
      optimizer: 'adam8bit',
    },
  ],
  ['mistralai--Mixtral-8x7B-v0.1.json', { gpus: 'h100-sxm-80gb', max_gpus: 64, objective: 'fewest_gpus', keep: 10 }],
  // Megatron-Core searches every parallelism, expert and interleaved pipelines included.
  [
    'mistralai--Mixtral-8x7B-v0.1.json',
    { gpus: 'h100-sxm-80gb', max_gpus: 64, global_batch_tokens: 524288, framework: 'megatron', keep: 30 },
  ],
];

for (const [file, options] of cases) {
  test(`trainingPlanReport equals the CLI's JSON: ${file} ${JSON.stringify(options)}`, () => {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    const native = cliPlan(text, options);
    const wasm = module.trainingPlanReport(text, options);
    assert.deepEqual(wasm, native);
    assert.ok(wasm.feasible > 0, 'some layout fits');
    for (const c of wasm.best) assert.ok(c.memory_bytes_per_gpu <= c.budget_bytes_per_gpu);
  });
}

test('the Mixtral plan searches expert parallelism where the framework has it', () => {
  const text = fs.readFileSync(path.join(fixtureConfigs, 'mistralai--Mixtral-8x7B-v0.1.json'), 'utf8');
  const options = { gpus: 'h100-sxm-80gb', max_gpus: 64, keep: 200 };
  const report = module.trainingPlanReport(text, { ...options, framework: 'megatron' });
  assert.ok(report.best.some((c) => c.ep > 1));
  assert.ok(report.best.every((c) => 8 % c.ep === 0 && (c.dp * c.cp) % c.ep === 0));
  // Hugging Face Accelerate has no expert or pipeline dimension: none searched, and a note says why.
  const hf = module.trainingPlanReport(text, { ...options, framework: 'hf' });
  assert.ok(hf.best.length > 0 && hf.best.every((c) => c.ep === 1 && c.pp === 1));
  assert.ok(hf.notes.some((note) => /not searched: Hugging Face .*parallelism_config\.py/.test(note)));
});

test('trainingPlanReport errors name the option', () => {
  const text = fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8');
  assert.throws(
    () => module.trainingPlanReport(text, { tp: 2 }),
    (error) => error.field === 'tp',
  );
  assert.throws(
    () => module.trainingPlanReport(text, { global_batch_tokens: 5000 }),
    (error) => error.field === 'global_batch_tokens' && /whole number of sequences/.test(error.message),
  );
  assert.throws(
    () => module.trainingPlanReport(text, { gpus: '' }),
    (error) => error.field === 'gpus',
  );
});
