// SPDX-License-Identifier: MIT
// Links and exports: a copied link opened in a fresh browser context shows the same numbers, and
// the Markdown/CSV/JSON exports hold the figures on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/share/sub/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const origin = () => new URL(server.url).origin;

async function freshPage(url = server.url) {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin() });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(url);
  await page.getByTestId('verdict').waitFor();
  return { page, log, context };
}

const shown = (page) =>
  page.evaluate(() => {
    const pick = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent;
    return [
      'verdict',
      'total-params',
      'term-weights',
      'term-kv_cache',
      'term-activations',
      'total-per-gpu',
      'gpu-budget',
      'headroom',
      'capacity-max_batch_size',
      'capacity-max_context_length',
      'capacity-min_gpus',
    ].map((id) => [id, pick(id)]);
  });

async function copiedLink(page) {
  await page.getByTestId('copy-link').click();
  await page.getByText('Copied').waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

test('share link round trip: every knob, in a fresh browser context', async () => {
  const { page, log, context } = await freshPage();
  await page.getByTestId('preset').selectOption('qwen--qwen3-30b-a3b');
  await page.getByTestId('gpu').selectOption('a100-sxm-80gb');
  await page.getByTestId('tp').fill('2');
  await page.getByTestId('weights').selectOption('fp8');
  await page.getByTestId('kv_dtype').selectOption('fp8');
  await page.getByTestId('batch').fill('16');
  await page.getByTestId('context').fill('32768');
  await page.getByTestId('prefill_chunk').fill('2048');
  await page.getByTestId('kv_block').fill('16');
  await page.getByTestId('gpu_memory_utilization').fill('0.85');
  await page.getByTestId('overhead_gib').fill('2');
  await page.getByTestId('unit-GB').check();
  await page.getByTestId('verdict').filter({ hasText: ' GB ' }).waitFor();
  const before = await shown(page);
  const link = await copiedLink(page);
  assert.ok(link.startsWith(server.url + '#'), link);
  const second = await freshPage(link);
  assert.deepEqual(await shown(second.page), before);
  assert.equal(await second.page.getByTestId('context').inputValue(), '32768');
  assert.equal(await second.page.getByTestId('unit-GB').isChecked(), true);
  await screenshot(second.page, 'shared-link');
  assertLocalOnly(log, origin());
  assertLocalOnly(second.log, origin());
  await context.close();
  await second.context.close();
});

test("the Local tab's inputs travel in the link and reproduce its placement and command", async () => {
  const { page, log, context } = await freshPage();
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();
  await page.getByTestId('local-gpu').fill('rtx-3060-12gb');
  await page.getByTestId('local-kvDtype').selectOption('q8_0');
  await page.getByTestId('local-context').fill('32768');
  await page.getByTestId('local-command').filter({ hasText: '-c 32768' }).waitFor();
  const command = await page.getByTestId('local-command').textContent();
  assert.match(command, /-ctk q8_0/);
  const summary = await page.getByTestId('local-summary').textContent();
  const link = await copiedLink(page);
  assert.match(link, /l\.gpu=rtx-3060-12gb/);
  const second = await browser.newContext();
  const opened = await second.newPage();
  const openedLog = watchPage(opened);
  await opened.goto(link);
  await opened.getByTestId('local-command').filter({ hasText: '-c 32768' }).waitFor();
  assert.equal(await opened.getByTestId('local-command').textContent(), command);
  assert.equal(await opened.getByTestId('local-summary').textContent(), summary);
  assert.equal(await opened.getByTestId('local-gpu').inputValue(), 'rtx-3060-12gb');
  assertLocalOnly(log, origin());
  assertLocalOnly(openedLog, origin());
  await context.close();
  await second.close();
});

test('a pasted config travels in the link exactly, compressed, and reproduces the view', async () => {
  const { page, log, context } = await freshPage();
  const config = fs.readFileSync(path.join(repo, 'tests/fixtures/configs/Qwen--Qwen2-7B-Instruct.json'), 'utf8');
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill(config);
  await page.getByTestId('total-params').filter({ hasText: '7,615,616,512' }).waitFor();
  const link = await copiedLink(page);
  const cfg = new URLSearchParams(new URL(link).hash.slice(1)).get('cfg');
  assert.match(cfg, /^z[A-Za-z0-9_-]+$/);
  assert.ok(cfg.length < config.length, `cfg is ${cfg.length} characters for a ${config.length}-byte config`);
  const before = await shown(page);
  const second = await freshPage(link);
  assert.deepEqual(await shown(second.page), before);
  // The link carries the text exactly as pasted (#19 D07), whitespace and all.
  assert.equal(await second.page.getByTestId('config').inputValue(), config);
  assert.equal(await second.page.getByTestId('preset').inputValue(), '');
  assertLocalOnly(log, origin());
  assertLocalOnly(second.log, origin());
  await context.close();
  await second.context.close();
});

test('the address bar follows the inputs, and editing the hash restores them', async () => {
  const { page, log, context } = await freshPage();
  await page.getByTestId('batch').fill('3');
  await page.waitForFunction(() => location.hash.includes('batch=3'));
  await page.evaluate(() => {
    location.hash = location.hash.replace('batch=3', 'batch=5');
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=batch]').value === '5');
  assertLocalOnly(log, origin());
  await context.close();
});

test('exports: Markdown, CSV and JSON hold the numbers on screen; copy puts them on the clipboard', async () => {
  const { page, log, context } = await freshPage();
  await page.getByTestId('batch').fill('4');
  await page.getByTestId('term-kv_cache').filter({ hasText: '2.00 GiB' }).waitFor();
  const kv = await page.getByTestId('term-kv_cache').textContent();
  const total = await page.getByTestId('total-per-gpu').textContent();
  const maxBatch = await page.getByTestId('capacity-max_batch_size').textContent();
  const params = await page.getByTestId('total-params').textContent();
  await page.getByTestId('export').locator('summary').click();

  const markdown = await page.getByTestId('export-text').inputValue();
  assert.match(
    markdown,
    new RegExp(
      `\\| KV cache \\| [\\d,]+ \\| ${kv} \\| [\\d.]+ % \\| 4096 B/token/layer x 4096 tokens x batch 4 x 32 layers \\|`,
    ),
  );
  assert.match(markdown, new RegExp(`\\| Total per GPU \\| [\\d,]+ \\| ${total} \\|`));
  assert.match(markdown, new RegExp(`\\| Largest batch \\| ${maxBatch} \\| kv cache \\|`));
  assert.match(markdown, new RegExp(`\\| Total \\| ${params} \\|`));
  await page.getByTestId('copy-export').click();
  await page.getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markdown);

  await page.getByTestId('export-csv').check();
  const csv = await page.getByTestId('export-text').inputValue();
  assert.ok(
    csv.split('\n').some((line) => line.startsWith(`KV cache,"2,147,483,648",${kv},`)),
    csv,
  );
  assert.ok(csv.includes(`Total,"${params}",`));

  await page.getByTestId('export-json').check();
  const json = JSON.parse(await page.getByTestId('export-text').inputValue());
  const memory = json.tables.find((t) => t.id === 'gpu-memory');
  // 131,072 B/token x 4096 tokens x 4 sequences.
  assert.equal(memory.rows.find((r) => r.term === 'KV cache').bytes, 2147483648);
  assert.equal(memory.rows.find((r) => r.term === 'KV cache').gib, 2);
  assert.equal(json.tables.find((t) => t.id === 'capacity').rows[0].answer, Number(maxBatch));
  assert.equal(
    json.tables.find((t) => t.id === 'parameters').rows.find((r) => r.component === 'Total').params,
    8030261248,
  );
  assert.equal(json.workload.batch, 4);
  await screenshot(page, 'export-json');
  assertLocalOnly(log, origin());
  await context.close();
});

test('downloads: each format as a file; the JSON holds the GPU, the lengths, the price and the link, which keeps the operations phase', async () => {
  const { page, log, context } = await freshPage();
  await page.getByTestId('gpu').selectOption('h200');
  await page.getByTestId('prompt_len').fill('2000');
  await page.getByTestId('latency').waitFor();
  await page.getByTestId('ops-decode_last').check();
  await page.getByTestId('export').locator('summary').click();
  const saved = async (format, name) => {
    await page.getByTestId(`export-${format}`).check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-export').click()]);
    assert.equal(download.suggestedFilename(), name);
    return fs.readFileSync(await download.path(), 'utf8');
  };
  assert.equal(await saved('markdown', 'fitcheck-inference.md'), await page.getByTestId('export-text').inputValue());
  assert.match(await saved('csv', 'fitcheck-inference.csv'), /^Term,Bytes,GiB,Share,Formula$/m);
  // The link is made asynchronously (the config is compressed): wait for it in the JSON shown.
  await page.getByTestId('export-json').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=export-text]')?.value.includes('"link"'));
  const json = JSON.parse(await saved('json', 'fitcheck-inference.json'));
  assert.deepEqual(json.gpu, { id: 'h200', name: json.gpu.name, count: 1, budget_bytes: json.gpu.budget_bytes });
  assert.match(json.gpu.name, /H200/);
  assert.deepEqual(json.request, { prompt_len: 2000, gen_len: 256 });
  assert.ok(
    json.price.per_gpu_hour_usd > 0 && json.price.per_million_output_tokens_usd > 0,
    JSON.stringify(json.price),
  );
  // The link reopens the view, on the same phase of the operations table.
  const hash = new URL(json.link).hash;
  assert.match(hash, /(^#|&)phase=decode_last(&|$)/);
  const second = await freshPage(json.link);
  await second.page.getByTestId('latency').waitFor();
  assert.equal(await second.page.getByTestId('ops-decode_last').isChecked(), true);
  assert.equal(await second.page.getByTestId('prompt_len').inputValue(), '2000');
  assertLocalOnly(log, origin());
  assertLocalOnly(second.log, origin());
  await context.close();
  await second.context.close();
});
