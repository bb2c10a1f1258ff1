// SPDX-License-Identifier: MIT
// The Plan tab's training mode in the built page: the best layouts equal
// `fitcheck plan CONFIG --mode training ... --json` on the same config, a row opens in the Training
// tab with the same memory and step time, and nothing leaves the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';
import { cli, close, presetConfigFile, seconds } from './cli.mjs';

let server;
let browser;
const config = presetConfigFile('meta-llama--llama-3.1-8b');
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/tplan/sub/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin + '/';
const thousands = (value) => Math.round(value).toLocaleString('en-US');
const gpus = 'h100-sxm-80gb,a100-sxm-80gb';

async function openPlan(hash = '') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  await page.goto(server.url + hash);
  await page.getByTestId('total-params').waitFor();
  if ((await page.getByTestId('tab-plan').getAttribute('aria-selected')) !== 'true')
    await page.getByTestId('tab-plan').click();
  return { page, log };
}

/** Waits until the training sweep for the current inputs has finished. */
async function settled(page) {
  await page.getByTestId('tplan-results').locator('[aria-busy=false]').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=tplan-progress]'), null, { timeout: 60000 });
}

const cell = (page, row, key) => page.getByTestId(`tplan-best-${row}-${key}`).textContent();

/** The Training tab, opened from a plan row, shows the row's memory per GPU and step time. */
async function assertTrainingTabFigures(page, row) {
  await page
    .getByTestId('train-total-bytes')
    .filter({ hasText: new RegExp(`^${thousands(row.memory_bytes_per_gpu)}$`) })
    .waitFor();
  await page.getByTestId('train-time-step').waitFor();
  const step = await page.getByTestId('train-time-step').textContent();
  const unit = await page.getByTestId('train-time-step').locator('xpath=following-sibling::td[1]').textContent();
  close(seconds(step, unit), row.step_seconds);
}

test('switched to training, the best layouts are the CLI best, row for row', async () => {
  const { page, log } = await openPlan();
  await page.getByTestId('plan-kind-training').check();
  await page.getByTestId('tplan-max_gpus').fill('32');
  // Only the two kinds: untick the third default one.
  await page.getByTestId('tplan-gpus-h200').uncheck();
  await page
    .getByTestId('tplan-summary')
    .filter({ hasText: /on 2 GPU kinds/ })
    .waitFor({ timeout: 60000 });
  await settled(page);
  // The kinds in the page's order (the catalog's), which breaks ties between equal layouts.
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  assert.deepEqual(hash.get('q.gpus').split(',').sort(), gpus.split(',').sort());
  const expected = cli('plan', config, ['--mode', 'training', '--gpus', hash.get('q.gpus'), '--max-gpus', 32]);
  assert.ok(expected.best.length > 0);
  assert.match(
    await page.getByTestId('tplan-summary').textContent(),
    new RegExp(
      `^${thousands(expected.evaluated)} layouts evaluated on 2 GPU kinds; ${thousands(expected.feasible)} fit`,
    ),
  );
  assert.equal(await page.locator('[data-testid=tplan-best-table] tbody tr').count(), expected.best.length);
  for (const [i, best] of expected.best.entries()) {
    const layout = await cell(page, i, 'layout');
    const pipeline = best.virtual_stages > 1 ? `pp ${best.pp} × ${best.virtual_stages} chunks` : `pp ${best.pp}`;
    assert.ok(
      layout.startsWith(`${best.gpus} × `) && layout.includes(`tp ${best.tp}, ${pipeline}, dp ${best.dp}`),
      `row ${i}: ${layout}`,
    );
    if (best.cp > 1) assert.ok(layout.includes(`cp ${best.cp}`));
    assert.equal(await cell(page, i, 'zero'), String(best.zero));
    assert.equal(
      await cell(page, i, 'micro_batch_x_accumulation'),
      `${thousands(best.micro_batch)} × ${thousands(best.micro_batches)}`,
    );
    assert.ok((await cell(page, i, 'recompute')).startsWith(best.recompute));
    close(Number((await cell(page, i, 'train_cost_usd')).replaceAll(',', '')), best.train_cost_usd);
  }
  assert.equal(await page.locator('[data-testid=tplan-frontier-table] tbody tr').count(), expected.frontier.length);
  assert.equal(
    await page.locator('[data-testid=tplan-frontier-chart] .series-frontier path').count(),
    expected.frontier.length + 1,
  );
  assert.equal(await page.getByTestId('tplan-runner').getAttribute('data-where'), 'worker');
  // The export holds the same rows: the JSON table of the best layouts is the CLI's, in base units.
  await page.getByTestId('export').locator('summary').click();
  await page.getByTestId('export-json').check();
  const exported = JSON.parse(await page.getByTestId('export-text').inputValue());
  const table = exported.tables.find((t) => t.id === 'tplan-best');
  assert.equal(table.rows.length, expected.best.length);
  for (const [i, best] of expected.best.entries()) {
    close(table.rows[i].train_cost_usd, best.train_cost_usd);
    close(table.rows[i].step_seconds, best.step_seconds);
    assert.equal(table.rows[i].zero, best.zero);
  }
  assert.equal(exported.tables.find((t) => t.id === 'tplan-frontier').rows.length, expected.frontier.length);
  // The switch and the constraints are in the link.
  assert.equal(hash.get('p.kind'), 'training');
  assert.equal(hash.get('q.max_gpus'), '32');
  await screenshot(page, 'plan-training-best');
  // A global batch that is no whole number of sequences is refused beside its input, with the CLI's words.
  await page.getByTestId('tplan-global_batch_tokens').fill('5000');
  await page.getByTestId('tplan-global_batch_tokens-error').waitFor();
  assert.match(
    await page.getByTestId('tplan-global_batch_tokens-error').textContent(),
    /^the global batch \(5000 tokens\) must be a whole number of sequences of seq_len 4096 tokens$/,
  );
  assertLocalOnly(log, origin());
  await page.close();
});

