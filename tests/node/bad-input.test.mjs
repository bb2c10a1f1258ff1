// SPDX-License-Identifier: MIT
// The bad-input catalogue of docs/reliability.md through the WebAssembly module: each entry gives
// a JS Error whose `field` names the config field or option and whose message says why; the module
// survives every one (deep nesting included) and never hands JavaScript NaN, Infinity or an
// integer beyond 2^53.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureConfigs = path.join(repo, 'tests/fixtures/configs');
const wasmDir = process.env.FITCHECK_WASM_DIR ?? path.join(repo, 'build-wasm');

const { default: create } = await import(path.join(wasmDir, 'fitcheck.mjs'));
const module = await create({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'fitcheck.wasm')) });

const llamaFields =
  '"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,' +
  '"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000';
const llama = `{${llamaFields}}`;
const llamaWith = (changes) => {
  // Raw JSON text per field, so that NaN and other non-JSON literals can be written.
  const base = JSON.parse(llama);
  for (const key of Object.keys(changes)) delete base[key];
  const body = JSON.stringify(base).slice(0, -1);
  return `${body}${Object.entries(changes)
    .map(([key, raw]) => `,"${key}":${raw}`)
    .join('')}}`;
};
const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
const smallTotal = 202048; // see tests/unit/bad_input_test.cpp for the arithmetic

