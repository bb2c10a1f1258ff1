// SPDX-License-Identifier: MIT
// Calls answered by a module Web Worker, one message each, matched to their replies by id. Where
// the worker cannot start, or fails, the fallback answers every call: those in flight, then all
// later ones (the planner's and the serving simulation's runners). `answerCalls` is the worker's
// side: a reply is { id, report } or { id, error: { message, field } }.
import type { CoreError } from './types';

export interface WorkerCalls<Message, Reply> {
  call(message: Message): Promise<Reply>;
  dispose(): void;
}

interface Waiting<Message, Reply> {
  message: Message;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/**
 * `start` constructs the worker (`new Worker(new URL(...), ...)` written where it is called, so that
 * Vite bundles the script); `onFallback` is told once when the fallback takes over. Undefined when
 * no worker can start here.
 */
export function workerCalls<Message extends object, Reply>(
  start: () => Worker,
  fallback: (message: Message) => Promise<Reply>,
  onFallback: () => void = () => undefined,
): WorkerCalls<Message, Reply> | undefined {
  if (typeof Worker === 'undefined') return undefined;
  let worker: Worker;
  try {
    worker = start();
  } catch {
    return undefined;
  }
  const waiting = new Map<number, Waiting<Message, Reply>>();
  let nextId = 1;
  let failed = false;
  worker.onmessage = (
    event: MessageEvent<{ id: number; report?: Reply; error?: { message: string; field?: string } }>,
  ) => {
    const entry = waiting.get(event.data.id);
    if (!entry) return;
    waiting.delete(event.data.id);
    if (event.data.error)
      entry.reject(Object.assign(new Error(event.data.error.message), { field: event.data.error.field }));
    else entry.resolve(event.data.report as Reply);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    failed = true;
    onFallback();
    for (const { message, resolve, reject } of waiting.values()) fallback(message).then(resolve, reject);
    waiting.clear();
  };
  return {
    call(message) {
      if (failed) return fallback(message);
      return new Promise<Reply>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { message, resolve, reject });
        worker.postMessage({ ...message, id });
      });
    },
    dispose() {
      worker.terminate();
      waiting.clear();
    },
  };
}

/**
 * In a worker: answers each message with `handle`'s report, or with the error it throws (its message
 * and the option it names, for the page to show beside that field).
 */
export function answerCalls<Message>(handle: (message: Message) => Promise<unknown>): void {
  const scope = self as unknown as {
    onmessage: ((event: MessageEvent<Message & { id: number }>) => void) | null;
    postMessage: (message: unknown) => void;
  };
  scope.onmessage = async (event) => {
    const { id } = event.data;
    try {
      scope.postMessage({ id, report: await handle(event.data) });
    } catch (error) {
      const failure = error as CoreError;
      scope.postMessage({ id, error: { message: failure?.message ?? String(error), field: failure?.field } });
    }
  };
}
