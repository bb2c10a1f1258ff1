// SPDX-License-Identifier: MIT
// Loads the built WebAssembly core in Node and calls every export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { tempDir } from '../support/temp-dir.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureConfigs = path.join(repo, 'tests/fixtures/configs');

async function loadModule() {
  const { default: create } = await import(path.join(repo, 'build-wasm/fitcheck.mjs'));
  return create({ wasmBinary: fs.readFileSync(path.join(repo, 'build-wasm/fitcheck.wasm')) });
}

// The names listed in web/src/core/types.ts `moduleExports`, read from the source.
function declaredExports() {
  const source = fs.readFileSync(path.join(repo, 'web/src/core/types.ts'), 'utf8');
  const file = ts.createSourceFile('types.ts', source, ts.ScriptTarget.ES2022);
  let names;
  file.forEachChild((node) => {
    if (ts.isVariableStatement(node)) {
      for (const declaration of node.declarationList.declarations) {
        if (declaration.name.getText(file) === 'moduleExports') {
          names = declaration.initializer.elements.map((element) => element.text);
        }
      }
    }
  });
  return names;
}

const module = await loadModule();

// The names wasm/api.js and wasm/api-full.js attach to the module (`Module['name'] = function`).
function definedExports() {
  return ['wasm/api.js', 'wasm/api-full.js'].flatMap((file) =>
    [...fs.readFileSync(path.join(repo, file), 'utf8').matchAll(/^Module\['([A-Za-z]+)'\] = function/gm)].map(
      (m) => m[1],
    ),
  );
}

test('every function the module exports is declared in types.ts, and every declared one exists', () => {
  const declared = declaredExports();
  const defined = definedExports();
  assert.ok(Array.isArray(declared) && declared.length > 0);
  assert.ok(defined.length > 0);
  for (const name of declared) assert.equal(typeof module[name], 'function', `${name} is declared but not exported`);
  for (const name of defined) {
    assert.equal(typeof module[name], 'function', `${name} is defined in wasm/api*.js but not on the module`);
    assert.ok(declared.includes(name), `${name} is exported but not declared in types.ts`);
  }
});

test('version() answers', () => {
  assert.match(module.version(), /^\d+\.\d+\.\d+$/);
});

test('parameterReport() counts Llama-3.1-8B exactly', () => {
  const report = module.parameterReport(
    fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8'),
  );
  assert.equal(report.total_params, 8030261248);
  assert.equal(report.breakdown.lm_head, 128256 * 4096);
  assert.equal(report.weights_16bit.bytes, 16060522496);
});

test('core errors arrive as Error objects with the C++ message and the field', () => {
  assert.throws(
    () => module.parameterReport('{"model_type":"llama","hidden_size":"x"}'),
    (error) => error instanceof Error && error.field === 'hidden_size' && /whole number/.test(error.message),
  );
  assert.throws(
    () => module.parameterReport('{ nope'),
    (error) => error instanceof Error && /not valid JSON/.test(error.message),
  );
  // The module stays usable after an error.
  assert.equal(
    module.parameterReport(fs.readFileSync(path.join(fixtureConfigs, 'openai-community--gpt2.json'), 'utf8'))
      .total_params,
    124439808,
  );
});

test('inferenceReport() gives the exact KV cache and the capacity answers', () => {
  const text = fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8');
  const report = module.inferenceReport(text, { batch: 1, context: 8192, gpu: 'h100-sxm-80gb' });
  assert.equal(report.kv_cache_bytes, 131072 * 8192);
  assert.equal(report.weight_bytes, 16060522496);
  assert.ok(report.max_batch_size >= 1);
  assert.equal(typeof report.capacity.min_gpus.limited_by, 'string');
  assert.throws(
    () => module.inferenceReport(text, { kv_dtype: 'fp7' }),
    (error) => error instanceof Error && error.field === 'kv_dtype',
  );
  assert.throws(
    () => module.inferenceReport(text, { batchsize: 2 }),
    (error) => error.field === 'batchsize',
  );
});

test('the catalogs list GPUs and formats', () => {
  const gpus = module.acceleratorCatalog();
  assert.ok(gpus.length >= 30);
  assert.ok(gpus.some((gpu) => gpu.id === 'h100-sxm-80gb'));
  const formats = module.formatCatalog();
  assert.ok(formats.weight_formats.some((format) => format.id === 'q4_k_m'));
  assert.ok(formats.kv_cache_dtypes.some((dtype) => dtype.id === 'fp8'));
});

