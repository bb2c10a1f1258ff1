// SPDX-License-Identifier: MIT
// The Emscripten ES module copied into src/generated/ by scripts/build.sh.
declare module '*/generated/fitcheck.mjs' {
  import type { FitcheckModule } from './core/types';
  const createFitcheckModule: () => Promise<FitcheckModule>;
  export default createFitcheckModule;
}
