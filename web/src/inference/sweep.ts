// SPDX-License-Identifier: MIT
// Memory over a grid of context lengths and batch sizes: one inferenceReport per point (the core
// computes every figure; the page only picks the grid and plots). No GPU is passed for the points,
// which skips the capacity searches and keeps a sweep of ~30 calls within a few tens of ms.
import type { FitcheckModule, InferenceReport } from '../core/types';
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
  const points: SweepPoint[] = [];
  for (const x of values) {
    let report: InferenceReport;
    try {
      // A context point sets the sequence length alone (prompt + output would have to fit in it).
      const lengths = key === 'context' ? withoutRequestLengths : {};
      report = core.inferenceReport(configText, inferenceOptions(workload, { gpu: '', ...lengths, [key]: x }));
    } catch {
      continue; // a point the core refuses is simply not plotted
    }
    points.push({
      x,
      total_bytes: report.total_bytes_per_gpu,
      weight_bytes: report.weight_bytes,
      kv_cache_bytes: report.kv_cache_bytes,
    });
  }
  return points;
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
