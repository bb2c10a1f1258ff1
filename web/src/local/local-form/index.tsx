// SPDX-License-Identifier: MIT
// The Local tab's form: the engine, the machine (GPUs, RAM, CPU, backend) and llama.cpp's settings,
// or MLX LM's (an Apple chip, weights, group size, lengths), with the flag each field sets; a refused
// value shows its message beside the field it names. The machine's fields take catalog ids, and
// offer the catalogs by name: a GPU picker that adds one GPU at a time, suggestions for the rest.
import type { CoreError, CpuDevice, FormatCatalog, LocalGpu } from '../../core/types';
import { Field, NumberField } from '../../ui/field';
import { engineDefaults, localChoices, mlxWeights, type LocalInputs } from '../local-inputs';

interface Props {
  inputs: LocalInputs;
  /** The GPUs llama.cpp runs on (the core's localGpuCatalog: the GPU picker, the Apple chips); empty until
   * the full core is loaded. */
  gpus: LocalGpu[];
  /** The weight formats (the GGUF types suggested); absent until the core is loaded. */
  formats?: FormatCatalog;
  /** The CPU catalog (the CPU's suggestions); empty until the full core is loaded. */
  cpus: CpuDevice[];
  error?: CoreError;
  onChange: (next: LocalInputs) => void;
}

// Unquantized types llama.cpp loads besides the GGUF quantizations.
const floatWeights = ['fp16', 'bf16', 'fp32'];

interface Suggestion {
  value: string;
  label: string;
}

