// SPDX-License-Identifier: MIT
// Screenshots of the Training and Plan tabs (the Inference tab's are in calculator.test.mjs) at
// desktop and phone widths, light and dark: nothing may be wider than the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/tabs/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const tabs = {
  training: {
    hash: '#mode=training&model=preset&preset=meta-llama--llama-3.1-8b&t.gpus=8&t.zero=3',
    ready: 'train-verdict',
  },
  plan: {
    hash: '#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.weights=bf16%2Cfp8',
    ready: 'plan-frontier-chart',
  },
};

for (const [tab, { hash, ready }] of Object.entries(tabs)) {
  for (const [width, scheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [360, 'light'],
    [360, 'dark'],
  ]) {
    test(`${tab} tab at ${width}px, ${scheme}: nothing wider than the screen`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const log = watchPage(page);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(server.url + hash);
      await page.getByTestId(ready).waitFor({ timeout: 30000 });
      await page.waitForFunction(() => !document.querySelector('[data-testid=plan-progress]'), null, {
        timeout: 30000,
      });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width);
      await screenshot(page, `${tab}-${width}-${scheme}`);
      assertLocalOnly(log, new URL(server.url).origin + '/');
      await page.close();
    });
  }
}
