// SPDX-License-Identifier: MIT
// The answer first: does it fit, and by how much.
import type { InferenceReport } from '../../core/types';
import { bytesIn } from '../../ui/format';
import type { ByteUnit } from '../../app/inputs';

export function Verdict({
  report,
  unit,
  pendingGpu,
}: {
  report: InferenceReport;
  unit: ByteUnit;
  pendingGpu?: string;
}) {
  const gpus = report.workload.tp * report.workload.pp;
  if (pendingGpu) {
    return (
      <p class="verdict-banner neutral" data-testid="verdict-pending" aria-busy="true">
        {bytesIn(report.total_bytes_per_gpu, unit)} per GPU. Checking the fit on {gpus} × {pendingGpu}…
      </p>
    );
  }
  if (!report.gpu) {
    return (
      <p class="verdict-banner neutral" data-testid="verdict">
        {bytesIn(report.total_bytes_per_gpu, unit)} per GPU. Choose a GPU to check the fit.
      </p>
    );
  }
  const headroom = Math.abs(report.headroom_bytes ?? 0);
  return (
    <p class={`verdict-banner ${report.fits ? 'fits' : 'no-fit'}`} data-testid="verdict" role="status">
      <strong>{report.fits ? 'Fits' : 'Does not fit'}</strong>
      {` on ${gpus} × ${report.gpu.name}: `}
      {bytesIn(report.total_bytes_per_gpu, unit)} per GPU of a {bytesIn(report.gpu.budget_bytes, unit)} budget
      {report.fits ? `, ${bytesIn(headroom, unit)} to spare.` : `, ${bytesIn(headroom, unit)} short.`}
    </p>
  );
}
