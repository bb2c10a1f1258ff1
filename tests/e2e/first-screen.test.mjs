// SPDX-License-Identifier: MIT
// What a newcomer sees first, at 1280x800 and on a 390x844 phone: the model, the GPUs, the weight
// format, the context, the batch and the verdict on the first screen; the checkpoint's own weight
// format by default; a bad keystroke that keeps the last results (dimmed) with the message at the
// field; a model's name pasted for its config.json answered with what to paste instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/first/screen/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin;

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

async function openPage(viewport, hash = '') {
  const context = await browser.newContext({
    viewport,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(server.url + hash);
  await page.getByTestId('summary-verdict').waitFor();
  return { page, log, context };
}

// The element's box in page coordinates (the page is at the top: scrollY is 0).
async function box(page, testId) {
  return page
    .getByTestId(testId)
    .first()
    .evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { top: rect.top + scrollY, bottom: rect.bottom + scrollY, left: rect.left, right: rect.right };
    });
}

for (const [name, viewport] of Object.entries(viewports)) {
  test(`${name} ${viewport.width}x${viewport.height}: model, GPU, format, context, batch and verdict on the first screen`, async () => {
    const { page, log, context } = await openPage(viewport);
    for (const id of [
      'summary-model',
      'summary-gpus',
      'summary-format',
      'summary-context',
      'summary-batch',
      'summary-verdict',
    ]) {
      const { top, bottom, right } = await box(page, id);
      assert.ok(
        top >= 0 && bottom <= viewport.height,
        `${id} at ${top}-${bottom} px, below the ${viewport.height} px screen`,
      );
      assert.ok(right <= viewport.width + 1, `${id} ends at ${right} px, past the ${viewport.width} px screen`);
    }
    assert.equal(await page.getByTestId('summary-model').textContent(), 'Llama-3.1-8B');
    assert.equal(await page.getByTestId('summary-gpus').textContent(), ' on 1 × NVIDIA H100 SXM5 80GB');
    assert.equal(await page.getByTestId('summary-format').textContent(), 'bf16 weights, bf16 KV cache');
    assert.equal(await page.getByTestId('summary-context').textContent(), 'context 4,096');
    assert.equal(await page.getByTestId('summary-batch').textContent(), 'batch 1');
    assert.match(
      await page.getByTestId('summary-verdict').textContent(),
      /^Fits: 16\.85 GiB per GPU of a 71\.68 GiB budget/,
    );
    // A preset's config.json is folded away; the GPU picker is on the first screen at 1280x800.
    assert.equal(await page.getByTestId('config').count(), 0);
    if (name === 'desktop') {
      const gpu = await box(page, 'gpu');
      assert.ok(gpu.bottom <= viewport.height, `the GPU picker ends at ${gpu.bottom} px`);
      const verdict = await box(page, 'verdict');
      assert.ok(verdict.bottom <= viewport.height, `the verdict ends at ${verdict.bottom} px`);
    }
    // The provenance line is whole, plain sentences.
    assert.equal(
      await page.getByTestId('preset-source').textContent(),
      'Shapes: config.json from GitHub ai-dynamo/aiconfigurator. Parameter count: 8,030,261,248, from published figures.',
    );
    // One click shows the config (focused), and no table is lost on the way down.
    await page.getByTestId('show-config').click();
    // Focus moves in an effect after the text area is drawn: wait for it rather than race it.
    await page.waitForFunction(() => document.activeElement?.id === 'config', null, { timeout: 10_000 });
    for (const id of ['memory-table', 'parameter-table']) await page.getByTestId(id).waitFor();
    await screenshot(page, `first-screen-${name}`);
    assertLocalOnly(log, origin());
    await context.close();
  });
}

