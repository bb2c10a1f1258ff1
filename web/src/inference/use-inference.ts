// SPDX-License-Identifier: MIT
// The inference report for the current inputs, without lag while typing. With a GPU chosen the
// core also searches the capacity answers, which for the largest models takes a few hundred ms.
// When the last such call was slow, each keystroke gets the fast report without GPU (memory terms
// only), and the full report follows once the inputs have been still for a moment.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CoreError, FitcheckModule, InferenceReport } from '../core/types';
import { inferenceOptions, type Workload } from './inference-inputs';
import { attempt, type Outcome } from '../core/outcome';

/** Above this a full call is too slow to run on every keystroke. */
const slowMs = 40;
const settleMs = 60;

export interface InferenceState {
  report?: InferenceReport;
  error?: CoreError;
  /** The fit and capacity answers are being recomputed; `report` has the memory terms only. */
  pending: boolean;
  /** The last complete report, for showing its capacity answers (marked stale) meanwhile. */
  lastFull?: InferenceReport;
}

function timed(core: FitcheckModule, configText: string, workload: Workload): [Outcome<InferenceReport>, number] {
  const start = performance.now();
  const outcome = attempt(() => core.inferenceReport(configText, inferenceOptions(workload)));
  return [outcome, performance.now() - start];
}

export function useInference(
  core: FitcheckModule | undefined,
  configText: string,
  workload: Workload,
  enabled: boolean,
): InferenceState {
  const slow = useRef(false);
  const lastFull = useRef<InferenceReport | undefined>(undefined);
  const [settled, setSettled] = useState<{
    configText: string;
    workload: Workload;
    outcome: Outcome<InferenceReport>;
  }>();
  const withGpu = workload.gpu.trim() !== '';

  const now = useMemo(() => {
    if (!core || !enabled) return undefined;
    if (!withGpu || !slow.current) {
      const [outcome, ms] = timed(core, configText, workload);
      if (withGpu) slow.current = ms > slowMs;
      return { outcome, full: true };
    }
    return {
      outcome: attempt(() => core.inferenceReport(configText, inferenceOptions(workload, { gpu: '' }))),
      full: false,
    };
  }, [core, configText, workload, enabled, withGpu]);

  useEffect(() => {
    if (!core || !now || now.full || now.outcome.error) return;
    const timer = setTimeout(() => {
      const [outcome, ms] = timed(core, configText, workload);
      slow.current = ms > slowMs;
      setSettled({ configText, workload, outcome });
    }, settleMs);
    return () => clearTimeout(timer);
  }, [now]);

  if (!now) return { pending: false };
  let outcome = now.outcome;
  let pending = false;
  if (!now.full && !now.outcome.error) {
    if (settled && settled.configText === configText && settled.workload === workload) outcome = settled.outcome;
    else pending = true;
  }
  if (!pending && outcome.report?.gpu) lastFull.current = outcome.report;
  return { report: outcome.report, error: outcome.error, pending, lastFull: lastFull.current };
}
