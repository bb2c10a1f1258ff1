// SPDX-License-Identifier: MIT
// The model the inputs name (a preset, a pasted config or numbers) as the config text handed to
// the core, and as the label a pinned result carries.
import type { Inputs } from '../app/inputs';
import { configTextFromNumbers } from './from-numbers';
import { defaultPresetId, presetConfigText, presets } from './presets';

export type ModelSource = Pick<Inputs, 'modelKind' | 'presetId' | 'pastedText' | 'numbers'>;

/** `wanted` when it is a bundled preset's id, else the default preset's. */
export function startPresetId(wanted?: string): string {
  return wanted !== undefined && presets.some((p) => p.id === wanted) ? wanted : defaultPresetId;
}

export function configTextOf(source: ModelSource): string {
  if (source.modelKind === 'numbers') return configTextFromNumbers(source.numbers);
  if (source.modelKind === 'pasted') return source.pastedText;
  const preset =
    presets.find((candidate) => candidate.id === source.presetId) ??
    presets.find((candidate) => candidate.id === defaultPresetId) ??
    presets[0];
  return presetConfigText(preset);
}

export function modelLabel(source: ModelSource, modelType: string): string {
  if (source.modelKind === 'preset') return presets.find((p) => p.id === source.presetId)?.label ?? source.presetId;
  return source.modelKind === 'numbers' ? `from numbers (${modelType})` : `pasted config (${modelType})`;
}

/** The inputs after picking a preset; none ('') turns the preset shown into a pasted config. */
export function choosingPreset(id: string, configText: string): Partial<ModelSource> {
  return id ? { modelKind: 'preset', presetId: id } : { modelKind: 'pasted', presetId: '', pastedText: configText };
}

/** The inputs after editing the config text: a pasted config from then on. */
export function editingConfigText(text: string): Partial<ModelSource> {
  return { modelKind: 'pasted', presetId: '', pastedText: text };
}

/** The inputs after switching where the model comes from; a paste starts from the config shown. */
export function choosingModelKind(
  kind: ModelSource['modelKind'],
  source: ModelSource,
  configText: string,
): Partial<ModelSource> {
  return { modelKind: kind, pastedText: kind === 'pasted' ? configText : source.pastedText };
}
