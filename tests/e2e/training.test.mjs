// SPDX-License-Identifier: MIT
// The Training tab of the built page against the native CLI on the same config:
// `fitcheck train CONFIG ... --json` gives every expected figure.
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
  server = await startStaticServer({ root: path.join(repo, 'web/dist'), prefix: '/train/sub/' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
const origin = () => new URL(server.url).origin;
const thousands = (value) => Math.round(value).toLocaleString('en-US');

async function openTraining(url = server.url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin() });
  const page = await context.newPage();
  const log = watchPage(page);
  await page.goto(url);
  await page.getByTestId('total-params').waitFor();
  if ((await page.getByTestId('tab-training').getAttribute('aria-selected')) !== 'true')
    await page.getByTestId('tab-training').click();
  await page.getByTestId('train-verdict').waitFor();
  return { page, log, context };
}

/**
 * The shown total equals the CLI's, byte for byte, and so do the verdict, the largest micro-batch and
 * the longest sequence.
 */
async function expectTraining(page, expected) {
  await page
    .getByTestId('train-total-bytes')
    .filter({ hasText: new RegExp(`^${thousands(expected.total_bytes_per_gpu)}$`) })
    .waitFor();
  assert.match(
    await page.getByTestId('train-verdict').textContent(),
    expected.fits ? /^Fits on / : /^Does not fit on /,
  );
  assert.equal(
    await page.getByTestId('train-capacity-max_micro_batch_size').textContent(),
    thousands(expected.max_micro_batch_size),
  );
  assert.equal(
    await page.getByTestId('train-capacity-max_sequence_tokens').textContent(),
    thousands(expected.max_sequence_tokens),
  );
  assert.equal(
    await page.getByTestId('train-headroom').textContent(),
    `${(Math.abs(expected.headroom_bytes) / 2 ** 30).toFixed(2)} GiB`,
  );
}

