// SPDX-License-Identifier: MIT
// The inference workload: hardware and layout, precision, requests, and the speed and cost
// assumptions. Values go to the core as typed; a value it refuses is reported next to its input.
import type { ComponentChildren } from 'preact';
import type { Accelerator, CoreError, FormatCatalog } from '../../core/types';
import {
  engines,
  expertDispatchApplies,
  fp8Formats,
  groupedFormats,
  workloadTextKeys,
  type Workload,
} from '../inference-inputs';
import { withThousands } from '../../ui/format';
import { Field, NumberField } from '../../ui/field';
import { GpuField } from '../../gpu/gpu-field';
import { customGpuId, customGpuKeys } from '../../gpu/custom-gpu';

interface Props {
  workload: Workload;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  error?: CoreError;
  /** The context the core used (prompt + output when the field is empty). */
  resolvedContext?: number;
  /** The checkpoint's own weight format, used while the weight field is empty. */
  checkpointWeights?: string;
  /** The model's counted vision tower (the parameter report's vision_tower_kind), if any. */
  visionTower?: { kind: string; tokensPerImage?: number };
  onChange: (workload: Workload) => void;
}

export const workloadFields: ReadonlySet<string> = new Set<string>([
  ...workloadTextKeys,
  ...customGpuKeys,
  'eager_attention',
  'fp8_activations',
]);

