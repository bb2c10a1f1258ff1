// SPDX-License-Identifier: MIT
// Bundled presets: real models' architecture facts (scripts/make-presets.py), each with its source.
import presetData from './presets.json';

export interface Preset {
  id: string;
  label: string;
  family: string;
  total_params: number;
  source: string;
  config: Record<string, unknown>;
}

export const presets: Preset[] = presetData as Preset[];
export const defaultPresetId = 'meta-llama--llama-3.1-8b';

export function presetConfigText(preset: Preset): string {
  return JSON.stringify(preset.config, null, 2);
}
