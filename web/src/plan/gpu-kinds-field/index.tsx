// SPDX-License-Identifier: MIT
// The GPU kinds a planner searches (both planners' forms): a checklist of the catalog and a custom
// GPU, whose form opens when it is ticked.
import type { Accelerator, CoreError } from '../../core/types';
import { customGpuId, type CustomGpuFields } from '../../gpu/custom-gpu';
import { CustomGpuForm } from '../../gpu/lazy';
import { CheckboxList } from '../checkbox-list';
import { choosingGpuKinds, listOf } from '../plan-inputs';

interface Props<T extends CustomGpuFields & { gpus: string }> {
  /** Prefix of the inputs' ids: 'plan-' or 'tplan-'. */
  idPrefix: string;
  plan: T;
  gpus: Accelerator[];
  /** The core's refusal: shown at the list when it names gpus, at the custom GPU's field otherwise. */
  error?: CoreError;
  listError?: CoreError;
  onChange: (plan: T) => void;
}

export function GpuKindsField<T extends CustomGpuFields & { gpus: string }>({
  idPrefix,
  plan,
  gpus,
  error,
  listError,
  onChange,
}: Props<T>) {
  const items = [
    ...gpus.map((gpu) => ({ id: gpu.id, label: gpu.name, group: gpu.vendor })),
    { id: customGpuId, label: 'Custom…', group: 'User-defined' },
  ];
  return (
    <>
      <CheckboxList
        id={`${idPrefix}gpus`}
        legend="GPU kinds to consider"
        items={items}
        value={plan.gpus}
        error={listError}
        tall
        onValue={(value) => onChange(choosingGpuKinds(plan, value))}
        help="each kind is searched in turn; the price per GPU-hour is the catalog's (a custom GPU's own)"
      />
      {listOf(plan.gpus).includes(customGpuId) && (
        <CustomGpuForm
          idPrefix={idPrefix}
          fields={plan}
          gpus={gpus}
          error={error}
          onChange={(changed) => onChange({ ...plan, ...changed })}
        />
      )}
    </>
  );
}
