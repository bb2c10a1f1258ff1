// SPDX-License-Identifier: MIT
// The Local tab with a vision model (docs/local.md, "Vision and audio encoders: the mmproj file"): the
// encoders' file shows in its own column on the first GPU with the CLI's bytes and in the command;
// off removes both, and a link keeps the choice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';
import { cli, localPageDefaults, presetConfigFile } from './cli.mjs';

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

test("Gemma 3 4B on an RTX 4090: the encoders' mmproj file as the CLI places it, and off", async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('unit-GB').check();
  await page.getByTestId('preset').selectOption('google--gemma-3-4b-it');
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();

  const config = presetConfigFile('google--gemma-3-4b-it');
  const report = cli('local', config, localPageDefaults('rtx-4090'));
  assert.equal(report.mmproj.type, 'f16');
  assert.equal(report.mmproj.device, 'CUDA0');
  await page
    .getByTestId('local-encoder')
    .filter({ hasText: gb(report.mmproj.bytes) })
    .waitFor();
  const header = await page.getByTestId('local-devices').locator('thead th').allTextContents();
  assert.deepEqual(
    header.map((h) => h.trim()),
    ['Device', 'Layers', 'Model', 'KV cache', 'Compute', 'Encoder', 'Total', 'Limit'],
  );
  const gpuRow = page.getByTestId('local-devices').locator('tbody tr').first();
  assert.equal((await gpuRow.locator('td').nth(4).textContent()).trim(), gb(report.mmproj.bytes));
  assert.equal((await gpuRow.locator('td').nth(5).textContent()).trim(), gb(report.devices[0].total_bytes));
  const command = await page.getByTestId('local-command').textContent();
  assert.match(command, / --mmproj mmproj-model-f16\.gguf$/);

  // Off: no column, no file in the command; the link keeps it.
  await page.getByTestId('local-mmproj').selectOption('off');
  await page.getByTestId('local-encoder').waitFor({ state: 'detached' });
  assert.ok(!(await page.getByTestId('local-command').textContent()).includes('--mmproj'));
  assert.ok(!(await page.getByTestId('local-devices').textContent()).includes('Encoder'));
  await page.waitForFunction(() => location.hash.includes('l.mmproj=off'));
  const again = await browser.newPage();
  await again.goto(page.url());
  await again.getByTestId('local-results').waitFor();
  assert.equal(await again.getByTestId('local-mmproj').inputValue(), 'off');
  assert.ok(!(await again.getByTestId('local-command').textContent()).includes('--mmproj'));
  await again.close();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
