// SPDX-License-Identifier: MIT
// Reliability, round two, through the WebAssembly module and wasm/api.js (docs/reliability.md):
// a failed allocation leaves the module working, texts go in with their length (a NUL is a byte),
// one input limit refused before anything is copied, and no figure is infinite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasmDir = process.env.FITCHECK_WASM_DIR ?? path.join(repo, 'build-wasm');
const { default: create } = await import(path.join(wasmDir, 'fitcheck.mjs'));
const load = () => create({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'fitcheck.wasm')) });
const module = await load();

const llama =
  '{"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,' +
  '"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000}';
const L8 = fs.readFileSync(path.join(repo, 'tests/fixtures/configs/meta-llama--Llama-3.1-8B.json'), 'utf8');
const hostile = (name) => fs.readFileSync(path.join(repo, 'tests/fixtures/hostile', name), 'utf8');

const refusal = (call) => {
  try {
    call();
  } catch (error) {
    return error;
  }
  assert.fail('accepted');
};

test('D04: an input malloc cannot place is refused and the module keeps working', async () => {
  const m = await load(); // its own module: the heap is filled on purpose
  const before = JSON.stringify(m.inferenceReport(L8, { gpu: 'h100-sxm-80gb' }));
  const fill = [];
  for (const size of [1 << 24, 1 << 20, 1 << 16, 1 << 12]) {
    for (;;) {
      const p = m._malloc(size);
      if (!p) break;
      fill.push([p, size]);
    }
  }
  for (let freed = 0; freed < 1 << 20;) {
    const [p, size] = fill.pop();
    m._free(p);
    freed += size;
  }
  const low = Array.from(m.HEAPU8.subarray(0, 64));
  const error = refusal(() => m.inferenceReport(L8, { gpu: 'h100-sxm-80gb', custom_gpu_name: 'A'.repeat(4 << 20) }));
  assert.equal(error.constructor, Error);
  assert.match(error.message, /not enough memory for an input of \d+ bytes/);
  assert.deepEqual(Array.from(m.HEAPU8.subarray(0, 64)), low, 'nothing was written at address 0');
  for (const [p] of fill) m._free(p);
  assert.equal(JSON.stringify(m.inferenceReport(L8, { gpu: 'h100-sxm-80gb' })), before);
  assert.equal(m.parameterReport(L8).total_params, 8030261248);
  assert.match(m.version(), /^\d+\.\d+\.\d+$/);
});

test('D10: a NUL is a byte like any other: refused in a config and in an option value', () => {
  const config = refusal(() => module.parameterReport(hostile('nul-then-garbage.json')));
  assert.match(config.message, /NUL byte/);
  const option = refusal(() => module.inferenceReport(llama, { batch: '8\u0000garbage' }));
  assert.equal(option.field, 'batch');
  assert.match(option.message, /NUL byte/);
});

test("D11: one input limit, the core's, refused before the text is copied into the module", () => {
  assert.equal(module.maxInputBytes(), 8 * 1024 * 1024);
  // The page's copy of the limit (it refuses pastes before the module loads) is the core's.
  const page = fs.readFileSync(path.join(repo, 'web/src/model/config-file.ts'), 'utf8');
  const written = /export const maxConfigBytes = ([0-9 *]+);/.exec(page);
  assert.ok(written, 'web/src/model/config-file.ts defines maxConfigBytes');
  assert.equal(
    written[1].split('*').reduce((product, factor) => product * Number(factor), 1),
    module.maxInputBytes(),
  );
  const huge = `{"pad":"${'x'.repeat(50 << 20)}"}`;
  const started = performance.now();
  const error = refusal(() => module.parameterReport(huge));
  assert.ok(performance.now() - started < 2000, 'refused without parsing');
  assert.equal(error.field, '');
  assert.match(error.message, new RegExp(`config.json is ${huge.length} bytes, more than the 8 MiB fitcheck reads`));
  // Over the limit in UTF-8 bytes though not in UTF-16 units: refused with the byte count.
  const wide = `{"pad":"${'é'.repeat(5 << 20)}"}`;
  assert.match(refusal(() => module.parameterReport(wide)).message, new RegExp(`is ${(5 << 21) + 10} bytes`));
  const option = refusal(() => module.inferenceReport(llama, { custom_gpu_name: 'x'.repeat(9 << 20) }));
  assert.equal(option.field, 'custom_gpu_name');
  // Just under the limit: read.
  assert.equal(
    module.parameterReport(`{"pad":"${'x'.repeat((8 << 20) - 300)}",${llama.slice(1)}`).total_params,
    202048,
  );
});

test('D01: a custom rate that would make a figure infinite is refused naming the option; no figure is infinite', () => {
  const custom = { gpu: 'custom', custom_gpu_memory_gib: '80', custom_gpu_bandwidth_gb_per_s: '3000' };
  for (const rate of ['5e-324', '1e-300', '0.0005']) {
    assert.equal(
      refusal(() => module.inferenceReport(L8, { ...custom, custom_gpu_bf16_tflops: rate })).field,
      'custom_gpu_bf16_tflops',
    );
    assert.equal(
      refusal(() =>
        module.planReport(L8, {
          gpus: 'h100-sxm-80gb,custom',
          ...custom,
          gpu: undefined,
          custom_gpu_bf16_tflops: rate,
        }),
      ).field,
      'custom_gpu_bf16_tflops',
    );
    assert.equal(
      refusal(() =>
        module.trainingReport(L8, { ...custom, custom_gpu_memory_gib: '16384', custom_gpu_bf16_tflops: rate }),
      ).field,
      'custom_gpu_bf16_tflops',
    );
  }
  const slowest = module.inferenceReport(L8, { ...custom, custom_gpu_bf16_tflops: '0.001' });
  assert.ok(Number.isFinite(slowest.latency.end_to_end_seconds));
  assert.ok(Number.isFinite(slowest.latency.cost_per_million_output_tokens_usd));
});

test('D06: a GPU kind listed twice is planned once', () => {
  const once = module.planReport(L8, { gpus: 'h200', keep: '8' });
  const twice = module.planReport(L8, { gpus: 'h200,H200,h200', keep: '8' });
  assert.deepEqual(twice.request.gpus, ['h200']);
  assert.equal(JSON.stringify(twice.best), JSON.stringify(once.best));
});
