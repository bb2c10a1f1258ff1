// SPDX-License-Identifier: MIT
// The answer first: does it fit, and by how much.
import type { FitChange, InferenceReport } from '../../core/types';
import { bytesIn, withThousands } from '../../ui/format';
import type { ByteUnit } from '../../app/inputs';

export function Verdict({
  report,
  unit,
  pendingGpu,
  onChange,
}: {
  report: InferenceReport;
  unit: ByteUnit;
  pendingGpu?: string;
  /** Applies one of the core's changes that fit (its options are workload fields). */
  onChange?: (options: FitChange['options']) => void;
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
  const start = report.engine_start;
  const changes = report.fits ? [] : (report.fit_changes ?? []);
  return (
    <>
      <p class={`verdict-banner ${report.fits ? 'fits' : 'no-fit'}`} data-testid="verdict" role="status">
        <strong>{report.fits ? 'Fits' : 'Does not fit'}</strong>
        {` on ${gpus} × ${report.gpu.name}: `}
        {bytesIn(report.total_bytes_per_gpu, unit)} per GPU of a {bytesIn(report.gpu.budget_bytes, unit)} budget
        {report.fits ? `, ${bytesIn(headroom, unit)} to spare.` : `, ${bytesIn(headroom, unit)} short.`}
      </p>
      {start && (
        <p
          class={start.starts ? 'muted' : 'verdict-banner no-fit'}
          data-testid="engine-start"
          role={start.starts ? undefined : 'status'}
          title={start.rule}
        >
          {start.starts ? 'vLLM starts' : <strong>vLLM refuses to start</strong>}
          {`: one request of max_model_len ${withThousands(start.max_model_len)}${start.max_model_len_from_config ? " (the config's)" : ''} needs ${bytesIn(start.needed_bytes, unit)} of KV cache, ${bytesIn(Math.max(0, start.available_bytes), unit)} left.`}
          {!start.starts &&
            (start.longest_max_model_len > 0 ? (
              <>
                {' '}
                <button
                  type="button"
                  data-testid="engine-start-fix"
                  disabled={!onChange}
                  onClick={() => onChange?.({ max_model_len: String(start.longest_max_model_len) })}
                >
                  --max-model-len {start.longest_max_model_len}
                </button>{' '}
                starts.
              </>
            ) : (
              ' No length starts: the weights and the profile run leave nothing for the cache.'
            ))}
        </p>
      )}
      {!report.fits && report.fit_changes === undefined && (
        <p class="muted" data-testid="fit-changes-pending" aria-busy="true">
          Looking for the changes that fit…
        </p>
      )}
      {changes.length > 0 && (
        <div class="fit-changes" data-testid="fit-changes">
          <p>Each of these fits on its own:</p>
          <ul>
            {changes.map((change) => (
              <li key={change.what}>
                <button
                  type="button"
                  data-testid={`fit-change-${change.what}`}
                  disabled={!onChange}
                  onClick={() => onChange?.(change.options)}
                >
                  {change.summary.charAt(0).toUpperCase() + change.summary.slice(1)}
                </button>{' '}
                <span class="muted">
                  {bytesIn(change.total_bytes_per_gpu, unit)} per GPU, {bytesIn(change.headroom_bytes, unit)} to spare
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
