// SPDX-License-Identifier: MIT
// The page's code arrives in the order it is needed (web/dist, served from a sub-path): the first
// view does not fetch the Training or Plan tab's chunk; each comes when its tab opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/load/order/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const scripts = (log) => log.requests.map((url) => url.split('/').pop()).filter((name) => name.endsWith('.js'));
const fetched = (log, chunk) => scripts(log).some((name) => name.startsWith(`${chunk}-`));

test('the Training and Plan chunks are fetched when their tab opens, not before', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('total-params').waitFor();
  // The whole first view: the memory figures, then the latency tables and charts (their own chunk).
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('latency-time_to_first_token').waitFor();
  await page.locator('[data-testid=chart-context] circle').first().waitFor();
  assert.ok(fetched(log, 'inference-details'), `scripts: ${scripts(log)}`);
  assert.ok(!fetched(log, 'training-tab'), `scripts: ${scripts(log)}`);
  assert.ok(!fetched(log, 'plan-tab'), `scripts: ${scripts(log)}`);

  await page.getByTestId('tab-training').click();
  await page.getByTestId('train-verdict').waitFor();
  assert.ok(fetched(log, 'training-tab'), `scripts: ${scripts(log)}`);
  assert.ok(!fetched(log, 'plan-tab'), `scripts: ${scripts(log)}`);

  await page.getByTestId('tab-plan').click();
  await page.getByTestId('plan-objective').waitFor();
  assert.ok(fetched(log, 'plan-tab'), `scripts: ${scripts(log)}`);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('a link that opens on the Training tab fetches its chunk at once and shows the figures', async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('tab-training').click();
  await page.getByTestId('train-verdict').waitFor();
  // The hash is written a moment after each change: wait for the Training tab's, not an earlier one.
  await page.waitForFunction(() => window.location.hash.includes('mode=training'));
  const link = page.url();
  await page.close();

  const again = await browser.newPage();
  const againLog = watchPage(again);
  await again.goto(link);
  await again.getByTestId('train-verdict').waitFor();
  assert.ok(fetched(againLog, 'training-tab'), `scripts: ${scripts(againLog)}`);
  assert.equal(await again.getByTestId('tab-training').getAttribute('aria-selected'), 'true');
  assertLocalOnly(log, new URL(server.url).origin);
  assertLocalOnly(againLog, new URL(server.url).origin);
  await again.close();
});

// The first-view module reads the common families; a pasted config of another family is read, to
// the exact count, by the full module, fetched then (core/src/config/config_other_families.hpp).
const modules = (log) => log.requests.map((url) => url.split('/').pop()).filter((name) => name.endsWith('.wasm'));

test('a config of a family outside the first view is read by the full module, fetched when pasted', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('verdict').waitFor();
  assert.ok(
    modules(log).every((name) => name.startsWith('fitcheck-inference-')),
    `modules: ${modules(log)}`,
  );
  await page.getByTestId('show-config').click();
  const mamba = fs.readFileSync(path.join(repo, 'tests/fixtures/configs/state-spaces--mamba-2.8b-hf.json'), 'utf8');
  await page.getByTestId('config').fill(mamba);
  // tests/fixtures/configs/MANIFEST.tsv: state-spaces/mamba-2.8b-hf, 2,768,345,600 parameters.
  await page.getByTestId('total-params').filter({ hasText: '2,768,345,600' }).waitFor();
  await page.getByTestId('verdict').waitFor();
  assert.ok(
    modules(log).some((name) => !name.startsWith('fitcheck-inference-')),
    `modules: ${modules(log)}`,
  );
  assert.equal(await page.getByTestId('config-error').count(), 0);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
