// SPDX-License-Identifier: MIT
// The result tables as plain data: the page renders them and the exports serialize them, so an
// export always holds the figures on screen. Only formatting happens here.
import type { Accelerator, FormatCatalog, InferenceReport, ParameterReport } from '../core/types';
import { bytesIn, bytesValue, figureText, roundedCount, secondsParts, share, withThousands } from '../ui/format';
import type { ByteUnit } from '../app/inputs';

export interface Cell {
  /** As shown on the page. */
  text: string;
  /** Machine value for JSON (bytes, counts, booleans), or the text. */
  value: number | string | boolean;
}

export interface Row {
  key: string;
  cells: Cell[];
  /** Formula with the user's numbers substituted, as the core wrote it. */
  formula?: string;
  source?: string;
  /** An estimate's error against published measurements (accuracy/expected-error.ts). */
  expectedError?: { text: string; detail: string };
  /** Footer rows (totals, verdict) are styled apart. */
  footer?: boolean;
}

export interface TableModel {
  id: string;
  title: string;
  columns: string[];
  /** JSON key of each column (snake case with the unit in the name). */
  keys: string[];
  rows: Row[];
}

const termLabels: Record<string, string> = {
  weights: 'Weights',
  kv_cache: 'KV cache',
  activations: 'Activations (peak)',
  logits: 'Logits',
  overhead: 'Framework overhead',
};

export function termLabel(name: string): string {
  return termLabels[name] ?? name.replace(/_/g, ' ');
}

const text = (value: string): Cell => ({ text: value, value });
const count = (value: number): Cell => ({ text: withThousands(value), value });

/** A figure in a display unit, exported in its base unit (seconds, tokens/s, USD): value and unit cells. */
export function figureCells(display: [string, string], value: number, baseUnit: string): Cell[] {
  return [
    { text: display[0], value },
    { text: display[1], value: baseUnit },
  ];
}
/** Seconds shown in s, ms or µs, exported in seconds. */
export const secondsCells = (value: number) => figureCells(secondsParts(value), value, 's');
/** A rate or count shown with its unit: "1,543 tokens/s". */
export const rateCells = (value: number, unit: string) => figureCells([figureText(value), unit], value, unit);
const bytes = (value: number, unit: ByteUnit): Cell => ({
  text: bytesIn(value, unit),
  value: Number(bytesValue(value, unit).toFixed(4)),
});

export interface Context {
  unit: ByteUnit;
  formats?: FormatCatalog;
  gpu?: Accelerator;
}

function termSource(name: string, report: InferenceReport, context: Context): string | undefined {
  if (name === 'weights') {
    const format = context.formats?.weight_formats.find((f) => f.id === report.workload.weights);
    return format ? `${format.name}: ${format.source}; kept in high precision: ${format.high_precision}` : undefined;
  }
  if (name === 'kv_cache') {
    const dtype = context.formats?.kv_cache_dtypes.find((d) => d.id === report.workload.kv_dtype);
    return [report.kv_cache.convention, dtype?.source].filter(Boolean).join('; ');
  }
  return undefined;
}

export function memoryTable(report: InferenceReport, context: Context): TableModel {
  const { unit } = context;
  const total = report.total_bytes_per_gpu;
  const rows: Row[] = report.terms.map((term) => ({
    key: term.name,
    cells: [
      text(termLabel(term.name)),
      count(term.bytes),
      bytes(term.bytes, unit),
      { text: share(term.bytes, total), value: total > 0 ? Number((term.bytes / total).toFixed(4)) : 0 },
    ],
    formula: term.formula,
    source: termSource(term.name, report, context),
  }));
  rows.push({
    key: 'total',
    footer: true,
    cells: [text('Total per GPU'), count(total), bytes(total, unit), { text: '100.0 %', value: 1 }],
    formula: report.terms.map((term) => `${term.bytes} B (${term.name})`).join(' + ') + ` = ${total} B`,
  });
  if (report.gpu) {
    const gpu = report.gpu;
    rows.push({
      key: 'budget',
      footer: true,
      cells: [
        text(`Budget of one ${gpu.name}`),
        count(gpu.budget_bytes),
        bytes(gpu.budget_bytes, unit),
        { text: share(total, gpu.budget_bytes) + ' used', value: Number((total / gpu.budget_bytes).toFixed(4)) },
      ],
      formula: `gpu_memory_utilization ${report.workload.gpu_memory_utilization} x ${gpu.gpu_working_set_bytes ?? gpu.memory_bytes} B${gpu.gpu_working_set_bytes ? ' (GPU working-set limit)' : ''} = ${gpu.budget_bytes} B`,
      source: context.gpu?.sources,
    });
  }
  if (report.gpu && report.fits !== undefined) {
    const gpu = report.gpu;
    const headroom = report.headroom_bytes ?? 0;
    rows.push({
      key: 'verdict',
      footer: true,
      cells: [
        { text: report.fits ? 'Fits, with headroom' : 'Does not fit, short by', value: Boolean(report.fits) },
        count(Math.abs(headroom)),
        bytes(Math.abs(headroom), unit),
        text(''),
      ],
      formula: `budget ${gpu.budget_bytes} B - total ${total} B = ${headroom} B`,
    });
  }
  return {
    id: 'gpu-memory',
    title: `Memory per GPU (tp ${report.workload.tp} x pp ${report.workload.pp}, ep ${report.workload.ep})`,
    columns: ['Term', 'Bytes', unit, 'Share'],
    keys: ['term', 'bytes', unit === 'GiB' ? 'gib' : 'gb', 'share'],
    rows,
  };
}

