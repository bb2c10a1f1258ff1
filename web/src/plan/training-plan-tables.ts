// SPDX-License-Identifier: MIT
// The training planner's answers as table data: the best layouts and the time-to-train vs cost
// frontier.
import type { TrainingPlanCandidate, TrainingPlanReport } from '../core/types';
import { bytesIn, bytesValue, dollars, duration, figureText, withThousands } from '../ui/format';
import type { ByteUnit } from '../app/inputs';
import { shortGpuName } from './plan-tables';
import { fsdpModeOf } from './fsdp-mode';
import type { Row, TableModel } from '../export/tables';

const secondsPerDay = 86400;

export function trainingLayoutText(c: TrainingPlanCandidate): string {
  const parts = [
    `tp ${c.tp}`,
    c.virtual_stages > 1 ? `pp ${c.pp} × ${c.virtual_stages} chunks` : `pp ${c.pp}`,
    `dp ${c.dp}`,
  ];
  if (c.cp > 1) parts.push(`cp ${c.cp}`);
  if (c.ep > 1) parts.push(`ep ${c.ep}`);
  return `${c.gpus} × ${shortGpuName(c.gpu_name)} (${parts.join(', ')})`;
}

/** The machine key of a layout, as the e2e tests compare it with the CLI's JSON. */
export function trainingLayoutKey(c: TrainingPlanCandidate): string {
  const fsdp = fsdpModeOf(c);
  const group = fsdp === 'hybrid_shard' ? `-${c.fsdp_shard_group}` : '';
  const sharding = fsdp ? `fsdp-${fsdp}${group}` : `zero${c.zero}`;
  return `${c.gpu} x${c.gpus} tp${c.tp} pp${c.pp} dp${c.dp} cp${c.cp} ep${c.ep} ${sharding} mb${c.micro_batch} acc${c.micro_batches} ${c.recompute} v${c.virtual_stages}`;
}

const fsdpLabels: Record<string, string> = { shard_grad_op: 'FSDP SHARD_GRAD_OP', full_shard: 'FSDP FULL_SHARD' };

/** The row's sharding: its ZeRO stage, or FSDP's mode under a framework that shards with FSDP
 * (HYBRID_SHARD with the GPUs of its shard group). */
export function trainingShardingText(c: TrainingPlanCandidate): string {
  const fsdp = fsdpModeOf(c);
  if (fsdp === 'hybrid_shard') return `FSDP HYBRID_SHARD (shards over ${c.fsdp_shard_group})`;
  return fsdp ? (fsdpLabels[fsdp] ?? `FSDP ${fsdp}`) : String(c.zero);
}

/** Time to train in days (the unit of the column and the chart). */
export const trainDays = (c: TrainingPlanCandidate) => c.train_seconds / secondsPerDay;

function candidateRow(c: TrainingPlanCandidate, index: number, unit: ByteUnit): Row {
  return {
    key: String(index),
    cells: [
      { text: String(index + 1), value: index + 1 },
      { text: trainingLayoutText(c), value: trainingLayoutKey(c) },
      { text: figureText(trainDays(c)), value: trainDays(c) },
      { text: dollars(c.train_cost_usd), value: c.train_cost_usd },
      { text: figureText(c.tokens_per_second), value: c.tokens_per_second },
      { text: `${(c.mfu * 100).toFixed(1)} %`, value: c.mfu },
      { text: trainingShardingText(c), value: fsdpModeOf(c) ?? c.zero },
      {
        text: `${withThousands(c.micro_batch)} × ${withThousands(c.micro_batches)}`,
        value: `${c.micro_batch}x${c.micro_batches}`,
      },
      { text: c.recompute + (c.sequence_parallel ? ', sp' : ''), value: c.recompute },
      { text: duration(c.step_seconds), value: c.step_seconds },
      {
        text: bytesIn(c.memory_bytes_per_gpu, unit),
        value: Number(bytesValue(c.memory_bytes_per_gpu, unit).toFixed(4)),
      },
    ],
    source: `${c.gpu_name} at ${c.price_per_hour_usd} USD/h per GPU; budget ${bytesIn(c.budget_bytes_per_gpu, unit)} per GPU`,
  };
}

/** Columns holding text (left aligned). */
export const trainingPlanTextColumns: ReadonlyArray<number> = [1, 7, 8];
const columns = (unit: ByteUnit) => [
  '#',
  'Layout',
  'Days to train',
  'Cost (USD)',
  'Tokens/s',
  'MFU',
  'ZeRO / FSDP',
  'Micro-batch × accumulation',
  'Recompute',
  'Step',
  `${unit} per GPU`,
];
const keys = (unit: ByteUnit) => [
  'rank',
  'layout',
  'train_days',
  'train_cost_usd',
  'tokens_per_second',
  'mfu',
  'zero',
  'micro_batch_x_accumulation',
  'recompute',
  'step_seconds',
  unit === 'GiB' ? 'memory_gib_per_gpu' : 'memory_gb_per_gpu',
];

const objectiveTitles: Record<string, string> = {
  shortest_time: 'shortest time to train first',
  highest_throughput: 'highest throughput first',
  lowest_cost: 'lowest cost to train first',
  fewest_gpus: 'fewest GPUs first',
};

export function trainingPlanBestTable(report: TrainingPlanReport, unit: ByteUnit): TableModel {
  const r = report.request;
  return {
    id: 'tplan-best',
    title: `Best training layouts, ${objectiveTitles[r.objective] ?? r.objective} (${withThousands(r.global_batch_tokens)} tokens per step, ${r.train_tokens.toExponential(2)} tokens to train)`,
    columns: columns(unit),
    keys: keys(unit),
    rows: report.best.map((c, index) => candidateRow(c, index, unit)),
  };
}

export function trainingPlanFrontierTable(report: TrainingPlanReport, unit: ByteUnit): TableModel {
  return {
    id: 'tplan-frontier',
    title: 'Time to train vs cost frontier: no other layout is both faster and cheaper',
    columns: columns(unit),
    keys: keys(unit),
    rows: report.frontier.map((c, index) => candidateRow(c, index, unit)),
  };
}
