// SPDX-License-Identifier: MIT
// Latency, throughput and cost with a GPU chosen: the figures, each with the core's summary line;
// the time of each operation in prefill and in a decode step; and the roofline picture.
import { useState } from 'preact/hooks';
import type { Accelerator, InferenceReport, LatencyReport } from '../../core/types';
import { latencyTable, opsTable, phaseLabels, type OpPhase } from '../latency-tables';
import type { ByteUnit } from '../../app/inputs';
import { Roofline } from '../roofline';
import { TableView } from '../../ui/table-view';

interface Props {
  report: InferenceReport;
  latency: LatencyReport;
  unit: ByteUnit;
  gpu?: Accelerator;
  /** Being recomputed: shown dimmed. */
  stale?: boolean;
  /** The setup does not fit: the figures are what it would do if it did. */
  hypothetical?: boolean;
  /** The operations table's phase (kept in the link), and its change; without them, its own. */
  phase?: OpPhase;
  onPhase?: (phase: OpPhase) => void;
}

const phases = Object.keys(phaseLabels) as OpPhase[];

export function LatencyResults({ report, latency, unit, gpu, stale = false, hypothetical = false, ...chosen }: Props) {
  const [own, setOwn] = useState<OpPhase>('prefill');
  const phase = chosen.phase ?? own;
  const onPhase = chosen.onPhase ?? setOwn;
  return (
    <section
      class={stale ? 'latency stale' : 'latency'}
      aria-labelledby="latency-heading"
      aria-busy={stale ? 'true' : 'false'}
      data-testid="latency"
    >
      <h2 id="latency-heading">Speed and cost{hypothetical ? ' (hypothetical)' : ''}</h2>
      {hypothetical && (
        <p class="notice" data-testid="latency-hypothetical">
          This setup does not fit, so it would not run: these figures are what it would do if it did. Pick one of the
          changes that fit above to see real ones.
        </p>
      )}
      <TableView
        table={latencyTable(report, latency, unit, gpu)}
        textColumns={[0, 2]}
        cellTestId={(row, column) =>
          stale ? undefined : column === 1 ? `latency-${row.key}` : column === 2 ? `latency-${row.key}-unit` : undefined
        }
      />
      <fieldset class="segmented phase-choice">
        <legend>Operations of</legend>
        {phases.map((id) => (
          <label key={id}>
            <input
              type="radio"
              name="ops-phase"
              value={id}
              data-testid={`ops-${id}`}
              checked={phase === id}
              onChange={() => onPhase(id)}
            />
            {phaseLabels[id]}
          </label>
        ))}
      </fieldset>
      <TableView
        table={opsTable(latency, phase, unit)}
        testId="ops-table"
        textColumns={[0, 5]}
        wideOnly={[1, 2, 3]}
        cellTestId={(row, column) => (column === 4 && !stale ? `op-${row.key}-time` : undefined)}
      />
      <Roofline latency={latency} gpu={gpu} />
    </section>
  );
}
