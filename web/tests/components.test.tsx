// SPDX-License-Identifier: MIT
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { cleanup } from '@testing-library/preact';
import { TableView } from '../src/ui/table-view';
import { NumberField } from '../src/ui/field';
import { PresetPicker } from '../src/model/preset-picker';
import { Verdict } from '../src/inference/verdict';
import { StackedBar } from '../src/inference/stacked-bar';
import { TermsBar } from '../src/ui/stacked-bar';
import { LineChart } from '../src/ui/line-chart';
import { ExportPanel } from '../src/export/export-panel';
import { ComparePanel } from '../src/compare/compare-panel';
import { WorkloadForm } from '../src/inference/workload-form';
import { ModeTabs } from '../src/app/mode-tabs';
import { TrainingPanel } from '../src/training/training-panel';
import { memoryTable } from '../src/export/tables';
import { presets } from '../src/model/presets';
import { defaultWorkload } from '../src/inference/inference-inputs';
import type { CoreError } from '../src/core/types';
import { core, fixtureConfig } from './support/core';

afterEach(cleanup);

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const fits = core.inferenceReport(llama, { gpu: 'h100-sxm-80gb' });
const tooBig = core.inferenceReport(fixtureConfig('meta-llama--Llama-3.1-70B.json'), { gpu: 'rtx-4090' });
const coreError = (message: string, field?: string): CoreError => Object.assign(new Error(message), { field });

