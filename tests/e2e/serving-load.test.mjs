// SPDX-License-Identifier: MIT
// "Serving under load" on the Inference tab: the engine's scheduler simulated in a Web Worker (on
// the page itself in the one-file build), each figure against `fitcheck serve-sim` on the same
// config, load and options; the load kept in the link; a refused value named beside its field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';
import { cli, cliError, close, number, presetConfigFile, seconds } from './cli.mjs';
import { tempDir } from '../support/temp-dir.mjs';

let server;
let browser;
const config = presetConfigFile('meta-llama--llama-3.1-8b');
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/load/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin + '/';

// The page's default Inference inputs (Llama-3.1-8B, one H100 SXM, 3,840 + 256 tokens) with no
// engine chosen: the simulation is vLLM's, as `fitcheck serve-sim` without --engine.
const pageDefaults = ['--gpu', 'h100-sxm-80gb', '--engine', 'vllm', '--prompt-len', '3840', '--gen-len', '256'];

const cell = async (page, key) => {
  const row = page.locator(`[data-testid=serving-load-table] tr[data-row=load_${key}]`);
  return [await row.locator('td').nth(0).textContent(), await row.locator('td').nth(1).textContent()];
};

// Waits until the table's requests/s is the CLI's (to 5e-4); a slow simulation under a loaded
// machine gets a minute, and a miss says what the page showed.
async function waitForRequestsPerSecond(page, want) {
  try {
    await page.waitForFunction(
      (value) => {
        const row = document.querySelector('[data-testid=serving-load-table] tr[data-row=load_requests_per_second] td');
        return row && Math.abs(Number(row.textContent.replace(/,/g, '')) - value) <= 5e-4 * value;
      },
      want,
      { timeout: 60_000 },
    );
  } catch (error) {
    const shown = await page
      .locator('[data-testid=serving-load-table] tr[data-row=load_requests_per_second] td')
      .first()
      .textContent()
      .catch(() => 'no row');
    const busy = await page.locator('[data-testid=serving-load] [aria-busy=true]').count();
    throw new Error(`requests/s: the page shows ${shown} (busy: ${busy > 0}), the CLI ${want}: ${error.message}`);
  }
}

async function expectFigures(page, expected) {
  const table = page.getByTestId('serving-load-table');
  await table.waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid=serving-load] [aria-busy=true]'));
  const [tokens, tokensUnit] = await cell(page, 'output_tokens_per_second');
  assert.equal(tokensUnit, 'tokens/s');
  close(number(tokens), expected.output_tokens_per_second);
  close(number((await cell(page, 'requests_per_second'))[0]), expected.requests_per_second);
  for (const [key, value] of [
    ['ttft_p50', expected.ttft_seconds_p50],
    ['ttft_p90', expected.ttft_seconds_p90],
    ['ttft_p99', expected.ttft_seconds_p99],
    ['tpot_p50', expected.tpot_seconds_p50],
    ['tpot_p90', expected.tpot_seconds_p90],
    ['tpot_p99', expected.tpot_seconds_p99],
  ]) {
    const [text, unit] = await cell(page, key);
    close(seconds(text, unit), value);
  }
  assert.equal(number((await cell(page, 'kv_capacity'))[0]), expected.scheduler.kv_capacity_tokens);
  // Each latency and throughput figure says how far to trust it (the validation set's error).
  assert.match(await page.getByTestId('load_output_tokens_per_second-expected-error').textContent(), /^±\d+% typical$/);
  assert.match(await page.getByTestId('load_ttft_p50-expected-error').textContent(), /^±\d+% typical$/);
}

test('the simulation runs in a worker once opened, matches serve-sim, and its load travels in the link', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(server.url);
  await page.getByTestId('latency-time_to_first_token').waitFor();
  const toggle = page.getByTestId('serving-load-toggle');
  await toggle.waitFor();
  // Closed on a first visit: nothing simulated, no worker started.
  assert.equal(await page.getByTestId('serving-load-table').count(), 0);
  assert.deepEqual(workers, []);
  await toggle.click();
  await expectFigures(
    page,
    cli('serve-sim', config, [
      ...pageDefaults,
      '--concurrency',
      '64',
      '--requests',
      '1000',
      '--length-distribution',
      'fixed',
    ]),
  );
  assert.ok(
    workers.some((url) => /serving-worker/.test(url)),
    `a serving worker: ${workers.join(', ')}`,
  );
  assert.ok((await page.getByTestId('serving-load-assumptions').locator('li').count()) > 3);

  // Poisson arrivals and uniform lengths: the same figures as the CLI's for that load.
  await page.getByTestId('load-arrival-rate').check();
  await page.getByTestId('load-rate').fill('3');
  await page.getByTestId('load-requests').fill('200');
  await page.getByTestId('load-lengths').selectOption('uniform');
  await page.getByTestId('load-spread').fill('0.5');
  const poisson = cli('serve-sim', config, [
    ...pageDefaults,
    '--arrival-rate',
    '3',
    '--requests',
    '200',
    '--length-distribution',
    'uniform',
    '--prompt-spread',
    '0.5',
    '--gen-spread',
    '0.5',
  ]);
  await waitForRequestsPerSecond(page, poisson.requests_per_second);
  await expectFigures(page, poisson);
  await page.waitForFunction(() => location.hash.includes('s.rate=3') && location.hash.includes('s.open=1'));
  await screenshot(page, 'serving-load');

  // The link reopens the section with that load.
  const link = await page.evaluate(() => location.href);
  const again = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const againLog = watchPage(again);
  await again.goto(link);
  await expectFigures(again, poisson);
  assert.equal(await again.getByTestId('load-lengths').inputValue(), 'uniform');
  assertLocalOnly(againLog, origin());
  await again.close();

  // A value the core refuses: its message beside the field, as the CLI words it.
  await page.getByTestId('load-requests').fill('0');
  const message = cliError('serve-sim', config, [...pageDefaults, '--arrival-rate', '3', '--requests', '0']);
  await page.getByTestId('load-requests-error').filter({ hasText: message }).waitFor();
  assertLocalOnly(log, origin());
  await page.close();
});

