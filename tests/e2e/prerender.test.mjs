// SPDX-License-Identifier: MIT
// The default view in index.html (scripts/prerender.mjs, web/dist served from a sub-path): shown
// before any script runs, drawn by the built page with its own core (the same figures the live page
// shows), inert until the page is live, then taken over node for node; a link to other inputs does
// not show it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/pre/render/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const live = (page) => page.waitForFunction(() => !document.querySelector('[data-prerendered], [inert]'));
const tableText = (page, testId) => page.getByTestId(testId).evaluate((node) => node.closest('table').innerText);

test('index.html holds the default view, with the figures the live page computes', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 720 } });
  const still = await context.newPage();
  await still.goto(server.url);
  assert.ok(await still.locator('#app[data-prerendered][inert]').count(), 'no prerendered #app');
  const prerendered = await tableText(still, 'total-params');
  assert.match(prerendered, /Total\s+8,030,261,248/);
  const model = await still.locator('#app select option[selected]').first().textContent();
  await context.close();

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const log = watchPage(page);
  await page.goto(server.url);
  await live(page);
  assert.equal(await tableText(page, 'total-params'), prerendered);
  assert.equal(
    await page
      .locator('#app select')
      .first()
      .evaluate((select) => select.selectedOptions[0].textContent),
    model,
  );
  // The verdict and memory table follow on the live page (they were never in index.html).
  await page.getByTestId('verdict').waitFor();
  assert.deepEqual(log.errors, []);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('the live page takes over the prerendered nodes instead of drawing new ones', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const log = watchPage(page);
  await page.addInitScript(() => {
    // The count as the HTML parser inserts it (main.tsx may go live before DOMContentLoaded).
    new MutationObserver((_, observer) => {
      const count = document.querySelector('[data-testid="total-params"]');
      if (!count) return;
      observer.disconnect();
      window.prerenderedCount = count;
      window.prerenderedMarked = document.getElementById('app').hasAttribute('data-prerendered');
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(server.url);
  await live(page);
  assert.ok(await page.evaluate(() => window.prerenderedMarked));
  assert.ok(await page.evaluate(() => window.prerenderedCount?.isConnected === true));
  assert.ok(
    await page.evaluate(() => window.prerenderedCount === document.querySelector('[data-testid="total-params"]')),
  );
  // Live: the inputs answer.
  await page.getByTestId('batch').fill('7');
  await page.getByTestId('summary-verdict').filter({ hasText: /./ }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="summary"]')?.textContent.includes('batch 7'));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a link to other inputs drops the prerendered view and never draws the default figures', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => {
    // Module scripts run before DOMContentLoaded: by then main.tsx has emptied #app.
    document.addEventListener('DOMContentLoaded', () => {
      window.tableAtLoad = Boolean(document.querySelector('[data-testid="total-params"]'));
    });
    window.defaultShown = false;
    new MutationObserver(() => {
      const count = document.querySelector('[data-testid="total-params"]');
      if (count && /8,030,261,248/.test(count.textContent) && !document.querySelector('[data-prerendered]'))
        window.defaultShown = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(`${server.url}#model=preset&preset=openai-community--gpt2`);
  await live(page);
  await page.getByTestId('total-params').filter({ hasText: '124,439,808' }).waitFor();
  assert.equal(await page.evaluate(() => window.tableAtLoad), false);
  assert.equal(await page.evaluate(() => window.defaultShown), false);
  await page.close();
});
