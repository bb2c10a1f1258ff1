// SPDX-License-Identifier: MIT
// The Plan tab of the built page: the sweep runs in a Web Worker, one GPU kind at a time, and its
// answer matches `fitcheck plan CONFIG ... --json` on the same config; a row loads into Inference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';
import { cli, close, number, presetConfigFile } from './cli.mjs';

let server;
let browser;
const config = presetConfigFile('meta-llama--llama-3.1-8b');
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/plan/sub/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin + '/';

async function openPlan(hash = '') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(server.url + hash);
  await page.getByTestId('total-params').waitFor();
  if ((await page.getByTestId('tab-plan').getAttribute('aria-selected')) !== 'true')
    await page.getByTestId('tab-plan').click();
  return { page, log, workers };
}

/** Waits until the sweep for the current inputs has finished. */
async function settled(page) {
  await page.getByTestId('plan-results').locator('[aria-busy=false]').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=plan-progress]'), null, { timeout: 60000 });
}

/** The first row of the best layouts, as exported (machine values). */
async function exportedBest(page) {
  await page.getByTestId('export').locator('summary').click();
  await page.getByTestId('export-json').check();
  const json = JSON.parse(await page.getByTestId('export-text').inputValue());
  await page.getByTestId('export').locator('summary').click();
  return json.tables.find((t) => t.id === 'plan-best').rows;
}

function expectFirstRow(row, best) {
  assert.equal(row.layout, `${best.gpu} x${best.gpus} tp${best.tp} pp${best.pp} ep${best.ep}`);
  assert.equal(row.weights_kv, `${best.weights} / ${best.kv_dtype}`);
  assert.equal(row.batch, best.batch);
  close(row.tokens_per_second, best.tokens_per_second, 1e-9);
  close(row.cost_per_million_output_tokens_usd, best.cost_per_million_output_tokens_usd, 1e-9);
  close(row.end_to_end_seconds, best.end_to_end_seconds, 1e-9);
}

