// SPDX-License-Identifier: MIT
import { useEffect, useMemo, useRef, useState, useErrorBoundary } from 'preact/hooks';
import { loadCore } from '../../core/load';
import type { PlanCandidate, TrainingPlanCandidate } from '../../core/types';
import { weightFormatsTable } from '../../export/tables';
import { useCore } from '../../core/use-core';
import { useAfterPaint } from '../../ui/use-after-paint';
import { useDeferred } from '../../ui/use-deferred';
import { useEmbedHeight } from '../use-embed-height';
import { useFullCore } from '../../core/use-full-core';
import { useParameterReport } from '../../core/use-reports';
import { useInference } from '../../inference/use-inference';
import { usePlan } from '../../plan/use-plan';
import { useTrainingPlan } from '../../plan/use-training-plan';
import { trainingInputsOf } from '../../plan/load-training';
import { useTraining } from '../../training/use-training';
import { geometricGrid, sweep, weightsPerFormat } from '../../inference/sweep';
import { useUrlState } from '../../url/use-url-state';
import { defaultPresetId, presetConfigText, presets } from '../../model/presets';
import { configTextFromNumbers } from '../../model/from-numbers';
import { customGpuOf } from '../../gpu/custom-gpu';
import { defaultInputs, defaultWorkload, type Inputs, type Mode } from '../inputs';
import type { Snapshot } from '../../compare/compare-panel';
import { ConfigInput } from '../../model/config-input';
import { CopyButton } from '../../ui/copy-button';
import { InferenceResults, preloadInferenceDetails } from '../../inference/inference-results';
import { lazyComponent } from '../../ui/lazy';
import { ModeTabs } from '../mode-tabs';
import { Notes } from '../../ui/notes';
import { ParameterTable } from '../../model/parameter-table';
import { UnitToggle } from '../unit-toggle';
import { WeightMemory } from '../../model/weight-memory';
import { WorkloadForm } from '../../inference/workload-form';

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

// Chunks fetched when first drawn: each tab's components with its tab, the comparison once something
// is pinned, the export tables after the first result.
const loading = () => <p class="muted">Loading…</p>;
const trainingTab = () => import('../../training/training-tab');
const planTab = () => import('../../plan/plan-tab');
const TrainingForm = lazyComponent(() => trainingTab().then((m) => m.TrainingForm), loading);
const TrainingPanel = lazyComponent(() => trainingTab().then((m) => m.TrainingPanel));
const ClassicCalculator = lazyComponent(() => trainingTab().then((m) => m.ClassicCalculator));
const PlanForm = lazyComponent(() => planTab().then((m) => m.PlanForm), loading);
const PlanResults = lazyComponent(() => planTab().then((m) => m.PlanResults), loading);
const TrainingPlanForm = lazyComponent(() => planTab().then((m) => m.TrainingPlanForm), loading);
const TrainingPlanResults = lazyComponent(() => planTab().then((m) => m.TrainingPlanResults), loading);
const ComparePanel = lazyComponent(() => import('../../compare/compare-panel').then((m) => m.ComparePanel));
const ExportSection = lazyComponent(() => import('../../export/export-section').then((m) => m.ExportSection));

