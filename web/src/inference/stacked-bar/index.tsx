// SPDX-License-Identifier: MIT
// The inference report's memory terms as one GPU's stacked bar.
import type { InferenceReport } from '../../core/types';
import type { ByteUnit } from '../../app/inputs';
import { termLabel } from '../../export/tables';
import { TermsBar } from '../../ui/stacked-bar';

export function StackedBar({ report, unit }: { report: InferenceReport; unit: ByteUnit }) {
  const terms = report.terms.map((term) => ({
    key: term.name,
    label: termLabel(term.name),
    bytes: term.bytes,
    className: `term-${term.name}`,
  }));
  return <TermsBar terms={terms} total={report.total_bytes_per_gpu} unit={unit} gpu={report.gpu} fits={report.fits} />;
}
