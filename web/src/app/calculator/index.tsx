// SPDX-License-Identifier: MIT
// The calculator: toolbar, inputs beside results. Its state comes from useCalculator (each
// feature's hooks); this component lays it out, keeps the pinned result, and opens a planner's
// row in its tab.
import { useRef, useState, useErrorBoundary } from 'preact/hooks';
import type { PlanCandidate, TrainingPlanCandidate } from '../../core/types';
import type { Snapshot } from '../../compare/snapshot';
import { workloadOf } from '../../plan/load-inference';
import { trainingInputsOf } from '../../plan/load-training';
import type { Mode } from '../inputs';
import { InputsColumn } from '../inputs-column';
import { ResultsColumn } from '../results-column';
import { Toolbar } from '../toolbar';
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
  const calculator = useCalculator({ embed, persist, initialPreset, initialMode });
  const { url, inputs, update, plan, current, openLink } = calculator;
  const { unit, mode } = inputs;
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
          <p>
            Memory, speed and cost of serving or training any Hugging Face model: exact parameters, what fits on which
            GPU, and the best serving layouts, computed in your browser.
          </p>
        </header>
      )}
      <Toolbar
        mode={mode}
        unit={unit}
        onMode={(next) => update({ mode: next })}
        onUnit={(next) => update({ unit: next })}
        copyLink={persist ? url.link : undefined}
        openLink={embed ? openLink : undefined}
        onPin={current && mode !== 'plan' && mode !== 'local' ? () => setPinned(current) : undefined}
        pinned={Boolean(pinned)}
      />
      {url.problem && (
        <p class="error" role="alert">
          {url.problem}
        </p>
      )}
      <div class={mode === 'plan' ? 'layout wide-results' : 'layout'}>
        <InputsColumn calculator={calculator} />
        <ResultsColumn
          calculator={calculator}
          pinned={pinned}
          onUnpin={() => setPinned(undefined)}
          onLoadPlan={loadPlan}
          onLoadTrainingPlan={loadTrainingPlan}
        />
      </div>
      {!compact && (
        <footer class="footer">
          <p>
            Every figure comes from fitcheck's C++ core, compiled to WebAssembly; open a figure's ƒ to see its formula
            with your numbers. Nothing you type leaves this page.
          </p>
        </footer>
      )}
    </main>
  );
}
