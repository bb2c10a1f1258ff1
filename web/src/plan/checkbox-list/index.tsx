// SPDX-License-Identifier: MIT
// A multiple choice as a group of checkboxes (grouped when items carry a group), its value a comma
// list in the order of the items.
import type { CoreError } from '../../core/types';
import { listOf, toggled } from '../plan-inputs';

export interface CheckboxItem {
  id: string;
  label: string;
  group?: string;
}

interface Props {
  id: string;
  legend: string;
  items: CheckboxItem[];
  value: string;
  help?: string;
  error?: CoreError;
  /** Scrolls within a box (long lists). */
  tall?: boolean;
  onValue: (value: string) => void;
}

export function CheckboxList({ id, legend, items, value, help, error, tall = false, onValue }: Props) {
  const chosen = new Set(listOf(value));
  const all = items.map((item) => item.id);
  const groups = new Map<string, CheckboxItem[]>();
  for (const item of items) groups.set(item.group ?? '', [...(groups.get(item.group ?? '') ?? []), item]);
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset
      class={error ? 'checkbox-list invalid' : 'checkbox-list'}
      data-testid={id}
      aria-describedby={[errorId, helpId].filter(Boolean).join(' ') || undefined}
    >
      <legend>
        {legend} <span class="count">({chosen.size} chosen)</span>
      </legend>
      {error && (
        <p id={errorId} class="error" role="alert" data-testid={`${id}-error`}>
          {error.message}
        </p>
      )}
      <div class={tall ? 'choices tall' : 'choices'}>
        {[...groups.entries()].map(([group, members]) => (
          <div class="choice-group" key={group}>
            {group && <p class="choice-group-name">{group}</p>}
            {members.map((item) => (
              <label key={item.id} class="checkbox">
                <input
                  type="checkbox"
                  value={item.id}
                  data-testid={`${id}-${item.id}`}
                  checked={chosen.has(item.id)}
                  onChange={(e) => onValue(toggled(value, item.id, e.currentTarget.checked, all))}
                />
                {item.label}
              </label>
            ))}
          </div>
        ))}
      </div>
      {help && (
        <p id={helpId} class="help">
          {help}
        </p>
      )}
    </fieldset>
  );
}
