// SPDX-License-Identifier: MIT
// The whole calculator with the real core, from the user's side.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, test } from 'vitest';
import { App } from '../src/components/App';

afterEach(cleanup);

async function open(props = {}) {
  render(<App persist={false} {...props} />);
  await waitFor(() => expect(screen.getByTestId('total-params').textContent).toBe('8,030,261,248'), { timeout: 5000 });
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
    fireEvent.input(screen.getByLabelText('Layers'), { target: { value: '16' } });
    await waitFor(() => expect(screen.getByTestId('numbers-config').textContent).toContain('"num_hidden_layers": 16'));
    expect(screen.getByTestId('total-params').textContent).not.toBe('8,030,261,248');
  });
  test('the training tab says what is coming and keeps the parameter count', async () => {
    await open({ initialMode: 'training' });
    expect(screen.getByTestId('training-coming')).toBeTruthy();
    expect(screen.queryByTestId('verdict')).toBeNull();
  });
});
