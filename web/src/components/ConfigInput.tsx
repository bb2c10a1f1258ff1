// SPDX-License-Identifier: MIT
import type { CoreError } from '../core/types';
import type { Preset } from '../presets';
import { roundedCount } from '../format';

interface Props {
  presets: Preset[];
  presetId: string;
  configText: string;
  error?: CoreError;
  onPreset: (id: string) => void;
  onText: (text: string) => void;
}

function groupByFamily(presets: Preset[]): Map<string, Preset[]> {
  const groups = new Map<string, Preset[]>();
  for (const preset of presets) {
    const list = groups.get(preset.family) ?? [];
    list.push(preset);
    groups.set(preset.family, list);
  }
  return groups;
}

export function ConfigInput({ presets, presetId, configText, error, onPreset, onText }: Props) {
  const groups = groupByFamily(presets);
  const selected = presets.find((preset) => preset.id === presetId);
  return (
    <section class="input-panel">
      <label for="preset">Model</label>
      <select id="preset" data-testid="preset" value={presetId} onChange={(e) => onPreset(e.currentTarget.value)}>
        <option value="">Pasted config.json</option>
        {[...groups.entries()].map(([family, members]) => (
          <optgroup label={family} key={family}>
            {members.map((preset) => (
              <option value={preset.id} key={preset.id}>
                {preset.label} ({roundedCount(preset.total_params)})
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {selected && <p class="source">Source: {selected.source}</p>}
      <label for="config">config.json</label>
      <textarea
        id="config"
        data-testid="config"
        spellcheck={false}
        rows={18}
        value={configText}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={error ? 'config-error' : undefined}
        onInput={(e) => onText(e.currentTarget.value)}
      />
      {error && (
        <p id="config-error" class="error" role="alert" data-testid="config-error">
          {error.field ? <strong>{error.field}: </strong> : null}
          {error.message}
        </p>
      )}
    </section>
  );
}
