// SPDX-License-Identifier: MIT
// The planner runner of the page build: a module Web Worker (Vite bundles plan-worker.ts and the
// core it imports as files beside the page). If the worker cannot start or load, the calls in
// flight and all later ones run on the main thread instead.
import type { PlanReport, TrainingPlanReport } from '../core/types';
import { workerCalls } from '../core/worker-calls';
import type { PlanCall } from './plan-worker';
import { createMainRunner, type PlanRunner } from './runner';

const fallbackNote =
  'The planner runs on this page rather than in a Web Worker, which this browser or page could not start; the page may pause while each GPU kind is searched.';

export function createPlanRunner(): PlanRunner {
  const main = createMainRunner(fallbackNote);
  const runner: PlanRunner = { ...main, where: 'worker', note: undefined };
  const calls = workerCalls<PlanCall, PlanReport & TrainingPlanReport>(
    () => new Worker(new URL('./plan-worker.ts', import.meta.url), { type: 'module', name: 'fitcheck-planner' }),
    (call) =>
      (call.kind === 'training'
        ? main.runTraining(call.configText, call.options)
        : main.run(call.configText, call.options)) as Promise<PlanReport & TrainingPlanReport>,
    () => {
      runner.where = 'main';
      runner.note = fallbackNote;
    },
  );
  if (!calls) return main;
  runner.run = (configText, options) => calls.call({ configText, options });
  runner.runTraining = (configText, options) => calls.call({ kind: 'training', configText, options });
  runner.dispose = () => calls.dispose();
  return runner;
}
