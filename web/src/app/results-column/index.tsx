// SPDX-License-Identifier: MIT
// The results of the tab shown (or why there are none yet), the comparison with a pinned result,
// then the model's own tables, the export and the notes.
import type { ComponentChildren } from 'preact';
import type { PlanCandidate, TrainingPlanCandidate } from '../../core/types';
import type { Snapshot } from '../../compare/snapshot';
import { ComparePanel } from '../../compare/lazy';
import { ExportSection } from '../../export/lazy';
import { InferenceResults } from '../../inference/inference-results';
import { LocalResults } from '../../local/lazy';
import { ParameterTable } from '../../model/parameter-table';
import { WeightMemory as WeightMemoryNow } from '../../model/weight-memory';
import { PlanResults, TrainingPlanResults } from '../../plan/lazy';
import { ServingLoad } from '../../serving/lazy';
import { ClassicCalculator, TrainingPanel } from '../../training/lazy';
import { Notes } from '../../ui/notes';
import type { CalculatorState } from '../use-calculator';
import { afterPaint } from '../../ui/after-paint';

// Below the first screen: an edit redraws it in the task after its first paint (after-paint.ts).
const WeightMemory = afterPaint(WeightMemoryNow);

interface Props {
  calculator: CalculatorState;
  pinned?: Snapshot;
  onUnpin: () => void;
  onLoadPlan: (candidate: PlanCandidate) => void;
  onLoadTrainingPlan: (candidate: TrainingPlanCandidate) => void;
}

export function ResultsColumn({ calculator, pinned, onUnpin, onLoadPlan, onLoadTrainingPlan }: Props) {
  const {
    inputs,
    formats,
    loadError,
    loading,
    model,
    detailsReady,
    inference,
    training,
    plan,
    local,
    weightFormats,
    current,
    notes,
    exportExtra,
    lastGood,
  } = calculator;
  const { unit, mode } = inputs;
  const { params: freshParams, error: configError } = model;
  // While an input does not read, the last valid results stay in place, dimmed, with the message
  // at the field: a keystroke never empties the column.
  const params = freshParams ?? (configError ? lastGood.params : undefined);
  const inferenceReport =
    inference.state.report ?? (inference.state.error || configError ? lastGood.inference : undefined);
  const trainingReport = training.report ?? (training.error || configError ? lastGood.training : undefined);
  const staleInference = !inference.state.report;
  const staleTraining = !training.report;
  return (
    <section
      class="results"
      id="results"
      tabIndex={-1}
      role="tabpanel"
      aria-labelledby={`tab-${mode}`}
      aria-live="polite"
      data-testid="results"
    >
      {loadError && (
        <p class="error" role="alert">
          {loadError}
        </p>
      )}
      {loading && !loadError && <p class="muted">Loading the calculator…</p>}
      {configError && (
        <p class="muted" data-testid="results-blocked">
          {params
            ? 'The results below (dimmed) are those of the last config that read; they follow again once the config reads correctly (see the message beside it).'
            : 'The results appear once the config reads correctly (see the message beside it).'}
        </p>
      )}
      {mode === 'inference' && inference.state.error && freshParams && (
        <p class="muted" data-testid="inference-blocked">
          {inferenceReport
            ? 'Showing the last valid results, dimmed, until the workload is valid: '
            : 'Memory appears once the workload is valid: '}
          {inference.state.error.message}
        </p>
      )}
      {mode === 'training' && training.error && freshParams && (
        <p class="muted" data-testid="training-blocked">
          {trainingReport
            ? 'Showing the last valid run, dimmed, until the run is valid: '
            : 'Training memory appears once the run is valid: '}
          {training.error.message}
        </p>
      )}
      {mode === 'inference' && inferenceReport && (
        <Stale when={staleInference}>
          <InferenceResults
            report={inferenceReport}
            pending={!staleInference && inference.state.pending}
            lastFull={inference.state.lastFull}
            pendingGpu={inference.pendingGpu}
            unit={unit}
            formats={formats}
            gpu={inference.gpu}
            latencyGpu={inference.latencyGpu}
            byContext={staleInference ? lastGood.byContext : inference.byContext}
            byBatch={staleInference ? lastGood.byBatch : inference.byBatch}
            opsPhase={inputs.opsPhase}
            onOpsPhase={(opsPhase) => calculator.update({ opsPhase })}
            onFitChange={(options) => calculator.update({ workload: { ...inputs.workload, ...options } })}
          />
        </Stale>
      )}
      {mode === 'inference' && detailsReady && inferenceReport && inputs.workload.gpu.trim() !== '' && (
        // Kept in place while a GPU's fit is recomputed (the pending report has no GPU), so its
        // worker and figures stay.
        <ServingLoad
          configText={model.coreText}
          workload={inputs.workload}
          load={inputs.load}
          onLoad={(load) => calculator.update({ load })}
          hypothetical={(inference.state.pending ? inference.state.lastFull : inferenceReport)?.fits === false}
        />
      )}
      {mode === 'training' && trainingReport && (
        <Stale when={staleTraining}>
          <TrainingPanel report={trainingReport} unit={unit} />
        </Stale>
      )}
      {mode === 'local' && local.error && params && (
        <p class="muted" data-testid="local-blocked">
          The placement appears once the settings are valid: {local.error.message}
        </p>
      )}
      {mode === 'local' && local.report && (
        <LocalResults
          report={local.report}
          unit={unit}
          formats={local.formats}
          formatsError={local.formatsError?.message}
          onCompareFormats={local.compareFormats}
          onUseWeights={(weights) => calculator.update({ local: { ...inputs.local, weights } })}
        />
      )}
      {mode === 'training' && <ClassicCalculator />}
      {mode === 'plan' &&
        freshParams &&
        (plan.training ? (
          <TrainingPlanResults state={plan.trainingPlan} unit={unit} onLoad={onLoadTrainingPlan} />
        ) : (
          <PlanResults state={plan.serving} unit={unit} onLoad={onLoadPlan} />
        ))}
      {pinned && mode !== 'plan' && mode !== 'local' && (
        <ComparePanel
          pinned={pinned}
          current={inference.state.pending && mode === 'inference' ? undefined : current}
          unit={unit}
          training={mode === 'training'}
          onUnpin={onUnpin}
        />
      )}
      {params && (
        <>
          <Stale when={!freshParams}>
            <ParameterTable report={params} />
            <WeightMemory
              report={params}
              formats={weightFormats.table}
              onWantFormats={mode === 'inference' ? weightFormats.want : undefined}
            />
          </Stale>
          {detailsReady && freshParams && (
            <ExportSection
              mode={mode}
              reports={{
                params,
                inference: inference.state.report,
                training: training.report,
                plan: plan.servingReport,
                trainingPlan: plan.trainingPlanReport,
              }}
              unit={unit}
              formats={formats}
              gpu={inference.gpu}
              extra={exportExtra}
              link={calculator.shareLink}
            />
          )}
          <Notes lines={notes} />
        </>
      )}
    </section>
  );
}

/** The last valid results, dimmed and marked busy, while an input does not read. */
function Stale({ when, children }: { when: boolean; children: ComponentChildren }) {
  if (!when) return <>{children}</>;
  return (
    <div class="stale" data-testid="stale-results" aria-busy="true">
      {children}
    </div>
  );
}
