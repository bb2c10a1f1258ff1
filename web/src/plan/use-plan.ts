// SPDX-License-Identifier: MIT
// The serving planner's answer for the current model and constraints (use-plan-sweep.ts).
import type { PlanReport } from '../core/types';
import type { PlanInputs } from './plan-inputs';
import { usePlanSweep, type PlanSweepState, type RunSweep } from './use-plan-sweep';

export type PlanState = PlanSweepState<PlanReport>;

// The sweep code (merging, per-kind runs) loads with the first sweep, not with the page.
const runPlan: RunSweep<PlanInputs, PlanReport> = async (...args) => (await import('./run-plan')).runPlan(...args);

export function usePlan(ready: boolean, configText: string, inputs: PlanInputs, enabled: boolean): PlanState {
  return usePlanSweep(runPlan, ready, configText, inputs, enabled);
}
