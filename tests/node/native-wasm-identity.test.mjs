// SPDX-License-Identifier: MIT
// Property test: the native CLI (--json) and the WebAssembly module answer byte for byte the same,
// over seeded random configs, option sets and planner inputs (parameters, inference, training, both
// planners): the same report text, or both refuse
// with the same message. FITCHECK_IDENTITY_SEED and FITCHECK_IDENTITY_CASES change the draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasmDir = process.env.FITCHECK_WASM_DIR ?? path.join(repo, 'build-wasm');
const cli = process.env.FITCHECK_CLI ?? path.join(repo, 'build/fitcheck');
const { default: create } = await import(path.join(wasmDir, 'fitcheck.mjs'));
const module = await create({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'fitcheck.wasm')) });

let seed = Number(process.env.FITCHECK_IDENTITY_SEED ?? 20261201);
const cases = Number(process.env.FITCHECK_IDENTITY_CASES ?? 40);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const some = (list, most = 3) => Array.from({ length: 1 + Math.floor(random() * most) }, () => pick(list));
const maybe = (p = 0.5) => random() < p;

// A small decoder config: llama, qwen2 or mixtral, with odd values now and then (refusals included).
function randomConfig() {
  const heads = pick([1, 2, 4, 8]);
  const kv = pick([1, 2, heads, heads, 3]);
  const config = {
    model_type: pick(['llama', 'llama', 'qwen2', 'mixtral', 'mistral']),
    hidden_size: heads * pick([8, 16, 64]),
    intermediate_size: pick([32, 128, 1000]),
    num_hidden_layers: pick([1, 2, 3, 8]),
    num_attention_heads: heads,
    num_key_value_heads: kv,
    vocab_size: pick([100, 1000, 32000]),
  };
  if (maybe(0.3)) config.tie_word_embeddings = maybe();
  if (maybe(0.3)) config.torch_dtype = pick(['bfloat16', 'float16', 'float32', 'int8']);
  if (config.model_type === 'mixtral' || maybe(0.1)) {
    config.num_local_experts = pick([0, 2, 4, 8]);
    config.num_experts_per_tok = pick([1, 2, 3, 9]);
  }
  if (maybe(0.1))
    config.quantization_config = { quant_method: 'gptq', bits: pick([4, 8]), group_size: pick([-1, 0, 32, 128]) };
  return JSON.stringify(config, null, maybe() ? 2 : 0);
}

const numberish = (good) =>
  maybe(0.85) ? String(pick(good)) : pick(['+8', ' 8', '0x8', '1e1', '8.0', '', '-1', '99999999999999999999']);
const gpuNames = ['h100-sxm-80gb', 'H100', 'h200', 'a100-sxm-80gb', 'l4', 'l40s', 'custom'];
const customFigures = () => ({
  custom_gpu_memory_gib: String(pick([24, 80, 141])),
  custom_gpu_bandwidth_gb_per_s: String(pick([900, 3000])),
  custom_gpu_bf16_tflops: String(pick([100, 989, '5e-324', 0.001, 0])),
  ...(maybe(0.3)
    ? { custom_gpu_interconnect_gb_per_s: String(pick([0, 1e-300, 450])), custom_gpu_gpus_per_node: '8' }
    : {}),
});

function inferenceOptions() {
  const options = {};
  if (maybe()) options.batch = numberish([1, 4, 32]);
  if (maybe()) options.context = numberish([128, 4096]);
  if (maybe()) options.weights = pick(['bf16', 'fp8', 'q4_k_m', 'gptq', 'int8', 'nf4']);
  if (maybe()) options.kv_dtype = pick(['bf16', 'fp8', 'int8', 'int4']);
  if (maybe(0.3)) options.tp = numberish([1, 2, 4]);
  if (maybe(0.7)) {
    options.gpu = pick(gpuNames);
    if (options.gpu === 'custom') Object.assign(options, customFigures());
    if (maybe()) options.prompt_len = numberish([16, 512]);
    if (maybe()) options.gen_len = numberish([1, 64]);
  }
  return options;
}

