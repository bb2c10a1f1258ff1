// SPDX-License-Identifier: MIT
import { useEffect, useMemo, useState, useErrorBoundary } from 'preact/hooks';
import type { InferenceReport } from '../core/types';
import { capacityTable, memoryTable, parameterTable, weightFormatsTable, type TableModel } from '../export/tables';
import { useCore } from '../hooks/use-core';
import { useDeferred } from '../hooks/use-deferred';
import { useEmbedHeight } from '../hooks/use-embed-height';
import { useParameterReport } from '../hooks/use-reports';
import { useInference } from '../hooks/use-inference';
import { geometricGrid, sweep, weightsPerFormat } from '../hooks/use-sweep';
import { useUrlState } from '../hooks/use-url-state';
import { defaultPresetId, presetConfigText, presets } from '../presets';
import { configTextFromNumbers } from '../state/from-numbers';
import { defaultInputs, type Inputs, type Mode } from '../state/inputs';
import { ComparePanel, type Snapshot } from './ComparePanel';
import { ConfigInput } from './ConfigInput';
import { CopyButton } from './CopyButton';
import { ExportPanel } from './ExportPanel';
import { InferenceResults } from './InferenceResults';
import { ModeTabs } from './ModeTabs';
import { Notes } from './Notes';
import { ParameterTable } from './ParameterTable';
import { TrainingPanel } from './TrainingPanel';
import { UnitToggle } from './UnitToggle';
import { WeightMemory } from './WeightMemory';
import { WorkloadForm } from './WorkloadForm';

export interface AppProps {
  /** Compact, without page chrome; reports its height to the parent frame. */
  embed?: boolean;
  /** Without page chrome (the custom element). */
  compact?: boolean;
  /** Keep the inputs in the location hash (off for the custom element). */
  persist?: boolean;
  initialPreset?: string;
  initialMode?: Mode;
}

const contextCap = 1 << 20;
const batchCap = 4096;

function configTextOf(inputs: Inputs): string {
  if (inputs.modelKind === 'numbers') return configTextFromNumbers(inputs.numbers);
  if (inputs.modelKind === 'pasted') return inputs.pastedText;
  const preset = presets.find((candidate) => candidate.id === inputs.presetId) ?? presets.find((candidate) => candidate.id === defaultPresetId) ?? presets[0];
  return presetConfigText(preset);
}

function modelLabel(inputs: Inputs, modelType: string): string {
  if (inputs.modelKind === 'preset') return presets.find((p) => p.id === inputs.presetId)?.label ?? inputs.presetId;
  return inputs.modelKind === 'numbers' ? `from numbers (${modelType})` : `pasted config (${modelType})`;
}

export function App(props: AppProps) {
  const [failure, resetFailure] = useErrorBoundary();
  if (failure) {
    return (
      <main class="page">
        <p class="error" role="alert">
          Something went wrong while drawing the results: {String((failure as Error).message ?? failure)}
        </p>
        <button type="button" onClick={resetFailure}>
          Try again
        </button>
      </main>
    );
  }
  return <Calculator {...props} />;
}

