// SPDX-License-Identifier: MIT
// One serving-planner sweep: a planReport call per GPU kind (run-per-kind.ts), joined by merge.ts.
import type { PlanReport } from '../core/types';
import { planOptions, type PlanInputs } from './plan-inputs';
import { mergePlans } from './merge';
import { runPerKind, type SweepOutcome, type SweepProgress } from './run-per-kind';
import type { PlanRunner } from './runner';

export type PlanProgress = SweepProgress<PlanReport>;
export type PlanOutcome = SweepOutcome<PlanReport>;

/** Resolves to undefined when `cancelled()` turned true (newer inputs) before the end. */
export function runPlan(
  runner: PlanRunner,
  configText: string,
  inputs: PlanInputs,
  onProgress: (progress: PlanProgress) => void,
  cancelled: () => boolean,
): Promise<PlanOutcome | undefined> {
  return runPerKind(
    planOptions(inputs),
    (options) => runner.run(configText, options),
    mergePlans,
    onProgress,
    cancelled,
  );
}