test('lengths replayed from a file: the figures of serve-sim --lengths-file, a bad line named beside the file', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  await page.goto(`${server.url}#model=preset&preset=meta-llama--llama-3.1-8b&s.open=1&s.concurrency=4`);
  await page.getByTestId('serving-load-table').waitFor();
  // A benchmark result saved with its details: the lengths beside everything else it records.
  const result = {
    duration: 12.5,
    input_lens: [120, 900, 64, 2048, 300, 75],
    output_lens: [40, 512, 12, 128, 1500, 33],
    ttfts: [0.02, 0.05, 0.02, 0.1, 0.03, 0.02],
    generated_texts: ['a', 'b ] {', 'c', 'd', 'e', 'f'],
  };
  const text = JSON.stringify(result);
  await page.getByTestId('load-trace-file').setInputFiles({
    name: 'result.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await page.getByTestId('load-trace-name').filter({ hasText: 'result.json' }).waitFor();
  assert.equal(await page.getByTestId('load-lengths').count(), 0);
  const traceFile = path.join(tempDir('fitcheck-trace-'), 'result.json');
  fs.writeFileSync(traceFile, text);
  // The page's defaults less its lengths, which the trace replaces.
  const withoutLengths = ['--gpu', 'h100-sxm-80gb', '--engine', 'vllm'];
  const expected = cli('serve-sim', config, [...withoutLengths, '--concurrency', '4', '--lengths-file', traceFile]);
  assert.equal(expected.requests, 6);
  assert.equal(expected.load.length_distribution, 'trace');
  await waitForRequestsPerSecond(page, expected.requests_per_second);
  await expectFigures(page, expected);
  await page
    .getByTestId('serving-load-assumptions')
    .locator('li', { hasText: 'a trace of 6 requests replayed in order' })
    .waitFor({ state: 'attached' });
  await screenshot(page, 'serving-load-trace');

  // A line the core refuses: its words beside the file field, as the CLI says them.
  await page.getByTestId('load-trace-file').setInputFiles({
    name: 'lengths.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('prompt,output\n100,10\n7\n'),
  });
  await page.getByTestId('load-trace-file-error').filter({ hasText: 'line 3: expected two whole numbers' }).waitFor();
  // Past the core's input limit: refused on the page, before the core sees it.
  await page.getByTestId('load-trace-file').setInputFiles({
    name: 'huge.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('100,10\n'.repeat(1_300_000)),
  });
  await page.getByTestId('load-trace-file-error').filter({ hasText: 'more than the 8 MiB fitcheck reads' }).waitFor();

  // Back to drawn lengths: the select returns and the figures are the link's load again.
  await page.getByTestId('load-trace-clear').click();
  await page.getByTestId('load-lengths').waitFor();
  assert.equal(await page.getByTestId('load-trace-file-error').count(), 0);
  await expectFigures(
    page,
    cli('serve-sim', config, [
      ...pageDefaults,
      '--concurrency',
      '4',
      '--requests',
      '1000',
      '--length-distribution',
      'fixed',
    ]),
  );
  assertLocalOnly(log, origin());
  await page.close();
});

test('a setup that does not fit is not simulated: the section says why', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  // Llama-3.1-8B's 16 GB of bf16 weights on a 12 GB card.
  await page.goto(`${server.url}#model=preset&preset=meta-llama--llama-3.1-8b&gpu=rtx-3060-12gb&s.open=1`);
  await page.getByTestId('serving-load-hypothetical').waitFor();
  assert.match(await page.getByTestId('serving-load-hypothetical').textContent(), /does not fit/);
  assert.equal(await page.getByTestId('serving-load-table').count(), 0);
  assert.deepEqual(workers, []);
  assertLocalOnly(log, origin());
  await page.close();
});

test('dist/fitcheck.html simulates on the page itself (no worker file there)', async () => {
  const file = path.join(repo, 'web/dist/fitcheck.html');
  const url = pathToFileURL(file).href;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(`${url}#model=preset&preset=meta-llama--llama-3.1-8b&s.open=1&s.concurrency=8&s.requests=100`);
  await expectFigures(
    page,
    cli('serve-sim', config, [
      ...pageDefaults,
      '--concurrency',
      '8',
      '--requests',
      '100',
      '--length-distribution',
      'fixed',
    ]),
  );
  assert.deepEqual(workers, []);
  assert.deepEqual(log.requests, [url]);
  assertLocalOnly(log, 'file://');
  await page.close();
});
