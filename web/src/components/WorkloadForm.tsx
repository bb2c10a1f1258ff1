// SPDX-License-Identifier: MIT
// The inference workload: hardware and layout, precision, batch and context. Values go to the core
// as typed; a value it refuses is reported next to its input.
import type { Accelerator, CoreError, FormatCatalog } from '../core/types';
import { groupedFormats, type Workload } from '../state/inputs';
import { bytesIn } from '../format';
import { Field, NumberField } from './Field';

interface Props {
  workload: Workload;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  error?: CoreError;
  onChange: (workload: Workload) => void;
}

export const workloadFields: ReadonlySet<string> = new Set<keyof Workload>([
  'gpu', 'tp', 'pp', 'ep', 'weights', 'kv_dtype', 'batch', 'context', 'prefill_chunk', 'kv_block',
  'gpu_memory_utilization', 'overhead_gib', 'eager_attention', 'weight_bits', 'group_size',
]);

function byVendor(gpus: Accelerator[]): Map<string, Accelerator[]> {
  const groups = new Map<string, Accelerator[]>();
  for (const gpu of gpus) groups.set(gpu.vendor, [...(groups.get(gpu.vendor) ?? []), gpu]);
  return groups;
}

export function WorkloadForm({ workload, gpus, formats, error, onChange }: Props) {
  const set = (key: keyof Workload) => (value: string) => onChange({ ...workload, [key]: value });
  const errorFor = (key: keyof Workload) => (error?.field === key ? error : undefined);
  const general = error && !(error.field && workloadFields.has(error.field)) ? error : undefined;
  const gpu = gpus.find((candidate) => candidate.id === workload.gpu);
  const number = (key: keyof Workload, label: string, help: string) => (
    <NumberField id={key} label={label} help={help} value={String(workload[key])} error={errorFor(key)} onValue={set(key)} />
  );
  return (
    <section class="workload" aria-labelledby="workload-heading">
      <h2 id="workload-heading">Workload</h2>
      {general && (
        <p class="error" role="alert" data-testid="workload-error">
          {general.message}
        </p>
      )}
      <fieldset>
        <legend>Hardware and layout</legend>
        <Field id="gpu" label="GPU" error={errorFor('gpu')} help={gpu ? `${bytesIn(gpu.memory_bytes, 'GiB')} per GPU · ${gpu.interconnect}` : 'No GPU: memory only, no fit check'}>
          {(describedBy, invalid) => (
            <select id="gpu" data-testid="gpu" value={workload.gpu} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : 'false'} onChange={(e) => set('gpu')(e.currentTarget.value)}>
              <option value="">No GPU (memory only)</option>
              {[...byVendor(gpus).entries()].map(([vendor, members]) => (
                <optgroup label={vendor} key={vendor}>
                  {members.map((item) => (
                    <option value={item.id} key={item.id}>
                      {item.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <div class="grid-fields">
          {number('tp', 'Tensor parallel (tp)', 'GPUs each layer is split over')}
          {number('pp', 'Pipeline parallel (pp)', 'stages the layers are split into')}
          {number('ep', 'Expert parallel (ep)', 'GPUs the experts are spread over (MoE)')}
          {number('gpu_memory_utilization', 'GPU memory utilization', 'share of memory the engine may use (vLLM default 0.9)')}
          {number('overhead_gib', 'Overhead (GiB)', 'CUDA context, workspaces, allocator reserve')}
        </div>
      </fieldset>
      <fieldset>
        <legend>Precision</legend>
        <div class="grid-fields">
          <Field id="weights" label="Weight format" error={errorFor('weights')} help={formats?.weight_formats.find((f) => f.id === workload.weights)?.high_precision}>
            {(describedBy, invalid) => (
              <select id="weights" data-testid="weights" value={workload.weights} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : 'false'} onChange={(e) => set('weights')(e.currentTarget.value)}>
                {(formats?.weight_formats ?? [{ id: workload.weights, name: workload.weights }]).map((format) => (
                  <option value={format.id} key={format.id}>
                    {format.id} · {format.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="kv_dtype" label="KV cache dtype" error={errorFor('kv_dtype')} help="element type of the cached keys and values">
            {(describedBy, invalid) => (
              <select id="kv_dtype" data-testid="kv_dtype" value={workload.kv_dtype} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : 'false'} onChange={(e) => set('kv_dtype')(e.currentTarget.value)}>
                {(formats?.kv_cache_dtypes ?? [{ id: workload.kv_dtype, element_bits: 16 }]).map((dtype) => (
                  <option value={dtype.id} key={dtype.id}>
                    {dtype.id} ({dtype.element_bits} bits)
                  </option>
                ))}
              </select>
            )}
          </Field>
          {groupedFormats.has(workload.weights) && (
            <>
              {number('weight_bits', 'Weight bits', 'GPTQ/AWQ bit width (2-8)')}
              {number('group_size', 'Group size', 'weights per scale; -1 per channel')}
            </>
          )}
        </div>
      </fieldset>
      <fieldset>
        <legend>Requests</legend>
        <div class="grid-fields">
          {number('batch', 'Batch size', 'sequences served at once')}
          {number('context', 'Context length', 'tokens per sequence, prompt plus output')}
          {number('prefill_chunk', 'Prefill chunk', 'tokens per prefill step; 0 = whole prompt at once')}
          {number('kv_block', 'Paged KV block', 'tokens per KV block (vLLM 16); 0 = contiguous')}
        </div>
        <label class="checkbox">
          <input type="checkbox" data-testid="eager_attention" checked={workload.eager_attention} onChange={(e) => onChange({ ...workload, eager_attention: e.currentTarget.checked })} />
          Eager attention (materialized score matrix, no FlashAttention)
        </label>
      </fieldset>
    </section>
  );
}
