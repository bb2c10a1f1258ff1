// SPDX-License-Identifier: MIT
// The planner's Web Worker: a second instance of the WebAssembly core answers planReport (and,
// for kind 'training', trainingPlanReport) calls off the main thread, one message per call.
import { loadCore } from '../core/load';
import type { PlanOptions, TrainingPlanOptions } from '../core/types';
import { answerCalls } from '../core/worker-calls';

export type PlanCall =
  | { kind?: 'inference'; configText: string; options: PlanOptions }
  | { kind: 'training'; configText: string; options: TrainingPlanOptions };

answerCalls<PlanCall>(async (call) => {
  const core = await loadCore();
  return call.kind === 'training'
    ? core.trainingPlanReport(call.configText, call.options)
    : core.planReport(call.configText, call.options);
});
