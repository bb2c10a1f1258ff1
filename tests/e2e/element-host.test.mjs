// SPDX-License-Identifier: MIT
// <fitcheck-calculator> on host pages that a docs site might be: a root font size of 62.5%,
// letter-spacing, line-height and text-transform on everything, `* { box-sizing: content-box }`,
// and a 340 px wide box. The element keeps its own text size and settings, lays out by its own
// width (columns never overlap), names an unknown preset, and has a compact view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

const hostile = `<style>
  html { font-size: 62.5%; }
  * { box-sizing: content-box; letter-spacing: 0.3em; word-spacing: 1em; line-height: 3; text-transform: uppercase; }
  body { font-family: Georgia, serif; text-align: center; }
</style>`;

function hostPage(body) {
  return `<!doctype html><meta charset="utf-8"><title>docs host</title><link rel="icon" href="data:,">
${hostile}
<script type="module" src="fitcheck/fitcheck-element.js"></script>
<h1>Docs page</h1>
${body}`;
}

let site;
let server;
let browser;
before(async () => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'fitcheck-docs-'));
  fs.cpSync(path.join(repo, 'web/dist'), path.join(site, 'fitcheck'), { recursive: true });
  fs.writeFileSync(
    path.join(site, 'wide.html'),
    hostPage('<fitcheck-calculator preset="meta-llama--llama-3.1-8b"></fitcheck-calculator>'),
  );
  fs.writeFileSync(
    path.join(site, 'narrow.html'),
    hostPage(
      '<div style="width:340px"><fitcheck-calculator preset="meta-llama--llama-3.1-8b"></fitcheck-calculator></div>',
    ),
  );
  fs.writeFileSync(
    path.join(site, 'unknown.html'),
    hostPage('<fitcheck-calculator id="unknown" preset="llama-3-8b"></fitcheck-calculator>'),
  );
  fs.writeFileSync(
    path.join(site, 'compact.html'),
    hostPage(
      '<div style="width:340px"><fitcheck-calculator preset="qwen--qwen3-8b" view="compact"></fitcheck-calculator></div>',
    ),
  );
  // The strict policy docs/embedding.md gives hosts: no 'unsafe-inline' for styles.
  fs.writeFileSync(
    path.join(site, 'csp.html'),
    `<!doctype html><meta charset="utf-8"><title>strict host</title><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:">
<script type="module" src="fitcheck/fitcheck-element.js"></script>
<fitcheck-calculator preset="meta-llama--llama-3.1-8b" view="compact"></fitcheck-calculator>`,
  );
  server = await startStaticServer({ root: site, prefix: '/docs/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (site) fs.rmSync(site, { recursive: true, force: true });
});
const origin = () => new URL(server.url).origin + '/';

async function open(file, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(server.url + file);
  return { page, log, context };
}

// Text settings of elements inside the shadow root, by test id.
async function textStyle(page, testId) {
  return page
    .getByTestId(testId)
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        fontSize: parseFloat(style.fontSize),
        letterSpacing: style.letterSpacing,
        wordSpacing: style.wordSpacing,
        lineHeight: style.lineHeight === 'normal' ? 1.2 : parseFloat(style.lineHeight) / parseFloat(style.fontSize),
        textTransform: style.textTransform,
        fontFamily: style.fontFamily,
      };
    });
}

function assertOwnText(style, where) {
  assert.ok(style.fontSize >= 13 && style.fontSize <= 17, `${where}: font-size ${style.fontSize}px`);
  assert.equal(style.letterSpacing, 'normal', where);
  assert.equal(style.wordSpacing, '0px', where);
  assert.equal(style.textTransform, 'none', where);
  assert.ok(style.lineHeight < 1.7, `${where}: line-height ${style.lineHeight}`);
  assert.doesNotMatch(style.fontFamily, /Georgia/, where);
}

