// SPDX-License-Identifier: MIT
// The Local tab with a hybrid model (docs/local.md, "State-space and linear-attention layers"): the
// recurrent state shows in its own column with the CLI's bytes, grows with the slots and not with the
// context, and the command names the slots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, openLocalTab, repo } from '../support/browser.mjs';
import { cli, presetConfigFile } from './cli.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const gb = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;

test('Qwen3-Next-80B-A3B on an RTX PRO 6000: the recurrent state as the CLI places it, per slot', async () => {
  const { page, log } = await openLocalTab(browser, server.url, { preset: 'qwen--qwen3-next-80b-a3b-instruct' });
  await page.getByTestId('unit-GB').check();
  await page.getByTestId('local-gpu').fill('rtx-pro-6000');
  await page.getByTestId('local-ramGib').fill('128');

  const config = presetConfigFile('qwen--qwen3-next-80b-a3b-instruct');
  const args = ['--gpu', 'rtx-pro-6000', '--ram-gib', '128', '--weights', 'q4_k_m', '--context', '8192'];
  const one = cli('local', config, args);
  assert.equal(one.recurrent_cells, 1);
  // 36 Gated DeltaNet layers x (24,576 + 524,288) f32 values, on the GPU with every layer.
  assert.equal(one.devices[0].recurrent_state_buffer_bytes, 79036416);
  await page
    .getByTestId('local-state')
    .filter({ hasText: gb(79036416) })
    .waitFor();
  const header = await page.getByTestId('local-devices').locator('thead th').allTextContents();
  assert.deepEqual(
    header.map((h) => h.trim()),
    ['Device', 'Layers', 'Model', 'KV cache', 'State', 'Compute', 'Total', 'Limit'],
  );
  const gpuRow = page.getByTestId('local-devices').locator('tbody tr').first();
  assert.equal((await gpuRow.locator('td').nth(3).textContent()).trim(), gb(79036416));
  assert.equal((await gpuRow.locator('td').nth(5).textContent()).trim(), gb(one.devices[0].total_bytes));
  assert.match(await page.getByTestId('local-command').textContent(), / -np 1 /);

  // Four slots: four rows of state, the same KV cache.
  await page.getByTestId('local-parallel').fill('4');
  const four = cli('local', config, [...args, '--parallel', '4']);
  assert.equal(four.devices[0].recurrent_state_buffer_bytes, 4 * 79036416);
  assert.equal(four.devices[0].kv_buffer_bytes, one.devices[0].kv_buffer_bytes);
  await page
    .getByTestId('local-state')
    .filter({ hasText: gb(4 * 79036416) })
    .waitFor();
  assert.match(await page.getByTestId('local-command').textContent(), / -np 4 /);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('a transformer shows no State column', async () => {
  const { page } = await openLocalTab(browser, server.url);
  assert.ok(!(await page.getByTestId('local-devices').textContent()).includes('State'));
  assert.equal(await page.getByTestId('local-state').count(), 0);
  await page.close();
});
