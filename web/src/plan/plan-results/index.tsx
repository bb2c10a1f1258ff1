// SPDX-License-Identifier: MIT
// The planner's answer: progress while it searches, the best layouts (each loadable into the
// Inference tab), and the throughput-vs-cost frontier as a chart and a table.
import type { PlanCandidate } from '../../core/types';
import { layoutText, planBestTable, planFrontierTable } from '../plan-tables';
import { dollars, withThousands } from '../../ui/format';
import type { PlanState } from '../use-plan';
import type { ByteUnit } from '../../app/inputs';
import { FrontierChart } from '../frontier-chart';
import { PlanTable } from '../plan-table';
import { SweepStatus } from '../sweep-status';

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

export function PlanResults({ state, unit, onLoad }: Props) {
  const { report, error, running } = state;
  return (
    <section class="plan-results" aria-labelledby="plan-results-heading" data-testid="plan-results">
      <h2 id="plan-results-heading">Serving plans</h2>
      <SweepStatus prefix="plan" state={state} />
      {report && !error && (
        <div class={running ? 'stale' : undefined} aria-busy={running ? 'true' : 'false'}>
          <p data-testid="plan-summary">
            {withThousands(report.evaluated)} layouts evaluated on {report.request.gpus.length} GPU kind
            {report.request.gpus.length === 1 ? '' : 's'}; {withThousands(report.feasible)} fit the memory
            {report.request.ttft > 0 || report.request.tpot > 0 ? ' and the latency targets' : ''}. Click a row to open
            it in the Inference tab.
          </p>
          {report.best.length > 0 ? (
            <>
              <PlanTable table={planBestTable(report, unit)} candidates={report.best} onLoad={onLoad} />
              <FrontierChart
                id="plan-frontier-chart"
                title="Throughput vs cost"
                xLabel="USD per million output tokens (log)"
                yLabel="tokens/s per replica (log)"
                best={report.best}
                frontier={report.frontier}
                pointOf={pointOf}
              />
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
