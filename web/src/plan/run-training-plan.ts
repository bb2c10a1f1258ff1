// SPDX-License-Identifier: MIT
// One training planner sweep, split into one trainingPlanReport call per GPU kind so that progress
// shows after each; the answers are joined by training-merge.ts.
import type { CoreError, TrainingPlanReport } from '../core/types';
import { optionsForKind } from '../state/custom-gpu';
import { listOf } from '../state/plan-inputs';
import { trainingPlanOptions, type TrainingPlanInputs } from '../state/training-plan-inputs';
import { toCoreError, type PlanRunner } from './runner';
import { mergeTrainingPlans } from './training-merge';

export interface TrainingPlanProgress {
  done: number;
  total: number;
  /** The answer over the GPU kinds searched so far. */
  report?: TrainingPlanReport;
}

export type TrainingPlanOutcome = { report: TrainingPlanReport; error?: undefined } | { report?: undefined; error: CoreError };

/** Resolves to undefined when `cancelled()` turned true (newer inputs) before the end. */
export async function runTrainingPlan(
  runner: PlanRunner,
  configText: string,
  inputs: TrainingPlanInputs,
  onProgress: (progress: TrainingPlanProgress) => void,
  cancelled: () => boolean,
): Promise<TrainingPlanOutcome | undefined> {
  const options = trainingPlanOptions(inputs);
  const kinds = listOf(options.gpus ?? '');
  // No kind (or one): a single call, which also gives the core's message for an empty list.
  const calls = kinds.length > 1 ? kinds.map((gpu) => optionsForKind(options, gpu)) : [options];
  const parts: TrainingPlanReport[] = [];
  onProgress({ done: 0, total: calls.length });
  for (const call of calls) {
    if (cancelled()) return undefined;
    let part: TrainingPlanReport;
    try {
      part = await runner.runTraining(configText, call);
    } catch (error) {
      return cancelled() ? undefined : { error: toCoreError(error) };
    }
    if (cancelled()) return undefined;
    parts.push(part);
    onProgress({ done: parts.length, total: calls.length, report: mergeTrainingPlans(parts) });
  }
  return { report: mergeTrainingPlans(parts) };
}
