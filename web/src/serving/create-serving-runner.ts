// SPDX-License-Identifier: MIT
// The serving simulation's runner in the page build: a module Web Worker (Vite bundles
// serving-worker.ts and the core it imports as files beside the page). If the worker cannot start
// or load, the calls in flight and all later ones run on the main thread instead.
import type { ServingOptions, ServingReport } from '../core/types';
import type { ServingRequest } from './serving-worker';
import { createMainServingRunner, type ServingRunner } from './serving-runner';

interface Waiting {
  request: ServingRequest;
  resolve: (report: ServingReport) => void;
  reject: (error: Error) => void;
}

export function createServingRunner(): ServingRunner {
  if (typeof Worker === 'undefined') return createMainServingRunner();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./serving-worker.ts', import.meta.url), { type: 'module', name: 'fitcheck-serving' });
  } catch {
    return createMainServingRunner();
  }
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let fallback: ServingRunner | undefined;
  const runner: ServingRunner = {
    where: 'worker',
    run(configText: string, options: ServingOptions) {
      if (fallback) return fallback.run(configText, options);
      return new Promise<ServingReport>((resolve, reject) => {
        const request = { id: nextId++, configText, options };
        waiting.set(request.id, { request, resolve, reject });
        worker.postMessage(request);
      });
    },
    dispose() {
      worker.terminate();
      waiting.clear();
    },
  };
  worker.onmessage = (
    event: MessageEvent<{ id: number; report?: ServingReport; error?: { message: string; field?: string } }>,
  ) => {
    const entry = waiting.get(event.data.id);
    if (!entry) return;
    waiting.delete(event.data.id);
    if (event.data.error)
      entry.reject(Object.assign(new Error(event.data.error.message), { field: event.data.error.field }));
    else entry.resolve(event.data.report!);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    fallback = createMainServingRunner();
    runner.where = 'main';
    for (const { request, resolve, reject } of waiting.values())
      fallback.run(request.configText, request.options).then(resolve, reject);
    waiting.clear();
  };
  return runner;
}
