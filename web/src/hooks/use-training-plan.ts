// SPDX-License-Identifier: MIT
// The training planner's answer for the current model and constraints, as use-plan.ts does for
// serving: it starts once the inputs have been still for a moment, runs in a Web Worker where it
// can, reports after each GPU kind, and is dropped when newer inputs arrive.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CoreError, TrainingPlanReport } from '../core/types';
import { createPlanRunner } from '../plan/create-runner';
import { runTrainingPlan } from '../plan/run-training-plan';
import type { PlanRunner } from '../plan/runner';
import type { TrainingPlanInputs } from '../state/training-plan-inputs';

const settleMs = 250;

export interface TrainingPlanState {
  report?: TrainingPlanReport;
  error?: CoreError;
  running: boolean;
  done: number;
  total: number;
  where?: PlanRunner['where'];
  note?: string;
}

export function useTrainingPlan(ready: boolean, configText: string, inputs: TrainingPlanInputs, enabled: boolean): TrainingPlanState {
  const runner = useRef<PlanRunner | undefined>(undefined);
  const job = useRef(0);
  const [state, setState] = useState<TrainingPlanState>({ running: false, done: 0, total: 0 });

  useEffect(() => () => runner.current?.dispose(), []);

  useEffect(() => {
    if (!ready || !enabled) return;
    const id = ++job.current;
    const current = () => job.current === id;
    setState((previous) => ({ ...previous, running: true }));
    const timer = setTimeout(async () => {
      runner.current ??= createPlanRunner();
      const active = runner.current;
      const outcome = await runTrainingPlan(
        active,
        configText,
        inputs,
        (progress) => {
          if (!current()) return;
          setState((previous) => ({
            report: progress.report ?? previous.report,
            error: undefined,
            running: true,
            done: progress.done,
            total: progress.total,
            where: active.where,
            note: active.note,
          }));
        },
        () => !current(),
      );
      if (!outcome || !current()) return;
      setState((previous) => ({ ...previous, report: outcome.report, error: outcome.error, running: false, where: active.where, note: active.note }));
    }, settleMs);
    return () => {
      clearTimeout(timer);
      if (current()) job.current += 1;
    };
  }, [ready, enabled, configText, inputs]);

  return state;
}
