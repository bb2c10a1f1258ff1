// SPDX-License-Identifier: MIT
// The model's config text and its parameter report, recomputed synchronously as the user types.
import { useMemo } from 'preact/hooks';
import type { CoreError, FitcheckModule, ParameterReport } from '../core/types';
import { attempt } from '../core/outcome';
import { configTextOf, type ModelSource } from './model-source';

export interface ModelState {
  configText: string;
  params?: ParameterReport;
  /** The core's message when the config does not read. */
  error?: CoreError;
}

export function useModel(core: FitcheckModule | undefined, source: ModelSource): ModelState {
  const configText = useMemo(
    () => configTextOf(source),
    [source.modelKind, source.presetId, source.pastedText, source.numbers],
  );
  const outcome = useMemo(
    () => (core ? attempt(() => core.parameterReport(configText)) : undefined),
    [core, configText],
  );
  return { configText, params: outcome?.report, error: outcome?.error };
}
