// SPDX-License-Identifier: MIT
// The WebAssembly core (its inference module: see core/load.ts) and its catalogs, once loaded.
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadInferenceCore } from './load';
import type { Accelerator, FitcheckModule, FormatCatalog } from './types';

export interface CoreState {
  core?: FitcheckModule;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  loadError?: string;
}

// Once per page: every calculator on it shares the module and its catalogs.
let loading: Promise<CoreState> | undefined;
let loaded: CoreState | undefined;

/** Starts loading the core and its catalogs (once); settles when useCore has them. */
export function loadCoreState(): Promise<CoreState> {
  loading ??= loadInferenceCore()
    .then(
      (core): CoreState => {
        try {
          return { core, gpus: core.acceleratorCatalog(), formats: core.formatCatalog() };
        } catch (error) {
          return { gpus: [], loadError: `The calculator's catalogs failed to load: ${(error as Error).message}` };
        }
      },
      (error: Error): CoreState => ({ gpus: [], loadError: `The calculator failed to load: ${error.message}` }),
    )
    .then((state) => (loaded = state));
  return loading;
}

export function useCore(): CoreState {
  const [state, setState] = useState<CoreState>(() => loaded ?? { gpus: [] });
  const live = useRef(true);
  // Subscribed while drawing rather than in an effect: effects wait for a paint, and the first
  // table should follow the core as soon as it is ready.
  useState(() => {
    if (!loaded) loadCoreState().then((next) => live.current && setState(next));
  });
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  return state;
}
