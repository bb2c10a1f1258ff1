// SPDX-License-Identifier: MIT
// The planner's constraints: which GPUs, how many, which formats and batch sizes, the request
// lengths, latency targets and what to rank by.
import type { ComponentChildren } from 'preact';
import type { Accelerator, CoreError, FormatCatalog } from '../../core/types';
import { objectives, planKeys, type PlanInputs } from '../plan-inputs';
import type { PlanKind } from '../training-plan-inputs';
import { customGpuKeys } from '../../gpu/custom-gpu';
import { CheckboxList } from '../checkbox-list';
import { GpuKindsField } from '../gpu-kinds-field';
import { Field, NumberField } from '../../ui/field';
import { PlanKindSwitch } from '../plan-kind-switch';

interface Props {
  plan: PlanInputs;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  error?: CoreError;
  /** The formats the core searched when none is ticked (the checkpoint's stored format). */
  usedWeights?: string[];
  onChange: (plan: PlanInputs) => void;
  /** Serving or training layouts; the training constraints are drawn by `trainingForm`. */
  kind?: PlanKind;
  onKind?: (kind: PlanKind) => void;
  trainingForm?: ComponentChildren;
}

/** The option an error names, mapped to the input that holds it. */
const homes: Record<string, keyof PlanInputs> = { kv_dtype: 'kv_dtypes', batch: 'batches' };
const home = (field: string): string => homes[field] ?? field;

export function PlanForm({
  plan,
  gpus,
  formats,
  error,
  usedWeights,
  onChange,
  kind = 'inference',
  onKind,
  trainingForm,
}: Props) {
  const kindSwitch = onKind && <PlanKindSwitch kind={kind} onKind={onKind} />;
  if (kind === 'training')
    return (
      <>
        {kindSwitch}
        {trainingForm}
      </>
    );
  const errorAt = (key: keyof PlanInputs) => (error?.field && home(error.field) === key ? error : undefined);
  const known = new Set<string>([...planKeys, ...customGpuKeys]);
  const general = error && !(error.field && known.has(home(error.field))) ? error : undefined;
  const set = (key: keyof PlanInputs) => (value: string) => onChange({ ...plan, [key]: value });
  const number = (key: keyof PlanInputs, label: string, help: string, placeholder?: string) => (
    <NumberField
      id={`plan-${key}`}
      label={label}
      help={help}
      value={plan[key]}
      placeholder={placeholder}
      error={errorAt(key)}
      onValue={set(key)}
    />
  );
  const weightItems = (formats?.weight_formats ?? []).map((format) => ({ id: format.id, label: format.id }));
  const kvItems = (formats?.kv_cache_dtypes ?? []).map((dtype) => ({ id: dtype.id, label: dtype.id }));
  return (
    <section class="workload" aria-labelledby="plan-heading">
      {kindSwitch}
      <h2 id="plan-heading">Serving constraints</h2>
      {general && (
        <p class="error" role="alert" data-testid="plan-error">
          {general.message}
        </p>
      )}
      <GpuKindsField
        idPrefix="plan-"
        plan={plan}
        gpus={gpus}
        error={error}
        listError={errorAt('gpus')}
        onChange={onChange}
      />
      <fieldset>
        <legend>Size and precision</legend>
        <div class="grid-fields">
          {number('max_gpus', 'Max GPUs per replica', 'tp × pp ≤ this; tp stays within a node')}
          {number('headroom', 'Memory headroom', 'share of GPU memory kept free (0.1 = 90 % usable)')}
        </div>
        <CheckboxList
          id="plan-weights"
          legend="Weight formats"
          items={weightItems}
          value={plan.weights}
          error={errorAt('weights')}
          onValue={set('weights')}
          help={`none ticked: the checkpoint's stored format${plan.weights.trim() === '' && usedWeights?.length ? ` (${usedWeights.join(', ')})` : ''}`}
        />
        <CheckboxList
          id="plan-kv_dtypes"
          legend="KV cache dtypes"
          items={kvItems}
          value={plan.kv_dtypes}
          error={errorAt('kv_dtypes')}
          onValue={set('kv_dtypes')}
        />
      </fieldset>
      <fieldset>
        <legend>Requests and targets</legend>
        <div class="grid-fields">
          {number('batches', 'Batch sizes', 'comma-separated list to try')}
          {number('prompt_len', 'Prompt length', 'input tokens per request')}
          {number('gen_len', 'Output length', 'generated tokens per request')}
          {number('ttft', 'TTFT target (s)', 'time to first token at most; empty: none', 'none')}
          {number('tpot', 'Time per output token target (s)', 'decode step at most; empty: none', 'none')}
        </div>
        <Field id="plan-objective" label="Rank by" error={errorAt('objective')}>
          {(describedBy, invalid) => (
            <select
              id="plan-objective"
              data-testid="plan-objective"
              value={plan.objective}
              aria-describedby={describedBy}
              aria-invalid={invalid ? 'true' : 'false'}
              onChange={(e) => onChange({ ...plan, objective: e.currentTarget.value as PlanInputs['objective'] })}
            >
              {objectives.map(([id, label]) => (
                <option value={id} key={id}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>
    </section>
  );
}
