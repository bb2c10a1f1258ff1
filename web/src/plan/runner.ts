// SPDX-License-Identifier: MIT
// Where the planner's sweep runs: a Web Worker with its own instance of the WebAssembly core, or,
// where no worker can start (the one-file builds), the page itself with a pause between calls.
import { loadCore } from '../core/load';
import type { PlanOptions, PlanReport, TrainingPlanOptions, TrainingPlanReport } from '../core/types';

export interface PlanRunner {
  where: 'worker' | 'main';
  /** Why the sweep runs on the main thread, when it does. */
  note?: string;
  run(configText: string, options: PlanOptions): Promise<PlanReport>;
  runTraining(configText: string, options: TrainingPlanOptions): Promise<TrainingPlanReport>;
  dispose(): void;
}

export function createMainRunner(note: string): PlanRunner {
  return {
    where: 'main',
    note,
    async run(configText, options) {
      const core = await loadCore();
      // Let the page paint (progress, typing) between two calls.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return core.planReport(configText, options);
    },
    async runTraining(configText, options) {
      const core = await loadCore();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return core.trainingPlanReport(configText, options);
    },
    dispose() {},
  };
}
