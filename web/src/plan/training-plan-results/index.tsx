// SPDX-License-Identifier: MIT
// The training planner's answer: progress while it searches, the best layouts (each loadable into
// the Training tab), and the time-to-train vs cost frontier as a chart and a table.
import type { TrainingPlanCandidate } from '../../core/types';
import {
  trainDays,
  trainingLayoutText,
  trainingPlanBestTable,
  trainingPlanFrontierTable,
  trainingPlanTextColumns,
} from '../training-plan-tables';
import { dollars, figureText, withThousands } from '../../ui/format';
import type { TrainingPlanState } from '../use-training-plan';
import type { ByteUnit } from '../../app/inputs';
import { FrontierChart } from '../frontier-chart';
import { PlanTable } from '../plan-table';
import { SweepStatus } from '../sweep-status';

interface Props {
  state: TrainingPlanState;
  unit: ByteUnit;
  onLoad: (candidate: TrainingPlanCandidate) => void;
}

function pointOf(c: TrainingPlanCandidate) {
  return {
    x: c.train_cost_usd,
    y: trainDays(c),
    title: `${trainingLayoutText(c)}, ZeRO ${c.zero}, micro-batch ${c.micro_batch} × ${c.micro_batches}, recompute ${c.recompute}: ${figureText(trainDays(c))} days for ${dollars(c.train_cost_usd)} USD`,
  };
}

export function TrainingPlanResults({ state, unit, onLoad }: Props) {
  const { report, error, running } = state;
  return (
    <section class="plan-results" aria-labelledby="tplan-results-heading" data-testid="tplan-results">
      <h2 id="tplan-results-heading">Training plans</h2>
      <SweepStatus prefix="tplan" state={state} />
      {report && !error && (
        <div class={running ? 'stale' : undefined} aria-busy={running ? 'true' : 'false'}>
          <p data-testid="tplan-summary">
            {withThousands(report.evaluated)} layouts evaluated on {report.request.gpus.length} GPU kind
            {report.request.gpus.length === 1 ? '' : 's'}; {withThousands(report.feasible)} fit the memory. Click a row
            to open it in the Training tab.
          </p>
          {report.best.length > 0 ? (
            <>
              <PlanTable
                table={trainingPlanBestTable(report, unit)}
                candidates={report.best}
                onLoad={onLoad}
                textColumns={trainingPlanTextColumns}
                target="Training"
              />
              <FrontierChart
                id="tplan-frontier-chart"
                title="Time to train vs cost"
                xLabel="USD to train (log)"
                yLabel="days to train (log)"
                best={report.best}
                frontier={report.frontier}
                pointOf={pointOf}
              />
              <PlanTable
                table={trainingPlanFrontierTable(report, unit)}
                candidates={report.frontier}
                onLoad={onLoad}
                textColumns={trainingPlanTextColumns}
                target="Training"
              />
            </>
          ) : (
            <p class="error" data-testid="tplan-none">
              No training layout fits these GPUs. Allow more GPUs, smaller micro-batches, ZeRO-3 or recomputation.
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
