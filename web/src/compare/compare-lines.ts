// SPDX-License-Identifier: MIT
// The lines of "Pinned vs current": each figure's text for a snapshot, its value, and how a change
// of it is written. Inference lines (memory, capacity, latency, cost) or training lines (memory,
// step time, cost), with a line per memory term either snapshot has.
import type { InferenceReport, ParameterReport, TrainingReport } from '../core/types';
import { bytesIn, duration, figureText, withThousands } from '../ui/format';
import type { ByteUnit } from '../app/inputs';
import { termLabel } from '../export/tables';
import { describeParallel, trainingTermLabel } from '../training/training-tables';
import type { Snapshot } from './snapshot';

/** The count, with '~' when it rests on guesses (an unknown model_type read as a generic decoder). */
export function paramsText(params: ParameterReport): string {
  return (params.parameter_count_exact === false ? '~' : '') + withThousands(params.total_params);
}

export interface Line {
  key: string;
  label: string;
  text: (s: Snapshot) => string;
  /** Bytes, counts or seconds, to show the change. */
  value?: (s: Snapshot) => number | undefined;
  bytes?: boolean;
  /** How a change is written (counts by default). */
  formatChange?: (value: number) => string;
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
    {
      key: 'params',
      label: 'Parameters',
      text: (s) => paramsText(s.params),
      value: (s) => s.params.total_params,
    },
    { key: 'layout', label: 'GPUs', text: (s) => describeLayout(s.inference) },
    {
      key: 'precision',
      label: 'Weights / KV cache',
      text: (s) => (s.inference ? `${s.inference.workload.weights} / ${s.inference.workload.kv_dtype}` : '–'),
    },
    {
      key: 'requests',
      label: 'Batch × context',
      text: (s) =>
        s.inference ? `${s.inference.workload.batch} × ${withThousands(s.inference.workload.context)}` : '–',
    },
    ...terms.map((name) => {
      const pick = (r: InferenceReport) => r.terms.find((t) => t.name === name)?.bytes;
      return {
        key: name,
        label: termLabel(name),
        text: inBytes(pick),
        value: (s: Snapshot) => (s.inference ? pick(s.inference) : undefined),
        bytes: true,
      };
    }),
    {
      key: 'total',
      label: 'Total per GPU',
      text: inBytes((r) => r.total_bytes_per_gpu),
      value: (s) => s.inference?.total_bytes_per_gpu,
      bytes: true,
    },
    {
      key: 'budget',
      label: 'GPU budget',
      text: inBytes((r) => r.gpu?.budget_bytes),
      value: (s) => s.inference?.gpu?.budget_bytes,
      bytes: true,
    },
    { key: 'fits', label: 'Fits', text: (s) => (s.inference?.gpu ? (s.inference.fits ? 'yes' : 'no') : '–') },
    {
      key: 'max_batch',
      label: 'Largest batch',
      text: count((r) => r.capacity?.max_batch_size.value),
      value: (s) => s.inference?.capacity?.max_batch_size.value,
    },
    {
      key: 'max_context',
      label: 'Longest context',
      text: count((r) => r.capacity?.max_context_length.value),
      value: (s) => s.inference?.capacity?.max_context_length.value,
    },
    {
      key: 'min_gpus',
      label: 'Fewest GPUs',
      text: count((r) => r.capacity?.min_gpus.value),
      value: (s) => s.inference?.capacity?.min_gpus.value,
    },
    ...latencyLines(),
  ];
}

function latencyLines(): Line[] {
  const seconds = (key: string, label: string, pick: (r: InferenceReport) => number | undefined): Line => ({
    key,
    label,
    text: (s) => {
      const value = s.inference ? pick(s.inference) : undefined;
      return value === undefined ? '–' : duration(value);
    },
    value: (s) => (s.inference ? pick(s.inference) : undefined),
    formatChange: duration,
  });
  const figure = (
    key: string,
    label: string,
    pick: (r: InferenceReport) => number | undefined,
    unit: string,
  ): Line => ({
    key,
    label,
    text: (s) => {
      const value = s.inference ? pick(s.inference) : undefined;
      return value === undefined ? '–' : `${figureText(value)} ${unit}`;
    },
    value: (s) => (s.inference ? pick(s.inference) : undefined),
    formatChange: (value) => `${figureText(value)} ${unit}`,
  });
  return [
    seconds('ttft', 'Time to first token', (r) => r.latency?.time_to_first_token_seconds),
    seconds('decode_step', 'Decode step (start)', (r) => r.latency?.decode_step_first_seconds),
    seconds('end_to_end', 'End to end', (r) => r.latency?.end_to_end_seconds),
    figure('batch_tokens_per_second', 'Tokens/s (batch)', (r) => r.latency?.batch_tokens_per_second, 'tokens/s'),
    figure(
      'cost_output',
      'Cost per million output tokens',
      (r) => r.latency?.cost_per_million_output_tokens_usd,
      'USD',
    ),
  ];
}

