// SPDX-License-Identifier: MIT
// The serving simulation's Web Worker: a second instance of the full WebAssembly core answers
// servingReport calls off the main thread, one message per call.
import { loadCore } from '../core/load';
import type { ServingOptions } from '../core/types';
import { answerCalls } from '../core/worker-calls';

answerCalls<{ configText: string; options: ServingOptions }>(async ({ configText, options }) =>
  (await loadCore()).servingReport(configText, options),
);