test('the weight format defaults to the checkpoint’s own (gpt-oss-120b in MXFP4 fits one H100); a link naming a format keeps it', async () => {
  const { page, log, context } = await openPage(viewports.desktop);
  await page.getByTestId('preset').selectOption('openai--gpt-oss-120b');
  await page.getByTestId('summary-model').filter({ hasText: 'gpt-oss-120b' }).waitFor();
  await page.getByTestId('verdict').filter({ hasText: /^Fits/ }).waitFor();
  assert.equal(await page.getByTestId('weights').inputValue(), '');
  assert.match(
    await page.getByTestId('weights').locator('option:checked').textContent(),
    /^mxfp4 · the checkpoint's own format$/,
  );
  assert.match(await page.getByTestId('summary-format').textContent(), /^mxfp4 weights/);
  // A pasted bitsandbytes 4-bit config is sized in nf4.
  await page.getByTestId('show-config').click();
  const config = JSON.parse(await page.getByTestId('config').inputValue());
  config.quantization_config = { quant_method: 'bitsandbytes', load_in_4bit: true, bnb_4bit_quant_type: 'nf4' };
  await page.getByTestId('config').fill(JSON.stringify(config, null, 2));
  await page
    .getByTestId('summary-format')
    .filter({ hasText: /^nf4 weights/ })
    .waitFor();
  // A link that names a format keeps it.
  const named = await openPage(
    viewports.desktop,
    '#model=preset&preset=openai--gpt-oss-120b&weights=bf16&gpu=h100-sxm-80gb',
  );
  assert.equal(await named.page.getByTestId('weights').inputValue(), 'bf16');
  await named.page
    .getByTestId('verdict')
    .filter({ hasText: /^Does not fit/ })
    .waitFor();
  assertLocalOnly(log, origin());
  assertLocalOnly(named.log, origin());
  await context.close();
  await named.context.close();
});

test('an invalid keystroke keeps the last results, dimmed, with the message at the field', async () => {
  const { page, log, context } = await openPage(viewports.desktop);
  await page.getByTestId('memory-table').waitFor();
  await page.getByTestId('latency').waitFor();
  const before = await page.evaluate(() => document.documentElement.scrollHeight);
  const total = await page.getByTestId('total-per-gpu').textContent();
  await page.getByTestId('batch').fill('1x');
  await page.getByTestId('batch-error').waitFor();
  await page.getByTestId('stale-results').first().waitFor();
  assert.equal(await page.getByTestId('total-per-gpu').textContent(), total);
  assert.equal(await page.getByTestId('summary').getAttribute('aria-busy'), 'true');
  const after = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(Math.abs(after - before) < before * 0.1, `page height ${before} -> ${after} px`);
  // A config that stops reading keeps the tables too.
  await page.getByTestId('batch').fill('1');
  await page.getByTestId('stale-results').waitFor({ state: 'detached' });
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').press('End');
  await page.getByTestId('config').press('Backspace');
  await page.getByTestId('config-error').waitFor();
  assert.equal(await page.getByTestId('total-params').textContent(), '8,030,261,248');
  await page.getByTestId('stale-results').first().waitFor();
  assertLocalOnly(log, origin());
  await context.close();
});

test('a hub URL or org/name pasted as the config says what to paste, and offers the bundled preset', async () => {
  const { page, log, context } = await openPage(viewports.desktop);
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill('https://huggingface.co/openai/gpt-oss-120b');
  const error = page.getByTestId('config-error');
  await error.waitFor();
  const message = await error.textContent();
  assert.match(
    message,
    /^"openai\/gpt-oss-120b" names a model; fitcheck needs its config\.json text and never downloads anything\./,
  );
  assert.match(message, /https:\/\/huggingface\.co\/openai\/gpt-oss-120b\/blob\/main\/config\.json/);
  assert.doesNotMatch(message, /parse|unexpected|not valid JSON/i);
  await page.getByTestId('use-repo-preset').click();
  assert.equal(await page.getByTestId('preset').inputValue(), 'openai--gpt-oss-120b');
  await page.getByTestId('summary-model').filter({ hasText: 'gpt-oss-120b' }).waitFor();
  // A name with no bundled preset: what to paste, and no offer.
  await page.getByTestId('show-config').click();
  await page.getByTestId('config').fill('some-org/some-model');
  await page
    .getByTestId('config-error')
    .filter({ hasText: /"some-org\/some-model" names a model/ })
    .waitFor();
  assert.equal(await page.getByTestId('use-repo-preset').count(), 0);
  assertLocalOnly(log, origin());
  await context.close();
});
