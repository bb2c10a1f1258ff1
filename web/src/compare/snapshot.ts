// SPDX-License-Identifier: MIT
// The result "Pin to compare" keeps: the model's label and the reports of the tab shown.
import type { InferenceReport, ParameterReport, TrainingReport } from '../core/types';
import type { Mode } from '../app/inputs';
import { modelLabel, type ModelSource } from '../model/model-source';

export interface Snapshot {
  label: string;
  params: ParameterReport;
  inference?: InferenceReport;
  training?: TrainingReport;
}

export function snapshotOf(
  mode: Mode,
  model: ModelSource,
  params: ParameterReport | undefined,
  inference: InferenceReport | undefined,
  training: TrainingReport | undefined,
): Snapshot | undefined {
  if (!params) return undefined;
  return {
    label: modelLabel(model, params.model_type),
    params,
    inference: mode === 'inference' ? inference : undefined,
    training: mode === 'training' ? training : undefined,
  };
}