test('a linked objective gives the CLI order, and a row opens in the Training tab with the same figures', async () => {
  const { page, log } = await openPlan(
    `#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.kind=training&q.gpus=${gpus}&q.max_gpus=16&q.objective=lowest_cost`,
  );
  await page.locator('#tplan-best-title', { hasText: 'lowest cost to train first' }).waitFor({ timeout: 60000 });
  await settled(page);
  const expected = cli('plan', config, [
    '--mode',
    'training',
    '--gpus',
    gpus,
    '--max-gpus',
    16,
    '--objective',
    'lowest_cost',
  ]);
  const best = expected.best[0];
  assert.equal(await cell(page, 0, 'zero'), String(best.zero));
  await page.getByTestId('tplan-best-0-layout').click();
  await page.getByTestId('train-verdict').waitFor();
  assert.equal(await page.getByTestId('tab-training').getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByTestId('train-gpu').inputValue(), best.gpu);
  assert.equal(await page.getByTestId('train-gpus').inputValue(), String(best.gpus));
  assert.equal(await page.getByTestId('train-tp').inputValue(), String(best.tp));
  assert.equal(await page.getByTestId('train-pp').inputValue(), String(best.pp));
  assert.equal(await page.getByTestId('train-cp').inputValue(), String(best.cp));
  assert.equal(await page.getByTestId('train-micro_batch').inputValue(), String(best.micro_batch));
  assert.equal(await page.getByTestId('train-recompute').inputValue(), best.recompute);
  assert.equal(await page.getByTestId('train-sharding').inputValue(), `zero:${best.zero}`);
  // The Training tab's memory and step time are the row's.
  await assertTrainingTabFigures(page, best);
  assertLocalOnly(log, origin());
  await page.close();
});

