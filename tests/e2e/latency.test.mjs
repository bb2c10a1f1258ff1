// SPDX-License-Identifier: MIT
// Latency, throughput and cost in the built page, against the native CLI on the same config:
// `fitcheck infer CONFIG --gpu ... --json` gives every expected figure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.mjs';
import { assertLocalOnly, launchChromium, repo, screenshot, watchPage } from '../support/browser.mjs';
import { cli, cliError, close, number, presetConfigFile, seconds } from './cli.mjs';

let server;
let browser;
const config = presetConfigFile('meta-llama--llama-3.1-8b');
before(async () => {
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/speed/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin + '/';

async function openPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log = watchPage(page);
  await page.goto(server.url);
  await page.getByTestId('latency-time_to_first_token').waitFor();
  return { page, log };
}

const shown = async (page, key) => [
  await page.getByTestId(`latency-${key}`).textContent(),
  await page.getByTestId(`latency-${key}-unit`).textContent(),
];

/** Waits until the page shows this first decode step time (a new report under the same caption). */
async function waitForDecodeStep(page, stepSeconds) {
  const shows = async () => {
    const [text, unit] = await shown(page, 'decode_step_first');
    return Math.abs(seconds(text, unit) - stepSeconds) <= 1e-3 * stepSeconds;
  };
  for (let tries = 0; !(await shows()) && tries < 100; tries += 1) await page.waitForTimeout(100);
}

/** Waits for the latency table of this request, then checks its figures against the CLI's. */
async function expectLatency(page, expected, title) {
  await page.getByTestId('latency-table').locator('caption', { hasText: title }).waitFor();
  await page.getByTestId('latency-time_to_first_token').waitFor();
  const l = expected.latency;
  for (const [key, value] of [
    ['time_to_first_token', l.time_to_first_token_seconds],
    ['decode_step_first', l.decode_step_first_seconds],
    ['decode_step_last', l.decode_step_last_seconds],
    ['decode_total', l.decode_total_seconds],
    ['end_to_end', l.end_to_end_seconds],
  ]) {
    const [text, unit] = await shown(page, key);
    close(seconds(text, unit), value);
  }
  for (const [key, value, unit] of [
    ['request_tokens_per_second', l.request_tokens_per_second, 'tokens/s'],
    ['batch_tokens_per_second', l.batch_tokens_per_second, 'tokens/s'],
    ['prefill_tokens_per_second', l.prefill_tokens_per_second, 'tokens/s'],
    ['decode_tokens_per_second', l.decode_tokens_per_second, 'tokens/s'],
    ['price_per_hour', l.price_per_hour_usd, 'USD/h'],
    ['cost_per_million_input_tokens', l.cost_per_million_input_tokens_usd, 'USD'],
    ['cost_per_million_output_tokens', l.cost_per_million_output_tokens_usd, 'USD'],
  ]) {
    const [text, shownUnit] = await shown(page, key);
    assert.equal(shownUnit, unit, key);
    close(number(text), value);
  }
}

test('a fixed case: Llama-3.1-8B, batch 8, prompt 1024 + output 256 on one H100 SXM', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('batch').fill('8');
  await page.getByTestId('prompt_len').fill('1024');
  await page.getByTestId('gen_len').fill('256');
  const expected = cli('infer', config, [
    '--gpu',
    'h100-sxm-80gb',
    '--batch',
    8,
    '--prompt-len',
    1024,
    '--gen-len',
    256,
  ]);
  await expectLatency(page, expected, 'prompt 1,024 + output 256 tokens, batch 8');
  const l = expected.latency;
  // The context is prompt + output: 1280 tokens in the KV cache.
  assert.equal(expected.workload.context, 1280);
  assert.match(await page.locator('#context-help').textContent(), /1,280 tokens/);
  assert.equal(await page.getByTestId('latency-bottleneck-unit').textContent(), `${l.dominant_bound}-bound`);
  // Each figure opens to the core's summary line.
  await page.getByRole('button', { name: 'Formula for Time to first token' }).click();
  const detail = page.getByTestId('latency-time_to_first_token-formula');
  assert.equal(await detail.locator('code').textContent(), l.summary[0]);
  // Beside the figure and in its details: its error against the validation set's published runs.
  assert.match(await page.getByTestId('time_to_first_token-expected-error').textContent(), /^±\d+% typical$/);
  assert.match(await detail.textContent(), /Expected error: Against \d+ published measurements of time to first token/);
  // Operations of the first decode step: the CLI's lines, with their formulas.
  await page.getByTestId('ops-decode_first').check();
  const decode = l.lines.filter((line) => line.phase === 'decode_first');
  // The table is drawn after the frame that paints the choice (afterPaint): wait for the first
  // operation's decode time before reading them all.
  const first = decode[0];
  for (let tries = 0; tries < 100; tries += 1) {
    const shownSeconds = seconds(await page.getByTestId(`op-${first.op}-time`).textContent());
    if (Math.abs(shownSeconds - first.seconds) <= 5e-4 * first.seconds) break;
    await page.waitForTimeout(50);
  }
  for (const line of decode) close(seconds(await page.getByTestId(`op-${line.op}-time`).textContent()), line.seconds);
  await page.getByTestId('ops-table').locator('tr[data-row=mlp] button').click();
  assert.equal(
    await page.getByTestId('ops-decode-first-mlp-formula').textContent(),
    decode.find((line) => line.op === 'mlp').formula,
  );
  // The roofline: one mark per op with FLOPs and bytes, of prefill and the first decode step.
  const plotted = l.lines.filter(
    (line) => ['prefill', 'decode_first'].includes(line.phase) && line.flops > 0 && line.bytes > 0,
  ).length;
  assert.equal(await page.locator('[data-testid=roofline] .chart-box .mark-group > g').count(), plotted);
  // The JSON export holds the same figures in base units.
  await page.getByTestId('export').locator('summary').click();
  await page.getByTestId('export-json').check();
  const json = JSON.parse(await page.getByTestId('export-text').inputValue());
  const rows = json.tables.find((t) => t.id === 'latency').rows;
  const row = (figure) => rows.find((r) => r.figure === figure);
  close(row('Time to first token').value, l.time_to_first_token_seconds, 1e-9);
  assert.equal(row('Time to first token').unit, 's');
  close(row('Cost per million output tokens').value, l.cost_per_million_output_tokens_usd, 1e-9);
  assert.equal(
    json.tables.find((t) => t.id === 'ops-prefill').rows.length,
    l.lines.filter((line) => line.phase === 'prefill').length + 1,
  );
  await screenshot(page, 'latency-fixed-case');
  assertLocalOnly(log, origin());
  await page.close();
});