export function WorkloadForm({
  workload,
  gpus,
  formats,
  error,
  resolvedContext,
  checkpointWeights,
  visionTower,
  onChange,
}: Props) {
  const set = (key: keyof Workload) => (value: string) => onChange({ ...workload, [key]: value });
  const errorFor = (key: keyof Workload) => (error?.field === key ? error : undefined);
  const general = error && !(error.field && workloadFields.has(error.field)) ? error : undefined;
  const gpu = gpus.find((candidate) => candidate.id === workload.gpu);
  const custom = workload.gpu === customGpuId;
  const number = (key: keyof Workload, label: string, help: string, placeholder?: string) => (
    <NumberField
      id={key}
      label={label}
      help={help}
      value={String(workload[key])}
      placeholder={placeholder}
      error={errorFor(key)}
      onValue={set(key)}
    />
  );
  // A choice among options, the typed value handed to the core as the other fields are.
  const choice = (key: keyof Workload, label: string, help: string | undefined, options: ComponentChildren) => (
    <Field id={key} label={label} error={errorFor(key)} help={help}>
      {(describedBy, invalid) => (
        <select
          id={key}
          data-testid={key}
          value={String(workload[key])}
          aria-describedby={describedBy}
          aria-invalid={invalid ? 'true' : 'false'}
          onChange={(e) => set(key)(e.currentTarget.value)}
        >
          {options}
        </select>
      )}
    </Field>
  );
  const contextHelp =
    workload.context.trim() === ''
      ? `empty: prompt + output${resolvedContext ? ` (${withThousands(resolvedContext)} tokens)` : ''}; set it to hold longer sequences in memory`
      : 'tokens per sequence held in the KV cache; empty for prompt + output';
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
        <GpuField
          idPrefix=""
          fields={workload}
          gpus={gpus}
          error={error}
          gpuError={errorFor('gpu')}
          onChange={onChange}
        />
        <div class="grid-fields">
          {choice(
            'engine',
            'Serving engine',
            'its memory budget, prefill chunk, KV block, step costs and kernel efficiencies; none: the plain roofline',
            <>
              <option value="">none</option>
              {engines.map((engine) => (
                <option value={engine.id} key={engine.id}>
                  {engine.name}
                </option>
              ))}
            </>,
          )}
          {workload.engine === 'hf' &&
            choice(
              'hf_cache',
              'KV cache (transformers)',
              'dynamic: DynamicCache, copied by torch.cat every step; static: cache_implementation="static", preallocated and read whole every step',
              <>
                <option value="">dynamic (default)</option>
                <option value="static">static</option>
              </>,
            )}
          {(workload.engine === 'vllm' || workload.engine === 'vllm-v0') &&
            choice(
              'vllm_sampler',
              'Sampler (vLLM)',
              "the profile run's sampler, which sizes the KV cache: torch sorts max_num_seqs rows of logits (v0.11, and V0 by default); FlashInfer does not (v0.10 with FlashInfer installed)",
              <>
                <option value="">torch (default)</option>
                <option value="flashinfer">flashinfer</option>
              </>,
            )}
          {(workload.engine === 'vllm' || workload.engine === 'vllm-v0') &&
            number(
              'max_model_len',
              'Max model length (vLLM)',
              "--max-model-len: vLLM starts only if its KV cache holds one request this long; empty: the config's",
              "the config's",
            )}
          {number('tp', 'Tensor parallel (tp)', 'GPUs each layer is split over')}
          {number('pp', 'Pipeline parallel (pp)', 'stages the layers are split into')}
          {number('ep', 'Expert parallel (ep)', 'GPUs the experts are spread over (MoE)')}
          {expertDispatchApplies(workload) &&
            choice(
              'moe_dispatcher',
              'Expert dispatch',
              "how tokens reach the experts' GPUs: all-to-all, a copy per expert; DeepEP as SGLang's --moe-a2a-backend deepep runs it, FP8 and one network copy per node in prefill",
              <>
                <option value="">all-to-all (default)</option>
                <option value="deepep">DeepEP</option>
              </>,
            )}
          {number(
            'gpu_memory_utilization',
            'GPU memory utilization',
            'share of memory the engine may use (vLLM default 0.9)',
          )}
          {number('overhead_gib', 'Overhead (GiB)', 'CUDA context, workspaces, allocator reserve')}
        </div>
      </fieldset>
      <fieldset>
        <legend>Precision</legend>
        <div class="grid-fields">
          {choice(
            'weights',
            'Weight format',
            workload.weights === ''
              ? 'the format the checkpoint is stored in (its quantization_config, else torch_dtype), as the CLI uses'
              : formats?.weight_formats.find((f) => f.id === workload.weights)?.high_precision,
            <>
              <option value="">
                {checkpointWeights
                  ? `${checkpointWeights} · the checkpoint's own format`
                  : "the checkpoint's own format"}
              </option>
              {(
                formats?.weight_formats ?? (workload.weights ? [{ id: workload.weights, name: workload.weights }] : [])
              ).map((format) => (
                <option value={format.id} key={format.id}>
                  {format.id} · {format.name}
                </option>
              ))}
            </>,
          )}
          {choice(
            'kv_dtype',
            'KV cache dtype',
            'element type of the cached keys and values',
            (formats?.kv_cache_dtypes ?? [{ id: workload.kv_dtype, element_bits: 16 }]).map((dtype) => (
              <option value={dtype.id} key={dtype.id}>
                {dtype.id} ({dtype.element_bits} bits)
              </option>
            )),
          )}
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
          {number('prompt_len', 'Prompt length', 'input tokens per request')}
          {number('gen_len', 'Output length', 'generated tokens per request')}
          {number('context', 'Context length', contextHelp, 'auto')}
          {number('prefill_chunk', 'Prefill chunk', 'tokens per prefill step; 0 = whole prompt at once')}
          {number('kv_block', 'Paged KV block', 'tokens per KV block (vLLM 16); 0 = contiguous')}
          {/* Shown for a model whose tower the core counts, and while images are asked of one that has none
              (the core's refusal then shows here). */}
          {(visionTower || !['', '0'].includes(workload.images.trim())) &&
            number(
              'images',
              'Images per request',
              visionTower?.kind === 'siglip'
                ? `each adds ${visionTower.tokensPerImage ?? 256} image tokens to the prompt`
                : visionTower?.kind === 'mllama'
                  ? "their tiles' tokens are the cross-attention layers' keys and values, held once per sequence"
                  : 'their image tokens join the prompt; the count follows the image size',
            )}
          {(visionTower?.kind === 'qwen2_vl' ||
            visionTower?.kind === 'llama4' ||
            visionTower?.kind === 'mllama' ||
            workload.image_width.trim() !== '' ||
            workload.image_height.trim() !== '') && (
            <>
              {number('image_width', 'Image width (px)', 'resized as the model’s image processor does', '1024')}
              {number('image_height', 'Image height (px)', 'empty: 1024 x 1024', '1024')}
            </>
          )}
        </div>
        <label class="checkbox">
          <input
            type="checkbox"
            data-testid="eager_attention"
            checked={workload.eager_attention}
            onChange={(e) => onChange({ ...workload, eager_attention: e.currentTarget.checked })}
          />
          Eager attention (materialized score matrix, no FlashAttention)
        </label>
      </fieldset>
      {(gpu || custom) && (
        <fieldset data-testid="speed-fieldset">
          <legend>Speed and cost</legend>
          <div class="grid-fields">
            {number('flops_efficiency', 'Compute efficiency', 'share of peak FLOP/s reached; default 0.7')}
            {number('hbm_efficiency', 'Memory bandwidth efficiency', 'share of HBM bandwidth reached; default 0.8')}
            {number(
              'interconnect_efficiency',
              'Interconnect efficiency',
              'share of link bandwidth in collectives; default 0.7',
            )}
            {number(
              'price_per_gpu_hour',
              'Price per GPU-hour (USD)',
              gpu ? `empty: ${gpu.price_per_hour_usd} USD, ${gpu.price_source}` : "empty: the custom GPU's price",
              gpu ? String(gpu.price_per_hour_usd) : undefined,
            )}
          </div>
          {fp8Formats.has(workload.weights) && (
            <label class="checkbox">
              <input
                type="checkbox"
                data-testid="fp8_activations"
                checked={workload.fp8_activations}
                onChange={(e) => onChange({ ...workload, fp8_activations: e.currentTarget.checked })}
              />
              fp8 activations (W8A8: products run at the fp8 rate where the GPU has one)
            </label>
          )}
          {errorFor('fp8_activations') && (
            <p class="error" role="alert" data-testid="fp8_activations-error">
              {errorFor('fp8_activations')!.message}
            </p>
          )}
          <p class="help">
            Latency is timed for one batch of requests with the prompt and output lengths above; the efficiency defaults
            come from published measurements (listed under "What fitcheck assumed").
          </p>
        </fieldset>
      )}
    </section>
  );
}
