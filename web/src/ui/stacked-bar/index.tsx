// SPDX-License-Identifier: MIT
// One GPU's memory as a stacked bar of terms, against the GPU's budget and capacity (the inference
// and the training results each hand it their report's terms).
import { bytesIn } from '../format';
import type { ByteUnit } from '../../app/inputs';

const width = 600;
const barTop = 10;
const barHeight = 28;

export interface BarTerm {
  key: string;
  label: string;
  bytes: number;
  /** Colour class (term-weights, term-kv_cache...). */
  className: string;
}

interface TermsBarProps {
  terms: BarTerm[];
  total: number;
  unit: ByteUnit;
  gpu?: { name: string; memory_bytes: number; budget_bytes?: number };
  fits?: boolean;
  testId?: string;
}

export function TermsBar({ terms, total, unit, gpu, fits, testId = 'stacked-bar' }: TermsBarProps) {
  // A negative term (memory one term frees before another is allocated, e.g. gradients taking the
  // place of freed activations) is drawn over the end of the positive terms, from the total onwards.
  const positive = terms.reduce((sum, term) => sum + Math.max(term.bytes, 0), 0);
  const released = terms.filter((term) => term.bytes < 0);
  const extent = Math.max(total, positive, gpu?.memory_bytes ?? 0) || 1;
  const x = (bytes: number) => (bytes / extent) * width;
  const limit = gpu ? (gpu.budget_bytes ?? gpu.memory_bytes) : undefined;
  let offset = 0;
  const segments = terms
    .filter((term) => term.bytes > 0)
    .map((term) => {
      const start = offset;
      offset += term.bytes;
      return { term, start };
    });
  const summary = gpu
    ? `${bytesIn(total, unit)} per GPU against ${gpu.budget_bytes !== undefined ? 'a budget' : 'the memory'} of ${bytesIn(limit!, unit)} on ${gpu.name}: ${fits ? 'fits' : 'does not fit'}`
    : `${bytesIn(total, unit)} per GPU`;
  return (
    <figure class="stacked-bar" data-testid={testId}>
      <figcaption>Memory per GPU against the GPU</figcaption>
      <svg viewBox={`0 0 ${width} 48`} role="img" aria-label={summary} preserveAspectRatio="none">
        <rect x="0" y={barTop} width={width} height={barHeight} class="bar-track" />
        {segments.map(({ term, start }) => (
          <rect
            key={term.key}
            x={x(start)}
            y={barTop}
            width={Math.max(x(term.bytes), 0.5)}
            height={barHeight}
            class={`term ${term.className}`}
          >
            <title>
              {term.label}: {bytesIn(term.bytes, unit)}
            </title>
          </rect>
        ))}
        {released.length > 0 && positive > total && (
          <rect
            x={x(total)}
            y={barTop}
            width={Math.max(x(positive - total), 0.5)}
            height={barHeight}
            class="term term-released"
            data-testid={`${testId}-released`}
          >
            <title>
              {released.map((term) => `${term.label}: ${bytesIn(term.bytes, unit)}`).join('; ')} (not held at the peak)
            </title>
          </rect>
        )}
        {gpu && (
          <>
            {gpu.budget_bytes !== undefined && (
              <line
                x1={x(gpu.budget_bytes)}
                x2={x(gpu.budget_bytes)}
                y1={barTop - 8}
                y2={barTop + barHeight + 8}
                class="budget-line"
                vector-effect="non-scaling-stroke"
              />
            )}
            <line
              x1={x(gpu.memory_bytes) - 1}
              x2={x(gpu.memory_bytes) - 1}
              y1={barTop - 8}
              y2={barTop + barHeight + 8}
              class="capacity-line"
              vector-effect="non-scaling-stroke"
            />
          </>
        )}
      </svg>
      <div class="bar-scale" aria-hidden="true">
        <span>0</span>
        <span>
          {bytesIn(extent, unit)}
          {gpu && extent === gpu.memory_bytes ? ` (all of one ${gpu.name})` : ''}
        </span>
      </div>
      <ul class="legend">
        {segments.map(({ term }) => (
          <li key={term.key}>
            <span class={`swatch ${term.className}`} aria-hidden="true" />
            {term.label} {bytesIn(term.bytes, unit)}
          </li>
        ))}
        {gpu && gpu.budget_bytes !== undefined && (
          <li>
            <span class="swatch swatch-line" aria-hidden="true" />
            budget {bytesIn(gpu.budget_bytes, unit)} of {bytesIn(gpu.memory_bytes, unit)}
          </li>
        )}
      </ul>
    </figure>
  );
}
