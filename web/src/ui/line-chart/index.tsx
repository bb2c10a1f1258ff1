// SPDX-License-Identifier: MIT
// A line chart in SVG: d3-scale places the points and ticks; Preact draws. The points' data are
// also given as a table for screen readers and for copying.
import { scaleLinear, scaleLog } from 'd3-scale';
import { useElementWidth } from '../use-element-width';

export interface Series {
  name: string;
  className: string;
  points: Array<{ x: number; y: number }>;
}

interface Props {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** A horizontal line, e.g. the GPU's budget. */
  limit?: { y: number; label: string };
  /** The current input, marked with a vertical line. */
  marker?: number;
  formatX: (x: number) => string;
  formatY: (y: number) => string;
}

const margin = { top: 14, right: 12, bottom: 40, left: 66 };

export function LineChart({ id, title, xLabel, yLabel, series, limit, marker, formatX, formatY }: Props) {
  const [box, width] = useElementWidth<HTMLDivElement>(560);
  const height = Math.round(Math.min(300, Math.max(200, width * 0.5)));
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y)).concat(limit ? [limit.y] : []);
  if (xs.length < 2) return null;
  const x = scaleLog()
    .base(2)
    .domain([Math.min(...xs), Math.max(...xs)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, Math.max(...ys) * 1.05])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const xTicks = x.ticks().filter((t) => Number.isInteger(Math.log2(t)));
  const maxTicks = Math.max(3, Math.floor((width - margin.left - margin.right) / 48));
  const xTickList =
    xTicks.length > maxTicks ? xTicks.filter((_, i) => i % Math.ceil(xTicks.length / maxTicks) === 0) : xTicks;
  const path = (points: Series['points']) =>
    points.map((p, i) => `${i ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join('');
  return (
    <figure class="line-chart" data-testid={id}>
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-box">
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-desc`}>
          <desc id={`${id}-desc`}>
            {title}.{' '}
            {series
              .map((s) => `${s.name}: ${s.points.map((p) => `${formatX(p.x)} → ${formatY(p.y)}`).join(', ')}`)
              .join('. ')}
          </desc>
          {y.ticks(5).map((t) => (
            <g key={`y${t}`}>
              <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} class="grid-line" />
              <text x={margin.left - 6} y={y(t) + 4} text-anchor="end" class="tick">
                {formatY(t)}
              </text>
            </g>
          ))}
          {xTickList.map((t) => (
            <text
              key={`x${t}`}
              x={x(t)}
              y={height - margin.bottom + 16}
              text-anchor={x(t) > width - margin.right - 16 ? 'end' : 'middle'}
              class="tick"
            >
              {formatX(t)}
            </text>
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
          {limit && (
            <g>
              <line x1={margin.left} x2={width - margin.right} y1={y(limit.y)} y2={y(limit.y)} class="limit-line" />
              <text x={width - margin.right} y={y(limit.y) - 5} text-anchor="end" class="limit-label">
                {limit.label}
              </text>
            </g>
          )}
          {marker !== undefined && marker >= x.domain()[0] && marker <= x.domain()[1] && (
            <line x1={x(marker)} x2={x(marker)} y1={margin.top} y2={height - margin.bottom} class="marker-line" />
          )}
          {series.map((s) => (
            <g key={s.name} class={s.className}>
              <path d={path(s.points)} class="series-line" />
              {s.points.map((p) => (
                <circle key={p.x} cx={x(p.x)} cy={y(p.y)} r="2.5" class="series-dot">
                  <title>
                    {s.name} at {formatX(p.x)}: {formatY(p.y)}
                  </title>
                </circle>
              ))}
            </g>
          ))}
        </svg>
      </div>
      <ul class="legend">
        {series.map((s) => (
          <li key={s.name}>
            <span class={`swatch ${s.className}`} aria-hidden="true" />
            {s.name}
          </li>
        ))}
        {limit && (
          <li>
            <span class="swatch swatch-limit" aria-hidden="true" />
            {limit.label}
          </li>
        )}
      </ul>
      <details class="chart-data">
        <summary>
          Data<span class="visually-hidden"> of {title}</span>
        </summary>
        {/* Scrolls on its own on a phone: focusable, so the keyboard can scroll it too. */}
        <div class="table-scroll" tabIndex={0} role="region" aria-label={`${title}: data`}>
          <table class="figures compact" data-testid={`${id}-data`}>
            <thead>
              <tr>
                <th scope="col">{xLabel}</th>
                {series.map((s) => (
                  <th scope="col" class="number" key={s.name}>
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {series[0].points.map((p, i) => (
                <tr key={p.x}>
                  <th scope="row">{formatX(p.x)}</th>
                  {series.map((s) => (
                    <td class="number" key={s.name}>
                      {s.points[i] ? formatY(s.points[i].y) : ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
