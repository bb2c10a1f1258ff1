// SPDX-License-Identifier: MIT
// The Local tab's prompt speed as `fitcheck local` gives it (docs/local.md, "Speed"): with several
// GPUs llama.cpp's pipeline parallelism overlaps the ubatches of one batch, and a batch of one ubatch
// has nothing to overlap; without flash attention the speed line gives the share of the prompt's work
// spent moving attention scores, and with it none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, watchPage } from '../support/browser.mjs';
import { cli, presetConfigFile } from './cli.mjs';

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

test('two GPUs overlap the ubatches of a 2048-token prompt as the CLI says; one ubatch a batch does not', async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();
  await page.getByTestId('local-gpu').fill('rtx-3090,rtx-3090');
  await page.getByTestId('local-promptLen').fill('2048');
  // The page's defaults: Llama-3.1-8B, Q4_K_M, n_ctx 8192, 64 GiB of RAM, every layer that fits.
  const args = ['--gpu', 'rtx-3090,rtx-3090', '--ram-gib', '64', '--weights', 'q4_k_m', '--context', '8192'];
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const overlapped = cli('local', config, [...args, '--prompt-len', '2048']);
  assert.equal(overlapped.prompt_pipelined, true);
  assert.ok(overlapped.prompt_pipeline_speedup > 1.2, String(overlapped.prompt_pipeline_speedup));
  const speed = page.getByTestId('local-speed');
  await speed
    .filter({
      hasText: `Prompt ${overlapped.prompt_tokens_per_second.toFixed(0)} tokens/s (ubatches overlapped over the GPUs: ${overlapped.prompt_pipeline_speedup.toFixed(2)}x the time without)`,
    })
    .waitFor();
  // n_batch 512: each llama_decode call is one ubatch, the GPUs take turns.
  await page.getByTestId('local-batch').fill('512');
  await page.getByTestId('local-command').filter({ hasText: '-b 512' }).waitFor();
  const turns = cli('local', config, [...args, '--prompt-len', '2048', '--batch', '512']);
  assert.equal(turns.prompt_pipelined, false);
  await speed.filter({ hasText: `Prompt ${turns.prompt_tokens_per_second.toFixed(0)} tokens/s, generation` }).waitFor();
  assert.ok(turns.prompt_tokens_per_second < overlapped.prompt_tokens_per_second);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('flash attention off: the speed line gives the share of a 4096-token prompt spent on attention scores', async () => {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();
  await page.getByTestId('local-gpu').fill('rtx-4090');
  await page.getByTestId('local-promptLen').fill('4096');
  // The page's defaults: Llama-3.1-8B, Q4_K_M, n_ctx 8192, 64 GiB of RAM, every layer that fits.
  const args = [
    '--gpu',
    'rtx-4090',
    '--ram-gib',
    '64',
    '--weights',
    'q4_k_m',
    '--context',
    '8192',
    '--prompt-len',
    '4096',
  ];
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const speed = page.getByTestId('local-speed');
  const on = cli('local', config, args);
  assert.equal(on.prompt_scores_time_share, 0);
  await speed.filter({ hasText: `Prompt ${on.prompt_tokens_per_second.toFixed(0)} tokens/s, generation` }).waitFor();
  await page.getByTestId('local-flashAttention').selectOption('off');
  const off = cli('local', config, [...args, '--flash-attention', 'off']);
  assert.ok(off.prompt_scores_time_share > 0.05, String(off.prompt_scores_time_share));
  assert.ok(off.prompt_tokens_per_second < on.prompt_tokens_per_second);
  const share = (off.prompt_scores_time_share * 100).toFixed(0);
  await speed
    .filter({
      hasText: `Prompt ${off.prompt_tokens_per_second.toFixed(0)} tokens/s (${share}% of the work moves attention scores: flash attention is off)`,
    })
    .waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