test('native CLI and WASM give identical inference reports over a grid of workloads', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  const grid = [
    ['meta-llama--Llama-3.1-8B.json', { batch: 4, context: 8192, gpu: 'h100-sxm-80gb' }],
    ['meta-llama--Llama-3.1-70B.json', { tp: 4, weights: 'q4_k_m', kv_dtype: 'fp8', gpu: 'a100-sxm-80gb' }],
    ['google--medgemma-27b-it.json', { context: 32768, kv_block: 16 }],
    ['deepseek-ai--DeepSeek-V3.json', { tp: 8, pp: 2, ep: 8, weights: 'fp8-block128', gpu: 'h200' }],
    ['mistralai--Mixtral-8x7B-v0.1.json', { weights: 'gptq', weight_bits: 4, group_size: 128, batch: 8 }],
    ['openai--gpt-oss-20b.json', { weights: 'mxfp4', gpu: 'rtx-4090' }],
    ['nvidia--Nemotron-H-56B-Base-8K.json', { tp: 2, batch: 8, context: 8192, gpu: 'h200' }],
  ];
  for (const [file, options] of grid) {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    const args = ['infer', '-', '--json'];
    for (const [key, value] of Object.entries(options)) args.push(`--${key.replaceAll('_', '-')}`, String(value));
    const native = JSON.parse(execFileSync(cli, args, { input: text }).toString());
    assert.deepEqual(module.inferenceReport(text, options), native, `${file} ${JSON.stringify(options)}`);
  }
});

test('native CLI and WASM give identical training reports over a grid of workloads', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  const grid = [
    ['meta-llama--Llama-3.1-8B.json', { gpu: 'h100-sxm-80gb', gpus: 8, zero: 3, micro_batch: 2, seq_len: 4096 }],
    ['meta-llama--Llama-3.1-70B.json', { gpus: 64, tp: 8, pp: 2, recompute: 'full', optimizer: 'adam8bit' }],
    ['Qwen--Qwen3-30B-A3B.json', { gpus: 16, ep: 8, tp: 2, sequence_parallel: true, gpu: 'h200' }],
    ['meta-llama--Llama-3.2-3B.json', { qlora: true, lora_rank: 16, gpu: 'rtx-4090' }],
  ];
  for (const [file, options] of grid) {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    const args = ['train', '-', '--json'];
    for (const [key, value] of Object.entries(options)) {
      args.push(`--${key.replaceAll('_', '-')}`);
      if (value !== true) args.push(String(value));
    }
    const native = JSON.parse(execFileSync(cli, args, { input: text }).toString());
    assert.deepEqual(module.trainingReport(text, options), native, `${file} ${JSON.stringify(options)}`);
  }
});

test('native CLI and WASM give identical plans', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  const text = fs.readFileSync(path.join(fixtureConfigs, 'mistralai--Mixtral-8x7B-v0.1.json'), 'utf8');
  const options = {
    gpus: 'h100-sxm-80gb,l40s',
    max_gpus: 4,
    weights: 'bf16,q4_k_m',
    kv_dtypes: 'bf16,fp8',
    batches: '1,8,64',
    keep: 10,
  };
  const args = ['plan', '-', '--json'];
  for (const [key, value] of Object.entries(options)) args.push(`--${key.replaceAll('_', '-')}`, String(value));
  const native = JSON.parse(execFileSync(cli, args, { input: text }).toString());
  const wasm = module.planReport(text, options);
  assert.deepEqual(wasm, native);
  assert.ok(wasm.feasible > 0);
});

test("transformerMemReport() gives the classic report's numbers (GiB with 2 decimals)", async () => {
  const { execFileSync } = await import('node:child_process');
  // The 20B default example: the script's own output, read from the CLI that reproduces it line for line.
  const printed = execFileSync(path.join(repo, 'build/fitcheck'), [
    'transformer-mem',
    '-ca',
    '-pa',
    '-z',
    '2',
  ]).toString();
  const report = module.transformerMemReport({
    checkpoint_activations: true,
    partition_activations: true,
    zero_stage: 2,
  });
  const byName = Object.fromEntries(report.terms.map((term) => [term.name, term.gib.toFixed(2)]));
  assert.match(printed, new RegExp(`Model Memory: ${byName.model} GB`));
  assert.match(printed, new RegExp(`Gradient Memory: ${byName.gradients} GB`));
  assert.match(printed, new RegExp(`Optimizer Memory: ${byName.optimizer} GB`));
  assert.match(printed, new RegExp(`Total Memory Required for Training: ${report.total_gib.toFixed(2)} GB`));
  assert.throws(
    () => module.transformerMemReport({ num_gpus: 0 }),
    (error) => error.field === 'num_gpus',
  );
});

test('every bundled preset parses and gives its recorded count', () => {
  const presets = JSON.parse(fs.readFileSync(path.join(repo, 'web/src/model/presets/presets.json'), 'utf8'));
  assert.ok(presets.length >= 20);
  for (const preset of presets) {
    const report = module.parameterReport(JSON.stringify(preset.config));
    assert.equal(report.total_params, preset.total_params, preset.id);
  }
});

