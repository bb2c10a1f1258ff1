// SPDX-License-Identifier: MIT
// A pinned result beside the current one: what changed when the model, GPU or layout did.
import type { InferenceReport, ParameterReport } from '../core/types';
import { bytesIn, withThousands } from '../format';
import type { ByteUnit } from '../state/inputs';
import { termLabel } from '../export/tables';

export interface Snapshot {
  label: string;
  params: ParameterReport;
  inference?: InferenceReport;
}

interface Line {
  key: string;
  label: string;
  text: (s: Snapshot) => string;
  /** Bytes or counts, to show the change. */
  value?: (s: Snapshot) => number | undefined;
  bytes?: boolean;
}

function describeLayout(report?: InferenceReport): string {
  if (!report) return '–';
  const w = report.workload;
  return `${w.tp * w.pp} × ${report.gpu?.name ?? 'no GPU'} (tp ${w.tp}, pp ${w.pp}, ep ${w.ep})`;
}

function lines(unit: ByteUnit, terms: string[]): Line[] {
  const inBytes = (pick: (r: InferenceReport) => number | undefined) => (s: Snapshot) => {
    const value = s.inference ? pick(s.inference) : undefined;
    return value === undefined ? '–' : bytesIn(value, unit);
  };
  const count = (pick: (r: InferenceReport) => number | undefined) => (s: Snapshot) => {
    const value = s.inference ? pick(s.inference) : undefined;
    return value === undefined ? '–' : withThousands(value);
  };
  return [
    { key: 'model', label: 'Model', text: (s) => s.label },
    { key: 'params', label: 'Parameters', text: (s) => withThousands(s.params.total_params), value: (s) => s.params.total_params },
    { key: 'layout', label: 'GPUs', text: (s) => describeLayout(s.inference) },
    { key: 'precision', label: 'Weights / KV cache', text: (s) => (s.inference ? `${s.inference.workload.weights} / ${s.inference.workload.kv_dtype}` : '–') },
    { key: 'requests', label: 'Batch × context', text: (s) => (s.inference ? `${s.inference.workload.batch} × ${withThousands(s.inference.workload.context)}` : '–') },
    ...terms.map((name) => {
      const pick = (r: InferenceReport) => r.terms.find((t) => t.name === name)?.bytes;
      return { key: name, label: termLabel(name), text: inBytes(pick), value: (s: Snapshot) => (s.inference ? pick(s.inference) : undefined), bytes: true };
    }),
    { key: 'total', label: 'Total per GPU', text: inBytes((r) => r.total_bytes_per_gpu), value: (s) => s.inference?.total_bytes_per_gpu, bytes: true },
    { key: 'budget', label: 'GPU budget', text: inBytes((r) => r.gpu?.budget_bytes), value: (s) => s.inference?.gpu?.budget_bytes, bytes: true },
    { key: 'fits', label: 'Fits', text: (s) => (s.inference?.gpu ? (s.inference.fits ? 'yes' : 'no') : '–') },
    { key: 'max_batch', label: 'Largest batch', text: count((r) => r.capacity?.max_batch_size.value), value: (s) => s.inference?.capacity?.max_batch_size.value },
    { key: 'max_context', label: 'Longest context', text: count((r) => r.capacity?.max_context_length.value), value: (s) => s.inference?.capacity?.max_context_length.value },
    { key: 'min_gpus', label: 'Fewest GPUs', text: count((r) => r.capacity?.min_gpus.value), value: (s) => s.inference?.capacity?.min_gpus.value },
  ];
}

function change(line: Line, pinned: Snapshot, current: Snapshot, unit: ByteUnit): string {
  const a = line.value?.(pinned);
  const b = line.value?.(current);
  if (a === undefined || b === undefined) return '';
  if (a === b) return '=';
  const sign = b > a ? '+' : '−';
  return sign + (line.bytes ? bytesIn(Math.abs(b - a), unit) : withThousands(Math.abs(b - a)));
}

interface Props {
  pinned: Snapshot;
  current?: Snapshot;
  unit: ByteUnit;
  onUnpin: () => void;
}

export function ComparePanel({ pinned, current, unit, onUnpin }: Props) {
  const names = [...new Set([...(pinned.inference?.terms ?? []), ...(current?.inference?.terms ?? [])].map((t) => t.name))];
  return (
    <section class="compare" data-testid="compare">
      <table class="figures">
        <caption>
          <div class="caption-row">
            <span>Pinned vs current</span>
            <button type="button" class="link-button" data-testid="unpin" onClick={onUnpin}>
              Unpin
            </button>
          </div>
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col" class="number">Pinned</th>
            <th scope="col" class="number">Current</th>
            <th scope="col" class="number">Change</th>
          </tr>
        </thead>
        <tbody>
          {lines(unit, names).map((line) => (
            <tr key={line.key} data-row={line.key}>
              <th scope="row">{line.label}</th>
              <td class="number" data-testid={`pinned-${line.key}`}>{line.text(pinned)}</td>
              <td class="number" data-testid={`current-${line.key}`}>{current ? line.text(current) : '–'}</td>
              <td class="number">{current ? change(line, pinned, current, unit) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
