// SPDX-License-Identifier: MIT
// The training workload: hardware and parallelism, sharding, precision and optimizer,
// activations, LoRA. Values go to the core as typed; a refused value is reported beside its input.
import type { Accelerator, CoreError, TrainingTimeReport } from '../../core/types';
import { withThousands } from '../../ui/format';
import {
  frameworks,
  loraModules,
  megatronRecomputeModules,
  optimizers,
  partitionCheckpointsKey,
  pipelineSchedules,
  precisionRecipes,
  recomputeModes,
  shardingChoice,
  shardingChoices,
  showsCpuOffloading,
  showsPipeline,
  showsRecomputeModules,
  trainingFlagKeys,
  trainingTextKeys,
  withSharding,
  type TrainingWorkload,
} from '../training-inputs';
import { listOf, toggled } from '../../plan/plan-inputs';
import { Field, NumberField } from '../../ui/field';
import { GpuField } from '../../gpu/gpu-field';
import { customGpuId, customGpuKeys } from '../../gpu/custom-gpu';

interface Props {
  training: TrainingWorkload;
  gpus: Accelerator[];
  error?: CoreError;
  /** The data-parallel size the core derived (shown while dp is empty). */
  resolvedDp?: number;
  /** The step-time figures the core used (shown while their fields are empty). */
  time?: TrainingTimeReport;
  onChange: (training: TrainingWorkload) => void;
}

const fields: ReadonlySet<string> = new Set<string>([
  ...trainingTextKeys,
  ...trainingFlagKeys,
  ...customGpuKeys,
  'partition_activations',
  'distribute_saved_activations',
]);
/** Where an error naming `field` is shown: the sharding select answers for zero and fsdp. */
const home = (field: string) => (field === 'zero' || field === 'fsdp' ? 'sharding' : field);

type TextKey = Exclude<
  keyof TrainingWorkload,
  | 'sequence_parallel'
  | 'account_for_embedding_in_pipeline_split'
  | 'account_for_loss_in_pipeline_split'
  | 'offload_optimizer'
  | 'offload_params'
  | 'eager_attention'
  | 'qlora'
  | 'dora'
  | 'overlap'
  | 'partition_checkpoints'
>;
type FlagKey = Exclude<keyof TrainingWorkload, TextKey>;

/** The core's default for train_tokens: 1e12 to pre-train, 1e8 with LoRA/QLoRA adapters. */
function fineTuneTokensDefault(training: TrainingWorkload): string {
  return /^0*$/.test(training.lora_rank.trim()) ? '1e12' : '1e8 (a fine-tune)';
}