test('configFields() is the table the CLI prints (fitcheck config-fields --json)', async () => {
  const { execFileSync } = await import('node:child_process');
  const native = JSON.parse(execFileSync(path.join(repo, 'build/fitcheck'), ['config-fields', '--json']).toString());
  const table = module.configFields();
  assert.deepEqual(table, native);
  const hidden = table.fields.find((row) => row.in === 'model' && row.name === 'hidden_size');
  assert.deepEqual(hidden.aliases, ['n_embd', 'n_embed', 'd_model']);
});

test('native CLI and WASM give the same parameter report for every fixture config', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  for (const file of fs.readdirSync(fixtureConfigs).filter((name) => name.endsWith('.json'))) {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    let wasm;
    try {
      wasm = module.parameterReport(text);
    } catch (error) {
      // Both sides must refuse it, with the same message.
      let native = '';
      try {
        execFileSync(cli, ['params', '-', '--json'], { input: text, stdio: ['pipe', 'pipe', 'pipe'] });
      } catch (failure) {
        native = failure.stderr.toString();
      }
      assert.equal(native.trim(), `fitcheck: error: ${error.message}`, file);
      continue;
    }
    const native = JSON.parse(execFileSync(cli, ['params', '-', '--json'], { input: text }).toString());
    assert.deepEqual(wasm, native, file);
  }
});

// A GGUF v3 header: u32/u64 little-endian numbers, u64-length strings (ggml docs/gguf.md).
function tinyGguf() {
  const parts = [];
  const u32 = (value) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    parts.push(b);
  };
  const u64 = (value) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    parts.push(b);
  };
  const str = (text) => {
    u64(Buffer.byteLength(text));
    parts.push(Buffer.from(text));
  };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(2); // tensors
  u64(2); // metadata key/values
  str('general.architecture');
  u32(8);
  str('llama');
  str('llama.block_count');
  u32(4);
  u32(2);
  str('token_embd.weight');
  u32(2);
  u64(256);
  u64(1000);
  u32(12);
  u64(0); // Q4_K: 1000 x 144 B
  str('output_norm.weight');
  u32(1);
  u64(256);
  u32(0);
  u64(144000); // F32: 1024 B
  return Buffer.concat([...parts, Buffer.alloc(2048)]);
}

test('checkpointReport() reads a GGUF in growing slices, as the native CLI reads the file', async () => {
  const { execFileSync } = await import('node:child_process');
  const file = tinyGguf();
  let have = 0;
  let answer;
  for (let reads = 0; reads < 20; reads++) {
    answer = module.checkpointReport(new Uint8Array(file.subarray(0, have)), file.length);
    if (!('bytes_needed' in answer)) break;
    assert.equal(answer.complete, false);
    have = Math.max(answer.bytes_needed, 2 * have);
  }
  assert.equal(answer.format, 'gguf');
  assert.equal(answer.total_parameters, 256256);
  assert.equal(answer.total_bytes, 145024);
  const dir = tempDir('fitcheck-gguf-');
  fs.writeFileSync(path.join(dir, 'tiny.gguf'), file);
  const native = JSON.parse(
    execFileSync(path.join(repo, 'build/fitcheck'), ['params', path.join(dir, 'tiny.gguf'), '--json']).toString(),
  );
  assert.deepEqual(answer, native);
  assert.throws(
    () => module.checkpointReport(new Uint8Array(file.subarray(0, 100)), 100),
    (error) => error instanceof Error && /^offset \d+: /.test(error.message) && typeof error.field === 'string',
  );
});

test('native CLI and WASM give identical serving simulations (seeded lengths and Poisson arrivals)', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  const cases = [
    ['meta-llama--Llama-3.1-8B.json', { gpu: 'h100', prompt_len: 1024, gen_len: 256, concurrency: 64, requests: 500 }],
    [
      'Qwen--Qwen3-30B-A3B.json',
      {
        gpu: 'a100',
        tp: 2,
        prompt_len: 800,
        gen_len: 200,
        arrival_rate: 8,
        requests: 400,
        seed: 3,
        length_distribution: 'uniform',
        prompt_spread: 0.5,
        gen_spread: 0.5,
      },
    ],
    [
      'google--gemma-2-9b.json',
      {
        gpu: 'l40s',
        weights: 'bf16',
        prompt_len: 3000,
        gen_len: 300,
        concurrency: 32,
        requests: 200,
        length_distribution: 'normal',
        gen_spread: 0.3,
      },
    ],
  ];
  for (const [file, options] of cases) {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    const args = ['serve-sim', '-', '--json'];
    for (const [key, value] of Object.entries(options)) args.push(`--${key.replaceAll('_', '-')}`, String(value));
    const native = JSON.parse(execFileSync(cli, args, { input: text }).toString());
    assert.deepEqual(module.servingReport(text, options), native, `${file} ${JSON.stringify(options)}`);
  }
  assert.throws(
    () =>
      module.servingReport(fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8'), {
        gpu: 'h100',
        concurency: 4,
      }),
    (error) => error.field === 'concurency',
  );
});

