// SPDX-License-Identifier: MIT
// How far to trust a figure: its category's error against the published measurements of the
// validation set (validation/*.json, docs/validation.md), as `npm run validate -- --expected-errors`
// wrote it into expected-errors.json. The page shows it beside each estimated figure.
import measured from './expected-errors.json';
import type { Row, TableModel } from '../export/tables';

export type AccuracyCategory =
  | 'train_memory'
  | 'train_max_context'
  | 'train_throughput'
  | 'train_mfu'
  | 'serve_ttft'
  | 'serve_tpot'
  | 'serve_throughput'
  // The same figures over the runs whose requests did not queue: the per-batch latency table's.
  | 'serve_ttft_unqueued'
  | 'serve_tpot_unqueued'
  | 'serve_throughput_unqueued'
  | 'local_prompt'
  | 'local_generation'
  | 'local_memory'
  | 'local_peak_memory'
  // The local speeds by engine, and llama.cpp's by backend (scripts/validate.mjs subclasses).
  | `local_${LocalSpeedKind}_${'llamacpp' | 'mlx'}`
  | `local_${LocalSpeedKind}_llamacpp_${LocalBackendName}`;

export type LocalSpeedKind = 'prompt' | 'generation';
export type LocalBackendName = 'cuda' | 'metal' | 'vulkan' | 'rocm' | 'sycl' | 'cpu';

interface CategoryErrors {
  what: string;
  runs: number;
  median_abs_error: number;
  p90_abs_error: number;
  median_error: number;
}

export interface ExpectedError {
  /** Short, beside the figure: "±32% typical". */
  text: string;
  /** The whole statement, for the figure's details. */
  detail: string;
}

const categories = measured.categories as Partial<Record<AccuracyCategory, CategoryErrors>>;

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

export function expectedError(category: AccuracyCategory): ExpectedError | undefined {
  const errors = categories[category];
  if (!errors) return undefined;
  const tendency =
    Math.abs(errors.median_error) < 0.02
      ? 'neither high nor low on the whole'
      : `${percent(Math.abs(errors.median_error))} ${errors.median_error > 0 ? 'high' : 'low'} at the median`;
  return {
    text: `±${percent(errors.median_abs_error)} typical`,
    detail:
      `Against ${errors.runs} published measurements of ${errors.what}, fitcheck's error is ` +
      `${percent(errors.median_abs_error)} at the median and within ${percent(errors.p90_abs_error)} for 9 in 10 ` +
      `(${tendency}); each run, its source and its error are in docs/validation.md.`,
  };
}

// A backend's own figure is shown once this many published runs make it: the median of fewer
// would say more about the runs than about the backend.
export const minimumBackendRuns = 8;

/**
 * How far to trust a llama.cpp speed: its backend's error against the published llama-bench runs,
 * or, with fewer than minimumBackendRuns of them, llama.cpp's over every backend, saying so.
 */
export function localSpeedExpectedError(kind: LocalSpeedKind, backend: LocalBackendName): ExpectedError | undefined {
  const own = categories[`local_${kind}_llamacpp_${backend}`];
  if (own && own.runs >= minimumBackendRuns) return expectedError(`local_${kind}_llamacpp_${backend}`);
  const overall = expectedError(`local_${kind}_llamacpp`);
  if (!overall) return undefined;
  const runs = own?.runs ?? 0;
  return {
    text: overall.text,
    detail:
      `${runs === 0 ? 'No' : `Only ${runs}`} published measurement${runs === 1 ? '' : 's'} of the ${backend} backend ` +
      `(fewer than ${minimumBackendRuns}), so this is llama.cpp's error over every backend. ${overall.detail}`,
  };
}

/** The table with each row named in `byRow` marked with its category's expected error. */
export function withExpectedErrors(table: TableModel, byRow: Record<string, AccuracyCategory>): TableModel {
  const rows = table.rows.map((row): Row => {
    const category = byRow[row.key];
    const expected = category ? expectedError(category) : undefined;
    return expected ? { ...row, expectedError: expected } : row;
  });
  return { ...table, rows };
}
