// SPDX-License-Identifier: MIT
// The serving simulation's Web Worker: a second instance of the full WebAssembly core answers
// servingReport calls off the main thread, one message per call.
import { loadCore } from '../core/load';
import type { CoreError, ServingOptions } from '../core/types';

export interface ServingRequest {
  id: number;
  configText: string;
  options: ServingOptions;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ServingRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  const { id, configText, options } = event.data;
  try {
    const core = await loadCore();
    scope.postMessage({ id, report: core.servingReport(configText, options) });
  } catch (error) {
    const failure = error as CoreError;
    scope.postMessage({ id, error: { message: failure?.message ?? String(error), field: failure?.field } });
  }
};