test('efficiencies, price, context and fp8 activations reach the core', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('flops_efficiency').fill('0.5');
  await page.getByTestId('hbm_efficiency').fill('0.6');
  await page.getByTestId('price_per_gpu_hour').fill('4');
  await page.getByTestId('context').fill('8192');
  // The page always sends its prompt and output lengths (3840 + 256 by default).
  const base = [
    '--gpu',
    'h100-sxm-80gb',
    '--flops-efficiency',
    0.5,
    '--hbm-efficiency',
    0.6,
    '--price-per-gpu-hour',
    4,
    '--context',
    8192,
    '--prompt-len',
    3840,
    '--gen-len',
    256,
  ];
  await page.getByTestId('latency-price_per_hour').filter({ hasText: /^4$/ }).waitFor();
  await expectLatency(page, cli('infer', config, base), 'prompt 3,840 + output 256 tokens, batch 1');
  // The KV cache holds the 8192-token context, not prompt + output.
  assert.equal(
    await page.getByTestId('total-per-gpu').textContent(),
    `${(cli('infer', config, base).total_bytes_per_gpu / 2 ** 30).toFixed(2)} GiB`,
  );
  await page.getByTestId('weights').selectOption('fp8');
  await page.getByTestId('fp8_activations').uncheck();
  const weightOnly = cli('infer', config, [...base, '--weights', 'fp8', '--fp8-activations', 'false']);
  assert.equal(weightOnly.latency.assumptions_used.matmul_dtype, 'bf16');
  await page
    .getByTestId('latency-table')
    .getByRole('rowheader', { name: 'Matrix products in bf16 (fp8 activations off)', exact: true })
    .waitFor();
  await expectLatency(page, weightOnly, 'prompt 3,840 + output 256 tokens');
  await page.getByTestId('fp8_activations').check();
  await page
    .getByTestId('latency-table')
    .getByRole('rowheader', { name: 'Matrix products in fp8', exact: true })
    .waitFor();
  await expectLatency(page, cli('infer', config, [...base, '--weights', 'fp8']), 'prompt 3,840 + output 256 tokens');
  assertLocalOnly(log, origin());
  await page.close();
});

test('expert dispatch: DeepEP at ep 16 over two nodes times as the CLI says, and the picker shows only with ep > tp', async () => {
  const { page, log } = await openPage();
  const moe = presetConfigFile('openai--gpt-oss-120b');
  const base = ['--gpu', 'h100-sxm-80gb', '--prompt-len', 3840, '--gen-len', 256, '--ep', 16];
  await page.getByTestId('preset').selectOption('openai--gpt-oss-120b');
  assert.equal(await page.getByTestId('moe_dispatcher').count(), 0);
  await page.getByTestId('ep').fill('16');
  const allToAll = cli('infer', moe, base);
  await waitForDecodeStep(page, allToAll.latency.decode_step_first_seconds);
  await expectLatency(page, allToAll, 'prompt 3,840 + output 256 tokens');
  await page.getByTestId('moe_dispatcher').selectOption('deepep');
  const deepep = cli('infer', moe, [...base, '--moe-dispatcher', 'deepep']);
  assert.equal(deepep.latency.assumptions_used.moe_dispatcher, 'deepep');
  assert.ok(deepep.latency.time_to_first_token_seconds < allToAll.latency.time_to_first_token_seconds);
  await waitForDecodeStep(page, deepep.latency.decode_step_first_seconds);
  await expectLatency(page, deepep, 'prompt 3,840 + output 256 tokens');
  await page.getByTestId('ep').fill('1');
  await page.getByTestId('moe_dispatcher').waitFor({ state: 'detached' });
  assertLocalOnly(log, origin());
  await page.close();
});

