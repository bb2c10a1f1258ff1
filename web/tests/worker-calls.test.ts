// SPDX-License-Identifier: MIT
import { afterEach, describe, expect, test, vi } from 'vitest';
import { answerCalls, workerCalls } from '../src/core/worker-calls';

/** A stand-in worker: records what is posted; the test answers or fails it. */
class FakeWorker {
  posted: Array<{ id: number; value: number }> = [];
  terminated = false;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: { preventDefault: () => void }) => void) | null = null;
  postMessage(message: { id: number; value: number }) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  reply(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('calls answered by a worker', () => {
  test('replies are matched to their calls by id, in any order; an error keeps the field it names', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const worker = new FakeWorker();
    const calls = workerCalls<{ value: number }, number>(
      () => worker as unknown as Worker,
      async () => -1,
      () => undefined,
    )!;
    const first = calls.call({ value: 1 });
    const second = calls.call({ value: 2 });
    const third = calls.call({ value: 3 });
    expect(worker.posted).toEqual([
      { value: 1, id: 1 },
      { value: 2, id: 2 },
      { value: 3, id: 3 },
    ]);
    worker.reply({ id: 2, report: 20 });
    worker.reply({ id: 1, report: 10 });
    worker.reply({ id: 3, error: { message: 'option requests must be at least 1', field: 'requests' } });
    expect(await first).toBe(10);
    expect(await second).toBe(20);
    await expect(third).rejects.toMatchObject({ message: 'option requests must be at least 1', field: 'requests' });
  });

  test('when the worker fails, the fallback answers the calls in flight and every later one', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const worker = new FakeWorker();
    const fellBack = vi.fn();
    const calls = workerCalls<{ value: number }, number>(
      () => worker as unknown as Worker,
      async ({ value }) => value * 100,
      fellBack,
    )!;
    const inFlight = calls.call({ value: 1 });
    worker.onerror?.({ preventDefault: () => undefined });
    expect(worker.terminated).toBe(true);
    expect(fellBack).toHaveBeenCalledTimes(1);
    expect(await inFlight).toBe(100);
    expect(await calls.call({ value: 2 })).toBe(200);
    expect(worker.posted).toHaveLength(1);
  });

  test('no worker where none can start', () => {
    vi.stubGlobal('Worker', undefined);
    expect(
      workerCalls(
        () => new Worker(''),
        async () => 0,
        () => undefined,
      ),
    ).toBeUndefined();
    vi.stubGlobal('Worker', FakeWorker);
    expect(
      workerCalls(
        () => {
          throw new Error('blocked by the page');
        },
        async () => 0,
        () => undefined,
      ),
    ).toBeUndefined();
  });
});

describe("the worker's side", () => {
  test('a report goes back under its id; a thrown error keeps its message and the option it names', async () => {
    const posted: unknown[] = [];
    const scope: { onmessage: ((event: MessageEvent) => Promise<void>) | null; postMessage: (m: unknown) => void } = {
      onmessage: null,
      postMessage: (message) => posted.push(message),
    };
    vi.stubGlobal('self', scope);
    answerCalls<{ value: number }>(async ({ value }) => {
      if (value < 0) throw Object.assign(new Error('option value must be at least 0'), { field: 'value' });
      return value * 2;
    });
    await scope.onmessage!({ data: { id: 7, value: 21 } } as MessageEvent);
    await scope.onmessage!({ data: { id: 8, value: -1 } } as MessageEvent);
    expect(posted).toEqual([
      { id: 7, report: 42 },
      { id: 8, error: { message: 'option value must be at least 0', field: 'value' } },
    ]);
  });
});
