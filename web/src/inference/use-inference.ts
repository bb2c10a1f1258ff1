// SPDX-License-Identifier: MIT
// The inference report for the current inputs, without lag while typing. With a GPU chosen the
// core also searches the capacity answers, which for the largest models takes a few hundred ms.
// When the last such call was slow, each keystroke gets the fast report without GPU (memory terms
// only), and the full report follows once the inputs have been still for a moment.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CoreError, FitcheckModule, InferenceReport } from '../core/types';
import { loadCore } from '../core/load';
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

  let outcome = now?.outcome;
  let pending = false;
  if (now && !now.full && !now.outcome.error) {
    if (settled && settled.configText === configText && settled.workload === workload) outcome = settled.outcome;
    else pending = true;
  }
  // Called on every render, before any return (a hook).
  const report = useFullModuleParts(outcome?.report, configText, workload);
  if (!outcome) return { pending: false };
  if (!pending && outcome.report?.gpu) lastFull.current = outcome.report;
  return { report, error: outcome.error, pending, lastFull: lastFull.current };
}

/**
 * The first-view module's report leaves out the changes that fit and vLLM's start-up check (its
 * size: docs/performance.md). For a setup that does not fit, or with the vLLM engine, they are asked
 * of the full module, fetched on this first need; the verdict shows at once, and they join it when
 * the full module answers. A report that has them (the full module's, in the single-file builds) is
 * returned as it is.
 */
function useFullModuleParts(
  report: InferenceReport | undefined,
  configText: string,
  workload: Workload,
): InferenceReport | undefined {
  const changesMissing = Boolean(report?.gpu && report.fits === false && report.fit_changes === undefined);
  const startMissing = Boolean(
    report?.gpu && (report.engine === 'vllm' || report.engine === 'vllm-v0') && report.engine_start === undefined,
  );
  const missing = changesMissing || startMissing;
  const [found, setFound] = useState<{ report: InferenceReport; full: InferenceReport }>();
  useEffect(() => {
    if (!missing || !report) return;
    let live = true;
    loadCore().then(
      (full) => {
        const outcome = attempt(() => full.inferenceReport(configText, inferenceOptions(workload)));
        if (live && outcome.report) setFound({ report, full: outcome.report });
      },
      () => undefined, // the verdict stays without them; the Training tab reports the failure
    );
    return () => {
      live = false;
    };
  }, [report]);
  return useMemo(() => {
    if (!missing || found?.report !== report) return report;
    const full = found!.full;
    return {
      ...report!,
      ...(changesMissing ? { fit_changes: full.fit_changes ?? [] } : {}),
      ...(startMissing && full.engine_start ? { engine_start: full.engine_start } : {}),
    };
  }, [report, found]);
}
