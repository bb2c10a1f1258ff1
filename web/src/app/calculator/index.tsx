// SPDX-License-Identifier: MIT
// The calculator: toolbar, inputs beside results. Its state comes from useCalculator (each
// feature's hooks); this file draws it and turns clicks into input changes.
import { useRef, useState, useErrorBoundary } from 'preact/hooks';
import type { PlanCandidate, TrainingPlanCandidate } from '../../core/types';
import type { Snapshot } from '../../compare/compare-panel';
import { ComparePanel } from '../../compare/lazy';
import { ExportSection } from '../../export/lazy';
import { InferenceResults } from '../../inference/inference-results';
import { WorkloadForm } from '../../inference/workload-form';
import { ConfigInput } from '../../model/config-input';
import { ParameterTable } from '../../model/parameter-table';
import { presets } from '../../model/presets';
import { WeightMemory } from '../../model/weight-memory';
import { PlanForm, PlanResults, TrainingPlanForm, TrainingPlanResults } from '../../plan/lazy';
import { workloadOf } from '../../plan/load-inference';
import { trainingInputsOf } from '../../plan/load-training';
import { ClassicCalculator, TrainingForm, TrainingPanel } from '../../training/lazy';
import { CopyButton } from '../../ui/copy-button';
import { Notes } from '../../ui/notes';
import type { Mode } from '../inputs';
import { ModeTabs } from '../mode-tabs';
import { preloadTab } from '../preload-tab';
import { UnitToggle } from '../unit-toggle';
import { useCalculator } from '../use-calculator';

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
  const { url, inputs, update, gpus, formats, loadError, loading, model, detailsReady, inference, training, plan, weightFormats, current, notes, exportExtra, openLink } = useCalculator({ embed, persist, initialPreset, initialMode });
  const { workload, unit, mode } = inputs;
  const { configText, params, error: configError } = model;
  const [pinned, setPinned] = useState<Snapshot>();
  const top = useRef<HTMLElement>(null);
  const scrollToTop = () => top.current?.scrollIntoView?.({ block: 'start' });

  const loadPlan = (candidate: PlanCandidate) => {
    update({ mode: 'inference', workload: workloadOf(candidate, plan.serving.report?.request, inputs.plan) });
    scrollToTop();
  };
  const loadTrainingPlan = (candidate: TrainingPlanCandidate) => {
    const request = plan.trainingPlan.report?.request;
    if (!request) return;
    update({ mode: 'training', training: trainingInputsOf(candidate, request, inputs.trainingPlan) });
    scrollToTop();
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
            <a href={openLink} target="_blank" rel="noopener" data-testid="open-full">
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
          {mode === 'inference' && <WorkloadForm workload={workload} gpus={gpus} formats={formats} error={inference.state.error} resolvedContext={inference.state.report?.workload.context} onChange={(next) => update({ workload: next })} />}
          {mode === 'training' && <TrainingForm training={inputs.training} gpus={gpus} error={training.error} resolvedDp={training.report?.parallel.dp} time={training.report?.time} onChange={(next) => update({ training: next })} />}
          {mode === 'plan' && <PlanForm plan={inputs.plan} gpus={gpus} formats={formats} error={plan.serving.error} usedWeights={plan.serving.report?.request.weights} onChange={(next) => update({ plan: next })} kind={inputs.trainingPlan.kind} onKind={(kind) => update({ trainingPlan: { ...inputs.trainingPlan, kind } })} trainingForm={<TrainingPlanForm plan={inputs.trainingPlan} gpus={gpus} error={plan.trainingPlan.error} onChange={(next) => update({ trainingPlan: next })} />} />}
        </div>
        <section class="results" id="results" role="tabpanel" aria-labelledby={`tab-${mode}`} aria-live="polite" data-testid="results">
          {loadError && (
            <p class="error" role="alert">
              {loadError}
            </p>
          )}
          {loading && !loadError && <p class="muted">Loading the calculator…</p>}
          {configError && (
            <p class="muted" data-testid="results-blocked">
              The results appear once the config reads correctly (see the message beside it).
            </p>
          )}
          {mode === 'inference' && inference.state.error && params && (
            <p class="muted" data-testid="inference-blocked">
              Memory appears once the workload is valid: {inference.state.error.message}
            </p>
          )}
          {mode === 'training' && training.error && params && (
            <p class="muted" data-testid="training-blocked">
              Training memory appears once the run is valid: {training.error.message}
            </p>
          )}
          {mode === 'inference' && inference.state.report && (
            <InferenceResults report={inference.state.report} pending={inference.state.pending} lastFull={inference.state.lastFull} pendingGpu={inference.pendingGpu} unit={unit} formats={formats} gpu={inference.gpu} latencyGpu={inference.latencyGpu} byContext={inference.byContext} byBatch={inference.byBatch} />
          )}
          {mode === 'training' && training.report && <TrainingPanel report={training.report} unit={unit} />}
          {mode === 'training' && <ClassicCalculator />}
          {mode === 'plan' && params && (plan.training ? <TrainingPlanResults state={plan.trainingPlan} unit={unit} onLoad={loadTrainingPlan} /> : <PlanResults state={plan.serving} unit={unit} onLoad={loadPlan} />)}
          {pinned && mode !== 'plan' && <ComparePanel pinned={pinned} current={inference.state.pending && mode === 'inference' ? undefined : current} unit={unit} training={mode === 'training'} onUnpin={() => setPinned(undefined)} />}
          {params && (
            <>
              <ParameterTable report={params} />
              <WeightMemory report={params} formats={weightFormats.table} onWantFormats={mode === 'inference' ? weightFormats.want : undefined} />
              {detailsReady && <ExportSection mode={mode} reports={{ params, inference: inference.state.report, training: training.report, plan: plan.servingReport, trainingPlan: plan.trainingPlanReport }} unit={unit} formats={formats} gpu={inference.gpu} extra={exportExtra} />}
              <Notes lines={notes} />
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