const capacityLabels: Record<string, string> = {
  max_batch_size: 'Largest batch',
  max_context_length: 'Longest context (tokens)',
  min_gpus: 'Fewest GPUs',
};

export function capacityTable(report: InferenceReport): TableModel | undefined {
  if (!report.capacity) return undefined;
  const rows: Row[] = (Object.keys(capacityLabels) as Array<keyof NonNullable<InferenceReport['capacity']>>).map(
    (key) => {
      const answer = report.capacity![key];
      return {
        key,
        cells: [text(capacityLabels[key]), count(answer.value), text(answer.limited_by.replace(/_/g, ' '))],
        formula: answer.formula,
      };
    },
  );
  return {
    id: 'capacity',
    title: `What fits on ${report.gpu?.name ?? 'the GPU'}`,
    columns: ['Question', 'Answer', 'Limited by'],
    keys: ['question', 'answer', 'limited_by'],
    rows,
  };
}

const breakdownRows: Array<[keyof ParameterReport['breakdown'], string]> = [
  ['embedding', 'Embedding'],
  ['attention', 'Attention'],
  ['mlp', 'MLP'],
  ['routed_experts', 'Routed experts'],
  ['shared_experts', 'Shared experts'],
  ['router', 'Router'],
  ['norms', 'Norms'],
  ['lm_head', 'lm_head'],
  ['ssm', 'State-space (Mamba)'],
];

export function parameterTable(report: ParameterReport): TableModel {
  const { breakdown } = report;
  const rows: Row[] = breakdownRows
    .filter(([key]) => (breakdown[key] ?? 0) !== 0 || key === 'lm_head')
    .map(([key, label]) => ({
      key,
      cells: [
        text(key === 'lm_head' && report.shape.tie_word_embeddings ? 'lm_head (tied to embedding)' : label),
        count(breakdown[key] ?? 0),
        text(roundedCount(breakdown[key] ?? 0)),
      ],
    }));
  // A count that rests on guesses reads as one at the number itself, with what was guessed.
  const estimate = report.parameter_count_exact === false;
  rows.push({
    key: 'total',
    footer: true,
    cells: estimate
      ? [
          text('Total (estimate)'),
          { text: `~${withThousands(report.total_params)}`, value: report.total_params },
          text(`~${roundedCount(report.total_params)}`),
        ]
      : [text('Total'), count(report.total_params), text(roundedCount(report.total_params))],
    ...(estimate ? { source: `estimate: ${report.guessed_fields.join('; ')}` } : {}),
  });
  if (report.active_params_per_token !== report.total_params) {
    rows.push({
      key: 'active',
      footer: true,
      cells: [
        text('Active per token'),
        count(report.active_params_per_token),
        text(roundedCount(report.active_params_per_token)),
      ],
      source: report.active_params_convention,
    });
  }
  // A counted vision tower: its own lines after the language model's, then the whole checkpoint.
  if (report.vision_tower_params !== undefined) {
    const lines: Array<[string, string, number]> = [
      ['vision_tower', 'Vision tower', report.vision_tower_params],
      ['multimodal_projector', 'Multimodal projector', report.multimodal_projector_params ?? 0],
      ['total_with_vision', 'Total with vision', report.total_params_with_vision ?? 0],
    ];
    for (const [key, label, value] of lines)
      rows.push({ key, footer: true, cells: [text(label), count(value), text(roundedCount(value))] });
  }
  // A counted audio tower (Gemma 3n): its lines, then the whole checkpoint.
  if (report.audio_tower_params !== undefined) {
    const lines: Array<[string, string, number]> = [
      ['audio_tower', 'Audio tower', report.audio_tower_params],
      ['audio_projector', 'Audio projector', report.audio_projector_params ?? 0],
      ['total_with_audio', 'Total with audio', report.total_params_with_audio ?? 0],
    ];
    for (const [key, label, value] of lines)
      rows.push({ key, footer: true, cells: [text(label), count(value), text(roundedCount(value))] });
  }
  return {
    id: 'parameters',
    title: `Parameters of ${report.architecture || report.model_type} (${report.model_type})`,
    columns: ['Component', 'Exact', 'Rounded'],
    keys: ['component', 'params', 'rounded'],
    rows,
  };
}

/** One row per weight format, from one inferenceReport per format (whole model, all GPUs). */
export function weightFormatsTable(
  reports: Array<{ id: string; name: string; report: InferenceReport }>,
  unit: ByteUnit,
): TableModel {
  return {
    id: 'weight-formats',
    title: 'Weights of the whole model in each format',
    columns: ['Format', 'Bits per weight', 'Bytes', unit],
    keys: ['format', 'bits_per_weight', 'bytes', unit === 'GiB' ? 'gib' : 'gb'],
    rows: reports.map(({ id, name, report }) => ({
      key: id,
      cells: [
        text(`${id} (${name})`),
        {
          text: report.weights_whole_model.effective_bits_per_weight.toFixed(3),
          value: report.weights_whole_model.effective_bits_per_weight,
        },
        count(report.weights_whole_model.bytes),
        bytes(report.weights_whole_model.bytes, unit),
      ],
      formula: report.terms.find((term) => term.name === 'weights')?.formula,
      source: report.weights_whole_model.notes.join('; ') || undefined,
    })),
  };
}
