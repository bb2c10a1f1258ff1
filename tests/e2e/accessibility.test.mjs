// SPDX-License-Identifier: MIT
// Contrast computed from the page's own computed styles (light and dark), the skip link, unique
// accessible names for repeated buttons, and keyboard access to the scrolling data tables.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/a11y/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin;

async function openPage(colorScheme = 'light') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('latency').waitFor();
  return { page, log, context };
}

// WCAG 2 contrast of two computed rgb() colors.
function contrast(a, b) {
  const luminance = (color) => {
    const [r, g, b] = color
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

for (const scheme of ['light', 'dark']) {
  test(`${scheme}: placeholders at 4.5:1 or more, input borders at 3:1 or more`, async () => {
    const { page, log, context } = await openPage(scheme);
    const colors = await page.evaluate(() => {
      const page = getComputedStyle(document.body).backgroundColor;
      return [...document.querySelectorAll('input[type=text], input[type=search], select')].map((input) => ({
        id: input.id,
        placeholder: input.placeholder ? getComputedStyle(input, '::placeholder').color : undefined,
        background: getComputedStyle(input).backgroundColor,
        border: getComputedStyle(input).borderTopColor,
        page,
      }));
    });
    assert.ok(
      colors.some((c) => c.placeholder && c.id === 'price_per_gpu_hour'),
      'the price field shows its default',
    );
    for (const c of colors) {
      if (c.placeholder) {
        const ratio = contrast(c.placeholder, c.background);
        assert.ok(ratio >= 4.5, `${c.id}: placeholder ${c.placeholder} on ${c.background} is ${ratio.toFixed(2)}:1`);
      }
      for (const against of [c.page, c.background]) {
        const ratio = contrast(c.border, against);
        assert.ok(ratio >= 3, `${c.id}: border ${c.border} against ${against} is ${ratio.toFixed(2)}:1`);
      }
    }
    assertLocalOnly(log, origin());
    await context.close();
  });
}

test('a skip link is the first stop and moves focus to the results, leaving the link in the address alone', async () => {
  const { page, log, context } = await openPage();
  // The link is written into the address asynchronously (compressed): compare against the written one.
  await page.waitForFunction(() => location.hash.length > 1, null, { timeout: 10_000 });
  const hash = new URL(page.url()).hash;
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the results');
  const box = await page.getByTestId('skip-link').boundingBox();
  assert.ok(box && box.y >= 0, 'the focused skip link is on screen');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'results');
  assert.equal(new URL(page.url()).hash, hash);
  // The summary's "Details below" does the same.
  await page.getByRole('link', { name: 'Details below' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'results');
  assert.equal(new URL(page.url()).hash, hash);
  assertLocalOnly(log, origin());
  await context.close();
});

test('repeated "Show formulas" and "Data" controls have unique accessible names; data tables scroll from the keyboard', async () => {
  const { page, log, context } = await openPage();
  await page.getByTestId('by-context-data').or(page.locator('.chart-data')).first().waitFor();
  for (const pattern of [/^Show formulas/, /^Data/]) {
    const role = pattern.source.includes('Data') ? 'group' : 'button';
    const names =
      role === 'button'
        ? await page.getByRole('button', { name: pattern }).evaluateAll((els) => els.map((el) => el.textContent))
        : await page.locator('details.chart-data > summary').evaluateAll((els) => els.map((el) => el.textContent));
    assert.ok(names.length >= 2, `${pattern}: ${names}`);
    assert.equal(new Set(names).size, names.length, `repeated names: ${names.join(' | ')}`);
  }
  const regions = await page
    .locator('details.chart-data .table-scroll')
    .evaluateAll((els) => els.map((el) => ({ tab: el.tabIndex, label: el.getAttribute('aria-label'), role: el.role })));
  assert.ok(regions.length >= 2);
  for (const region of regions) {
    assert.equal(region.tab, 0);
    assert.equal(region.role, 'region');
    assert.match(region.label, /: data$/);
  }
  assertLocalOnly(log, origin());
  await context.close();
});
