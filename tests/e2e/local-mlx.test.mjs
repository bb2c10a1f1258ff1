// SPDX-License-Identifier: MIT
// The Local tab's MLX LM engine (docs/local.md, "MLX LM"): switching the engine sets an Apple chip
// and MLX weights, the peak memory, its lines and the speeds are the CLI's, a link restores the
// engine, and a GPU that is not Apple silicon is refused beside the chip's field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';
import { cli, grouped, presetConfigFile } from './cli.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const gb = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;

/** A page in GB with the Local tab open and its engine set to MLX LM; `log` is watchPage's. */
async function openMlxTab() {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('unit-GB').check();
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();
  await page.getByTestId('local-engine').selectOption('mlx');
  return { page, log };
}

test('MLX LM on an M4 Max: the peak and speeds are the CLI figures, and a link restores the engine', async () => {
  const { page, log } = await openMlxTab();
  // The engine's own machine and weights; llama.cpp's fields are gone.
  assert.equal(await page.getByTestId('local-gpu').inputValue(), 'm4-max');
  assert.equal(await page.getByTestId('local-weights').inputValue(), '4bit');
  assert.equal(await page.getByTestId('local-ramGib').count(), 0);
  await page.getByTestId('local-promptLen').fill('2048');

  // The page's default model: Llama-3.1-8B.
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const report = cli('local', config, [
    '--engine',
    'mlx',
    '--gpu',
    'm4-max',
    '--weights',
    '4bit',
    '--prompt-len',
    '2048',
  ]);
  assert.equal(report.engine, 'mlx');
  await page
    .getByTestId('mlx-peak')
    .filter({ hasText: gb(report.peak_memory_bytes) })
    .waitFor();
  const terms = await page.getByTestId('mlx-terms').locator('tbody tr th').allTextContents();
  assert.deepEqual(terms, [...report.terms.map((t) => t.name), 'peak']);
  await page
    .getByTestId('local-speed')
    .filter({ hasText: `Prompt ${grouped(report.prompt_tokens_per_second)} tokens/s` })
    .filter({ hasText: `Generation ${report.generation_tokens_per_second.toFixed(1)} tokens/s` })
    .waitFor();
  // Each figure says how far the validation set puts it.
  for (const id of ['mlx-peak-expected-error', 'mlx-prompt-expected-error', 'mlx-generation-expected-error'])
    assert.match(await page.getByTestId(id).textContent(), /±\d+% typical/);
  // The CLI names the conversion after the config's file, the page after no file: "model-4bit".
  assert.equal(
    await page.getByTestId('local-command').textContent(),
    report.mlx_command.replace('--model meta-llama--llama-3.1-8b-4bit', '--model model-4bit'),
  );

  // The link holds the engine and its fields (written once the edits settle).
  await page.waitForFunction(() => location.hash.includes('l.engine=mlx'));
  const link = page.url();
  assert.match(link, /l\.engine=mlx/);
  const again = await browser.newPage();
  await again.goto(link);
  await again
    .getByTestId('mlx-peak')
    .filter({ hasText: gb(report.peak_memory_bytes) })
    .waitFor();
  assert.equal(await again.getByTestId('local-engine').inputValue(), 'mlx');
  await again.close();

  // A model whose caches MLX keeps otherwise (Qwen3-Next's linear attention): refused beside the engine.
  await page.getByTestId('preset').selectOption('qwen--qwen3-next-80b-a3b-instruct');
  await page.locator('#local-engine-error').filter({ hasText: 'linear-attention' }).waitFor();
  await page.getByTestId('preset').selectOption('meta-llama--llama-3.1-8b');
  await page
    .getByTestId('mlx-peak')
    .filter({ hasText: gb(report.peak_memory_bytes) })
    .waitFor();

  // An NVIDIA GPU is not Apple silicon: the message sits beside the chip's field.
  await page.getByTestId('local-gpu').fill('rtx-4090');
  await page.locator('#local-gpu-error').filter({ hasText: 'Apple silicon' }).waitFor();
  // Back to llama.cpp: its machine and weights return.
  await page.getByTestId('local-engine').selectOption('llamacpp');
  assert.equal(await page.getByTestId('local-gpu').inputValue(), 'rtx-4090');
  await page.getByTestId('local-devices').waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
  await again.close().catch(() => {});
});

test("MLX LM's conversions on the chip: the CLI's rows, the chosen one marked, a name choosing another", async () => {
  const { page, log } = await openMlxTab();
  await page.getByTestId('local-compare-formats').click();
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const args = ['--engine', 'mlx', '--gpu', 'm4-max', '--weights', '4bit'];
  const expected = cli('local', config, [...args, '--compare-formats']).formats;
  const table = page.getByTestId('local-formats');
  await table.waitFor();
  const rows = (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((c) => c.trim()));
  assert.deepEqual(
    rows,
    expected.map((row) => [
      row.weights,
      gb(row.weight_bytes),
      row.fits ? gb(row.peak_memory_bytes) : `${gb(row.peak_memory_bytes)}: over`,
      `${row.generation_tokens_per_second.toFixed(1)} t/s`,
      `${grouped(row.prompt_tokens_per_second)} t/s`,
    ]),
  );
  assert.equal(await table.locator('tbody tr[aria-current="true"] th').textContent(), '4bit');
  // 8bit's name chooses it: the report becomes the 8bit conversion's, the row marked follows.
  await page.getByTestId('local-use-8bit').click();
  assert.equal(await page.getByTestId('local-weights').inputValue(), '8bit');
  const eight = cli('local', config, ['--engine', 'mlx', '--gpu', 'm4-max', '--weights', '8bit']);
  await page
    .getByTestId('mlx-peak')
    .filter({ hasText: gb(eight.peak_memory_bytes) })
    .waitFor();
  await table.locator('tbody tr[aria-current="true"] th').filter({ hasText: '8bit' }).waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
