// SPDX-License-Identifier: MIT
// The three ways to take fitcheck elsewhere: ?embed in an iframe (posting its height), the
// <fitcheck-calculator> custom element on a host page, and dist/fitcheck.html opened from file://
// (where the planner runs on the page: a one-file build has no worker script).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

const dist = path.join(repo, 'web/dist');
let site;
let server;
let browser;
before(async () => {
  // A host site: the built dist/ under a sub-path, and two host pages beside it.
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'fitcheck-host-'));
  fs.cpSync(dist, path.join(site, 'fitcheck'), { recursive: true });
  fs.writeFileSync(
    path.join(site, 'iframe.html'),
    `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<h1>Host page</h1>
<iframe id="calc" title="fitcheck" src="fitcheck/index.html?embed#model=preset&preset=meta-llama--llama-3.1-70b&gpu=h200&tp=2" style="width:100%;border:0;height:150px"></iframe>
<script>
  window.heights = [];
  addEventListener('message', (event) => {
    if (event.data && event.data.type === 'fitcheck:height') {
      window.heights.push(event.data.height);
      document.getElementById('calc').style.height = event.data.height + 'px';
    }
  });
</script>`,
  );
  fs.writeFileSync(
    path.join(site, 'element.html'),
    `<!doctype html><meta charset="utf-8"><title>element host</title><link rel="icon" href="data:,">
<script type="module" src="fitcheck/fitcheck-element.js"></script>
<p>Two calculators on one page:</p>
<fitcheck-calculator id="one" preset="mistralai--mixtral-8x7b-v0.1" mode="inference"></fitcheck-calculator>
<fitcheck-calculator id="two" preset="openai-community--gpt2" mode="training"></fitcheck-calculator>`,
  );
  fs.writeFileSync(
    path.join(site, 'element-plan.html'),
    `<!doctype html><meta charset="utf-8"><title>planner host</title><link rel="icon" href="data:,">
<script type="module" src="fitcheck/fitcheck-element.js"></script>
<fitcheck-calculator id="plan" preset="qwen--qwen3-0.6b" mode="plan"></fitcheck-calculator>`,
  );
  server = await startStaticServer({ root: site, prefix: '/host/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (site) fs.rmSync(site, { recursive: true, force: true });
});
const origin = () => new URL(server.url).origin + '/';

test('?embed: compact, no page chrome, reproduces the hash, posts its height to the parent', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const log = watchPage(page);
  await page.goto(server.url + 'iframe.html');
  const frame = page.frameLocator('#calc');
  await frame.getByTestId('verdict').waitFor();
  assert.match(await frame.getByTestId('verdict').textContent(), /on 2 × NVIDIA H200/);
  assert.equal(await frame.locator('h1').count(), 0);
  assert.equal(await frame.locator('footer').count(), 0);
  await page.waitForFunction(() => window.heights.length > 0 && window.heights.at(-1) > 1000);
  const [reported, applied] = await page.evaluate(() => [
    window.heights.at(-1),
    document.getElementById('calc').getBoundingClientRect().height,
  ]);
  assert.equal(Math.round(applied), reported);
  const full = await frame.getByTestId('open-full').getAttribute('href');
  assert.ok(!full.includes('embed') && full.includes('preset=meta-llama--llama-3.1-70b'), full);
  await screenshot(page, 'embed-iframe');
  assertLocalOnly(log, origin());
  await page.close();
});

test('<fitcheck-calculator>: one ES module, two independent elements set by their attributes', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const log = watchPage(page);
  await page.goto(server.url + 'element.html');
  const one = page.locator('#one');
  const two = page.locator('#two');
  await one.getByTestId('verdict').waitFor();
  assert.equal(await one.getByTestId('total-params').textContent(), '46,702,792,704');
  assert.equal(await two.getByTestId('total-params').textContent(), '124,439,808');
  await two.getByTestId('train-verdict').waitFor();
  // Inputs work inside the shadow root and do not leak to the other element or the URL.
  await one.getByTestId('batch').fill('8');
  await one
    .getByTestId('verdict')
    .filter({ hasText: /Fits|Does not fit/ })
    .waitFor();
  assert.equal(new URL(page.url()).hash, '');
  assert.equal(
    await page.evaluate(() =>
      [...document.querySelector('#one').shadowRoot.adoptedStyleSheets].some((sheet) =>
        [...sheet.cssRules].some((rule) => rule.cssText.includes('--term-weights')),
      ),
    ),
    true,
  );
  // Changing an attribute starts the element afresh on the new preset.
  await page.evaluate(() => document.querySelector('#two').setAttribute('preset', 'qwen--qwen3-0.6b'));
  await two.getByTestId('total-params').filter({ hasText: '596,049,920' }).waitFor();
  await screenshot(page, 'custom-element');
  assertLocalOnly(log, origin());
  const requested = log.requests.map((url) => new URL(url).pathname);
  assert.deepEqual(requested, ['/host/element.html', '/host/fitcheck/fitcheck-element.js']);
  await page.close();
});

