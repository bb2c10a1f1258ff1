// SPDX-License-Identifier: MIT
// The roofline picture (its geometry: roofline-model.ts): the operations of prefill and of a decode
// step under the GPU's roofs, the datasheet's and the one the estimate uses (datasheet x
// efficiencies), on which every point lands; and the same figures as a table.
import type { Accelerator, LatencyReport } from '../../core/types';
import { siUnit, significant, tickLabel } from '../../ui/format';
import { opLabel, phaseLabels, type OpPhase } from '../latency-tables';
import { LogChart } from '../../ui/log-chart';
import { plotted, rooflineModel } from '../roofline-model';

interface Props {
  latency: LatencyReport;
  gpu?: Accelerator;
}

export function Roofline({ latency, gpu }: Props) {
  const model = rooflineModel(latency, gpu);
  if (!model) return null;
  const phasesOf = (phase: OpPhase) => latency.lines.filter((line) => line.phase === phase);
  return (
    <LogChart
      id="roofline"
      title={`Roofline of one ${gpu?.name ?? 'GPU'}: operations of prefill and decode`}
      xLabel="arithmetic intensity, FLOP per byte (log)"
      yLabel="achieved FLOP/s per GPU (log)"
      groups={model.groups}
      lines={model.lines}
      xDomain={model.xDomain}
      yDomain={model.yDomain}
      formatX={tickLabel}
      formatY={tickLabel}
      description={model.description}
    >
      <p class="help">
        Operations with no FLOPs (embedding lookup) or timed on the links (collectives) have no place on this picture;
        norms run on the vector units, under a lower roof. The decode step at the end of generation sits beside the
        first one.
      </p>
      <details class="chart-data">
        <summary>
          Data<span class="visually-hidden"> of the roofline</span>
        </summary>
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Roofline: data">
          <table class="figures compact" data-testid="roofline-data">
            <thead>
              <tr>
                <th scope="col">Phase</th>
                <th scope="col">Operation</th>
                <th scope="col" class="number">
                  FLOP/B
                </th>
                <th scope="col" class="number">
                  FLOP/s
                </th>
                <th scope="col">Bound</th>
              </tr>
            </thead>
            <tbody>
              {plotted.flatMap(([phase]) =>
                phasesOf(phase).map((line) => (
                  <tr key={`${phase}-${line.op}`}>
                    <td>{phaseLabels[phase]}</td>
                    <th scope="row">{opLabel(line.op)}</th>
                    <td class="number">
                      {line.bytes > 0 && line.flops > 0 ? significant(line.flops / line.bytes, 3) : '–'}
                    </td>
                    <td class="number">
                      {line.seconds > 0 && line.flops > 0 ? siUnit(line.flops / line.seconds, 'FLOP/s') : '–'}
                    </td>
                    <td>{line.bound}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </details>
    </LogChart>
  );
}
