// SPDX-License-Identifier: MIT
// The whole calculator with the real core, from the user's side.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, test } from 'vitest';
import { App } from '../src/app/calculator';
import { defaultPresetId, presetConfigText, presets } from '../src/model/presets';
import { defaultWorkload, inferenceOptions } from '../src/inference/inference-inputs';
import { defaultPlanInputs, planOptions } from '../src/plan/plan-inputs';
import { defaultTraining, trainingOptions } from '../src/training/training-inputs';
import { core } from './support/core';

const llamaText = presetConfigText(presets.find((p) => p.id === defaultPresetId)!);
const scale: Record<string, number> = { s: 1, ms: 1e-3, µs: 1e-6, 'tokens/s': 1, USD: 1 };
/** A figure as shown (number and unit cells) back in its base unit. */
function shownValue(key: string): number {
  const number = Number(screen.getByTestId(`latency-${key}`).textContent!.replace(/,/g, ''));
  return number * scale[screen.getByTestId(`latency-${key}-unit`).textContent!];
}

afterEach(cleanup);

// The tab's last figure to appear: the parameter table comes first, the rest a frame later (the
// latency tables and the Training tab from their own chunks).
const lastFigure: Record<string, string | undefined> = {
  inference: 'latency-time_to_first_token',
  training: 'train-total-bytes',
};

async function open(props: { initialMode?: 'inference' | 'training' | 'plan' } = {}) {
  render(<App persist={false} {...props} />);
  await waitFor(() => expect(screen.getByTestId('total-params').textContent).toBe('8,030,261,248'), { timeout: 5000 });
  const last = lastFigure[props.initialMode ?? 'inference'];
  if (last) await screen.findByTestId(last, {}, { timeout: 5000 });
}

describe('calculator', () => {
  test('opens on Llama-3.1-8B on one H100 with the fit verdict and capacity answers', async () => {
    await open();
    expect(screen.getByTestId('verdict').textContent).toMatch(/^Fits on 1 × NVIDIA H100 SXM5 80GB/);
    expect(screen.getByTestId('term-kv_cache').textContent).toBe('0.50 GiB');
    expect(screen.getByTestId('capacity-max_batch_size').textContent).toBe('62');
  });
  test('a knob recomputes, and a refused value is reported beside its input', async () => {
    await open();
    fireEvent.input(screen.getByLabelText('Batch size'), { target: { value: '4' } });
    // 131,072 B/token x 4096 tokens x 4 sequences = 2 GiB.
    expect(screen.getByTestId('term-kv_cache').textContent).toBe('2.00 GiB');
    fireEvent.input(screen.getByLabelText('Batch size'), { target: { value: '0' } });
    expect(screen.getByTestId('batch-error').textContent).toMatch(/'batch' must be between 1/);
    expect(screen.getByTestId('total-params').textContent).toBe('8,030,261,248');
  });
  test('units switch between GiB and GB everywhere', async () => {
    await open();
    fireEvent.click(screen.getByTestId('unit-GB'));
    expect(screen.getByTestId('total-per-gpu').textContent).toBe('18.09 GB');
  });
  test('from numbers builds the config for the core', async () => {
    await open();
    fireEvent.click(screen.getByTestId('kind-numbers'));
    fireEvent.input(await screen.findByLabelText('Layers'), { target: { value: '16' } });
    await waitFor(() => expect(screen.getByTestId('numbers-config').textContent).toContain('"num_hidden_layers": 16'));
    expect(screen.getByTestId('total-params').textContent).not.toBe('8,030,261,248');
  });
  test('latency, throughput and cost show the core figures, to the 4 digits shown', async () => {
    await open();
    const latency = core.inferenceReport(llamaText, inferenceOptions(defaultWorkload)).latency!;
    for (const [key, value] of [
      ['time_to_first_token', latency.time_to_first_token_seconds],
      ['decode_step_first', latency.decode_step_first_seconds],
      ['end_to_end', latency.end_to_end_seconds],
      ['batch_tokens_per_second', latency.batch_tokens_per_second],
      ['cost_per_million_output_tokens', latency.cost_per_million_output_tokens_usd],
    ] as const) {
      expect(Math.abs(shownValue(key) - value) / value).toBeLessThan(5e-4);
    }
    fireEvent.click(screen.getByRole('button', { name: 'Formula for Time to first token' }));
    const detail = screen.getByTestId('latency-time_to_first_token-formula');
    expect(detail.querySelector('code')?.textContent).toBe(latency.summary[0]);
    // The estimate's error against published runs, beside the figure and in its details.
    expect(detail.textContent).toContain('Expected error: Against');
    expect(screen.getByTestId('time_to_first_token-expected-error').textContent).toMatch(/^±\d+% typical$/);
  });
  test('the training tab shows the core training memory and keeps the parameter count', async () => {
    await open({ initialMode: 'training' });
    const report = core.trainingReport(llamaText, trainingOptions(defaultTraining));
    expect(screen.getByTestId('train-total-bytes').textContent).toBe(
      report.total_bytes_per_gpu.toLocaleString('en-US'),
    );
    expect(screen.getByTestId('train-verdict').textContent).toMatch(/^Does not fit on 1 × NVIDIA H100 SXM5 80GB/);
    expect(screen.queryByTestId('verdict')).toBeNull();
    fireEvent.change(screen.getByLabelText('ZeRO stage or FSDP mode'), { target: { value: 'fsdp:full_shard' } });
    fireEvent.input(screen.getByLabelText('GPUs'), { target: { value: '8' } });
    const sharded = core.trainingReport(llamaText, {
      ...trainingOptions(defaultTraining),
      gpus: 8,
      fsdp: 'full_shard',
    });
    expect(screen.getByTestId('train-total-bytes').textContent).toBe(
      sharded.total_bytes_per_gpu.toLocaleString('en-US'),
    );
    expect(screen.getByTestId('train-verdict').textContent).toMatch(/^Fits on 8 × /);
  });
  test('the plan tab searches per GPU kind (here on the page: jsdom has no worker) and loads a row into Inference', async () => {
    await open({ initialMode: 'plan' });
    const whole = core.planReport(llamaText, planOptions(defaultPlanInputs));
    await waitFor(
      () =>
        expect(screen.getByTestId('plan-summary').textContent).toMatch(
          new RegExp(`^${whole.evaluated.toLocaleString('en-US')} layouts evaluated on 4 GPU kinds`),
        ),
      { timeout: 15000 },
    );
    await waitFor(() => expect(screen.queryByTestId('plan-progress')).toBeNull(), { timeout: 15000 });
    expect(screen.getByTestId('plan-runner').getAttribute('data-where')).toBe('main');
    const best = whole.best[0];
    expect(screen.getByTestId('plan-best-0-layout').textContent).toMatch(
      new RegExp(`^${best.gpus} × .*\\(tp ${best.tp}, pp ${best.pp}\\)`),
    );
    expect(screen.getByTestId('plan-best-0-batch').textContent).toBe(String(best.batch));
    fireEvent.click(screen.getByTestId('plan-best-load-0'));
    expect(screen.getByTestId('tab-inference').getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('GPU') as HTMLSelectElement).value).toBe(best.gpu);
    expect((screen.getByLabelText('Batch size') as HTMLInputElement).value).toBe(String(best.batch));
    await waitFor(
      () =>
        expect(
          Math.abs(shownValue('batch_tokens_per_second') - best.tokens_per_second) / best.tokens_per_second,
        ).toBeLessThan(5e-4),
      { timeout: 5000 },
    );
  }, 40000);
});
