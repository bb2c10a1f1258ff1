// SPDX-License-Identifier: MIT
// The one place that loads the WebAssembly core: once, lazily, behind a memoized promise.
import type { FitcheckModule } from './types';

let modulePromise: Promise<FitcheckModule> | undefined;

export function loadCore(): Promise<FitcheckModule> {
  if (!modulePromise) {
    modulePromise = import('../generated/fitcheck.mjs').then(
      (factory: { default: () => Promise<FitcheckModule> }) => factory.default(),
    );
  }
  return modulePromise;
}
