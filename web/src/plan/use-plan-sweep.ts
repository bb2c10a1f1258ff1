// SPDX-License-Identifier: MIT
// A planner's answer for the current model and constraints. The sweep starts once the inputs have
// been still for a moment, runs off the main thread where it can, reports after each GPU kind,
// and is dropped when newer inputs arrive. Shared by the serving and the training planner.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CoreError } from '../core/types';
import type { SweepOutcome, SweepProgress } from './run-per-kind';
import type { PlanRunner } from './runner';

const settleMs = 250;

export interface PlanSweepState<Report> {
  report?: Report;
  error?: CoreError;
  running: boolean;
  done: number;
  total: number;
  where?: PlanRunner['where'];
  note?: string;
}

export type RunSweep<Inputs, Report> = (
  runner: PlanRunner,
  configText: string,
  inputs: Inputs,
  onProgress: (progress: SweepProgress<Report>) => void,
  cancelled: () => boolean,
) => Promise<SweepOutcome<Report> | undefined>;

export function usePlanSweep<Inputs, Report>(
  run: RunSweep<Inputs, Report>,
  ready: boolean,
  configText: string,
  inputs: Inputs,
  enabled: boolean,
): PlanSweepState<Report> {
  const runner = useRef<PlanRunner | undefined>(undefined);
  const job = useRef(0);
  const [state, setState] = useState<PlanSweepState<Report>>({ running: false, done: 0, total: 0 });

  useEffect(() => () => runner.current?.dispose(), []);

  useEffect(() => {
    if (!ready || !enabled) return;
    const id = ++job.current;
    const current = () => job.current === id;
    setState((previous) => ({ ...previous, running: true }));
    const timer = setTimeout(async () => {
      // The runner (and its worker) with the first sweep: the page's first view never needs it.
      runner.current ??= (await import('./create-runner')).createPlanRunner();
      if (!current()) return;
      const active = runner.current;
      const outcome = await run(
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
      setState((previous) => ({
        ...previous,
        report: outcome.report,
        error: outcome.error,
        running: false,
        where: active.where,
        note: active.note,
      }));
    }, settleMs);
    return () => {
      clearTimeout(timer);
      // A newer run (or leaving the tab) makes this one stale.
      if (current()) job.current += 1;
    };
  }, [run, ready, enabled, configText, inputs]);

  return state;
}
