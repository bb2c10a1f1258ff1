// SPDX-License-Identifier: MIT
// The training planner's answer for the current model and constraints (use-plan-sweep.ts).
import type { TrainingPlanReport } from '../core/types';
import { runTrainingPlan } from '../plan/run-training-plan';
import type { TrainingPlanInputs } from '../state/training-plan-inputs';
import { usePlanSweep, type PlanSweepState } from './use-plan-sweep';

export type TrainingPlanState = PlanSweepState<TrainingPlanReport>;

export function useTrainingPlan(ready: boolean, configText: string, inputs: TrainingPlanInputs, enabled: boolean): TrainingPlanState {
  return usePlanSweep(runTrainingPlan, ready, configText, inputs, enabled);
}
