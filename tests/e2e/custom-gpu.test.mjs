// SPDX-License-Identifier: MIT
// A user-defined GPU in the page: the verdict, capacity and latency figures are the CLI's for the
// same keys, a share link reproduces it in a fresh context; and a config.json dropped on the
// model input loads as if pasted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';
import { cli, close, number, presetConfigFile, seconds } from './cli.mjs';
import { tempDir } from '../support/temp-dir.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist') });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const origin = () => new URL(server.url).origin + '/';

async function freshPage(url = server.url, ready = 'verdict') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(url);
  await page.getByTestId(ready).waitFor();
  return { page, log, context };
}

const llama = 'meta-llama--llama-3.1-8b';
// An H100 with 24 GiB and 1 TB/s: Llama-3.1-8B's 14.96 GiB of bf16 weights fit in 0.9 x 24 GiB
// with little room for the cache, and decoding slows with the bandwidth.
const customFlags = [
  '--gpu',
  'custom',
  '--custom-gpu-base',
  'h100-sxm-80gb',
  '--custom-gpu-name',
  'Small H100',
  '--custom-gpu-memory-gib',
  '24',
  '--custom-gpu-bandwidth-gb-per-s',
  '1000',
];

const figures = (page) =>
  page.evaluate(() => {
    const pick = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent;
    return [
      'verdict',
      'total-params',
      'total-per-gpu',
      'gpu-budget',
      'headroom',
      'capacity-max_batch_size',
      'capacity-max_context_length',
      'capacity-min_gpus',
      'latency-time_to_first_token',
      'latency-decode_step_first',
      'latency-end_to_end',
    ].map((id) => [id, pick(id)]);
  });

async function defineCustom(page) {
  await page.getByTestId('gpu').selectOption('custom');
  await page.getByTestId('custom-gpu').waitFor();
  assert.equal(await page.getByTestId('custom_gpu_base').inputValue(), 'h100-sxm-80gb'); // the GPU chosen before
  await page.getByTestId('custom_gpu_name').fill('Small H100');
  await page.getByTestId('custom_gpu_memory_gib').fill('24');
  await page.getByTestId('custom_gpu_bandwidth_gb_per_s').fill('1000');
  await page.getByTestId('verdict').filter({ hasText: 'Small H100' }).waitFor();
}

test("a custom GPU: the verdict, capacity and latency are the CLI's for the same keys", async () => {
  const { page, log, context } = await freshPage();
  const before = await figures(page);
  await defineCustom(page);
  const expected = cli('infer', presetConfigFile(llama), customFlags);
  assert.equal(expected.gpu.id, 'custom');
  assert.equal(expected.gpu.memory_bytes, 24 * 2 ** 30);
  const verdict = await page.getByTestId('verdict').textContent();
  assert.match(verdict, expected.fits ? /^Fits on 1 × Small H100/ : /^Does not fit/);
  assert.equal(
    number(await page.getByTestId('capacity-max_batch_size').textContent()),
    expected.capacity.max_batch_size.value,
  );
  assert.equal(
    number(await page.getByTestId('capacity-max_context_length').textContent()),
    expected.capacity.max_context_length.value,
  );
  for (const [key, value] of [
    ['time_to_first_token', expected.latency.time_to_first_token_seconds],
    ['decode_step_first', expected.latency.decode_step_first_seconds],
  ]) {
    const text = await page.getByTestId(`latency-${key}`).textContent();
    const unit = await page.getByTestId(`latency-${key}-unit`).textContent();
    close(seconds(text, unit), value);
  }
  // The catalog H100 gives other answers: the custom figures were used.
  const after = await figures(page);
  assert.notDeepEqual(after, before);
  const h100 = cli('infer', presetConfigFile(llama), ['--gpu', 'h100-sxm-80gb']);
  assert.ok(expected.capacity.max_batch_size.value < h100.capacity.max_batch_size.value);
  await screenshot(page, 'custom-gpu');
  assertLocalOnly(log, origin());
  await context.close();
});

test('a custom GPU travels in the link and is reproduced in a fresh context', async () => {
  const { page, log, context } = await freshPage();
  await defineCustom(page);
  await page.waitForFunction(() => location.hash.includes('custom_gpu_bandwidth_gb_per_s=1000'));
  const link = page.url();
  const shown = await figures(page);
  const second = await freshPage(link);
  await second.page.getByTestId('verdict').filter({ hasText: 'Small H100' }).waitFor();
  // The latency table is drawn from its own chunk, which a fresh context may still be fetching.
  await second.page.getByTestId('latency-time_to_first_token').waitFor();
  assert.deepEqual(await figures(second.page), shown);
  assert.equal(await second.page.getByTestId('custom_gpu_memory_gib').inputValue(), '24');
  assertLocalOnly(log, origin());
  assertLocalOnly(second.log, origin());
  await context.close();
  await second.context.close();
});

/** Dispatches a drop of one file on the model input, as a drag from the desktop does. */
async function dropFile(page, name, text) {
  await page.evaluate(
    ([fileName, content]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], fileName, { type: 'application/json' }));
      const target = document.querySelector('[data-testid="config-drop"]');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [name, text],
  );
}

