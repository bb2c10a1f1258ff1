// SPDX-License-Identifier: MIT
// The one place that loads the WebAssembly core: once per build, lazily, behind memoized promises.
// Two builds of the same core (CMakeLists.txt): the full module, and the smaller inference module
// that the page's first view needs (parameters, inference, catalogs), so that a first visit
// downloads less. The single-file builds point both imports at the full module (one instance).
import type { FitcheckModule } from './types';

type Factory = () => Promise<FitcheckModule>;

const instances = new Map<Factory, Promise<FitcheckModule>>();

function instantiate(factory: Factory): Promise<FitcheckModule> {
  let instance = instances.get(factory);
  if (!instance) {
    instance = factory();
    instances.set(factory, instance);
  }
  return instance;
}

let fullPromise: Promise<FitcheckModule> | undefined;
let inferencePromise: Promise<FitcheckModule> | undefined;

/** Every function of the core (training, planner, transformer_mem, serving included). */
export function loadCore(): Promise<FitcheckModule> {
  fullPromise ??= import('../generated/fitcheck.mjs').then((module: { default: Factory }) =>
    instantiate(module.default),
  );
  return fullPromise;
}

/** The functions only the full module has; the inference module has every other of moduleExports. */
export const fullOnly = [
  'trainingReport',
  'planReport',
  'trainingPlanReport',
  'transformerMemReport',
  'servingReport',
  'localReport',
  'configFields',
  'cpuCatalog',
  'localGpuCatalog',
  'localFormats',
  'checkpointReport',
] as const;

/**
 * parameterReport, inferenceReport (without fit_changes: inference/use-inference.ts asks the full
 * module for them) and the catalogs, from the inference module; the full module's functions throw
 * here (call loadCore for them).
 */
export function loadInferenceCore(): Promise<FitcheckModule> {
  inferencePromise ??= import('../generated/fitcheck-inference.mjs').then(async (module: { default: Factory }) => {
    const core = await instantiate(module.default);
    const missing = (name: string) => () => {
      throw new Error(`${name} is not in the inference module; the full core (loadCore) has it`);
    };
    const stubs = Object.fromEntries(
      fullOnly.filter((name) => typeof core[name] !== 'function').map((name) => [name, missing(name)]),
    );
    return Object.keys(stubs).length ? Object.assign(Object.create(core) as FitcheckModule, stubs) : core;
  });
  return inferencePromise;
}
