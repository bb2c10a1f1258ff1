// SPDX-License-Identifier: MIT
// The classic transformer_mem.py mode of the Training tab against the CLI that reproduces the script.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../support/static-server.mjs';
import { launchChromium, watchPage } from '../support/browser.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/classic/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('from numbers, no config: the classic report equals the script-compatible CLI', async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('tab-training').click();
  await page.getByTestId('classic-calculator').locator('summary').click();
  await page.getByTestId('classic-num_layers').fill('32');
  await page.getByTestId('classic-hidden_size').fill('4096');
  await page.getByTestId('classic-num_attention_heads').fill('32');
  await page.getByTestId('classic-params').fill('6900000000');
  await page.getByTestId('classic-num_gpus').fill('128');
  await page.getByTestId('classic-tensor_parallel_size').fill('2');
  await page.getByTestId('classic-batch_size_per_gpu').fill('8');
  await page.getByTestId('classic-checkpoint_activations').check();
  await page.getByTestId('classic-partition_activations').check();
  const printed = execFileSync(path.join(repo, 'build/fitcheck'), [
    'transformer-mem',
    '--num-layers=32',
    '--sequence-length=2048',
    '--num-attention-heads=32',
    '--hidden-size=4096',
    '--batch-size-per-gpu=8',
    '--checkpoint-activations',
    '--zero-stage=1',
    '--partition-activations',
    '--pipeline-parallel-size=1',
    '--tensor-parallel-size=2',
    '--num-gpus=128',
    '--params=6900000000',
  ]).toString();
  const total = printed.match(/Total Memory Required for Training: ([0-9.]+ GB)/)[1];
  await page.getByTestId('classic-total').filter({ hasText: total }).waitFor();
  const table = await page.getByTestId('classic-report').textContent();
  for (const line of [
    'Model Memory',
    'Gradient Memory',
    'Activation Memory',
    'Optimizer Memory',
    'Communication Memory',
  ]) {
    const value = printed.match(new RegExp(`${line}: ([0-9.]+ GB)`))[1];
    assert.ok(table.includes(`${line}${value}`), `${line} ${value} in ${table}`);
  }
  await page.getByTestId('classic-num_gpus').fill('0');
  await page.getByTestId('classic-num_gpus-error').waitFor();
  const origin = new URL(server.url).origin;
  for (const url of log.requests) assert.ok(url.startsWith(origin + '/'), url);
  assert.deepEqual(log.errors, []);
  await page.close();
});
