// SPDX-License-Identifier: MIT
// The planner runner of the one-file builds (dist/fitcheck.html, fitcheck-element.js), put in
// place of create-runner.ts by their Vite configs: a worker needs a script file of its own, which
// these builds do not have (and file:// pages cannot start one), so the sweep runs on the page.
import { createMainRunner, type PlanRunner } from './runner';

export function createPlanRunner(): PlanRunner {
  return createMainRunner(
    'This one-file build runs the planner on the page itself (a Web Worker needs a script file of its own); the page may pause while each GPU kind is searched.',
  );
}
