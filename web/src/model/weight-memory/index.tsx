// SPDX-License-Identifier: MIT
// Weights at 16 bits (from the parameter report, at once) and, on request, in every format the
// core knows (one inferenceReport per format).
import { useState } from 'preact/hooks';
import type { ParameterReport } from '../../core/types';
import type { TableModel } from '../../export/tables';
import { gb, gib, withThousands } from '../../ui/format';
import { TableView } from '../../ui/table-view';

interface Props {
  report: ParameterReport;
  /** Built when the user opens "every format"; undefined until then. */
  formats?: TableModel;
  onWantFormats?: () => void;
}

export function WeightMemory({ report, formats, onWantFormats }: Props) {
  const weights = report.weights_16bit;
  const [asked, setAsked] = useState(false);
  return (
    <section class="weights">
      <table class="figures" data-testid="memory-table">
        <caption>
          <span>Weight memory at 16 bits</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Format</th>
            <th scope="col" class="number wide-only">
              Bytes
            </th>
            <th scope="col" class="number">
              GiB (2³⁰ B)
            </th>
            <th scope="col" class="number">
              GB (10⁹ B)
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">bf16 / fp16 ({weights.bytes_per_parameter} bytes per parameter)</th>
            <td class="number wide-only">{withThousands(weights.bytes)}</td>
            <td class="number" data-testid="weights-gib">
              {gib(weights.bytes)}
            </td>
            <td class="number">{gb(weights.bytes)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={4} class="formula">
              {weights.formula}
            </td>
          </tr>
        </tfoot>
      </table>
      {onWantFormats && (
        <details
          data-testid="weight-formats"
          onToggle={(e) => {
            if (e.currentTarget.open && !asked) {
              setAsked(true);
              onWantFormats();
            }
          }}
        >
          <summary>Weights in every format</summary>
          {formats ? <TableView table={formats} textColumns={[0]} wideOnly={[2]} /> : <p class="muted">Computing…</p>}
        </details>
      )}
    </section>
  );
}
