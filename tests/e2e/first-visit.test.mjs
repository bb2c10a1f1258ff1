// SPDX-License-Identifier: MIT
// What a first visit downloads (web/dist, served from a sub-path): the page preloads the first
// view's small inference module and fetches the full core only when the Training tab needs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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

// What a first visit downloads until the page is live, gzip -9 (as bench/run.mjs counts it), the
// bundled presets apart. The target is 150 KB (docs/performance.md): not met yet; this ceiling is
// the measured size with a little room, so that the first view cannot grow unnoticed.
const firstVisitCeiling = 212_400;

test('the first visit downloads no more than its ceiling before the page is live', async () => {
  const dist = path.join(repo, 'web/dist');
  const gzip = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  const presets = gzip(path.join(repo, 'web/src/model/presets/presets.json'));
  const page = await browser.newPage();
  // The moment the page's own table is in the DOM, noted by a MutationObserver (as bench/run.mjs).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="total-params"]') && !document.querySelector('[data-prerendered]'))
        window.liveTableMs ??= performance.now();
    }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  await page.goto(server.url);
  await page.waitForFunction(() => window.liveTableMs !== undefined);
  const requested = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime <= window.liveTableMs)
      .map((entry) => entry.name),
  );
  await page.close();
  const files = ['index.html', ...new Set(requested.map((url) => url.slice(server.url.length)))].filter((file) =>
    fs.existsSync(path.join(dist, file)),
  );
  assert.ok(
    files.some((file) => file.endsWith('.wasm')),
    `files: ${files}`,
  );
  const bytes = files.reduce((sum, file) => sum + gzip(path.join(dist, file)), 0) - presets;
  assert.ok(
    bytes <= firstVisitCeiling,
    `first visit ${bytes} B gzip (presets apart) > ${firstVisitCeiling} B: ${files}`,
  );
});
