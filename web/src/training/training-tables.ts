// SPDX-License-Identifier: MIT
// Training memory as table data (rendered by the page, serialized by the exports).
import type { TrainingReport, TrainingTimeReport } from '../core/types';
import {
  bytesIn,
  bytesValue,
  dollars,
  figureText,
  secondsParts,
  share,
  significant,
  tickLabel,
  withThousands,
} from '../ui/format';
import type { ByteUnit } from '../app/inputs';
import { withExpectedErrors } from '../accuracy/expected-error';
import type { Cell, Row, TableModel } from '../export/tables';

const text = (value: string): Cell => ({ text: value, value });
const count = (value: number): Cell => ({ text: withThousands(value), value });
const bytes = (value: number, unit: ByteUnit): Cell => ({
  text: bytesIn(value, unit),
  value: Number(bytesValue(value, unit).toFixed(4)),
});
const unitKey = (unit: ByteUnit) => (unit === 'GiB' ? 'gib' : 'gb');

/** The core's term name with a capital, unless it starts with an identifier (lm_head input). */
export function trainingTermLabel(name: string): string {
  return /^[a-z]+_/.test(name) ? name : name.charAt(0).toUpperCase() + name.slice(1);
}

/** Colour group of a training term (for the stacked bar only). */
export function trainingTermGroup(name: string): string {
  if (/logits|activation|input|recomputed|dropout/.test(name)) return 'activations';
  if (/master/.test(name)) return 'master';
  if (/gradient/.test(name)) return 'gradients';
  if (/optimizer/.test(name)) return 'optimizer';
  if (/communication/.test(name)) return 'comm';
  if (/weight|adapter/.test(name)) return 'weights';
  return 'overhead';
}

export function describeParallel(report: TrainingReport): string {
  const p = report.parallel;
  const parts = [`tp ${p.tp}`, `pp ${p.pp}`, `dp ${p.dp}`];
  if (p.ep > 1) parts.push(`ep ${p.ep}`);
  if (p.cp > 1) parts.push(`cp ${p.cp}`);
  return parts.join(', ');
}

export function trainingMemoryTable(report: TrainingReport, unit: ByteUnit): TableModel {
  const total = report.total_bytes_per_gpu;
  const rows: Row[] = report.terms.map((term, index) => ({
    key: `${index}-${term.name.replace(/[^a-z0-9]+/gi, '_')}`,
    cells: [
      text(trainingTermLabel(term.name)),
      count(term.bytes),
      bytes(term.bytes, unit),
      { text: share(term.bytes, total), value: total > 0 ? Number((term.bytes / total).toFixed(4)) : 0 },
    ],
    formula: term.formula,
  }));
  rows.push({
    key: 'total',
    footer: true,
    cells: [text('Total per GPU'), count(total), bytes(total, unit), { text: '100.0 %', value: 1 }],
    formula: report.terms.map((term) => `${term.bytes} B (${term.name})`).join(' + ') + ` = ${total} B`,
  });
  if (report.cpu_offload_bytes > 0) {
    rows.push({
      key: 'cpu_offload',
      footer: true,
      cells: [
        text('Offloaded to CPU memory (not in the total)'),
        count(report.cpu_offload_bytes),
        bytes(report.cpu_offload_bytes, unit),
        text(''),
      ],
    });
  }
  if (report.gpu) {
    const gpu = report.gpu;
    // Apple silicon: the fit is checked against macOS's GPU working set, not the whole memory.
    const limit = gpu.gpu_working_set_bytes ?? gpu.memory_bytes;
    rows.push({
      key: 'budget',
      footer: true,
      cells: [
        text(`${gpu.gpu_working_set_bytes ? 'GPU working set' : 'Memory'} of one ${gpu.name}`),
        count(limit),
        bytes(limit, unit),
        { text: share(total, limit) + ' used', value: Number((total / limit).toFixed(4)) },
      ],
    });
    if (report.fits !== undefined) {
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
        formula: `GPU ${gpu.gpu_working_set_bytes ? 'working set' : 'memory'} ${limit} B - total ${total} B = ${headroom} B`,
      });
    }
  }
  return withExpectedErrors(
    {
      id: 'training-memory',
      title: `Training memory per GPU (${report.parallel.gpus} GPUs: ${describeParallel(report)})`,
      columns: ['Term', 'Bytes', unit, 'Share'],
      keys: ['term', 'bytes', unitKey(unit), 'share'],
      rows,
    },
    { total: 'train_memory' },
  );
}

