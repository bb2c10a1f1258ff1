// SPDX-License-Identifier: MIT
// The serving simulation's figures as table data (rendered by the page). Every figure is the
// core's servingReport; each row says what it counts over the simulated requests.
import type { ServingReport } from '../core/types';
import { duration, figureText, withThousands } from '../ui/format';
import { withExpectedErrors } from '../accuracy/expected-error';
import { rateCells as count, secondsCells as seconds, type Cell, type Row, type TableModel } from '../export/tables';

const text = (value: string): Cell => ({ text: value, value });

export function servingTable(report: ServingReport): TableModel {
  const { load, scheduler } = report;
  const row = (key: string, label: string, cells: Cell[], formula?: string): Row => ({
    key: `load_${key}`,
    cells: [text(label), ...cells],
    formula,
  });
  const requests = `${withThousands(report.requests)} requests`;
  const arrival =
    load.concurrency > 0
      ? `${withThousands(load.concurrency)} in flight (a new one as each finishes)`
      : `Poisson arrivals at ${figureText(load.arrival_rate)} requests/s`;
  const simulated = `${requests}, ${arrival}, over ${duration(report.duration_seconds)} simulated`;
  const ttft = `arrival to first token, queue and request overhead included; over ${requests}`;
  const tpot = `(last token - first token) / (output tokens - 1) per request; over ${requests}`;
  const rows: Row[] = [
    row(
      'output_tokens_per_second',
      'Output tokens/s',
      count(report.output_tokens_per_second, 'tokens/s'),
      `${withThousands(report.output_tokens)} output tokens / ${duration(report.duration_seconds)}: ${simulated}`,
    ),
    row(
      'requests_per_second',
      'Requests/s',
      count(report.requests_per_second, 'requests/s'),
      `${requests} / ${duration(report.duration_seconds)}`,
    ),
    row('ttft_p50', 'Time to first token, median', seconds(report.ttft_seconds_p50), ttft),
    row('ttft_p90', 'Time to first token, p90', seconds(report.ttft_seconds_p90), ttft),
    row('ttft_p99', 'Time to first token, p99', seconds(report.ttft_seconds_p99), ttft),
    row('tpot_p50', 'Time per output token, median', seconds(report.tpot_seconds_p50), tpot),
    row('tpot_p90', 'Time per output token, p90', seconds(report.tpot_seconds_p90), tpot),
    row('tpot_p99', 'Time per output token, p99', seconds(report.tpot_seconds_p99), tpot),
    row(
      'queue',
      'Wait in the queue, mean',
      seconds(report.queue_seconds_mean),
      'arrival to the first step that schedules the request',
    ),
    row(
      'running',
      'Sequences running, mean',
      count(report.mean_running_batch, 'sequences'),
      `weighted by each step's time over ${withThousands(report.steps)} steps; at most ${withThousands(report.max_running)} (max_num_seqs ${withThousands(scheduler.max_num_seqs)}, ${withThousands(scheduler.max_num_batched_tokens)} tokens a step)`,
    ),
    row(
      'kv_capacity',
      'KV cache capacity',
      count(scheduler.kv_capacity_tokens, 'tokens'),
      `${withThousands(scheduler.kv_capacity_blocks)} blocks of ${withThousands(scheduler.kv_block_tokens)} tokens; ` +
        `peak ${withThousands(report.peak_kv_blocks_used)} blocks used${report.kv_limited ? ' (the cache, not the scheduler, limited the batch)' : ''}`,
    ),
    row(
      'preemptions',
      'Preemptions',
      count(report.preemptions, 'requests'),
      'requests evicted when the KV cache ran out, recomputed later',
    ),
  ];
  return withExpectedErrors(
    {
      id: 'serving-load',
      title: `Serving under load: ${simulated}`,
      columns: ['Figure', 'Value', 'Unit'],
      keys: ['figure', 'value', 'unit'],
      rows,
    },
    {
      load_output_tokens_per_second: 'serve_throughput',
      load_ttft_p50: 'serve_ttft',
      load_ttft_p90: 'serve_ttft',
      load_ttft_p99: 'serve_ttft',
      load_tpot_p50: 'serve_tpot',
      load_tpot_p90: 'serve_tpot',
      load_tpot_p99: 'serve_tpot',
    },
  );
}
