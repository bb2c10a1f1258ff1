// SPDX-License-Identifier: MIT
// Loads the built WebAssembly core in Node and calls every export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sharedConfigs = path.resolve(repo, '../shared/configs');

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

test('every function the module exports is declared in types.ts, and every declared one exists', () => {
  const declared = declaredExports();
  assert.ok(Array.isArray(declared) && declared.length > 0);
  const bound = Object.keys(module).filter(
    (name) => typeof module[name] === 'function' && /^[a-z]/.test(name) && !name.startsWith('dynCall') && !name.startsWith('_'),
  );
  const boundEmbind = bound.filter((name) => module[name].argCount !== undefined);
  for (const name of declared) assert.equal(typeof module[name], 'function', `${name} is declared but not exported`);
  for (const name of boundEmbind) assert.ok(declared.includes(name), `${name} is exported but not declared in types.ts`);
});

test('version() answers', () => {
  assert.match(module.version(), /^\d+\.\d+\.\d+$/);
});

test('parameterReport() counts Llama-3.1-8B exactly', () => {
  const report = module.parameterReport(fs.readFileSync(path.join(sharedConfigs, 'meta-llama--Llama-3.1-8B.json'), 'utf8'));
  assert.equal(report.total_params, 8030261248);
  assert.equal(report.breakdown.lm_head, 128256 * 4096);
  assert.equal(report.weights_16bit.bytes, 16060522496);
});

test('core errors arrive as Error objects with the C++ message and the field', () => {
  assert.throws(
    () => module.parameterReport('{"model_type":"llama","hidden_size":"x"}'),
    (error) => error instanceof Error && error.field === 'hidden_size' && /whole number/.test(error.message),
  );
  assert.throws(() => module.parameterReport('{ nope'), (error) => error instanceof Error && /not valid JSON/.test(error.message));
  // The module stays usable after an error.
  assert.equal(module.parameterReport(fs.readFileSync(path.join(sharedConfigs, 'openai-community--gpt2.json'), 'utf8')).total_params, 124439808);
});

test('every bundled preset parses and gives its recorded count', () => {
  const presets = JSON.parse(fs.readFileSync(path.join(repo, 'web/src/presets/presets.json'), 'utf8'));
  assert.ok(presets.length >= 20);
  for (const preset of presets) {
    const report = module.parameterReport(JSON.stringify(preset.config));
    assert.equal(report.total_params, preset.total_params, preset.id);
  }
});

test('native CLI and WASM give the same parameter report for every shared config', async () => {
  const { execFileSync } = await import('node:child_process');
  const cli = path.join(repo, 'build/fitcheck');
  for (const file of fs.readdirSync(sharedConfigs).filter((name) => name.endsWith('.json'))) {
    const text = fs.readFileSync(path.join(sharedConfigs, file), 'utf8');
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
