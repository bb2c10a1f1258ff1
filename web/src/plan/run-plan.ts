// SPDX-License-Identifier: MIT
// One planner sweep, split into one planReport call per GPU kind so that progress can be shown
// after each; the answers are joined by merge.ts.
import type { CoreError, PlanReport } from '../core/types';
import { optionsForKind } from '../state/custom-gpu';
import { listOf, planOptions, type PlanInputs } from '../state/plan-inputs';
import { mergePlans } from './merge';
import { toCoreError, type PlanRunner } from './runner';

export interface PlanProgress {
  done: number;
  total: number;
  /** The answer over the GPU kinds searched so far. */
  report?: PlanReport;
}

export type PlanOutcome = { report: PlanReport; error?: undefined } | { report?: undefined; error: CoreError };

/** Resolves to undefined when `cancelled()` turned true (newer inputs) before the end. */
export async function runPlan(
  runner: PlanRunner,
  configText: string,
  inputs: PlanInputs,
  onProgress: (progress: PlanProgress) => void,
  cancelled: () => boolean,
): Promise<PlanOutcome | undefined> {
  const options = planOptions(inputs);
  const kinds = listOf(options.gpus ?? '');
  // No kind (or one): a single call, which also gives the core's message for an empty list.
  const calls = kinds.length > 1 ? kinds.map((gpu) => optionsForKind(options, gpu)) : [options];
  const parts: PlanReport[] = [];
  onProgress({ done: 0, total: calls.length });
  for (const call of calls) {
    if (cancelled()) return undefined;
    let part: PlanReport;
    try {
      part = await runner.run(configText, call);
    } catch (error) {
      return cancelled() ? undefined : { error: toCoreError(error) };
    }
    if (cancelled()) return undefined;
    parts.push(part);
    onProgress({ done: parts.length, total: calls.length, report: mergePlans(parts) });
  }
  return { report: mergePlans(parts) };
}
