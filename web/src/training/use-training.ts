// SPDX-License-Identifier: MIT
// The training report for the current inputs, recomputed synchronously as the user types (the
// core answers in a few ms, its capacity search included).
import { useMemo } from 'preact/hooks';
import type { FitcheckModule, TrainingReport } from '../core/types';
import { trainingOptions, type TrainingWorkload } from './training-inputs';
import { attempt, type Outcome } from '../core/outcome';

export function useTraining(
  core: FitcheckModule | undefined,
  configText: string,
  training: TrainingWorkload,
  enabled: boolean,
): Outcome<TrainingReport> | undefined {
  return useMemo(
    () => (core && enabled ? attempt(() => core.trainingReport(configText, trainingOptions(training))) : undefined),
    [core, configText, training, enabled],
  );
}
