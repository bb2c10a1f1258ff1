// SPDX-License-Identifier: MIT
// Inference mode of the built page in headless Chromium: knobs, verdict, formulas, units,
// capacity, charts, presets, "from numbers", compare, the tabs, keyboard and screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/calc/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(options = {}) {
  const page = await browser.newPage(options);
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('verdict').waitFor();
  return { page, log };
}
const origin = () => new URL(server.url).origin + '/';
const text = (page, id) => page.getByTestId(id).textContent();

test('the default view: Llama-3.1-8B on one H100 SXM, fits, with capacity answers', async () => {
  const { page, log } = await openPage({ viewport: { width: 1280, height: 900 } });
  assert.equal(await page.getByTestId('gpu').inputValue(), 'h100-sxm-80gb');
  assert.match(
    await text(page, 'verdict'),
    /^Fits on 1 × NVIDIA H100 SXM5 80GB: 16\.85 GiB per GPU of a 71\.68 GiB budget, 54\.83 GiB to spare\.$/,
  );
  assert.equal(await text(page, 'term-weights'), '14.96 GiB');
  // KV cache: 131,072 B/token (32 layers x 8 KV heads x 128 x 2 (K,V) x 2 B) x 4096 tokens = 0.50 GiB.
  assert.equal(await text(page, 'term-kv_cache'), '0.50 GiB');
  assert.equal(await text(page, 'capacity-max_batch_size'), '62');
  assert.equal(await text(page, 'capacity-min_gpus'), '1');
  await page.getByTestId('chart-context').waitFor();
  await page.getByTestId('chart-batch').waitFor();
  assert.ok((await page.locator('[data-testid=chart-context] circle').count()) >= 20);
  assertLocalOnly(log, origin());
  await page.close();
});

test('inference knobs change the numbers; a too-large model does not fit and says by how much', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('batch').fill('8');
  // 131,072 B/token x 4096 tokens x 8 = 4 GiB.
  await page.getByTestId('term-kv_cache').filter({ hasText: '4.00 GiB' }).waitFor();
  await page.getByTestId('kv_dtype').selectOption('fp8');
  await page.getByTestId('term-kv_cache').filter({ hasText: '2.00 GiB' }).waitFor();
  await page.getByTestId('weights').selectOption('q4_k_m');
  assert.notEqual(await text(page, 'term-weights'), '14.96 GiB');
  await page.getByTestId('preset').selectOption('meta-llama--llama-3.1-70b');
  await page.getByTestId('weights').selectOption('bf16');
  await page.getByTestId('gpu').selectOption('rtx-4090');
  await page
    .getByTestId('verdict')
    .filter({ hasText: /^Does not fit/ })
    .waitFor();
  assert.match(await text(page, 'verdict'), /GiB short\.$/);
  assert.match(await page.locator('tr[data-row=verdict]').textContent(), /Does not fit, short by/);
  assert.match(await text(page, 'capacity-min_gpus'), /^\d+$/);
  await page.getByTestId('tp').fill('8');
  await page.getByTestId('gpu').selectOption('h100-sxm-80gb');
  await page
    .getByTestId('verdict')
    .filter({ hasText: /^Fits on 8 × / })
    .waitFor();
  await screenshot(page, 'inference-70b-tp8');
  assertLocalOnly(log, origin());
  await page.close();
});

