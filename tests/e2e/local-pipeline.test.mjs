// SPDX-License-Identifier: MIT
// The Local tab with several GPUs: llama.cpp's pipeline parallelism overlaps the ubatches of one
// batch over them (docs/local.md, "Pipeline parallelism"), as `fitcheck local` says, and a batch of
// one ubatch has nothing to overlap.
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
