// SPDX-License-Identifier: MIT
// Latency, throughput and cost: the table, the operations per phase and the roofline, from the
// real core's report.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, test } from 'vitest';
import { LatencyResults } from '../src/inference/latency-results';
import { LogChart } from '../src/ui/log-chart';
import { Roofline } from '../src/inference/roofline';
import { WorkloadForm } from '../src/inference/workload-form';
import { latencyTable, opsTable } from '../src/inference/latency-tables';
import { toJson } from '../src/export/serialize';
import { defaultWorkload, inferenceOptions } from '../src/inference/inference-inputs';
import { core, fixtureConfig } from './support/core';

afterEach(cleanup);

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const h100 = core.acceleratorCatalog().find((gpu) => gpu.id === 'h100-sxm-80gb')!;
const report = core.inferenceReport(llama, { gpu: 'h100-sxm-80gb', batch: 8, prompt_len: 1024, gen_len: 256 });
const latency = report.latency!;

describe('latency table', () => {
  test('exports each figure in its base unit, with the core summary line as formula', () => {
    const table = latencyTable(report, latency, 'GiB', h100);
    const json = JSON.parse(toJson([table])).tables[0].rows as Array<{
      figure: string;
      value: number;
      unit: string;
      formula?: string;
    }>;
    const row = (key: string) => json[table.rows.findIndex((r) => r.key === key)];
    expect(row('time_to_first_token')).toMatchObject({
      value: latency.time_to_first_token_seconds,
      unit: 's',
      formula: latency.summary[0],
    });
    expect(row('decode_step_last')).toMatchObject({ value: latency.decode_step_last_seconds, unit: 's' });
    expect(row('batch_tokens_per_second')).toMatchObject({ value: latency.batch_tokens_per_second, unit: 'tokens/s' });
    expect(row('cost_per_million_input_tokens')).toMatchObject({
      value: latency.cost_per_million_input_tokens_usd,
      unit: 'USD',
    });
    expect(row('price_per_hour')).toMatchObject({ value: 2.69, unit: 'USD/h' });
    // 989.4 TFLOP/s dense bf16 (H100 SXM datasheet) x 0.7 = 692.58 TFLOP/s.
    expect(row('compute_ceiling').value).toBeCloseTo(692.58e12, -9);
    expect(table.rows.find((r) => r.key === 'compute_ceiling')!.cells.map((c) => c.text)).toEqual([
      'Matrix products in bf16',
      '692.6',
      'TFLOP/s',
    ]);
  });
  test('shows a time in ms below one second and in s above', () => {
    const table = latencyTable(report, latency, 'GiB', h100);
    const cells = (key: string) => table.rows.find((r) => r.key === key)!.cells.map((c) => c.text);
    expect(cells('decode_step_first')[2]).toBe('ms');
    expect(cells('end_to_end')[2]).toBe('s');
  });
  test('the operations of a phase are the core lines of that phase, with their formulas', () => {
    const table = opsTable(latency, 'decode_first', 'GiB');
    const lines = latency.lines.filter((line) => line.phase === 'decode_first');
    expect(table.rows.filter((r) => !r.footer).map((r) => r.key)).toEqual(lines.map((l) => l.op));
    expect(table.rows[0].formula).toBe(lines[0].formula);
    expect(table.rows.at(-1)!.cells[4].value).toBe(latency.phases.decode_first.seconds);
  });
});

