// SPDX-License-Identifier: MIT
// The Emscripten ES module copied into src/generated/ by scripts/build.sh.
declare module '*/generated/fitcheck.mjs' {
  import type { FitcheckModule } from './core/types';
  const createFitcheckModule: () => Promise<FitcheckModule>;
  export default createFitcheckModule;
}
// The inference-only build of the same core (CMakeLists.txt, fitcheck_inference_wasm).
declare module '*/generated/fitcheck-inference.mjs' {
  import type { FitcheckModule } from './core/types';
  const createFitcheckModule: () => Promise<FitcheckModule>;
  export default createFitcheckModule;
}
