// SPDX-License-Identifier: MIT
// Where the serving simulation runs: a Web Worker with its own instance of the full WebAssembly
// core (create-serving-runner.ts), or, where no worker can start (the one-file builds), the page.
import { loadCore } from '../core/load';
import type { ServingOptions, ServingReport } from '../core/types';

export interface ServingRunner {
  run(configText: string, options: ServingOptions): Promise<ServingReport>;
  dispose(): void;
}

export function createMainServingRunner(): ServingRunner {
  return {
    async run(configText, options) {
      const core = await loadCore();
      // Let the page paint (the inputs, the busy mark) before the simulation takes the thread.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return core.servingReport(configText, options);
    },
    dispose() {},
  };
}