test("vLLM V0's profile run sorts its sampler's logits too: FlashInfer's sampler leaves more for the cache", async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset').selectOption('meta-llama--llama-3.1-8b');
  await page.getByTestId('engine').selectOption('sglang');
  assert.equal(await page.getByTestId('vllm_sampler').count(), 0);
  await page.getByTestId('engine').selectOption('vllm-v0');
  const start = page.getByTestId('engine-start');
  await start.filter({ hasText: /^vLLM starts: / }).waitFor();
  const left = async () => Number((await start.textContent()).match(/([\d,.]+) GiB left/)[1].replace(/,/g, ''));
  const sorted = await left();
  // 256 rows of 128,256 logits at 38 B (the sort) against 4 B (FlashInfer's fp32 logits alone).
  await page.getByTestId('vllm_sampler').selectOption('flashinfer');
  let unsorted = sorted;
  for (let tries = 0; tries < 100 && unsorted <= sorted; tries += 1) {
    await page.waitForTimeout(50);
    unsorted = await left();
  }
  assert.ok(unsorted > sorted, `${unsorted} GiB left with FlashInfer's sampler, ${sorted} with the sort`);
  assertLocalOnly(log, origin());
  await page.close();
});

test('vLLM stores gpt-oss MXFP4 experts padded for its MoE kernel, and says when vLLM would not start', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset').selectOption('openai--gpt-oss-120b');
  // The checkpoint: 65,248,815,744 B = 60.77 GiB.
  await page.getByTestId('term-weights').filter({ hasText: '60.77 GiB' }).waitFor();
  // Marlin on an H100: 5,504,827,392 B of padding (docs/engines-serving.md 1.1), 65.89 GiB in all.
  await page.getByTestId('engine').selectOption('vllm');
  await page.getByTestId('term-weights').filter({ hasText: '65.89 GiB' }).waitFor();
  assert.match(await page.locator('body').textContent(), /MXFP4 experts run Marlin's MoE kernel/);
  // With v0.11's sampler, whose profile run sorts 1024 rows of 201,088 logits (38 B each, 7.29 GiB),
  // nothing is left for the cache at utilization 0.9.
  const start = page.getByTestId('engine-start');
  await start.filter({ hasText: /0\.00 GiB left\. No length starts/ }).waitFor();
  // vLLM 0.10 sampled with FlashInfer (vllm#23278's release): it fits, but vLLM would not start: one
  // 131,072-token request needs 18 full layers x 8192 pages + 18 windowed layers x 521 pages of
  // 32,768 B = 4.79 GiB of KV cache.
  await page.getByTestId('vllm_sampler').selectOption('flashinfer');
  await start.filter({ hasText: /3\.\d\d GiB left/ }).waitFor();
  assert.match(
    await start.textContent(),
    /^vLLM refuses to start: one request of max_model_len 131,072 \(the config's\) needs 4\.79 GiB of KV cache, 3\.\d\d GiB left\. --max-model-len \d+ starts\.$/,
  );
  // One click sets the longest that starts; the form shows it and vLLM now starts at it.
  const longest = (await start.textContent()).match(/--max-model-len (\d+) starts/)[1];
  await page.getByTestId('engine-start-fix').click();
  await start
    .filter({
      hasText: new RegExp(
        `^vLLM starts: one request of max_model_len ${Number(longest).toLocaleString('en-US')} needs`,
      ),
    })
    .waitFor();
  assert.equal(await page.getByTestId('max_model_len').inputValue(), longest);
  await page.getByTestId('max_model_len').fill('');
  // Llama-3.1-8B starts: 32 layers x 8192 pages of 65,536 B = 16.00 GiB.
  await page.getByTestId('preset').selectOption('meta-llama--llama-3.1-8b');
  await start
    .filter({ hasText: /^vLLM starts: one request of max_model_len 131,072 \(the config's\) needs 16\.00 GiB/ })
    .waitFor();
  assertLocalOnly(log, origin());
  await page.close();
});

test('a setup that does not fit offers the changes that fit, one click each; its speed is marked hypothetical', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset').selectOption('openai--gpt-oss-120b');
  await page.getByTestId('weights').selectOption('bf16');
  await page
    .getByTestId('verdict')
    .filter({ hasText: /^Does not fit/ })
    .waitFor();
  // 116.8 B parameters in bf16 are about 219 GiB: the checkpoint's own MXFP4 (about 62 GiB) fits
  // one H100, and so do 4 GPUs in bf16.
  const own = page.getByTestId('fit-change-weights');
  assert.match(await own.textContent(), /MXFP4 \(the checkpoint's own format\)/);
  assert.match(await text(page, 'fit-change-gpus'), /^4 GPUs \(tp 4, pp 1\)$/);
  await page.getByTestId('latency-hypothetical').waitFor();
  assert.match(await page.locator('#latency-heading').textContent(), /\(hypothetical\)/);
  await own.click();
  await page
    .getByTestId('verdict')
    .filter({ hasText: /^Fits on 1 × / })
    .waitFor();
  assert.equal(await page.getByTestId('weights').inputValue(), 'mxfp4');
  assert.equal(await page.getByTestId('fit-changes').count(), 0);
  await page.getByTestId('latency-hypothetical').waitFor({ state: 'detached' });
  // Another way out: back to bf16, then the GPUs change sets tp and pp.
  await page.getByTestId('weights').selectOption('bf16');
  await page.getByTestId('fit-change-gpus').click();
  await page
    .getByTestId('verdict')
    .filter({ hasText: /^Fits on 4 × / })
    .waitFor();
  assert.equal(await page.getByTestId('tp').inputValue(), '4');
  assertLocalOnly(log, origin());
  await page.close();
});

test('a value the core refuses is shown beside its input, and the rest of the page stays', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('batch').fill('0');
  assert.match(await text(page, 'batch-error'), /'batch' must be between 1/);
  assert.equal(await page.getByTestId('batch').getAttribute('aria-invalid'), 'true');
  assert.equal(await text(page, 'total-params'), '8,030,261,248');
  await page.getByTestId('batch').fill('1');
  await page.getByTestId('tp').fill('3');
  // The core names the option when it can (then the message sits beside it), else above the form.
  assert.match(
    await page.getByTestId('tp-error').or(page.getByTestId('workload-error')).textContent(),
    /does not divide/,
  );
  await screenshot(page, 'workload-error');
  assertLocalOnly(log, origin());
  await page.close();
});

test('every figure opens to its formula with the numbers substituted; units switch', async () => {
  const { page, log } = await openPage();
  await page.getByRole('button', { name: 'Formula for KV cache' }).click();
  assert.match(
    await text(page, 'gpu-memory-kv_cache-formula'),
    /4096 B\/token\/layer x 4096 tokens x batch 1 x 32 layers/,
  );
  await page.getByRole('button', { name: 'Formula for Largest batch' }).click();
  assert.match(await text(page, 'capacity-max_batch_size-formula'), /batch 62 uses/);
  await page.getByTestId('unit-GB').check();
  assert.equal(await text(page, 'total-per-gpu'), '18.09 GB');
  assert.equal(await text(page, 'gpu-budget'), '76.97 GB');
  assertLocalOnly(log, origin());
  await page.close();
});

test('the preset search finds a family; "from numbers" builds a config the core counts', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset-search').fill('mixtral');
  await page.getByTestId('preset-search').press('Enter');
  await page
    .getByTestId('total-params')
    .filter({ hasText: /^(46,702,792,704|140,620,634,112)$/ })
    .waitFor();
  await page.getByTestId('kind-numbers').check();
  await page.getByLabel('Layers', { exact: true }).fill('32');
  await page.getByLabel('Hidden size').fill('4096');
  await page.getByLabel('Attention heads').fill('32');
  await page.getByLabel('KV heads').fill('8');
  await page.getByLabel('MLP intermediate size').fill('14336');
  await page.getByLabel('Vocabulary').fill('128256');
  // Llama-3.1-8B's shape: its published 8,030,261,248 parameters.
  await page.getByTestId('total-params').filter({ hasText: '8,030,261,248' }).waitFor();
  await page.getByLabel('Hidden size').fill('x');
  assert.match(await page.getByTestId('num-hidden_size-error').textContent(), /hidden_size|whole number/);
  assertLocalOnly(log, origin());
  await page.close();
});

test('the models people ask for are bundled: the search names them and Enter picks the closest', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset-search').fill('mistral nemo');
  await page.getByTestId('preset-search').press('Enter');
  await page
    .getByTestId('total-params')
    .filter({ hasText: /^12,247,782,400$/ })
    .waitFor();
  await page.getByTestId('preset-search').fill('gemma 3 27b');
  await page.locator('#preset-count', { hasText: /Enter picks gemma-3-27b-it$/ }).waitFor();
  await page.getByTestId('preset-search').press('Enter');
  // The language model's count (the SigLIP tower is counted apart).
  await page
    .getByTestId('total-params')
    .filter({ hasText: /^27,009,346,304$/ })
    .waitFor();
  await page.getByTestId('preset-search').fill('qwen2.5 72b');
  await page.getByTestId('preset-search').press('Enter');
  await page
    .getByTestId('total-params')
    .filter({ hasText: /^72,706,203,648$/ })
    .waitFor();
  assertLocalOnly(log, origin());
  await page.close();
});

test('pin a result and compare it with the next one', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('pin').click();
  await page.getByTestId('gpu').selectOption('a100-sxm-40gb');
  await page.getByTestId('current-layout').filter({ hasText: /A100/ }).waitFor();
  assert.match(await text(page, 'pinned-layout'), /H100/);
  assert.equal(await text(page, 'pinned-total'), await text(page, 'current-total'));
  assert.notEqual(await text(page, 'pinned-budget'), await text(page, 'current-budget'));
  await page.getByTestId('unpin').click();
  assert.equal(await page.getByTestId('compare').count(), 0);
  assertLocalOnly(log, origin());
  await page.close();
});

test('the tabs keep their own inputs, and arrow keys move between them', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('tab-training').click();
  await page.getByTestId('train-verdict').waitFor();
  assert.equal(await page.getByTestId('verdict').count(), 0);
  assert.equal(await text(page, 'total-params'), '8,030,261,248');
  // Arrow keys move between the tabs: Training -> Plan -> Local -> Inference.
  await page.getByTestId('tab-training').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('plan-results').waitFor();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('local-results').waitFor();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('verdict').waitFor();
  assertLocalOnly(log, origin());
  await page.close();
});