function planOptions() {
  const options = {
    gpus: some(gpuNames, 4).join(maybe() ? ',' : ', '),
    max_gpus: String(pick([1, 2, 4, 8])),
    keep: String(pick([3, 10])),
  };
  if (options.gpus.includes('custom')) Object.assign(options, customFigures());
  if (maybe()) options.weights = some(['bf16', 'fp8', 'int8', 'q4_k_m'], 3).join(',');
  if (maybe()) options.kv_dtypes = some(['bf16', 'fp8', 'int8'], 3).join(',');
  if (maybe()) options.batches = some(['1', '8', '8', '64'], 3).join(',');
  if (maybe(0.3)) options.objective = pick(['lowest_latency', 'highest_throughput', 'lowest_cost', 'fewest_gpus']);
  return options;
}

function trainingOptions() {
  const options = {};
  if (maybe(0.7)) {
    options.gpu = pick(['h100-sxm-80gb', 'a100-sxm-80gb', 'custom']);
    if (options.gpu === 'custom') Object.assign(options, customFigures());
  }
  if (maybe()) options.zero = numberish([0, 1, 3]);
  if (maybe()) options.micro_batch = numberish([1, 2, 4]);
  if (maybe()) options.seq_len = numberish([128, 2048]);
  if (maybe(0.3)) options.recompute = pick(['none', 'selective', 'full']);
  return options;
}

function trainingPlanOptions() {
  const options = {
    gpus: some(['h100-sxm-80gb', 'H100', 'a100-sxm-80gb', 'custom'], 3).join(','),
    max_gpus: String(pick([1, 2, 4, 8])),
    keep: '5',
  };
  if (options.gpus.includes('custom')) Object.assign(options, customFigures());
  if (maybe()) options.micro_batch_sizes = some(['1', '2', '2'], 2).join(',');
  if (maybe()) options.zero_stages = some(['0', '1', '3', '3'], 3).join(',');
  if (maybe()) options.seq_len = numberish([256, 1024]);
  return options;
}

// One run each way: {text} or {error}.
function native(command, configText, options, extra = []) {
  const args = [
    command,
    '-',
    '--json',
    ...extra,
    ...Object.entries(options).map(([k, v]) => `--${k.replaceAll('_', '-')}=${v}`),
  ];
  const run = spawnSync(cli, args, { input: configText, maxBuffer: 1 << 28 });
  if (run.status === 0) return { text: run.stdout.toString().replace(/\n$/, '') };
  return { error: run.stderr.toString() };
}
function wasm(name, configText, options) {
  try {
    return { text: module.reportText(name, configText, options) };
  } catch (error) {
    return { error: error.message };
  }
}
function same(label, a, b) {
  if ('text' in b) assert.equal(a.text, b.text, `${label}: the reports differ`);
  else {
    assert.ok('error' in a, `${label}: native answered, WebAssembly refused: ${b.error}`);
    assert.ok(a.error.includes(b.error), `${label}: different refusals:\n native ${a.error}\n wasm   ${b.error}`);
  }
}

test('native and WebAssembly answers are byte-identical over random inputs', () => {
  let reports = 0;
  let refusals = 0;
  for (let i = 0; i < cases; i += 1) {
    const config = randomConfig();
    const runs = [
      ['params', 'parameters', {}, []],
      ['infer', 'inference', inferenceOptions(), []],
      ['plan', 'plan', planOptions(), []],
      ['train', 'training', trainingOptions(), []],
    ];
    if (i % 4 === 0) runs.push(['plan', 'training_plan', trainingPlanOptions(), ['--mode=training']]);
    for (const [command, name, options, extra] of runs) {
      const label = `case ${i} ${name} ${JSON.stringify(options)} config ${config}`;
      const b = wasm(name, config, options);
      same(label, native(command, config, options, extra), b);
      if ('text' in b) reports += 1;
      else refusals += 1;
    }
  }
  // The draw must exercise both sides of the property.
  assert.ok(reports > cases, `only ${reports} reports`);
  assert.ok(refusals > 5, `only ${refusals} refusals`);
});
