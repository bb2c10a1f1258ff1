// SPDX-License-Identifier: MIT
// The roofline picture: each operation of prefill and of a decode step placed by its arithmetic
// intensity (FLOPs per byte moved) and the FLOP/s it achieves in the core's estimate, under the
// GPU's roof: min(peak compute, intensity x memory bandwidth) (Williams, Waterman and Patterson,
// "Roofline", CACM 2009). Both roofs are drawn: the datasheet's and the one the estimate uses
// (datasheet x efficiencies), on which every point lands.
import type { Accelerator, LatencyReport } from '../../core/types';
import { siUnit, significant, tickLabel } from '../../ui/format';
import { boundLabel, opLabel, phaseLabels, type OpPhase } from '../latency-tables';
import { LogChart, type LogLine, type LogPoint, type PointGroup } from '../../ui/log-chart';

interface Props {
  latency: LatencyReport;
  gpu?: Accelerator;
}

const plotted: Array<[OpPhase, string, PointGroup['shape']]> = [
  ['prefill', 'series-prefill', 'circle'],
  ['decode_first', 'series-decode', 'square'],
];

function roof(flopsPerSecond: number, bytesPerSecond: number, low: number, high: number): Array<{ x: number; y: number }> {
  const ridge = flopsPerSecond / bytesPerSecond;
  const points = [{ x: low, y: Math.min(flopsPerSecond, low * bytesPerSecond) }];
  if (ridge > low && ridge < high) points.push({ x: ridge, y: flopsPerSecond });
  points.push({ x: high, y: Math.min(flopsPerSecond, high * bytesPerSecond) });
  return points;
}

export function Roofline({ latency, gpu }: Props) {
  const used = latency.assumptions_used;
  const groups: PointGroup[] = plotted.map(([phase, className, shape]) => {
    const dominant = latency.phases[phase].dominant_op;
    const points: LogPoint[] = latency.lines
      .filter((line) => line.phase === phase && line.flops > 0 && line.bytes > 0 && line.seconds > 0)
      .map((line) => {
        const intensity = line.flops / line.bytes;
        const achieved = line.flops / line.seconds;
        return {
          x: intensity,
          y: achieved,
          title: `${phaseLabels[phase]}, ${opLabel(line.op)}: ${significant(intensity, 3)} FLOP/B, ${siUnit(achieved, 'FLOP/s')}, ${boundLabel(line.bound)}`,
          label: line.op === dominant ? opLabel(line.op) : undefined,
        };
      });
    return { name: phase === 'prefill' ? 'Prefill operations' : 'Decode step operations (first step)', className, shape, points };
  });
  const all = groups.flatMap((g) => g.points);
  if (all.length === 0) return null;
  const peak = gpu?.dense_flops_per_second[used.matmul_dtype as keyof Accelerator['dense_flops_per_second']] ?? 0;
  const bandwidth = gpu?.memory_bandwidth_bytes_per_second ?? 0;
  const ridges = [used.matmul_flops_per_second / used.hbm_bytes_per_second, ...(peak && bandwidth ? [peak / bandwidth] : [])];
  const low = Math.min(...all.map((p) => p.x), ...ridges) / 4;
  const high = Math.max(...all.map((p) => p.x), ...ridges) * 4;
  const lines: LogLine[] = [];
  if (peak && bandwidth) {
    lines.push({ name: `Datasheet roof: ${siUnit(peak, 'FLOP/s')} ${used.matmul_dtype}, ${siUnit(bandwidth, 'B/s')}`, className: 'roof-peak', points: roof(peak, bandwidth, low, high) });
  }
  lines.push({
    name: `Roof the estimate uses (x ${used.flops_efficiency} compute, x ${used.hbm_efficiency} bandwidth)`,
    className: 'roof-used',
    points: roof(used.matmul_flops_per_second, used.hbm_bytes_per_second, low, high),
  });
  const ys = [...all.map((p) => p.y), peak || used.matmul_flops_per_second, low * Math.min(used.hbm_bytes_per_second, bandwidth || Infinity)];
  const phasesOf = (phase: OpPhase) => latency.lines.filter((line) => line.phase === phase);
  return (
    <LogChart
      id="roofline"
      title={`Roofline of one ${gpu?.name ?? 'GPU'}: operations of prefill and decode`}
      xLabel="arithmetic intensity, FLOP per byte (log)"
      yLabel="achieved FLOP/s per GPU (log)"
      groups={groups}
      lines={lines}
      xDomain={[low, high]}
      yDomain={[Math.min(...ys), Math.max(...ys)]}
      formatX={tickLabel}
      formatY={tickLabel}
      description={`Roofline. ${all.map((p) => p.title).join('. ')}`}
    >
      <p class="help">
        Operations with no FLOPs (embedding lookup) or timed on the links (collectives) have no place on this picture; norms run on the vector units, under a lower roof. The
        decode step at the end of generation sits beside the first one.
      </p>
      <details class="chart-data">
        <summary>Data</summary>
        <div class="table-scroll">
          <table class="figures compact" data-testid="roofline-data">
            <thead>
              <tr>
                <th scope="col">Phase</th>
                <th scope="col">Operation</th>
                <th scope="col" class="number">FLOP/B</th>
                <th scope="col" class="number">FLOP/s</th>
                <th scope="col">Bound</th>
              </tr>
            </thead>
            <tbody>
              {plotted.flatMap(([phase]) =>
                phasesOf(phase).map((line) => (
                  <tr key={`${phase}-${line.op}`}>
                    <td>{phaseLabels[phase]}</td>
                    <th scope="row">{opLabel(line.op)}</th>
                    <td class="number">{line.bytes > 0 && line.flops > 0 ? significant(line.flops / line.bytes, 3) : '–'}</td>
                    <td class="number">{line.seconds > 0 && line.flops > 0 ? siUnit(line.flops / line.seconds, 'FLOP/s') : '–'}</td>
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
