// SPDX-License-Identifier: MIT
// The Local tab's machine as a newcomer gives it: GPUs picked by name, one at a time (a 4090 next to
// two 3090s), among those `fitcheck local` accepts; the CPU and the weights from the catalogs'
// suggestions; the placement is the CLI's for the ids the picks wrote.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, openLocalTab, repo } from '../support/browser.mjs';
import { cli, cliError, localPageDefaults, presetConfigFile } from './cli.mjs';

let server;
let browser;
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/local/machine/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const catalog = (command) =>
  JSON.parse(execFileSync(path.join(repo, 'build/fitcheck'), [command, '--json'], { encoding: 'utf8' }));

test('GPUs are added by name; the CPU and weights suggest the catalogs; the placement is the CLI one', async () => {
  const gpus = catalog('gpus');
  const cpus = catalog('cpus');
  const rtx3090 = gpus.find((gpu) => gpu.name === 'NVIDIA GeForce RTX 3090 24GB');
  assert.ok(rtx3090, 'the catalog names an RTX 3090');
  const { page, log } = await openLocalTab(browser, server.url);
  const picker = page.getByTestId('local-add-gpu');
  // The picker offers by name exactly the catalog's GPUs that `fitcheck local` accepts (no TPU or Gaudi).
  const config = presetConfigFile('meta-llama--llama-3.1-8b');
  const accepted = gpus.filter((gpu) => {
    try {
      return !cliError('local', config, ['--gpu', gpu.id, '--ram-gib', '64', '--context', '512']).startsWith(
        "option 'gpu': llama.cpp has no backend",
      );
    } catch {
      return true; // the CLI accepted it
    }
  });
  assert.ok(accepted.length < gpus.length, 'some catalog entries are refused (TPUs, Gaudi)');
  const offered = await picker.locator('option').allTextContents();
  assert.deepEqual(
    offered.filter((name) => name !== 'Add a GPU…'),
    accepted.map((gpu) => gpu.name),
  );
  await picker.selectOption({ label: rtx3090.name });
  await picker.selectOption({ label: rtx3090.name });
  assert.equal(await page.getByTestId('local-gpu').inputValue(), `rtx-4090,${rtx3090.id},${rtx3090.id}`);
  assert.equal(await picker.inputValue(), '');
  // The same placement as `fitcheck local` for those ids.
  const expected = cli('local', config, localPageDefaults(`rtx-4090,${rtx3090.id},${rtx3090.id}`));
  const rows = page.getByTestId('local-devices').locator('tbody tr th');
  await rows.filter({ hasText: 'CUDA2' }).waitFor();
  assert.deepEqual(
    await rows.allTextContents(),
    expected.devices.map((device) => device.name),
  );
  // The flags after the model file (the page and the CLI name the file differently).
  const flags = (command) => command.replace(/^llama-server -m \S+ /, '');
  assert.equal(flags(await page.getByTestId('local-command').textContent()), flags(expected.llama_cpp_command));
  // The CPU field suggests the CPU catalog: ids with names and memory.
  const cpuOptions = page.getByTestId('local-cpu-suggestions').locator('option');
  assert.deepEqual(
    await cpuOptions.evaluateAll((options) => options.map((option) => option.value)),
    cpus.map((cpu) => cpu.id),
  );
  // The weights field suggests the GGUF types.
  const weights = await page
    .getByTestId('local-weights-suggestions')
    .locator('option')
    .evaluateAll((options) => options.map((option) => option.value));
  for (const id of ['q4_k_m', 'q8_0', 'iq4_xs', 'fp16']) assert.ok(weights.includes(id), id);
  assertLocalOnly(log, new URL(server.url).origin);
  await page.close();
});
