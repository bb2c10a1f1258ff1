// SPDX-License-Identifier: MIT
// <fitcheck-calculator view="compact">: the verdict and the memory table alone, for a docs page
// that shows one configuration.
import { memoryTable } from '../../export/tables';
import { Verdict } from '../../inference/verdict';
import { modelLabel } from '../../model/model-source';
import { TableView } from '../../ui/table-view';
import type { CalculatorState } from '../use-calculator';

export function CompactView({ calculator }: { calculator: CalculatorState }) {
  const { inputs, model, inference, formats, loadError } = calculator;
  const report = inference.state.report;
  const error = loadError ?? model.error?.message ?? inference.state.error?.message;
  return (
    <section class="compact-view" aria-label="fitcheck" data-testid="compact-view">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!error && !report && <p class="muted">Loading the calculator…</p>}
      {report && model.params && (
        <>
          <p class="compact-model" data-testid="compact-model">
            <strong>{modelLabel(inputs, model.params.model_type)}</strong>: {report.workload.weights} weights, context{' '}
            {report.workload.context.toLocaleString('en-US')}, batch {report.workload.batch}
          </p>
          <Verdict report={report} unit={inputs.unit} />
          <TableView
            table={memoryTable(report, { unit: inputs.unit, formats, gpu: inference.gpu })}
            textColumns={[0]}
            wideOnly={[1]}
          />
        </>
      )}
    </section>
  );
}