test('the serving engine picker: vLLM V0 pays its per-layer kernels in every step, as the CLI says', async () => {
  const { page, log } = await openPage();
  const base = ['--gpu', 'h100-sxm-80gb', '--prompt-len', 3840, '--gen-len', 256];
  await page.getByTestId('engine').selectOption('vllm');
  const v1 = cli('infer', config, [...base, '--engine', 'vllm']);
  await expectLatency(page, v1, 'prompt 3,840 + output 256 tokens, batch 1');
  await page.getByTestId('engine').selectOption('vllm-v0');
  const v0 = cli('infer', config, [...base, '--engine', 'vllm-v0']);
  assert.equal(v0.engine, 'vllm-v0');
  // Llama-3.1-8B's 32 layers: (0.86 + 32 x 0.072) - 1.4 ms more per decode step than V1.
  close(v0.latency.decode_step_first_seconds - v1.latency.decode_step_first_seconds, 1.764e-3, 1e-6);
  // The same caption as before: wait for the new step time, then check every figure.
  await waitForDecodeStep(page, v0.latency.decode_step_first_seconds);
  await expectLatency(page, v0, 'prompt 3,840 + output 256 tokens, batch 1');
  assert.match(await page.locator('body').textContent(), /vLLM V0 \(v0\.6\/v0\.7 defaults, the engine before V1\)/);
  assertLocalOnly(log, origin());
  await page.close();
});

test('HF generate: the static cache picker times a preallocated cache, as the CLI says', async () => {
  const { page, log } = await openPage();
  const base = ['--gpu', 'h100-sxm-80gb', '--prompt-len', 3840, '--gen-len', 256, '--engine', 'hf'];
  // The picker shows with the hf engine only.
  assert.equal(await page.getByTestId('hf_cache').count(), 0);
  await page.getByTestId('engine').selectOption('hf');
  const dynamic = cli('infer', config, base);
  assert.equal(dynamic.hf_cache, 'dynamic');
  await expectLatency(page, dynamic, 'prompt 3,840 + output 256 tokens, batch 1');
  await page.getByTestId('hf_cache').selectOption('static');
  const preallocated = cli('infer', config, [...base, '--hf-cache', 'static']);
  assert.equal(preallocated.hf_cache, 'static');
  // A static cache reads all 4,096 positions at every step: the first and last steps are equal.
  assert.equal(preallocated.latency.decode_step_first_seconds, preallocated.latency.decode_step_last_seconds);
  await waitForDecodeStep(page, preallocated.latency.decode_step_first_seconds);
  await expectLatency(page, preallocated, 'prompt 3,840 + output 256 tokens, batch 1');
  assert.match(await page.locator('body').textContent(), /cache_implementation="static": a StaticCache/);
  // Another engine hides the picker and leaves the option out (the core would refuse it).
  await page.getByTestId('engine').selectOption('vllm');
  assert.equal(await page.getByTestId('hf_cache').count(), 0);
  await expectLatency(
    page,
    cli('infer', config, [...base.slice(0, -2), '--engine', 'vllm']),
    'prompt 3,840 + output 256 tokens, batch 1',
  );
  assertLocalOnly(log, origin());
  await page.close();
});

test('a latency value the core refuses is shown beside its input, with the CLI message', async () => {
  const { page, log } = await openPage();
  await page.getByTestId('gen_len').fill('0');
  assert.equal(
    await page.getByTestId('gen_len-error').textContent(),
    cliError('infer', config, ['--gpu', 'h100-sxm-80gb', '--gen-len', 0]),
  );
  await page.getByTestId('gen_len').fill('256');
  await page.getByTestId('context').fill('1000');
  assert.equal(
    await page.getByTestId('context-error').textContent(),
    cliError('infer', config, ['--gpu', 'h100-sxm-80gb', '--context', 1000, '--prompt-len', 3840, '--gen-len', 256]),
  );
  await page.getByTestId('context').fill('');
  await page.getByTestId('flops_efficiency').fill('2');
  // The CLI writes the bounds as 0.01 and 1, the WebAssembly build as 0.010000 and 1.000000.
  assert.match(
    cliError('infer', config, ['--gpu', 'h100-sxm-80gb', '--flops-efficiency', 2]),
    /^option 'flops_efficiency' must be between 0\.01 and 1, got 2$/,
  );
  assert.match(
    await page.getByTestId('flops_efficiency-error').textContent(),
    /^option 'flops_efficiency' must be between 0\.01(0000)? and 1(\.000000)?, got 2$/,
  );
  await page.getByTestId('flops_efficiency').fill('0.7');
  await page.getByTestId('latency-time_to_first_token').waitFor();
  // Without a GPU there is no latency, and the page says what to do.
  await page.getByTestId('gpu').selectOption('');
  await page.getByTestId('latency-needs-gpu').waitFor();
  assert.equal(await page.getByTestId('speed-fieldset').count(), 0);
  await screenshot(page, 'latency-refused');
  assertLocalOnly(log, origin());
  await page.close();
});