export function trainingCapacityTable(report: TrainingReport): TableModel | undefined {
  const capacity = report.capacity;
  if (!capacity) return undefined;
  const micro = capacity.max_micro_batch_size;
  const sequence = capacity.max_sequence_tokens;
  return withExpectedErrors(
    {
      id: 'training-capacity',
      title: `What fits on ${report.gpu?.name ?? 'the GPU'}`,
      columns: ['Question', 'Answer', 'Limited by'],
      keys: ['question', 'answer', 'limited_by'],
      rows: [
        {
          key: 'max_micro_batch_size',
          cells: [
            text(`Largest micro-batch (sequences of ${withThousands(report.workload.seq_len)} tokens)`),
            count(micro.value),
            text(micro.limited_by.replace(/_/g, ' ')),
          ],
          formula: micro.formula,
        },
        {
          key: 'max_sequence_tokens',
          cells: [
            text(`Longest sequence at micro-batch ${report.workload.micro_batch} (tokens)`),
            count(sequence.value),
            text(sequence.limited_by.replace(/_/g, ' ')),
          ],
          formula: sequence.formula,
        },
      ],
    },
    { max_sequence_tokens: 'train_max_context' },
  );
}

/** "selective (moe_act, layernorm)" for Megatron's modules beyond its default attention core. */
function recomputeText(workload: TrainingReport['workload']): string {
  const modules = workload.recompute_modules ?? [];
  const beyondDefault = modules.length > 0 && !(modules.length === 1 && modules[0] === 'core_attn');
  return beyondDefault ? `${workload.recompute} (${modules.join(', ')})` : workload.recompute;
}

export function layerActivationsTable(report: TrainingReport, unit: ByteUnit): TableModel {
  return {
    id: 'layer-activations',
    title: `Activations one layer keeps for backward (micro-batch ${report.workload.micro_batch} x ${withThousands(report.workload.seq_len)} tokens, recompute ${recomputeText(report.workload)})`,
    columns: ['Tensor', 'Bytes', unit],
    keys: ['tensor', 'bytes', unitKey(unit)],
    rows: report.layer_activation_terms.map((term, index) => ({
      key: `${index}-${term.name.replace(/[^a-z0-9]+/gi, '_')}`,
      cells: [text(trainingTermLabel(term.name)), count(term.bytes), bytes(term.bytes, unit)],
      formula: term.formula,
    })),
  };
}

const scheduleNames: Record<TrainingReport['parallel']['pipeline_schedule'], string> = {
  '1f1b': '1F1B',
  interleaved: 'interleaved 1F1B',
  'zero-bubble': 'zero bubble (ZB-H1)',
};

/** The pipeline as the core ran it: schedule, model chunks per GPU, the embedding's and loss's slots. */
function describePipeline(p: TrainingReport['parallel']): string {
  const parts = [scheduleNames[p.pipeline_schedule] ?? p.pipeline_schedule];
  if (p.virtual_stages > 1) parts.push(`${p.virtual_stages} model chunks per GPU`);
  if (p.account_for_embedding_in_pipeline_split) parts.push('the embedding in a layer’s slot');
  if (p.account_for_loss_in_pipeline_split) parts.push('the output layer and loss in a layer’s slot');
  return parts.join(', ');
}

export function trainingSetupTable(report: TrainingReport): TableModel {
  const w = report.workload;
  const p = report.parallel;
  const sharding = w.fsdp !== 'off' ? `FSDP ${w.fsdp.toUpperCase()}` : w.zero > 0 ? `ZeRO-${w.zero}` : 'none';
  const rows: Row[] = [
    {
      key: 'layout',
      cells: [
        text('GPUs and layout'),
        text(`${p.gpus} (${describeParallel(report)}${p.sequence_parallel ? ', sequence parallel' : ''})`),
      ],
    },
    ...(p.pp > 1 ? [{ key: 'pipeline', cells: [text('Pipeline schedule'), text(describePipeline(p))] }] : []),
    {
      key: 'sharding',
      cells: [
        text('Sharding'),
        text(
          `${sharding}, over ${p.sharding_degree} GPUs${w.offload_optimizer ? ', optimizer offloaded' : ''}${w.offload_params ? ', parameters offloaded' : ''}`,
        ),
      ],
    },
    {
      key: 'precision',
      cells: [
        text('Precision and optimizer'),
        text(`${w.precision}, ${w.optimizer}${w.fp32_master_weights ? ', fp32 master weights' : ''}`),
      ],
    },
    {
      key: 'state_bytes',
      cells: [
        text('Model state bytes per parameter'),
        {
          text: `${significant(report.model_state_bytes_per_parameter)} B`,
          value: report.model_state_bytes_per_parameter,
        },
      ],
      formula: report.optimizer_bytes_per_parameter,
    },
    { key: 'trainable', cells: [text('Trainable parameters'), count(report.trainable_params)] },
    { key: 'in_flight', cells: [text('Micro-batches in flight (busiest stage)'), count(p.micro_batches_in_flight)] },
  ];
  if (w.lora_rank > 0)
    rows.push({
      key: 'lora',
      cells: [
        text((w.qlora ? 'QLoRA' : 'LoRA') + (w.dora ? ' with DoRA' : '')),
        text(`rank ${w.lora_rank} on ${w.lora_modules.join(', ')}`),
      ],
    });
  return {
    id: 'training-setup',
    title: 'Training setup as the core read it',
    columns: ['Setting', 'Value'],
    keys: ['setting', 'value'],
    rows,
  };
}

