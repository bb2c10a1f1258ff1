// SPDX-License-Identifier: MIT
// A planner's best layouts and its frontier on log axes, x the cost (USD), y what the objective
// trades against it; shared by the serving and the training planner.
import { tickLabel } from '../../ui/format';
import { LogChart, type PointGroup } from '../../ui/log-chart';

export interface FrontierPoint {
  x: number;
  y: number;
  /** One line describing the layout; also how a best layout is matched to the frontier. */
  title: string;
}

interface Props<Candidate> {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  best: Candidate[];
  frontier: Candidate[];
  pointOf: (candidate: Candidate) => FrontierPoint;
}

export function FrontierChart<Candidate>({ id, title, xLabel, yLabel, best, frontier, pointOf }: Props<Candidate>) {
  const frontierPoints = frontier.map(pointOf);
  const onFrontier = new Set(frontierPoints.map((p) => p.title));
  const groups: PointGroup[] = [
    {
      name: 'Best layouts',
      className: 'series-best',
      shape: 'circle',
      points: best.map(pointOf).filter((p) => !onFrontier.has(p.title)),
    },
    {
      name: 'Frontier (no layout faster and cheaper)',
      className: 'series-frontier',
      shape: 'diamond',
      points: frontierPoints,
    },
  ];
  return (
    <LogChart
      id={id}
      title={title}
      xLabel={xLabel}
      yLabel={yLabel}
      groups={groups}
      lines={
        frontierPoints.length > 1 ? [{ name: 'Frontier', className: 'frontier-line', points: frontierPoints }] : []
      }
      formatX={(v) => `$${tickLabel(v)}`}
      formatY={tickLabel}
      description={`${title}. Frontier: ${frontierPoints.map((p) => p.title).join('. ')}`}
    />
  );
}
