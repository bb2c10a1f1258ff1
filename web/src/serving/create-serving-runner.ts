// SPDX-License-Identifier: MIT
// The serving simulation's runner in the page build: a module Web Worker (Vite bundles
// serving-worker.ts and the core it imports as files beside the page). If the worker cannot start
// or load, the calls in flight and all later ones run on the main thread instead.
import type { ServingOptions, ServingReport } from '../core/types';
import { workerCalls } from '../core/worker-calls';
import { createMainServingRunner, type ServingRunner } from './serving-runner';

export function createServingRunner(): ServingRunner {
  const main = createMainServingRunner();
  const calls = workerCalls<{ configText: string; options: ServingOptions }, ServingReport>(
    () => new Worker(new URL('./serving-worker.ts', import.meta.url), { type: 'module', name: 'fitcheck-serving' }),
    ({ configText, options }) => main.run(configText, options),
  );
  if (!calls) return main;
  return { run: (configText, options) => calls.call({ configText, options }), dispose: () => calls.dispose() };
}
