// SPDX-License-Identifier: MIT
// The Plan tab's switch between serving (inference) and training layouts.
import type { PlanKind } from '../training-plan-inputs';

interface Props {
  kind: PlanKind;
  onKind: (kind: PlanKind) => void;
}

const kinds: Array<[PlanKind, string]> = [
  ['inference', 'Inference (serving)'],
  ['training', 'Training'],
];

export function PlanKindSwitch({ kind, onKind }: Props) {
  return (
    <fieldset class="plan-kind" data-testid="plan-kind">
      <legend>Plan layouts for</legend>
      {kinds.map(([id, label]) => (
        <label class="checkbox" key={id}>
          <input
            type="radio"
            name="plan-kind"
            value={id}
            data-testid={`plan-kind-${id}`}
            checked={kind === id}
            onChange={() => onKind(id)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
