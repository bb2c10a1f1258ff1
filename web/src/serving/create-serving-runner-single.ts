// SPDX-License-Identifier: MIT
// The serving simulation's runner in the one-file builds (dist/fitcheck.html, fitcheck-element.js),
// put in place of create-serving-runner.ts by their Vite configs: a worker needs a script file of
// its own, which these builds do not have, so the simulation runs on the page.
import { createMainServingRunner, type ServingRunner } from './serving-runner';

export function createServingRunner(): ServingRunner {
  return createMainServingRunner();
}
