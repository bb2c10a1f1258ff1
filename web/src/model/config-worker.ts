// SPDX-License-Identifier: MIT
// The Web Worker that reads a large pasted config off the page's main thread (large-config.ts),
// with its own instance of the full WebAssembly core; one message per text.
import { loadCore } from '../core/load';
import { readLargeConfig } from './large-config';

export interface ConfigReadRequest {
  id: number;
  text: string;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ConfigReadRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = async (event) => {
  const { id, text } = event.data;
  try {
    const core = await loadCore();
    scope.postMessage({ id, read: readLargeConfig(core, text) });
  } catch (error) {
    scope.postMessage({ id, failure: (error as Error)?.message ?? String(error) });
  }
};
