// SPDX-License-Identifier: MIT
// The planner's answer: progress while it searches, the best layouts (each loadable into the
// Inference tab), and the throughput-vs-cost frontier as a chart and a table.
import type { PlanCandidate, PlanReport } from '../core/types';
import { layoutText, planBestTable, planFrontierTable } from '../export/plan-tables';
import { dollars, tickLabel, withThousands } from '../format';
import type { PlanState } from '../hooks/use-plan';
import type { ByteUnit } from '../state/inputs';
import { LogChart, type PointGroup } from './LogChart';
import { PlanTable } from './PlanTable';
import { SweepStatus } from './SweepStatus';

interface Props {
  state: PlanState;
  unit: ByteUnit;
  onLoad: (candidate: PlanCandidate) => void;
}

function pointOf(candidate: PlanCandidate) {
  return {
    x: candidate.cost_per_million_output_tokens_usd,
    y: candidate.tokens_per_second,
    title: `${layoutText(candidate)}, ${candidate.weights}/${candidate.kv_dtype}, batch ${candidate.batch}: ${withThousands(candidate.tokens_per_second)} tokens/s at ${dollars(candidate.cost_per_million_output_tokens_usd)} USD per million output tokens`,
  };
}

function FrontierChart({ report }: { report: PlanReport }) {
  const frontier = report.frontier.map(pointOf);
  const onFrontier = new Set(frontier.map((p) => p.title));
  const groups: PointGroup[] = [
    { name: 'Best layouts', className: 'series-best', shape: 'circle', points: report.best.map(pointOf).filter((p) => !onFrontier.has(p.title)) },
    { name: 'Frontier (no layout faster and cheaper)', className: 'series-frontier', shape: 'diamond', points: frontier },
  ];
  return (
    <LogChart
      id="plan-frontier-chart"
      title="Throughput vs cost"
      xLabel="USD per million output tokens (log)"
      yLabel="tokens/s per replica (log)"
      groups={groups}
      lines={frontier.length > 1 ? [{ name: 'Frontier', className: 'frontier-line', points: frontier }] : []}
      formatX={(v) => `$${tickLabel(v)}`}
      formatY={tickLabel}
      description={`Throughput vs cost. Frontier: ${frontier.map((p) => p.title).join('. ')}`}
    />
  );
}

export function PlanResults({ state, unit, onLoad }: Props) {
  const { report, error, running } = state;
  return (
    <section class="plan-results" aria-labelledby="plan-results-heading" data-testid="plan-results">
      <h2 id="plan-results-heading">Serving plans</h2>
      <SweepStatus prefix="plan" state={state} />
      {report && !error && (
        <div class={running ? 'stale' : undefined} aria-busy={running ? 'true' : 'false'}>
          <p data-testid="plan-summary">
            {withThousands(report.evaluated)} layouts evaluated on {report.request.gpus.length} GPU kind{report.request.gpus.length === 1 ? '' : 's'}; {withThousands(report.feasible)} fit the memory
            {report.request.ttft > 0 || report.request.tpot > 0 ? ' and the latency targets' : ''}. Click a row to open it in the Inference tab.
          </p>
          {report.best.length > 0 ? (
            <>
              <PlanTable table={planBestTable(report, unit)} candidates={report.best} onLoad={onLoad} />
              <FrontierChart report={report} />
              <PlanTable table={planFrontierTable(report, unit)} candidates={report.frontier} onLoad={onLoad} />
            </>
          ) : (
            <p class="error" data-testid="plan-none">
              No layout fits these GPUs and targets. Allow more GPUs, smaller formats or looser targets.
            </p>
          )}
          {report.notes.length > 0 && (
            <ul class="notes-list">
              {report.notes.map((note) => (
                <li key={note} class="muted">
                  {note}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
