// SPDX-License-Identifier: MIT
// The planner: per-GPU-kind calls joined into the answer one call gives, the sweep's progress and
// cancellation, and the form, tables and results.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PlanForm } from '../src/plan/plan-form';
import { PlanResults } from '../src/plan/plan-results';
import type { CoreError, PlanOptions, PlanReport } from '../src/core/types';
import { planBestTable } from '../src/plan/plan-tables';
import { toJson } from '../src/export/serialize';
import { mergePlans } from '../src/plan/merge';
import { runPlan, type PlanProgress } from '../src/plan/run-plan';
import { createMainRunner, type PlanRunner } from '../src/plan/runner';
import { defaultPlanInputs, listOf, planOptions, toggled } from '../src/plan/plan-inputs';
import { core, fixtureConfig } from './support/core';

afterEach(cleanup);

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const mixtral = fixtureConfig('mistralai--Mixtral-8x7B-v0.1.json');
const kinds = ['h100-sxm-80gb', 'h200', 'a100-sxm-80gb', 'l40s', 'rtx-4090'];

describe('per-kind calls joined', () => {
  // #19 D06: a kind listed twice, or by two names of one catalog entry, is planned once.
  test('a kind listed twice or by an alias is planned once', () => {
    const options: PlanOptions = { weights: 'bf16', batches: '1,8' };
    const whole = core.planReport(llama, { ...options, gpus: 'h200,h100-sxm-80gb' });
    const listed = ['h200', 'H200', 'h100', 'h100-sxm-80gb', 'h200'];
    const joined = mergePlans(listed.map((gpu) => core.planReport(llama, { ...options, gpus: gpu })));
    expect(joined.request.gpus).toEqual(['h200', 'h100-sxm-80gb']);
    expect(joined.evaluated).toBe(whole.evaluated);
    expect(joined.best).toEqual(whole.best.map((c) => ({ ...c })));
    expect(core.planReport(llama, { ...options, gpus: listed.join(',') })).toEqual(whole);
  });
  for (const objective of ['highest_throughput', 'lowest_latency', 'lowest_cost', 'fewest_gpus'] as const) {
    test(`equal one call over every kind: ${objective}`, () => {
      for (const config of [llama, mixtral]) {
        const options: PlanOptions = { weights: 'bf16,fp8', kv_dtypes: 'bf16,fp8', batches: '1,4,16,64', objective };
        const whole = core.planReport(config, { ...options, gpus: kinds.join(',') });
        const joined = mergePlans(kinds.map((gpu) => core.planReport(config, { ...options, gpus: gpu })));
        expect(joined.evaluated).toBe(whole.evaluated);
        expect(joined.feasible).toBe(whole.feasible);
        expect(joined.request.gpus).toEqual(whole.request.gpus);
        // Ranks are equal where the objective's keys differ; ties may come in another order.
        expect(joined.best[0]).toEqual(whole.best[0]);
        expect(
          joined.best.map((c) => [
            c.tokens_per_second,
            c.end_to_end_seconds,
            c.cost_per_million_output_tokens_usd,
            c.gpus,
          ]),
        ).toEqual(
          whole.best.map((c) => [
            c.tokens_per_second,
            c.end_to_end_seconds,
            c.cost_per_million_output_tokens_usd,
            c.gpus,
          ]),
        );
        expect(joined.frontier).toEqual(whole.frontier);
      }
    });
  }
});

function fakeRunner(delayMs = 0): PlanRunner & { calls: PlanOptions[] } {
  const calls: PlanOptions[] = [];
  return {
    where: 'worker',
    calls,
    async run(configText, options) {
      calls.push(options);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return core.planReport(configText, options);
    },
    dispose() {},
  };
}

describe('the sweep', () => {
  test('one call per GPU kind, progress after each, then the joined answer', async () => {
    const runner = fakeRunner();
    const progress: PlanProgress[] = [];
    const outcome = await runPlan(
      runner,
      llama,
      defaultPlanInputs,
      (p) => progress.push(p),
      () => false,
    );
    expect(runner.calls.map((c) => c.gpus)).toEqual(listOf(defaultPlanInputs.gpus));
    expect(progress.map((p) => [p.done, p.total])).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(progress[1].report!.request.gpus).toEqual(['h100-sxm-80gb']);
    expect(outcome!.report!.best[0]).toEqual(core.planReport(llama, planOptions(defaultPlanInputs)).best[0]);
  });
  test('newer inputs cancel it between two kinds', async () => {
    const runner = fakeRunner(5);
    let stop = false;
    const outcome = await runPlan(
      runner,
      llama,
      defaultPlanInputs,
      (p) => (stop = p.done === 2),
      () => stop,
    );
    expect(outcome).toBeUndefined();
    expect(runner.calls.length).toBe(2);
  });
  test('a refused constraint stops at the first call with the core message', async () => {
    const runner = fakeRunner();
    const outcome = await runPlan(
      runner,
      llama,
      { ...defaultPlanInputs, batches: '1,x' },
      () => {},
      () => false,
    );
    expect(outcome!.error!.field).toBe('batches');
    expect(runner.calls.length).toBe(1);
    const empty = await runPlan(
      createMainRunner('main'),
      llama,
      { ...defaultPlanInputs, gpus: '' },
      () => {},
      () => false,
    );
    expect(empty!.error!.message).toMatch(/at least one GPU kind/);
  });
  test('lists keep the catalog order; GPU kinds and KV dtypes are always sent', () => {
    expect(toggled('h200,l40s', 'h100-sxm-80gb', true, ['h100-sxm-80gb', 'h200', 'l40s'])).toBe(
      'h100-sxm-80gb,h200,l40s',
    );
    expect(toggled('h200,l40s', 'h200', false, ['h200', 'l40s'])).toBe('l40s');
    const options = planOptions({ ...defaultPlanInputs, gpus: '', kv_dtypes: '', ttft: ' ' });
    expect(options).toMatchObject({ gpus: '', kv_dtypes: '' });
    expect('ttft' in options).toBe(false);
    expect('weights' in options).toBe(false);
  });
});

