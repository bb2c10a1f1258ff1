// SPDX-License-Identifier: MIT
// What a first visit downloads (web/dist, served from a sub-path): the page preloads the first
// view's small inference module and fetches the full core only when the Training tab needs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/first/visit/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const wasmFiles = (log) => log.requests.map((url) => url.split('/').pop()).filter((name) => name.endsWith('.wasm'));

test('the first view runs on the inference module alone; Training loads the full core', async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  const preloads = await page
    .locator('link[rel="preload"][as="fetch"], link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  assert.ok(
    preloads.some((href) => /^\.\/assets\/fitcheck-inference-[\w-]+\.wasm$/.test(href)),
    `preloads: ${preloads}`,
  );
  assert.ok(
    preloads.some((href) => /^\.\/assets\/fitcheck-inference-[\w-]+\.js$/.test(href)),
    `preloads: ${preloads}`,
  );
  await page.getByTestId('total-params').waitFor();
  await page.getByTestId('memory-table').waitFor();
  const first = wasmFiles(log);
  assert.equal(first.length, 1, `wasm requested: ${first}`);
  assert.match(first[0], /^fitcheck-inference-/);

  await page.getByTestId('tab-training').click();
  await page.getByTestId('train-verdict').waitFor();
  const later = wasmFiles(log);
  assert.equal(later.length, 2, `wasm requested: ${later}`);
  assert.ok(
    later.some((name) => /^fitcheck-(?!inference)[\w-]+\.wasm$/.test(name)),
    `wasm requested: ${later}`,
  );
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
