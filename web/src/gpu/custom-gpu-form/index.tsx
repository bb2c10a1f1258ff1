// SPDX-License-Identifier: MIT
// The figures of a user-defined GPU (gpu=custom), as spec sheets print them. Empty fields take the
// base GPU's figure (shown as the placeholder); the core converts and validates every value, and
// its refusal shows beside the field it names.
import type { Accelerator, CoreError } from '../../core/types';
import { baseFigures, type CustomGpuFields, type CustomGpuKey } from '../custom-gpu';
import { Field, NumberField } from '../../ui/field';
import { GpuSelect } from '../gpu-select';

interface Props {
  /** Prefix of the input ids (one form per tab): '' , 'train-', 'plan-'. */
  idPrefix: string;
  fields: CustomGpuFields;
  gpus: Accelerator[];
  error?: CoreError;
  onChange: (fields: Partial<CustomGpuFields>) => void;
}

const figureFields: Array<[CustomGpuKey, string, string]> = [
  ['custom_gpu_memory_gib', 'Memory (GiB)', 'per GPU, GiB = 2^30 bytes'],
  ['custom_gpu_bandwidth_gb_per_s', 'Memory bandwidth (GB/s)', 'peak, decimal (1 TB/s = 1000)'],
  ['custom_gpu_bf16_tflops', 'bf16 (TFLOP/s)', 'dense peak, not the sparse figure'],
  ['custom_gpu_fp16_tflops', 'fp16 (TFLOP/s)', 'dense peak; 0: none'],
  ['custom_gpu_fp8_tflops', 'fp8 (TFLOP/s)', 'dense peak; 0: none'],
  ['custom_gpu_int8_tops', 'int8 (TOP/s)', 'dense peak; 0: none'],
  ['custom_gpu_fp32_tflops', 'fp32 (TFLOP/s)', 'dense peak; 0: none'],
  ['custom_gpu_interconnect_gb_per_s', 'Interconnect (GB/s)', 'per GPU, one direction; 0: none'],
  ['custom_gpu_gpus_per_node', 'GPUs per node', 'tensor parallelism stays within a node'],
  ['custom_gpu_price_per_hour', 'Price per GPU-hour (USD)', 'for the cost figures'],
];

const neededWithoutBase: ReadonlySet<CustomGpuKey> = new Set([
  'custom_gpu_memory_gib',
  'custom_gpu_bandwidth_gb_per_s',
  'custom_gpu_bf16_tflops',
]);

export function CustomGpuForm({ idPrefix, fields, gpus, error, onChange }: Props) {
  const base = gpus.find((gpu) => gpu.id === fields.custom_gpu_base);
  const placeholders = baseFigures(base);
  const errorAt = (key: CustomGpuKey) => (error?.field === key ? error : undefined);
  const set = (key: CustomGpuKey) => (value: string) => onChange({ [key]: value });
  return (
    <fieldset class="custom-gpu" data-testid={`${idPrefix}custom-gpu`}>
      <legend>Custom GPU</legend>
      <p class="help">
        Empty fields take the base GPU's figure; without a base, memory, bandwidth and bf16 are needed.
      </p>
      <div class="grid-fields">
        <Field id={`${idPrefix}custom_gpu_base`} label="Based on" error={errorAt('custom_gpu_base')}>
          {(describedBy, invalid) => (
            <GpuSelect
              id={`${idPrefix}custom_gpu_base`}
              value={fields.custom_gpu_base}
              gpus={gpus}
              describedBy={describedBy}
              invalid={invalid}
              noneLabel="None: every figure typed"
              allowCustom={false}
              onValue={set('custom_gpu_base')}
            />
          )}
        </Field>
        <NumberField
          id={`${idPrefix}custom_gpu_name`}
          label="Name"
          value={fields.custom_gpu_name}
          placeholder={placeholders.custom_gpu_name ?? 'Custom GPU'}
          error={errorAt('custom_gpu_name')}
          onValue={set('custom_gpu_name')}
        />
        {figureFields.map(([key, label, help]) => (
          <NumberField
            id={`${idPrefix}${key}`}
            key={key}
            label={label}
            help={help}
            value={fields[key]}
            placeholder={
              placeholders[key] ??
              (neededWithoutBase.has(key) ? 'needed' : key === 'custom_gpu_gpus_per_node' ? '1' : '0')
            }
            error={errorAt(key)}
            onValue={set(key)}
          />
        ))}
      </div>
    </fieldset>
  );
}
