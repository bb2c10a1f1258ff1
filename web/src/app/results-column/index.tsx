// SPDX-License-Identifier: MIT
// The results of the tab shown (or why there are none yet), the comparison with a pinned result,
// then the model's own tables, the export and the notes.
import type { PlanCandidate, TrainingPlanCandidate } from '../../core/types';
import type { Snapshot } from '../../compare/snapshot';
import { ComparePanel } from '../../compare/lazy';
import { ExportSection } from '../../export/lazy';
import { InferenceResults } from '../../inference/inference-results';
import { LocalResults } from '../../local/lazy';
import { ParameterTable } from '../../model/parameter-table';
import { WeightMemory } from '../../model/weight-memory';
import { PlanResults, TrainingPlanResults } from '../../plan/lazy';
import { ClassicCalculator, TrainingPanel } from '../../training/lazy';
import { Notes } from '../../ui/notes';
import type { CalculatorState } from '../use-calculator';

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
  } = calculator;
  const { unit, mode } = inputs;
  const { params, error: configError } = model;
  return (
    <section
      class="results"
      id="results"
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
        <InferenceResults
          report={inference.state.report}
          pending={inference.state.pending}
          lastFull={inference.state.lastFull}
          pendingGpu={inference.pendingGpu}
          unit={unit}
          formats={formats}
          gpu={inference.gpu}
          latencyGpu={inference.latencyGpu}
          byContext={inference.byContext}
          byBatch={inference.byBatch}
        />
      )}
      {mode === 'training' && training.report && <TrainingPanel report={training.report} unit={unit} />}
      {mode === 'local' && local.error && params && (
        <p class="muted" data-testid="local-blocked">
          The placement appears once the settings are valid: {local.error.message}
        </p>
      )}
      {mode === 'local' && local.report && <LocalResults report={local.report} unit={unit} />}
      {mode === 'training' && <ClassicCalculator />}
      {mode === 'plan' &&
        params &&
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
          <ParameterTable report={params} />
          <WeightMemory
            report={params}
            formats={weightFormats.table}
            onWantFormats={mode === 'inference' ? weightFormats.want : undefined}
          />
          {detailsReady && (
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
            />
          )}
          <Notes lines={notes} />
        </>
      )}
    </section>
  );
}
