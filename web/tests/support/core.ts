// SPDX-License-Identifier: MIT
import fs from 'node:fs';
import path from 'node:path';
import { loadCore } from '../../src/core/load';

export const fixtureConfigs = path.resolve(import.meta.dirname, '../../../tests/fixtures/configs');
export const core = await loadCore();
export function fixtureConfig(name: string): string {
  return fs.readFileSync(path.join(fixtureConfigs, name), 'utf8');
}
