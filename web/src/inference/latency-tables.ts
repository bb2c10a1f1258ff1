// SPDX-License-Identifier: MIT
// Latency, throughput and cost as table data (rendered by the page, serialized by the exports).
// Every figure is the core's; each row carries the core's summary line as its formula.
import type { Accelerator, InferenceReport, LatencyReport } from '../core/types';
import { bytesScaled, dollars, duration, siCount, siParts, siUnit, significant, withThousands } from '../ui/format';
import type { ByteUnit } from '../app/inputs';
import { withExpectedErrors } from '../accuracy/expected-error';
import { figureCells, rateCells, secondsCells, type Cell, type Row, type TableModel } from '../export/tables';

const opLabels: Record<string, string> = {
  embedding: 'Embedding lookup',
  qkv_projection: 'Q/K/V projection',
  attention: 'Attention core',
  output_projection: 'Output projection',
  mlp: 'MLP',
  moe_router: 'MoE router',
  moe_experts: 'MoE routed experts',
  moe_shared_experts: 'MoE shared experts',
  norms: 'Norms',
  lm_head: 'lm_head (logits)',
  tp_collectives: 'Tensor-parallel collectives',
  pp_transfer: 'Pipeline stage transfers',
  ep_all_to_all: 'Expert-parallel all-to-all',
  sparse_indexer: 'Sparse-attention indexer',
};

export function opLabel(op: string): string {
  return opLabels[op] ?? op.replace(/_/g, ' ');
}

export function boundLabel(bound: string): string {
  return `${bound}-bound`;
}

export type OpPhase = 'prefill' | 'decode_first' | 'decode_last';

export const phaseLabels: Record<OpPhase, string> = {
  prefill: 'Prefill',
  decode_first: 'Decode, first step',
  decode_last: 'Decode, last step',
};

const text = (value: string): Cell => ({ text: value, value });

const figure = figureCells;
const seconds = secondsCells;
const si = (value: number, unit: string) => {
  const [number, prefix] = siParts(value);
  return figure([number, prefix + unit], value, unit);
};
const rate = rateCells;

function summaryLine(latency: LatencyReport, prefix: string): string | undefined {
  return latency.summary.find((line) => line.startsWith(prefix));
}

function phaseText(phase: { dominant_op: string; dominant_bound: string; seconds: number }): string {
  return `${opLabel(phase.dominant_op)} (${boundLabel(phase.dominant_bound)}, ${duration(phase.seconds)})`;
}

