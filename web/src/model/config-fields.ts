// SPDX-License-Identifier: MIT
// The cut of a config to the keys the core reads: the rule scripts/make-presets.py applies to the
// bundled presets, here over the core's own table (fitcheck::config_fields_json, through the
// WebAssembly module's configFields()) so that web/tests/presets.test.ts can check every preset.
// (A link carries a pasted config exactly as pasted: see url/url-state.ts.)
import type { ConfigFieldTable } from '../core/types';

type Json = Record<string, unknown>;
type Row = ConfigFieldTable['fields'][number];
type Scope = Row['in'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every spelling the core reads in `scope`, with what each object key holds. */
function keysOf(table: ConfigFieldTable, scope: Scope): Map<string, Row['holds']> {
  const keys = new Map<string, Row['holds']>();
  for (const row of table.fields) {
    if (row.in !== scope) continue;
    for (const key of [row.name, ...row.aliases]) keys.set(key, row.holds);
  }
  return keys;
}

/**
 * The config with only the keys the core reads: an object key keeps the keys read inside it
 * (text_config: the model's; vision_config: the vision tower's; audio_config: Gemma 3n's and Phi-4-multimodal's audio towers'); a value of
 * another type than the core expects is kept as it is, so that the link reproduces the error.
 */
export function keepReadFields(config: Json, table: ConfigFieldTable, scope: Scope = 'model'): Json {
  const keys = keysOf(table, scope);
  const out: Json = {};
  for (const [key, value] of Object.entries(config)) {
    if (!keys.has(key)) continue;
    const holds = keys.get(key);
    if (holds === undefined || !isObject(value)) out[key] = value;
    else out[key] = holds === 'none' ? {} : keepReadFields(value, table, holds);
  }
  return out;
}
