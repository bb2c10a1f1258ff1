// SPDX-License-Identifier: MIT
import { useEffect, useMemo, useState } from 'preact/hooks';
import { loadCore } from '../core/load';
import type { CoreError, FitcheckModule, ParameterReport } from '../core/types';
import { defaultPresetId, presetConfigText, presets } from '../presets';
import { ConfigInput } from './ConfigInput';
import { ParameterTable } from './ParameterTable';
import { WeightMemory } from './WeightMemory';
import { Notes } from './Notes';

type Outcome = { report: ParameterReport } | { error: CoreError } | undefined;

export function App() {
  const initial = presets.find((preset) => preset.id === defaultPresetId) ?? presets[0];
  const [presetId, setPresetId] = useState(initial.id);
  const [configText, setConfigText] = useState(presetConfigText(initial));
  const [core, setCore] = useState<FitcheckModule>();
  const [loadError, setLoadError] = useState<string>();

  useEffect(() => {
    loadCore().then(setCore, (error: Error) => setLoadError(`The calculator failed to load: ${error.message}`));
  }, []);

  const outcome: Outcome = useMemo(() => {
    if (!core) return undefined;
    try {
      return { report: core.parameterReport(configText) };
    } catch (error) {
      return { error: error as CoreError };
    }
  }, [core, configText]);

  const choosePreset = (id: string) => {
    const preset = presets.find((candidate) => candidate.id === id);
    if (!preset) return;
    setPresetId(id);
    setConfigText(presetConfigText(preset));
  };
  const editText = (text: string) => {
    setConfigText(text);
    setPresetId('');
  };

  return (
    <main class="page">
      <header class="masthead">
        <h1>fitcheck</h1>
        <p>Exact parameter counts and memory for any Hugging Face config.json, computed in your browser.</p>
      </header>
      <div class="layout">
        <ConfigInput
          presets={presets}
          presetId={presetId}
          configText={configText}
          error={outcome && 'error' in outcome ? outcome.error : undefined}
          onPreset={choosePreset}
          onText={editText}
        />
        <section class="results" aria-live="polite" data-testid="results">
          {loadError && <p class="error" role="alert">{loadError}</p>}
          {!core && !loadError && <p class="muted">Loading the calculator…</p>}
          {outcome && 'report' in outcome && (
            <>
              <ParameterTable report={outcome.report} />
              <WeightMemory report={outcome.report} />
              <Notes report={outcome.report} />
            </>
          )}
        </section>
      </div>
    </main>
  );
}
