// SPDX-License-Identifier: MIT
// Bad input pasted into the built page (web/dist) in headless Chromium. Relies only on the test ids
// "config" (the textarea) and "config-error" (the message next to it), on no page error and on no
// request leaving the local origin. Also: the Content-Security-Policy is served and enforced, and
// pasted markup is never rendered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../support/static-server.mjs';
import { launchChromium, watchPage } from '../support/browser.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = process.env.FITCHECK_WEB_DIST ?? path.join(repo, 'web/dist');
const fixtureConfigs = path.join(repo, 'tests/fixtures/configs');
const goodConfig = fs.readFileSync(path.join(fixtureConfigs, 'Qwen--Qwen2-7B-Instruct.json'), 'utf8');
const llamaFields =
  '"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,' +
  '"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":1000';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: dist, prefix: '/some/sub/path/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// Opens the page with a counter of Content-Security-Policy violations installed before any script.
async function openPage() {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const log = watchPage(page);
  await page.goto(server.url);
  // A preset's config.json is folded away until asked for.
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').waitFor();
  return { page, log };
}

function assertLocalOnly(log) {
  const origin = new URL(server.url).origin;
  for (const url of log.requests)
    assert.ok(url.startsWith(origin + '/') || url.startsWith('data:'), `request to ${url}`);
  assert.deepEqual(log.errors, []);
}

async function paste(page, text) {
  // After a large paste the text area is a summary until asked for (model/config-input).
  if (await page.getByTestId('config-large-show').count()) await page.getByTestId('config-large-show').click();
  await page.getByTestId('config').fill(text);
}

// Megabytes through fill() crawl over the DevTools protocol; set the value as a paste does and
// announce it with the same input event.
async function pasteLarge(page, text) {
  await page.getByTestId('config').evaluate((element, value) => {
    element.value = value;
    element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  }, text);
}

async function expectError(page, ...patterns) {
  const error = page.getByTestId('config-error');
  await error.waitFor({ timeout: 20_000 });
  const message = await error.textContent();
  for (const pattern of patterns) assert.match(message, pattern);
  return message;
}

async function expectNoError(page) {
  await page.getByTestId('config-error').waitFor({ state: 'detached', timeout: 20_000 });
}

test('bad configs pasted into the page show the field and the reason', async () => {
  const { page, log } = await openPage();
  const cases = [
    [`{${llamaFields}`, /not valid JSON/],
    [`{${llamaFields},}`, /not valid JSON/],
    [`{/* comment */ ${llamaFields}}`, /not valid JSON/],
    [`{${llamaFields},"hidden_size":128}`, /hidden_size/, /appears more than once/],
    [`{${llamaFields.replace('"vocab_size":1000', '"vocab_size":NaN')}}`, /vocab_size/, /NaN/],
    [`{${llamaFields.replace('"hidden_size":64', '"hidden_size":"64"')}}`, /hidden_size/, /whole number/],
    [`{${llamaFields.replace('"num_hidden_layers":2', '"num_hidden_layers":-2')}}`, /num_hidden_layers/, /at least 1/],
    [
      `{${llamaFields.replace('"hidden_size":64', '"hidden_size":1099511627776')}}`,
      /hidden_size/,
      /beyond any real model/,
    ],
    [
      `{${llamaFields.replace('"num_key_value_heads":2', '"num_key_value_heads":3')}}`,
      /num_key_value_heads/,
      /not a multiple/,
    ],
    ['{"model_type":"llama","hidden_size":64}', /num_hidden_layers/, /missing/],
    [`{"model_type":${'['.repeat(200_000)}${']'.repeat(200_000)}}`, /more than 64 levels deep/],
  ];
  for (const [text, ...patterns] of cases) {
    await paste(page, text);
    await expectError(page, ...patterns);
    await paste(page, goodConfig);
    await expectNoError(page);
  }
  assertLocalOnly(log);
  await page.close();
});