export function latencyTable(
  report: InferenceReport,
  latency: LatencyReport,
  unit: ByteUnit,
  gpu?: Accelerator,
): TableModel {
  const { batch } = report.workload;
  const gpuName = report.gpu?.name ?? gpu?.name ?? 'GPU';
  const used = latency.assumptions_used;
  const row = (key: string, label: string, cells: Cell[], formula?: string, source?: string): Row => ({
    key,
    cells: [text(label), ...cells],
    formula,
    source,
  });
  const peak = gpu?.dense_flops_per_second[used.matmul_dtype as keyof Accelerator['dense_flops_per_second']];
  const rows: Row[] = [
    row(
      'time_to_first_token',
      'Time to first token',
      seconds(latency.time_to_first_token_seconds),
      summaryLine(latency, 'time to first token'),
    ),
    row(
      'decode_step_first',
      'Time per output token, start',
      seconds(latency.decode_step_first_seconds),
      summaryLine(latency, 'decode step'),
    ),
    row(
      'decode_step_last',
      'Time per output token, end',
      seconds(latency.decode_step_last_seconds),
      summaryLine(latency, 'decode step'),
    ),
    row(
      'decode_total',
      'Decode, all steps',
      seconds(latency.decode_total_seconds),
      summaryLine(latency, 'decode total'),
    ),
    row('end_to_end', 'End-to-end latency', seconds(latency.end_to_end_seconds), summaryLine(latency, 'end to end')),
    row(
      'request_tokens_per_second',
      'Tokens/s per request',
      rate(latency.request_tokens_per_second, 'tokens/s'),
      summaryLine(latency, 'end to end'),
    ),
    row(
      'batch_tokens_per_second',
      `Tokens/s, batch of ${withThousands(batch)}`,
      rate(latency.batch_tokens_per_second, 'tokens/s'),
      summaryLine(latency, 'end to end'),
    ),
    row(
      'prefill_tokens_per_second',
      'Prefill tokens/s',
      rate(latency.prefill_tokens_per_second, 'tokens/s'),
      summaryLine(latency, 'time to first token'),
    ),
    row(
      'decode_tokens_per_second',
      'Decode tokens/s, batch',
      rate(latency.decode_tokens_per_second, 'tokens/s'),
      summaryLine(latency, 'decode total'),
    ),
    row(
      'price_per_hour',
      `Price, ${latency.gpus} × ${gpuName}`,
      figure([dollars(latency.price_per_hour_usd), 'USD/h'], latency.price_per_hour_usd, 'USD/h'),
      summaryLine(latency, 'price'),
      gpu?.price_source,
    ),
    row(
      'cost_per_million_input_tokens',
      'Cost per million input tokens',
      figure(
        [dollars(latency.cost_per_million_input_tokens_usd), 'USD'],
        latency.cost_per_million_input_tokens_usd,
        'USD',
      ),
      summaryLine(latency, 'price'),
    ),
    row(
      'cost_per_million_output_tokens',
      'Cost per million output tokens',
      figure(
        [dollars(latency.cost_per_million_output_tokens_usd), 'USD'],
        latency.cost_per_million_output_tokens_usd,
        'USD',
      ),
      summaryLine(latency, 'price'),
    ),
    row(
      'bottleneck',
      'Dominated by',
      // The bound in the unit column, where text wraps on a narrow screen.
      [
        { text: opLabel(latency.dominant_op), value: latency.dominant_op },
        { text: boundLabel(latency.dominant_bound), value: boundLabel(latency.dominant_bound) },
      ],
      `${latency.prefill_dominates ? 'prefill' : 'decode'} takes most of the request. Prefill: ${phaseText(latency.phases.prefill)}; decode step: ${phaseText(latency.phases.decode_full)}`,
    ),
    row(
      'decode_weight_bytes',
      'Weights read per step, per GPU',
      [
        {
          text: bytesScaled(latency.decode_weight_bytes_read_per_gpu, unit),
          value: latency.decode_weight_bytes_read_per_gpu,
        },
        { text: '', value: 'B' },
      ],
      summaryLine(latency, 'weights per GPU'),
    ),
    row(
      'compute_ceiling',
      `Matrix products in ${used.matmul_dtype}${used.fp8_activations ? '' : ' (fp8 activations off)'}`,
      si(used.matmul_flops_per_second, 'FLOP/s'),
      peak
        ? `${used.matmul_dtype} peak ${siUnit(peak, 'FLOP/s')} x flops_efficiency ${used.flops_efficiency} = ${siUnit(used.matmul_flops_per_second, 'FLOP/s')}`
        : undefined,
      gpu?.sources,
    ),
    row(
      'memory_ceiling',
      'HBM bandwidth used',
      si(used.hbm_bytes_per_second, 'B/s'),
      gpu
        ? `datasheet ${siUnit(gpu.memory_bandwidth_bytes_per_second, 'B/s')} x hbm_efficiency ${used.hbm_efficiency} = ${siUnit(used.hbm_bytes_per_second, 'B/s')}`
        : undefined,
      gpu?.sources,
    ),
  ];
  return withExpectedErrors(
    {
      id: 'latency',
      title: `Latency, throughput and cost: prompt ${withThousands(latency.prompt_len)} + output ${withThousands(latency.gen_len)} tokens, batch ${withThousands(batch)}, ${latency.gpus} × ${gpuName}`,
      columns: ['Figure', 'Value', 'Unit'],
      keys: ['figure', 'value', 'unit'],
      rows,
    },
    // One batch, no queue: the error over the published runs whose requests did not queue.
    {
      time_to_first_token: 'serve_ttft_unqueued',
      prefill_tokens_per_second: 'serve_ttft_unqueued',
      decode_step_first: 'serve_tpot_unqueued',
      decode_step_last: 'serve_tpot_unqueued',
      request_tokens_per_second: 'serve_throughput_unqueued',
      batch_tokens_per_second: 'serve_throughput_unqueued',
      decode_tokens_per_second: 'serve_throughput_unqueued',
    },
  );
}

/** One phase's operations: FLOPs, bytes, arithmetic intensity, time and bound, per GPU. */
export function opsTable(latency: LatencyReport, phase: OpPhase, unit: ByteUnit): TableModel {
  const lines = latency.lines.filter((line) => line.phase === phase);
  const phaseReport = latency.phases[phase];
  const rows: Row[] = lines.map((line) => ({
    key: line.op,
    cells: [
      text(opLabel(line.op)),
      { text: siCount(line.flops), value: line.flops },
      { text: bytesScaled(line.bytes, unit), value: line.bytes },
      {
        text: line.bytes > 0 && line.flops > 0 ? significant(line.flops / line.bytes, 3) : '–',
        value: line.bytes > 0 ? line.flops / line.bytes : 0,
      },
      { text: duration(line.seconds), value: line.seconds },
      text(line.bound),
    ],
    formula: line.formula,
  }));
  rows.push({
    key: 'total',
    footer: true,
    cells: [
      text(`${phaseLabels[phase]}, total`),
      text(''),
      text(''),
      text(''),
      { text: duration(phaseReport.seconds), value: phaseReport.seconds },
      text(`${opLabel(phaseReport.dominant_op)} dominates`),
    ],
  });
  return {
    id: `ops-${phase.replace('_', '-')}`,
    title: `${phaseLabels[phase]}: time per operation, per GPU`,
    columns: ['Operation', 'FLOPs', 'Bytes', 'FLOP/B', 'Time', 'Bound'],
    keys: ['operation', 'flops', 'bytes', 'flops_per_byte', 'seconds', 'bound'],
    rows,
  };
}