/** Fetches a tab's chunk (and the Training tab's full core) ahead of its click: hover or focus. */
function preloadTab(mode: Mode) {
  if (mode === 'training') {
    TrainingPanel.preload();
    loadCore().catch(() => undefined);  // useFullCore reports a failure
  }
  if (mode === 'plan') PlanForm.preload();
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
  const { core, gpus, formats, loadError: coreLoadError } = useCore();
  const url = useUrlState(() => ({ ...defaultInputs(startPreset), mode: initialMode ?? 'inference' }), startPreset, persist);
  useEmbedHeight(embed);
  const top = useRef<HTMLElement>(null);
  const inputs = url.inputs ?? defaultInputs(startPreset);
  const { workload, unit, mode } = inputs;
  const configText = useMemo(() => configTextOf(inputs), [inputs.modelKind, inputs.presetId, inputs.pastedText, inputs.numbers]);
  const paramsOutcome = useParameterReport(url.inputs ? core : undefined, configText);
  const params = paramsOutcome?.report;
  // The parameter table is painted first; the inference report (capacity searches, latency) and
  // everything after it start from the next frame.
  const detailsReady = useAfterPaint(Boolean(params));
  if (detailsReady && mode === 'inference') preloadInferenceDetails();
  const inferenceState = useInference(url.inputs ? core : undefined, configText, workload, mode === 'inference' && Boolean(params) && detailsReady);
  const inference = inferenceState.report;
  // Training needs the full core; the other tabs run on the inference module (or the worker's).
  const full = useFullCore(mode === 'training');
  const loadError = coreLoadError ?? (mode === 'training' ? full.loadError : undefined);
  const trainingOutcome = useTraining(url.inputs ? full.core : undefined, configText, inputs.training, mode === 'training' && Boolean(params));
  const training = trainingOutcome?.report;
  const trainingPlanning = mode === 'plan' && inputs.trainingPlan.kind === 'training';
  const planState = usePlan(Boolean(url.inputs && core && params), configText, inputs.plan, mode === 'plan' && !trainingPlanning);
  const trainingPlanState = useTrainingPlan(Boolean(url.inputs && core && params), configText, inputs.trainingPlan, trainingPlanning);
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

  const gpu = gpus.find((candidate) => candidate.id === inference?.gpu?.id) ?? inference?.gpu;  // a custom GPU: the report's figures
  const latencyGpu = gpus.find((candidate) => candidate.id === (inferenceState.pending ? inferenceState.lastFull : inference)?.gpu?.id) ?? (inferenceState.pending ? inferenceState.lastFull : inference)?.gpu;
  const planReport = planState.error || trainingPlanning ? undefined : planState.report;
  const current: Snapshot | undefined = params ? { label: modelLabel(inputs, params.model_type), params, inference: mode === 'inference' ? inference : undefined, training: mode === 'training' ? training : undefined } : undefined;
  const configError = paramsOutcome?.error;
  const inferenceError = inferenceState.error;
  const trainingError = trainingOutcome?.error;
  const modeNotes = mode === 'inference' ? [...(inference?.assumptions ?? []), ...(inference?.latency?.notes ?? [])] : mode === 'training' ? (training?.assumptions ?? []) : [];
  const assumptions = [...(params?.not_counted ?? []), ...(params?.assumptions ?? []), ...modeNotes];
  const exportExtra: Record<string, unknown> = { model: current?.label, unit };
  if (mode === 'inference') exportExtra.workload = inference?.workload;
  if (mode === 'training') Object.assign(exportExtra, { training: training?.workload, parallel: training?.parallel });
  if (mode === 'plan') exportExtra.request = trainingPlanning ? trainingPlanState.report?.request : planState.report?.request;

  const loadPlan = (candidate: PlanCandidate) => {
    const request = planState.report?.request;
    update({
      mode: 'inference',
      // The planner's own assumptions (defaults, catalog prices, 1 - headroom of the memory), so
      // that the Inference tab reproduces the row's figures.
      workload: {
        ...defaultWorkload,
        ...customGpuOf(candidate.gpu, inputs.plan),  // a custom kind's figures travel with its row
        gpu: candidate.gpu,
        tp: String(candidate.tp),
        pp: String(candidate.pp),
        ep: String(candidate.ep),
        weights: candidate.weights,
        kv_dtype: candidate.kv_dtype,
        batch: String(candidate.batch),
        prompt_len: String(request?.prompt_len ?? defaultWorkload.prompt_len),
        gen_len: String(request?.gen_len ?? defaultWorkload.gen_len),
        gpu_memory_utilization: String(Number((1 - (request?.headroom ?? 0.1)).toFixed(6))),
      },
    });
    top.current?.scrollIntoView?.({ block: 'start' });
  };
  const loadTrainingPlan = (candidate: TrainingPlanCandidate) => {
    const request = trainingPlanState.report?.request;
    if (!request) return;
    update({ mode: 'training', training: trainingInputsOf(candidate, request, inputs.trainingPlan) });
    top.current?.scrollIntoView?.({ block: 'start' });
  };

  return (
    <main class={compact ? 'page embed' : 'page'} ref={top}>
      {!compact && (
        <header class="masthead">
          <h1>fitcheck</h1>
          <p>Memory, speed and cost of serving or training any Hugging Face model: exact parameters, what fits on which GPU, and the best serving layouts, computed in your browser.</p>
        </header>
      )}
      <div class="toolbar">
        <ModeTabs mode={mode} onMode={(next) => update({ mode: next })} onIntent={preloadTab} />
        <UnitToggle unit={unit} onUnit={(next) => update({ unit: next })} />
        <div class="actions">
          {persist && <CopyButton label="Copy link" testId="copy-link" text={url.link} />}
          {embed && (
            <a href={linkNow} target="_blank" rel="noopener" data-testid="open-full">
              Open full page
            </a>
          )}
          {current && mode !== 'plan' && (
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
      <div class={mode === 'plan' ? 'layout wide-results' : 'layout'}>
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
          {mode === 'inference' && <WorkloadForm workload={workload} gpus={gpus} formats={formats} error={inferenceError} resolvedContext={inference?.workload.context} onChange={(next) => update({ workload: next })} />}
          {mode === 'training' && <TrainingForm training={inputs.training} gpus={gpus} error={trainingError} resolvedDp={training?.parallel.dp} time={training?.time} onChange={(next) => update({ training: next })} />}
          {mode === 'plan' && <PlanForm plan={inputs.plan} gpus={gpus} formats={formats} error={planState.error} usedWeights={planState.report?.request.weights} onChange={(next) => update({ plan: next })} kind={inputs.trainingPlan.kind} onKind={(kind) => update({ trainingPlan: { ...inputs.trainingPlan, kind } })} trainingForm={<TrainingPlanForm plan={inputs.trainingPlan} gpus={gpus} error={trainingPlanState.error} onChange={(next) => update({ trainingPlan: next })} />} />}
        </div>
        <section class="results" id="results" role="tabpanel" aria-labelledby={`tab-${mode}`} aria-live="polite" data-testid="results">
          {loadError && (
            <p class="error" role="alert">
              {loadError}
            </p>
          )}
          {(!core || !url.inputs || (mode === 'training' && !full.core)) && !loadError && <p class="muted">Loading the calculator…</p>}
          {configError && (
            <p class="muted" data-testid="results-blocked">
              The results appear once the config reads correctly (see the message beside it).
            </p>
          )}
          {mode === 'inference' && inferenceError && params && (
            <p class="muted" data-testid="inference-blocked">
              Memory appears once the workload is valid: {inferenceError.message}
            </p>
          )}
          {mode === 'training' && trainingError && params && (
            <p class="muted" data-testid="training-blocked">
              Training memory appears once the run is valid: {trainingError.message}
            </p>
          )}
          {mode === 'inference' && inference && (
            <InferenceResults report={inference} pending={inferenceState.pending} lastFull={inferenceState.lastFull} pendingGpu={gpus.find((g) => g.id === workload.gpu)?.name} unit={unit} formats={formats} gpu={gpu} latencyGpu={latencyGpu} byContext={byContext} byBatch={byBatch} />
          )}
          {mode === 'training' && training && <TrainingPanel report={training} unit={unit} />}
          {mode === 'training' && <ClassicCalculator />}
          {mode === 'plan' && params && (trainingPlanning ? <TrainingPlanResults state={trainingPlanState} unit={unit} onLoad={loadTrainingPlan} /> : <PlanResults state={planState} unit={unit} onLoad={loadPlan} />)}
          {pinned && mode !== 'plan' && <ComparePanel pinned={pinned} current={inferenceState.pending && mode === 'inference' ? undefined : current} unit={unit} training={mode === 'training'} onUnpin={() => setPinned(undefined)} />}
          {params && (
            <>
              <ParameterTable report={params} />
              <WeightMemory report={params} formats={formatsTable ? weightFormatsTable(formatsTable, unit) : undefined} onWantFormats={mode === 'inference' ? () => setWantFormats(true) : undefined} />
              {detailsReady && <ExportSection mode={mode} reports={{ params, inference, training, plan: planReport, trainingPlan: trainingPlanning && !trainingPlanState.error ? trainingPlanState.report : undefined }} unit={unit} formats={formats} gpu={gpu} extra={exportExtra} />}
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
