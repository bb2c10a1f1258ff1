// SPDX-License-Identifier: MIT
// The large-config reader of the one-file builds (dist/fitcheck.html, fitcheck-element.js), put in
// place of create-config-reader.ts by their Vite configs: a worker needs a script file of its own,
// so a large paste is read on the page, once, and cut as in the page build (large-config.ts).
import { loadCore } from '../core/load';
import { readLargeConfig, type ConfigReader } from './large-config';

export function createConfigReader(): ConfigReader {
  return async (text) => ({ ...readLargeConfig(await loadCore(), text), where: 'main' });
}
