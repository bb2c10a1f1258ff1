// SPDX-License-Identifier: MIT
// One training-planner sweep: a trainingPlanReport call per GPU kind (run-per-kind.ts), joined by
// training-merge.ts.
import type { TrainingPlanReport } from '../core/types';
import { trainingPlanOptions, type TrainingPlanInputs } from './training-plan-inputs';
import { runPerKind, type SweepOutcome, type SweepProgress } from './run-per-kind';
import type { PlanRunner } from './runner';
import { mergeTrainingPlans } from './training-merge';

export type TrainingPlanProgress = SweepProgress<TrainingPlanReport>;
export type TrainingPlanOutcome = SweepOutcome<TrainingPlanReport>;

/** Resolves to undefined when `cancelled()` turned true (newer inputs) before the end. */
export function runTrainingPlan(
  runner: PlanRunner,
  configText: string,
  inputs: TrainingPlanInputs,
  onProgress: (progress: TrainingPlanProgress) => void,
  cancelled: () => boolean,
): Promise<TrainingPlanOutcome | undefined> {
  return runPerKind(
    trainingPlanOptions(inputs),
    (options) => runner.runTraining(configText, options),
    mergeTrainingPlans,
    onProgress,
    cancelled,
  );
}
