// SPDX-License-Identifier: MIT
// The accelerator catalog as a select, grouped by vendor, and a user-defined GPU ("Custom…").
import type { Accelerator } from '../../core/types';
import { memo } from '../../ui/memo';
import { customGpuId } from '../custom-gpu';

export function byVendor(gpus: Accelerator[]): Map<string, Accelerator[]> {
  const groups = new Map<string, Accelerator[]>();
  for (const gpu of gpus) groups.set(gpu.vendor, [...(groups.get(gpu.vendor) ?? []), gpu]);
  return groups;
}

interface Props {
  id: string;
  value: string;
  gpus: Accelerator[];
  describedBy?: string;
  invalid: boolean;
  noneLabel: string;
  /** Offers "Custom…" (gpu=custom); its figures are edited in CustomGpuForm. */
  allowCustom?: boolean;
  onValue: (id: string) => void;
}

export function GpuSelect({ id, value, gpus, describedBy, invalid, noneLabel, allowCustom = true, onValue }: Props) {
  return (
    <select
      id={id}
      data-testid={id}
      value={value}
      aria-describedby={describedBy}
      aria-invalid={invalid ? 'true' : 'false'}
      onChange={(e) => onValue(e.currentTarget.value)}
    >
      <GpuOptions gpus={gpus} noneLabel={noneLabel} allowCustom={allowCustom} />
    </select>
  );
}

// The catalog's options (a hundred and more), drawn again only when the catalog or labels change.
const GpuOptions = memo(function GpuOptions({
  gpus,
  noneLabel,
  allowCustom,
}: {
  gpus: Accelerator[];
  noneLabel: string;
  allowCustom: boolean;
}) {
  return (
    <>
      <option value="">{noneLabel}</option>
      {[...byVendor(gpus).entries()].map(([vendor, members]) => (
        <optgroup label={vendor} key={vendor}>
          {members.map((item) => (
            <option value={item.id} key={item.id}>
              {item.name}
            </option>
          ))}
        </optgroup>
      ))}
      {allowCustom && (
        <optgroup label="User-defined">
          <option value={customGpuId}>Custom…</option>
        </optgroup>
      )}
    </>
  );
});
