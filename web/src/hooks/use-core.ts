// SPDX-License-Identifier: MIT
// The WebAssembly core and its catalogs, once loaded.
import { useEffect, useState } from 'preact/hooks';
import { loadCore } from '../core/load';
import type { Accelerator, FitcheckModule, FormatCatalog } from '../core/types';

export interface CoreState {
  core?: FitcheckModule;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  loadError?: string;
}

export function useCore(): CoreState {
  const [state, setState] = useState<CoreState>({ gpus: [] });
  useEffect(() => {
    let live = true;
    loadCore().then(
      (core) => {
        if (!live) return;
        try {
          setState({ core, gpus: core.acceleratorCatalog(), formats: core.formatCatalog() });
        } catch (error) {
          setState({ gpus: [], loadError: `The calculator's catalogs failed to load: ${(error as Error).message}` });
        }
      },
      (error: Error) => live && setState({ gpus: [], loadError: `The calculator failed to load: ${error.message}` }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
