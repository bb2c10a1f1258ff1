// SPDX-License-Identifier: MIT
// The first view draws the parameter table before it runs the inference report, and the chunks of
// the tabs not shown load with their tab.
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import type { JSX } from 'preact';
import { afterEach, expect, test, vi } from 'vitest';
import { App } from '../src/app/calculator';
import { lazyComponent } from '../src/ui/lazy';
import { loadInferenceCore } from '../src/core/load';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

test('the parameter table comes first; the verdict and memory terms follow', async () => {
  const core = await loadInferenceCore();
  const inferenceReport = vi.spyOn(core, 'inferenceReport');
  // What the page held when the parameter count first appeared (observers run right after the
  // render that added it, before the next task).
  let atFirstTable: { verdict: boolean; inferenceCalls: number } | undefined;
  const observer = new MutationObserver(() => {
    if (!atFirstTable && document.querySelector('[data-testid="total-params"]')) {
      atFirstTable = {
        verdict: Boolean(document.querySelector('[data-testid="verdict"]')),
        inferenceCalls: inferenceReport.mock.calls.length,
      };
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  render(<App persist={false} />);
  await screen.findByTestId('verdict', {}, { timeout: 5000 });
  observer.disconnect();
  expect(atFirstTable).toEqual({ verdict: false, inferenceCalls: 0 });
  expect(screen.getByTestId('total-params').textContent).toBe('8,030,261,248');
  expect(inferenceReport).toHaveBeenCalled();
  await screen.findByTestId('latency-time_to_first_token', {}, { timeout: 5000 });
});

test('a lazy component shows its placeholder, then itself; a chunk that fails says so', async () => {
  let resolve!: (component: (props: { name: string }) => JSX.Element) => void;
  const Greeting = lazyComponent(
    () => new Promise((done) => (resolve = done)),
    () => <p data-testid="waiting">…</p>,
  );
  render(<Greeting name="table" />);
  expect(screen.getByTestId('waiting')).toBeTruthy();
  resolve(({ name }) => <p data-testid="greeting">{`hello ${name}`}</p>);
  await waitFor(() => expect(screen.getByTestId('greeting').textContent).toBe('hello table'));
  expect(screen.queryByTestId('waiting')).toBeNull();

  const Broken = lazyComponent<object>(() => Promise.reject(new Error('chunk missing')));
  render(<Broken />);
  await waitFor(() =>
    expect(screen.getByRole('alert').textContent).toBe('This part of the page failed to load: chunk missing'),
  );
});