export function TrainingForm({ training, gpus, error, resolvedDp, time, onChange }: Props) {
  const errorAt = (key: string) => (error?.field && home(error.field) === key ? error : undefined);
  const general = error && !(error.field && fields.has(error.field)) ? error : undefined;
  const set = (key: TextKey) => (value: string) => onChange({ ...training, [key]: value });
  const gpu = gpus.find((candidate) => candidate.id === training.gpu);
  const custom = training.gpu === customGpuId;
  const number = (key: TextKey, label: string, help: string, placeholder?: string) => (
    <NumberField
      id={`train-${key}`}
      label={label}
      help={help}
      value={training[key]}
      placeholder={placeholder}
      error={errorAt(key)}
      onValue={set(key)}
    />
  );
  const select = (
    key: TextKey | 'sharding',
    label: string,
    choices: Array<[string, string]>,
    value: string,
    onValue: (value: string) => void,
    help?: string,
  ) => (
    <Field id={`train-${key}`} label={label} error={errorAt(key)} help={help}>
      {(describedBy, invalid) => (
        <select
          id={`train-${key}`}
          data-testid={`train-${key}`}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid ? 'true' : 'false'}
          onChange={(e) => onValue(e.currentTarget.value)}
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
  // An error the core names by `errorKey` (the page's key unless the core's option is named otherwise).
  const errorLine = (key: string, errorKey: string = key) =>
    errorAt(errorKey) && (
      <p class="error" role="alert" data-testid={`train-${key}-error`}>
        {errorAt(errorKey)!.message}
      </p>
    );
  const flag = (key: FlagKey, label: string, errorKey: string = key) => (
    <>
      <label class="checkbox">
        <input
          type="checkbox"
          data-testid={`train-${key}`}
          checked={training[key]}
          onChange={(e) => onChange({ ...training, [key]: e.currentTarget.checked })}
        />
        {label}
      </label>
      {errorLine(key, errorKey)}
    </>
  );
  // A group of checkboxes over `all`, at least one kept ticked; `onChosen` gets the ticked ones as a comma list.
  const checklist = (
    key: string,
    legend: string,
    all: readonly string[],
    chosen: string[],
    onChosen: (list: string) => void,
  ) => (
    <fieldset class="segmented lora-modules" data-testid={`train-${key}`}>
      <legend>{legend}</legend>
      {all.map((item) => (
        <label key={item}>
          <input
            type="checkbox"
            checked={chosen.includes(item)}
            disabled={chosen.length === 1 && chosen.includes(item)}
            onChange={(e) => onChosen(toggled(chosen.join(','), item, e.currentTarget.checked, [...all]))}
          />
          {item}
        </label>
      ))}
    </fieldset>
  );
  const lora = /^[1-9]\d*$/.test(training.lora_rank.trim()) || training.qlora;
  const chosenModules = training.lora_modules.trim() === '' ? [...loraModules] : listOf(training.lora_modules);
  const chosenRecomputeModules =
    training.recompute_modules.trim() === '' ? ['core_attn'] : listOf(training.recompute_modules);
  return (
    <section class="workload" aria-labelledby="training-heading">
      <h2 id="training-heading">Training run</h2>
      {general && (
        <p class="error" role="alert" data-testid="training-error">
          {general.message}
        </p>
      )}
      <fieldset>
        <legend>Hardware and parallelism</legend>
        <GpuField
          idPrefix="train-"
          fields={training}
          gpus={gpus}
          error={error}
          gpuError={errorAt('gpu')}
          onChange={onChange}
        />
        <div class="grid-fields">
          {number('gpus', 'GPUs', 'all GPUs of the run')}
          {number('tp', 'Tensor parallel (tp)', 'GPUs each layer is split over')}
          {number('pp', 'Pipeline parallel (pp)', 'pipeline stages')}
          {number(
            'dp',
            'Data parallel (dp)',
            resolvedDp ? `empty: GPUs / (tp × pp × cp) = ${resolvedDp}` : 'empty: GPUs / (tp × pp × cp)',
            'from GPUs',
          )}
          {number('ep', 'Expert parallel (ep)', 'GPUs the experts are spread over (MoE)')}
          {number('cp', 'Context parallel (cp)', 'GPUs each sequence is split over')}
          {number('overhead_gib', 'Overhead (GiB)', 'CUDA context, workspaces, allocator reserve')}
        </div>
        {flag('sequence_parallel', 'Sequence parallelism (norms and dropout split by tp)')}
        {showsPipeline(training) && (
          <>
            <div class="grid-fields" data-testid="train-pipeline">
              {select(
                'pipeline_schedule',
                'Pipeline schedule',
                pipelineSchedules,
                training.pipeline_schedule,
                set('pipeline_schedule'),
                'its bubble and the activations in flight',
              )}
              {number('virtual_stages', 'Virtual stages', 'model chunks per GPU (interleaved)', '1')}
              {number('micro_batches', 'Micro-batches per step', 'empty: at least pp', 'from pp')}
            </div>
            {flag(
              'account_for_embedding_in_pipeline_split',
              'The embedding takes a layer’s slot: the first stage runs one layer fewer (Megatron-Core)',
            )}
            {flag(
              'account_for_loss_in_pipeline_split',
              'The output layer and loss take a layer’s slot: the last stage runs one layer fewer',
            )}
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>Sharding</legend>
        <div class="grid-fields wide">
          {select(
            'sharding',
            'ZeRO stage or FSDP mode',
            shardingChoices,
            shardingChoice(training),
            (value) => onChange(withSharding(training, value)),
            'over the data-parallel GPUs',
          )}
          {training.fsdp === 'hybrid_shard' &&
            number('fsdp_shard_group', 'Hybrid shard group', 'GPUs each shard group spans')}
        </div>
        {flag('offload_optimizer', 'Offload the optimizer to CPU memory (ZeRO-Offload)')}
        {flag('offload_params', 'Offload the parameters to CPU memory (ZeRO-3 or FSDP)')}
      </fieldset>
      <fieldset>
        <legend>Precision and optimizer</legend>
        <div class="grid-fields wide">
          {select(
            'framework',
            'Training framework',
            frameworks,
            training.framework,
            set('framework'),
            'its loss buffers, gradient buffer and memory statistic',
          )}
          {select('precision', 'Precision recipe', precisionRecipes, training.precision, set('precision'))}
          {select('optimizer', 'Optimizer', optimizers, training.optimizer, set('optimizer'))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Activations</legend>
        <div class="grid-fields">
          {number('micro_batch', 'Micro-batch', 'sequences per GPU per step')}
          {number('seq_len', 'Sequence length', 'tokens per sequence')}
          {select(
            'recompute',
            'Recomputation',
            recomputeModes,
            training.recompute,
            set('recompute'),
            'selective: attention core; full: layer inputs only',
          )}
          {showsCpuOffloading(training) &&
            number(
              'cpu_offloading_num_layers',
              'CPU-offloaded layers',
              "Megatron: those layers' activations in CPU memory",
            )}
        </div>
        {showsRecomputeModules(training) &&
          checklist(
            'recompute_modules',
            'Recomputed modules (Megatron --recompute-modules)',
            megatronRecomputeModules,
            chosenRecomputeModules,
            (list) => onChange({ ...training, recompute_modules: list === 'core_attn' ? '' : list }),
          )}
        {errorLine('recompute_modules')}
        {partitionCheckpointsKey(training) &&
          flag(
            'partition_checkpoints',
            `Split the checkpointed layer inputs over tp (${partitionCheckpointsKey(training)})`,
            partitionCheckpointsKey(training),
          )}
        {flag('eager_attention', 'Eager attention (keeps the heads × s × s scores; no FlashAttention)')}
      </fieldset>
      <fieldset>
        <legend>LoRA</legend>
        <div class="grid-fields">{number('lora_rank', 'LoRA rank', '0: full fine-tuning')}</div>
        {flag('qlora', 'QLoRA (frozen base in NF4 with double quantization)')}
        {(lora || training.dora) &&
          flag('dora', 'DoRA (a trained magnitude per output; two more outputs kept per adapted matmul)')}
        {lora &&
          checklist('lora_modules', 'Adapted modules', loraModules, chosenModules, (list) =>
            onChange({ ...training, lora_modules: list === loraModules.join(',') ? '' : list }),
          )}
        {errorLine('lora_modules')}
      </fieldset>
      {(gpu || custom) && (
        <fieldset data-testid="train-time-fieldset">
          <legend>Step time and cost</legend>
          <div class="grid-fields">
            {number(
              'global_batch_tokens',
              'Tokens per step',
              time
                ? `global batch; empty: ${withThousands(time.global_batch_tokens)}`
                : 'global batch; empty: 4Mi tokens',
              time ? String(time.global_batch_tokens) : 'auto',
            )}
            {number(
              'train_tokens',
              'Tokens to train on',
              // The core's default follows the method: a fine-tune with adapters runs over far fewer tokens.
              `for the time and cost to train; empty: ${fineTuneTokensDefault(training)}`,
              fineTuneTokensDefault(training).split(' ')[0],
            )}
            {number(
              'flops_efficiency',
              'Compute efficiency',
              'share of peak FLOP/s in the weight products; empty: 0.5',
              time ? String(time.flops_efficiency) : '0.5',
            )}
            {number(
              'price_per_gpu_hour',
              'Price per GPU-hour (USD)',
              gpu ? `empty: ${gpu.price_per_hour_usd} USD (catalog)` : "empty: the custom GPU's price",
              gpu ? String(gpu.price_per_hour_usd) : undefined,
            )}
            {number(
              'network_gb_per_s',
              'Network per GPU (GB/s)',
              'to other nodes, one direction; empty: 50 (one 400 Gb/s NIC per GPU)',
              '50',
            )}
          </div>
          {flag('overlap', 'Overlap data-parallel collectives with the backward pass')}
        </fieldset>
      )}
    </section>
  );
}
