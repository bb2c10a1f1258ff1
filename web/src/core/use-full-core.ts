// SPDX-License-Identifier: MIT
// The full WebAssembly core (training included), loaded only once something asks for it: the
// first view runs on the smaller inference module (useCore), so a first visit downloads less.
import { useEffect, useState } from 'preact/hooks';
import { loadCore } from './load';
import type { FitcheckModule } from './types';

export interface FullCoreState {
  core?: FitcheckModule;
  loadError?: string;
}

export function useFullCore(wanted: boolean): FullCoreState {
  const [state, setState] = useState<FullCoreState>({});
  const loaded = Boolean(state.core || state.loadError);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    loadCore().then(
      (core) => live && setState({ core }),
      (error: Error) => live && setState({ loadError: `The calculator failed to load: ${error.message}` }),
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return state;
}