describe('latency view', () => {
  test('table, phase switch and roofline', () => {
    render(<LatencyResults report={report} latency={latency} unit="GiB" gpu={h100} />);
    expect(screen.getByTestId('latency-bottleneck-unit').textContent).toBe(`${latency.dominant_bound}-bound`);
    expect(screen.getByTestId('latency-time_to_first_token-unit').textContent).toBe('ms');
    const ops = () =>
      within(screen.getByTestId('ops-table'))
        .getAllByRole('row')
        .map((r) => r.getAttribute('data-row'))
        .filter(Boolean);
    expect(ops()).toContain('lm_head');
    fireEvent.click(screen.getByTestId('ops-decode_last'));
    const last = latency.lines.filter((l) => l.phase === 'decode_last');
    expect(screen.getByTestId('op-attention-time').textContent).toMatch(/µs|ms/);
    expect(ops()).toEqual([...last.map((l) => l.op), 'total']);
  });
  test('the roofline places every op with FLOPs and bytes, under both roofs', () => {
    const { container } = render(<Roofline latency={latency} gpu={h100} />);
    const plotted = latency.lines.filter(
      (l) => (l.phase === 'prefill' || l.phase === 'decode_first') && l.flops > 0 && l.bytes > 0,
    ).length;
    expect(container.querySelectorAll('.chart-box .mark-group > g').length).toBe(plotted);
    expect(container.querySelectorAll('.chart-line').length).toBe(2);
    expect(screen.getByText(/Datasheet roof: 989\.4 TFLOP\/s bf16, 3\.350 TB\/s/)).toBeTruthy();
    expect(screen.getByTestId('roofline-data').querySelectorAll('tbody tr').length).toBe(
      latency.lines.filter((l) => l.phase === 'prefill' || l.phase === 'decode_first').length,
    );
  });
  test('a log chart draws marks, lines and a legend entry for each', () => {
    const { container } = render(
      <LogChart
        id="c"
        title="T"
        xLabel="x"
        yLabel="y"
        groups={[
          {
            name: 'A',
            className: 'a',
            shape: 'square',
            points: [
              { x: 1, y: 10, title: 'one' },
              { x: 100, y: 1000, title: 'two', label: 'two' },
            ],
          },
        ]}
        lines={[
          {
            name: 'L',
            className: 'l',
            points: [
              { x: 1, y: 1 },
              { x: 100, y: 100 },
            ],
          },
        ]}
        formatX={String}
        formatY={String}
        description="d"
      />,
    );
    expect(container.querySelectorAll('.chart-box .mark-group rect').length).toBe(2);
    expect(container.querySelectorAll('.legend li').length).toBe(2);
    expect(screen.getByText('two', { selector: 'text' })).toBeTruthy();
  });
});

describe('workload form, latency inputs', () => {
  const gpus = core.acceleratorCatalog();
  test('prompt and output lengths, efficiencies with their defaults, the catalog price as placeholder', () => {
    render(
      <WorkloadForm
        workload={defaultWorkload}
        gpus={gpus}
        formats={core.formatCatalog()}
        resolvedContext={4096}
        onChange={() => {}}
      />,
    );
    expect((screen.getByLabelText('Prompt length') as HTMLInputElement).value).toBe('3840');
    expect((screen.getByLabelText('Output length') as HTMLInputElement).value).toBe('256');
    expect(screen.getByText(/empty: prompt \+ output \(4,096 tokens\)/)).toBeTruthy();
    expect((screen.getByLabelText('Compute efficiency') as HTMLInputElement).value).toBe('0.7');
    expect((screen.getByLabelText('Price per GPU-hour (USD)') as HTMLInputElement).placeholder).toBe('2.69');
    expect(screen.queryByTestId('fp8_activations')).toBeNull();
  });
  test('fp8 weights offer the fp8 activations switch; no GPU hides speed and cost', () => {
    const { rerender } = render(
      <WorkloadForm
        workload={{ ...defaultWorkload, weights: 'fp8' }}
        gpus={gpus}
        formats={core.formatCatalog()}
        onChange={() => {}}
      />,
    );
    expect((screen.getByTestId('fp8_activations') as HTMLInputElement).checked).toBe(true);
    rerender(
      <WorkloadForm
        workload={{ ...defaultWorkload, gpu: '' }}
        gpus={gpus}
        formats={core.formatCatalog()}
        onChange={() => {}}
      />,
    );
    expect(screen.queryByTestId('speed-fieldset')).toBeNull();
  });
  test('an error naming a latency option sits beside it', () => {
    let error;
    try {
      core.inferenceReport(llama, inferenceOptions({ ...defaultWorkload, gen_len: '0' }));
    } catch (caught) {
      error = caught as Error & { field?: string };
    }
    render(
      <WorkloadForm
        workload={{ ...defaultWorkload, gen_len: '0' }}
        gpus={gpus}
        formats={core.formatCatalog()}
        error={error}
        onChange={() => {}}
      />,
    );
    expect(screen.getByTestId('gen_len-error').textContent).toMatch(/gen_len/);
  });
});
