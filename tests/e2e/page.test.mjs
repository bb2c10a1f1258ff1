// SPDX-License-Identifier: MIT
// The built page (web/dist) in headless Chromium, served from a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../support/static-server.mjs';
import { launchChromium, watchPage } from '../support/browser.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(repo, 'test-results');
fs.mkdirSync(artifacts, { recursive: true });

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/some/sub/path/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage() {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  return { page, log };
}

function assertLocalOnly(log) {
  const origin = new URL(server.url).origin;
  for (const url of log.requests) assert.ok(url.startsWith(origin + '/'), `unexpected request to ${url}`);
  assert.deepEqual(log.errors, []);
}

test('first load shows the preselected model with its exact count and weight memory', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('total-params').waitFor();
  assert.equal(await page.getByTestId('total-params').textContent(), '8,030,261,248');
  const table = await page.getByTestId('parameter-table').textContent();
  assert.match(table, /8\.03 B/);
  assert.equal(await page.getByTestId('weights-gib').textContent(), '14.96 GiB');
  assert.match(await page.getByTestId('memory-table').textContent(), /16\.06 GB/);
  await page.screenshot({ path: path.join(artifacts, 'first-load.png'), fullPage: true });
  assertLocalOnly(log);
  await page.close();
});

test('choosing a preset recomputes', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('total-params').waitFor();
  await page.getByTestId('preset').selectOption('mistralai--mixtral-8x7b-v0.1');
  await page.getByTestId('total-params').filter({ hasText: '46,702,792,704' }).waitFor();
  assert.equal(await page.getByTestId('active-params').textContent(), '12,879,925,248');
  assertLocalOnly(log);
  await page.close();
});

test('a pasted real config.json is counted', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('total-params').waitFor();
  const text = fs.readFileSync(path.join(repo, 'tests/fixtures/configs/Qwen--Qwen2-7B-Instruct.json'), 'utf8');
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill(text);
  await page.getByText('7,615,616,512').waitFor();
  assert.equal(await page.getByTestId('preset').inputValue(), '');
  assertLocalOnly(log);
  await page.close();
});

test('a bad config shows the core error next to the input, naming the field', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('total-params').waitFor();
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill('{"model_type": "llama", "hidden_size": "4096"}');
  const error = page.getByTestId('config-error');
  await error.waitFor();
  const message = await error.textContent();
  assert.match(message, /hidden_size/);
  assert.match(message, /whole number/);
  await page.getByTestId('config').fill('{"model_type": "llama", ');
  assert.match(await error.textContent(), /not valid JSON/);
  await page.screenshot({ path: path.join(artifacts, 'config-error.png') });
  assertLocalOnly(log);
  await page.close();
});

test('markup in a pasted config is shown as text, never rendered', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('total-params').waitFor();
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill('{"model_type": "<img src=x onerror=alert(1)>", "hidden_size": 1}');
  await page.getByTestId('assumptions').or(page.getByTestId('config-error')).first().waitFor();
  assert.equal(await page.locator('img').count(), 0);
  assertLocalOnly(log);
  await page.close();
});
