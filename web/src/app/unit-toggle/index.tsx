// SPDX-License-Identifier: MIT
import type { ByteUnit } from '../inputs';

export function UnitToggle({ unit, onUnit }: { unit: ByteUnit; onUnit: (unit: ByteUnit) => void }) {
  return (
    <fieldset class="segmented unit-toggle">
      <legend>Units</legend>
      {(['GiB', 'GB'] as const).map((id) => (
        <label key={id} title={id === 'GiB' ? '2³⁰ bytes' : '10⁹ bytes'}>
          <input
            type="radio"
            name="unit"
            value={id}
            data-testid={`unit-${id}`}
            checked={unit === id}
            onChange={() => onUnit(id)}
          />
          {id}
        </label>
      ))}
    </fieldset>
  );
}
