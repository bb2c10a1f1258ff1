// SPDX-License-Identifier: MIT
// The Local tab's prompt speed as `fitcheck local` gives it (docs/local.md, "Speed"): with several
// GPUs llama.cpp's pipeline parallelism overlaps the ubatches of one batch, and a batch of one ubatch
// has nothing to overlap; without flash attention the speed line gives the share of the prompt's work
// spent moving attention scores, and with it none. Each speed shows its backend's expected error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, openLocalTab, repo } from '../support/browser.mjs';
import { cli, grouped, localPageDefaults, presetConfigFile } from './cli.mjs';

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
  const { page, log } = await openLocalTab(browser, server.url);
  await page.getByTestId('local-gpu').fill('rtx-3090,rtx-3090');
  await page.getByTestId('local-promptLen').fill('2048');
  // The page's defaults: Llama-3.1-8B, Q4_K_M, n_ctx 8192, 64 GiB of RAM, every layer that fits.
  const args = localPageDefaults('rtx-3090,rtx-3090');
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const overlapped = cli('local', config, [...args, '--prompt-len', '2048']);
  assert.equal(overlapped.prompt_pipelined, true);
  assert.ok(overlapped.prompt_pipeline_speedup > 1.2, String(overlapped.prompt_pipeline_speedup));
  const speed = page.getByTestId('local-speed');
  await speed
    .filter({
      hasText: `Prompt ${grouped(overlapped.prompt_tokens_per_second)} tokens/s (ubatches overlapped over the GPUs: ${overlapped.prompt_pipeline_speedup.toFixed(2)}x the time without)`,
    })
    .waitFor();
  // n_batch 512: each llama_decode call is one ubatch, the GPUs take turns.
  await page.getByTestId('local-batch').fill('512');
  await page.getByTestId('local-command').filter({ hasText: '-b 512' }).waitFor();
  const turns = cli('local', config, [...args, '--prompt-len', '2048', '--batch', '512']);
  assert.equal(turns.prompt_pipelined, false);
  await page
    .getByTestId('local-prompt-speed')
    .filter({ hasText: new RegExp(`^Prompt ${grouped(turns.prompt_tokens_per_second)} tokens/s$`) })
    .waitFor();
  assert.ok(turns.prompt_tokens_per_second < overlapped.prompt_tokens_per_second);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('flash attention off: the speed line gives the share of a 4096-token prompt spent on attention scores', async () => {
  const { page, log } = await openLocalTab(browser, server.url);
  await page.getByTestId('local-gpu').fill('rtx-4090');
  await page.getByTestId('local-promptLen').fill('4096');
  // The page's defaults: Llama-3.1-8B, Q4_K_M, n_ctx 8192, 64 GiB of RAM, every layer that fits.
  const args = [...localPageDefaults('rtx-4090'), '--prompt-len', '4096'];
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const speed = page.getByTestId('local-speed');
  const on = cli('local', config, args);
  assert.equal(on.prompt_scores_time_share, 0);
  await page
    .getByTestId('local-prompt-speed')
    .filter({ hasText: new RegExp(`^Prompt ${grouped(on.prompt_tokens_per_second)} tokens/s$`) })
    .waitFor();
  await page.getByTestId('local-flashAttention').selectOption('off');
  const off = cli('local', config, [...args, '--flash-attention', 'off']);
  assert.ok(off.prompt_scores_time_share > 0.05, String(off.prompt_scores_time_share));
  assert.ok(off.prompt_tokens_per_second < on.prompt_tokens_per_second);
  const share = (off.prompt_scores_time_share * 100).toFixed(0);
  await speed
    .filter({
      hasText: `Prompt ${grouped(off.prompt_tokens_per_second)} tokens/s (${share}% of the work moves attention scores: flash attention is off)`,
    })
    .waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test("a MoE model's speed line gives the share of the prompt spent combining the routed experts' outputs", async () => {
  const { page, log } = await openLocalTab(browser, server.url, { preset: 'qwen--qwen3-30b-a3b' });
  await page.getByTestId('local-gpu').fill('dgx-spark');
  await page.getByTestId('local-promptLen').fill('2048');
  const config = presetConfigFile('qwen--qwen3-30b-a3b');
  const moe = cli('local', config, [...localPageDefaults('dgx-spark'), '--prompt-len', '2048']);
  // 48 MoE layers of 8 experts a token: each combine moves 262,176 bytes a token at 273 GB/s.
  assert.ok(moe.prompt_expert_combine_time_share > 0.1, String(moe.prompt_expert_combine_time_share));
  assert.ok(moe.assumptions.some((a) => a.includes('262176 bytes a token beyond a dense FFN')));
  const share = (moe.prompt_expert_combine_time_share * 100).toFixed(0);
  await page
    .getByTestId('local-prompt-speed')
    .filter({
      hasText: `Prompt ${grouped(moe.prompt_tokens_per_second)} tokens/s (${share}% of the work combines the routed experts' outputs in memory)`,
    })
    .waitFor();
  // How the Spark's prompt time is made, as the CLI's prompt_time gives it: 2048 tokens in 4 ubatches.
  const ms = (seconds) => `${(seconds * 1e3).toFixed(2)} ms`;
  const part = moe.devices[0].prompt_time;
  assert.equal(moe.prompt_ubatches, 4);
  assert.ok(part.multiply_seconds > part.weight_read_seconds);
  const line = await page.getByTestId('local-prompt-time').getByRole('listitem').first().textContent();
  assert.equal(
    line,
    `CUDA0: multiplies ${ms(part.multiply_seconds)} (longer than reading its weights, ${ms(part.weight_read_seconds)}), ` +
      `experts' combine ${ms(part.expert_combine_seconds)}` +
      (part.crossing_seconds > 0 ? `, copies in ${ms(part.crossing_seconds)}` : '') +
      `: ${ms(part.seconds)} of the prompt`,
  );
  // A dense model's line says nothing of it.
  const dense = cli('local', presetConfigFile('meta-llama--llama-3.1-8b'), localPageDefaults('dgx-spark'));
  assert.equal(dense.prompt_expert_combine_time_share, 0);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

// How far to trust each figure (docs/validation.md): the speeds carry the error of their backend's
// published llama-bench runs, or llama.cpp's over every backend when the backend has too few; the
// buffers carry the load logs' error.
test("each speed shows its backend's expected error, the buffers the load logs'", async () => {
  const expected = JSON.parse(
    fs.readFileSync(path.join(repo, 'web/src/accuracy/expected-errors.json'), 'utf8'),
  ).categories;
  const typical = (name) => `±${Math.round(expected[name].median_abs_error * 100)}% typical`;
  const { page, log } = await openLocalTab(browser, server.url);
  const prompt = page.getByTestId('local-prompt-expected-error');
  const generation = page.getByTestId('local-generation-expected-error');
  // The default machine, an RTX 4090: CUDA's published runs.
  await prompt.filter({ hasText: typical('local_prompt_llamacpp_cuda') }).waitFor();
  assert.match(await prompt.getAttribute('title'), new RegExp(`^Against ${expected.local_prompt_llamacpp_cuda.runs} `));
  assert.match(await prompt.getAttribute('title'), /llama\.cpp prompt tokens\/s, cuda backend/);
  assert.match(await generation.getAttribute('title'), /llama\.cpp generation tokens\/s, cuda backend/);
  const buffers = page.getByTestId('local-buffers-expected-error');
  assert.equal(await buffers.textContent(), `Buffers against llama.cpp's load logs: ${typical('local_memory')}`);
  // An M2 Max runs Metal: Metal's runs.
  await page.getByTestId('local-gpu').fill('m2-max');
  await page.getByTestId('local-devices').filter({ hasText: 'Metal' }).waitFor();
  await prompt.filter({ hasText: typical('local_prompt_llamacpp_metal') }).waitFor();
  assert.match(await prompt.getAttribute('title'), /metal backend/);
  assert.match(await generation.getAttribute('title'), /llama\.cpp generation tokens\/s, metal backend/);
  // SYCL has no published speed runs in the set: llama.cpp's figure, saying so.
  assert.equal(expected.local_prompt_llamacpp_sycl, undefined);
  await page.getByTestId('local-gpu').fill('arc-b580');
  await page.getByTestId('local-backend').selectOption('sycl');
  await page.getByTestId('local-devices').filter({ hasText: 'SYCL0' }).waitFor();
  await prompt.filter({ hasText: typical('local_prompt_llamacpp') }).waitFor();
  assert.match(
    await prompt.getAttribute('title'),
    /^No published measurements of the sycl backend \(fewer than 8\), so this is llama\.cpp's error over every backend\. Against \d+ published measurements of llama\.cpp prompt tokens\/s,/,
  );
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('a CPU-only prompt on a hybrid Intel part: -t 14 brings the E-cores in, at their pace, as the CLI says', async () => {
  const { page, log } = await openLocalTab(browser, server.url);
  await page.getByTestId('local-gpu').fill('');
  await page.getByTestId('local-cpu').fill('core-i5-13600k');
  await page.getByTestId('local-weights').fill('q4_0');
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const args = ['--ram-gib', '64', '--weights', 'q4_0', '--context', '8192', '--cpu', 'core-i5-13600k'];
  const prompt = (report) =>
    page
      .getByTestId('local-prompt-speed')
      .filter({ hasText: new RegExp(`^Prompt ${grouped(report.prompt_tokens_per_second)} tokens/s$`) })
      .waitFor();
  // llama.cpp's default: the 6 performance cores.
  const six = cli('local', config, args);
  await prompt(six);
  await page.getByTestId('local-threads').fill('14');
  await page.getByTestId('local-command').filter({ hasText: ' -t 14 ' }).waitFor();
  const fourteen = cli('local', config, [...args, '--threads', '14']);
  await prompt(fourteen);
  assert.notEqual(fourteen.prompt_tokens_per_second.toFixed(0), six.prompt_tokens_per_second.toFixed(0));
  assert.ok(fourteen.assumptions.some((line) => line.includes('14 threads (-t; 6 performance, 8 efficiency cores)')));
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('an older llama.cpp build: no CUDA graph before b2822, as the CLI says, kept in the link', async () => {
  const { page, log } = await openLocalTab(browser, server.url);
  await page.getByTestId('local-gpu').fill('rtx-4090');
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const args = localPageDefaults('rtx-4090');
  const generation = (report) =>
    page
      .getByTestId('local-generation-speed')
      .filter({ hasText: new RegExp(`^Generation ${report.generation_tokens_per_second.toFixed(1)} tokens/s `) })
      .waitFor();
  const current = cli('local', config, args);
  await generation(current);
  await page.getByTestId('local-llamaCppBuild').fill('b2821');
  const old = cli('local', config, [...args, '--llama-cpp-build', 'b2821']);
  assert.ok(old.generation_tokens_per_second < current.generation_tokens_per_second);
  await generation(old);
  await page.waitForFunction(() => location.hash.includes('l.llamaCppBuild=b2821'));
  // A build the core cannot read is refused beside the field, the results kept.
  await page.getByTestId('local-llamaCppBuild').fill('x12');
  await page.locator('#local-llamaCppBuild-error').filter({ hasText: "option 'llama_cpp_build'" }).waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test("the headline says where the model runs and what a token waits on, from the CLI's verdict", async () => {
  const { page, log } = await openLocalTab(browser, server.url);
  await page.getByTestId('local-gpu').fill('rtx-4090');
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const whole = cli('local', config, localPageDefaults('rtx-4090'));
  assert.equal(whole.verdict.runs_on, 'gpus');
  const verdict = page.getByTestId('local-verdict');
  await verdict
    .filter({ hasText: `Runs wholly on the GPU: about ${whole.generation_tokens_per_second.toFixed(1)} tokens/s` })
    .waitFor();
  await page.getByTestId('local-nGpuLayers').fill('20');
  const split = cli('local', config, [...localPageDefaults('rtx-4090'), '--n-gpu-layers', '20']);
  assert.equal(split.verdict.runs_on, 'gpus_and_ram');
  assert.equal(split.verdict.generation_bound_device, 'CPU');
  const share = (split.verdict.generation_bound_share * 100).toFixed(0);
  await verdict
    .filter({
      hasText:
        `Runs split between the GPU and RAM: 20 of 32 layers on the GPU, 12 in RAM, the output layer in RAM. ` +
        `It runs at about ${split.generation_tokens_per_second.toFixed(1)} tokens/s generating, ` +
        `${grouped(split.prompt_tokens_per_second)} tokens/s reading a prompt; a generated token waits on the CPU ` +
        `for ${share}% of its time.`,
    })
    .waitFor();
  await page.getByTestId('local-ramGib').fill('1');
  await verdict
    .filter({ hasText: /^Does not fit: CPU needs [0-9.]+ GiB more than its limit of 1\.00 GiB\./ })
    .waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});

test('weight formats on this machine: one click, the CLI --compare-formats rows, redrawn with the inputs', async () => {
  const { page, log } = await openLocalTab(browser, server.url, { preset: 'meta-llama--llama-3.1-70b' });
  await page.getByTestId('local-gpu').fill('rtx-4090');
  const config = presetConfigFile('meta-llama--llama-3.1-70b');
  await page.getByTestId('local-compare-formats').click();
  const table = page.getByTestId('local-formats');
  const expected = cli('local', config, [...localPageDefaults('rtx-4090'), '--compare-formats']).formats;
  const shown = async () =>
    (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim()));
  const rowsOf = (formats) =>
    formats.map((row) => [
      row.weights,
      `${(row.model_buffer_bytes / 2 ** 30).toFixed(2)} GiB`,
      `${row.n_gpu_layers}/${row.n_layers}`,
      { gpus: 'wholly on the GPU', gpus_and_ram: 'split with RAM', cpu: 'on the CPU', does_not_fit: 'does not fit' }[
        row.runs_on
      ],
      row.fits ? `${row.generation_tokens_per_second.toFixed(1)} t/s` : '–',
      row.fits ? `${grouped(row.prompt_tokens_per_second)} t/s` : '–',
    ]);
  await table.waitFor();
  assert.deepEqual(await shown(), rowsOf(expected));
  // Llama 3.1 70B in f16 is 131 GiB: beyond a 4090 and 64 GiB of RAM.
  assert.equal(expected[0].runs_on, 'does_not_fit');
  // More RAM: the table follows the inputs.
  await page.getByTestId('local-ramGib').fill('192');
  const more = cli('local', config, [
    ...localPageDefaults('rtx-4090').map((arg) => (arg === '64' ? '192' : arg)),
    '--compare-formats',
  ]).formats;
  assert.equal(more[0].runs_on, 'gpus_and_ram');
  await table.locator('tbody tr').first().filter({ hasText: 'split with RAM' }).waitFor();
  assert.deepEqual(await shown(), rowsOf(more));
  // A type's name chooses it: the Weights field, the report and the table's marked row follow.
  await page.getByTestId('local-use-q2_k').click();
  assert.equal(await page.getByTestId('local-weights').inputValue(), 'q2_k');
  await page
    .getByTestId('local-command')
    .filter({ hasText: `-ngl ${more[7].n_gpu_layers} ` })
    .waitFor();
  assert.equal(await table.locator('tbody tr[aria-current="true"] th').textContent(), 'q2_k');
  await page.getByTestId('local-use-q4_k_m').waitFor();
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
