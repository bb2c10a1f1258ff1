// SPDX-License-Identifier: MIT
import type { ParameterReport } from '../core/types';

export function Notes({ report }: { report: ParameterReport }) {
  if (report.assumptions.length === 0 && report.not_counted.length === 0) return null;
  return (
    <section class="notes" data-testid="assumptions">
      <h2>What fitcheck assumed</h2>
      <ul>
        {report.not_counted.map((line) => (
          <li key={line}>{line}</li>
        ))}
        {report.assumptions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
