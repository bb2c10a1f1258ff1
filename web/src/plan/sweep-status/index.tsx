// SPDX-License-Identifier: MIT
// A planner sweep's progress, where it runs, and why no plan shows (the constraints' error); the
// test ids start with `prefix` ("plan" or "tplan").
import type { PlanSweepState } from '../use-plan-sweep';

export function SweepStatus({ prefix, state }: { prefix: string; state: PlanSweepState<unknown> }) {
  const { error, running, done, total, where, note } = state;
  return (
    <>
      <div class="plan-status" aria-live="polite">
        {running && total > 0 && done < total ? (
          <p data-testid={`${prefix}-progress`}>
            <progress max={total} value={done} aria-label="GPU kinds searched" /> Searching GPU kind{' '}
            {Math.min(done + 1, total)} of {total}…
          </p>
        ) : running ? (
          <p class="muted" data-testid={`${prefix}-progress`}>
            Starting the search…
          </p>
        ) : null}
        {where && (
          <p class="help" data-testid={`${prefix}-runner`} data-where={where}>
            {where === 'worker'
              ? 'The search runs in a Web Worker with its own copy of the calculator, so the page stays responsive.'
              : note}
          </p>
        )}
      </div>
      {error && (
        <p class="muted" data-testid={`${prefix}-blocked`}>
          Plans appear once the constraints are valid: {error.message}
        </p>
      )}
    </>
  );
}
