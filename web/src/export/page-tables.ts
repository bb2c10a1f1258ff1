// SPDX-License-Identifier: MIT
// The tables of the tab shown, in page order, for the exports (the same data the page renders).
import type {
  Accelerator,
  FormatCatalog,
  InferenceReport,
  ParameterReport,
  PlanReport,
  TrainingPlanReport,
  TrainingReport,
} from '../core/types';
import type { ByteUnit, Mode } from '../app/inputs';
import { latencyTable, opsTable } from '../inference/latency-tables';
import { planBestTable, planFrontierTable } from '../plan/plan-tables';
import { trainingPlanBestTable, trainingPlanFrontierTable } from '../plan/training-plan-tables';
import { capacityTable, memoryTable, parameterTable, type TableModel } from './tables';
import {
  layerActivationsTable,
  trainingCapacityTable,
  trainingMemoryTable,
  trainingSetupTable,
  trainingTimeTable,
} from '../training/training-tables';

export interface PageReports {
  params?: ParameterReport;
  inference?: InferenceReport;
  training?: TrainingReport;
  plan?: PlanReport;
  /** The training planner's answer, when the Plan tab shows training layouts. */
  trainingPlan?: TrainingPlanReport;
}

export function pageTables(
  mode: Mode,
  reports: PageReports,
  context: { unit: ByteUnit; formats?: FormatCatalog; gpu?: Accelerator },
): TableModel[] {
  const { unit } = context;
  const tables: TableModel[] = [];
  const add = (table: TableModel | undefined) => table && tables.push(table);
  if (mode === 'inference' && reports.inference) {
    const report = reports.inference;
    add(memoryTable(report, context));
    add(capacityTable(report));
    if (report.latency) {
      add(latencyTable(report, report.latency, unit, context.gpu));
      for (const phase of ['prefill', 'decode_first', 'decode_last'] as const)
        add(opsTable(report.latency, phase, unit));
    }
  }
  if (mode === 'training' && reports.training) {
    const report = reports.training;
    add(trainingMemoryTable(report, unit));
    add(trainingCapacityTable(report));
    if (report.time) add(trainingTimeTable(report.time, report.gpu?.name ?? 'the GPU'));
    add(trainingSetupTable(report));
    add(layerActivationsTable(report, unit));
  }
  if (mode === 'plan' && reports.plan) {
    add(planBestTable(reports.plan, unit));
    add(planFrontierTable(reports.plan, unit));
  }
  if (mode === 'plan' && reports.trainingPlan) {
    add(trainingPlanBestTable(reports.trainingPlan, unit));
    add(trainingPlanFrontierTable(reports.trainingPlan, unit));
  }
  if (reports.params) add(parameterTable(reports.params));
  return tables;
}
