// SPDX-License-Identifier: MIT
// The user-defined GPU (gpu=custom) on the page: the options handed to the core, the link, the
// form in the three tabs, refusals beside the field named; and a config.json opened or dropped.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { App } from '../src/app/calculator';
import { ConfigInput } from '../src/model/config-input';
import { maxConfigBytes, oversizedPaste } from '../src/model/config-file';
import { choosingGpu, defaultCustomGpu, optionsForKind } from '../src/gpu/custom-gpu';
import { defaultInputs } from '../src/app/inputs';
import { defaultWorkload, inferenceOptions } from '../src/inference/inference-inputs';
import { defaultPlanInputs, planOptions } from '../src/plan/plan-inputs';
import { defaultTraining, trainingOptions } from '../src/training/training-inputs';
import { decodeInputs, encodeInputs } from '../src/url/url-state';
import { core } from './support/core';

afterEach(cleanup);

const h100With96 = { ...defaultWorkload, gpu: 'custom', custom_gpu_base: 'h100-sxm-80gb', custom_gpu_memory_gib: '96' };

describe('options for the core', () => {
  test('custom keys go only with the custom GPU, empty ones never', () => {
    expect(inferenceOptions(h100With96)).toMatchObject({
      gpu: 'custom',
      custom_gpu_base: 'h100-sxm-80gb',
      custom_gpu_memory_gib: '96',
    });
    expect('custom_gpu_name' in inferenceOptions(h100With96)).toBe(false);
    expect('custom_gpu_memory_gib' in inferenceOptions({ ...h100With96, gpu: 'h200' })).toBe(false);
    // A sweep without a GPU drops them too (the core refuses custom keys without gpu=custom).
    expect('custom_gpu_base' in inferenceOptions(h100With96, { gpu: '' })).toBe(false);
    expect(
      trainingOptions({ ...defaultTraining, gpu: 'custom', custom_gpu_base: 'a100', custom_gpu_price_per_hour: '1.5' }),
    ).toMatchObject({
      gpu: 'custom',
      custom_gpu_base: 'a100',
      custom_gpu_price_per_hour: '1.5',
    });
    const plan = planOptions({
      ...defaultPlanInputs,
      gpus: 'l4,custom',
      custom_gpu_base: 'h100',
      custom_gpu_memory_gib: '96',
    });
    expect(plan).toMatchObject({ gpus: 'l4,custom', custom_gpu_memory_gib: '96' });
    expect(optionsForKind(plan, 'l4')).toEqual({
      ...plan,
      gpus: 'l4',
      custom_gpu_base: undefined,
      custom_gpu_memory_gib: undefined,
    });
    expect('custom_gpu_base' in optionsForKind(plan, 'l4')).toBe(false);
    expect(optionsForKind(plan, 'custom')).toMatchObject({ gpus: 'custom', custom_gpu_memory_gib: '96' });
    expect('custom_gpu_memory_gib' in planOptions({ ...defaultPlanInputs, custom_gpu_memory_gib: '96' })).toBe(false);
  });
  test('choosing Custom… bases it on the GPU chosen before, once', () => {
    const chosen = choosingGpu({ ...defaultWorkload, gpu: 'custom' }, 'h200', 'custom');
    expect(chosen.custom_gpu_base).toBe('h200');
    expect(choosingGpu({ ...chosen, gpu: 'custom' }, 'l4', 'custom').custom_gpu_base).toBe('h200');
    expect(choosingGpu({ ...defaultWorkload, gpu: 'custom' }, '', 'custom').custom_gpu_base).toBe('');
    expect(choosingGpu({ ...defaultWorkload, gpu: 'l4' }, 'h200', 'l4').custom_gpu_base).toBe('');
  });
  test('the core reads the options the page builds: 96 GiB on an H100 base', () => {
    const config = JSON.stringify({
      model_type: 'llama',
      hidden_size: 64,
      intermediate_size: 128,
      num_hidden_layers: 2,
      num_attention_heads: 4,
      num_key_value_heads: 2,
      vocab_size: 1000,
    });
    const report = core.inferenceReport(config, inferenceOptions(h100With96));
    // 96 GiB = 96 x 1,073,741,824 B = 103,079,215,104 B.
    expect(report.gpu!.memory_bytes).toBe(103_079_215_104);
    expect(report.gpu!.id).toBe('custom');
  });
});

