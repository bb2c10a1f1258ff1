// SPDX-License-Identifier: MIT
import fs from 'node:fs';
import path from 'node:path';
import { loadCore } from '../../src/core/load';

export const sharedConfigs = path.resolve(import.meta.dirname, '../../../../shared/configs');
export const core = await loadCore();
export function sharedConfig(name: string): string {
  return fs.readFileSync(path.join(sharedConfigs, name), 'utf8');
}
