// SPDX-License-Identifier: MIT
// A planner sweep split into one core call per GPU kind, so that progress shows after each; the
// answers so far are joined by `merge`. Shared by the serving and the training planner.
import type { CoreError } from '../core/types';
import { optionsForKind } from '../gpu/custom-gpu';
import { listOf } from './plan-inputs';
import { toCoreError } from '../core/outcome';

export interface SweepProgress<Report> {
  done: number;
  total: number;
  /** The answer over the GPU kinds searched so far. */
  report?: Report;
}

export type SweepOutcome<Report> = { report: Report; error?: undefined } | { report?: undefined; error: CoreError };

/** Resolves to undefined when `cancelled()` turned true (newer inputs) before the end. */
export async function runPerKind<Options extends { gpus?: string }, Report>(
  options: Options,
  call: (options: Options) => Promise<Report>,
  merge: (parts: Report[]) => Report,
  onProgress: (progress: SweepProgress<Report>) => void,
  cancelled: () => boolean,
): Promise<SweepOutcome<Report> | undefined> {
  // A kind listed twice ("h200,H200") is asked for once, as the core keeps it once; aliases of one
  // catalog entry ("h100,h100-sxm-80gb") are joined by the merge, which keeps a kind's first answer.
  const kinds = listOf(options.gpus ?? '').filter(
    (gpu, i, all) => all.findIndex((other) => other.toLowerCase() === gpu.toLowerCase()) === i,
  );
  // No kind (or one): a single call, which also gives the core's message for an empty list.
  const calls = kinds.length > 1 ? kinds.map((gpu) => optionsForKind(options, gpu)) : [options];
  const parts: Report[] = [];
  onProgress({ done: 0, total: calls.length });
  for (const options of calls) {
    if (cancelled()) return undefined;
    let part: Report;
    try {
      part = await call(options);
    } catch (error) {
      return cancelled() ? undefined : { error: toCoreError(error) };
    }
    if (cancelled()) return undefined;
    parts.push(part);
    onProgress({ done: parts.length, total: calls.length, report: merge(parts) });
  }
  return { report: merge(parts) };
}
