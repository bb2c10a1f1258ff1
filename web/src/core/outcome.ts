// SPDX-License-Identifier: MIT
// A core call's answer: its report, or the error it threw (naming the option it refuses).
import type { CoreError } from './types';

export type Outcome<T> = { report: T; error?: undefined } | { report?: undefined; error: CoreError };

export function attempt<T>(compute: () => T): Outcome<T> {
  try {
    return { report: compute() };
  } catch (error) {
    if (error instanceof Error) return { error: error as CoreError };
    return { error: Object.assign(new Error(`the core failed: ${String(error)}`), { field: undefined }) };
  }
}