function trainingLines(unit: ByteUnit, terms: string[]): Line[] {
  const inBytes = (pick: (r: TrainingReport) => number | undefined) => (s: Snapshot) => {
    const value = s.training ? pick(s.training) : undefined;
    return value === undefined ? '–' : bytesIn(value, unit);
  };
  return [
    { key: 'model', label: 'Model', text: (s) => s.label },
    {
      key: 'params',
      label: 'Parameters',
      text: (s) => paramsText(s.params),
      value: (s) => s.params.total_params,
    },
    {
      key: 'layout',
      label: 'GPUs',
      text: (s) =>
        s.training
          ? `${s.training.parallel.gpus} × ${s.training.gpu?.name ?? 'no GPU'} (${describeParallel(s.training)})`
          : '–',
    },
    {
      key: 'precision',
      label: 'Precision / optimizer',
      text: (s) => (s.training ? `${s.training.workload.precision} / ${s.training.workload.optimizer}` : '–'),
    },
    {
      key: 'shape',
      label: 'Micro-batch × sequence',
      text: (s) =>
        s.training ? `${s.training.workload.micro_batch} × ${withThousands(s.training.workload.seq_len)}` : '–',
    },
    ...terms.map((name) => {
      const pick = (r: TrainingReport) => r.terms.find((t) => t.name === name)?.bytes;
      return {
        key: `t-${name}`,
        label: trainingTermLabel(name),
        text: inBytes(pick),
        value: (s: Snapshot) => (s.training ? pick(s.training) : undefined),
        bytes: true,
      };
    }),
    {
      key: 'total',
      label: 'Total per GPU',
      text: inBytes((r) => r.total_bytes_per_gpu),
      value: (s) => s.training?.total_bytes_per_gpu,
      bytes: true,
    },
    {
      key: 'budget',
      label: 'GPU memory',
      text: inBytes((r) => r.gpu?.memory_bytes),
      value: (s) => s.training?.gpu?.memory_bytes,
      bytes: true,
    },
    { key: 'fits', label: 'Fits', text: (s) => (s.training?.gpu ? (s.training.fits ? 'yes' : 'no') : '–') },
    {
      key: 'max_micro_batch',
      label: 'Largest micro-batch',
      text: (s) => (s.training?.max_micro_batch_size == null ? '–' : withThousands(s.training.max_micro_batch_size)),
      value: (s) => s.training?.max_micro_batch_size ?? undefined,
    },
    {
      key: 'max_sequence',
      label: 'Longest sequence',
      text: (s) => (s.training?.max_sequence_tokens == null ? '–' : withThousands(s.training.max_sequence_tokens)),
      value: (s) => s.training?.max_sequence_tokens ?? undefined,
    },
    {
      key: 'step',
      label: 'Step time',
      text: (s) => (s.training?.time ? duration(s.training.time.step_seconds) : '–'),
      value: (s) => s.training?.time?.step_seconds,
      formatChange: duration,
    },
    {
      key: 'mfu',
      label: 'MFU',
      text: (s) => (s.training?.time ? `${figureText(100 * s.training.time.mfu)} %` : '–'),
      value: (s) => (s.training?.time ? 100 * s.training.time.mfu : undefined),
      formatChange: (value) => `${figureText(value)} points`,
    },
    {
      key: 'train_cost',
      label: 'Cost to train',
      text: (s) => (s.training?.time ? `${figureText(s.training.time.train_cost_usd)} USD` : '–'),
      value: (s) => s.training?.time?.train_cost_usd,
      formatChange: (value) => `${figureText(value)} USD`,
    },
  ];
}

export function change(line: Line, pinned: Snapshot, current: Snapshot, unit: ByteUnit): string {
  const a = line.value?.(pinned);
  const b = line.value?.(current);
  if (a === undefined || b === undefined) return '';
  if (a === b) return '=';
  const sign = b > a ? '+' : '−';
  const size = Math.abs(b - a);
  return sign + (line.bytes ? bytesIn(size, unit) : line.formatChange ? line.formatChange(size) : withThousands(size));
}

/** The lines to show for `pinned` beside `current`; `training` compares training reports. */
export function compareLines(
  pinned: Snapshot,
  current: Snapshot | undefined,
  unit: ByteUnit,
  training: boolean,
): Line[] {
  const names = training
    ? [...new Set([...(pinned.training?.terms ?? []), ...(current?.training?.terms ?? [])].map((t) => t.name))]
    : [...new Set([...(pinned.inference?.terms ?? []), ...(current?.inference?.terms ?? [])].map((t) => t.name))];
  return training ? trainingLines(unit, names) : lines(unit, names);
}
