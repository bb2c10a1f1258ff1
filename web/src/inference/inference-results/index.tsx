// SPDX-License-Identifier: MIT
// Inference results, in reading order: verdict, picture, table, capacity, memory charts, then
// (with a GPU) latency, throughput and cost.
import type { Accelerator, FitChange, FormatCatalog, InferenceReport } from '../../core/types';
import { capacityTable, memoryTable } from '../../export/tables';
import type { SweepPoint } from '../sweep';
import type { ByteUnit, OpsPhase } from '../../app/inputs';
import { afterPaint } from '../../ui/after-paint';
import { lazyComponent } from '../../ui/lazy';
import { StackedBar } from '../stacked-bar';
import { TableView } from '../../ui/table-view';
import { Verdict } from '../verdict';

interface Props {
  report: InferenceReport;
  /** The fit and capacity answers are being recomputed (report has no GPU part yet). */
  pending?: boolean;
  lastFull?: InferenceReport;
  pendingGpu?: string;
  unit: ByteUnit;
  formats?: FormatCatalog;
  gpu?: Accelerator;
  /** The GPU of the report the latency figures come from (the last complete one while pending). */
  latencyGpu?: Accelerator;
  byContext?: SweepPoint[];
  byBatch?: SweepPoint[];
  /** Applies one of the verdict's changes that fit. */
  onFitChange?: (options: FitChange['options']) => void;
  /** The operations table's phase (kept in the link), and its change. */
  opsPhase?: OpsPhase;
  onOpsPhase?: (phase: OpsPhase) => void;
}

// The charts and latency tables are a separate chunk (with the chart library), drawn right after
// the memory table; use-inference-tab.ts starts fetching it when the inference report is about to run.
const details = () => import('../inference-details');
// Both below the first screen: an edit redraws them in the task after its first paint (after-paint.ts).
const LazyMemoryCharts = lazyComponent(
  () => details().then((m) => m.MemoryCharts),
  () => <p class="muted">Drawing the charts…</p>,
);
const MemoryCharts = afterPaint(LazyMemoryCharts);
const LatencyResults = afterPaint(lazyComponent(() => details().then((m) => m.LatencyResults)));
export const preloadInferenceDetails = LazyMemoryCharts.preload;

const memoryTestIds: Record<string, string> = { total: 'total-per-gpu', budget: 'gpu-budget', verdict: 'headroom' };

export function InferenceResults({
  report,
  pending = false,
  lastFull,
  pendingGpu,
  unit,
  formats,
  gpu,
  latencyGpu,
  byContext,
  byBatch,
  onFitChange,
  opsPhase,
  onOpsPhase,
}: Props) {
  // While pending, the previous capacity answers stay in place, dimmed, so nothing jumps.
  const capacity = capacityTable(pending && lastFull ? lastFull : report);
  const latencyFrom = pending ? lastFull : report;
  return (
    <>
      <Verdict report={report} unit={unit} pendingGpu={pending ? pendingGpu : undefined} onChange={onFitChange} />
      <StackedBar report={report} unit={unit} />
      <TableView
        table={memoryTable(report, { unit, formats, gpu })}
        textColumns={[0]}
        wideOnly={[1]}
        cellTestId={(row, column) => (column === 2 ? (memoryTestIds[row.key] ?? `term-${row.key}`) : undefined)}
      />
      {capacity && (
        <div class={pending ? 'stale' : undefined} aria-busy={pending ? 'true' : 'false'}>
          <TableView
            table={capacity}
            textColumns={[0, 2]}
            cellTestId={(row, column) => (column === 1 && !pending ? `capacity-${row.key}` : undefined)}
          />
        </div>
      )}
      <MemoryCharts report={report} unit={unit} byContext={byContext} byBatch={byBatch} />
      {latencyFrom?.latency ? (
        <LatencyResults
          report={latencyFrom}
          latency={latencyFrom.latency}
          unit={unit}
          gpu={latencyGpu ?? gpu}
          stale={pending}
          hypothetical={latencyFrom.fits === false}
          phase={opsPhase}
          onPhase={onOpsPhase}
        />
      ) : (
        !pending && (
          <p class="muted" data-testid="latency-needs-gpu">
            Choose a GPU to see time to first token, decode speed, throughput and cost.
          </p>
        )
      )}
    </>
  );
}
