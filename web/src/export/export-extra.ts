// SPDX-License-Identifier: MIT
// What the JSON export holds beside the tables: the model, the unit, and the tab's workload or
// request as the core read it.
import type { InferenceReport, PlanReport, TrainingPlanReport, TrainingReport } from '../core/types';
import type { ByteUnit, Mode } from '../app/inputs';

export interface ExportSubject {
  model?: string;
  unit: ByteUnit;
  inference?: InferenceReport;
  training?: TrainingReport;
  planRequest?: PlanReport['request'] | TrainingPlanReport['request'];
}

export function exportExtraOf(
  mode: Mode,
  { model, unit, inference, training, planRequest }: ExportSubject,
): Record<string, unknown> {
  const extra: Record<string, unknown> = { model, unit };
  if (mode === 'inference') extra.workload = inference?.workload;
  if (mode === 'training') Object.assign(extra, { training: training?.workload, parallel: training?.parallel });
  if (mode === 'plan') extra.request = planRequest;
  return extra;
}
