// SPDX-License-Identifier: MIT
// The Plan tab: the serving or the training planner, whichever its kind switch shows; only that
// one sweeps.
import type { PlanReport, TrainingPlanReport } from '../core/types';
import type { PlanInputs } from './plan-inputs';
import type { TrainingPlanInputs } from './training-plan-inputs';
import { usePlan, type PlanState } from './use-plan';
import { useTrainingPlan, type TrainingPlanState } from './use-training-plan';

export interface PlanTab {
  /** The training planner is shown. */
  training: boolean;
  serving: PlanState;
  trainingPlan: TrainingPlanState;
  /** The shown planner's answer, without an error (what the export holds). */
  servingReport?: PlanReport;
  trainingPlanReport?: TrainingPlanReport;
  /** The shown planner's request as the core read it. */
  request?: PlanReport['request'] | TrainingPlanReport['request'];
}

/** `ready`: the inputs are known, the core loaded and the config read; `active`: the tab is shown. */
export function usePlanTab(
  ready: boolean,
  configText: string,
  plan: PlanInputs,
  trainingPlan: TrainingPlanInputs,
  active: boolean,
): PlanTab {
  const training = active && trainingPlan.kind === 'training';
  const serving = usePlan(ready, configText, plan, active && !training);
  const trainingState = useTrainingPlan(ready, configText, trainingPlan, training);
  return {
    training,
    serving,
    trainingPlan: trainingState,
    servingReport: serving.error || training ? undefined : serving.report,
    trainingPlanReport: training && !trainingState.error ? trainingState.report : undefined,
    request: training ? trainingState.report?.request : serving.report?.request,
  };
}
