// SPDX-License-Identifier: MIT
// The GPU of a workload form: the picker with its help line and, for "Custom…", the custom GPU
// form below it. One component for the inference and the training forms (ids by prefix).
import type { Accelerator, CoreError } from '../../core/types';
import { bytesIn } from '../../ui/format';
import { Field } from '../../ui/field';
import { CustomGpuForm } from '../lazy';
import { GpuSelect } from '../gpu-select';
import { choosingGpu, customGpuId, type CustomGpuFields } from '../custom-gpu';

interface Props<T extends CustomGpuFields & { gpu: string }> {
  /** Prefix of the input ids (one form per tab): '' or 'train-'. */
  idPrefix: string;
  fields: T;
  gpus: Accelerator[];
  /** The core's refusal, for the custom GPU's own fields. */
  error?: CoreError;
  /** The refusal shown at the picker (the gpu option's). */
  gpuError?: CoreError;
  onChange: (fields: T) => void;
}

export function GpuField<T extends CustomGpuFields & { gpu: string }>({
  idPrefix,
  fields,
  gpus,
  error,
  gpuError,
  onChange,
}: Props<T>) {
  const gpu = gpus.find((candidate) => candidate.id === fields.gpu);
  const custom = fields.gpu === customGpuId;
  return (
    <>
      <Field
        id={`${idPrefix}gpu`}
        label="GPU"
        error={gpuError}
        help={
          gpu
            ? `${bytesIn(gpu.memory_bytes, 'GiB')} per GPU · ${gpu.interconnect}`
            : custom
              ? 'User-defined: the figures below'
              : 'No GPU: memory only, no fit check'
        }
      >
        {(describedBy, invalid) => (
          <GpuSelect
            id={`${idPrefix}gpu`}
            value={fields.gpu}
            gpus={gpus}
            describedBy={describedBy}
            invalid={invalid}
            noneLabel="No GPU (memory only)"
            onValue={(id) => onChange(choosingGpu({ ...fields, gpu: id }, fields.gpu, id))}
          />
        )}
      </Field>
      {custom && (
        <CustomGpuForm
          idPrefix={idPrefix}
          fields={fields}
          gpus={gpus}
          error={error}
          onChange={(changed) => onChange({ ...fields, ...changed })}
        />
      )}
    </>
  );
}