test('keyboard only: Tab reaches the inputs with a visible focus ring', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('preset-search').focus();
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const element = document.activeElement;
    const style = getComputedStyle(element);
    return { id: element.id, outline: style.outlineStyle, width: style.outlineWidth };
  });
  assert.equal(focused.id, 'preset');
  assert.equal(focused.outline, 'solid');
  assert.equal(focused.width, '3px');
  // Every input, select and textarea has a label.
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')]
      .filter((el) => !el.labels?.length && !el.getAttribute('aria-label'))
      .map((el) => el.outerHTML),
  );
  assert.deepEqual(unlabelled, []);
  assertLocalOnly(log, origin());
  await page.close();
});

for (const [width, scheme] of [
  [1280, 'light'],
  [1280, 'dark'],
  [360, 'light'],
  [360, 'dark'],
]) {
  test(`screenshot at ${width}px, ${scheme}: nothing wider than the screen`, async () => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const log = watchPage(page);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(server.url);
    await page.getByTestId('chart-batch').waitFor();
    // On a loaded machine the deferred charts may still be laying out: give the width up to 5 s to
    // settle; a real overflow stays and fails below.
    await page
      .waitForFunction((w) => document.documentElement.scrollWidth === w, width, { timeout: 5000 })
      .catch(() => {});
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, scheme === 'dark' ? 'rgb(18, 20, 23)' : 'rgb(255, 255, 255)');
    await screenshot(page, `calculator-${width}-${scheme}`);
    assertLocalOnly(log, origin());
    await page.close();
  });
}
