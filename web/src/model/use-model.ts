// SPDX-License-Identifier: MIT
// The model's config text and its parameter report, recomputed synchronously as the user types.
// A large paste is read first off the main thread (large-config.ts); until then there is no report.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CoreError, FitcheckModule, ParameterReport } from '../core/types';
import { attempt } from '../core/outcome';
import { configTextOf, type ModelSource } from './model-source';
import { coreErrorOf, largeConfigLength, type ConfigReader, type LargeConfigRead } from './large-config';

export interface ModelState {
  /** The config as given (shown in the text area and kept in the link). */
  configText: string;
  /** What every core call is handed: configText, or its cut to the keys the core reads (a large paste). */
  coreText: string;
  params?: ParameterReport;
  /** The core's message when the config does not read. */
  error?: CoreError;
  /** A large paste being read (its length in characters, and where: a Web Worker or the page). */
  reading?: { length: number };
  /** How the last large paste was read, once read. */
  largeRead?: { length: number; where: 'worker' | 'main'; cut: boolean };
}

// One reader per page, made when the first large paste arrives (the worker script loads only then).
let reader: Promise<ConfigReader> | undefined;
function largeConfigReader(): Promise<ConfigReader> {
  reader ??= import('./create-config-reader').then((module) => module.createConfigReader());
  return reader;
}

type Read = LargeConfigRead & { where: 'worker' | 'main' };

export function useModel(core: FitcheckModule | undefined, source: ModelSource): ModelState {
  const configText = useMemo(
    () => configTextOf(source),
    [source.modelKind, source.presetId, source.pastedText, source.numbers],
  );
  const large = configText.length > largeConfigLength;
  const [read, setRead] = useState<{ text: string; result: Read } | undefined>();
  useEffect(() => {
    if (!core || !large || read?.text === configText) return;
    let live = true;
    void largeConfigReader()
      .then((readText) => readText(configText))
      .then((result) => live && setRead({ text: configText, result }));
    return () => {
      live = false;
    };
  }, [core, large, configText]);
  const settled = large && read?.text === configText ? read.result : undefined;
  const coreText = large ? (settled?.coreText ?? '') : configText;
  const outcome = useMemo(() => {
    if (!core || (large && !settled)) return undefined;
    if (settled?.error) return { error: coreErrorOf(settled.error) };
    return attempt(() => core.parameterReport(coreText));
  }, [core, coreText, large, settled]);
  return {
    configText,
    coreText,
    params: outcome?.report,
    error: outcome?.error,
    reading: large && !settled ? { length: configText.length } : undefined,
    largeRead: settled ? { length: configText.length, where: settled.where, cut: settled.cut } : undefined,
  };
}
