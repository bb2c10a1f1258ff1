// SPDX-License-Identifier: MIT
// Bundled presets, grouped by family with their size, filtered by a search box.
import { useState } from 'preact/hooks';
import type { Preset } from '../presets';
import { roundedCount } from '../../ui/format';
import { matchesQuery, rankedMatches } from '../preset-search';

function groupByFamily(presets: Preset[]): Map<string, Preset[]> {
  const groups = new Map<string, Preset[]>();
  for (const preset of presets) {
    const list = groups.get(preset.family) ?? [];
    list.push(preset);
    groups.set(preset.family, list);
  }
  return groups;
}

interface Props {
  presets: Preset[];
  presetId: string;
  onPreset: (id: string) => void;
}

export function PresetPicker({ presets, presetId, onPreset }: Props) {
  const [query, setQuery] = useState('');
  const shown = presets.filter((preset) => preset.id === presetId || matchesQuery(preset, query));
  const groups = groupByFamily(shown);
  const selected = presets.find((preset) => preset.id === presetId);
  const matching = rankedMatches(presets, query);
  const first = matching[0];
  return (
    <div class="preset-picker">
      <label for="preset-search">Search models</label>
      <input
        id="preset-search"
        data-testid="preset-search"
        type="search"
        placeholder="e.g. llama 70b, qwen, moe"
        value={query}
        aria-describedby="preset-count"
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter picks the best match, so the list is usable from the keyboard alone.
          if (e.key === 'Enter') {
            if (first) onPreset(first.id);
          }
        }}
      />
      <p id="preset-count" class="help" aria-live="polite">
        {!query
          ? `${presets.length} bundled models`
          : first
            ? `${matching.length} of ${presets.length} models match; Enter picks ${first.label}`
            : `No bundled model matches "${query.trim()}": paste its config.json below`}
      </p>
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
      {selected && (
        <p class="source" data-testid="preset-source">
          {selected.source}
        </p>
      )}
    </div>
  );
}
