// SPDX-License-Identifier: MIT
// A chart with logarithmic axes in SVG (d3-scale places; Preact draws): point groups drawn as
// marks, and lines (a roofline, a frontier). Each point has a title; the caller adds a data table.
import { scaleLog } from 'd3-scale';
import type { ComponentChildren } from 'preact';
import { useElementWidth } from '../use-element-width';

export interface LogPoint {
  x: number;
  y: number;
  title: string;
  /** Short text drawn beside the mark. */
  label?: string;
}

export interface PointGroup {
  name: string;
  className: string;
  shape: 'circle' | 'square' | 'diamond';
  points: LogPoint[];
}

export interface LogLine {
  name: string;
  className: string;
  points: Array<{ x: number; y: number }>;
  /** Text at the line's end (or at `labelAt`). */
  label?: string;
  labelAt?: { x: number; y: number };
}

interface Props {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  groups: PointGroup[];
  lines?: LogLine[];
  /** Extends the axes to include these values. */
  xDomain?: [number, number];
  yDomain?: [number, number];
  formatX: (x: number) => string;
  formatY: (y: number) => string;
  description: string;
  children?: ComponentChildren;
}

const margin = { top: 16, right: 16, bottom: 42, left: 70 };

/** Powers of ten in [low, high]; 1-2-5 steps when fewer than three decades fit. */
function logTicks(low: number, high: number, maxTicks: number): number[] {
  const first = Math.floor(Math.log10(low));
  const last = Math.ceil(Math.log10(high));
  const inside = (t: number) => t >= low * (1 - 1e-9) && t <= high * (1 + 1e-9);
  let ticks: number[] = [];
  for (let e = first; e <= last; ++e) ticks.push(10 ** e);
  ticks = ticks.filter(inside);
  if (ticks.length < 3) {
    const fine: number[] = [];
    for (let e = first; e <= last; ++e) for (const m of [1, 2, 5]) fine.push(m * 10 ** e);
    ticks = fine.filter(inside);
  }
  if (ticks.length <= maxTicks) return ticks;
  const step = Math.ceil(ticks.length / maxTicks);
  return ticks.filter((_, i) => i % step === 0);
}

function mark(shape: PointGroup['shape'], cx: number, cy: number) {
  if (shape === 'square') return <rect x={cx - 3.5} y={cy - 3.5} width="7" height="7" />;
  if (shape === 'diamond') return <path d={`M${cx},${cy - 5}L${cx + 5},${cy}L${cx},${cy + 5}L${cx - 5},${cy}Z`} />;
  return <circle cx={cx} cy={cy} r="4" />;
}

