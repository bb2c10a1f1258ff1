// SPDX-License-Identifier: MIT
// Typing stays fast when the core's full report (with capacity searches) is slow.
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, expect, test } from 'vitest';
import type { FitcheckModule, InferenceOptions, InferenceReport } from '../src/core/types';
import { useInference } from '../src/inference/use-inference';
import { defaultWorkload, type Workload } from '../src/inference/inference-inputs';

afterEach(cleanup);

// A stand-in core: with a GPU it takes 60 ms (busy wait), without one it answers at once.
function fakeCore(calls: InferenceOptions[]): FitcheckModule {
  return {
    inferenceReport(_text: string, options: InferenceOptions) {
      calls.push(options);
      if (options.gpu) {
        const end = performance.now() + 60;
        while (performance.now() < end);
      }
      return {
        total_bytes_per_gpu: Number(options.batch),
        gpu: options.gpu ? { id: options.gpu } : undefined,
        fits: options.gpu ? true : undefined,
      } as unknown as InferenceReport;
    },
  } as FitcheckModule;
}

function Probe({ core, workload }: { core: FitcheckModule; workload: Workload }) {
  const state = useInference(core, '{}', workload, true);
  return (
    <p data-testid="probe">{`${state.report?.total_bytes_per_gpu} ${state.report?.gpu ? 'full' : 'quick'} ${state.pending ? 'pending' : 'settled'}`}</p>
  );
}

test('after one slow full call, keystrokes get the quick report and the full one follows', async () => {
  const calls: InferenceOptions[] = [];
  const core = fakeCore(calls);
  const { rerender } = render(<Probe core={core} workload={{ ...defaultWorkload, batch: '1' }} />);
  expect(screen.getByTestId('probe').textContent).toBe('1 full settled');
  rerender(<Probe core={core} workload={{ ...defaultWorkload, batch: '2' }} />);
  expect(screen.getByTestId('probe').textContent).toBe('2 quick pending');
  expect(calls.at(-1)?.gpu).toBeUndefined();
  await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('2 full settled'));
  expect(calls.at(-1)?.gpu).toBe('h100-sxm-80gb');
});
