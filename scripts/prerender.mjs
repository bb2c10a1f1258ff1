// SPDX-License-Identifier: MIT
// Writes the page's default view into web/dist/index.html at build time, so that the first table is
// on screen as soon as the HTML is, before the page's script and the core have loaded
// (docs/performance.md, "The default view in index.html").
//
// The markup is not written by hand: the built page itself runs in headless Chromium with its own
// WebAssembly core, and what it draws in its first render (the moment the parameter count enters
// the DOM) is copied into index.html's #app. app/main.tsx later renders the live page over it,
// reusing the nodes, and drops `data-prerendered` and `inert`.
//
// The page's core calls until its default view is complete (the verdict, the latency tables, the
// charts) are recorded with their answers (core/recorded-answers.ts) and written beside it as
// `<script type="application/json" id="fitcheck-recorded-answers">`: a visit to the default view goes
// live on them, and fetches the core when the visitor reaches for an input.
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer } from '../tests/support/static-server.mjs';
import { launchChromium, repo } from '../tests/support/browser.mjs';

const dist = path.join(repo, 'web/dist');
const indexPath = path.join(dist, 'index.html');
const placeholder = '<div id="app"></div>';
const marked = '<div id="app" data-prerendered inert>';

const source = fs.readFileSync(indexPath, 'utf8');
if (!source.includes(placeholder)) throw new Error(`prerender: ${indexPath} has no ${placeholder}`);
// Served with the marker already on #app: main.tsx then waits for the core before its first render,
// as it does on a visit to the prerendered page, so the first render here is that render.
fs.writeFileSync(
  indexPath,
  source.replace(placeholder, () => `${marked}</div>`),
);

const server = await startStaticServer({ root: dist, prefix: '/prerender/' });
const browser = await launchChromium();
let markup;
let calls;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(() => {
    window.fitcheckRecordCoreCalls = [];
    // Form state lives in properties (value, checked, selected), not in the markup: written into
    // attributes of a copy, so that the HTML shows the same inputs.
    const serialize = (app) => {
      const copy = app.cloneNode(true);
      const fields = 'input, textarea, select';
      const live = app.querySelectorAll(fields);
      copy.querySelectorAll(fields).forEach((field, i) => {
        const from = live[i];
        if (field.tagName === 'TEXTAREA') field.textContent = from.value;
        // A closed list shows its chosen entry only, and #app is inert until the page is live: the
        // other entries are left to the live render (about 3 KB less gzip).
        else if (field.tagName === 'SELECT')
          [...field.options].forEach((option, j) =>
            from.options[j].selected ? option.setAttribute('selected', '') : option.remove(),
          );
        else if (field.type === 'checkbox' || field.type === 'radio') field.toggleAttribute('checked', from.checked);
        else field.setAttribute('value', from.value);
      });
      return copy.innerHTML;
    };
    window.fitcheckFirstRender = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const app = document.getElementById('app');
        if (!app?.querySelector('[data-testid="total-params"]')) return;
        observer.disconnect();
        resolve(serialize(app));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
  });
  await page.goto(server.url);
  markup = await page.evaluate(() => window.fitcheckFirstRender);
  // The rest of the default view, then a second without a new call: its calls are all recorded.
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('latency-time_to_first_token').waitFor();
  await page.locator('[data-testid=chart-context] circle').first().waitFor();
  let count = -1;
  while (count !== (count = await page.evaluate(() => window.fitcheckRecordCoreCalls.length)))
    await page.waitForTimeout(1000);
  calls = await page.evaluate(() => window.fitcheckRecordCoreCalls);
  if (errors.length) throw new Error(`prerender: the page reported errors: ${errors.join('; ')}`);
  await page.close();
} finally {
  await browser.close();
  await server.close();
}
if (!markup.includes('data-testid="total-params"')) throw new Error('prerender: no parameter table drawn');
if (!calls.some((call) => call.name === 'inferenceReport')) throw new Error('prerender: no inference call recorded');
// JSON in a script element: a "<" escaped, so that no "</script>" in a text can end it.
const answers = JSON.stringify(calls).replace(/</g, '\\u003c');
const recorded = `<script type="application/json" id="fitcheck-recorded-answers">${answers}</script>`;
fs.writeFileSync(
  indexPath,
  source.replace(placeholder, () => `${marked}${markup}</div>${recorded}`),
);
console.log(
  `prerender: the default view (${markup.length} characters) and its ${calls.length} core answers ` +
    `(${answers.length} characters) are in web/dist/index.html`,
);