test('the sweep runs in a Web Worker, shows progress, and its best layout is the CLI best[0]', async () => {
  const { page, log, workers } = await openPlan();
  await settled(page);
  // Record whether progress is drawn during the next sweep.
  await page.evaluate(() => {
    window.sawProgress = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid=plan-progress] progress')) window.sawProgress = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.getByTestId('plan-weights-bf16').check();
  await page.getByTestId('plan-weights-fp8').check();
  await page.getByTestId('plan-batches').fill('1,8,64');
  await page
    .getByTestId('plan-summary')
    .filter({ hasText: /^[\d,]+ layouts evaluated/ })
    .waitFor();
  await settled(page);
  const expected = cli('plan', config, [
    '--gpus',
    'h100-sxm-80gb,h200,a100-sxm-80gb,l40s',
    '--weights',
    'bf16,fp8',
    '--kv-dtypes',
    'bf16',
    '--batches',
    '1,8,64',
  ]);
  assert.match(
    await page.getByTestId('plan-summary').textContent(),
    new RegExp(
      `^${expected.evaluated.toLocaleString('en-US')} layouts evaluated on 4 GPU kinds; ${expected.feasible.toLocaleString('en-US')} fit`,
    ),
  );
  expectFirstRow((await exportedBest(page))[0], expected.best[0]);
  assert.equal(await page.getByTestId('plan-best-0-batch').textContent(), String(expected.best[0].batch));
  assert.equal(await page.locator('[data-testid=plan-best-table] tbody tr').count(), expected.best.length);
  assert.equal(await page.locator('[data-testid=plan-frontier-table] tbody tr').count(), expected.frontier.length);
  assert.equal(
    await page.locator('[data-testid=plan-frontier-chart] .series-frontier path').count(),
    expected.frontier.length + 1,
  );
  assert.equal(await page.evaluate(() => window.sawProgress), true);
  // A Web Worker from this origin did the work.
  assert.equal(await page.getByTestId('plan-runner').getAttribute('data-where'), 'worker');
  assert.ok(
    workers.length >= 1 &&
      workers.every((url) => url.startsWith(origin()) && /\/assets\/plan-worker-[\w-]+\.js$/.test(url)),
    workers.join(', '),
  );
  await screenshot(page, 'plan-best');
  assertLocalOnly(log, origin());
  await page.close();
});

test('another objective and latency targets give the CLI answer too', async () => {
  const { page, log } = await openPlan();
  await page.getByTestId('plan-objective').selectOption('lowest_cost');
  await page.getByTestId('plan-tpot').fill('0.02');
  await page.getByTestId('plan-max_gpus').fill('4');
  await page.locator('#plan-best-title', { hasText: 'lowest cost per output token first' }).waitFor();
  await settled(page);
  const expected = cli('plan', config, [
    '--gpus',
    'h100-sxm-80gb,h200,a100-sxm-80gb,l40s',
    '--kv-dtypes',
    'bf16',
    '--objective',
    'lowest_cost',
    '--tpot',
    0.02,
    '--max-gpus',
    4,
  ]);
  expectFirstRow((await exportedBest(page))[0], expected.best[0]);
  // A constraint the core refuses is shown beside its input.
  await page.getByTestId('plan-batches').fill('1,x');
  await page.getByTestId('plan-batches-error').waitFor();
  assert.match(await page.getByTestId('plan-batches-error').textContent(), /'batches' must be a whole number/);
  assertLocalOnly(log, origin());
  await page.close();
});

test('a row loads its layout into the Inference tab, which shows the same throughput', async () => {
  const { page, log } = await openPlan();
  await settled(page);
  const expected = cli('plan', config, ['--gpus', 'h100-sxm-80gb,h200,a100-sxm-80gb,l40s', '--kv-dtypes', 'bf16']);
  const best = expected.best[0];
  await page.getByTestId('plan-best-0-layout').click();
  await page.getByTestId('latency-batch_tokens_per_second').waitFor();
  assert.equal(await page.getByTestId('tab-inference').getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByTestId('gpu').inputValue(), best.gpu);
  assert.equal(await page.getByTestId('tp').inputValue(), String(best.tp));
  assert.equal(await page.getByTestId('pp').inputValue(), String(best.pp));
  assert.equal(await page.getByTestId('batch').inputValue(), String(best.batch));
  assert.equal(await page.getByTestId('prompt_len').inputValue(), String(expected.request.prompt_len));
  close(number(await page.getByTestId('latency-batch_tokens_per_second').textContent()), best.tokens_per_second);
  assert.match(await page.getByTestId('verdict').textContent(), new RegExp(`^Fits on ${best.gpus} × ${best.gpu_name}`));
  assertLocalOnly(log, origin());
  await page.close();
});

test('the page does not wait for a long sweep: the main thread stays free while it runs', async () => {
  const { page, log } = await openPlan('#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b');
  await settled(page);
  await page.evaluate(() => {
    window.longest = 0;
    let last = performance.now();
    window.lagTimer = setInterval(() => {
      const now = performance.now();
      window.longest = Math.max(window.longest, now - last);
      last = now;
    }, 10);
  });
  // Up to 64 GPUs, 5 formats, 3 KV dtypes, 11 batch sizes: each GPU kind's call takes a few hundred
  // milliseconds on a two-core machine (fitcheck plan ... --max-gpus 64), longer than any pause allowed.
  const heavy = {
    'p.max_gpus': '64',
    'p.weights': 'bf16,fp8,q4_k_m,int8,nf4',
    'p.kv_dtypes': 'bf16,fp8,int8',
    'p.batches': '1,2,4,8,16,32,64,128,256,512,1024',
  };
  const started = Date.now();
  await page.evaluate((changes) => {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const [key, value] of Object.entries(changes)) params.set(key, value);
    location.hash = params.toString();
  }, heavy);
  await page
    .getByTestId('plan-summary')
    .filter({ hasText: /^[\d,]{6,} layouts evaluated/ })
    .waitFor({ timeout: 90000 });
  await settled(page);
  const elapsed = Date.now() - started;
  const longest = await page.evaluate(() => (clearInterval(window.lagTimer), window.longest));
  // How long the sweep takes depends on the machine; what must hold anywhere is that it ran in a
  // dedicated worker and that the main thread never stopped for long while it did.
  const workers = page.workers().map((worker) => worker.url());
  assert.ok(workers.length >= 1, 'the sweep ran without a Web Worker');
  assert.ok(longest < 400, `the main thread paused for ${longest.toFixed(0)} ms during a ${elapsed} ms sweep`);
  assertLocalOnly(log, origin());
  await page.close();
});
