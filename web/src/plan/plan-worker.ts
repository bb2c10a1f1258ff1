// SPDX-License-Identifier: MIT
// The planner's Web Worker: a second instance of the WebAssembly core answers planReport (and,
// for kind 'training', trainingPlanReport) calls off the main thread, one message per call.
import { loadCore } from '../core/load';
import type { CoreError, PlanOptions, TrainingPlanOptions } from '../core/types';

export type PlanRequest =
  | { id: number; kind?: 'inference'; configText: string; options: PlanOptions }
  | { id: number; kind: 'training'; configText: string; options: TrainingPlanOptions };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PlanRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  const request = event.data;
  const id = request.id;
  try {
    const core = await loadCore();
    const report =
      request.kind === 'training'
        ? core.trainingPlanReport(request.configText, request.options)
        : core.planReport(request.configText, request.options);
    scope.postMessage({ id, report });
  } catch (error) {
    const failure = error as CoreError;
    scope.postMessage({ id, error: { message: failure?.message ?? String(error), field: failure?.field } });
  }
};
