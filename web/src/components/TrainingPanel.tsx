// SPDX-License-Identifier: MIT
// Training memory comes from the core once it exports it; until then the page says so and shows
// no number of its own.
import type { FitcheckModule } from '../core/types';

export function TrainingPanel({ core }: { core?: FitcheckModule }) {
  const exported = core && typeof (core as unknown as Record<string, unknown>).trainingReport === 'function';
  return (
    <section class="coming" data-testid="training-coming">
      <h2>Training memory</h2>
      {exported ? (
        <p>This build of the core exports a training report; its view on this page is not written yet.</p>
      ) : (
        <p>
          Training memory (weights, gradients, optimizer states, activations with recomputation, ZeRO/FSDP sharding) is being
          added to the core. It will appear here when the core exports it; fitcheck shows no estimate the core has not computed.
        </p>
      )}
      <p class="muted">The parameter count below already applies to training.</p>
    </section>
  );
}
