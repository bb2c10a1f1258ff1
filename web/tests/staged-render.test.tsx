// SPDX-License-Identifier: MIT
// The first view draws the parameter table before it runs the inference report, and the chunks of
// the tabs not shown load with their tab.
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import type { JSX } from 'preact';
import { afterEach, expect, test, vi } from 'vitest';
import { App } from '../src/app/calculator';
import { lazyComponent } from '../src/ui/lazy';
import { afterPaint } from '../src/ui/after-paint';
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

test('a part drawn after paint: new data one frame later, the latest handler at once, nothing redrawn for nothing', async () => {
  let draws = 0;
  const Part = afterPaint(({ value, onAsk }: { value: string; onAsk?: () => string }) => {
    draws += 1;
    return (
      <p data-testid="part">
        {value}
        {onAsk && (
          <button type="button" data-testid="ask" onClick={() => (document.title = onAsk())}>
            ask
          </button>
        )}
      </p>
    );
  });
  const { rerender } = render(<Part value="one" />);
  expect(screen.getByTestId('part').textContent).toBe('one');
  expect(draws).toBe(1);
  // The same data with a new parent render: not drawn again.
  rerender(<Part value="one" />);
  expect(draws).toBe(1);
  // New data: still the old text right after the render, the new one after the next task.
  rerender(<Part value="two" />);
  expect(screen.getByTestId('part').textContent).toBe('one');
  await waitFor(() => expect(screen.getByTestId('part').textContent).toBe('two'));
  // A handler that appears is drawn (its button); a new handler of the same key is called at once.
  rerender(<Part value="two" onAsk={() => 'first'} />);
  await waitFor(() => expect(screen.queryByTestId('ask')).not.toBeNull());
  const drawn = draws;
  rerender(<Part value="two" onAsk={() => 'second'} />);
  screen.getByTestId('ask').click();
  expect(document.title).toBe('second');
  expect(draws).toBe(drawn);
});
