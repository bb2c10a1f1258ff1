// SPDX-License-Identifier: MIT
// Memory per GPU against context length and against batch size, with the GPU's budget.
import type { InferenceReport } from '../../core/types';
import { bytesIn, bytesValue, tokens, withThousands } from '../../ui/format';
import type { SweepPoint } from '../sweep';
import type { ByteUnit } from '../../app/inputs';
import { LineChart, type Series } from '../../ui/line-chart';

interface Props {
  report: InferenceReport;
  unit: ByteUnit;
  byContext?: SweepPoint[];
  byBatch?: SweepPoint[];
}

function seriesOf(points: SweepPoint[], unit: ByteUnit): Series[] {
  const pick = (key: keyof SweepPoint) => points.map((p) => ({ x: p.x, y: bytesValue(p[key], unit) }));
  return [
    { name: 'Total per GPU', className: 'series-total', points: pick('total_bytes') },
    { name: 'KV cache', className: 'series-kv', points: pick('kv_cache_bytes') },
    { name: 'Weights', className: 'series-weights', points: pick('weight_bytes') },
  ];
}

export function MemoryCharts({ report, unit, byContext, byBatch }: Props) {
  const limit = report.gpu
    ? { y: bytesValue(report.gpu.budget_bytes, unit), label: `budget ${bytesIn(report.gpu.budget_bytes, unit)}` }
    : undefined;
  const formatY = (y: number) => `${Number.isInteger(y) || y >= 100 ? y.toFixed(0) : y.toFixed(1)} ${unit}`;
  if (!byContext && !byBatch) return <p class="muted">Drawing the charts…</p>;
  return (
    <div class="charts">
      {byContext && (
        <LineChart
          id="chart-context"
          title={`Memory per GPU vs context length (batch ${report.workload.batch})`}
          xLabel="context length (tokens, log scale)"
          yLabel={`memory per GPU (${unit})`}
          series={seriesOf(byContext, unit)}
          limit={limit}
          marker={report.workload.context}
          formatX={tokens}
          formatY={formatY}
        />
      )}
      {byBatch && (
        <LineChart
          id="chart-batch"
          title={`Memory per GPU vs batch size (context ${tokens(report.workload.context)})`}
          xLabel="batch size (sequences, log scale)"
          yLabel={`memory per GPU (${unit})`}
          series={seriesOf(byBatch, unit)}
          limit={limit}
          marker={report.workload.batch}
          formatX={withThousands}
          formatY={formatY}
        />
      )}
    </div>
  );
}
