// SPDX-License-Identifier: MIT
// The planner's answers as table data: the best layouts and the throughput/cost frontier.
import type { PlanCandidate, PlanReport } from '../core/types';
import { bytesIn, bytesValue, dollars, duration, figureText, withThousands } from '../ui/format';
import type { ByteUnit } from '../app/inputs';
import type { Cell, Row, TableModel } from '../export/tables';

const text = (value: string): Cell => ({ text: value, value });

export function shortGpuName(name: string): string {
  return name.replace(/^(NVIDIA|AMD|Intel|Google) /, '');
}

export function layoutText(candidate: PlanCandidate): string {
  const parts = [`tp ${candidate.tp}`, `pp ${candidate.pp}`];
  if (candidate.ep > 1) parts.push(`ep ${candidate.ep}`);
  return `${candidate.gpus} × ${shortGpuName(candidate.gpu_name)} (${parts.join(', ')})`;
}

function candidateRow(candidate: PlanCandidate, index: number, unit: ByteUnit): Row {
  return {
    key: String(index),
    cells: [
      { text: String(index + 1), value: index + 1 },
      {
        text: layoutText(candidate),
        value: `${candidate.gpu} x${candidate.gpus} tp${candidate.tp} pp${candidate.pp} ep${candidate.ep}`,
      },
      { text: figureText(candidate.tokens_per_second), value: candidate.tokens_per_second },
      {
        text: dollars(candidate.cost_per_million_output_tokens_usd),
        value: candidate.cost_per_million_output_tokens_usd,
      },
      { text: withThousands(candidate.batch), value: candidate.batch },
      text(`${candidate.weights} / ${candidate.kv_dtype}`),
      { text: duration(candidate.time_to_first_token_seconds), value: candidate.time_to_first_token_seconds },
      { text: duration(candidate.time_per_output_token_seconds), value: candidate.time_per_output_token_seconds },
      { text: duration(candidate.end_to_end_seconds), value: candidate.end_to_end_seconds },
      {
        text: bytesIn(candidate.memory_bytes_per_gpu, unit),
        value: Number(bytesValue(candidate.memory_bytes_per_gpu, unit).toFixed(4)),
      },
    ],
    // The serving planner prices the whole replica (tp x pp GPUs), the unit its throughput is for.
    source: `${candidate.gpu_name} at ${candidate.price_per_hour_usd} USD/h for ${candidate.gpus} GPU${candidate.gpus === 1 ? '' : 's'}; budget ${bytesIn(candidate.budget_bytes_per_gpu, unit)} per GPU`,
  };
}

/** Columns holding text (left aligned). */
export const planTextColumns: ReadonlyArray<number> = [1, 5];
const columns = (unit: ByteUnit) => [
  '#',
  'Layout',
  'Tokens/s',
  'USD / M out',
  'Batch',
  'Weights / KV',
  'TTFT',
  'TPOT',
  'End to end',
  `${unit} per GPU`,
];
const keys = (unit: ByteUnit) => [
  'rank',
  'layout',
  'tokens_per_second',
  'cost_per_million_output_tokens_usd',
  'batch',
  'weights_kv',
  'time_to_first_token_seconds',
  'time_per_output_token_seconds',
  'end_to_end_seconds',
  unit === 'GiB' ? 'memory_gib_per_gpu' : 'memory_gb_per_gpu',
];

const objectiveTitles: Record<string, string> = {
  highest_throughput: 'highest throughput first',
  lowest_latency: 'lowest end-to-end latency first',
  lowest_cost: 'lowest cost per output token first',
  fewest_gpus: 'fewest GPUs first',
};

export function planBestTable(report: PlanReport, unit: ByteUnit): TableModel {
  const request = report.request;
  return {
    id: 'plan-best',
    title: `Best layouts, ${objectiveTitles[request.objective] ?? request.objective} (prompt ${withThousands(request.prompt_len)} + output ${withThousands(request.gen_len)} tokens)`,
    columns: columns(unit),
    keys: keys(unit),
    rows: report.best.map((candidate, index) => candidateRow(candidate, index, unit)),
  };
}

export function planFrontierTable(report: PlanReport, unit: ByteUnit): TableModel {
  return {
    id: 'plan-frontier',
    title: 'Throughput vs cost frontier: no other layout is both faster and cheaper',
    columns: columns(unit),
    keys: keys(unit),
    rows: report.frontier.map((candidate, index) => candidateRow(candidate, index, unit)),
  };
}
