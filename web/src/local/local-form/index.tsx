// SPDX-License-Identifier: MIT
// The Local tab's form: the engine, the machine (GPUs, RAM, CPU, backend) and llama.cpp's settings,
// or MLX LM's (an Apple chip, weights, group size, lengths), with the flag each field sets; a refused
// value shows its message beside the field it names.
import type { CoreError } from '../../core/types';
import { Field, NumberField } from '../../ui/field';
import { engineDefaults, localChoices, type LocalInputs } from '../local-inputs';

interface Props {
  inputs: LocalInputs;
  error?: CoreError;
  onChange: (next: LocalInputs) => void;
}

const backendNames: Record<string, string> = {
  '': 'auto',
  cuda: 'CUDA',
  metal: 'Metal',
  vulkan: 'Vulkan',
  rocm: 'ROCm',
  sycl: 'SYCL',
  cpu: 'CPU',
};
const mmprojNames: Record<string, string> = { '': 'auto', off: 'off' };
const engineNames: Record<string, string> = { llamacpp: 'llama.cpp / Ollama', mlx: 'MLX LM (Apple silicon)' };
const named = (values: ReadonlyArray<string>, names: Record<string, string> = {}): Array<[string, string]> =>
  values.map((value) => [value, names[value] ?? value]);

// The core's option names, for the error beside its field.
const fieldOf: Record<string, keyof LocalInputs> = {
  gpu: 'gpu',
  ram_gib: 'ramGib',
  cpu: 'cpu',
  weights: 'weights',
  context: 'context',
  parallel: 'parallel',
  kv_dtype: 'kvDtype',
  flash_attention: 'flashAttention',
  kv_offload: 'kvOffload',
  n_gpu_layers: 'nGpuLayers',
  n_cpu_moe: 'nCpuMoe',
  tensor_split: 'tensorSplit',
  backend: 'backend',
  ubatch: 'ubatch',
  batch: 'batch',
  prompt_len: 'promptLen',
  gen_len: 'genLen',
  group_size: 'groupSize',
  prefill_step: 'prefillStep',
  engine: 'engine',
  mmproj: 'mmproj',
  mmproj_offload: 'mmprojOffload',
};

export function LocalForm({ inputs, error, onChange }: Props) {
  const errorFor = (key: keyof LocalInputs) => (error && fieldOf[error.field ?? ''] === key ? error : undefined);
  const set = (key: keyof LocalInputs) => (value: string) => onChange({ ...inputs, [key]: value });
  const text = (key: keyof LocalInputs, label: string, help: string) => (
    <Field id={`local-${key}`} label={label} help={help} error={errorFor(key)}>
      {(describedBy, invalid) => (
        <input
          id={`local-${key}`}
          data-testid={`local-${key}`}
          type="text"
          autoComplete="off"
          spellcheck={false}
          value={inputs[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid ? 'true' : undefined}
          onInput={(e) => set(key)((e.target as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
  const number = (key: keyof LocalInputs, label: string, help: string) => (
    <NumberField
      id={`local-${key}`}
      label={label}
      help={help}
      error={errorFor(key)}
      value={inputs[key]}
      onValue={set(key)}
    />
  );
  // A select; `onSelect` replaces the plain field update (the engine also sets its machine and weights).
  const choice = (
    key: keyof LocalInputs,
    label: string,
    help: string,
    options: Array<[string, string]>,
    onSelect: (value: string) => void = set(key),
  ) => (
    <Field id={`local-${key}`} label={label} help={help} error={errorFor(key)}>
      {(describedBy) => (
        <select
          id={`local-${key}`}
          data-testid={`local-${key}`}
          value={inputs[key]}
          aria-describedby={describedBy}
          onChange={(e) => onSelect((e.target as HTMLSelectElement).value)}
        >
          {options.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const engine = choice(
    'engine',
    'Engine',
    "MLX LM runs on Apple silicon (mlx_lm, LM Studio's MLX engine)",
    named(localChoices.engine, engineNames),
    (value) => {
      const next = value as LocalInputs['engine'];
      onChange({ ...inputs, engine: next, ...engineDefaults[next] });
    },
  );
  if (inputs.engine === 'mlx')
    return (
      <fieldset class="workload" data-testid="local-form">
        <legend>MLX LM on this Mac</legend>
        {engine}
        {text('gpu', 'Apple chip', 'A catalog id: m4-max, m3-ultra, m2-pro-32gb, ...')}
        {text('weights', 'Weights', 'mlx_lm.convert -q bits: 4bit, 8bit, 3bit, 6bit...; bf16 unquantized')}
        {number('groupSize', 'Group size (--q-group-size)', '64 by default; 32 or 128')}
        {number('promptLen', 'Prompt tokens (-p)', '512 by default')}
        {number('genLen', 'Generated tokens (-g)', '128 by default')}
        {number('prefillStep', 'Prefill step (--prefill-step-size)', '2048 by default: prompt tokens a chunk')}
      </fieldset>
    );
  return (
    <fieldset class="workload" data-testid="local-form">
      <legend>llama.cpp / Ollama on this machine</legend>
      {engine}
      {text('gpu', 'GPUs', 'Catalog ids in device order, comma-separated (rtx-4090,rtx-3060-12gb); empty: CPU only')}
      {number('ramGib', 'System RAM (GiB)', 'Holds the CPU buffers: the token embedding and layers left in RAM')}
      {text('cpu', 'CPU', 'A CPU catalog id for RAM bandwidth (ryzen-9-7950x); empty: a DDR5-5600 desktop')}
      {text('weights', 'Weights', 'GGUF type: q4_k_m, q8_0, fp16, ...')}
      {number('context', 'Context (-c)', 'Tokens over all slots')}
      {number('parallel', 'Slots (-np)', 'Ollama: OLLAMA_NUM_PARALLEL; each slot gets context / slots')}
      {choice(
        'kvDtype',
        'KV cache type (-ctk/-ctv)',
        'q8_0 and q4_0 need flash attention',
        named(localChoices.kvDtype),
      )}
      {choice(
        'flashAttention',
        'Flash attention (-fa)',
        'Off: the KQ matrix sizes the compute buffer',
        named(localChoices.flashAttention),
      )}
      {choice('kvOffload', 'KV offload', 'Off (-nkvo): the cache stays in RAM', named(localChoices.kvOffload))}
      {number('nGpuLayers', 'GPU layers (-ngl)', 'Empty: the most that fit')}
      {number('nCpuMoe', 'Experts in RAM (--n-cpu-moe)', 'Experts of the first N layers stay on the CPU')}
      {text('tensorSplit', 'Tensor split', 'Shares per GPU (3,1); empty: by free memory')}
      {choice('backend', 'Backend', "Empty: from the first GPU's vendor", named(localChoices.backend, backendNames))}
      {number('ubatch', 'Micro-batch (-ub)', '512 by default')}
      {number('batch', 'Batch (-b)', '2048 by default: the tokens of one decode call')}
      {number('promptLen', 'Prompt tokens', '512 by default')}
      {number('genLen', 'Generated tokens', '128 by default')}
      {choice(
        'mmproj',
        'Vision encoder (--mmproj)',
        'Auto: an f16 file for a model with vision or audio encoders',
        named(localChoices.mmproj, mmprojNames),
      )}
      {choice(
        'mmprojOffload',
        'Encoder on the GPU',
        'Off (--no-mmproj-offload): the file stays in RAM',
        named(localChoices.mmprojOffload),
      )}
    </fieldset>
  );
}