test('a config.json dropped on the model input loads as if pasted; a non-JSON file is refused inline', async () => {
  const { page, log, context } = await freshPage();
  await dropFile(page, 'notes.txt', 'not json at all');
  await page.getByTestId('config-file-error').filter({ hasText: 'notes.txt is not JSON' }).waitFor();
  assert.equal(await page.getByTestId('total-params').textContent(), '8,030,261,248'); // nothing loaded
  const config = fs.readFileSync(path.join(repo, 'tests/fixtures/configs/Qwen--Qwen2-7B-Instruct.json'), 'utf8');
  await dropFile(page, 'config.json', config);
  // Qwen2-7B-Instruct: 7,615,616,512 parameters, as the CLI counts them.
  assert.equal(cli('params', configFile(config)).total_params, 7_615_616_512);
  await page.getByTestId('total-params').filter({ hasText: '7,615,616,512' }).waitFor();
  assert.equal(await page.getByTestId('config-file-error').count(), 0);
  assert.equal(await page.getByTestId('preset').inputValue(), '');
  assert.match(await page.getByTestId('config').inputValue(), /"model_type": "qwen2"/);
  assertLocalOnly(log, origin());
  await context.close();
});

function configFile(text) {
  const file = path.join(tempDir('fitcheck-drop-'), 'config.json');
  fs.writeFileSync(file, text);
  return file;
}

test('a planner row on a custom GPU opens with its figures, in the Inference and the Training tab', async () => {
  const big = 'custom_gpu_base=h100-sxm-80gb&custom_gpu_name=Big%20H100&custom_gpu_memory_gib=96';
  const prefixed = (prefix) =>
    big
      .split('&')
      .map((pair) => prefix + pair)
      .join('&');
  // Serving: the best layout on the custom kind opens in the Inference tab with the custom figures.
  const serving = await freshPage(
    `${server.url}#mode=plan&model=preset&preset=${llama}&p.gpus=custom&p.max_gpus=2&p.batches=1,8&${prefixed('p.')}`,
    'total-params',
  );
  await serving.page.getByTestId('plan-best-0-layout').click();
  await serving.page.getByTestId('verdict').filter({ hasText: 'Big H100' }).waitFor();
  assert.equal(await serving.page.getByTestId('gpu').inputValue(), 'custom');
  assert.equal(await serving.page.getByTestId('custom_gpu_memory_gib').inputValue(), '96');
  assertLocalOnly(serving.log, origin());
  await serving.context.close();
  // Training: the same for the training planner's best layout, whose memory is the row's.
  const training = await freshPage(
    `${server.url}#mode=plan&model=preset&preset=${llama}&p.kind=training&q.gpus=custom&q.max_gpus=8&${prefixed('q.')}`,
    'total-params',
  );
  const best = training.page.getByTestId('tplan-best-0-layout');
  await best.waitFor({ timeout: 60000 });
  await best.click();
  await training.page.getByTestId('train-verdict').waitFor();
  assert.equal(await training.page.getByTestId('train-gpu').inputValue(), 'custom');
  assert.equal(await training.page.getByTestId('train-custom_gpu_memory_gib').inputValue(), '96');
  assert.doesNotMatch(await training.page.getByTestId('train-verdict').textContent(), /error|unknown/i);
  assertLocalOnly(training.log, origin());
  await training.context.close();
});

// #19 D01/D02: a custom rate so small that figures would be infinite. The core refuses it naming
// the option; every tab shows that refusal, and nothing crashes or shows a figure as 0.
test('a custom rate that would make figures infinite: each tab shows the refusal, nothing crashes', async () => {
  const figures = 'custom_gpu_memory_gib=80&{p}custom_gpu_bandwidth_gb_per_s=3000&{p}custom_gpu_bf16_tflops=5e-324';
  const hashes = [
    `#model=preset&mode=plan&p.gpus=h100-sxm-80gb,custom&p.${figures.replaceAll('{p}', 'p.')}`,
    `#model=preset&mode=plan&p.gpus=h100-sxm-80gb,custom&p.objective=lowest_cost&p.${figures.replaceAll('{p}', 'p.')}`,
    `#model=preset&mode=plan&p.kind=training&q.gpus=h100-sxm-80gb,custom&q.${figures.replaceAll('{p}', 'q.')}`,
    `#model=preset&mode=training&t.gpu=custom&t.${figures.replaceAll('{p}', 't.')}`,
    `#model=preset&mode=inference&gpu=custom&${figures.replaceAll('{p}', '')}`,
  ];
  for (const hash of hashes) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url + hash);
    await page.getByTestId('total-params').waitFor();
    const alert = page.locator('[role=alert]', { hasText: /at least 0\.001/ }).first();
    await alert.waitFor({ timeout: 60000 });
    const body = await page.locator('body').innerText();
    assert.doesNotMatch(body, /Something went wrong/, hash);
    assert.match(await alert.innerText(), /custom_gpu_bf16_tflops|bf16/i, hash);
    await context.close();
  }
});
