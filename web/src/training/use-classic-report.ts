// SPDX-License-Identifier: MIT
// The classic transformer_mem.py report for the values typed (text as typed, empty left to the
// script's defaults) and the switches set; the full core loads when the calculator is first drawn.
import { useEffect, useState } from 'preact/hooks';
import { loadCore } from '../core/load';
import type { CoreError, FitcheckModule, TransformerMemOptions, TransformerMemReport } from '../core/types';

export interface ClassicOutcome {
  report?: TransformerMemReport;
  error?: CoreError;
}

/** The options handed to transformerMemReport: the switches, and every value that is not empty. */
export function classicOptions(
  values: Record<string, string>,
  switches: Record<string, boolean>,
): TransformerMemOptions {
  const options: Record<string, string | boolean> = { ...switches };
  for (const [key, value] of Object.entries(values)) if (value.trim() !== '') options[key] = value.trim();
  return options as TransformerMemOptions;
}

export function useClassicReport(values: Record<string, string>, switches: Record<string, boolean>): ClassicOutcome {
  const [core, setCore] = useState<FitcheckModule>();
  useEffect(() => {
    loadCore().then(setCore, () => undefined);
  }, []);
  if (!core) return {};
  try {
    return { report: core.transformerMemReport(classicOptions(values, switches)) };
  } catch (caught) {
    return { error: caught as CoreError };
  }
}