describe('planner view', () => {
  const report: PlanReport = core.planReport(llama, { gpus: 'h100-sxm-80gb,l40s', batches: '1,8,64' });
  test('the form routes errors by option and toggles list items', () => {
    const onChange = vi.fn();
    const error: CoreError = Object.assign(new Error('the planner needs at least one KV cache dtype'), {
      field: 'kv_dtype',
    });
    render(
      <PlanForm
        plan={defaultPlanInputs}
        gpus={core.acceleratorCatalog()}
        formats={core.formatCatalog()}
        error={error}
        usedWeights={['bf16']}
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('plan-kv_dtypes-error').textContent).toMatch(/KV cache dtype/);
    expect(screen.getByText("none ticked: the checkpoint's stored format (bf16)")).toBeTruthy();
    fireEvent.click(screen.getByTestId('plan-gpus-h200'));
    // The list follows the catalog's order.
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ gpus: 'a100-sxm-80gb,h100-sxm-80gb,l40s' }));
    fireEvent.click(screen.getByTestId('plan-weights-fp8'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ weights: 'fp8' }));
  });
  test('results: progress while searching, rows that load, frontier chart and export values', () => {
    const onLoad = vi.fn();
    const { rerender } = render(
      <PlanResults state={{ report, running: true, done: 1, total: 2, where: 'worker' }} unit="GiB" onLoad={onLoad} />,
    );
    expect(screen.getByTestId('plan-progress').textContent).toMatch(/Searching GPU kind 2 of 2/);
    rerender(
      <PlanResults state={{ report, running: false, done: 2, total: 2, where: 'worker' }} unit="GiB" onLoad={onLoad} />,
    );
    expect(screen.queryByTestId('plan-progress')).toBeNull();
    expect(screen.getByTestId('plan-runner').textContent).toMatch(/Web Worker/);
    fireEvent.click(screen.getByTestId('plan-best-0-batch'));
    expect(onLoad).toHaveBeenLastCalledWith(report.best[0]);
    fireEvent.click(screen.getByTestId('plan-frontier-load-0'));
    expect(onLoad).toHaveBeenLastCalledWith(report.frontier[0]);
    expect(
      screen.getByTestId('plan-frontier-chart').querySelectorAll('.series-frontier path').length,
    ).toBeGreaterThanOrEqual(report.frontier.length);
    const row = JSON.parse(toJson([planBestTable(report, 'GiB')])).tables[0].rows[0];
    expect(row).toMatchObject({
      rank: 1,
      batch: report.best[0].batch,
      tokens_per_second: report.best[0].tokens_per_second,
      end_to_end_seconds: report.best[0].end_to_end_seconds,
    });
  });
  test("a row's price is the whole replica's: tp x pp GPUs, not one GPU", () => {
    const report = core.planReport(fixtureConfig('meta-llama--Llama-3.1-8B.json'), {
      gpus: 'h100',
      max_gpus: 4,
      batches: '8',
      objective: 'fewest_gpus',
    });
    const wide = report.best.find((candidate) => candidate.gpus > 1);
    expect(wide).toBeDefined();
    const table = planBestTable({ ...report, best: [wide!] }, 'GiB');
    // The core prices the replica: its price is gpus x the catalog's per-GPU price.
    expect(wide!.price_per_hour_usd).toBeCloseTo(wide!.gpus * 2.69, 6);
    expect(table.rows[0].source).toContain(`${wide!.price_per_hour_usd} USD/h for ${wide!.gpus} GPUs`);
    expect(table.rows[0].source).not.toContain('USD/h per GPU');
  });
  test('a main-thread run says why', () => {
    render(
      <PlanResults
        state={{
          report,
          running: false,
          done: 1,
          total: 1,
          where: 'main',
          note: 'This one-file build runs the planner on the page itself.',
        }}
        unit="GB"
        onLoad={() => {}}
      />,
    );
    expect(screen.getByTestId('plan-runner').textContent).toBe(
      'This one-file build runs the planner on the page itself.',
    );
  });
});
