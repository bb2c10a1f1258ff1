// SPDX-License-Identifier: MIT
// Memory over a grid of context lengths and batch sizes: one inferenceSweep call per chart (the
// core computes every point without a GPU, so no capacity search runs; the page picks the grid and
// plots). The per-format table asks one inferenceReport per format.
import type { FitcheckModule, InferenceReport, InferenceSweepReport } from '../core/types';
import { inferenceOptions, withoutRequestLengths, type Workload } from './inference-inputs';

export interface SweepPoint {
  x: number;
  total_bytes: number;
  weight_bytes: number;
  kv_cache_bytes: number;
}

/** 2^k and 1.5 x 2^k from `low` to `high`, plus `current`: about two points per doubling. */
export function geometricGrid(low: number, high: number, current: number, maxPoints = 36): number[] {
  const values = new Set<number>();
  for (let base = 1; base <= high; base *= 2) {
    for (const value of [base, Math.round(base * 1.5)]) if (value >= low && value <= high) values.add(value);
  }
  if (Number.isFinite(current) && current >= low && current <= high) values.add(current);
  let sorted = [...values].sort((a, b) => a - b);
  while (sorted.length > maxPoints)
    sorted = sorted.filter((v, i) => i % 2 === 0 || v === current || i === sorted.length - 1);
  return sorted;
}

export function sweep(
  core: FitcheckModule,
  configText: string,
  workload: Workload,
  key: 'context' | 'batch',
  values: number[],
): SweepPoint[] {
  let report: InferenceSweepReport;
  try {
    report = core.inferenceSweep(configText, {
      ...inferenceOptions(workload),
      sweep: key,
      sweep_values: values.join(','),
    });
  } catch {
    return []; // options the core refuses: the inference report beside the chart names the field
  }
  // Values the core refuses (e.g. a batch past its range) are simply not plotted.
  return report.points.map((point) => ({
    x: point.value,
    total_bytes: point.total_bytes_per_gpu,
    weight_bytes: point.weight_bytes,
    kv_cache_bytes: point.kv_cache_bytes,
  }));
}

export interface WeightFormatReport {
  id: string;
  name: string;
  report: InferenceReport;
}

export function weightsPerFormat(
  core: FitcheckModule,
  configText: string,
  workload: Workload,
  formats: Array<{ id: string; name: string }>,
): WeightFormatReport[] {
  const out: WeightFormatReport[] = [];
  for (const format of formats) {
    try {
      const report = core.inferenceReport(
        configText,
        inferenceOptions(workload, { gpu: '', ...withoutRequestLengths, weights: format.id, batch: 1, context: 1 }),
      );
      out.push({ id: format.id, name: format.name, report });
    } catch {
      // a format the core refuses for this model is left out
    }
  }
  return out;
}
