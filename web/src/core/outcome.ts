// SPDX-License-Identifier: MIT
// A core call's answer: its report, or the error it threw (naming the option it refuses).
import type { CoreError } from './types';

export type Outcome<T> = { report: T; error?: undefined } | { report?: undefined; error: CoreError };

/** What a core call threw, as the error the page shows (a thrown non-Error says the core failed). */
export function toCoreError(error: unknown): CoreError {
  if (error instanceof Error) return error as CoreError;
  return Object.assign(new Error(`the core failed: ${String(error)}`), { field: undefined });
}

export function attempt<T>(compute: () => T): Outcome<T> {
  try {
    return { report: compute() };
  } catch (error) {
    return { error: toCoreError(error) };
  }
}
