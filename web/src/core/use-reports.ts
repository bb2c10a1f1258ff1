// SPDX-License-Identifier: MIT
// The parameter report for the current config, recomputed synchronously as the user types.
import { useMemo } from 'preact/hooks';
import type { CoreError, FitcheckModule, ParameterReport } from './types';

export type Outcome<T> = { report: T; error?: undefined } | { report?: undefined; error: CoreError };

export function attempt<T>(compute: () => T): Outcome<T> {
  try {
    return { report: compute() };
  } catch (error) {
    if (error instanceof Error) return { error: error as CoreError };
    return { error: Object.assign(new Error(`the core failed: ${String(error)}`), { field: undefined }) };
  }
}

export function useParameterReport(core: FitcheckModule | undefined, configText: string): Outcome<ParameterReport> | undefined {
  return useMemo(() => (core ? attempt(() => core.parameterReport(configText)) : undefined), [core, configText]);
}
