// SPDX-License-Identifier: MIT
// The first screen's answer: the model, the GPUs, the weight format, the context and batch, and
// whether it fits, in two lines above the inputs; every detail follows below.
import type { InferenceReport } from '../../core/types';
import { bytesIn, withThousands } from '../../ui/format';
import type { ByteUnit } from '../inputs';

interface Props {
  model: string;
  report: InferenceReport;
  unit: ByteUnit;
  /** The report is that of the last valid inputs (an input does not read now). */
  stale?: boolean;
  /** The fit is being checked on this GPU. */
  pendingGpu?: string;
  /** Moves to the detailed results (the hash holds the inputs, so no plain #results link). */
  onDetails: (event: Event) => void;
}

export function Summary({ model, report, unit, stale = false, pendingGpu, onDetails }: Props) {
  const { workload } = report;
  const gpus = workload.tp * workload.pp;
  const gpuName = report.gpu?.name ?? pendingGpu;
  const total = bytesIn(report.total_bytes_per_gpu, unit);
  let verdict: string;
  let tone = 'neutral';
  if (pendingGpu) verdict = `${total} per GPU; checking the fit…`;
  else if (!report.gpu) verdict = `${total} per GPU; choose a GPU to check the fit.`;
  else {
    const headroom = bytesIn(Math.abs(report.headroom_bytes ?? 0), unit);
    const budget = bytesIn(report.gpu.budget_bytes, unit);
    verdict = `${report.fits ? 'Fits' : 'Does not fit'}: ${total} per GPU of a ${budget} budget, ${headroom} ${report.fits ? 'to spare' : 'short'}.`;
    tone = report.fits ? 'fits' : 'no-fit';
  }
  return (
    <section
      class={stale ? 'summary stale' : 'summary'}
      aria-label="Summary"
      aria-busy={stale ? 'true' : 'false'}
      data-testid="summary"
    >
      <p class="summary-setup">
        <strong data-testid="summary-model">{model}</strong>
        {gpuName ? (
          <span data-testid="summary-gpus">
            {' on '}
            {gpus} × {gpuName}
          </span>
        ) : (
          <span data-testid="summary-gpus"> on no GPU chosen</span>
        )}
        <span class="summary-item" data-testid="summary-format">
          {workload.weights} weights, {workload.kv_dtype} KV cache
        </span>
        <span class="summary-item" data-testid="summary-context">
          context {withThousands(workload.context)}
        </span>
        <span class="summary-item" data-testid="summary-batch">
          batch {withThousands(workload.batch)}
        </span>
      </p>
      <p class={`summary-verdict ${tone}`} data-testid="summary-verdict">
        {verdict}{' '}
        <a href="#results" onClick={onDetails}>
          Details below
        </a>
      </p>
    </section>
  );
}