const refusedConfigs = [
  ['truncated', llama.slice(0, -20), '', /not valid JSON \(line 1, column/],
  ['trailing comma', `{${llamaFields},}`, '', /not valid JSON/],
  ['comment', `{// a comment\n${llamaFields}}`, '', /not valid JSON \(line 1, column 2\)/],
  ['NaN in a read field', llamaWith({ vocab_size: 'NaN' }), 'vocab_size', /non-finite literal NaN/],
  ['Infinity in a read field', llamaWith({ hidden_size: 'Infinity' }), 'hidden_size', /non-finite literal Infinity/],
  ['number beyond a double', llamaWith({ rope_theta: '1e400' }), '', /beyond the range of a 64-bit float/],
  [
    'duplicate key, two values',
    `{${llamaFields},"hidden_size":128}`,
    'hidden_size',
    /appears more than once .* \(64, then 128\)/,
  ],
  [
    'string for a number',
    llamaWith({ hidden_size: '"64"' }),
    'hidden_size',
    /must be a whole number, but it is a string/,
  ],
  ['fraction for a count', llamaWith({ num_hidden_layers: '2.5' }), 'num_hidden_layers', /whole number/],
  ['negative', llamaWith({ num_hidden_layers: '-2' }), 'num_hidden_layers', /at least 1/],
  ['zero', llamaWith({ intermediate_size: '0' }), 'intermediate_size', /at least 1/],
  ['absurd field', llamaWith({ hidden_size: '1099511627776' }), 'hidden_size', /beyond any real model/],
  ['beyond 64 bits', llamaWith({ vocab_size: '18446744073709551615' }), 'vocab_size', /too large/],
  [
    'products beyond 2^48 parameters',
    '{"model_type":"llama","hidden_size":1048576,"intermediate_size":4194304,"num_hidden_layers":4096,"num_attention_heads":8,"vocab_size":1000}',
    'intermediate_size',
    /more than 2\^48 parameters/,
  ],
  ['heads do not divide hidden', llamaWith({ num_attention_heads: '6' }), 'num_attention_heads', /not divisible/],
  ['kv heads do not divide heads', llamaWith({ num_key_value_heads: '3' }), 'num_key_value_heads', /not a multiple/],
  ['missing required field', '{"model_type":"llama","hidden_size":64}', 'num_hidden_layers', /is missing/],
  ['missing model_type', '{"hidden_size":64}', 'model_type', /model_type' is missing/],
  [
    'layer_types against the layer count',
    llamaWith({ layer_types: '["full_attention"]' }),
    'layer_types',
    /lists 1 layers/,
  ],
  ['unsupported family', '{"model_type":"zamba","hidden_size":64}', 'model_type', /not supported yet/],
  ['not an object', '[1, 2]', '', /must be a JSON object/],
  ['empty', '', '', /not valid JSON/],
  ['deep nesting in a read field', `{"model_type":${deep}}`, '', /more than 64 levels deep/],
  ['deep nesting in an unread field', `{${llamaFields},"extra":${deep}}`, '', /more than 64 levels deep/],
  // A lone UTF-16 surrogate reaches the core as U+FFFD (TextEncoder, wasm/api.js): "llama\uFFFD" is
  // no model_type fitcheck knows, so the decoder fields are asked for; never misread as llama.
  ['lone surrogate', `{"model_type":"llama\uD800"}`, 'hidden_size', /unknown model_type/],
  ['10 MB of garbage', 'x'.repeat(10 << 20), '', /more than the 8 MiB fitcheck reads/],
];

test('bad configs give an Error naming the field and the reason, and the module survives', () => {
  for (const [name, text, field, reason] of refusedConfigs) {
    assert.throws(
      () => module.parameterReport(text),
      (error) => {
        assert.ok(error instanceof Error, name);
        assert.equal(error.field, field, `${name}: ${error.message}`);
        assert.match(error.message, reason, name);
        assert.ok(error.message.isWellFormed(), `${name}: message is not well-formed Unicode`);
        if (field) assert.ok(error.message.includes(field.split('.').pop()), `${name}: message does not name ${field}`);
        return true;
      },
      name,
    );
    assert.equal(module.parameterReport(llama).total_params, smallTotal, `module unusable after ${name}`);
  }
});

test('harmless oddities are accepted: BOM, NaN where fitcheck does not look, a repeated key with its value', () => {
  assert.equal(module.parameterReport(`\uFEFF${llama}`).total_params, smallTotal);
  const withNaN = module.parameterReport(llamaWith({ rope_scaling: '{"factor":NaN,"low":-Infinity}' }));
  assert.equal(withNaN.total_params, smallTotal);
  assert.ok(withNaN.assumptions.some((line) => line.includes('NaN/Infinity')));
  assert.equal(module.parameterReport(`{${llamaFields},"hidden_size":64}`).total_params, smallTotal);
  assert.equal(module.parameterReport(llamaWith({ padding: `"${'a'.repeat(7 << 20)}"` })).total_params, smallTotal);
  assert.equal(module.parameterReport(llamaWith({ nested: '['.repeat(63) + ']'.repeat(63) })).total_params, smallTotal);
});

test('workloads that make no sense give an Error naming the option', () => {
  const sixHeads = llamaWith({ hidden_size: '96', num_attention_heads: '6', num_key_value_heads: '3' });
  const cases = [
    ['tp does not divide the heads', llama, { tp: 3 }, 'tp', /does not divide the 4 attention heads/],
    ['tp and kv heads divide neither way', sixHeads, { tp: 2 }, 'tp', /divide neither way/],
    ['pp larger than the layers', llama, { pp: 3 }, 'pp', /larger than the 2 layers/],
    ['ep on a dense model', llama, { ep: 2 }, 'ep', /mixture-of-experts/],
    ['batch 0', llama, { batch: 0 }, 'batch', /between 1 and/],
    ['context 0', llama, { context: 0 }, 'context', /between 1 and/],
    ['utilization 0', llama, { gpu_memory_utilization: 0 }, 'gpu_memory_utilization', /between 0\.01/],
    ['utilization above 1', llama, { gpu_memory_utilization: 1.5 }, 'gpu_memory_utilization', /between 0\.01/],
    ['utilization Infinity', llama, { gpu_memory_utilization: Infinity }, 'gpu_memory_utilization', /finite number/],
    ['batch NaN', llama, { batch: NaN }, 'batch', /whole number/],
    ['unknown GPU', llama, { gpu: 'h1000' }, 'gpu', /unknown GPU 'h1000'/],
    ['unknown format', llama, { weights: 'q3_k_xl' }, 'weights', /unknown weight format/],
    ['unknown KV dtype', llama, { kv_dtype: 'fp7' }, 'kv_dtype', /unknown KV cache dtype/],
    ['unknown option', llama, { batchsize: 8 }, 'batchsize', /unknown option 'batchsize'/],
    ['GPTQ bits it cannot pack', llama, { weights: 'gptq', weight_bits: 5 }, 'weight_bits', /2, 3, 4 or 8/],
  ];
  for (const [name, config, options, field, reason] of cases) {
    assert.throws(
      () => module.inferenceReport(config, options),
      (error) =>
        error instanceof Error && error.field === field && reason.test(error.message) && error.message.includes(field),
      name,
    );
  }
  const big = fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-405B.json'), 'utf8');
  assert.throws(() => module.inferenceReport(big, { batch: 16777216, context: 4294967296 }), /exceeds 2\^/);
  assert.equal(module.inferenceReport(llama, {}).model_type, 'llama');
});

// Every number a report hands JavaScript: finite, and exact when it counts bytes or parameters.
function checkNumbers(value, where) {
  if (Array.isArray(value)) value.forEach((item, i) => checkNumbers(item, `${where}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) checkNumbers(item, `${where}.${key}`);
  else if (typeof value === 'number') {
    assert.ok(Number.isFinite(value), `${where} is ${value}`);
    // FLOP counts are estimates and may pass 2^53; byte and parameter counts are exact.
    if (Number.isInteger(value) && !/flops/.test(where))
      assert.ok(Math.abs(value) <= 2 ** 53, `${where} = ${value} is beyond 2^53`);
  } else if (value === null) {
    assert.ok(
      where.endsWith('.max_micro_batch_size') || where.endsWith('.max_sequence_tokens'),
      `${where} is null (NaN or Infinity in the core)`,
    );
  }
}

test('no report over a grid of configs and workloads holds NaN, Infinity or an inexact integer', () => {
  const files = [...fs.readdirSync(fixtureConfigs).map((name) => path.join(fixtureConfigs, name))].filter((file) =>
    file.endsWith('.json'),
  );
  const inference = [
    {},
    { gpu: 'h100-sxm-80gb', batch: 8, context: 32768, weights: 'q4_k_m', kv_dtype: 'fp8' },
    { gpu: 'v100-sxm2-16gb', weights: 'gptq', weight_bits: 3, kv_block: 16, prefill_chunk: 512 },
    { gpu: 't4', eager_attention: true, kv_dtype: 'int4', prompt_len: 1, gen_len: 1 },
    { gpu: 'tpu-v5e', weights: 'nf4', overhead_gib: 0, price_per_gpu_hour: 0 },
  ];
  const training = [
    {},
    { gpus: 64, zero: 3, gpu: 'h100-sxm-80gb', recompute: 'full' },
    { lora_rank: 16, qlora: true, gpu: 'rtx-4090' },
  ];
  let reports = 0;
  files.forEach((file, i) => {
    const text = fs.readFileSync(file, 'utf8');
    try {
      checkNumbers(module.parameterReport(text), path.basename(file));
    } catch (error) {
      if (error instanceof assert.AssertionError || !error.message) throw error;
      return; // a family fitcheck refuses, covered above
    }
    for (const options of [inference[i % inference.length], inference[(i + 2) % inference.length]]) {
      try {
        checkNumbers(module.inferenceReport(text, options), `${path.basename(file)} ${JSON.stringify(options)}`);
        reports += 1;
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
      }
    }
    try {
      checkNumbers(module.trainingReport(text, training[i % training.length]), `${path.basename(file)} training`);
      reports += 1;
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
    }
  });
  assert.ok(reports > 100, `only ${reports} reports`);
});
