// SPDX-License-Identifier: MIT
import type { ParameterReport } from '../core/types';
import { gb, gib, withThousands } from '../format';

export function WeightMemory({ report }: { report: ParameterReport }) {
  const weights = report.weights_16bit;
  return (
    <table class="figures" data-testid="memory-table">
      <caption>Weight memory</caption>
      <thead>
        <tr>
          <th scope="col">Format</th>
          <th scope="col" class="number">Bytes</th>
          <th scope="col" class="number">GiB (2³⁰ B)</th>
          <th scope="col" class="number">GB (10⁹ B)</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">bf16 / fp16 ({weights.bytes_per_parameter} bytes per parameter)</th>
          <td class="number">{withThousands(weights.bytes)}</td>
          <td class="number" data-testid="weights-gib">{gib(weights.bytes)}</td>
          <td class="number">{gb(weights.bytes)}</td>
        </tr>
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} class="formula">{weights.formula}</td>
        </tr>
      </tfoot>
    </table>
  );
}
