// SPDX-License-Identifier: MIT
// The training planner's constraints: GPU kinds and how many, node size, headroom, the fixed
// global batch, the choices searched (micro-batch sizes, ZeRO stages, recomputation, model chunks),
// the run's precision, optimizer and framework, and what to rank by.
import type { Accelerator, CoreError } from '../../core/types';
import { customGpuKeys } from '../../gpu/custom-gpu';
import { frameworks, optimizers, precisionRecipes } from '../../training/training-inputs';
import { trainingObjectives, trainingPlanKeys, type TrainingPlanInputs } from '../training-plan-inputs';
import { GpuKindsField } from '../gpu-kinds-field';
import { Field, NumberField } from '../../ui/field';

type Key = (typeof trainingPlanKeys)[number];

interface Props {
  plan: TrainingPlanInputs;
  gpus: Accelerator[];
  error?: CoreError;
  onChange: (plan: TrainingPlanInputs) => void;
}

export function TrainingPlanForm({ plan, gpus, error, onChange }: Props) {
  const known = new Set<string>([...trainingPlanKeys, ...customGpuKeys]);
  const errorAt = (key: Key) => (error?.field === key ? error : undefined);
  const general = error && !(error.field && known.has(error.field)) ? error : undefined;
  const set = (key: Key) => (value: string) => onChange({ ...plan, [key]: value });
  const number = (key: Key, label: string, help: string, placeholder?: string) => (
    <NumberField
      id={`tplan-${key}`}
      label={label}
      help={help}
      value={plan[key]}
      placeholder={placeholder}
      error={errorAt(key)}
      onValue={set(key)}
    />
  );
  const select = (key: Key, label: string, choices: Array<[string, string]>) => (
    <Field id={`tplan-${key}`} label={label} error={errorAt(key)}>
      {(describedBy, invalid) => (
        <select
          id={`tplan-${key}`}
          data-testid={`tplan-${key}`}
          value={plan[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid ? 'true' : 'false'}
          onChange={(e) => set(key)(e.currentTarget.value)}
        >
          {choices.map(([id, name]) => (
            <option value={id} key={id}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <section class="workload" aria-labelledby="tplan-heading">
      <h2 id="tplan-heading">Training constraints</h2>
      {general && (
        <p class="error" role="alert" data-testid="tplan-error">
          {general.message}
        </p>
      )}
      <GpuKindsField
        idPrefix="tplan-"
        plan={plan}
        gpus={gpus}
        error={error}
        listError={errorAt('gpus')}
        onChange={onChange}
      />
      <fieldset>
        <legend>GPUs and memory</legend>
        <div class="grid-fields">
          {number('max_gpus', 'GPUs available', 'tp × pp × cp × dp ≤ this')}
          {number(
            'gpus_per_node',
            'Max GPUs per node',
            'tp × cp stay within a node; empty: the GPU’s typical node',
            'typical',
          )}
          {number('headroom', 'Memory headroom', 'share of GPU memory kept free (0.1 = 90 % usable)')}
          {number(
            'network_gb_per_s',
            'Network per GPU (GB/s)',
            'to other nodes, one direction; empty: 50 (one 400 Gb/s NIC per GPU)',
            '50',
          )}
        </div>
      </fieldset>
      <fieldset>
        <legend>Run</legend>
        <div class="grid-fields">
          {number('global_batch_tokens', 'Global batch (tokens)', 'fixed: dp × micro-batch × accumulation × sequence')}
          {number('seq_len', 'Sequence length', 'tokens per sequence')}
          {number('train_tokens', 'Tokens to train', 'e.g. 1e12')}
          {select('precision', 'Precision recipe', precisionRecipes)}
          {select('optimizer', 'Optimizer', optimizers)}
          {select('framework', 'Training framework', frameworks)}
        </div>
      </fieldset>
      <fieldset>
        <legend>Searched</legend>
        <div class="grid-fields">
          {number('micro_batch_sizes', 'Micro-batch sizes', 'comma-separated list to try')}
          {number(
            'zero_stages',
            'ZeRO stages',
            'comma-separated, 0 to 3; FSDP frameworks: 2 SHARD_GRAD_OP, 3 FULL_SHARD (and HYBRID_SHARD across nodes)',
          )}
          {number('recompute_modes', 'Recomputation', 'none, selective, full')}
          {number('virtual_stages', 'Model chunks per GPU', 'tried when pp > 1: 1 is 1F1B, more interleaves')}
        </div>
        <p class="help">
          tp, cp and pp (powers of two), dp and ep are searched; sequence parallelism is on whenever tp &gt; 1.
          Interleaving is tried where pp × chunks divides the layers and the micro-batches come in groups of pp.
        </p>
        {select('objective', 'Rank by', trainingObjectives)}
      </fieldset>
    </section>
  );
}