/** Step time, utilization and the time and cost to train, each with the core's line as formula. */
export function trainingTimeTable(time: TrainingTimeReport, gpuName: string): TableModel {
  const line = (prefix: string) => time.lines.find((l) => l.startsWith(prefix));
  const row = (
    key: string,
    label: string,
    display: [string, string],
    value: number,
    unit: string,
    formula?: string,
  ): Row => ({
    key,
    cells: [text(label), { text: display[0], value }, { text: display[1], value: unit }],
    formula,
  });
  const percent = (value: number): [string, string] => [significant(100 * value, 3), '%'];
  const rows: Row[] = [
    row('step', 'Step time', secondsParts(time.step_seconds), time.step_seconds, 's', line('step')),
    row(
      'tokens_per_second',
      'Tokens/s, all GPUs',
      [figureText(time.tokens_per_second), 'tokens/s'],
      time.tokens_per_second,
      'tokens/s',
      line('step'),
    ),
    row(
      'tokens_per_second_per_gpu',
      'Tokens/s per GPU',
      [figureText(time.tokens_per_second_per_gpu), 'tokens/s'],
      time.tokens_per_second_per_gpu,
      'tokens/s',
      line('step'),
    ),
    row('mfu', 'Model FLOPs utilization (MFU)', percent(time.mfu), time.mfu, 'fraction', line('MFU')),
    row('hfu', 'Hardware FLOPs utilization (HFU)', percent(time.hfu), time.hfu, 'fraction', line('MFU')),
    row(
      'micro_batches',
      'Micro-batches per step',
      [withThousands(time.micro_batches), ''],
      time.micro_batches,
      'count',
      line('micro-batches'),
    ),
    row(
      'bubble',
      'Pipeline bubble',
      percent(time.pipeline_bubble_fraction),
      time.pipeline_bubble_fraction,
      'fraction',
      line('pipeline'),
    ),
    row(
      'memory_bound',
      `Memory-bound kernels per micro-batch (${time.elementwise_kernels} elementwise ops, casts, loss${
        time.microbatch_dora_bytes > 0 ? ", DoRA's weight norms" : ''
      })`,
      secondsParts(time.microbatch_memory_seconds),
      time.microbatch_memory_seconds,
      's',
      line('micro-batch'),
    ),
    row(
      'dp_exposed',
      'Data-parallel time not overlapped',
      secondsParts(time.data_parallel_exposed_seconds),
      time.data_parallel_exposed_seconds,
      's',
      line('data parallel'),
    ),
    row(
      'train_days',
      `Time to train on ${tickLabel(time.train_tokens)} tokens`,
      [significant(time.train_days), 'days'],
      time.train_days,
      'days',
      line('training'),
    ),
    row(
      'train_gpu_hours',
      'GPU-hours',
      [figureText(time.train_gpu_hours), 'GPU-hours'],
      time.train_gpu_hours,
      'GPU-hours',
      line('training'),
    ),
    row(
      'train_cost',
      `Cost on ${gpuName}`,
      [dollars(time.train_cost_usd), 'USD'],
      time.train_cost_usd,
      'USD',
      line('training'),
    ),
  ];
  return withExpectedErrors(
    {
      id: 'training-time',
      title: `Step time and cost: ${withThousands(time.global_batch_tokens)} tokens per step, compute efficiency ${time.flops_efficiency}`,
      columns: ['Figure', 'Value', 'Unit'],
      keys: ['figure', 'value', 'unit'],
      rows,
    },
    {
      step: 'train_throughput',
      tokens_per_second: 'train_throughput',
      tokens_per_second_per_gpu: 'train_throughput',
      mfu: 'train_mfu',
      hfu: 'train_mfu',
    },
  );
}
