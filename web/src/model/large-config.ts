// SPDX-License-Identifier: MIT
// A large pasted config (ids, label maps, tokenizer tables beside the model's fields) is read once,
// off the page's main thread where a Web Worker can run (create-config-reader.ts), and cut to the
// keys the core reads. The page then hands every core call the cut text (a few hundred bytes), so
// an edit does not parse megabytes again. The cut is used only when the core gives the same
// parameter and inference reports for it as for the whole text; otherwise the whole text is kept.
import { attempt } from '../core/outcome';
import type { CoreError, FitcheckModule } from '../core/types';
import { keepReadFields } from './config-fields';

/** Texts longer than this (UTF-16 units) are read through readLargeConfig; a real config.json is a few KB. */
export const largeConfigLength = 64 * 1024;

export interface LargeConfigRead {
  /** The text the core is handed from now on: the cut, or the whole text if the cut answers differently. */
  coreText: string;
  /** The core's refusal of the whole text. */
  error?: { message: string; field?: string };
  /** True when coreText is the cut. */
  cut: boolean;
}

function sameReports(core: FitcheckModule, whole: string, cut: string): boolean {
  const same = (compute: (text: string) => unknown) => {
    const a = attempt(() => compute(whole));
    const b = attempt(() => compute(cut));
    return JSON.stringify(a.report ?? a.error?.message) === JSON.stringify(b.report ?? b.error?.message);
  };
  return same((text) => core.parameterReport(text)) && same((text) => core.inferenceReport(text, {}));
}

/** Reads `text` with the full core: its refusal, or the text every later call should be handed. */
export function readLargeConfig(core: FitcheckModule, text: string): LargeConfigRead {
  const outcome = attempt(() => core.parameterReport(text));
  if (outcome.error) {
    return { coreText: text, cut: false, error: { message: outcome.error.message, field: outcome.error.field } };
  }
  let cut: string;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { coreText: text, cut: false };
    cut = JSON.stringify(keepReadFields(parsed as Record<string, unknown>, core.configFields()), null, 2);
  } catch {
    return { coreText: text, cut: false };
  }
  return sameReports(core, text, cut) ? { coreText: cut, cut: true } : { coreText: text, cut: false };
}

/** Reads a large text where the build can: a Web Worker, or the page itself. */
export type ConfigReader = (text: string) => Promise<LargeConfigRead & { where: 'worker' | 'main' }>;

/** The worker's plain refusal as the Error the page shows (core/outcome.ts's shape). */
export function coreErrorOf(error: { message: string; field?: string }): CoreError {
  return Object.assign(new Error(error.message), { field: error.field }) as CoreError;
}
