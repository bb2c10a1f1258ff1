// SPDX-License-Identifier: MIT
// The training answer first: does the run fit on its GPUs, and by how much.
import type { TrainingReport } from '../../core/types';
import type { ByteUnit } from '../../app/inputs';
import { bytesIn } from '../../ui/format';
import { describeParallel } from '../training-tables';

export function TrainingVerdict({ report, unit }: { report: TrainingReport; unit: ByteUnit }) {
  const layout = `${report.parallel.gpus} × ${report.gpu?.name ?? 'GPU'} (${describeParallel(report)})`;
  if (!report.gpu) {
    return (
      <p class="verdict-banner neutral" data-testid="train-verdict">
        {bytesIn(report.total_bytes_per_gpu, unit)} per GPU. Choose a GPU to check the fit.
      </p>
    );
  }
  const headroom = Math.abs(report.headroom_bytes ?? 0);
  return (
    <p class={`verdict-banner ${report.fits ? 'fits' : 'no-fit'}`} data-testid="train-verdict" role="status">
      <strong>{report.fits ? 'Fits' : 'Does not fit'}</strong>
      {` on ${layout}: `}
      {bytesIn(report.total_bytes_per_gpu, unit)} per GPU of {bytesIn(report.gpu.memory_bytes, unit)}
      {report.fits ? `, ${bytesIn(headroom, unit)} to spare.` : `, ${bytesIn(headroom, unit)} short.`}
    </p>
  );
}