describe('TableView', () => {
  test('a formula opens below its row with the user numbers, and closes again', () => {
    render(<TableView table={memoryTable(fits, { unit: 'GiB' })} />);
    const button = screen.getByRole('button', { name: /Formula for KV cache/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(screen.getByTestId('gpu-memory-kv_cache-formula').textContent).toContain(
      '4096 B/token/layer x 4096 tokens x batch 1 x 32 layers',
    );
    fireEvent.click(button);
    expect(screen.queryByTestId('gpu-memory-kv_cache-formula')).toBeNull();
  });
  test('"Show formulas" opens all of them', () => {
    render(<TableView table={memoryTable(fits, { unit: 'GiB' })} />);
    fireEvent.click(screen.getByRole('button', { name: /^Show formulas/ }));
    expect(screen.getAllByRole('button', { expanded: true }).length).toBe(fits.terms.length + 3);
  });
});

describe('inputs', () => {
  test('a field shows the core error beside it and marks itself invalid', () => {
    render(
      <NumberField
        id="batch"
        label="Batch size"
        help="sequences"
        value="0"
        error={coreError("option 'batch' must be between 1 and 16777216, got 0", 'batch')}
        onValue={() => {}}
      />,
    );
    const input = screen.getByLabelText('Batch size');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('batch-error batch-help');
    expect(screen.getByRole('alert').textContent).toMatch(/must be between 1/);
  });
  test('the workload form routes an error to the input it names, others to the top', () => {
    const gpus = core.acceleratorCatalog();
    const { rerender } = render(
      <WorkloadForm
        workload={defaultWorkload}
        gpus={gpus}
        formats={core.formatCatalog()}
        error={coreError('bad', 'kv_dtype')}
        onChange={() => {}}
      />,
    );
    expect(screen.getByTestId('kv_dtype-error').textContent).toBe('bad');
    rerender(
      <WorkloadForm
        workload={defaultWorkload}
        gpus={gpus}
        formats={core.formatCatalog()}
        error={coreError('tensor parallel size 3 does not divide')}
        onChange={() => {}}
      />,
    );
    expect(screen.getByTestId('workload-error').textContent).toMatch(/tensor parallel/);
  });
  test("images per request show for a model whose tower the core counts; Qwen2-VL's image size too", () => {
    const olmocr = fixtureConfig('allenai--olmOCR-7B-0225-preview.json');
    const params = core.parameterReport(olmocr);
    // The core counts Qwen2-VL's tower: 8,291,375,616 in the checkpoint (its total_size / 2).
    expect(params.vision_tower_kind).toBe('qwen2_vl');
    expect(params.total_params_with_vision).toBe(8291375616);
    const form = (visionTower?: { kind: string; tokensPerImage?: number }, workload = defaultWorkload) => (
      <WorkloadForm
        workload={workload}
        gpus={core.acceleratorCatalog()}
        formats={core.formatCatalog()}
        visionTower={visionTower}
        onChange={() => {}}
      />
    );
    const { rerender } = render(form());
    expect(screen.queryByLabelText('Images per request')).toBeNull();
    rerender(form({ kind: 'qwen2_vl', tokensPerImage: params.image_tokens_per_image }));
    expect(screen.getByLabelText('Images per request')).toBeTruthy();
    expect(screen.getByLabelText('Image width (px)')).toBeTruthy();
    rerender(form({ kind: 'siglip', tokensPerImage: 256 }));
    expect(screen.getByText(/each adds 256 image tokens/)).toBeTruthy();
    expect(screen.queryByLabelText('Image width (px)')).toBeNull();
    // Images asked of a model without a tower: the field stays, so the core's refusal shows beside it.
    rerender(form(undefined, { ...defaultWorkload, images: '2' }));
    expect(screen.getByLabelText('Images per request')).toBeTruthy();
    // 2 images of 640 x 480 join the prompt: 2 x 391 tokens (smart_resize, params_test.cpp).
    const report = core.inferenceReport(olmocr, { images: 2, image_width: 640, image_height: 480, batch: 1 });
    expect(report.assumptions.some((line) => line.includes('2 image(s) per request x 391 tokens'))).toBe(true);
  });
  test('a negative term is drawn over the end of the bar, from the total on, not skipped', () => {
    const terms = [
      { key: 'w', label: 'weights', bytes: 60, className: 'term-weights' },
      { key: 'g', label: 'gradients', bytes: 30, className: 'term-gradients' },
      { key: 'a', label: 'activations', bytes: 20, className: 'term-activations' },
      { key: 'o', label: 'gradients allocated as activations are freed', bytes: -20, className: 'term-gradients' },
    ];
    const { container } = render(<TermsBar terms={terms} total={90} unit="GB" testId="bar" />);
    // Positive terms: 110 bytes over a 600-unit bar; the released 20 start at the total (90).
    const released = screen.getByTestId('bar-released');
    expect(Number(released.getAttribute('x'))).toBeCloseTo((90 / 110) * 600, 6);
    expect(Number(released.getAttribute('width'))).toBeCloseTo((20 / 110) * 600, 6);
    expect(released.textContent).toContain('gradients allocated as activations are freed');
    expect(container.querySelectorAll('rect.term').length).toBe(4);
  });
  test('GPUs are grouped by vendor, H100 SXM chosen by default; typing reports the new value', () => {
    const onChange = vi.fn();
    render(
      <WorkloadForm
        workload={defaultWorkload}
        gpus={core.acceleratorCatalog()}
        formats={core.formatCatalog()}
        onChange={onChange}
      />,
    );
    const select = screen.getByLabelText('GPU') as HTMLSelectElement;
    expect(select.value).toBe('h100-sxm-80gb');
    expect([...select.querySelectorAll('optgroup')].map((g) => g.label)).toEqual([
      'NVIDIA',
      'AMD',
      'Intel',
      'Apple',
      'Google',
      'User-defined',
    ]);
    fireEvent.input(screen.getByLabelText('Batch size'), { target: { value: '12' } });
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ batch: '12' }));
    expect(screen.queryByLabelText('Weight bits')).toBeNull();
  });
  test('the preset search filters the list and Enter picks the first match', () => {
    const onPreset = vi.fn();
    render(<PresetPicker presets={presets} presetId="meta-llama--llama-3.1-8b" onPreset={onPreset} />);
    fireEvent.input(screen.getByLabelText('Search models'), { target: { value: 'mixtral' } });
    const options = within(screen.getByLabelText('Model'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options.some((o) => /Mixtral-8x7B/.test(o!))).toBe(true);
    expect(options.some((o) => /Qwen/.test(o!))).toBe(false);
    fireEvent.keyDown(screen.getByLabelText('Search models'), { key: 'Enter' });
    expect(onPreset).toHaveBeenCalledWith(expect.stringMatching(/mixtral/));
  });
  test('the preset search names the model Enter picks, and picks none when nothing matches', () => {
    const onPreset = vi.fn();
    render(<PresetPicker presets={presets} presetId="meta-llama--llama-3.1-8b" onPreset={onPreset} />);
    const search = screen.getByLabelText('Search models');
    fireEvent.input(search, { target: { value: 'gemma 3 27b' } });
    expect(screen.getByText(/models? match; Enter picks gemma-3-27b-it$/)).toBeTruthy();
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onPreset).toHaveBeenLastCalledWith('google--gemma-3-27b-it');
    fireEvent.input(search, { target: { value: 'gemma 4 27b' } });
    expect(screen.getByText('No bundled model matches "gemma 4 27b": paste its config.json below')).toBeTruthy();
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onPreset).toHaveBeenCalledTimes(1);
  });
  test('mode tabs follow the arrow keys', () => {
    const onMode = vi.fn();
    render(<ModeTabs mode="inference" onMode={onMode} />);
    expect(screen.getByRole('tab', { name: 'Inference' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Inference' }), { key: 'ArrowRight' });
    expect(onMode).toHaveBeenCalledWith('training');
  });
});

describe('results', () => {
  test('the verdict says fits / does not fit and by how much, in the chosen unit', () => {
    render(<Verdict report={fits} unit="GiB" />);
    expect(screen.getByTestId('verdict').textContent).toBe(
      'Fits on 1 × NVIDIA H100 SXM5 80GB: 16.85 GiB per GPU of a 71.68 GiB budget, 54.83 GiB to spare.',
    );
    cleanup();
    render(<Verdict report={tooBig} unit="GB" />);
    expect(screen.getByTestId('verdict').textContent).toMatch(
      /^Does not fit on 1 × NVIDIA GeForce RTX 4090 24GB: .* GB short\.$/,
    );
  });
  test('the stacked bar has one segment per non-zero term and states the fit for screen readers', () => {
    const { container } = render(<StackedBar report={fits} unit="GiB" />);
    expect(container.querySelectorAll('rect.term').length).toBe(fits.terms.filter((t) => t.bytes > 0).length);
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
      /16\.85 GiB per GPU against a budget of 71\.68 GiB .*: fits/,
    );
  });
  test('a line chart draws each point and lists them in its data table', () => {
    const points = [
      { x: 1, y: 10 },
      { x: 2, y: 12 },
      { x: 4, y: 16 },
    ];
    const { container } = render(
      <LineChart
        id="c"
        title="T"
        xLabel="batch"
        yLabel="GiB"
        series={[{ name: 'Total', className: 's', points }]}
        limit={{ y: 20, label: 'budget' }}
        formatX={String}
        formatY={(y) => `${y} GiB`}
      />,
    );
    expect(container.querySelectorAll('circle').length).toBe(3);
    expect(container.querySelector('.limit-line')).not.toBeNull();
    expect(screen.getByTestId('c-data').textContent).toContain('16 GiB');
  });
  test('the export panel switches format', () => {
    render(<ExportPanel tables={() => [memoryTable(fits, { unit: 'GiB' })]} extra={{}} />);
    // The text is written only once the panel is opened.
    expect(screen.queryByTestId('export-text')).toBeNull();
    const details = screen.getByTestId('export') as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const text = () => (screen.getByTestId('export-text') as HTMLTextAreaElement).value;
    expect(text()).toMatch(/^### Memory per GPU/);
    fireEvent.click(screen.getByTestId('export-csv'));
    expect(text()).toContain('Total per GPU,"18,091,078,656",16.85 GiB,100.0 %');
    fireEvent.click(screen.getByTestId('export-json'));
    expect(JSON.parse(text()).tables[0].rows[0]).toMatchObject({ term: 'Weights', bytes: 16060522496 });
  });
  test('compare shows pinned and current side by side with the change', () => {
    const params = core.parameterReport(llama);
    const bigger = core.inferenceReport(llama, { gpu: 'h100-sxm-80gb', batch: 4 });
    render(
      <ComparePanel
        pinned={{ label: 'A', params, inference: fits }}
        current={{ label: 'B', params, inference: bigger }}
        unit="GiB"
        onUnpin={() => {}}
      />,
    );
    expect(screen.getByTestId('pinned-total').textContent).toBe('16.85 GiB');
    const row = screen.getByTestId('current-kv_cache').closest('tr')!;
    expect(row.textContent).toMatch(/\+1\.50 GiB$/);
  });
  test('the training panel shows verdict, terms with formulas, total and the largest micro-batch', () => {
    const report = core.trainingReport(llama, { gpu: 'h100-sxm-80gb', gpus: 8, zero: 3 });
    render(<TrainingPanel report={report} unit="GiB" />);
    expect(screen.getByTestId('train-verdict').textContent).toMatch(
      /^Fits on 8 × NVIDIA H100 SXM5 80GB \(tp 1, pp 1, dp 8\): .* GiB to spare\.$/,
    );
    expect(screen.getByTestId('train-total-bytes').textContent).toBe(
      report.total_bytes_per_gpu.toLocaleString('en-US'),
    );
    expect(screen.getByTestId('train-capacity-max_micro_batch_size').textContent).toBe(
      String(report.max_micro_batch_size),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Formula for Optimizer states' }));
    expect(screen.getByTestId('layer-activations-table').querySelectorAll('tbody tr[data-row]').length).toBe(
      report.layer_activation_terms.length,
    );
    expect(screen.getAllByText(report.terms.find((t) => t.name === 'optimizer states')!.formula).length).toBe(1);
  });
});
