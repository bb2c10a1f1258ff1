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
import { lazyComponent } from '../../ui/lazy';
import { Summary } from '../summary';
import { Toolbar } from '../toolbar';
import { modelLabel } from '../../model/model-source';
import { useCalculator } from '../use-calculator';

/** full: the whole calculator; compact: the verdict and the memory table alone (the custom element's view="compact"). */
export type View = 'full' | 'compact';

export interface AppProps {
  /** Compact, without page chrome; reports its height to the parent frame. */
  embed?: boolean;
  /** Without page chrome (the custom element). */
  compact?: boolean;
  /** Keep the inputs in the location hash (off for the custom element). */
  persist?: boolean;
  initialPreset?: string;
  initialMode?: Mode;
  view?: View;
}

// Only the custom element's view="compact" draws it: a chunk of its own, not in the page's first load.
const CompactView = lazyComponent(() => import('../compact-view').then((m) => m.CompactView));

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

function Calculator({
  embed = false,
  compact = embed,
  persist = true,
  initialPreset,
  initialMode,
  view = 'full',
}: AppProps) {
  const calculator = useCalculator({ embed, persist, initialPreset, initialMode });
  if (view === 'compact') {
    return (
      <main class="page embed">
        <CompactView calculator={calculator} />
      </main>
    );
  }
  return <FullView calculator={calculator} embed={embed} compact={compact} persist={persist} />;
}

interface FullViewProps {
  calculator: ReturnType<typeof useCalculator>;
  embed: boolean;
  compact: boolean;
  persist: boolean;
}

function FullView({ calculator, embed, compact, persist }: FullViewProps) {
  const { url, inputs, update, plan, current, openLink } = calculator;
  const { unit, mode } = inputs;
  const [pinned, setPinned] = useState<Snapshot>();
  const top = useRef<HTMLElement>(null);
  const summaryReport = calculator.inference.state.report ?? calculator.lastGood.inference;
  const summaryParams = calculator.model.params ?? calculator.lastGood.params;
  // The location hash holds the inputs: in-page links move focus themselves and leave it alone.
  const toResults = (event: Event) => {
    event.preventDefault();
    const results = top.current?.querySelector<HTMLElement>('#results');
    results?.focus();
    results?.scrollIntoView?.({ block: 'start' });
  };
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
      <a class="skip-link" href="#results" data-testid="skip-link" onClick={toResults}>
        Skip to the results
      </a>
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
      {mode === 'inference' && !calculator.loading && summaryReport && summaryParams && (
        <Summary
          model={modelLabel(inputs, summaryParams.model_type)}
          report={summaryReport}
          unit={unit}
          stale={!calculator.inference.state.report}
          pendingGpu={calculator.inference.state.pending ? calculator.inference.pendingGpu : undefined}
          onDetails={toResults}
        />
      )}
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