// No two cells of a row overlap, and the rows stay inside the element's box.
async function assertNoOverlap(page) {
  const problems = await page.locator('fitcheck-calculator').evaluate((host) => {
    const found = [];
    const hostBox = host.getBoundingClientRect();
    const root = host.shadowRoot;
    const layout = root.querySelector('.layout');
    if (layout) {
      const inputs = root.querySelector('.inputs').getBoundingClientRect();
      const results = root.querySelector('.results').getBoundingClientRect();
      const sideBySide = results.left >= inputs.right - 1;
      const stacked = results.top >= inputs.bottom - 1;
      if (!sideBySide && !stacked) found.push('the inputs and results columns overlap');
      for (const [name, box] of [
        ['inputs', inputs],
        ['results', results],
      ])
        if (box.right > hostBox.right + 1) found.push(`${name} end at ${box.right}, past the box at ${hostBox.right}`);
    }
    for (const row of root.querySelectorAll('table tr')) {
      const cells = [...row.children].filter((cell) => getComputedStyle(cell).display !== 'none');
      for (let i = 1; i < cells.length; i++) {
        const a = cells[i - 1].getBoundingClientRect();
        const b = cells[i].getBoundingClientRect();
        if (b.left < a.right - 1) found.push(`cells overlap in "${row.textContent.slice(0, 40)}"`);
      }
    }
    return found;
  });
  assert.deepEqual(problems, []);
}

test('on a hostile host page the element keeps its own text size and settings', async () => {
  const { page, log, context } = await open('wide.html');
  await page.getByTestId('memory-table').waitFor();
  await page.getByTestId('summary-verdict').waitFor();
  for (const id of ['summary-model', 'total-params', 'preset', 'gpu-memory-table', 'verdict'])
    assertOwnText(await textStyle(page, id), id);
  // The element's base: 0.92 of its own 16 px (the embedded calculator's size), whatever the host's root.
  assert.equal((await textStyle(page, 'summary-model')).fontSize, 14.72);
  // The host's own text is untouched: 62.5% of 16 px.
  assert.equal(await page.locator('h1').evaluate((h1) => getComputedStyle(h1).letterSpacing), '6px');
  await assertNoOverlap(page);
  await screenshot(page, 'element-hostile-wide');
  assertLocalOnly(log, origin());
  await context.close();
});

test('in a 340 px box the element lays out by its own width: one column, nothing overlapping', async () => {
  const { page, log, context } = await open('narrow.html');
  await page.getByTestId('memory-table').waitFor();
  await page.getByTestId('summary-verdict').waitFor();
  const width = await page.locator('fitcheck-calculator').evaluate((host) => host.getBoundingClientRect().width);
  assert.equal(width, 340);
  assertOwnText(await textStyle(page, 'summary-model'), 'summary-model');
  await assertNoOverlap(page);
  await screenshot(page, 'element-hostile-340');
  assertLocalOnly(log, origin());
  await context.close();
});

test('an unknown preset attribute is named, with the nearest bundled presets', async () => {
  const { page, log, context } = await open('unknown.html');
  const error = page.getByTestId('unknown-preset');
  await error.waitFor();
  assert.match(
    await error.textContent(),
    /^fitcheck: there is no bundled preset "llama-3-8b"\. Did you mean "meta-llama--llama-3\.1-8b"/,
  );
  assert.equal(await page.getByTestId('summary-model').count(), 0);
  // Setting a bundled preset afterwards starts the calculator.
  await page.locator('#unknown').evaluate((host) => host.setAttribute('preset', 'qwen--qwen3-8b'));
  await page.getByTestId('summary-model').filter({ hasText: 'Qwen3-8B' }).waitFor();
  assertLocalOnly(log, origin());
  await context.close();
});

test('view="compact": the verdict and the memory table alone, in a 340 px box', async () => {
  const { page, log, context } = await open('compact.html');
  await page.getByTestId('gpu-memory-table').waitFor();
  assert.match(await page.getByTestId('verdict').textContent(), /^Fits on 1 × NVIDIA H100 SXM5 80GB/);
  assert.match(
    await page.getByTestId('compact-model').textContent(),
    /^Qwen3-8B: bf16 weights, context 4,096, batch 1$/,
  );
  for (const id of ['preset', 'gpu', 'summary', 'parameter-table', 'tab-inference'])
    assert.equal(await page.getByTestId(id).count(), 0, id);
  assertOwnText(await textStyle(page, 'verdict'), 'verdict');
  await assertNoOverlap(page);
  await screenshot(page, 'element-compact-340');
  assertLocalOnly(log, origin());
  await context.close();
});

test('a host with a strict Content-Security-Policy (no inline styles) gets the styled element, with no violation', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const log = watchPage(page);
  await page.goto(server.url + 'csp.html');
  await page.getByTestId('gpu-memory-table').waitFor();
  assert.equal((await textStyle(page, 'verdict')).fontSize, 14.72);
  assert.equal(
    await page.getByTestId('verdict').evaluate((element) => getComputedStyle(element).borderTopStyle),
    'solid',
  );
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assertLocalOnly(log, origin());
  await context.close();
});