/** Adds one GPU, by name, to the comma-separated ids of the GPUs field; grouped by vendor in catalog order. */
function AddGpu({ gpus, onAdd }: { gpus: LocalGpu[]; onAdd: (id: string) => void }) {
  const vendors = [...new Set(gpus.map((gpu) => gpu.vendor))];
  return (
    <select
      class="add-gpu"
      data-testid="local-add-gpu"
      aria-label="Add a GPU"
      value=""
      onChange={(e) => {
        const picker = e.target as HTMLSelectElement;
        const id = picker.value;
        // Back to "Add a GPU…", so that the same GPU can be added again (two RTX 3090s).
        picker.value = '';
        if (id !== '') onAdd(id);
      }}
    >
      <option value="">Add a GPU…</option>
      {vendors.map((vendor) => (
        <optgroup key={vendor} label={vendor}>
          {gpus
            .filter((gpu) => gpu.vendor === vendor)
            .map((gpu) => (
              <option key={gpu.id} value={gpu.id}>
                {gpu.name}
              </option>
            ))}
        </optgroup>
      ))}
    </select>
  );
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
const mmapNames: Record<string, string> = { '': "the build's default" };
const engineNames: Record<string, string> = { llamacpp: 'llama.cpp / Ollama', mlx: 'MLX LM (Apple silicon)' };
const named = (values: ReadonlyArray<string>, names: Record<string, string> = {}): Array<[string, string]> =>
  values.map((value) => [value, names[value] ?? value]);

// The core's option names, for the error beside its field.
const fieldOf: Record<string, keyof LocalInputs> = {
  gpu: 'gpu',
  ram_gib: 'ramGib',
  cpu: 'cpu',
  ram_mts: 'ramMts',
  ram_channels: 'ramChannels',
  threads: 'threads',
  weights: 'weights',
  context: 'context',
  parallel: 'parallel',
  kv_dtype: 'kvDtype',
  flash_attention: 'flashAttention',
  kv_offload: 'kvOffload',
  mmap: 'mmap',
  n_gpu_layers: 'nGpuLayers',
  n_cpu_moe: 'nCpuMoe',
  tensor_split: 'tensorSplit',
  backend: 'backend',
  ubatch: 'ubatch',
  batch: 'batch',
  prompt_len: 'promptLen',
  gen_len: 'genLen',
  depth: 'depth',
  group_size: 'groupSize',
  prefill_step: 'prefillStep',
  engine: 'engine',
  mmproj: 'mmproj',
  mmproj_offload: 'mmprojOffload',
  llama_cpp_build: 'llamaCppBuild',
};

export function LocalForm({ inputs, gpus, formats, cpus, error, onChange }: Props) {
  const errorFor = (key: keyof LocalInputs) => (error && fieldOf[error.field ?? ''] === key ? error : undefined);
  const set = (key: keyof LocalInputs) => (value: string) => onChange({ ...inputs, [key]: value });
  // A text field; with suggestions, the browser offers them by value and name (a datalist).
  const text = (key: keyof LocalInputs, label: string, help: string, suggestions?: Suggestion[]) => (
    <Field id={`local-${key}`} label={label} help={help} error={errorFor(key)}>
      {(describedBy, invalid) => (
        <>
          <input
            id={`local-${key}`}
            data-testid={`local-${key}`}
            type="text"
            autoComplete="off"
            spellcheck={false}
            list={suggestions ? `local-${key}-suggestions` : undefined}
            value={inputs[key]}
            aria-describedby={describedBy}
            aria-invalid={invalid ? 'true' : undefined}
            onInput={(e) => set(key)((e.target as HTMLInputElement).value)}
          />
          {suggestions ? (
            <datalist id={`local-${key}-suggestions`} data-testid={`local-${key}-suggestions`}>
              {suggestions.map((s) => (
                <option key={s.value} value={s.value} label={s.label} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    </Field>
  );
  const appleChips: Suggestion[] = gpus
    .filter((gpu) => gpu.vendor === 'Apple')
    .map((gpu) => ({ value: gpu.id, label: gpu.name }));
  // Where the cores read less than the RAM delivers (an AMD part's core dies' fabric links), the label says so.
  const cpuSuggestions: Suggestion[] = cpus.map((cpu) => ({
    value: cpu.id,
    label:
      `${cpu.name}, ${cpu.memory_channels} x ${cpu.memory_type}` +
      (cpu.memory_read_peak_bytes_per_second < cpu.memory_bandwidth_bytes_per_second
        ? `, cores read at most ${(cpu.memory_read_peak_bytes_per_second / 1e9).toFixed(0)} GB/s`
        : ''),
  }));
  const ggufWeights: Suggestion[] = (formats?.weight_formats ?? [])
    .filter((format) => format.name.startsWith('GGUF ') || floatWeights.includes(format.id))
    .map((format) => ({ value: format.id, label: `${format.name}, ${format.base_bits_per_weight} bits a weight` }));
  const mlxWeightSuggestions: Suggestion[] = mlxWeights.map((value) => ({
    value,
    label: value.endsWith('bit') ? `mlx_lm.convert -q --q-bits ${value.slice(0, -3)}` : `${value}, unquantized`,
  }));
  const addGpu = (id: string) => {
    const listed = inputs.gpu.trim();
    onChange({ ...inputs, gpu: listed === '' ? id : `${listed},${id}` });
  };
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
        {text('gpu', 'Apple chip', 'A catalog id: m4-max, m3-ultra, m2-pro-32gb, ...', appleChips)}
        {text(
          'weights',
          'Weights',
          'mlx_lm.convert -q bits: 4bit, 8bit, 3bit, 6bit...; bf16 unquantized',
          mlxWeightSuggestions,
        )}
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
      {text(
        'gpu',
        'GPUs',
        'Catalog ids in device order, comma-separated (rtx-4090,rtx-3060-12gb), or add them by name below; empty: CPU only',
      )}
      <AddGpu gpus={gpus} onAdd={addGpu} />
      {number('ramGib', 'System RAM (GiB)', 'Holds the CPU buffers: the token embedding and layers left in RAM')}
      {text(
        'cpu',
        'CPU',
        'A CPU catalog id for RAM bandwidth (ryzen-9-7950x); empty: a DDR5-5600 desktop',
        cpuSuggestions,
      )}
      {number('ramMts', 'RAM speed (MT/s)', "As installed (DDR5-6000: 6000); empty: the CPU's fastest supported")}
      {number('ramChannels', 'RAM channels', "Populated 64-bit channels; empty: every channel of the CPU's platform")}
      {number('threads', 'CPU threads (-t)', 'Empty: one per performance core, as llama.cpp picks')}
      {text('weights', 'Weights', 'GGUF type: q4_k_m, q8_0, fp16, ...', ggufWeights)}
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
      {choice(
        'mmap',
        'Map the file (mmap)',
        "Off (--no-mmap): weights kept in RAM are pinned, so prompts copy them to the GPU faster; the build's default maps it (b7668-b7852 read it with direct I/O)",
        named(localChoices.mmap, mmapNames),
      )}
      {number('nGpuLayers', 'GPU layers (-ngl)', 'Empty: as llama.cpp fits them (--fit)')}
      {number(
        'nCpuMoe',
        'Experts in RAM (--n-cpu-moe)',
        "Experts of the first N layers stay on the CPU; empty: a MoE model too large keeps the fewest layers' experts there",
      )}
      {text('tensorSplit', 'Tensor split', 'Shares per GPU (3,1); empty: by free memory')}
      {choice('backend', 'Backend', "Empty: from the first GPU's vendor", named(localChoices.backend, backendNames))}
      {number('ubatch', 'Micro-batch (-ub)', '512 by default')}
      {number('batch', 'Batch (-b)', '2048 by default: the tokens of one decode call')}
      {number('promptLen', 'Prompt tokens', '512 by default')}
      {number('genLen', 'Generated tokens', '128 by default')}
      {number('depth', 'Tokens already cached', 'The conversation before the prompt (llama-bench -d); 0 by default')}
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
      {text(
        'llamaCppBuild',
        'llama.cpp build',
        'The release that runs (b5937); empty: a current one. Older builds lack CUDA graphs (b2822), MMQ by default (b3216), Metal fusion (b5937), the Metal concurrent encoder (b6460) and one MMQ block per tile (b8931)',
      )}
    </fieldset>
  );
}
