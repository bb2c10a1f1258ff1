// SPDX-License-Identifier: MIT
// The planner runner of the page build: a module Web Worker (Vite bundles plan-worker.ts and the
// core it imports as files beside the page). If the worker cannot start or load, the calls in
// flight and all later ones run on the main thread instead.
import type { PlanReport, TrainingPlanReport } from '../core/types';
import type { PlanRequest } from './plan-worker';
import { createMainRunner, type PlanRunner } from './runner';

interface Waiting {
  request: PlanRequest;
  resolve: (report: PlanReport & TrainingPlanReport) => void;
  reject: (error: Error) => void;
}

const fallbackNote =
  'The planner runs on this page rather than in a Web Worker, which this browser or page could not start; the page may pause while each GPU kind is searched.';

export function createPlanRunner(): PlanRunner {
  if (typeof Worker === 'undefined') return createMainRunner(fallbackNote);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./plan-worker.ts', import.meta.url), { type: 'module', name: 'fitcheck-planner' });
  } catch {
    return createMainRunner(fallbackNote);
  }
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let fallback: PlanRunner | undefined;
  const runner: PlanRunner = {
    where: 'worker',
    run(configText, options) {
      if (fallback) return fallback.run(configText, options);
      return new Promise<PlanReport>((resolve, reject) => {
        const request = { id: nextId++, configText, options };
        waiting.set(request.id, { request, resolve, reject });
        worker.postMessage(request);
      });
    },
    runTraining(configText, options) {
      if (fallback) return fallback.runTraining(configText, options);
      return new Promise<TrainingPlanReport>((resolve, reject) => {
        const request = { id: nextId++, kind: 'training' as const, configText, options };
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
    event: MessageEvent<{
      id: number;
      report?: PlanReport & TrainingPlanReport;
      error?: { message: string; field?: string };
    }>,
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
    fallback = createMainRunner(fallbackNote);
    runner.where = 'main';
    runner.note = fallbackNote;
    for (const { request, resolve, reject } of waiting.values()) {
      const again =
        request.kind === 'training'
          ? fallback.runTraining(request.configText, request.options)
          : fallback.run(request.configText, request.options);
      (again as Promise<PlanReport & TrainingPlanReport>).then(resolve, reject);
    }
    waiting.clear();
  };
  return runner;
}