export function LogChart({
  id,
  title,
  xLabel,
  yLabel,
  groups,
  lines = [],
  xDomain,
  yDomain,
  formatX,
  formatY,
  description,
  children,
}: Props) {
  const [box, width] = useElementWidth<HTMLDivElement>(560);
  const height = Math.round(Math.min(340, Math.max(230, width * 0.55)));
  // Only points a log scale can place: a figure that is missing (null), infinite or not positive is
  // left out rather than drawn at NaN (the core refuses inputs that make figures infinite; this
  // keeps the chart alive whatever a report holds).
  const drawable = (p: { x: number | null; y: number | null }): p is { x: number; y: number } =>
    typeof p.x === 'number' &&
    typeof p.y === 'number' &&
    Number.isFinite(p.x) &&
    Number.isFinite(p.y) &&
    p.x > 0 &&
    p.y > 0;
  const points = groups.flatMap((g) => g.points).filter(drawable);
  const xs = [...points.map((p) => p.x), ...(xDomain ?? [])];
  const ys = [...points.map((p) => p.y), ...(yDomain ?? [])];
  if (xs.length < 1 || ys.length < 1) return null;
  const pad = (low: number, high: number): [number, number] =>
    low === high ? [low / 2, high * 2] : [low / 1.6, high * 1.6];
  const x = scaleLog()
    .domain(pad(Math.min(...xs), Math.max(...xs)))
    .range([margin.left, width - margin.right])
    .clamp(true);
  const y = scaleLog()
    .domain(pad(Math.min(...ys), Math.max(...ys)))
    .range([height - margin.bottom, margin.top])
    .clamp(true);
  const [x0, x1] = x.domain();
  const [y0, y1] = y.domain();
  const xTicks = logTicks(x0, x1, Math.max(3, Math.floor((width - margin.left - margin.right) / 60)));
  const yTicks = logTicks(y0, y1, 7);
  const path = (list: Array<{ x: number; y: number }>) =>
    list
      .filter(drawable)
      .map((p, i) => `${i ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`)
      .join('');
  return (
    <figure class="log-chart" data-testid={id}>
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-box">
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-desc`}>
          <desc id={`${id}-desc`}>{description}</desc>
          <defs>
            <clipPath id={`${id}-clip`}>
              <rect
                x={margin.left}
                y={margin.top}
                width={Math.max(0, width - margin.left - margin.right)}
                height={Math.max(0, height - margin.top - margin.bottom)}
              />
            </clipPath>
          </defs>
          {yTicks.map((t) => (
            <g key={`y${t}`}>
              <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} class="grid-line" />
              <text x={margin.left - 6} y={y(t) + 4} text-anchor="end" class="tick">
                {formatY(t)}
              </text>
            </g>
          ))}
          {xTicks.map((t) => (
            <g key={`x${t}`}>
              <line x1={x(t)} x2={x(t)} y1={margin.top} y2={height - margin.bottom} class="grid-line" />
              <text
                x={x(t)}
                y={height - margin.bottom + 16}
                text-anchor={x(t) > width - margin.right - 20 ? 'end' : 'middle'}
                class="tick"
              >
                {formatX(t)}
              </text>
            </g>
          ))}
          <text x={(margin.left + width - margin.right) / 2} y={height - 6} text-anchor="middle" class="axis-label">
            {xLabel}
          </text>
          <text
            transform={`translate(12 ${(margin.top + height - margin.bottom) / 2}) rotate(-90)`}
            text-anchor="middle"
            class="axis-label"
          >
            {yLabel}
          </text>
          <g clip-path={`url(#${id}-clip)`}>
            {lines.map((line) => (
              <path key={line.name} d={path(line.points)} class={`chart-line ${line.className}`} />
            ))}
          </g>
          {lines
            .filter((line) => line.label)
            .map((line) => {
              const at = line.labelAt ?? line.points[line.points.length - 1];
              return (
                <text
                  key={`${line.name}-label`}
                  x={Math.min(x(at.x), width - margin.right)}
                  y={y(at.y) - 6}
                  text-anchor="end"
                  class={`line-label ${line.className}`}
                >
                  {line.label}
                </text>
              );
            })}
          {groups.map((group) => (
            <g key={group.name} class={`mark-group ${group.className}`}>
              {group.points
                .filter((p) => p.x > 0 && p.y > 0)
                .map((p) => (
                  <g key={p.title}>
                    {mark(group.shape, x(p.x), y(p.y))}
                    <title>{p.title}</title>
                    {p.label && (
                      <text
                        x={x(p.x) + (x(p.x) > width - margin.right - 90 ? -8 : 8)}
                        y={y(p.y) + 4}
                        text-anchor={x(p.x) > width - margin.right - 90 ? 'end' : 'start'}
                        class="mark-label"
                      >
                        {p.label}
                      </text>
                    )}
                  </g>
                ))}
            </g>
          ))}
        </svg>
      </div>
      <ul class="legend">
        {groups.map((group) => (
          <li key={group.name}>
            <svg class="legend-mark" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
              <g class={`mark-group ${group.className}`}>{mark(group.shape, 6, 6)}</g>
            </svg>
            {group.name}
          </li>
        ))}
        {lines.map((line) => (
          <li key={line.name}>
            <span class={`swatch swatch-stroke ${line.className}`} aria-hidden="true" />
            {line.name}
          </li>
        ))}
      </ul>
      {children}
    </figure>
  );
}