test('<fitcheck-calculator mode="plan">: the planner runs inside the one module, on the page', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(server.url + 'element-plan.html');
  const element = page.locator('#plan');
  await element.getByTestId('plan-summary').waitFor({ timeout: 30000 });
  await page.waitForFunction(
    () => !document.querySelector('#plan').shadowRoot.querySelector('[data-testid=plan-progress]'),
    null,
    { timeout: 30000 },
  );
  assert.equal(await element.getByTestId('plan-runner').getAttribute('data-where'), 'main');
  assert.ok((await element.locator('[data-testid=plan-best-table] tbody tr').count()) > 0);
  // Loading a row switches the element to its Inference tab, inside the shadow root.
  await element.getByTestId('plan-best-load-0').click();
  await element.getByTestId('verdict').waitFor();
  assert.deepEqual(workers, []);
  assert.deepEqual(
    log.requests.map((url) => new URL(url).pathname),
    ['/host/element-plan.html', '/host/fitcheck/fitcheck-element.js'],
  );
  assertLocalOnly(log, origin());
  await page.close();
});

test('dist/fitcheck.html works from file:// with no request but the file itself', async () => {
  const file = path.join(dist, 'fitcheck.html');
  const html = fs.readFileSync(file, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+rel="stylesheet"/);
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  assert.doesNotMatch(csp, /https?:|'unsafe-eval'|\*/);
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
  const page = await browser.newPage();
  const log = watchPage(page);
  const url = pathToFileURL(file).href;
  await page.goto(url);
  await page.getByTestId('verdict').waitFor();
  assert.equal(await page.getByTestId('total-params').textContent(), '8,030,261,248');
  await page.getByTestId('batch').fill('4');
  await page.getByTestId('term-kv_cache').filter({ hasText: '2.00 GiB' }).waitFor();
  await page.getByTestId('chart-context').waitFor();
  await page.waitForFunction(() => location.hash.includes('batch=4'));
  await screenshot(page, 'offline-file');
  assert.deepEqual(log.requests, [url]);
  assertLocalOnly(log, 'file://');
  await page.close();
});

test('dist/fitcheck.html plans on the page itself (no worker file to start there), and says so', async () => {
  const file = path.join(dist, 'fitcheck.html');
  const page = await browser.newPage();
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const url = pathToFileURL(file).href;
  await page.goto(`${url}#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.batches=1%2C8`);
  await page.getByTestId('plan-summary').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=plan-progress]'), null, { timeout: 30000 });
  assert.equal(await page.getByTestId('plan-runner').getAttribute('data-where'), 'main');
  assert.match(
    await page.getByTestId('plan-runner').textContent(),
    /one-file build runs the planner on the page itself/,
  );
  assert.ok((await page.locator('[data-testid=plan-best-table] tbody tr').count()) > 0);
  assert.deepEqual(workers, []);
  await screenshot(page, 'offline-plan');
  assert.deepEqual(
    log.requests,
    [`${url}#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.batches=1%2C8`].map((u) => u.split('#')[0]),
  );
  assertLocalOnly(log, 'file://');
  await page.close();
});

test('the page keeps its Content-Security-Policy: no remote origin, no eval', () => {
  for (const file of ['web/index.html', 'web/dist/index.html']) {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(
      fs.readFileSync(path.join(repo, file), 'utf8'),
    )[1];
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(csp, /https?:|'unsafe-eval'|\*/);
  }
});
