// SPDX-License-Identifier: MIT
// The Training tab's report. Training needs the full core, loaded when the tab opens; the other
// tabs run on the inference module (or the planner worker's core).
import type { CoreError, FitcheckModule, ParameterReport, TrainingReport } from '../core/types';
import { useFullCore } from '../core/use-full-core';
import type { TrainingWorkload } from './training-inputs';
import { useTraining } from './use-training';

export interface TrainingTab {
  /** The full core, once loaded. */
  core?: FitcheckModule;
  loadError?: string;
  report?: TrainingReport;
  error?: CoreError;
}

/** `restored`: the inputs are known (a link's inputs are read first); `active`: the tab is shown. */
export function useTrainingTab(
  restored: boolean,
  configText: string,
  training: TrainingWorkload,
  params: ParameterReport | undefined,
  active: boolean,
): TrainingTab {
  const full = useFullCore(active);
  const outcome = useTraining(restored ? full.core : undefined, configText, training, active && Boolean(params));
  return { core: full.core, loadError: full.loadError, report: outcome?.report, error: outcome?.error };
}