describe('the link', () => {
  test('each tab keeps its custom GPU; empty fields stay out', async () => {
    const inputs = defaultInputs('meta-llama--llama-3.1-8b');
    inputs.workload = h100With96;
    inputs.training = { ...defaultTraining, gpu: 'custom', custom_gpu_base: 'l4', custom_gpu_name: 'Mine' };
    inputs.plan = {
      ...defaultPlanInputs,
      gpus: 'custom',
      custom_gpu_memory_gib: '40',
      custom_gpu_bandwidth_gb_per_s: '900',
      custom_gpu_bf16_tflops: '200',
    };
    const hash = await encodeInputs(inputs);
    expect(hash).toContain('custom_gpu_memory_gib=96');
    expect(hash).toContain('t.custom_gpu_name=Mine');
    expect(hash).toContain('p.custom_gpu_bf16_tflops=200');
    expect(hash).not.toContain('custom_gpu_fp8_tflops');
    const { inputs: back } = await decodeInputs(hash, 'meta-llama--llama-3.1-8b');
    expect(back.workload).toEqual(inputs.workload);
    expect(back.training).toEqual(inputs.training);
    expect(back.plan).toEqual(inputs.plan);
    expect((await decodeInputs('model=preset', 'x')).inputs.workload).toMatchObject(defaultCustomGpu);
  });
});

async function openApp() {
  render(<App persist={false} />);
  await waitFor(() => expect(screen.getByTestId('total-params').textContent).toBe('8,030,261,248'), { timeout: 5000 });
}

describe('the form', () => {
  test('Custom… opens the form prefilled from the GPU before; the verdict follows; a refusal shows at its field', async () => {
    await openApp();
    fireEvent.change(screen.getByTestId('gpu'), { target: { value: 'custom' } });
    // The form is a chunk of its own, fetched when Custom… is first picked.
    expect(await screen.findByTestId('custom-gpu')).toBeTruthy();
    expect((screen.getByTestId('custom_gpu_base') as HTMLSelectElement).value).toBe('h100-sxm-80gb');
    // The H100's 81559 MiB = 79.6474609375 GiB, shown to six digits as the placeholder.
    expect((screen.getByTestId('custom_gpu_memory_gib') as HTMLInputElement).placeholder).toBe('79.6475');
    await waitFor(() =>
      expect(screen.getByTestId('verdict').textContent).toMatch(/^Fits on 1 × NVIDIA H100 SXM5 80GB \(custom\)/),
    );
    // Llama-3.1-8B's bf16 weights alone are 16,060,522,496 B (2 x 8,030,261,248) = 14.96 GiB: not in 0.9 x 16 GiB.
    fireEvent.input(screen.getByTestId('custom_gpu_memory_gib'), { target: { value: '16' } });
    await waitFor(() => expect(screen.getByTestId('verdict').textContent).toMatch(/^Does not fit/));
    fireEvent.input(screen.getByTestId('custom_gpu_bandwidth_gb_per_s'), { target: { value: '-5' } });
    await waitFor(() =>
      expect(screen.getByTestId('custom_gpu_bandwidth_gb_per_s-error').textContent).toMatch(
        /'custom_gpu_bandwidth_gb_per_s' must be between 1/,
      ),
    );
    expect(screen.queryByTestId('workload-error')).toBeNull();
  });
  test('the Training and Plan tabs offer it too', async () => {
    await openApp();
    fireEvent.click(screen.getByRole('tab', { name: /Training/ }));
    fireEvent.change(await screen.findByTestId('train-gpu'), { target: { value: 'custom' } });
    expect(((await screen.findByTestId('train-custom_gpu_base')) as HTMLSelectElement).value).toBe('h100-sxm-80gb');
    fireEvent.input(screen.getByTestId('train-custom_gpu_name'), { target: { value: 'x'.repeat(65) } });
    await waitFor(() =>
      expect(screen.getByTestId('train-custom_gpu_name-error').textContent).toMatch(/custom_gpu_name/),
    );
    fireEvent.click(screen.getByRole('tab', { name: /Plan/ }));
    fireEvent.click(await screen.findByTestId('plan-gpus-custom'));
    expect(await screen.findByTestId('plan-custom-gpu')).toBeTruthy();
    expect((screen.getByTestId('plan-custom_gpu_base') as HTMLSelectElement).value).toBe('h100-sxm-80gb');
  });
});