test('an interleaved row opens in the Training tab with its chunks, schedule and micro-batches', async () => {
  // 16 sequences per step: pipelines run few micro-batches, so splitting each stage into chunks pays
  // (Megatron overlaps the interleaved schedule's sends).
  const { page, log } = await openPlan(
    `#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.kind=training&q.gpus=h100-sxm-80gb&q.max_gpus=16&q.zero_stages=0&q.global_batch_tokens=65536&q.framework=megatron`,
  );
  assert.equal(await page.getByTestId('tplan-framework').inputValue(), 'megatron');
  await settled(page);
  const expected = cli('plan', config, [
    '--mode',
    'training',
    '--gpus',
    'h100-sxm-80gb',
    '--max-gpus',
    16,
    '--zero-stages',
    0,
    '--global-batch-tokens',
    65536,
    '--framework',
    'megatron',
  ]);
  const index = expected.best.findIndex((c) => c.virtual_stages > 1);
  assert.ok(index >= 0, 'an interleaved layout among the best');
  const row = expected.best[index];
  assert.match(await cell(page, index, 'layout'), new RegExp(`pp ${row.pp} × ${row.virtual_stages} chunks`));
  await page.getByTestId(`tplan-best-${index}-layout`).click();
  await page.getByTestId('train-verdict').waitFor();
  assert.equal(await page.getByTestId('train-framework').inputValue(), 'megatron');
  assert.equal(await page.getByTestId('train-pp').inputValue(), String(row.pp));
  assert.equal(await page.getByTestId('train-pipeline_schedule').inputValue(), 'interleaved');
  assert.equal(await page.getByTestId('train-virtual_stages').inputValue(), String(row.virtual_stages));
  assert.equal(await page.getByTestId('train-micro_batches').inputValue(), String(row.micro_batches));
  await assertTrainingTabFigures(page, row);
  assertLocalOnly(log, origin());
  await page.close();
});

test('over a slow network an HSDP row is among the best, and opens in the Training tab as HYBRID_SHARD', async () => {
  // 64 GPUs of 8-GPU nodes on 100 Gb/s Ethernet (12.5 GB/s per GPU): FULL_SHARD's per-micro-batch
  // gathers cross nodes, HYBRID_SHARD's stay on the node's NVLink.
  const { page, log } = await openPlan(
    `#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.kind=training&q.gpus=h100-sxm-80gb&q.max_gpus=64&q.zero_stages=3&q.global_batch_tokens=262144&q.framework=torchtitan&q.network_gb_per_s=12.5`,
  );
  assert.equal(await page.getByTestId('tplan-network_gb_per_s').inputValue(), '12.5');
  await settled(page);
  const expected = cli('plan', config, [
    '--mode',
    'training',
    '--gpus',
    'h100-sxm-80gb',
    '--max-gpus',
    64,
    '--zero-stages',
    3,
    '--global-batch-tokens',
    262144,
    '--framework',
    'torchtitan',
    '--network-gb-per-s',
    12.5,
  ]);
  assert.equal(expected.request.network_gb_per_s, 12.5);
  const index = expected.best.findIndex((c) => c.fsdp === 'hybrid_shard');
  assert.ok(index >= 0, 'a HYBRID_SHARD layout among the best');
  const row = expected.best[index];
  assert.equal((row.fsdp_shard_group * row.tp) % 8, 0, 'the group spans whole nodes of 8 GPUs');
  assert.equal(await cell(page, index, 'zero'), `FSDP HYBRID_SHARD (shards over ${row.fsdp_shard_group})`);
  await page.getByTestId(`tplan-best-${index}-layout`).click();
  await page.getByTestId('train-verdict').waitFor();
  assert.equal(await page.getByTestId('train-sharding').inputValue(), 'fsdp:hybrid_shard');
  assert.equal(await page.getByTestId('train-fsdp_shard_group').inputValue(), String(row.fsdp_shard_group));
  assert.equal(await page.getByTestId('train-network_gb_per_s').inputValue(), '12.5');
  await assertTrainingTabFigures(page, row);
  assertLocalOnly(log, origin());
  await page.close();
});

test('on a 360px phone screen the training plans scroll inside their tables, not the page', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
  const log = watchPage(page);
  await page.goto(
    `${server.url}#mode=plan&model=preset&preset=meta-llama--llama-3.1-8b&p.kind=training&q.gpus=h100-sxm-80gb&q.max_gpus=8`,
  );
  await page.getByTestId('total-params').waitFor();
  await settled(page);
  await page.getByTestId('tplan-best-table').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
  assertLocalOnly(log, origin());
  await page.close();
});
