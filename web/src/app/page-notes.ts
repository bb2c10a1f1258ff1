// SPDX-License-Identifier: MIT
// "What fitcheck assumed": the parameter report's notes, then the notes of the tab shown.
import type { InferenceReport, ParameterReport, TrainingReport } from '../core/types';
import type { Mode } from './inputs';

export function pageNotes(
  mode: Mode,
  params: ParameterReport | undefined,
  inference: InferenceReport | undefined,
  training: TrainingReport | undefined,
): string[] {
  const modeNotes =
    mode === 'inference'
      ? [...(inference?.assumptions ?? []), ...(inference?.latency?.notes ?? [])]
      : mode === 'training'
        ? (training?.assumptions ?? [])
        : [];
  return [...(params?.not_counted ?? []), ...(params?.assumptions ?? []), ...modeNotes];
}