describe('a config.json file', () => {
  const renderInput = (onText = vi.fn()) => {
    render(
      <ConfigInput
        presets={[]}
        modelKind="pasted"
        presetId=""
        configText=""
        numbers={defaultInputs('').numbers}
        onPreset={vi.fn()}
        onText={onText}
        onKind={vi.fn()}
        onNumbers={vi.fn()}
      />,
    );
    return onText;
  };
  const drop = (file: File) => fireEvent.drop(screen.getByTestId('config-drop'), { dataTransfer: { files: [file] } });
  test('dropped: loaded as if pasted', async () => {
    const onText = renderInput();
    drop(new File(['{"model_type":"llama"}'], 'config.json', { type: 'application/json' }));
    await waitFor(() => expect(onText).toHaveBeenCalledWith('{"model_type":"llama"}'));
    expect(screen.queryByTestId('config-file-error')).toBeNull();
  });
  test('opened with the button: the hidden input', async () => {
    const onText = renderInput();
    const input = screen.getByTestId('config-file') as HTMLInputElement;
    expect(input.hidden).toBe(true);
    fireEvent.change(input, { target: { files: [new File(['{"a":1}'], 'c.json')] } });
    await waitFor(() => expect(onText).toHaveBeenCalledWith('{"a":1}'));
  });
  test('not JSON, or too large: an inline error and nothing loaded', async () => {
    const onText = renderInput();
    drop(new File(['model_type: llama'], 'config.yaml'));
    await waitFor(() =>
      expect(screen.getByTestId('config-file-error').textContent).toMatch(/^config\.yaml is not JSON/),
    );
    drop(new File(['x'.repeat(maxConfigBytes + 1)], 'big.json'));
    await waitFor(() =>
      expect(screen.getByTestId('config-file-error').textContent).toMatch(
        /^big\.json is 8,388,609 bytes, more than the 8 MiB fitcheck reads/,
      ),
    );
    expect(onText).not.toHaveBeenCalled();
  });
  // One input limit, the core's 8 MiB (#19 D11): a paste above it is refused at once, unparsed.
  test('a paste over the input limit: refused inline, nothing handed on', () => {
    const onText = renderInput();
    const textarea = screen.getByTestId('config') as HTMLTextAreaElement;
    const started = performance.now();
    fireEvent.input(textarea, { target: { value: 'x'.repeat(50 * 1024 * 1024) } });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(screen.getByTestId('config-file-error').textContent).toMatch(
      /^The pasted text is at least 52,428,800 bytes, more than the 8 MiB fitcheck reads/,
    );
    expect(onText).not.toHaveBeenCalled();
    fireEvent.input(textarea, { target: { value: '{"model_type":"llama"}' } });
    expect(onText).toHaveBeenCalledWith('{"model_type":"llama"}');
    expect(screen.queryByTestId('config-file-error')).toBeNull();
  });
  test('the paste limit counts UTF-8 bytes', () => {
    expect(maxConfigBytes).toBe(8388608);
    expect(oversizedPaste('x'.repeat(8388608))).toBeUndefined();
    expect(oversizedPaste('x'.repeat(8388609))).toMatch(/8,388,609 bytes/);
    expect(oversizedPaste('é'.repeat(4194304))).toBeUndefined(); // 8,388,608 bytes
    expect(oversizedPaste('é'.repeat(4194305))).toMatch(/is 8,388,610 bytes/);
    expect(oversizedPaste('\u{1F600}'.repeat(2097153))).toMatch(/is 8,388,612 bytes/);
  });
});
