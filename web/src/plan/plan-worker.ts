// SPDX-License-Identifier: MIT
// The planner's Web Worker: a second instance of the WebAssembly core answers planReport calls
// off the main thread, one message per call.
import { loadCore } from '../core/load';
import type { CoreError, PlanOptions } from '../core/types';

export interface PlanRequest {
  id: number;
  configText: string;
  options: PlanOptions;
}

const scope = self as unknown as { onmessage: ((event: MessageEvent<PlanRequest>) => void) | null; postMessage: (message: unknown) => void };

scope.onmessage = async (event) => {
  const { id, configText, options } = event.data;
  try {
    const core = await loadCore();
    scope.postMessage({ id, report: core.planReport(configText, options) });
  } catch (error) {
    const failure = error as CoreError;
    scope.postMessage({ id, error: { message: failure?.message ?? String(error), field: failure?.field } });
  }
};
