// SPDX-License-Identifier: MIT
// The serving planner's answer for the current model and constraints (use-plan-sweep.ts).
import type { PlanReport } from '../core/types';
import { runPlan } from '../plan/run-plan';
import type { PlanInputs } from '../state/plan-inputs';
import { usePlanSweep, type PlanSweepState } from './use-plan-sweep';

export type PlanState = PlanSweepState<PlanReport>;

export function usePlan(ready: boolean, configText: string, inputs: PlanInputs, enabled: boolean): PlanState {
  return usePlanSweep(runPlan, ready, configText, inputs, enabled);
}