test('the default run and a sharded one show the CLI totals, verdicts and largest micro-batch', async () => {
  const { page, log, context } = await openTraining();
  await expectTraining(page, cli('train', config, ['--gpu', 'h100-sxm-80gb']));
  await page.getByTestId('train-gpus').fill('8');
  await page.getByTestId('train-sharding').selectOption('zero:3');
  await page.getByTestId('train-micro_batch').fill('2');
  await page.getByTestId('train-seq_len').fill('8192');
  await page.getByTestId('train-recompute').selectOption('selective');
  const sharded = cli('train', config, [
    '--gpu',
    'h100-sxm-80gb',
    '--gpus',
    8,
    '--zero',
    3,
    '--micro-batch',
    2,
    '--seq-len',
    8192,
    '--recompute',
    'selective',
  ]);
  await expectTraining(page, sharded);
  assert.match(await page.locator('#train-dp-help').textContent(), new RegExp(`= ${sharded.parallel.dp}$`));
  // Step time and cost, to the 4 digits shown.
  const step = await page.getByTestId('train-time-step').textContent();
  const unit = await page.getByTestId('train-time-step').locator('xpath=following-sibling::td[1]').textContent();
  close(seconds(step, unit), sharded.time.step_seconds);
  await page.getByTestId('train-train_tokens').fill('1e9');
  await page.getByTestId('train-flops_efficiency').fill('0.4');
  const shorter = cli('train', config, [
    '--gpu',
    'h100-sxm-80gb',
    '--gpus',
    8,
    '--zero',
    3,
    '--micro-batch',
    2,
    '--seq-len',
    8192,
    '--recompute',
    'selective',
    '--train-tokens',
    '1e9',
    '--flops-efficiency',
    0.4,
  ]);
  await page.getByTestId('training-time-table').locator('caption', { hasText: 'compute efficiency 0.4' }).waitFor();
  // MFU is shown as a percentage to 3 significant digits.
  close(number(await page.getByTestId('train-time-mfu').textContent()) / 100, shorter.time.mfu, 5e-3);
  close(number(await page.getByTestId('train-time-train_gpu_hours').textContent()), shorter.time.train_gpu_hours);
  close(number(await page.getByTestId('train-time-train_cost').textContent()), shorter.time.train_cost_usd);
  // Each term opens to the core's formula.
  await page.getByRole('button', { name: 'Formula for Optimizer states' }).click();
  assert.match(
    await page.getByTestId('training-memory-table').textContent(),
    new RegExp(sharded.terms.find((t) => t.name === 'optimizer states').formula.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  );
  await screenshot(page, 'training-zero3');
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test('FSDP hybrid sharding, LoRA and QLoRA reach the core', async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-gpus').fill('16');
  await page.getByTestId('train-sharding').selectOption('fsdp:hybrid_shard');
  await page.getByTestId('train-fsdp_shard_group').fill('4');
  await expectTraining(
    page,
    cli('train', config, ['--gpu', 'h100-sxm-80gb', '--gpus', 16, '--fsdp', 'hybrid_shard', '--fsdp-shard-group', 4]),
  );
  await page.getByTestId('train-sharding').selectOption('zero:0');
  await page.getByTestId('train-gpus').fill('1');
  await page.getByTestId('train-lora_rank').fill('16');
  await page.getByTestId('train-qlora').check();
  await page.getByTestId('train-lora_modules').getByLabel('o', { exact: true }).uncheck();
  await expectTraining(
    page,
    cli('train', config, [
      '--gpu',
      'h100-sxm-80gb',
      '--gpus',
      1,
      '--zero',
      0,
      '--lora-rank',
      16,
      '--qlora',
      '--lora-modules',
      'q,k,v,gate,up,down',
    ]),
  );
  await page.getByTestId('train-precision').selectOption('fp16-mixed');
  await page.getByTestId('train-optimizer').selectOption('adam8bit');
  await page.getByTestId('train-eager_attention').check();
  await expectTraining(
    page,
    cli('train', config, [
      '--gpu',
      'h100-sxm-80gb',
      '--lora-rank',
      16,
      '--qlora',
      '--lora-modules',
      'q,k,v,gate,up,down',
      '--precision',
      'fp16-mixed',
      '--optimizer',
      'adam8bit',
      '--eager-attention',
    ]),
  );
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test('a refused run is reported beside the input the core names, with the CLI message', async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-gpus').fill('8');
  await page.getByTestId('train-tp').fill('3');
  assert.equal(
    await page.getByTestId('train-gpus-error').textContent(),
    cliError('train', config, ['--gpus', 8, '--tp', 3]),
  );
  await page.getByTestId('training-blocked').waitFor();
  await page.getByTestId('train-tp').fill('1');
  await page.getByTestId('train-offload_params').check();
  assert.equal(
    await page.getByTestId('train-offload_params-error').textContent(),
    cliError('train', config, ['--gpus', 8, '--offload-params']),
  );
  await screenshot(page, 'training-refused');
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test('a copied link reopens the training run; export and compare work on training figures', async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-gpus').fill('8');
  await page.getByTestId('train-sharding').selectOption('fsdp:full_shard');
  const expected = cli('train', config, ['--gpu', 'h100-sxm-80gb', '--gpus', 8, '--fsdp', 'full_shard']);
  await expectTraining(page, expected);
  await page.getByTestId('unit-GB').check();
  await page.getByTestId('copy-link').click();
  await page.getByText('Copied').waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(new URL(link).hash, /mode=training/);
  const second = await openTraining(link);
  await second.page
    .getByTestId('train-total-bytes')
    .filter({ hasText: thousands(expected.total_bytes_per_gpu) })
    .waitFor();
  assert.equal(await second.page.getByTestId('train-sharding').inputValue(), 'fsdp:full_shard');
  assert.match(await second.page.getByTestId('train-verdict').textContent(), / GB /);
  // Export: the training tables, the total byte for byte.
  await page.getByTestId('export').locator('summary').click();
  await page.getByTestId('export-json').check();
  const json = JSON.parse(await page.getByTestId('export-text').inputValue());
  const memory = json.tables.find((t) => t.id === 'training-memory');
  assert.equal(memory.rows.find((r) => r.term === 'Total per GPU').bytes, expected.total_bytes_per_gpu);
  assert.equal(json.parallel.dp, 8);
  assert.ok(json.tables.some((t) => t.id === 'layer-activations'));
  // Compare: pin, change the optimizer, see the change.
  await page.getByTestId('pin').click();
  await page.getByTestId('train-optimizer').selectOption('adafactor');
  await page.getByTestId('current-precision').filter({ hasText: 'adafactor' }).waitFor();
  assert.equal(await page.getByTestId('pinned-precision').textContent(), 'bf16-mixed / adamw');
  assert.notEqual(
    await page.getByTestId('pinned-total').textContent(),
    await page.getByTestId('current-total').textContent(),
  );
  await screenshot(page, 'training-compare');
  assertLocalOnly(log, origin() + '/');
  assertLocalOnly(second.log, origin() + '/');
  await context.close();
  await second.context.close();
});

test('a QLoRA fine-tune is timed on 1e8 tokens by default, as the CLI does for adapters, not on a pre-training 1e12', async () => {
  const { page, log, context } = await openTraining();
  assert.equal(await page.getByTestId('train-train_tokens').getAttribute('placeholder'), '1e12');
  await page.getByTestId('train-lora_rank').fill('16');
  await page.getByTestId('train-qlora').check();
  const expected = cli('train', config, ['--gpu', 'h100-sxm-80gb', '--lora-rank', 16, '--qlora']);
  assert.equal(expected.time.train_tokens, 1e8);
  await expectTraining(page, expected);
  assert.equal(await page.getByTestId('train-train_tokens').getAttribute('placeholder'), '1e8');
  const days = number(await page.getByTestId('train-time-train_days').textContent());
  close(days, expected.time.train_days);
  assert.ok(days < 10, `${days} days for a QLoRA fine-tune`);
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test('DoRA: the checkbox beside the LoRA inputs runs --dora, and a framework without DoRA refuses it', async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-lora_rank').fill('16');
  await page.getByTestId('train-lora_modules').getByLabel('o', { exact: true }).uncheck();
  await page.getByTestId('train-dora').check();
  const modules = ['--lora-modules', 'q,k,v,gate,up,down'];
  const expected = cli('train', config, ['--gpu', 'h100-sxm-80gb', '--lora-rank', 16, ...modules, '--dora']);
  const lora = cli('train', config, ['--gpu', 'h100-sxm-80gb', '--lora-rank', 16, ...modules]);
  assert.ok(expected.total_bytes_per_gpu > lora.total_bytes_per_gpu);
  assert.ok(expected.trainable_params > lora.trainable_params);
  await expectTraining(page, expected);
  assert.equal(
    (await page.locator('tr[data-row="trainable"] td').first().textContent()).trim(),
    thousands(expected.trainable_params),
  );
  assert.match(await page.locator('tr[data-row="lora"]').textContent(), /LoRA with DoRA/);
  // DoRA's weight norms and magnitude products lengthen the step, and the memory-bound row says so.
  assert.ok(expected.time.step_seconds > lora.time.step_seconds);
  assert.match(await page.locator('tr[data-row="memory_bound"] th').textContent(), /DoRA's weight norms/);
  await page.getByTestId('train-framework').selectOption('litgpt');
  assert.equal(
    await page.getByTestId('train-dora-error').textContent(),
    cliError('train', config, ['--framework', 'litgpt', '--lora-rank', 16, ...modules, '--dora']),
  );
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test("LoRA's setup row names the model's own modules, not DeepSeek's MLA projections", async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-lora_rank').fill('16');
  await expectTraining(page, cli('train', config, ['--gpu', 'h100-sxm-80gb', '--lora-rank', 16]));
  assert.equal(
    (await page.locator('tr[data-row="lora"] td').first().textContent()).trim(),
    'rank 16 on q, k, v, o, gate, up, down',
  );
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test("Megatron's recompute modules: the checkboxes under its selective recomputation run --recompute-modules", async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-framework').selectOption('megatron');
  await page.getByTestId('train-recompute').selectOption('selective');
  const modules = page.getByTestId('train-recompute_modules');
  await modules.getByLabel('mlp', { exact: true }).check();
  const base = ['--gpu', 'h100-sxm-80gb', '--framework', 'megatron', '--recompute', 'selective'];
  const expected = cli('train', config, [...base, '--recompute-modules', 'core_attn,mlp']);
  assert.ok(expected.total_bytes_per_gpu < cli('train', config, base).total_bytes_per_gpu);
  await expectTraining(page, expected);
  assert.match(
    await page.getByTestId('layer-activations-table').locator('caption').textContent(),
    /recompute selective \(core_attn, mlp\)/,
  );
  // Llama has no routed experts: Megatron refuses moe_act, and so does the page, beside the checkboxes.
  await modules.getByLabel('moe_act', { exact: true }).check();
  assert.equal(
    await page.getByTestId('train-recompute_modules-error').textContent(),
    cliError('train', config, [...base, '--recompute-modules', 'core_attn,moe_act,mlp']),
  );
  assertLocalOnly(log, origin() + '/');
  await context.close();
});

test("the checkbox that splits full recompute's checkpoints over tp runs DeepSpeed's --partition-activations", async () => {
  const { page, log, context } = await openTraining();
  await page.getByTestId('train-framework').selectOption('deepspeed');
  await page.getByTestId('train-recompute').selectOption('full');
  await page.getByTestId('train-tp').fill('4');
  await page.getByTestId('train-gpus').fill('4');
  await page.getByTestId('train-partition_checkpoints').check();
  const base = ['--gpu', 'h100-sxm-80gb', '--framework', 'deepspeed', '--recompute', 'full', '--tp', 4, '--gpus', 4];
  const expected = cli('train', config, [...base, '--partition-activations']);
  assert.ok(expected.total_bytes_per_gpu < cli('train', config, base).total_bytes_per_gpu);
  await expectTraining(page, expected);
  assertLocalOnly(log, origin() + '/');
  await context.close();
});