test("localReport (call 13) is the CLI's `fitcheck local` report, and names a wrong option", async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  const cases = [
    [
      'meta-llama--Llama-3.1-8B.json',
      { gpu: 'rtx-4090', ram_gib: 64, weights: 'q4_k_m', context: 8192, kv_dtype: 'q8_0' },
    ],
    [
      'Qwen--Qwen3-30B-A3B.json',
      {
        gpu: 'rtx-4090,rtx-3060-12gb',
        ram_gib: 64,
        weights: 'q4_k_m',
        context: 16384,
        n_cpu_moe: 8,
        tensor_split: '3,1',
      },
    ],
    ['meta-llama--Llama-3.2-3B.json', { gpu: 'm2-ultra', ram_gib: 192, flash_attention: 'off', n_gpu_layers: 10 }],
  ];
  for (const [file, options] of cases) {
    const text = fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
    const args = ['local', '-', '--json'];
    for (const [key, value] of Object.entries(options)) args.push(`--${key.replaceAll('_', '-')}`, String(value));
    const native = JSON.parse(execFileSync(cli, args, { input: text }).toString());
    assert.deepEqual(module.localReport(text, options), native, `${file} ${JSON.stringify(options)}`);
  }
  const report = module.localReport(
    fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8'),
    {
      gpu: 'rtx-4090',
      ram_gib: 64,
      weights: 'q4_k_m',
    },
  );
  assert.equal(report.n_layers, 33);
  assert.equal(report.ollama_parameters.num_ctx, 4096);
  assert.match(report.llama_cpp_command, /^llama-server -m model-q4_k_m\.gguf -ngl 33 -c 4096 /);
  assert.throws(
    () =>
      module.localReport(fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8'), {
        gpu: 'rtx-4090',
        ram_gb: 64,
      }),
    (error) => error.field === 'ram_gib' || error.field === 'ram_gb',
  );
});

test("the first-view module's inference report is the full module's without fit_changes", async () => {
  const { default: create } = await import(path.join(repo, 'build-wasm/fitcheck-inference.mjs'));
  const first = await create({ wasmBinary: fs.readFileSync(path.join(repo, 'build-wasm/fitcheck-inference.wasm')) });
  const config = fs.readFileSync(path.join(fixtureConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8');
  for (const options of [
    { gpu: 'h100-sxm-80gb' },
    { gpu: 'rtx-4060', batch: 4 }, // does not fit
    { gpu: 'h100-sxm-80gb', batch: 512, context: 131072 }, // does not fit
    {},
  ]) {
    const full = module.inferenceReport(config, options);
    const report = first.inferenceReport(config, options);
    assert.equal('fit_changes' in report, false, JSON.stringify(options));
    if (options.gpu) assert.ok(Array.isArray(full.fit_changes), JSON.stringify(options));
    if (full.fits === false) assert.ok(full.fit_changes.length > 0, JSON.stringify(options));
    delete full.fit_changes;
    assert.deepEqual(report, full);
  }
});

test('the first-view module reads the common families and leaves the others to the full module', async () => {
  const { default: create } = await import(path.join(repo, 'build-wasm/fitcheck-inference.mjs'));
  const first = await create({ wasmBinary: fs.readFileSync(path.join(repo, 'build-wasm/fitcheck-inference.wasm')) });
  const read = (file) => fs.readFileSync(path.join(fixtureConfigs, file), 'utf8');
  // Common families (and the towers of Gemma-3, Qwen2-VL and Llama 4): the full module's report.
  for (const file of ['meta-llama--Llama-3.1-8B.json', 'google--medgemma-27b-it.json', 'openai--gpt-oss-20b.json']) {
    assert.deepEqual(first.parameterReport(read(file)), module.parameterReport(read(file)), file);
  }
  // Others: refused with fullModule and the field, read by the full module.
  for (const file of [
    'state-spaces--mamba-2.8b-hf.json',
    'llava-hf--llava-1.5-7b-hf.json',
    'Qwen--Qwen3-Next-80B-A3B-Instruct.json',
    'TalTechNLP--whisper-large-et.json',
  ]) {
    assert.throws(
      () => first.parameterReport(read(file)),
      (error) => error.fullModule === true && error.field === 'model_type',
      file,
    );
    assert.ok(module.parameterReport(read(file)).total_params > 0, file);
  }
});
