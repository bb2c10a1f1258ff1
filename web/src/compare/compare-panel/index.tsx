// SPDX-License-Identifier: MIT
// A pinned result beside the current one: what changed when the model, GPU or layout did. The
// lines follow the tab shown: inference (memory, latency, cost) or training (memory); they are
// built in compare-lines.ts.
import type { ByteUnit } from '../../app/inputs';
import { change, compareLines } from '../compare-lines';
import type { Snapshot } from '../snapshot';

interface Props {
  pinned: Snapshot;
  current?: Snapshot;
  unit: ByteUnit;
  /** Training compares training reports; otherwise inference. */
  training?: boolean;
  onUnpin: () => void;
}

export function ComparePanel({ pinned, current, unit, training = false, onUnpin }: Props) {
  const shown = compareLines(pinned, current, unit, training);
  return (
    <section class="compare" data-testid="compare">
      <table class="figures">
        <caption>
          <div class="caption-row">
            <span>Pinned vs current</span>
            <button type="button" class="link-button" data-testid="unpin" onClick={onUnpin}>
              Unpin
            </button>
          </div>
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col" class="number">
              Pinned
            </th>
            <th scope="col" class="number">
              Current
            </th>
            <th scope="col" class="number">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((line) => (
            <tr key={line.key} data-row={line.key}>
              <th scope="row">{line.label}</th>
              <td class="number" data-testid={`pinned-${line.key}`}>
                {line.text(pinned)}
              </td>
              <td class="number" data-testid={`current-${line.key}`}>
                {current ? line.text(current) : '–'}
              </td>
              <td class="number">{current ? change(line, pinned, current, unit) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
