// SPDX-License-Identifier: MIT
// The training planner's answer for the current model and constraints (use-plan-sweep.ts).
import type { TrainingPlanReport } from '../core/types';
import type { TrainingPlanInputs } from './training-plan-inputs';
import { usePlanSweep, type PlanSweepState, type RunSweep } from './use-plan-sweep';

export type TrainingPlanState = PlanSweepState<TrainingPlanReport>;

// The sweep code (merging, per-kind runs) loads with the first sweep, not with the page.
const runTrainingPlan: RunSweep<TrainingPlanInputs, TrainingPlanReport> = async (...args) =>
  (await import('./run-training-plan')).runTrainingPlan(...args);

export function useTrainingPlan(
  ready: boolean,
  configText: string,
  inputs: TrainingPlanInputs,
  enabled: boolean,
): TrainingPlanState {
  return usePlanSweep(runTrainingPlan, ready, configText, inputs, enabled);
}