test('large pastes: over the 8 MiB input limit refused at once, unparsed; a 7 MB padded real config is read in a worker and counted', async () => {
  const { page, log } = await openPage();
  for (const size of [10 << 20, 50 << 20]) {
    // The text is made in the page (sending 50 MB over the DevTools protocol takes seconds); the
    // time is the page's own handling of the paste, which runs on the input event.
    const handled = await page.getByTestId('config').evaluate((element, n) => {
      element.value = 'x'.repeat(n);
      const started = performance.now();
      element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
      return performance.now() - started;
    }, size);
    const refusal = page.getByTestId('config-file-error');
    await refusal.waitFor({ timeout: 20_000 });
    assert.match(await refusal.textContent(), /more than the 8 MiB fitcheck reads/);
    assert.ok(handled < 1000, `a ${size}-byte paste took ${handled} ms to refuse`);
  }
  const padded = goodConfig.replace('{', `{"padding":"${'a'.repeat(7 << 20)}",`);
  await page.getByTestId('config').focus();
  await pasteLarge(page, padded);
  await page.getByTestId('config-file-error').waitFor({ state: 'detached', timeout: 20_000 });
  await expectNoError(page);
  // Read once, in the Web Worker (model/large-config.ts), and cut to the fields the core reads: the
  // figures are the config's own (Qwen2-7B-Instruct: 7,615,616,512 parameters, its published count).
  const read = page.getByTestId('config-large-read');
  await read.waitFor({ timeout: 30_000 });
  assert.equal(await read.getAttribute('data-where'), 'worker');
  assert.match(await read.textContent(), /7\.3 million characters.*Web Worker/);
  assert.equal(await page.getByTestId('total-params').textContent(), '7,615,616,512');
  // The text is kept, shown as a summary (megabytes in a text area cost the browser seconds of
  // layout), and shown again on request; an edit is read again: a duplicate key is the core's
  // refusal, with the field.
  assert.equal(await page.getByTestId('config').count(), 0);
  // The text area was emptied before it gave way (removing a focused one holding megabytes costs
  // Chromium seconds); the focus moved to the summary's first button.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'config-large-show');
  await page.getByTestId('config-large-show').click();
  assert.equal((await page.getByTestId('config').inputValue()).length, padded.length);
  await pasteLarge(page, padded.replace('"hidden_size": 3584', '"hidden_size": 3584, "hidden_size": 4096'));
  await expectError(page, /hidden_size/);
  assertLocalOnly(log);
  await page.close();
});

test('pasted markup is shown as text, never rendered', async () => {
  const { page, log } = await openPage();
  const payloads = [
    `{${llamaFields.replace('"model_type":"llama"', '"model_type":"<img data-xss src=x onerror=\\"window.__xss=1\\">"')},` +
      `"architectures":["<script data-xss>window.__xss=2</script>","<svg data-xss onload=\\"window.__xss=3\\">"]}`,
    `{${llamaFields.replace('"hidden_size":64', '"hidden_size":"<img data-xss src=x onerror=window.__xss=4>"')}}`,
    `{${llamaFields},"<b data-xss>":1,"architectures":["<iframe data-xss src=javascript:window.__xss=5>"]}`,
  ];
  for (const payload of payloads) {
    await paste(page, payload);
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-xss]').count(), 0, payload);
    assert.equal(await page.evaluate(() => window.__xss), undefined, payload);
  }
  await paste(page, payloads[1]);
  const message = await expectError(page, /hidden_size/);
  assert.ok(message.includes('<img data-xss'), 'the markup appears as text');
  assertLocalOnly(log);
  await page.close();
});

test('the served page carries a Content-Security-Policy with no remote origin and no eval, and it is enforced', async () => {
  const html = await (await fetch(server.url)).text();
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(csp, 'no Content-Security-Policy meta element in the served page');
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  assert.deepEqual(directives['default-src'], ["'self'"]);
  for (const [name, values] of Object.entries(directives)) {
    for (const value of values) {
      assert.ok(
        !/^(https?:|wss?:|\*|data:.*|blob:)$/.test(value) || (name === 'img-src' && value === 'data:'),
        `${name} allows ${value}`,
      );
      assert.notEqual(value, "'unsafe-eval'", `${name} allows eval`);
    }
  }
  assert.ok(!directives['script-src'].includes("'unsafe-inline'"), 'script-src allows inline scripts');

  const { page, log } = await openPage();
  assert.equal(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'), csp);
  // Normal use: no violation.
  await paste(page, goodConfig);
  await paste(page, '{ nope');
  await expectError(page, /not valid JSON/);
  await paste(page, goodConfig);
  await expectNoError(page);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assertLocalOnly(log);
  // Enforced: eval and an injected inline script are blocked and reported. (page.evaluate itself
  // may eval, as DevTools does; a task it schedules runs as the page's own code.)
  const evalOutcome = await page.evaluate(
    () =>
      new Promise((resolve) =>
        setTimeout(() => {
          try {
            resolve(eval('"ran"'));
          } catch (error) {
            resolve(error.name);
          }
        }, 0),
      ),
  );
  assert.equal(evalOutcome, 'EvalError');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inline = 1';
    document.body.append(script);
  });
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.__inline), undefined);
  const violations = await page.evaluate(() => window.__cspViolations);
  assert.ok(
    violations.some((line) => line.startsWith('script-src') && line.endsWith(' eval')),
    JSON.stringify(violations),
  );
  assert.ok(
    violations.some((line) => line.startsWith('script-src') && line.endsWith(' inline')),
    JSON.stringify(violations),
  );
  // The only console errors are Chromium's reports of the two blocked probes.
  log.errors = log.errors.filter((line) => !/Content Security Policy/.test(line));
  assertLocalOnly(log);
  await page.close();
});