function Calculator({ embed = false, compact = embed, persist = true, initialPreset, initialMode }: AppProps) {
  const startPreset = presets.some((p) => p.id === initialPreset) ? initialPreset! : defaultPresetId;
  const { core, gpus, formats, loadError } = useCore();
  const url = useUrlState(() => ({ ...defaultInputs(startPreset), mode: initialMode ?? 'inference' }), startPreset, persist);
  useEmbedHeight(embed);
  const inputs = url.inputs ?? defaultInputs(startPreset);
  const { workload, unit, mode } = inputs;
  const configText = useMemo(() => configTextOf(inputs), [inputs.modelKind, inputs.presetId, inputs.pastedText, inputs.numbers]);
  const paramsOutcome = useParameterReport(url.inputs ? core : undefined, configText);
  const params = paramsOutcome?.report;
  const inferenceState = useInference(url.inputs ? core : undefined, configText, workload, mode === 'inference' && Boolean(params));
  const inference = inferenceState.report;
  const [pinned, setPinned] = useState<Snapshot>();
  const [wantFormats, setWantFormats] = useState(false);
  const [linkNow, setLinkNow] = useState('');
  useEffect(() => {
    if (embed) url.link().then(setLinkNow);
  }, [embed, url.link]);
  const update = (patch: Partial<Inputs>) => url.setInputs((current) => ({ ...current, ...patch }));

  const byContext = useDeferred(() => {
    if (!core || !inference || !params) return undefined;
    const high = Math.min(Math.max(params.shape.max_position_embeddings || 131072, inference.workload.context), contextCap);
    return sweep(core, configText, workload, 'context', geometricGrid(256, high, inference.workload.context, 26));
  }, [core, configText, workload, Boolean(inference)], 80);
  const byBatch = useDeferred(() => {
    if (!core || !inference) return undefined;
    const high = Math.min(Math.max(64, 2 * (inference.max_batch_size ?? 0), inference.workload.batch), batchCap);
    return sweep(core, configText, workload, 'batch', geometricGrid(1, high, inference.workload.batch, 26));
  }, [core, configText, workload, Boolean(inference)], 140);
  const formatsTable = useDeferred(() => {
    if (!core || !params || !formats || !wantFormats) return undefined;
    return weightsPerFormat(core, configText, workload, formats.weight_formats);
  }, [core, configText, workload, formats, wantFormats, Boolean(params)], 60);

  const gpu = gpus.find((candidate) => candidate.id === inference?.gpu?.id);
  const tables: TableModel[] = [];
  if (inference) {
    tables.push(memoryTable(inference, { unit, formats, gpu }));
    const capacity = capacityTable(inference);
    if (capacity) tables.push(capacity);
  }
  if (params) tables.push(parameterTable(params));
  const current: Snapshot | undefined = params ? { label: modelLabel(inputs, params.model_type), params, inference: inference as InferenceReport | undefined } : undefined;
  const configError = paramsOutcome?.error;
  const inferenceError = inferenceState.error;
  const assumptions = [...(params?.not_counted ?? []), ...(params?.assumptions ?? []), ...(inference?.assumptions ?? [])];

  return (
    <main class={compact ? 'page embed' : 'page'}>
      {!compact && (
        <header class="masthead">
          <h1>fitcheck</h1>
          <p>Memory for serving any Hugging Face model: exact parameters, weights, KV cache and what fits on which GPU, computed in your browser.</p>
        </header>
      )}
      <div class="toolbar">
        <ModeTabs mode={mode} onMode={(next) => update({ mode: next })} />
        <UnitToggle unit={unit} onUnit={(next) => update({ unit: next })} />
        <div class="actions">
          {persist && <CopyButton label="Copy link" testId="copy-link" text={url.link} />}
          {embed && (
            <a href={linkNow} target="_blank" rel="noopener" data-testid="open-full">
              Open full page
            </a>
          )}
          {current && (
            <button type="button" data-testid="pin" onClick={() => setPinned(current)} title="Keep this result to compare with the next one">
              {pinned ? 'Pin this instead' : 'Pin to compare'}
            </button>
          )}
        </div>
      </div>
      {url.problem && (
        <p class="error" role="alert">
          {url.problem}
        </p>
      )}
      <div class="layout">
        <div class="inputs">
          <ConfigInput
            presets={presets}
            modelKind={inputs.modelKind}
            presetId={inputs.modelKind === 'preset' ? inputs.presetId : ''}
            configText={configText}
            numbers={inputs.numbers}
            error={configError}
            onPreset={(id) => (id ? update({ modelKind: 'preset', presetId: id }) : update({ modelKind: 'pasted', presetId: '', pastedText: configText }))}
            onText={(text) => update({ modelKind: 'pasted', presetId: '', pastedText: text })}
            onKind={(kind) => update({ modelKind: kind, pastedText: kind === 'pasted' ? configText : inputs.pastedText })}
            onNumbers={(numbers) => update({ numbers })}
          />
          {mode === 'inference' && <WorkloadForm workload={workload} gpus={gpus} formats={formats} error={inferenceError} onChange={(next) => update({ workload: next })} />}
        </div>
        <section class="results" id="results" role="tabpanel" aria-labelledby={`tab-${mode}`} aria-live="polite" data-testid="results">
          {loadError && (
            <p class="error" role="alert">
              {loadError}
            </p>
          )}
          {(!core || !url.inputs) && !loadError && <p class="muted">Loading the calculator…</p>}
          {configError && (
            <p class="muted" data-testid="results-blocked">
              The results appear once the config reads correctly (see the message beside it).
            </p>
          )}
          {inferenceError && params && (
            <p class="muted" data-testid="inference-blocked">
              Memory appears once the workload is valid: {inferenceError.message}
            </p>
          )}
          {mode === 'training' && <TrainingPanel core={core} />}
          {mode === 'inference' && inference && <InferenceResults report={inference} pending={inferenceState.pending} lastFull={inferenceState.lastFull} pendingGpu={gpus.find((g) => g.id === workload.gpu)?.name} unit={unit} formats={formats} gpu={gpu} byContext={byContext} byBatch={byBatch} />}
          {pinned && <ComparePanel pinned={pinned} current={inferenceState.pending ? undefined : current} unit={unit} onUnpin={() => setPinned(undefined)} />}
          {params && (
            <>
              <ParameterTable report={params} />
              <WeightMemory report={params} formats={formatsTable ? weightFormatsTable(formatsTable, unit) : undefined} onWantFormats={mode === 'inference' ? () => setWantFormats(true) : undefined} />
              {tables.length > 0 && <ExportPanel tables={tables} extra={{ model: current?.label, workload: inference?.workload, unit }} />}
              <Notes lines={assumptions} />
            </>
          )}
        </section>
      </div>
      {!compact && (
        <footer class="footer">
          <p>
            Every figure comes from fitcheck's C++ core, compiled to WebAssembly; open a figure's ƒ to see its formula with your numbers. Nothing you type leaves this page.
          </p>
        </footer>
      )}
    </main>
  );
}
