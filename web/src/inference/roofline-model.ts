// SPDX-License-Identifier: MIT
// The roofline picture's geometry: each operation of prefill and of a decode step placed by its
// arithmetic intensity (FLOPs per byte moved) and the FLOP/s it achieves in the core's estimate,
// and the GPU's roofs, min(peak compute, intensity x memory bandwidth) (Williams, Waterman and
// Patterson, "Roofline", CACM 2009): the datasheet's and the one the estimate uses.
import type { Accelerator, LatencyReport } from '../core/types';
import { siUnit, significant } from '../ui/format';
import type { LogLine, LogPoint, PointGroup } from '../ui/log-chart';
import { boundLabel, opLabel, phaseLabels, type OpPhase } from './latency-tables';

export interface RooflineModel {
  groups: PointGroup[];
  lines: LogLine[];
  xDomain: [number, number];
  yDomain: [number, number];
  /** Every point's description, for the chart's text alternative. */
  description: string;
}

export const plotted: Array<[OpPhase, string, PointGroup['shape']]> = [
  ['prefill', 'series-prefill', 'circle'],
  ['decode_first', 'series-decode', 'square'],
];

function roof(
  flopsPerSecond: number,
  bytesPerSecond: number,
  low: number,
  high: number,
): Array<{ x: number; y: number }> {
  const ridge = flopsPerSecond / bytesPerSecond;
  const points = [{ x: low, y: Math.min(flopsPerSecond, low * bytesPerSecond) }];
  if (ridge > low && ridge < high) points.push({ x: ridge, y: flopsPerSecond });
  points.push({ x: high, y: Math.min(flopsPerSecond, high * bytesPerSecond) });
  return points;
}

/** Undefined when no operation has FLOPs, bytes and time to place it. */
export function rooflineModel(latency: LatencyReport, gpu?: Accelerator): RooflineModel | undefined {
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
    return {
      name: phase === 'prefill' ? 'Prefill operations' : 'Decode step operations (first step)',
      className,
      shape,
      points,
    };
  });
  const all = groups.flatMap((g) => g.points);
  if (all.length === 0) return undefined;
  const peak = gpu?.dense_flops_per_second[used.matmul_dtype as keyof Accelerator['dense_flops_per_second']] ?? 0;
  const bandwidth = gpu?.memory_bandwidth_bytes_per_second ?? 0;
  const ridges = [
    used.matmul_flops_per_second / used.hbm_bytes_per_second,
    ...(peak && bandwidth ? [peak / bandwidth] : []),
  ];
  const low = Math.min(...all.map((p) => p.x), ...ridges) / 4;
  const high = Math.max(...all.map((p) => p.x), ...ridges) * 4;
  const lines: LogLine[] = [];
  if (peak && bandwidth) {
    lines.push({
      name: `Datasheet roof: ${siUnit(peak, 'FLOP/s')} ${used.matmul_dtype}, ${siUnit(bandwidth, 'B/s')}`,
      className: 'roof-peak',
      points: roof(peak, bandwidth, low, high),
    });
  }
  lines.push({
    name: `Roof the estimate uses (x ${used.flops_efficiency} compute, x ${used.hbm_efficiency} bandwidth)`,
    className: 'roof-used',
    points: roof(used.matmul_flops_per_second, used.hbm_bytes_per_second, low, high),
  });
  const ys = [
    ...all.map((p) => p.y),
    peak || used.matmul_flops_per_second,
    low * Math.min(used.hbm_bytes_per_second, bandwidth || Infinity),
  ];
  return {
    groups,
    lines,
    xDomain: [low, high],
    yDomain: [Math.min(...ys), Math.max(...ys)],
    description: `Roofline. ${all.map((p) => p.title).join('. ')}`,
  };
}
