// SPDX-License-Identifier: MIT
// Training memory per GPU, in reading order: verdict, picture, table of terms with their formulas,
// the largest micro-batch, step time and cost (with a GPU), the setup as the core read it, and the
// activations of one layer.
import type { TrainingReport } from '../../core/types';
import {
  layerActivationsTable,
  trainingCapacityTable,
  trainingMemoryTable,
  trainingSetupTable,
  trainingTermGroup,
  trainingTermLabel,
  trainingTimeTable,
} from '../training-tables';
import type { ByteUnit } from '../../app/inputs';
import { TermsBar } from '../../ui/stacked-bar';
import { TableView } from '../../ui/table-view';
import { TrainingVerdict } from '../training-verdict';

const memoryTestIds: Record<string, string> = {
  total: 'train-total-per-gpu',
  budget: 'train-gpu-memory',
  verdict: 'train-headroom',
};

export function TrainingPanel({ report, unit }: { report: TrainingReport; unit: ByteUnit }) {
  const capacity = trainingCapacityTable(report);
  const terms = report.terms.map((term, index) => ({
    key: `${index}`,
    label: trainingTermLabel(term.name),
    bytes: term.bytes,
    className: `term-${trainingTermGroup(term.name)}`,
  }));
  return (
    <section class="training" data-testid="training-results" aria-label="Training memory">
      <TrainingVerdict report={report} unit={unit} />
      <TermsBar
        terms={terms}
        total={report.total_bytes_per_gpu}
        unit={unit}
        gpu={report.gpu}
        fits={report.fits}
        testId="train-bar"
      />
      <TableView
        table={trainingMemoryTable(report, unit)}
        textColumns={[0]}
        wideOnly={[1]}
        cellTestId={(row, column) =>
          column === 2 ? memoryTestIds[row.key] : column === 1 && row.key === 'total' ? 'train-total-bytes' : undefined
        }
      />
      {capacity && (
        <TableView
          table={capacity}
          textColumns={[0, 2]}
          cellTestId={(row, column) => (column === 1 ? `train-capacity-${row.key}` : undefined)}
        />
      )}
      {report.time && (
        <TableView
          table={trainingTimeTable(report.time, report.gpu?.name ?? 'the GPU')}
          textColumns={[0, 2]}
          cellTestId={(row, column) => (column === 1 ? `train-time-${row.key}` : undefined)}
        />
      )}
      <TableView table={trainingSetupTable(report)} textColumns={[0, 1]} />
      <TableView table={layerActivationsTable(report, unit)} textColumns={[0]} wideOnly={[1]} />
    </section>
  );
}
