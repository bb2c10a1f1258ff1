// SPDX-License-Identifier: MIT
// The WebAssembly core (its inference module: see core/load.ts) and its catalogs, once loaded; or,
// on the default view, the core's answers recorded in index.html until the core itself is needed
// (core/recorded-answers.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadInferenceCore } from './load';
import { recordingCore, replayingCore, type RecordedCall } from './recorded-answers';
import type { Accelerator, FitcheckModule, FormatCatalog } from './types';

export interface CoreState {
  core?: FitcheckModule;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  loadError?: string;
  /** The core is the answers recorded in index.html, not yet the module itself. */
  recorded?: boolean;
}

declare global {
  interface Window {
    /** Set by scripts/prerender.mjs: the first view's core calls are appended here. */
    fitcheckRecordCoreCalls?: RecordedCall[];
  }
}

// Once per page: every calculator on it shares the module and its catalogs.
let loading: Promise<CoreState> | undefined;
let loaded: CoreState | undefined;
const listeners = new Set<(state: CoreState) => void>();
let markLoaded: (state: CoreState) => void = () => {};
/** Settles once the core itself (not the recorded answers) is loaded, or failed to load. */
export const coreLoaded = new Promise<CoreState>((resolve) => {
  markLoaded = resolve;
});

function publish(state: CoreState): CoreState {
  loaded = state;
  for (const listener of listeners) listener(state);
  return state;
}

/** Starts loading the core and its catalogs (once); settles when useCore has them. */
export function loadCoreState(): Promise<CoreState> {
  loading ??= loadInferenceCore()
    .then(
      (module): CoreState => {
        const calls = typeof window === 'undefined' ? undefined : window.fitcheckRecordCoreCalls;
        const core = calls ? recordingCore(module, calls) : module;
        try {
          return { core, gpus: core.acceleratorCatalog(), formats: core.formatCatalog() };
        } catch (error) {
          return { gpus: [], loadError: `The calculator's catalogs failed to load: ${(error as Error).message}` };
        }
      },
      (error: Error): CoreState => ({ gpus: [], loadError: `The calculator failed to load: ${error.message}` }),
    )
    .then((state) => {
      markLoaded(state);
      return publish(state);
    });
  return loading;
}

/**
 * While the recorded answers stand in for the core: start loading it and show the page as loading
 * until it is here (an input is about to change, or a call missed the recording). Otherwise nothing.
 */
export function needCore(): void {
  if (!loaded?.recorded) return;
  publish({ gpus: loaded.gpus, formats: loaded.formats });
  void loadCoreState();
}

/**
 * The default view from the core's answers recorded in index.html; the core itself loads on
 * loadCoreState (the visitor reaching for an input) or needCore. Undefined when the recording lacks
 * the catalogs.
 */
export function startFromRecordedAnswers(calls: RecordedCall[]): CoreState | undefined {
  // A miss comes while the page draws: the switch to the loading state waits for that draw to end.
  const core = replayingCore(calls, () => queueMicrotask(needCore));
  try {
    return publish({ core, gpus: core.acceleratorCatalog(), formats: core.formatCatalog(), recorded: true });
  } catch {
    return undefined;
  }
}

export function useCore(): CoreState {
  const [state, setState] = useState<CoreState>(() => loaded ?? { gpus: [] });
  const live = useRef(true);
  // Subscribed while drawing rather than in an effect: effects wait for a paint, and the first
  // table should follow the core as soon as it is ready.
  const [listener] = useState(() => {
    const follow = (next: CoreState) => live.current && setState(next);
    listeners.add(follow);
    if (!loaded) void loadCoreState();
    return follow;
  });
  useEffect(
    () => () => {
      live.current = false;
      listeners.delete(listener);
    },
    [],
  );
  return state;
}
